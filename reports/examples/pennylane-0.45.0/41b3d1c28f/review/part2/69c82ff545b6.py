import numpy as np
import pennylane as qml
from pennylane import numpy as pnp

dev = qml.device('default.mixed', wires=['a', 7, 'aux'])

@qml.qnode(dev, diff_method='backprop')
def circuit(x):
    qml.CRX(-1.0 * x[0], wires=['a', 7])
    return qml.expval(qml.PauliX(7))

x = pnp.array([6.283185307179586], requires_grad=True)
jacobian = np.asarray(qml.jacobian(circuit)(x))
# expected: central finite difference (step 1e-5) of the exact value, from a numpy simulation
expected = np.array([0.0])
assert jacobian.shape == expected.shape, (jacobian.shape, expected.shape)
assert np.max(np.abs(jacobian - expected)) < 1e-06, (jacobian, expected)
