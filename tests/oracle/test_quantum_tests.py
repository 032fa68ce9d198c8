"""Paper 002's unit tests with their own budgets, run as real test circuits."""

import math

import numpy as np
import pytest

from qusema.oracle.circuits import Circuit
from qusema.oracle.core import core
from qusema.oracle.quantum_tests import (
    TestCircuit,
    distribution_test,
    inverse_test,
    inverse_test_circuit,
    plan_distribution_shots,
    plan_inverse_shots,
    plan_swap_shots,
    run_test_circuit,
    statevector_test,
    swap_test,
    swap_test_circuit,
)


def states(f):
    # |<a|b>|^2 = f by construction
    a = np.array([1, 0], dtype=complex)
    b = np.array([math.sqrt(f), math.sqrt(1 - f)], dtype=complex)
    return b, a


def random_circuit(n, rng, length=12):
    ops = []
    for _ in range(length):
        if n > 1 and rng.random() < 0.3:
            a, b = (int(v) for v in rng.permutation(n)[:2])
            ops.append((str(rng.choice(["cx", "cz", "swap", "crx"])), (), (a, b)))
            if ops[-1][0] == "crx":
                ops[-1] = ("crx", (float(rng.uniform(-3, 3)),), (a, b))
        elif rng.random() < 0.5:
            ops.append((str(rng.choice(["h", "s", "t", "sx", "y"])), (), (int(rng.integers(n)),)))
        else:
            ops.append((str(rng.choice(["rx", "ry", "rz"])), (float(rng.uniform(-3, 3)),), (int(rng.integers(n)),)))
    return Circuit.from_ops(n, ops)


def pairs():
    """(program, expected, fidelity) over circuits and state vectors, 1-3 qubits."""
    rng = np.random.default_rng(7)
    out = []
    for n in (1, 2, 3):
        for _ in range(6):
            program, expected = random_circuit(n, rng), random_circuit(n, rng)
            f = core.fidelity(core.statevector(program.ops, n), core.statevector(expected.ops, n))
            out.append((program, expected, f))
        # a small fault: the expected circuit with one extra small rotation
        base = random_circuit(n, rng)
        faulty = Circuit.from_ops(n, list(base.ops) + [("ry", (0.2,), (0,))] + list(base.ops))
        twice = Circuit.from_ops(n, list(base.ops) + list(base.ops))
        out.append((faulty, twice, core.fidelity(core.statevector(faulty.ops, n), core.statevector(twice.ops, n))))
    for f in (0.0, 0.3, 0.95):
        actual, expected = states(f)
        out.append((actual, expected, f))
    return out


@pytest.mark.parametrize("program, expected, f", pairs())
def test_built_circuits_miss_per_shot_with_f_and_one_plus_f_over_two(program, expected, f):
    # The analytic cross-check: the simulated test circuits themselves give f and (1+f)/2.
    assert inverse_test_circuit(program, expected).per_shot_miss() == pytest.approx(f, abs=1e-12)
    assert swap_test_circuit(program, expected).per_shot_miss() == pytest.approx((1 + f) / 2, abs=1e-12)


def test_the_cross_check_rejects_wrongly_built_circuits():
    program, expected = random_circuit(2, np.random.default_rng(3)), random_circuit(2, np.random.default_rng(4))
    f = core.fidelity(core.statevector(program.ops, 2), core.statevector(expected.ops, 2))
    assert 0.01 < f < 0.99
    # expected preparation appended as is, not inverted
    not_inverted = Circuit.from_ops(2, list(program.ops) + list(expected.ops) + [("measure", (), (q,)) for q in (0, 1)])
    assert abs(TestCircuit("inverse", not_inverted).per_shot_miss() - f) > 1e-3
    # swap test without the closing Hadamard: the ancilla reads 0 with probability 1/2 whatever f
    good = swap_test_circuit(program, expected).circuit
    body = list(good.ops)
    last_h = max(i for i, op in enumerate(body) if op[0] == "h")
    broken = Circuit(good.num_qubits, tuple(body[:last_h] + body[last_h + 1:]))
    assert abs(TestCircuit("swap", broken).per_shot_miss() - (1 + f) / 2) > 1e-3


