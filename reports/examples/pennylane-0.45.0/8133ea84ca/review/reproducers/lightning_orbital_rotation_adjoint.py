# lightning.qubit, adjoint: the derivative of <Z0> through OrbitalRotation from |1100> is 0.389
# (parameter-shift on the same device, and default.qubit); adjoint answers 0.
import numpy as np
import pennylane as qp
from pennylane import numpy as pnp

dev = qp.device("lightning.qubit", wires=4)


def circuit(x):
    qp.BasisState(np.array([1, 1, 0, 0]), wires=range(4))
    qp.OrbitalRotation(x, wires=[0, 1, 2, 3])
    return qp.expval(qp.Z(0))


x = pnp.array(0.4, requires_grad=True)
expected = qp.grad(qp.QNode(circuit, dev, diff_method="parameter-shift"))(x)
found = qp.grad(qp.QNode(circuit, dev, diff_method="adjoint"))(x)
assert np.isclose(expected, found), f"parameter-shift gives {expected}, adjoint {found}"
