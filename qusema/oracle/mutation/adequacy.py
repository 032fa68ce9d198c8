"""Evidence strength of a reproducer's check: can its assertion fail at all?

`mutation_adequacy(check, value)` mutates the value the check judges - a circuit (the operators
of `operators.py`) or an operator matrix (local Pauli and small-rotation perturbations) - drops
the mutants proven equivalent, and runs the check on each remaining one. The share it rejects
is the score; a check that rejects none cannot distinguish right from wrong (DESIGN.md,
principle 3). Equivalence is decided exactly (scalar relative unitary), so a check is never
blamed for passing a mutant that is the same program.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from qusema.oracle.circuits import Circuit, as_circuit
from qusema.oracle.core import core
from qusema.oracle.mutation.local import embed, is_scalar_unitary
from qusema.oracle.mutation.operators import MutationConfig, generate_mutants


@dataclass(frozen=True)
class AdequacyResult:
    detected: int
    relevant: int
    baseline_passes: bool
    survivors: list[str] = field(default_factory=list)
    equivalent_excluded: int = 0

    @property
    def score(self) -> float:
        return self.detected / self.relevant if self.relevant else 0.0

    @property
    def can_fail(self) -> bool:
        return self.detected > 0


def _rejects(check: Callable[[Any], Any], value: Any) -> bool:
    """A check rejects when it returns False or raises AssertionError; other exceptions are
    bugs in the check and propagate."""
    try:
        return check(value) is False
    except AssertionError:
        return True


def mutation_adequacy(check: Callable[[Any], Any], value: Any, config: MutationConfig | None = None,
                      max_mutants: int = 200) -> AdequacyResult:
    if isinstance(value, np.ndarray):
        return _operator_adequacy(check, value, max_mutants)
    return _circuit_adequacy(check, value, config, max_mutants)


def _circuit_adequacy(check, value, config, max_mutants) -> AdequacyResult:
    from qiskit import QuantumCircuit

    circuit = as_circuit(value)
    wants_qiskit = isinstance(value, QuantumCircuit)
    config = config or MutationConfig(operators=("QGR", "QGD", "QGI", "RGI"), max_per_operator=max_mutants // 4,
                                      rgi_angle=math.pi / 8)
    population = generate_mutants(circuit, config)
    baseline = not _rejects(check, value)
    detected, survivors, relevant = 0, [], 0
    for mutant in population.mutants:
        mutated = mutant.mutation.apply(circuit)
        relevant += mutant.weight
        if _rejects(check, mutated.to_qiskit() if wants_qiskit else mutated):
            detected += mutant.weight
        else:
            survivors.append(mutant.mutation.describe())
    return AdequacyResult(detected, relevant, baseline, survivors, len(population.pruned))


def _operator_adequacy(check, matrix: np.ndarray, max_mutants: int) -> AdequacyResult:
    dim = matrix.shape[0]
    n = int(round(math.log2(dim)))
    local = [("x", ()), ("y", ()), ("z", ()), ("h", ()), ("s", ()), ("rx", (math.pi / 8,)),
             ("ry", (math.pi / 8,)), ("rz", (math.pi / 8,))]
    baseline = not _rejects(check, matrix)
    detected, survivors, relevant, excluded = 0, [], 0, 0
    support = tuple(range(n))
    for q in range(n):
        for side in ("before", "after"):
            for name, params in local:
                if relevant >= max_mutants:
                    break
                # embed orders support[0] most significant; Qiskit's order has qubit 0 least
                # significant, so reverse to place the gate on qubit q.
                g = embed(core.gate_matrix(name, params), (n - 1 - q,), support)
                mutated = g @ matrix if side == "after" else matrix @ g
                relative = mutated @ matrix.conj().T
                if is_scalar_unitary(relative, operations=3):
                    excluded += 1
                    continue
                relevant += 1
                if _rejects(check, mutated):
                    detected += 1
                else:
                    survivors.append(f"{name}{params} on qubit {q} {side}")
    return AdequacyResult(detected, relevant, baseline, survivors, excluded)
