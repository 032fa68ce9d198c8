import numpy as np
import pennylane as qml
from pennylane import numpy as pnp

dev = qml.device('default.qubit', wires=[0, 1, 'aux'])

@qml.qnode(dev, diff_method='adjoint')
def circuit(x):
    qml.Hadamard(wires=[1])
    qml.RX(x[0], wires=[0])
    return qml.probs(wires=[0])

x = pnp.array([0.7853981633974483, -7.06245370561058, -6.103515625e-05], requires_grad=True)
jacobian = np.asarray(qml.jacobian(circuit)(x))
# expected: central finite difference (step 1e-5) of the exact value, from a numpy simulation
expected = np.array([[-0.3535533905807408, 0.0, 0.0], [0.3535533905862919, 0.0, 0.0]])
assert jacobian.shape == expected.shape, (jacobian.shape, expected.shape)
assert np.max(np.abs(jacobian - expected)) < 1e-06, (jacobian, expected)
