import warnings; warnings.filterwarnings('ignore')
import numpy as np, pennylane as qml
from pennylane import numpy as pnp
def make(dm, ops='full'):
    dev = qml.device('default.qubit', wires=[0,1,'aux'])
    @qml.qnode(dev, diff_method=dm)
    def circuit(x):
        if ops=='full': qml.CRY(x[0], wires=[1, 0])
        qml.Rot(12.566370614359172, x[0], 9.83180783203743, wires=[0])
        qml.IsingXX(0.5 * x[0], wires=[0, 1])
        return qml.probs(wires=[1])
    return circuit
for x0 in [-np.pi, -3.0, 0.7]:
    x = pnp.array([x0], requires_grad=True)
    for dm in ['adjoint','backprop','parameter-shift','finite-diff']:
        print(x0, dm, np.round(np.asarray(qml.jacobian(make(dm))(x)).ravel(),6), 'noCRY', np.round(np.asarray(qml.jacobian(make(dm,'noCRY'))(x)).ravel(),6))
# expval variant
dev = qml.device('default.qubit', wires=[0,1])
for dm in ['adjoint','backprop']:
    @qml.qnode(dev, diff_method=dm)
    def c(x):
        qml.CRY(x[0], wires=[1, 0]); qml.Rot(12.566370614359172, x[0], 9.83180783203743, wires=[0]); qml.IsingXX(0.5 * x[0], wires=[0, 1])
        return qml.expval(qml.Z(1))
    print('expval Z1', dm, qml.jacobian(c)(pnp.array([-np.pi], requires_grad=True)))