def test_test_circuits_agree_with_qiskit():
    from qiskit.quantum_info import Statevector

    rng = np.random.default_rng(11)
    program, expected = random_circuit(2, rng), random_circuit(2, rng)
    vector = core.statevector(random_circuit(2, rng).ops, 2)
    for built in (inverse_test_circuit(program, expected), swap_test_circuit(program, expected),
                  inverse_test_circuit(program, vector), swap_test_circuit(vector, expected)):
        qc = built.circuit.to_qiskit()
        measured = core.measured_qubits(built.circuit.ops)
        probs = Statevector(qc.remove_final_measurements(inplace=False)).probabilities(measured)
        np.testing.assert_allclose(probs, built.outcome_law(), atol=1e-12)


def test_a_correct_program_never_fails_a_shot_on_qiskit_sampler():
    from qiskit.primitives import StatevectorSampler

    program = random_circuit(3, np.random.default_rng(5))
    for built in (inverse_test_circuit(program, program), swap_test_circuit(program, program)):
        result = StatevectorSampler(seed=1).run([built.circuit.to_qiskit()], shots=500).result()[0]
        counts = next(iter(result.data.values())).get_counts()
        assert set(counts) == {"0" * len(core.measured_qubits(built.circuit.ops))}


def test_state_preparation_gate_is_exact_and_invertible():
    rng = np.random.default_rng(2)
    for n in (1, 2, 3):
        psi = rng.normal(size=2 ** n) + 1j * rng.normal(size=2 ** n)
        psi /= np.linalg.norm(psi)
        prep = core.preparation_ops(psi)
        np.testing.assert_allclose(core.statevector(prep, n), psi, atol=1e-13)
        np.testing.assert_allclose(core.statevector(prep + core.inverse_ops(prep), n), core.basis_state(n), atol=1e-13)
    np.testing.assert_allclose(core.statevector(core.preparation_ops(np.array([0, 1j])), 1), [0, 1j], atol=1e-15)


def test_one_sided_tests_miss_at_most_pe_and_never_fail_a_correct_state():
    rng = np.random.default_rng(0)
    pe = 0.05
    for f in (0.3, 0.8, 0.95):
        actual, expected = states(f)
        for plan, build, miss in ((plan_inverse_shots, inverse_test_circuit, f),
                                  (plan_swap_shots, swap_test_circuit, (1 + f) / 2)):
            budget = plan(f, pe)
            assert miss ** budget.shots <= pe < miss ** (budget.shots - 1)  # the smallest sufficient budget
            faulty, correct = build(actual, expected), build(expected, expected)
            misses = sum(run_test_circuit(faulty, budget, rng).passed for _ in range(4000))
            # binomial(4000, <=0.05): 4 sigma above the mean
            assert misses / 4000 <= pe + 4 * math.sqrt(pe * (1 - pe) / 4000)
            assert all(run_test_circuit(correct, budget, rng).passed for _ in range(200))
            assert correct.per_shot_miss() == pytest.approx(1.0, abs=1e-12)


def test_run_reports_shots_and_the_failing_readout():
    actual, expected = states(0.0)  # orthogonal: the first shot fails
    outcome = inverse_test(actual, expected, plan_inverse_shots(0.5, 0.05), np.random.default_rng(0))
    assert not outcome.passed and outcome.shots == 1 and outcome.details["failing_outcome"] == "1"
    outcome = swap_test(expected, expected, plan_swap_shots(0.9, 0.05), np.random.default_rng(0))
    assert outcome.passed and outcome.shots == outcome.budget.shots and outcome.details["circuit_qubits"] == 3


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
