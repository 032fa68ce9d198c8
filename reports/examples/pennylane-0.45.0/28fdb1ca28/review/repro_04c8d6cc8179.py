import numpy as np
import pennylane as qml

op = qml.TAdd(wires=[0, 1])
u = op.matrix()
actual = qml.matrix(qml.pow(op, 0, lazy=False), wire_order=op.wires)
expected = np.linalg.matrix_power(u, 0)
assert actual.shape == expected.shape, f'qml.pow(op, 0, lazy=False) has a {actual.shape} matrix, expected {expected.shape}'
deviation = np.max(np.abs(actual - expected))
assert deviation < 1e-07, f'qml.pow(op, 0, lazy=False) with op = qml.TAdd(wires=[0, 1]) differs from the matrix power by {deviation}'
