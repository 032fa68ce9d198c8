import numpy as np
import pennylane as qml
from pennylane import numpy as pnp
x = pnp.array([0.7853981633974483], requires_grad=True)
for devw in ([1, 2, 0, 'aux'], [0, 1]):
    for order in ("H1 first", "RX0 first"):
        for dm in ("adjoint", "backprop", "parameter-shift"):
            dev = qml.device('default.qubit', wires=devw)
            @qml.qnode(dev, diff_method=dm)
            def circuit(x):
                if order == "H1 first":
                    qml.Hadamard(wires=[1]); qml.RX(x[0], wires=[0])
                else:
                    qml.RX(x[0], wires=[0]); qml.Hadamard(wires=[1])
                return qml.probs(wires=[1])
            print(devw, order, dm, np.round(np.asarray(qml.jacobian(circuit)(x)).ravel(), 6))
