import numpy as np
from qiskit import QuantumCircuit
from qiskit.circuit import AnnotatedOperation, CommutationChecker, ControlModifier, Parameter
from qiskit.circuit.library import CRZGate, iSwapGate
from qiskit.quantum_info import Operator

checker = CommutationChecker()
answer = checker.commute(CRZGate(Parameter('a0')), [0, 1], [], iSwapGate(), [0, 1], [], approximation_degree=1.0)
deviation = None  # symbolic: at parameter value 0.3: average fidelity of AB vs BA = 0.991042080087
assert answer == False, f'commute() returned {answer}; the matrices say False (|AB - BA| = {deviation}; at parameter value 0.3: average fidelity of AB vs BA = 0.991042080087)'
