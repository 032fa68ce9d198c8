import pennylane as qml
def mk():
    return qml.tape.QuantumScript([qml.Hadamard(0), qml.PauliZ(0), qml.CRX(0.0, wires=[0, 1])], [qml.expval(qml.PauliZ(0))])
t = mk(); before = [o.name for o in t.operations]
qml.transforms.commute_controlled(t)
print("commute_controlled: before", before, "after", [o.name for o in t.operations])
t = mk(); qml.transforms.compile(t)
print("compile: after", [o.name for o in t.operations])
