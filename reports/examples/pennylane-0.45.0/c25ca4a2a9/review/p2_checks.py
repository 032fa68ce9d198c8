import warnings; warnings.filterwarnings('ignore')
import numpy as np, pennylane as qml
from pennylane import numpy as pnp
from pennylane.liealg import AI
# liealg.AI
for name, op in [("Hermitian(Z)", qml.Hermitian(np.diag([1.,-1.]), wires=0)),
                 ("Y(0) (has pauli_rep)", qml.Y(0)),
                 ("MultiRZ", qml.MultiRZ(0.5, wires=[0,1]))]:
    try: print("AI", name, "pauli_rep=", op.pauli_rep, "->", AI(op))
    except Exception as e: print("AI", name, "->", type(e).__name__, e)
print("AI(matrix of MultiRZ) ->", AI(qml.matrix(qml.MultiRZ(0.5, wires=[0,1]))))
print("AI(matrix of Hermitian Z) ->", AI(np.diag([1.,-1.])))
# metric tensor: CRX(0) ctrl in |0>
dev = qml.device('default.qubit', wires=2)
@qml.qnode(dev)
def c(w):
    qml.CRX(w[0], wires=[0,1]); qml.CNOT(wires=[0,1]); return qml.expval(qml.Z(0))
w = pnp.array([0.0], requires_grad=True)
for a in ['diag','block-diag']:
    print("mt", a, qml.metric_tensor(c, approx=a)(w))
print("adjoint_mt", qml.adjoint_metric_tensor(c)(w))
@qml.qnode(dev)
def c2(w):
    qml.CRX(w[0], wires=[1,0]); return qml.expval(qml.Z(0))
print("mt wires[1,0] diag", qml.metric_tensor(c2, approx='diag')(w))
# default.mixed backprop vs default.qubit
for devname in ['default.mixed','default.qubit']:
    d = qml.device(devname, wires=2)
    @qml.qnode(d, diff_method='backprop')
    def f(x):
        qml.CRX(x[0], wires=[0,1]); return qml.expval(qml.X(0))
    for xv in [0.0, 0.3, 4*np.pi]:
        x = pnp.array([xv], requires_grad=True)
        print(devname, xv, f(x), qml.jacobian(f)(x))
