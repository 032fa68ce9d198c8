import numpy as np
import pennylane as qml
from pennylane import numpy as pnp


def data(values):
    """Parameters as plain data, with their types (a conversion in place is a change too)."""
    return [(type(d).__name__, np.asarray(d).tolist(), getattr(d, "requires_grad", None)) for d in values]


def observable(obs):
    if obs is None:
        return None
    parts = getattr(obs, "operands", None) or getattr(obs, "ops", None) or ()
    return (type(obs).__name__, repr(obs), data(obs.data), [observable(o) for o in parts])


def snapshot(tape):
    """Everything the tape says: operations, measurements, trainable parameters, shots, wires."""
    return {
        "operations": [(type(op).__name__, repr(op), op.wires.tolist(), data(op.data)) for op in tape.operations],
        "measurements": [(type(m).__name__, repr(m), m.wires.tolist(), observable(m.obs)) for m in tape.measurements],
        "trainable_params": list(tape.trainable_params),
        "shots": repr(tape.shots),
        "wires": tape.wires.tolist(),
    }


def make_tape():
    ops = [
        qml.Hadamard(wires=[0]),
        qml.PauliZ(wires=[0]),
        qml.CRX(0.0, wires=[0, 1]),
    ]
    measurements = [qml.expval(qml.PauliZ(0))]
    tape = qml.tape.QuantumScript(ops, measurements, shots=50)
    tape.trainable_params = []
    return tape


tape = make_tape()
before = snapshot(tape)
tapes, fn = qml.transforms.compile(tape)
first = [snapshot(t) for t in tapes]
assert snapshot(tape) == before, ('applying the transform changed the tape it was given', before, snapshot(tape))
tapes_again, fn_again = qml.transforms.compile(tape)
assert snapshot(tape) == before, ('a second application changed the tape it was given', before, snapshot(tape))
second = [snapshot(t) for t in tapes_again]
assert second == first, ('a second application to the same tape gave other tapes', first, second)
assert [snapshot(t) for t in tapes] == first, ('a second application changed the tapes the first returned', first, [snapshot(t) for t in tapes])
