import numpy as np
from qiskit import QuantumCircuit
from qiskit.circuit import AnnotatedOperation, CommutationChecker, ControlModifier, Parameter
from qiskit.circuit.library import CRZGate, XXPlusYYGate
from qiskit.quantum_info import Operator

checker = CommutationChecker()
answer = checker.commute(XXPlusYYGate(0.7853981633974483, 0.0), [0, 1], [], CRZGate(1.0), [0, 1], [], approximation_degree=0.999)
# ground truth: compare A·B with B·A as matrices
ab = QuantumCircuit(2); ab.append(CRZGate(1.0), [0, 1]); ab.append(XXPlusYYGate(0.7853981633974483, 0.0), [0, 1])
ba = QuantumCircuit(2); ba.append(XXPlusYYGate(0.7853981633974483, 0.0), [0, 1]); ba.append(CRZGate(1.0), [0, 1])
deviation = np.max(np.abs(Operator(ab).data - Operator(ba).data))
assert answer == False, f'commute() returned {answer}; the matrices say False (|AB - BA| = {deviation}; |AB - BA| = 0.189, average fidelity of AB vs BA = 0.985722184908)'
