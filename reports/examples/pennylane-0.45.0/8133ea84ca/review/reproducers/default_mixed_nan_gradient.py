# default.mixed (backprop, autograd): the derivative of <Z> after RX(x) at x = 0 is -sin(0) = 0;
# ProbabilityMP.process_density_matrix takes sqrt of the probabilities, whose derivative at a
# zero probability is infinite, and 0 * inf = nan.
import numpy as np
import pennylane as qp
from pennylane import numpy as pnp

dev = qp.device("default.mixed", wires=1)


@qp.qnode(dev)
def circuit(x):
    qp.RX(x, wires=0)
    return qp.expval(qp.Z(0))


x = pnp.array(0.0, requires_grad=True)
gradient = qp.grad(circuit)(x)
assert np.isfinite(gradient) and abs(gradient) < 1e-9, f"d<Z>/dx at x=0 is -sin(0) = 0, default.mixed gives {gradient}"
