import numpy as np, pennylane as qml
dev = qml.device('reference.qubit', wires=[0, 1, 2])
tape = qml.tape.QuantumScript([qml.BasisState(np.array([0, 1, 0]), wires=[0, 1, 2]), qml.IsingXX(0.7853981633974483, wires=[0, 2])],
                              [qml.vn_entropy(wires=[0])])
prog, cfg = dev.preprocess()
tapes, fn = prog((tape,))
for t in tapes: print(t.operations, t.measurements, t.wires, t.shots)
from pennylane.devices.reference_qubit import simulate
t = tapes[0]
state = np.zeros(2 ** len(t.wires)); state[0] = 1.0
for op in t.operations: state = op.matrix(wire_order=t.wires) @ state
print("state", np.round(state, 4), state.dtype)
print("process_state", t.measurements[0].process_state(state, t.wires))
print("process_state c128", t.measurements[0].process_state(state.astype(complex), t.wires))
print("direct default", qml.vn_entropy(wires=[0]).process_state(state, qml.wires.Wires([0,1,2])))
