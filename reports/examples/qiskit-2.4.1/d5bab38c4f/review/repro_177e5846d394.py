import numpy as np
from qiskit import QuantumCircuit
from qiskit.circuit.equivalence_library import SessionEquivalenceLibrary
from qiskit.circuit.library import (LinearFunction, PermutationGate, UnitaryGate,
                                    get_standard_gate_name_mapping)
from qiskit.converters import circuit_to_dag, dag_to_circuit
from qiskit.quantum_info import Operator, random_unitary
from qiskit.transpiler import Target
from qiskit.transpiler.passes import UnitarySynthesis

gates = get_standard_gate_name_mapping()
basis = ['rz', 'sx', 'cp']
qc = QuantumCircuit(2, global_phase=0.0)
qc.append(UnitaryGate(random_unitary(4, seed=0)), [0, 1])
pass_ = UnitarySynthesis(basis_gates=basis)
out = dag_to_circuit(pass_.run(circuit_to_dag(qc)))

directives = {'barrier', 'reset', 'measure', 'delay'}
outside = sorted({op.name for op in (item.operation for item in out.data) if not (op.name in basis or op.name in directives)})
assert not outside, f'output uses operations outside the basis {basis}: {outside}'
expected, actual = Operator(qc).data, Operator(out).data
gap = np.max(np.abs(expected - actual))
assert gap < 1e-07, f'output Operator differs from the input: max deviation {gap} (global phase included)'
