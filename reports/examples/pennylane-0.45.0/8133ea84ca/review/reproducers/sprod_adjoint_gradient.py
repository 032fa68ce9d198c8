# adjoint differentiation of <s * H> after RX(theta): d/ds = <H>, d/dtheta = s * d<H>/dtheta.
# backprop and parameter-shift agree; adjoint answers (d/dtheta, 0): the derivatives are shifted.
import numpy as np
import pennylane as qp
from pennylane import numpy as pnp

dev = qp.device("default.qubit", wires=1)


def circuit(scalar, theta):
    qp.RX(theta, wires=0)
    return qp.expval(qp.s_prod(scalar, qp.Hadamard(wires=0)))


s, t = pnp.array(1.2, requires_grad=True), pnp.array(3.4, requires_grad=True)
expected = qp.grad(qp.QNode(circuit, dev, diff_method="parameter-shift"))(s, t)
found = qp.grad(qp.QNode(circuit, dev, diff_method="adjoint"))(s, t)
assert np.allclose(expected, found), f"parameter-shift gives {expected}, adjoint {found}"
