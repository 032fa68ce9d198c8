import warnings; warnings.filterwarnings('ignore')
import numpy as np, pennylane as qml
from pennylane import numpy as pnp
dev = qml.device('default.qubit', wires=[0,1,2,'aux'])
def body(w, crx_decomp=False):
    if crx_decomp:
        qml.ctrl(qml.RX(w[2], wires=1), control=0)  # same op via ctrl
    else:
        qml.CRX(w[2], wires=[0, 1])
    qml.RX(0.0, wires=[2]); qml.Hadamard(wires=[0]); qml.CRX(0.0, wires=[0, 1])
    qml.Rot(-2.634404, w[0], w[1], wires=[2]); qml.CNOT(wires=[1, 2])
    qml.IsingXX(2.17801, wires=[0, 2]); qml.RZ(w[3], wires=[1]); qml.CNOT(wires=[2, 0])
@qml.qnode(dev)
def circ(w):
    body(w); return qml.expval(qml.PauliZ(0))
@qml.qnode(qml.device('default.qubit', wires=[0,1,2]))
def st(w):
    body(w); return qml.state()
w = pnp.array([2.057408, -0.131254, -2.94664, 0.0], requires_grad=True)
mt = np.asarray(qml.metric_tensor(circ, approx=None, aux_wire='aux')(w))
# numeric FS metric
w0 = np.array(w); h=1e-6; psi=st(w0)
d=[]
for i in range(4):
    e=np.zeros(4); e[i]=h; d.append((st(w0+e)-st(w0-e))/(2*h))
G=np.array([[np.real(np.vdot(d[i],d[j]) - np.vdot(d[i],psi)*np.vdot(psi,d[j])) for j in range(4)] for i in range(4)])
np.set_printoptions(precision=6, suppress=True)
print("PL metric_tensor:\n", mt); print("numeric FS:\n", G)
# same circuit with CRX(w2) removed (w2 fixed nonparam) -> check other entries
@qml.qnode(dev)
def circ2(w):
    qml.CRX(-2.94664, wires=[0,1]); qml.RX(0.0, wires=[2]); qml.Hadamard(wires=[0]); qml.CRX(0.0, wires=[0, 1])
    qml.Rot(-2.634404, w[0], w[1], wires=[2]); qml.CNOT(wires=[1, 2])
    qml.IsingXX(2.17801, wires=[0, 2]); qml.RZ(w[2], wires=[1]); qml.CNOT(wires=[2, 0])
    return qml.expval(qml.PauliZ(0))
print("without trainable CRX:\n", np.asarray(qml.metric_tensor(circ2, approx=None, aux_wire='aux')(pnp.array([2.057408,-0.131254,0.0],requires_grad=True))))
