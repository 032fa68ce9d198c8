import numpy as np, pennylane as qml
from pennylane import numpy as pnp
dev = qml.device('default.qubit', wires=2)
@qml.qnode(dev)
def c(w):
    qml.CRX(w[0], wires=[0, 1])   # control in |0>: generator |1><1| x X/2 has zero variance
    return qml.expval(qml.PauliZ(1))
w = pnp.array([0.3], requires_grad=True)
print("block-diag", qml.metric_tensor(c, approx='block-diag')(w))
print("full (hadamard)", qml.metric_tensor(c, approx=None)(w))
print("generator", qml.generator(qml.CRX(0.3, wires=[0,1])))
