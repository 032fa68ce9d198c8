"""The tests a mutation analysis judges mutants with: (input, what is read, threshold).

Inputs are product-state labels written like bitstrings, qubit 0 LAST ("01" = qubit 1 in |0>,
qubit 0 in |1>; letters 0 1 + - r l), or an explicit state vector.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from qusema.oracle.core import core
from qusema.oracle.mutation.pauli import PauliSum


def input_state(spec: str | np.ndarray, num_qubits: int) -> np.ndarray:
    if isinstance(spec, str):
        if len(spec) != num_qubits:
            raise ValueError(f"input label {spec!r} has {len(spec)} qubits, the circuit {num_qubits}")
        return core.product_state(spec)
    state = np.asarray(spec, dtype=complex)
    if state.shape != (2 ** num_qubits,):
        raise ValueError(f"input state has shape {state.shape}, expected ({2 ** num_qubits},)")
    return state / np.linalg.norm(state)


@dataclass(frozen=True)
class ExpectationTest:
    """A differential expectation test: a mutant is detected when |<O>_mutant - <O>_original|
    reaches `threshold` (paper 001, Sec. 2.1). `observable` maps Pauli strings such as
    "Z0 Z1" to real coefficients."""

    name: str
    input: str | np.ndarray = field(compare=False)
    observable: dict[str, float] = field(compare=False)
    threshold: float = 0.0

    def pauli_sum(self, num_qubits: int) -> PauliSum:
        return PauliSum.from_dict(num_qubits, self.observable)

    def to_dict(self) -> dict:
        return {"name": self.name, "kind": "expectation", "input": _input_json(self.input),
                "observable": dict(self.observable), "threshold": self.threshold}


@dataclass(frozen=True)
class DistributionTest:
    """A computational-basis distribution assertion: detected when the total-variation distance
    between the mutant's and the original's outcome distributions on `qubits` (all qubits when
    None) reaches `threshold`."""

    name: str
    input: str | np.ndarray = field(compare=False)
    qubits: tuple[int, ...] | None = None
    threshold: float = 0.0

    def to_dict(self) -> dict:
        return {"name": self.name, "kind": "distribution", "input": _input_json(self.input),
                "qubits": list(self.qubits) if self.qubits is not None else None, "threshold": self.threshold}


MutationTest = ExpectationTest | DistributionTest


def _input_json(spec: str | np.ndarray):
    if isinstance(spec, str):
        return spec
    return [[complex(v).real, complex(v).imag] for v in np.asarray(spec).ravel()]
