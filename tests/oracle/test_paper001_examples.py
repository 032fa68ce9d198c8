"""Paper 001's worked examples, to their printed precision.

Expected numbers are the paper's printed values or closed forms derived by hand in the
comments (never values produced by the code under test)."""

import math

import numpy as np
import pytest

from qusema.oracle.circuits import Circuit
from qusema.oracle.core import core
from qusema.oracle.mutation import (
    Decision,
    Evidence,
    ExpectationTest,
    Mutation,
    Outcome,
    analyse,
    evaluate_directly,
    prune_and_group,
)
from qusema.oracle.mutation.local import undetectable_angle
from qusema.oracle.mutation.score import ScoreInterval, score_interval

THETA = math.pi / 4


def one_pair(circuit, mutation, test):
    population = prune_and_group(circuit, [mutation])
    assert len(population.mutants) == 1, population.pruned
    report = analyse(circuit, population, [test])
    return report.mutants[0].pairs[0], report


def ry_circuit(theta):
    return Circuit.from_ops(1, [("ry", (theta,), (0,))])


def test_rotation_error_gap_first_order_and_squared_gap():
    # Ry(theta) then a rotation error Ry(eta): <Z> = cos(theta + eta) instead of cos(theta), so
    # gap = -cos(theta)(1 - cos eta) - sin(theta) sin(eta): a_m = -cos theta, b_m = -sin theta.
    pair, _ = one_pair(ry_circuit(THETA), Mutation("RGI", 1, (), (("ry", (0.05,), (0,)),)),
                       ExpectationTest("Z", "0", {"Z0": 1}, threshold=0.01))
    assert round(abs(pair.gap), 6) == 0.036224
    assert pair.evidence is Evidence.ROTATION_CLOSED_FORM
    assert pair.details["a_m"] == pytest.approx(-math.cos(THETA), abs=1e-12)
    assert pair.details["b_m"] == pytest.approx(-math.sin(THETA), abs=1e-12)
    first_order = abs(pair.details["b_m"]) * 0.05
    assert round(first_order, 6) == 0.035355
    assert f"{pair.gap ** 2:.3e}" == "1.312e-03"
    assert f"{first_order ** 2:.3e}" == "1.250e-03"
    assert pair.outcome is Outcome.DETECTED


@pytest.mark.parametrize("theta,printed,digits", [(math.pi / 4, 0.293, 3), (0.05, 0.00125, 5)])
def test_deleting_ry_gives_one_minus_cos_theta(theta, printed, digits):
    pair, _ = one_pair(ry_circuit(theta), Mutation("QGD", 0, (("ry", (theta,), (0,)),), ()),
                       ExpectationTest("Z", "0", {"Z0": 1}, threshold=0.0001))
    assert round(abs(pair.gap), digits) == printed
    assert abs(pair.gap) == pytest.approx(abs(math.cos(theta) - 1), abs=1e-12)


def test_sign_flip_invisible_to_zero_and_z_but_visible_after_changing_input_or_observable():
    circuit = ry_circuit(THETA)
    flip = Mutation("QGR", 0, (("ry", (THETA,), (0,)),), (("ry", (-THETA,), (0,)),))
    hidden, _ = one_pair(circuit, flip, ExpectationTest("Z", "0", {"Z0": 1}, threshold=0.05))
    assert hidden.outcome is Outcome.SURVIVED and abs(hidden.gap) < 1e-12
    # The relative unitary Ry(-2 theta) is a rotation by 2 theta about A = -Y. On Ry(theta)|0>:
    # a_m = (<AZA> - <Z>)/2 = -cos theta, b_m = <i[A, Z]>/2 = <X> = sin theta, so the nonzero
    # zero 2 atan2(-b_m, a_m) = 2 theta - 2 pi, i.e. 2 theta mod 2 pi: exactly the mutation's angle.
    assert hidden.details["axis"] == {"Y": -1.0}
    assert hidden.details["a_m"] == pytest.approx(-math.cos(THETA), abs=1e-12)
    assert hidden.details["b_m"] == pytest.approx(math.sin(THETA), abs=1e-12)
    assert hidden.details["second_zero"] == pytest.approx(2 * THETA, abs=1e-12)
    assert hidden.details["angle"] == pytest.approx(2 * THETA, abs=1e-12)
    # Input |+>: <Z> = -sin theta for Ry(theta), +sin theta for Ry(-theta).
    new_input, _ = one_pair(circuit, flip, ExpectationTest("Z+", "+", {"Z0": 1}, threshold=0.05))
    assert abs(new_input.gap) == pytest.approx(2 * math.sin(THETA), abs=1e-12)
    # Observable X on |0>: sin theta against -sin theta.
    new_observable, _ = one_pair(circuit, flip, ExpectationTest("X", "0", {"X0": 1}, threshold=0.05))
    assert abs(new_observable.gap) == pytest.approx(2 * math.sin(THETA), abs=1e-12)
    assert new_input.outcome is new_observable.outcome is Outcome.DETECTED


def test_x_on_zero_deleted_gap_two_replaced_by_y_gap_zero_with_identical_states():
    circuit = Circuit.from_ops(1, [("x", (), (0,))])
    test = ExpectationTest("Z", "0", {"Z0": 1}, threshold=0.1)
    deleted, _ = one_pair(circuit, Mutation("QGD", 0, (("x", (), (0,)),), ()), test)
    assert abs(deleted.gap) == pytest.approx(2.0, abs=1e-12)
    to_y = Mutation("QGR", 0, (("x", (), (0,)),), (("y", (), (0,)),))
    replaced, _ = one_pair(circuit, to_y, test)
    assert replaced.decision is Decision.SKIP_CERTIFIED_ZERO and replaced.gap == 0.0
    # identical output density operators: Y|0> = i|1> = i X|0>
    x_out = core.statevector(circuit.ops, 1)
    y_out = core.statevector(to_y.apply(circuit).ops, 1)
    assert np.allclose(np.outer(x_out, x_out.conj()), np.outer(y_out, y_out.conj()), atol=1e-15)


