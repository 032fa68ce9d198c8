"""pennylane-8746: qml.simplify of a linear combination of Identity observables returns an
operator on no wires at all.

Simplification must preserve the operator, including the wires it acts on: the
simplified 1.0 * I(0) + 2.0 * I(1) is 3 times the identity on wires [0, 1], and its
matrix (in the operator's own wire order) must be the 4x4 matrix of the original."""
import numpy as np
import pennylane as qml

H = qml.Hamiltonian([1.0, 2.0], [qml.Identity(0), qml.Identity(1)])
simplified = qml.simplify(H)
assert np.allclose(qml.matrix(simplified, wire_order=[0, 1]), 3 * np.eye(4))
assert set(simplified.wires) == {0, 1}, f"simplify returned {simplified} on wires {list(simplified.wires)}"
assert np.allclose(qml.matrix(simplified), qml.matrix(H))
