"""qiskit-12093: Pauli.evolve(circuit, frame='s') uses the circuit's *name* when it equals a
basis gate name, ignoring the circuit's contents.

A one-qubit circuit named "h" that contains only an X gate: evolving Z by it (Schrodinger
frame, P -> C P C^dagger) must give X Z X = -Z, not H Z H = X. The expected value is
checked against the dense matrices."""
import numpy as np
from qiskit import QuantumCircuit
from qiskit.quantum_info import Operator, Pauli

qc = QuantumCircuit(1, name="h")
qc.x(0)
evolved = Pauli("Z").evolve(qc, frame="s")
u = Operator(qc).data
expected = u @ Pauli("Z").to_matrix() @ u.conj().T
assert np.allclose(evolved.to_matrix(), expected), f"evolve gave {evolved}, expected -Z"
