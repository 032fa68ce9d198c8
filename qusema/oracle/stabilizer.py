"""Stabilizer tableaux (stim) of Clifford circuits, for equivalence at any width.

Each gate's tableau is derived from its exact matrix by conjugating X and Z generators, so any
gate the numeric core knows and that is Clifford (including rz(pi/2)-style rotations) maps.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import stim

from qusema.oracle.circuits import Circuit
from qusema.oracle.core import core
from qusema.oracle.mutation.pauli import local_pauli_matrix, pauli_decomposition


class NotClifford(ValueError):
    pass


@lru_cache(maxsize=1024)
def gate_tableau(name: str, params: tuple[float, ...]) -> stim.Tableau:
    g = core.gate_matrix(name, params)
    k = int(round(np.log2(g.shape[0])))

    def image(label: str) -> stim.PauliString:
        terms = pauli_decomposition(g @ local_pauli_matrix(label) @ g.conj().T, cutoff=1e-12)
        if len(terms) != 1:
            raise NotClifford(f"{name}{params} is not Clifford")
        (lab, c), = terms.items()
        if abs(abs(c) - 1) > 1e-9 or abs(c.imag) > 1e-9:
            raise NotClifford(f"{name}{params} is not Clifford")
        return stim.PauliString(("+" if c.real > 0 else "-") + lab.replace("I", "_"))

    xs = [image("".join("X" if j == i else "I" for j in range(k))) for i in range(k)]
    zs = [image("".join("Z" if j == i else "I" for j in range(k))) for i in range(k)]
    return stim.Tableau.from_conjugated_generators(xs=xs, zs=zs)


def tableau(circuit: Circuit) -> stim.Tableau:
    t = stim.Tableau(circuit.num_qubits)
    for name, params, qubits in circuit.unitary_ops:
        if name in ("id", "i"):
            continue
        t.append(gate_tableau(name, tuple(params)), list(qubits))
    return t
