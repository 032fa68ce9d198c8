"""pennylane-8048: qml.specs runs the QNode's transform program twice.

A QNode with one user transform produces one tape; computing its specs must apply that
transform once (a transform may be expensive or have effects), and the specs must
describe the transformed circuit (RX plus the appended PauliX)."""
import pennylane as qml

calls = []


@qml.transform
def append_x(tape):
    calls.append(len(tape.operations))
    new = tape.copy(operations=tape.operations + [qml.PauliX(0)])
    return (new,), lambda results: results[0]


@append_x
@qml.qnode(qml.device("default.qubit", wires=1))
def node():
    qml.RX(0.3, 0)
    return qml.expval(qml.Z(0))


specs = qml.specs(node)()
resources = specs["resources"]
assert dict(resources.gate_types) == {"RX": 1, "PauliX": 1}, resources
assert len(calls) == 1, f"the transform was applied {len(calls)} times for one tape"
