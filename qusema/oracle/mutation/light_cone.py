"""The structural backward light cone of a measured observable.

A gate belongs to the cone when it touches a qubit that the cone already holds at that point
(walking backward from the measurement). Because cones only grow as one walks backward, the
whole family of cones - one per circuit position - is one integer per qubit: the last
position at which that qubit enters. Memory is O(qubits), time O(gate-qubit incidences).
A mutation outside the cone has exactly zero effect on the observable for every input;
being inside proves nothing (paper 001, Sec. 2.7.1 and A.7).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np


@dataclass(frozen=True)
class BackwardLightCone:
    """entry[q] = the largest k such that qubit q is in the cone of the suffix starting at k
    (ops k..L-1); -1 when q never enters. The cone of suffix k is {q : entry[q] >= k}."""

    length: int
    entry: np.ndarray

    @classmethod
    def from_supports(cls, supports: Sequence[Sequence[int]], num_qubits: int,
                      observed: Iterable[int]) -> "BackwardLightCone":
        # Plain lists in the loop: per-element numpy indexing would cost more than the work.
        entry = [-1] * num_qubits
        length = len(supports)
        for q in observed:
            entry[q] = length
        for k in range(length - 1, -1, -1):
            qubits = supports[k]
            if len(qubits) == 1:
                continue  # a one-qubit gate never adds a qubit
            if any(entry[q] >= 0 for q in qubits):
                for q in qubits:
                    if entry[q] < 0:
                        entry[q] = k
        return cls(length, np.asarray(entry, dtype=np.int64))

    def qubits_at(self, position: int) -> np.ndarray:
        return np.flatnonzero(self.entry >= position)

    def touches(self, position: int, qubits: Iterable[int]) -> bool:
        """Whether an operation on `qubits` placed just before op `position` can affect the
        observable (i.e. whether it lies in the cone of the suffix starting at `position`)."""
        return any(self.entry[q] >= position for q in qubits)

    def gate_in_cone(self, k: int, qubits: Iterable[int]) -> bool:
        """Whether op k itself (on `qubits`) belongs to the cone."""
        return self.touches(k + 1, qubits)

    def membership(self, supports: Sequence[Sequence[int]]) -> list[bool]:
        """For each op k of the circuit, whether it lies in the cone (one pass, list-based)."""
        entry = self.entry.tolist()
        return [any(entry[q] > k for q in qubits) for k, qubits in enumerate(supports)]

    def nbytes(self) -> int:
        return int(self.entry.nbytes)
