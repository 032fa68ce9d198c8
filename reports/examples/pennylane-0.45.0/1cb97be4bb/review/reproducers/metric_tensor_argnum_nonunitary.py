# metric_tensor with argnum naming exactly the trainable parameters (0 and 3) and
# allow_nonunitary=False returns zeros where argnum=None (the same parameters) returns the metric.
import numpy as np
import pennylane as qml
from pennylane import numpy as pnp

dev = qml.device("default.qubit", wires=4)  # one wire more than the circuit's: the aux wire


@qml.qnode(dev, interface="autograd")
def circuit(weights):
    qml.CRX(weights[1], wires=[0, 1])
    qml.RX(0.0, wires=[2])
    qml.Hadamard(wires=[0])
    qml.CRX(0.0, wires=[0, 1])
    qml.RX(weights[0], wires=[2])
    qml.CZ(wires=[1, 0])
    return qml.expval(qml.PauliZ(0))


weights = pnp.array([0.333333, 1.570796], requires_grad=True)
every = qml.metric_tensor(circuit, argnum=None, approx=None, allow_nonunitary=False)(weights)
named = qml.metric_tensor(circuit, argnum=[0, 3], approx=None, allow_nonunitary=False)(weights)
print(np.round(every, 6).tolist(), np.round(named, 6).tolist())
# RX(weights[0]) acts on |0> of wire 2: its metric entry is Var(X/2) = 1/4
assert np.isclose(every[0, 0], 0.25)
assert np.allclose(named, every), "argnum=[0, 3] (the trainable parameters) differs from argnum=None"
