import numpy as np
import pennylane as qml

dev = qml.device('reference.qubit', wires=[0])

@qml.qnode(dev)
def circuit():
    pass
    return qml.var(qml.Hermitian(np.array([[0j, -0.5j], [0.5j, 0j]]), wires=[0]))

result = circuit()
# expected: computed from the exact output state with numpy (first wire most significant)
expected = np.array(0.25)
actual = np.asarray(result)
assert actual.shape == expected.shape, (actual.shape, expected.shape)
assert np.max(np.abs(actual - expected)) < 1e-07, (actual, expected)
