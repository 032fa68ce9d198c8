"""qiskit-11974: UnitarySynthesis silently emits gates outside the requested basis.

With basis_gates=["x", "h", "cx"] (no continuous 1-qubit Euler basis), the pass must
either synthesize into that basis or leave the unitary alone; it must never emit a gate
the basis does not contain (here `u`). The operator is checked too."""
from qiskit import QuantumCircuit
from qiskit.quantum_info import Operator
from qiskit.transpiler.passes import UnitarySynthesis

basis = ["x", "h", "cx"]
reference = QuantumCircuit(2)
reference.x(0)
reference.cx(0, 1)
qc = QuantumCircuit(2)
qc.unitary(Operator(reference), [0, 1])

out = UnitarySynthesis(basis_gates=basis)(qc)
assert Operator(out).equiv(Operator(reference))
outside = sorted(set(out.count_ops()) - set(basis) - {"unitary"})
assert not outside, f"UnitarySynthesis emitted gates outside the basis {basis}: {outside}"
