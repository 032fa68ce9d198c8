"""pytest helpers for people testing quantum programs.

    from qusema.oracle.assertions import assert_equivalent, assert_inverse_test, assert_swap_test

Each raises AssertionError with the oracle's verdict and, when there is one, the input that
tells the two sides apart; `unknown` fails too, with its reason, because an unproven
equivalence is not a pass. The shot-based assertions plan their own budget for the declared
smallest fault (`min_infidelity`) and error probability, and report it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from qusema.oracle.circuits import Circuit, as_circuit
from qusema.oracle.equivalence import EquivalenceConfig, check_equivalence
from qusema.oracle.quantum_tests import (
    TestOutcome,
    inverse_test,
    plan_inverse_shots,
    plan_swap_shots,
    swap_test,
)
from qusema.oracle.verdict import EquivalenceResult


def assert_equivalent(a: Any, b: Any, up_to_global_phase: bool = True,
                      config: EquivalenceConfig | None = None) -> EquivalenceResult:
    result = check_equivalence(a, b, config)
    if not result.verdict.is_equal(up_to_global_phase):
        witness = f"; counterexample input: {result.counterexample.to_dict()}" if result.counterexample else ""
        reason = f" ({result.reason})" if result.reason else ""
        raise AssertionError(f"circuits are {result.verdict.value} by {result.method}{reason}{witness}")
    return result


def _unitary_part(value: Any) -> Any:
    """A circuit without its measurements (the test circuits add their own), or a state vector."""
    if isinstance(value, np.ndarray):
        return value.astype(complex)
    circuit = as_circuit(value)
    return Circuit(circuit.num_qubits, circuit.unitary_ops)


def assert_inverse_test(program: Any, expected: Any, min_infidelity: float = 0.01, error_probability: float = 0.05,
                        seed: int = 0) -> TestOutcome:
    """Inverse test of `program`'s output state (a circuit from |0...0> or a state vector)
    against `expected` (a state vector or the circuit preparing it): the test circuit is built
    and run shot by shot on the project's numpy simulator."""
    budget = plan_inverse_shots(1 - min_infidelity, error_probability)
    outcome = inverse_test(_unitary_part(program), _unitary_part(expected), budget, np.random.default_rng(seed))
    if not outcome.passed:
        raise AssertionError(f"inverse test failed at shot {outcome.shots} of {budget.shots} "
                             f"(planned for infidelity >= {min_infidelity} at Pe={error_probability})")
    return outcome


def assert_swap_test(program: Any, expected: Any, min_infidelity: float = 0.01, error_probability: float = 0.05,
                     seed: int = 0) -> TestOutcome:
    budget = plan_swap_shots(1 - min_infidelity, error_probability)
    outcome = swap_test(_unitary_part(program), _unitary_part(expected), budget, np.random.default_rng(seed))
    if not outcome.passed:
        raise AssertionError(f"swap test failed at shot {outcome.shots} of {budget.shots} "
                             f"(planned for infidelity >= {min_infidelity} at Pe={error_probability})")
    return outcome
