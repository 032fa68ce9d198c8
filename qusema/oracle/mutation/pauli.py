"""Pauli strings and Pauli sums propagated backward through gates (Heisenberg picture).

A Pauli string is a label over the register, qubit q at position q ("XIZ" = X0 Z2). The
conjugation tables are derived from the numeric core's gate matrices rather than typed in,
so every gate the simulator knows propagates, and Clifford images are exact single Paulis
with coefficient +-1 (rounded to those integers because they are known to be integers).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from itertools import product

import numpy as np

from qusema.oracle.circuits import Op
from qusema.oracle.core import core

PAULI_MATRIX = core.PAULI_MATRICES


@lru_cache(maxsize=1024)
def local_pauli_matrix(label: str) -> np.ndarray:
    """The matrix of a local label in gate-argument order (label[0] most significant).

    Cached (the planner asks for the same few labels thousands of times) and therefore
    returned read-only: callers build new arrays from it, never modify it in place.
    """
    m = np.array([[1]], dtype=complex)
    for ch in label:
        m = np.kron(m, PAULI_MATRIX[ch])
    m.setflags(write=False)
    return m


@lru_cache(maxsize=8)
def _pauli_basis(k: int) -> tuple[tuple[str, ...], np.ndarray]:
    """All k-qubit labels and, row by row, the flattened conjugates of their matrices."""
    labels = tuple("".join(p) for p in product("IXYZ", repeat=k))
    rows = np.stack([local_pauli_matrix(label).conj().ravel() for label in labels])
    rows.setflags(write=False)
    return labels, rows


def pauli_decomposition(matrix: np.ndarray, cutoff: float = 1e-14) -> dict[str, complex]:
    """Coefficients c_P = Tr(P^dagger M) / 2^k with matrix = sum_P c_P P (P in argument order).

    One matrix-vector product against the cached basis: Tr(P^dagger M) is the sum over
    entries of conj(P) * M, and a Pauli's entries are 0, +-1, +-i, so every product is exact.
    """
    k = int(round(np.log2(matrix.shape[0])))
    labels, rows = _pauli_basis(k)
    coefficients = rows @ np.asarray(matrix, dtype=complex).ravel() / 2 ** k
    return {label: complex(c) for label, c in zip(labels, coefficients) if abs(c) > cutoff}


@lru_cache(maxsize=4096)
def conjugation_table(name: str, params: tuple[float, ...]) -> tuple[bool, dict[str, tuple[tuple[complex, str], ...]]]:
    """For a gate G: (is_clifford, {P: G^dagger P G as (coefficient, label) terms}).

    Cached per (name, params): the table is a pure function of its key.
    """
    g = core.gate_matrix(name, params)
    k = int(round(np.log2(g.shape[0])))
    table: dict[str, tuple[tuple[complex, str], ...]] = {}
    clifford = True
    for label in ("".join(p) for p in product("IXYZ", repeat=k)):
        image = pauli_decomposition(g.conj().T @ local_pauli_matrix(label) @ g, cutoff=1e-13)
        if len(image) == 1:
            (lab, c), = image.items()
            rounded = complex(round(c.real), round(c.imag))
            if abs(c - rounded) < 1e-12 and abs(rounded) == 1:
                table[label] = ((rounded, lab),)
                continue
        clifford = False
        table[label] = tuple((c, lab) for lab, c in image.items())
    return clifford, table


def is_clifford_op(op: Op) -> bool:
    name, params, _ = op
    if name in ("measure", "reset", "barrier"):
        return True
    try:
        return conjugation_table(name, tuple(params))[0]
    except core.UnsupportedOperation:
        return False


@dataclass
class PauliSum:
    """sum_k c_k P_k over an n-qubit register, P_k as full labels (qubit q at index q)."""

    num_qubits: int
    terms: dict[str, complex] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, num_qubits: int, spec: dict[str, float]) -> "PauliSum":
        """From {"Z0 Z1": 1.0, "X2": 0.5} or full labels {"ZZI": 1.0}."""
        terms: dict[str, complex] = {}
        for key, coeff in spec.items():
            label = parse_pauli(key, num_qubits)
            terms[label] = terms.get(label, 0) + complex(coeff)
        return cls(num_qubits, terms)

    def copy(self) -> "PauliSum":
        return PauliSum(self.num_qubits, dict(self.terms))

    def support(self) -> set[int]:
        return {q for label in self.terms for q, ch in enumerate(label) if ch != "I"}

    def range_bound(self) -> float:
        """An upper bound on (largest - smallest eigenvalue): 2 sum |c_k| over non-identity terms."""
        return 2.0 * sum(abs(c) for label, c in self.terms.items() if set(label) != {"I"})

    def conjugate_by(self, op: Op) -> None:
        """self <- G^dagger self G for one gate, in place (the backward step)."""
        name, params, qubits = op
        if not any(label[q] != "I" for label in self.terms for q in qubits):
            return
        _, table = conjugation_table(name, tuple(params))
        new: dict[str, complex] = {}
        for label, coeff in self.terms.items():
            local = "".join(label[q] for q in qubits)
            if set(local) == {"I"}:
                new[label] = new.get(label, 0) + coeff
                continue
            chars = list(label)
            for c, image in table[local]:
                for q, ch in zip(qubits, image):
                    chars[q] = ch
                key = "".join(chars)
                new[key] = new.get(key, 0) + coeff * c
        self.terms = {k: v for k, v in new.items() if v != 0}

    def expectation(self, state: np.ndarray) -> float:
        return float(sum((c * core.pauli_expectation(state, as_qubit_dict(label))).real
                         for label, c in self.terms.items()))

    def apply(self, state: np.ndarray) -> np.ndarray:
        out = np.zeros_like(state)
        for label, c in self.terms.items():
            out += c * core.apply_pauli(state, as_qubit_dict(label))
        return out

    def matrix(self) -> np.ndarray:
        dim = 2 ** self.num_qubits
        out = np.zeros((dim, dim), dtype=complex)
        for label, c in self.terms.items():
            out += c * local_pauli_matrix(label[::-1])
        return out

    def commutes_with_local(self, matrix: np.ndarray, qubits: tuple[int, ...], tol: float) -> bool:
        """[M on qubits, self] == 0, checked group by group of the terms' parts outside `qubits`."""
        groups: dict[str, np.ndarray] = {}
        for label, c in self.terms.items():
            rest = "".join("_" if q in qubits else ch for q, ch in enumerate(label))
            local = "".join(label[q] for q in qubits)
            groups[rest] = groups.get(rest, 0) + c * local_pauli_matrix(local)
        return all(np.max(np.abs(matrix @ g - g @ matrix)) <= tol for g in groups.values())


def parse_pauli(key: str, num_qubits: int) -> str:
    key = key.strip()
    if key and set(key) <= set("IXYZ") and len(key) == num_qubits:
        return key
    chars = ["I"] * num_qubits
    for part in key.replace("*", " ").split():
        p, q = part[0].upper(), int(part[1:])
        if p not in "IXYZ" or not 0 <= q < num_qubits:
            raise ValueError(f"bad Pauli factor {part!r} in {key!r}")
        chars[q] = p
    return "".join(chars)


def as_qubit_dict(label: str) -> dict[int, str]:
    return {q: ch for q, ch in enumerate(label) if ch != "I"}
