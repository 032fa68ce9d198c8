"""Mutation operators, pruning, the planner against direct simulation, Helstrom, adequacy."""

import math

import numpy as np
import pytest
from qiskit import QuantumCircuit
from qiskit.quantum_info import Statevector

from qusema.oracle.circuits import Circuit
from qusema.oracle.mutation import (
    DistributionTest,
    Evidence,
    ExpectationTest,
    Mutation,
    MutationConfig,
    Outcome,
    PlannerConfig,
    analyse,
    evaluate_directly,
    generate_mutants,
    prune_and_group,
)
from qusema.oracle.mutation.adequacy import mutation_adequacy
from qusema.oracle.mutation.helstrom import augment, helstrom_test
from qusema.oracle.mutation.light_cone import BackwardLightCone
from qusema.oracle.mutation.pauli import PauliSum


def random_circuit(n, depth, seed):
    rng = np.random.default_rng(seed)
    ops = []
    for _ in range(depth):
        kind = rng.integers(4)
        q = int(rng.integers(n))
        if kind == 0:
            ops.append((str(rng.choice(["h", "s", "t", "x", "sx"])), (), (q,)))
        elif kind == 1:
            ops.append((str(rng.choice(["rx", "ry", "rz"])), (float(rng.uniform(-3, 3)),), (q,)))
        else:
            a, b = (int(v) for v in rng.permutation(n)[:2])
            ops.append((str(rng.choice(["cx", "cz"])), (), (a, b)))
    return Circuit.from_ops(n, ops)


def test_pruning_reasons_are_exact():
    circuit = Circuit.from_ops(1, [("h", (), (0,)), ("x", (), (0,)), ("rz", (0.4,), (0,))])
    candidates = [
        Mutation("RGI", 0, (), (("rx", (0.0,), (0,)),)),                         # zero angle
        Mutation("QGR", 2, (("rz", (0.4,), (0,)),), (("p", (0.4,), (0,)),)),     # global phase only
        Mutation("QGI", 1, (), (("h", (), (0,)), ("h", (), (0,)))),              # a cancelling pair
        Mutation("QGD", 1, (("x", (), (0,)),), ()),
        Mutation("QGI", 2, (), (("x", (), (0,)),)),  # X X cancels: the same compiled form as deleting X
    ]
    population = prune_and_group(circuit, candidates)
    reasons = [p.reason for p in population.pruned]
    assert reasons[:2] == ["zero_angle", "global_phase_only"]
    assert reasons[2] in ("global_phase_only", "self_cancelling")
    assert len(population.mutants) == 1 and population.mutants[0].weight == 2
    assert population.mutants[0].grouped == ("m4",)


def test_generated_population_has_every_operator_and_no_equivalent_mutant():
    qc = QuantumCircuit(2, 2)
    qc.h(0)
    qc.cx(0, 1)
    qc.measure(0, 0)
    qc.rz(0.3, 1)
    qc.measure(1, 1)
    circuit = Circuit.from_qiskit(qc)
    population = generate_mutants(circuit)
    operators = {m.mutation.operator for m in population.mutants}
    assert operators == {"QGR", "QGD", "QGI", "RGI", "MI", "MD"}
    from qusema.oracle.core import core
    from qusema.oracle.mutation.local import relative_unitary

    for m in population.mutants:
        if not m.mutation.is_measurement:
            r, _ = relative_unitary(m.mutation)
            assert np.max(np.abs(r - r[0, 0] * np.eye(r.shape[0]))) > 1e-9
    for p in population.pruned:
        if p.reason == "global_phase_only":
            a = core.unitary(circuit.unitary_ops, 2)
            b = core.unitary(p.mutation.apply(circuit).unitary_ops, 2)
            assert core.compare_unitaries(a, b)["verdict"] != core.NOT_EQUAL


