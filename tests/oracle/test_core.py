"""sandbox/oracle_core.py against independent references: Qiskit's matrices, scipy's statistics,
closed forms derived by hand."""

import math
import sys
from pathlib import Path

import numpy as np
import pytest
from qiskit import QuantumCircuit
from qiskit.circuit.library import get_standard_gate_name_mapping
from qiskit.quantum_info import Operator, Statevector
from scipy import stats

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "sandbox"))
import oracle_core as oc  # noqa: E402  (the file itself, as the sandbox imports it)


def test_core_imports_only_stdlib_and_numpy():
    source = (Path(oc.__file__)).read_text()
    imported = {line.split()[1].split(".")[0] for line in source.splitlines()
                if line.startswith(("import ", "from ")) and not line.startswith("from __future__")}
    assert imported <= {"cmath", "itertools", "math", "typing", "numpy"}


@pytest.mark.parametrize("name", sorted(g for g in oc.STANDARD_GATES if g in get_standard_gate_name_mapping()))
def test_gate_matrices_match_qiskit(name):
    gate = get_standard_gate_name_mapping()[name]
    params = [0.37, 1.1, -0.6, 0.25][:len(gate.params)]
    gate = gate.base_class(*params) if params else gate
    k = gate.num_qubits
    qubits = [2, 0, 1][:k] if k > 1 else [1]
    qc = QuantumCircuit(3)
    qc.append(gate, qubits)
    ours = oc.unitary([(name, tuple(params), tuple(qubits))], 3)
    assert np.allclose(ours, Operator(qc).data, atol=1e-12)


def test_statevector_and_inverse_match_qiskit_on_a_random_circuit():
    rng = np.random.default_rng(7)
    qc = QuantumCircuit(4)
    names = ["h", "sx", "t", "rx", "ry", "rz", "cx", "cz", "swap", "cry", "rzz", "u"]
    for _ in range(40):
        name = names[rng.integers(len(names))]
        gate = get_standard_gate_name_mapping()[name]
        params = list(rng.uniform(-3, 3, len(gate.params)))
        qubits = [int(q) for q in rng.permutation(4)[:gate.num_qubits]]
        qc.append(gate.base_class(*params) if params else gate, qubits)
    n, ops = oc.ops_from_circuit(qc)
    assert np.allclose(oc.statevector(ops, n), Statevector(qc).data, atol=1e-12)
    roundtrip = oc.unitary(ops + oc.inverse_ops(ops), n)
    assert np.allclose(roundtrip, np.eye(16), atol=1e-12)


def test_compare_unitaries_names_a_superposition_when_basis_inputs_agree_up_to_phase():
    result = oc.compare_unitaries(np.eye(2), np.diag([1, -1]))
    assert result["verdict"] == oc.NOT_EQUAL
    assert result["counterexample"] == {"kind": "superposition", "indices": [0, 1]}
    witness = oc.counterexample_state(result["counterexample"], 1)
    assert abs(abs(np.vdot(witness, np.diag([1, -1]) @ witness)) - 1) > 0.5


def test_compare_distinguishes_equal_from_global_phase():
    u = oc.unitary([("h", (), (0,))], 1)
    assert oc.compare_unitaries(u, u)["verdict"] == oc.EQUAL
    assert oc.compare_unitaries(u, 1j * u)["verdict"] == oc.EQUAL_UP_TO_GLOBAL_PHASE
    assert oc.compare_states(np.array([1, 0]), np.array([0, 1]))["verdict"] == oc.NOT_EQUAL


def test_fidelity_and_trace_distance_closed_forms():
    a = np.array([1, 0], dtype=complex)
    b = np.array([math.cos(0.3), math.sin(0.3)], dtype=complex)
    assert oc.fidelity(a, b) == pytest.approx(math.cos(0.3) ** 2, abs=1e-14)
    assert oc.trace_distance(a, b) == pytest.approx(math.sin(0.3), abs=1e-14)
    rho = np.diag([0.7, 0.3])
    sigma = np.diag([0.4, 0.6])
    assert oc.fidelity(rho, sigma) == pytest.approx((math.sqrt(0.28) + math.sqrt(0.18)) ** 2, abs=1e-12)
    assert oc.trace_distance(rho, sigma) == pytest.approx(0.3, abs=1e-12)


def test_pauli_expectation_matches_dense():
    rng = np.random.default_rng(3)
    state = rng.normal(size=8) + 1j * rng.normal(size=8)
    state /= np.linalg.norm(state)
    dense = np.kron(np.kron(oc.PAULI_MATRICES["Y"], oc.PAULI_MATRICES["I"]), oc.PAULI_MATRICES["X"])  # Y2 X0
    assert oc.pauli_expectation(state, {0: "X", 2: "Y"}) == pytest.approx(np.real(np.vdot(state, dense @ state)), abs=1e-12)