def test_rx_to_rz_replacement_moves_z_from_zero_to_one():
    circuit = Circuit.from_ops(1, [("rx", (math.pi / 2,), (0,))])
    mutation = Mutation("QGR", 0, (("rx", (math.pi / 2,), (0,)),), (("rz", (math.pi / 2,), (0,)),))
    pair, _ = one_pair(circuit, mutation, ExpectationTest("Z", "0", {"Z0": 1}, threshold=0.1))
    # <Z> after Rx(pi/2)|0> is cos(pi/2) = 0; after Rz(pi/2)|0> it is 1.
    assert pair.gap == pytest.approx(1.0, abs=1e-12)
    assert pair.evidence is Evidence.REPLACEMENT_AXIS_ANGLE  # a mixed-axis relative rotation
    assert len(pair.details["axis"]) >= 2


CNOT = Circuit.from_ops(2, [("cx", (), (0, 1))])


@pytest.mark.parametrize("eta", [0.05, 0.7, 2.0, math.pi])
def test_control_rotation_before_final_cnot_input_00_gap_one_minus_cos(eta):
    # Rx(eta)|0> = cos(eta/2)|0> - i sin(eta/2)|1>; CNOT copies it: <Z_t> = cos eta, was 1.
    mutation = Mutation("RGI", 0, (), (("rx", (eta,), (0,)),))
    pair, _ = one_pair(CNOT, mutation, ExpectationTest("Zt", "00", {"Z1": 1}, threshold=1e-4))
    assert abs(pair.gap) == pytest.approx(1 - math.cos(eta), abs=1e-12)
    if eta == math.pi:
        assert abs(pair.gap) == pytest.approx(2.0, abs=1e-12)  # the full outcome range


@pytest.mark.parametrize("eta", [0.05, 0.7, 2.0, math.pi])
def test_control_rotation_before_final_cnot_input_plus_plus_gap_zero(eta):
    mutation = Mutation("RGI", 0, (), (("rx", (eta,), (0,)),))
    test = ExpectationTest("Zt", "++", {"Z1": 1}, threshold=1e-4)
    pair, report = one_pair(CNOT, mutation, test)
    population = prune_and_group(CNOT, [mutation])
    direct_gap, _ = evaluate_directly(CNOT, population, [test])[(population.mutants[0].id, "Zt")]
    assert abs(direct_gap) < 1e-15
    assert pair.outcome is Outcome.SURVIVED
    # Inside the cone and not commuting with the propagated observable Z_c Z_t: the zero comes
    # from the state (|++> is an X_c eigenstate), not from structure.
    assert pair.evidence not in (Evidence.LIGHT_CONE, Evidence.OBSERVABLE_COMMUTATION)


def test_undetectable_angles_below_two_arcsin_of_half_threshold_over_range():
    limit = undetectable_angle(0.1, 2.0)
    assert round(limit, 4) == 0.1000
    assert limit == pytest.approx(2 * math.asin(0.05), abs=1e-15)
    circuit = Circuit.from_ops(1, [("h", (), (0,))])
    test = ExpectationTest("Z", "0", {"Z0": 1}, threshold=0.1)
    below, _ = one_pair(circuit, Mutation("RGI", 1, (), (("ry", (limit * 0.999,), (0,)),)), test)
    assert below.decision is Decision.SKIP_BELOW_THRESHOLD and below.evidence is Evidence.ANGLE_BOUND
    above, _ = one_pair(circuit, Mutation("RGI", 1, (), (("ry", (limit * 1.001,), (0,)),)), test)
    assert above.evidence is not Evidence.ANGLE_BOUND
    # On H|0> = |+> a Y rotation moves <Z> by -sin(eta) = 2 sin(eta/2)cos(eta/2): just above 0.1 at the limit.
    assert abs(above.gap) == pytest.approx(math.sin(limit * 1.001), abs=1e-12)


def test_score_interval_60_detected_25_survived_15_unresolved():
    interval = ScoreInterval(60, 25, 15)
    assert (float(interval.lower), float(interval.upper)) == (0.60, 0.75)
    weighted = [(Outcome.DETECTED, 1)] * 60 + [(Outcome.SURVIVED, 1)] * 25 + [(Outcome.UNRESOLVED, 1)] * 15
    assert score_interval(weighted) == interval


def test_swap_insertion_on_01_gap_two_for_z1_zero_for_symmetric_sum():
    # Paper qubits 1, 2 are ours 0, 1; |01> (qubit 1 in |0>, qubit 2 in |1>) is label "10" (qubit 0 last).
    circuit = Circuit.from_ops(2, [])
    swap = Mutation("QGI", 0, (), (("swap", (), (0, 1)),))
    z1, _ = one_pair(circuit, swap, ExpectationTest("Z1", "10", {"Z0": 1}, threshold=0.1))
    assert abs(z1.gap) == pytest.approx(2.0, abs=1e-12)
    symmetric, _ = one_pair(circuit, swap, ExpectationTest("Z1+Z2", "10", {"Z0": 1, "Z1": 1}, threshold=0.1))
    assert symmetric.decision is Decision.SKIP_CERTIFIED_ZERO  # SWAP commutes with Z1 + Z2
    assert symmetric.evidence is Evidence.OBSERVABLE_COMMUTATION
