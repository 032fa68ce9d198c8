"""qiskit-10570: circuit_to_dag does not copy the circuit's metadata; the DAG shares the
same dict, so changing the DAG's metadata silently changes the circuit's.

A conversion returns a new object: mutating its metadata must leave the source circuit
unchanged (and the converted metadata must be equal to the original)."""
from qiskit import QuantumCircuit
from qiskit.converters import circuit_to_dag

qc = QuantumCircuit(1, metadata={"experiment": "a"})
qc.h(0)
dag = circuit_to_dag(qc)
assert dag.metadata == {"experiment": "a"}
dag.metadata["experiment"] = "b"
assert qc.metadata == {"experiment": "a"}, f"circuit metadata changed through the DAG: {qc.metadata}"
