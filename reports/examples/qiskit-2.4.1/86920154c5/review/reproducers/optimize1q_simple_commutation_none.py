from qiskit import QuantumCircuit
from qiskit.circuit import Parameter
from qiskit.circuit.library import RZGate
from qiskit.converters import circuit_to_dag
from qiskit.transpiler import Target
from qiskit.transpiler.passes import Optimize1qGatesDecomposition, Optimize1qGatesSimpleCommutation

target = Target(num_qubits=1)
target.add_instruction(RZGate(Parameter("a")))  # a target whose only 1q gate is RZ
circuit = QuantumCircuit(1)
circuit.h(0)
circuit.rz(0.5, 0)
circuit.h(0)
Optimize1qGatesDecomposition(target=target).run(circuit_to_dag(circuit))  # leaves the run alone
Optimize1qGatesSimpleCommutation(target=target).run(circuit_to_dag(circuit))  # AttributeError on None
