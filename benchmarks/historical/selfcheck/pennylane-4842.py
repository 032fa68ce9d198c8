"""pennylane-4842: qml.equal treats controlled operators with the same control wires in a
different order as different.

Controlling on wires {1, 2} (both on |1>) is the same operator whichever order the control
wires are listed in; qml.equal must agree with the matrices."""
import numpy as np
import pennylane as qml

# A generic base (RX), so qml.ctrl returns a Controlled operator, not a named gate.
a = qml.ctrl(qml.RX(0.3, wires=0), control=[1, 2])
b = qml.ctrl(qml.RX(0.3, wires=0), control=[2, 1])
wires = [0, 1, 2]
assert np.allclose(qml.matrix(a, wire_order=wires), qml.matrix(b, wire_order=wires))
assert qml.equal(a, b), "qml.equal says the two controlled operators differ"
