"""Paper 002's unit tests with their own budgets: error rates at the planned budget."""

import math

import numpy as np

from qusema.oracle.quantum_tests import (
    distribution_test,
    inverse_test,
    plan_distribution_shots,
    plan_inverse_shots,
    plan_swap_shots,
    statevector_test,
    swap_test,
)


def states(f):
    # |<a|b>|^2 = f by construction
    a = np.array([1, 0], dtype=complex)
    b = np.array([math.sqrt(f), math.sqrt(1 - f)], dtype=complex)
    return b, a


def test_one_sided_tests_miss_at_most_pe_and_never_fail_a_correct_state():
    rng = np.random.default_rng(0)
    pe = 0.05
    for f in (0.3, 0.8, 0.95):
        actual, expected = states(f)
        for plan, run, miss in ((plan_inverse_shots, inverse_test, f), (plan_swap_shots, swap_test, (1 + f) / 2)):
            budget = plan(f, pe)
            assert miss ** budget.shots <= pe < miss ** (budget.shots - 1)  # the smallest sufficient budget
            misses = sum(run(actual, expected, budget, rng).passed for _ in range(4000))
            # binomial(4000, <=0.05): 4 sigma above the mean
            assert misses / 4000 <= pe + 4 * math.sqrt(pe * (1 - pe) / 4000)
            assert all(run(expected, expected, budget, rng).passed for _ in range(200))


def test_statevector_test_is_exact():
    actual, expected = states(0.999999)
    assert not statevector_test(actual, expected).passed
    assert statevector_test(1j * expected, expected).passed
    assert not statevector_test(1j * expected, expected, up_to_global_phase=False).passed


def test_distribution_tests_reach_the_planned_power_and_keep_their_level():
    rng = np.random.default_rng(1)
    expected = np.array([0.5, 0.5, 0.0, 0.0])
    faulty = np.array([0.35, 0.55, 0.05, 0.05])
    budget = plan_distribution_shots(expected, faulty, 0.05)
    assert budget.shots is not None and budget.shots > 1
    for kind in ("chi2", "g", "mc_chi2"):
        detected = sum(not distribution_test(faulty, expected, kind, budget, rng, repetitions=200).passed
                       for _ in range(100))
        assert detected >= 90
    balanced = np.array([0.25, 0.25, 0.25, 0.25])
    fair = plan_distribution_shots(balanced, np.array([0.3, 0.2, 0.25, 0.25]), 0.05)
    false_alarms = sum(not distribution_test(balanced, balanced, "chi2", fair, rng).passed for _ in range(400))
    assert false_alarms / 400 < 0.05 + 4 * math.sqrt(0.05 * 0.95 / 400)