def test_light_cone_entry_times_match_brute_force_sets():
    circuit = random_circuit(6, 40, 5)
    supports = [op[2] for op in circuit.ops]
    cone = BackwardLightCone.from_supports(supports, 6, [2])
    current = {2}
    for k in range(len(supports), -1, -1):
        assert set(cone.qubits_at(k).tolist()) == current
        if k:
            if current & set(supports[k - 1]):
                current |= set(supports[k - 1])


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_planner_agrees_with_direct_simulation_on_every_pair(seed):
    circuit = random_circuit(4, 14, seed)
    population = generate_mutants(circuit, MutationConfig(operators=("QGR", "QGD", "QGI", "RGI"),
                                                          rgi_angle=0.3, max_per_operator=40, seed=seed))
    tests = [ExpectationTest("z0", "0000", {"Z0": 1}, 0.05),
             ExpectationTest("zz", "+0r1", {"Z1 Z2": 1, "X3": 0.5}, 0.1),
             DistributionTest("dist", "0000", None, 0.05)]
    report = analyse(circuit, population, tests)
    direct = evaluate_directly(circuit, population, tests)
    seen = set()
    for m in report.mutants:
        for p in m.pairs:
            gap, outcome = direct[(m.mutant.id, p.test)]
            seen.add(p.evidence)
            assert p.outcome in (outcome, Outcome.UNRESOLVED), (m.mutant.mutation.describe(), p, gap)
            if p.gap is not None and p.evidence not in (Evidence.ANGLE_BOUND, Evidence.PERTURBATIVE_INTERVAL):
                assert p.gap == pytest.approx(gap, abs=1e-9)
            if p.gap_interval is not None:
                assert p.gap_interval[0] - 1e-12 <= gap <= p.gap_interval[1] + 1e-12
            if p.evidence in (Evidence.LIGHT_CONE, Evidence.OBSERVABLE_COMMUTATION, Evidence.STATE_COMMUTATION):
                assert abs(gap) < 1e-10  # certified zeros are zeros
    assert Evidence.EXECUTED_STATEVECTOR in seen or Evidence.PAULI_PROPAGATION in seen
    assert report.score.unresolved == 0


def test_direct_gap_matches_qiskit_statevector():
    circuit = random_circuit(3, 10, 9)
    mutation = Mutation("QGD", 4, (circuit.ops[4],), ())
    population = prune_and_group(circuit, [mutation])
    gaps = evaluate_directly(circuit, population, [ExpectationTest("z", "000", {"Z1": 1}, 0.0)])
    gap = next(iter(gaps.values()))[0]
    z1 = lambda qc: Statevector(qc).expectation_value(PauliSum.from_dict(3, {"Z1": 1}).matrix()).real  # noqa: E731
    expected = z1(mutation.apply(circuit).to_qiskit()) - z1(circuit.to_qiskit())
    assert gap == pytest.approx(expected, abs=1e-12)


def test_execution_disabled_leaves_undecided_pairs_unresolved_and_in_the_interval():
    circuit = random_circuit(4, 20, 4)
    population = generate_mutants(circuit, MutationConfig(operators=("QGR", "QGD"), seed=1))
    tests = [DistributionTest("dist", "0000", None, 0.05)]
    strict = analyse(circuit, population, tests, PlannerConfig(allow_execution=False))
    full = analyse(circuit, population, tests)
    assert strict.score.unresolved > 0
    assert strict.score.lower <= full.score.lower <= full.score.upper <= strict.score.upper


def test_helstrom_observable_attains_the_trace_norm_and_beats_every_pauli():
    circuit = Circuit.from_ops(2, [("h", (), (0,)), ("cx", (), (0, 1))])
    mutant = prune_and_group(circuit, [Mutation("RGI", 2, (), (("ry", (0.4,), (1,)),))]).mutants[0]
    test = helstrom_test(circuit, mutant, "00", 0.1)
    # pure states: ||Delta tau||_1 = 2 sqrt(1 - |<a|b>|^2); Ry(0.4) on half a Bell pair: |<a|b>| = cos 0.2
    assert test.gap == pytest.approx(2 * math.sin(0.2), abs=1e-12)
    assert test.test_derived
    a = Statevector(circuit.to_qiskit()).data
    b = Statevector(mutant.mutation.apply(circuit).to_qiskit()).data
    delta = np.outer(b, b.conj()) - np.outer(a, a.conj())
    assert np.real(np.trace(test.observable @ delta)) == pytest.approx(test.gap, abs=1e-12)
    for p in ("XX", "XY", "YX", "ZI", "IZ", "XI", "YI", "ZX", "YY", "ZZ"):
        pauli = PauliSum.from_dict(2, {p: 1}).matrix()
        assert abs(np.real(np.trace(pauli @ delta))) <= test.gap + 1e-12


