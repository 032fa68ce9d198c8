import numpy as np, pennylane as qml
from pennylane import numpy as pnp
import autograd.numpy as anp, traceback
dev = qml.device('default.mixed', wires=['a', 7])
@qml.qnode(dev, diff_method='backprop')
def c1(x):
    qml.Hadamard('a'); qml.CRX(x[0], wires=['a', 7]); return qml.expval(qml.PauliZ(7))
print("H+CRX expZ", qml.jacobian(c1)(pnp.array([1.0], requires_grad=True)), "expected", -0.5*np.sin(1.0))
# where is sqrt called? wrap anp.sqrt
import pennylane.math as m
orig = anp.sqrt
def spy(x, *a, **k):
    traceback.print_stack(limit=8)
    return orig(x, *a, **k)
anp.sqrt = spy
import autoray
@qml.qnode(dev, diff_method='backprop')
def c2(x):
    qml.CRX(x[0], wires=['a', 7]); return qml.expval(qml.PauliX(7))
print(c2(pnp.array([1.0], requires_grad=True)))
anp.sqrt = orig
print(qml.matrix(qml.CRX(pnp.array(1.0, requires_grad=True), wires=[0,1])))
g = qml.jacobian(lambda x: qml.math.real(qml.matrix(qml.CRX(x, wires=[0,1]))))(pnp.array(1.0, requires_grad=True))
print(g)
