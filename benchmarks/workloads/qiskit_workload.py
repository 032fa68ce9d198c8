"""A workload that exercises much of Qiskit's public API, for the call-trace check."""

import numpy as np
from qiskit import QuantumCircuit, qasm2, qasm3, transpile
from qiskit.circuit import CommutationChecker, Parameter
from qiskit.circuit.library import QFT, EfficientSU2, HGate, CXGate, RZGate, XGate, UnitaryGate
from qiskit.providers.fake_provider import GenericBackendV2
from qiskit.quantum_info import Clifford, Operator, Pauli, SparsePauliOp, Statevector, random_unitary, DensityMatrix
from qiskit.result import sampled_expectation_value
from qiskit.synthesis import synth_cnot_count_full_pmh
from qiskit.converters import circuit_to_dag, dag_to_circuit
from qiskit import qpy
import io

rng = np.random.default_rng(7)
qc = QuantumCircuit(3)
qc.h(0); qc.cx(0, 1); qc.rz(0.3, 2); qc.cx(1, 2); qc.s(1); qc.t(2); qc.ccx(0, 1, 2)
theta = Parameter("t")
qc.ry(theta, 0)
bound = qc.assign_parameters({theta: 0.7})
op = Operator(bound)
Statevector(bound).probabilities_dict()
DensityMatrix(bound).purity()
backend = GenericBackendV2(num_qubits=5, seed=1)
for level in range(4):
    transpile(bound, backend, optimization_level=level, seed_transpiler=11)
transpile(QFT(4), basis_gates=["rz", "sx", "cx"], optimization_level=2)
transpile(EfficientSU2(3, reps=1).assign_parameters(rng.random(EfficientSU2(3, reps=1).num_parameters)),
          basis_gates=["u", "cx"], optimization_level=1)
cc = CommutationChecker()
cc.commute(HGate(), [0], [], CXGate(), [0, 1], [])
cc.commute(RZGate(0.2), [0], [], CXGate(), [0, 1], [])
sampled_expectation_value({"00": 30, "11": 70}, "ZZ")
spo = SparsePauliOp.from_list([("XX", 1.0), ("ZI", -0.5)])
spo.simplify(); spo.to_matrix(); spo.is_unitary(); (spo @ spo).simplify(); spo.adjoint()
Pauli("XYZ").evolve(Clifford.from_label("III"))
Pauli("XY").evolve(QuantumCircuit(2).compose(HGate(), [0]), frame="s")
Clifford(QuantumCircuit(2)).compose(Clifford.from_label("XZ"))
qasm2.loads(qasm2.dumps(bound.decompose().decompose()), custom_instructions=qasm2.LEGACY_CUSTOM_INSTRUCTIONS)
qasm3.dumps(bound)
buf = io.BytesIO(); qpy.dump(bound, buf); buf.seek(0); qpy.load(buf)
dag_to_circuit(circuit_to_dag(bound))
UnitaryGate(random_unitary(4, seed=3)).definition
synth_cnot_count_full_pmh(np.array([[1, 1, 0], [0, 1, 0], [0, 0, 1]], dtype=bool))
op.equiv(Operator(bound))
bound.inverse(); bound.power(2); bound.control(1); bound.depth(); bound.count_ops(); bound.draw("text")
XGate().control(2, ctrl_state="01").to_matrix()
