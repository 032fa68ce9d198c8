import warnings; warnings.filterwarnings('ignore')
import numpy as np, pennylane as qml
from pennylane import numpy as pnp
dev = qml.device('default.qubit', wires=2)
def run(gates, meas):
    out = {}
    for dm in ['adjoint','backprop']:
        @qml.qnode(dev, diff_method=dm)
        def c(x):
            qml.Hadamard(0); qml.Hadamard(1); qml.RX(0.3,0); qml.RY(0.4,1)
            gates(x)
            return meas()
        out[dm] = np.round(np.asarray(qml.jacobian(c)(pnp.array(0.7, requires_grad=True))).ravel(), 6)
    return out
cases = {
 'CRY[1,0]': lambda x: qml.CRY(x, wires=[1,0]),
 'CRY[0,1]': lambda x: qml.CRY(x, wires=[0,1]),
 'RY0': lambda x: qml.RY(x, wires=0),
 'RY0 twice': lambda x: (qml.RY(x, wires=0), qml.RY(x, wires=1)),
 'CRX[0,1]': lambda x: qml.CRX(x, wires=[0,1]),
}
for name, g in cases.items():
    print(name, 'probs1', run(g, lambda: qml.probs(wires=[1])), 'probs01', run(g, lambda: qml.probs(wires=[0,1])), 'expvalZ1', run(g, lambda: qml.expval(qml.Z(1))))
