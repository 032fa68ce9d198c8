import numpy as np
import pennylane as qml
from pennylane import numpy as pnp

dev = qml.device('default.mixed', wires=[0, 1, 'aux'])

@qml.qnode(dev, diff_method='backprop')
def circuit(x):
    qml.CRX(0.5 * x[0], wires=[0, 1])
    return qml.expval(qml.PauliZ(0))

x = pnp.array([0.0], requires_grad=True)
jacobian = np.asarray(qml.jacobian(circuit)(x))
# expected: central finite difference (step 1e-5) of the exact value, from a numpy simulation
expected = np.array([0.0])
assert jacobian.shape == expected.shape, (jacobian.shape, expected.shape)
assert np.max(np.abs(jacobian - expected)) < 1e-06, (jacobian, expected)
