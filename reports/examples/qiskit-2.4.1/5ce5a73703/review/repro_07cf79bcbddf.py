import numpy as np
from qiskit import QuantumCircuit
from qiskit.circuit import AnnotatedOperation, CommutationChecker, ControlModifier, Parameter
from qiskit.circuit.library import RZGate, SGate, SwapGate
from qiskit.quantum_info import Operator

checker = CommutationChecker()
answer = checker.commute(RZGate(0.0), [0], [], SGate(), [0], [], approximation_degree=1.0)
answer = checker.commute(RZGate(0.7853981633974483).control(1, ctrl_state=1), [0, 1], [], SwapGate(), [0, 1], [], approximation_degree=1.0)
# ground truth: compare A·B with B·A as matrices
ab = QuantumCircuit(2); ab.append(SwapGate(), [0, 1]); ab.append(RZGate(0.7853981633974483).control(1, ctrl_state=1), [0, 1])
ba = QuantumCircuit(2); ba.append(RZGate(0.7853981633974483).control(1, ctrl_state=1), [0, 1]); ba.append(SwapGate(), [0, 1])
deviation = np.max(np.abs(Operator(ab).data - Operator(ba).data))
assert answer == False, f'commute() returned {answer}; the matrices say False (|AB - BA| = {deviation}; |AB - BA| = 0.39, average fidelity of AB vs BA = 0.940262491123)'
