import pennylane as qml
dev = qml.device('default.qubit', wires=[0])
@qml.qnode(dev)
def c0():
    return qml.probs()
@qml.qnode(dev)
def c1():
    qml.Identity(0)
    return qml.probs()
print(repr(qml.to_openqasm(c0, wires=dev.wires)()))
print(repr(qml.to_openqasm(c1, wires=dev.wires)()))
print(repr(qml.to_openqasm(c0, wires=[0, 1])()))
tape = qml.tape.QuantumScript([], [qml.probs(wires=[0, 1])])
print(repr(qml.to_openqasm(tape)))
