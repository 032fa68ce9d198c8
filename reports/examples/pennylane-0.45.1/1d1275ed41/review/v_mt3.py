import warnings; warnings.filterwarnings("ignore")
import numpy as np
import pennylane as qml
from pennylane import numpy as pnp
# cov_matrix directly: state |00> rotated into the generator eigenbasis (H on wire 1): probs over wires [0,1]
p = np.array([0.5, 0.5, 0.0, 0.0])
for o in (qml.X(1) @ qml.Projector([1], wires=0), qml.Projector([1], wires=0) @ qml.X(1)):
    print(o, "wires", o.wires, "eigvals", o.eigvals(), "cov_matrix var", qml.math.cov_matrix(p, [o], wires=qml.wires.Wires([0, 1])))
print("exact var of P(0)X(1) on |00>: 0")
# CRX with reversed control/target wires
for wires in ([0, 1], [1, 0]):
    dev = qml.device("default.qubit", wires=2)
    @qml.qnode(dev)
    def c(w):
        qml.RY(1.1, wires=wires[0]); qml.CRX(w[0], wires=wires)
        return qml.expval(qml.Z(0))
    x = pnp.array([0.7], requires_grad=True)
    print("CRX wires", wires, "block-diag", qml.metric_tensor(c, approx="block-diag")(x), "adjoint", qml.adjoint_metric_tensor(c)(x))
