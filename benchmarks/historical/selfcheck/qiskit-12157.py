"""qiskit-12157: DAGCircuit.topological_op_nodes(key=...) does not use the key as the
tie-breaker among operations that are ready at the same time.

Four independent one-qubit gates have no ordering constraints between them, so a
lexicographical topological order of the operations must list them sorted by the key.
The key is also asked of input/output nodes (which are not returned); any string is a
valid key for them, and the sort is done on the whole graph, so the boundary nodes'
keys must not decide the order of the operations."""
from qiskit import QuantumCircuit
from qiskit.converters import circuit_to_dag
from qiskit.dagcircuit import DAGOpNode

qc = QuantumCircuit(4)
for q in range(4):
    qc.x(q)
dag = circuit_to_dag(qc)


def key(node):
    if not isinstance(node, DAGOpNode):
        return "~"
    # Reverse qubit order: the gate on qubit 3 must come first.
    return str(3 - dag.find_bit(node.qargs[0]).index)


order = [dag.find_bit(node.qargs[0]).index for node in dag.topological_op_nodes(key=key)]
assert order == [3, 2, 1, 0], f"independent gates came out on qubits {order}, expected sorted by the key: [3, 2, 1, 0]"
