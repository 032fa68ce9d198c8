"""pennylane-6359: qml.PhaseAdder without a work wire adds a wire named None.

PhaseAdder(k, x_wires) with mod = 2**len(x_wires) needs no work wire; the operator must act
on exactly its x_wires (the documented wires), not on an extra wire labelled None."""
import pennylane as qml

op = qml.PhaseAdder(1, x_wires=[0, 1, 2])
assert None not in list(op.wires), f"PhaseAdder acts on wires {list(op.wires)}"
assert list(op.wires) == [0, 1, 2], f"PhaseAdder acts on wires {list(op.wires)}, expected [0, 1, 2]"
