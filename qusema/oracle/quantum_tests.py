"""Quantum unit tests of paper 002, each with its OWN shot budget.

Statevector test (exact, no shots); Inverse test (run the program, undo the expected state's
preparation, pass iff every shot reads all zeros); Swap test (pass iff the ancilla always
reads 0); chi-square, G and exact-multinomial goodness-of-fit tests and their Monte-Carlo
variants on computational-basis counts.

Budgets come from the Quantum Chernoff Bound for a declared fault size: the Inverse test
misses per shot with probability f (fidelity of actual and expected pure states), the Swap
test with (1+f)/2, so each gets N = max(ceil(ln Pe / ln sigma11), 1) for its own sigma11 -
never a budget derived from another test (the review's objection to paper 002's protocol).
Distribution tests get the classical Chernoff budget of the two outcome laws they compare.

The Inverse and Swap tests are real test circuits (paper 002, Figs. 2 and 3), built from the
program and the expected state's preparation and run shot by shot:

- Inverse test: the program, then the inverse of the expected preparation, then every qubit
  measured; a shot passes iff it reads all zeros.
- Swap test: the program on register A, the expected preparation on register B, an ancilla
  put in |+>, controlled-SWAPs of A_i and B_i on the ancilla, a Hadamard, the ancilla measured;
  a shot passes iff the ancilla reads 0.

The simulator is the project's independent numpy core (`sandbox/oracle_core.py`), never the
library under test; each shot is one outcome of the built circuit's measurements drawn from
its Born-rule law (seeded generator, so a run is reproducible), and the run stops at the
first failing shot. The per-shot miss probabilities f and (1+f)/2 are used only to plan the
budget; the tests check that the built circuits reproduce them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from qusema.oracle.circuits import Circuit, as_circuit
from qusema.oracle.core import core

STATISTICAL_TESTS = ("chi2", "g", "multinomial", "mc_chi2", "mc_g", "mc_multinomial")


@dataclass(frozen=True)
class ShotBudget:
    test: str
    shots: int | None  # None: no finite budget reaches the target (per-shot miss probability 1)
    target_error: float
    per_shot_miss: float | None = None
    chernoff_coefficient: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"test": self.test, "shots": self.shots, "target_error": self.target_error,
                "per_shot_miss": self.per_shot_miss, "chernoff_coefficient": self.chernoff_coefficient}


@dataclass(frozen=True)
class TestOutcome:
    """passed=False means the fault was detected. error_probability bounds the chance that
    this outcome is wrong for a fault of the planned size (0 for one-sided tests that fail)."""

    __test__ = False  # not a pytest class

    test: str
    passed: bool
    shots: int
    budget: ShotBudget | None
    error_probability: float
    p_value: float | None = None
    details: dict[str, Any] = field(default_factory=dict)


def plan_shots(sigma11: float, error_probability: float, test: str) -> ShotBudget:
    if sigma11 >= 1:
        return ShotBudget(test, None, error_probability, sigma11, sigma11)
    return ShotBudget(test, core.shots_for_error(error_probability, sigma11), error_probability, sigma11, sigma11)


def plan_inverse_shots(fidelity: float, error_probability: float) -> ShotBudget:
    return plan_shots(core.inverse_test_miss_probability(fidelity), error_probability, "inverse")


def plan_swap_shots(fidelity: float, error_probability: float) -> ShotBudget:
    return plan_shots(core.swap_test_miss_probability(fidelity), error_probability, "swap")


def plan_distribution_shots(expected: np.ndarray, alternative: np.ndarray, error_probability: float,
                            test: str = "distribution") -> ShotBudget:
    """Classical Chernoff budget for telling the expected law from an alternative one."""
    coefficient = core.chernoff_coefficient_classical(np.asarray(expected), np.asarray(alternative))
    if coefficient >= 1 - 1e-15:
        return ShotBudget(test, None, error_probability, None, coefficient)
    return ShotBudget(test, core.shots_for_error(error_probability, coefficient), error_probability, None, coefficient)


# ---------------------------------------------------------------------------------------------

def statevector_test(actual: np.ndarray, expected: np.ndarray, atol: float = 1e-9,
                     up_to_global_phase: bool = True) -> TestOutcome:
    cmp = core.compare_states(actual, expected, atol)
    ok = cmp["verdict"] == core.EQUAL or (up_to_global_phase and cmp["verdict"] == core.EQUAL_UP_TO_GLOBAL_PHASE)
    return TestOutcome("statevector", bool(ok), 0, None, 0.0, details=cmp)


@dataclass
class TestCircuit:
    """A built one-sided test: a circuit with terminal measurements whose outcome `passing`
    (over the measured qubits, first measured least significant) is the only passing one."""

    __test__ = False  # not a pytest class

    kind: str  # "inverse" | "swap"
    circuit: Circuit
    passing: int = 0
    _law: np.ndarray | None = field(default=None, repr=False)

    def outcome_law(self) -> np.ndarray:
        """The Born-rule law of the measured outcomes, simulated once and kept."""
        if self._law is None:
            self._law = core.outcome_law(self.circuit.ops, self.circuit.num_qubits)
        return self._law

    def per_shot_miss(self) -> float:
        """Probability that one shot passes: for a faulty program, that it misses the fault."""
        return float(self.outcome_law()[self.passing])


def _preparation(value: Any) -> tuple[int, tuple]:
    """(qubits, unitary ops taking |0...0> to the state): a circuit's own gates, or, for a
    state given as a vector, one explicit preparation gate (`core.preparation_ops`)."""
    if isinstance(value, np.ndarray):
        state = np.asarray(value, dtype=complex).ravel()
        return int(state.size).bit_length() - 1, tuple(core.preparation_ops(state))
    circuit = as_circuit(value)
    if circuit.has_measurements():
        raise ValueError("a state preparation must be unitary: remove its measurements first")
    return circuit.num_qubits, circuit.unitary_ops


def inverse_test_circuit(program: Any, expected: Any) -> TestCircuit:
    """Program, then the inverse of the expected preparation, then all qubits measured."""
    n, ops = _preparation(program)
    m, prep = _preparation(expected)
    if n != m:
        raise ValueError(f"program has {n} qubits, the expected state {m}")
    measure = [("measure", (), (q,)) for q in range(n)]
    return TestCircuit("inverse", Circuit.from_ops(n, list(ops) + core.inverse_ops(prep) + measure))


def swap_test_circuit(program: Any, expected: Any) -> TestCircuit:
    """Program on qubits 0..n-1, expected preparation on n..2n-1, ancilla 2n: H, CSWAPs, H,
    measure the ancilla."""
    n, ops = _preparation(program)
    m, prep = _preparation(expected)
    if n != m:
        raise ValueError(f"program has {n} qubits, the expected state {m}")
    ancilla = 2 * n
    shifted = [(name, params, tuple(q + n for q in qubits)) for name, params, qubits in prep]
    body = [("h", (), (ancilla,))] + [("cswap", (), (ancilla, q, q + n)) for q in range(n)] + [("h", (), (ancilla,))]
    return TestCircuit("swap", Circuit.from_ops(2 * n + 1, list(ops) + shifted + body
                                                + [("measure", (), (ancilla,))]))


def run_test_circuit(test: TestCircuit, budget: ShotBudget, rng: np.random.Generator) -> TestOutcome:
    """Runs the built test shot by shot with its own budget, stopping at the first failing
    shot (a certain detection on noiseless hardware: a correct program never fails a shot)."""
    if budget.shots is None:
        raise ValueError(f"{test.kind} test has no finite budget for this fault size")
    detected, used, failing = core.run_shots_until_failure(test.outcome_law(), budget.shots, rng, test.passing)
    measured = len(core.measured_qubits(test.circuit.ops))
    details = {"per_shot_miss": test.per_shot_miss(), "simulator": "qusema numpy core (sandbox/oracle_core.py)",
               "circuit_qubits": test.circuit.num_qubits, "circuit_ops": len(test.circuit.ops)}
    if failing is not None:
        details["failing_outcome"] = format(failing, f"0{measured}b")
    # A pass is wrong with probability at most the target for a fault of the planned size.
    return TestOutcome(test.kind, not detected, used, budget, 0.0 if detected else budget.target_error,
                       details=details)


def inverse_test(program: Any, expected: Any, budget: ShotBudget, rng: np.random.Generator) -> TestOutcome:
    """Builds and runs the Inverse test. `program` and `expected` are circuits (Circuit,
    QuantumCircuit, .qasm path) run from |0...0>, or state vectors (prepared by one gate)."""
    return run_test_circuit(inverse_test_circuit(program, expected), budget, rng)


def swap_test(program: Any, expected: Any, budget: ShotBudget, rng: np.random.Generator) -> TestOutcome:
    """Builds and runs the Swap test (same arguments as `inverse_test`)."""
    return run_test_circuit(swap_test_circuit(program, expected), budget, rng)


def distribution_test(actual_probs: np.ndarray, expected_probs: np.ndarray, kind: str, budget: ShotBudget,
                      rng: np.random.Generator, alpha: float = 0.05, repetitions: int = 1000) -> TestOutcome:
    """Samples `budget.shots` outcomes from the actual law and tests them against the expected."""
    if budget.shots is None:
        raise ValueError(f"{kind} test has no finite budget for this fault size")
    probs = np.clip(np.asarray(actual_probs, dtype=float), 0, None)
    counts = rng.multinomial(budget.shots, probs / probs.sum())
    p_value = statistical_p_value(counts, expected_probs, kind, rng, repetitions)
    return TestOutcome(kind, p_value >= alpha, budget.shots, budget, alpha, p_value)


def statistical_p_value(counts: np.ndarray, expected_probs: np.ndarray, kind: str, rng: np.random.Generator,
                        repetitions: int = 1000) -> float:
    if kind == "chi2":
        return core.chi_square_test(counts, expected_probs)
    if kind == "g":
        return core.g_test(counts, expected_probs)
    if kind == "multinomial":
        return core.multinomial_exact_test(counts, expected_probs)
    if kind.startswith("mc_"):
        return core.monte_carlo_test(counts, expected_probs, kind[3:], rng, repetitions)
    raise ValueError(f"unknown statistical test {kind!r}; choose from {STATISTICAL_TESTS}")


def swap_ratio_exceeds_two(fidelity: float, error_probability: float) -> bool:
    """Whether the Swap test's own budget is more than twice the Inverse test's (it is for
    every f < 1, because ((1+f)/2)^2 > f)."""
    inv = math.log(error_probability) / math.log(fidelity)
    swap = math.log(error_probability) / math.log((1 + fidelity) / 2)
    return swap > 2 * inv
