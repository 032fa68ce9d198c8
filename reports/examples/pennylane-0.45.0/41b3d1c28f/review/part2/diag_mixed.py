import numpy as np, pennylane as qml
from pennylane import numpy as pnp
import traceback, warnings
for devname in ('default.mixed', 'default.qubit'):
    dev = qml.device(devname, wires=['a', 7])
    for gate in ('CRX', 'RX'):
        @qml.qnode(dev, diff_method='backprop')
        def circuit(x):
            if gate == 'CRX':
                qml.CRX(-1.0 * x[0], wires=['a', 7])
            else:
                qml.RX(-1.0 * x[0], wires=7)
            return qml.expval(qml.PauliX(7))
        for v in (6.283185307179586, 1.0, 0.0, 3.14159):
            x = pnp.array([v], requires_grad=True)
            print(devname, gate, v, qml.jacobian(circuit)(x))
# locate sqrt
np.seterr(all='raise')
dev = qml.device('default.mixed', wires=['a', 7])
@qml.qnode(dev, diff_method='backprop')
def circuit(x):
    qml.CRX(-1.0 * x[0], wires=['a', 7])
    return qml.expval(qml.PauliX(7))
try:
    qml.jacobian(circuit)(pnp.array([6.283185307179586], requires_grad=True))
except Exception:
    tb = traceback.format_exc().splitlines()
    print("\n".join(l for l in tb if 'pennylane' in l)[-3000:]); print(tb[-1])
