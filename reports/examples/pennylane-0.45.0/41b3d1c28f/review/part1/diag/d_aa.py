import numpy as np, pennylane as qml
op = qml.AmplitudeAmplification(U=qml.Hadamard(0), O=qml.CNOT(wires=[0, 1]))
print("wires", op.wires, "decomp", op.decomposition())
try:
    print("matrix(op) shape", qml.matrix(op).shape)
except Exception as e:
    print("matrix raised", type(e).__name__, e)
try:
    print("matrix(op, wire_order=[0,1])", np.round(qml.matrix(op, wire_order=[0,1]), 3))
except Exception as e:
    print("matrix wire_order raised", type(e).__name__, e)
tape = qml.tape.QuantumScript(op.decomposition())
print("matrix of decomposition, [0,1]\n", np.round(qml.matrix(tape, wire_order=[0,1]), 3))
dev = qml.device('default.qubit')
@qml.qnode(dev)
def circ():
    qml.AmplitudeAmplification(U=qml.Hadamard(0), O=qml.CNOT(wires=[0, 1]))
    return qml.state()
try:
    print("state", np.round(circ(), 3))
except Exception as e:
    print("qnode raised", type(e).__name__, e)
