import copy
import numpy as np
from qiskit import QuantumCircuit, QuantumRegister, ClassicalRegister
from qiskit.circuit import Parameter, ParameterVector
theta = Parameter("theta")
w = ParameterVector("w", 2)
qc = QuantumCircuit(QuantumRegister(1, "q"), ClassicalRegister(1, "c"), name='circuit_7', metadata={'tags': [1, 2]}, global_phase=0.0)
values = {"theta": 0.0, "w[0]": 0.0, "w[1]": 0.0}
from qiskit.converters import circuit_to_dag, dag_to_circuit
result = dag_to_circuit(circuit_to_dag(qc))

# the converted circuit owns its metadata: changing it leaves the original alone
snapshot = copy.deepcopy(qc.metadata)
result.metadata["added"] = 1
assert qc.metadata == snapshot, f"changing the metadata of the dag result changed the original: {qc.metadata!r}"
