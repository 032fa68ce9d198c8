import numpy as np, pennylane as qml
op = qml.CRX(0.0, wires=[0,1])
g, s = qml.generator(op)
print("gen", g, s, type(g))
print("eigvals", g.eigvals())
print("diag gates", g.diagonalizing_gates())
# check: eigvals ordering vs matrix of diagonalized operator
U = qml.matrix(qml.prod(*g.diagonalizing_gates()[::-1]) if g.diagonalizing_gates() else qml.Identity(0), wire_order=[0,1])
M = qml.matrix(g, wire_order=[0,1])
print("U M U^dag diag", np.round(np.diag(U @ M @ U.conj().T).real, 6))
