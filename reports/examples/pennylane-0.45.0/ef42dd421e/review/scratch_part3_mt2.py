import warnings
import numpy as np
import pennylane as qml
from pennylane import numpy as pnp
warnings.filterwarnings('ignore')
op = qml.CRX(0.3, wires=[0, 1])
print("op.generator()", op.generator())
obs, s = qml.generator(op)
print("qml.generator", repr(obs), s, type(obs))
print("eigvals", obs.eigvals())
print("diag gates", obs.diagonalizing_gates())
U = qml.matrix(qml.prod(*obs.diagonalizing_gates()[::-1]) if len(obs.diagonalizing_gates())>1 else obs.diagonalizing_gates()[0], wire_order=[0,1])
D = U @ qml.matrix(obs, wire_order=[0,1]) @ U.conj().T
print("diag of U obs U^dag", np.round(np.diag(D).real, 6))
tape = qml.tape.QuantumScript([qml.CRX(pnp.array(0.0, requires_grad=True), wires=[0,1])], [qml.expval(qml.Z(0))])
tapes, fn = qml.metric_tensor(tape, approx='block-diag')
for t in tapes: print(t.operations, t.measurements)
res = qml.execute(tapes, qml.device('default.qubit', wires=2))
print("probs", res)
print("mt single CRX on |00>:", fn(res))