def test_augmentation_is_scored_on_held_out_mutants_only():
    circuit = Circuit.from_ops(2, [("h", (), (0,)), ("cx", (), (0, 1))])
    population = generate_mutants(circuit, MutationConfig(operators=("QGR", "QGD", "QGI"), seed=2))
    result = augment(circuit, population.mutants, population.mutants, "00", 0.1, seed=3)
    assert not set(result.training) & set(result.held_out)
    assert {t.derived_from for t in result.tests} <= set(result.training)
    assert result.held_out_score.population == sum(m.weight for m in population.mutants if m.id in result.held_out)


def test_mutation_adequacy_separates_a_check_that_cannot_fail():
    qc = QuantumCircuit(2)
    qc.h(0)
    qc.cx(0, 1)
    bell = Statevector(qc)

    def vacuous(circuit):
        return circuit.num_qubits == 2

    def real(circuit):
        return Statevector(circuit).equiv(bell)

    weak = mutation_adequacy(vacuous, qc)
    strong = mutation_adequacy(real, qc)
    assert weak.baseline_passes and strong.baseline_passes
    assert weak.detected == 0 and not weak.can_fail
    assert strong.score > 0.5


def test_mutation_adequacy_on_an_operator_value():
    from qusema.oracle.core import core

    u = core.unitary([("h", (), (0,)), ("cx", (), (0, 1))], 2)
    result = mutation_adequacy(lambda m: bool(np.allclose(m, u)), u)
    assert result.score == 1.0 and result.relevant > 0
    phase_blind = mutation_adequacy(lambda m: bool(np.allclose(np.abs(m), np.abs(u))), u)
    assert phase_blind.score < 1.0


def _wide_circuit(n, depth, seed):
    """Random circuit with 3-qubit gates and qubit arguments in any order."""
    rng = np.random.default_rng(seed)
    ops = []
    for _ in range(depth):
        r = rng.random()
        if r < 0.15 and n >= 3:
            a, b, c = (int(v) for v in rng.permutation(n)[:3])
            ops.append((str(rng.choice(["ccx", "cswap"])), (), (a, b, c)))
        elif r < 0.45:
            a, b = (int(v) for v in rng.permutation(n)[:2])
            ops.append(("crx", (float(rng.uniform(-3, 3)),), (a, b)) if rng.random() < 0.3
                       else (str(rng.choice(["cx", "cz", "swap"])), (), (a, b)))
        elif rng.random() < 0.5:
            ops.append((str(rng.choice(["rx", "ry"])), (float(rng.uniform(-3, 3)),), (int(rng.integers(n)),)))
        else:
            ops.append((str(rng.choice(["h", "t"])), (), (int(rng.integers(n)),)))
    return Circuit.from_ops(n, ops)


@pytest.mark.parametrize("seed", [4, 5])
def test_cone_observable_route_equals_forward_execution_and_direct(seed):
    # No Pauli sum (max_pauli_terms=0) forces execution; the cone-observable route, a cone
    # limit that is exceeded mid-sweep (fallback to the lambda sweep) and the forward route
    # without any dense observable must give the same decisions and the direct gaps.
    n = 5
    circuit = _wide_circuit(n, 24, seed)
    population = generate_mutants(circuit, MutationConfig(operators=("QGR", "QGD", "QGI", "RGI", "MI"),
                                                          rgi_angle=0.4, max_per_operator=30, seed=seed))
    tests = [ExpectationTest("zx", "0+1r0", {"Z0 X2": 1, "Z4": 0.5}, 0.05),
             ExpectationTest("z1", "00000", {"Z1": 1}, 0.05)]
    direct = evaluate_directly(circuit, population, tests)
    routes, decisions = set(), []
    for limit in (8, 3, 0):
        report = analyse(circuit, population, tests, PlannerConfig(max_pauli_terms=0, dense_cone_max_qubits=limit))
        decisions.append({k: (p.decision, p.evidence, p.outcome) for k, p in report.decisions().items()})
        for m in report.mutants:
            for p in m.pairs:
                gap, _ = direct[(m.mutant.id, p.test)]
                if p.decision.value == "execute":
                    routes.add(p.details.get("route"))
                    assert p.gap == pytest.approx(gap, abs=1e-10)
                if p.gap_interval is not None:
                    assert p.gap_interval[0] - 1e-12 <= gap <= p.gap_interval[1] + 1e-12
    assert decisions[0] == decisions[1] == decisions[2]
    assert routes == {"cone_observable", "forward_suffix"}
