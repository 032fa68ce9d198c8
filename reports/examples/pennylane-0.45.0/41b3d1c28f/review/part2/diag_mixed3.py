import numpy as np, pennylane as qml
from pennylane import numpy as pnp
dev = qml.device('default.mixed', wires=['a', 7])
x = pnp.array(1.0, requires_grad=True)
tape = qml.tape.QuantumScript([qml.CRX(x, wires=['a', 7])], [qml.expval(qml.PauliX(7))])
prog = dev.preprocess_transforms()
(tapes,), _ = prog((tape,))
print(tapes.operations)
print(dev.stopping_condition if hasattr(dev,'stopping_condition') else '')
