import warnings; warnings.filterwarnings("ignore")
import numpy as np
import pennylane as qml
from pennylane import numpy as pnp
op = qml.CRX(0.3, wires=[0, 1])
print("CRX generator:", op.generator())
g = qml.generator(op)
print("qml.generator(CRX):", g)
from pennylane.ops.functions.generator import _generator_prefactor
print("prefactor split:", _generator_prefactor(op.generator()))
Gm = qml.matrix(op.generator(), wire_order=[0,1])
print("generator matrix:\n", np.round(Gm.real, 3))
psi = np.array([1, 0, 0, 0], complex)
print("var of generator on |00> by numpy:", (psi.conj() @ Gm @ Gm @ psi - (psi.conj() @ Gm @ psi) ** 2).real)
# finite-difference Fubini-Study by hand
def state(x):
    return qml.matrix(qml.CRX(x, wires=[0, 1]), wire_order=[0,1]) @ psi
h = 1e-6; d = (state(h) - state(-h)) / (2*h); s = state(0.0)
print("FS metric by hand:", (d.conj() @ d - abs(s.conj() @ d)**2).real)
for w, label in ((2, "block-diag"), (3, "full, aux")):
    dev = qml.device("default.qubit", wires=w)
    @qml.qnode(dev)
    def c(weights):
        qml.CRX(weights[0], wires=[0, 1]); qml.CNOT(wires=[0, 1])
        return qml.expval(qml.PauliZ(0))
    x = pnp.array([0.0], requires_grad=True)
    print(label, "metric_tensor:", qml.metric_tensor(c, approx="block-diag" if w == 2 else None)(x))
    print(label, "adjoint_metric_tensor:", qml.adjoint_metric_tensor(c)(x))
    # the same thing with RX on wire 1 (no control) and with control in |1>
dev = qml.device("default.qubit", wires=2)
@qml.qnode(dev)
def c1(weights):
    qml.PauliX(0); qml.CRX(weights[0], wires=[0, 1])
    return qml.expval(qml.PauliZ(0))
print("control |1>: metric", qml.metric_tensor(c1, approx="block-diag")(pnp.array([0.0], requires_grad=True)), "(exact 0.25)")
@qml.qnode(dev)
def c2(weights):
    qml.CRX(weights[0], wires=[0, 1])
    return qml.expval(qml.PauliZ(0))
print("CRX alone, control |0>:", qml.metric_tensor(c2, approx="block-diag")(pnp.array([0.0], requires_grad=True)))
@qml.qnode(dev)
def c3(weights):
    qml.CRY(weights[0], wires=[0, 1])
    return qml.expval(qml.PauliZ(0))
print("CRY alone, control |0>:", qml.metric_tensor(c3, approx="block-diag")(pnp.array([0.0], requires_grad=True)))
@qml.qnode(dev)
def c4(weights):
    qml.Hadamard(0); qml.CRX(weights[0], wires=[0, 1])
    return qml.expval(qml.PauliZ(0))
print("control |+>: metric", qml.metric_tensor(c4, approx="block-diag")(pnp.array([0.3], requires_grad=True)), "adjoint", qml.adjoint_metric_tensor(c4)(pnp.array([0.3], requires_grad=True)), "(exact 1/8 - 0 ... see below)")
