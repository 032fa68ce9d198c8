import numpy as np
import pennylane as qml

dev = qml.device('reference.qubit', wires=[0, 1, 2])

@qml.qnode(dev)
def circuit():
    qml.BasisState(np.array([0, 1, 0]), wires=[0, 1, 2])
    qml.IsingXX(0.7853981633974483, wires=[0, 2])
    return qml.mutual_info(wires0=[0], wires1=[1, 2])

result = circuit()
# expected: computed from the exact output state with numpy (first wire most significant)
expected = np.array(0.832991061399375)
actual = np.asarray(result)
assert actual.shape == expected.shape, (actual.shape, expected.shape)
assert np.max(np.abs(actual - expected)) < 1e-07, (actual, expected)
