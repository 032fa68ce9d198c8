"""qiskit-15465: Isometry drops the phase of the isometry [[-1], [0]].

An Isometry gate for the column vector v must map |0> to v exactly (an isometry is a
matrix, not a state up to global phase): the first column of its operator must be v."""
import numpy as np
from qiskit import QuantumCircuit
from qiskit.circuit.library import Isometry
from qiskit.quantum_info import Operator

v = np.array([[-1.0], [0.0]])
qc = QuantumCircuit(1)
qc.append(Isometry(v, 0, 0), [0])
column = Operator(qc).data[:, :1]
assert np.allclose(column, v, atol=1e-9), f"Isometry maps |0> to {column.ravel()}, expected {v.ravel()}"
