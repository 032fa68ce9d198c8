"""qiskit-12429: QuantumCircuit.depth ignores the classical data a switch reads.

On the buggy release the PR's cited inputs (Expr conditions, zero-operand instructions)
raise; the silent form is a switch whose target bit is not listed among the instruction's
clbits (the documented non-builder form `switch(target, cases, qubits, clbits)`): the
switch depends on the measurement that writes its target, so the depth is
h -> measure -> switch = 3, the same as the builder form gives."""
from qiskit import QuantumCircuit

qc = QuantumCircuit(2, 1)
qc.h(0)
qc.measure(0, 0)
case0 = QuantumCircuit(1)
case0.x(0)
case1 = QuantumCircuit(1)
case1.z(0)
qc.switch(qc.clbits[0], [(0, case0), (1, case1)], qubits=[1], clbits=[])

built = QuantumCircuit(2, 1)
built.h(0)
built.measure(0, 0)
with built.switch(built.clbits[0]) as case:
    with case(0):
        built.x(1)
    with case(1):
        built.z(1)

assert built.depth() == 3
assert qc.depth() == 3, f"depth() = {qc.depth()}: the switch's dependence on its target bit was ignored"
