import warnings; warnings.filterwarnings('ignore')
import pennylane as qml
from pennylane import numpy as pnp
op = qml.CRX(0.3, wires=[0, 1])
g, s = qml.generator(op)
print("generator:", g, "wires", g.wires, "prefactor", s)
dev = qml.device('default.qubit', wires=3)
@qml.qnode(dev)
def c(w):
    qml.CRX(w[0], wires=[0, 1])
    return qml.expval(qml.PauliZ(0))
w = pnp.array([-1.73205], requires_grad=True)
for a in ['diag', 'block-diag', None]:
    print(a, qml.metric_tensor(c, approx=a)(w))
print("adjoint", qml.adjoint_metric_tensor(c)(w))
tapes, fn = qml.metric_tensor(c, approx='diag')(w) if False else (None, None)
tape = qml.workflow.construct_tape(c)(w)
tapes, fn = qml.metric_tensor(tape, approx='diag')
for t in tapes: print(t.operations, t.measurements)
