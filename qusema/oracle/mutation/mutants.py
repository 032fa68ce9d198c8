"""Mutations as local edits of a circuit: one operation sequence replaced by another.

Deletion and insertion are the same thing as replacement with an empty side (paper 001,
App. E), which is what lets the planner treat every operator through one relative unitary.
"""

from __future__ import annotations

from dataclasses import dataclass

from qusema.oracle.circuits import Circuit, Op

OPERATORS = ("QGR", "QGD", "QGI", "RGI", "MI", "MD")
OPERATOR_NAMES = {
    "QGR": "gate replacement", "QGD": "gate deletion", "QGI": "gate insertion",
    "RGI": "small-rotation insertion", "MI": "measurement insertion", "MD": "measurement deletion",
}


@dataclass(frozen=True)
class Mutation:
    """Replace ops[position : position + len(removed)] (which must equal `removed`) by `inserted`."""

    operator: str
    position: int
    removed: tuple[Op, ...]
    inserted: tuple[Op, ...]

    def apply(self, circuit: Circuit) -> Circuit:
        end = self.position + len(self.removed)
        if tuple(circuit.ops[self.position:end]) != self.removed:
            raise ValueError(f"{self.describe()} does not match the circuit at position {self.position}")
        return Circuit(circuit.num_qubits, circuit.ops[:self.position] + self.inserted + circuit.ops[end:])

    @property
    def site(self) -> int:
        """Position in the ORIGINAL circuit right after the removed ops: the relative unitary
        R = (inserted)(removed)^dagger acts on the original state at this point."""
        return self.position + len(self.removed)

    @property
    def support(self) -> tuple[int, ...]:
        qubits: set[int] = set()
        for _, _, qs in self.removed + self.inserted:
            qubits.update(qs)
        return tuple(sorted(qubits))

    @property
    def is_measurement(self) -> bool:
        return any(op[0] in ("measure", "reset") for op in self.removed + self.inserted)

    def describe(self) -> str:
        def show(ops: tuple[Op, ...]) -> str:
            return "; ".join(f"{n}({', '.join(f'{p:.4g}' for p in ps)})@{list(qs)}" if ps else f"{n}@{list(qs)}"
                             for n, ps, qs in ops) or "nothing"

        return f"{self.operator} at {self.position}: {show(self.removed)} -> {show(self.inserted)}"

    def to_dict(self) -> dict:
        def ops(o: tuple[Op, ...]) -> list:
            return [{"name": n, "params": list(ps), "qubits": list(qs)} for n, ps, qs in o]

        return {"operator": self.operator, "position": self.position, "removed": ops(self.removed),
                "inserted": ops(self.inserted)}


@dataclass(frozen=True)
class Mutant:
    """A population member. `weight` counts generated mutants with an identical compiled form
    that were grouped into this one, so score accounting keeps them all."""

    id: str
    mutation: Mutation
    weight: int = 1
    grouped: tuple[str, ...] = ()


@dataclass(frozen=True)
class PrunedMutant:
    """A generated mutant removed at generation time, with the exact reason."""

    id: str
    mutation: Mutation
    reason: str  # zero_angle | identical | global_phase_only | self_cancelling
