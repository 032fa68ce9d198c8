import warnings
import numpy as np
import pennylane as qml
from pennylane import numpy as pnp
warnings.filterwarnings('ignore')
dev = qml.device('default.qubit', wires=2)
@qml.qnode(dev, interface='autograd')
def circuit(weights):
    qml.CRX(0.0, wires=[0, 1])
    qml.CNOT(wires=[0, 1])
    qml.CRX(weights[0], wires=[0, 1])
    qml.CNOT(wires=[0, 1])
    return qml.expval(qml.PauliZ(0))
weights = pnp.array([0.0], requires_grad=True)
tape = qml.workflow.construct_tape(circuit)(weights)
print("orig tape params", tape.get_parameters(trainable_only=False), "trainable", tape.trainable_params)
from pennylane.gradients.metric_tensor import _expand_metric_tensor
[nt], _ = _expand_metric_tensor(tape, argnum=[1], approx='block-diag')
for op in nt.operations: print("  ", op)
print("expanded params", nt.get_parameters(trainable_only=False), "trainable", nt.trainable_params)
for an in [None, [1], [0]]:
    try:
        print("argnum", an, qml.metric_tensor(circuit, argnum=an, approx='block-diag')(weights))
    except Exception as e:
        print("argnum", an, type(e).__name__, e)
tapes, fn = qml.metric_tensor(tape, argnum=[1], approx='block-diag')
print("tape-level argnum=[1]:", len(tapes))
for t in tapes: print([str(o) for o in t.operations])