# --- paper 002, shot formula -------------------------------------------------------------------

def test_shot_formula_printed_values():
    assert oc.shots_for_error(0.01, 0.99) == 459
    assert oc.shots_for_error(0.01, 0.9) == 44
    assert oc.shots_for_error(0.05, 0.0) == 1  # orthogonal states: the review's corrected Case 1
    with pytest.raises(ValueError):
        oc.shots_for_error(0.05, 1.0)


@pytest.mark.parametrize("f", [0.0, 0.1, 0.5, 0.9, 0.99, 0.999999])
def test_swap_budget_exceeds_twice_inverse_budget(f):
    pe = 0.05
    inverse = oc.shots_for_error(pe, oc.inverse_test_miss_probability(f))
    swap = oc.shots_for_error(pe, oc.swap_test_miss_probability(f))
    real_inv = math.log(pe) / math.log(f) if f > 0 else 0.0
    real_swap = math.log(pe) / math.log((1 + f) / 2)
    assert real_swap > 2 * real_inv
    assert swap >= 2 * inverse - 1  # the ceilings can cost at most one shot of the margin
    # the planned budgets reach the target: miss probability sigma^N <= Pe
    assert f ** inverse <= pe and ((1 + f) / 2) ** swap <= pe


def test_quantum_chernoff_coefficient_of_pure_states_is_the_fidelity():
    a = np.array([1, 0], dtype=complex)
    b = np.array([math.cos(0.4), 1j * math.sin(0.4)], dtype=complex)
    assert oc.chernoff_coefficient(a, b) == pytest.approx(math.cos(0.4) ** 2, abs=1e-9)
    assert oc.chernoff_coefficient(a, np.array([0, 1], dtype=complex)) == pytest.approx(0.0, abs=1e-12)


def test_classical_chernoff_coefficient_against_scipy_minimiser():
    from scipy.optimize import minimize_scalar

    p, q = np.array([0.5, 0.3, 0.2]), np.array([0.2, 0.2, 0.6])
    ref = minimize_scalar(lambda s: np.sum(p ** s * q ** (1 - s)), bounds=(0, 1), method="bounded").fun
    assert oc.chernoff_coefficient_classical(p, q) == pytest.approx(ref, abs=1e-8)


# --- statistical tests against scipy ----------------------------------------------------------

@pytest.mark.parametrize("x,k", [(0.5, 1), (3.2, 2), (10.0, 7), (40.0, 15), (0.01, 30), (200.0, 31)])
def test_chi2_survival_matches_scipy(x, k):
    assert oc.chi2_survival(x, k) == pytest.approx(stats.chi2.sf(x, k), rel=1e-9, abs=1e-300)


def test_chi_square_and_g_tests_match_scipy():
    counts = [18, 30, 25, 27]
    expected = [0.25, 0.25, 0.25, 0.25]
    assert oc.chi_square_test(counts, expected) == pytest.approx(stats.chisquare(counts).pvalue, rel=1e-9)
    g = stats.power_divergence(counts, lambda_="log-likelihood").pvalue
    assert oc.g_test(counts, expected) == pytest.approx(g, rel=1e-9)
    assert oc.chi_square_test([3, 1], [1.0, 0.0]) == 0.0  # an impossible outcome was observed


def test_exact_multinomial_test_by_enumeration_with_scipy_pmf():
    counts, probs = [4, 1, 0], [0.5, 0.3, 0.2]
    observed = stats.multinomial.pmf(counts, 5, probs)
    reference = sum(stats.multinomial.pmf([a, b, 5 - a - b], 5, probs)
                    for a in range(6) for b in range(6 - a)
                    if stats.multinomial.pmf([a, b, 5 - a - b], 5, probs) <= observed * (1 + 1e-9))
    assert oc.multinomial_exact_test(counts, probs) == pytest.approx(reference, rel=1e-9)


def test_monte_carlo_p_values_track_the_asymptotic_ones():
    rng = np.random.default_rng(11)
    counts, probs = [60, 40, 50, 50], [0.25] * 4
    asymptotic = stats.chisquare(counts).pvalue
    mc = oc.monte_carlo_test(counts, probs, "chi2", rng, repetitions=4000)
    assert abs(mc - asymptotic) < 0.03
    assert oc.monte_carlo_test([200, 0, 0, 0], probs, "multinomial", rng, 500) == pytest.approx(1 / 501)
