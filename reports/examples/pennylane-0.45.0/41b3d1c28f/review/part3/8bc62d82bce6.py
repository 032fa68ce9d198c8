import numpy as np
import pennylane as qml
from pennylane import numpy as pnp

dev = qml.device('default.qubit', wires=[0, 1, 'aux'])

@qml.qnode(dev, diff_method='adjoint')
def circuit(x):
    qml.CRY(x[0], wires=[1, 0])
    qml.Rot(12.566370614359172, x[0], 9.83180783203743, wires=[0])
    qml.IsingXX(0.5 * x[0], wires=[0, 1])
    return qml.probs(wires=[1])

x = pnp.array([-3.141592653589793], requires_grad=True)
jacobian = np.asarray(qml.jacobian(circuit)(x))
# expected: central finite difference (step 1e-5) of the exact value, from a numpy simulation
expected = np.array([[0.24999999999886222], [-0.24999999999053554]])
assert jacobian.shape == expected.shape, (jacobian.shape, expected.shape)
assert np.max(np.abs(jacobian - expected)) < 1e-06, (jacobian, expected)
