import numpy as np
from qiskit import QuantumCircuit
from qiskit.quantum_info import Operator
from qiskit.quantum_info import Pauli


def build(N):
    """The circuit; N lists its names and labels."""
    qc = QuantumCircuit(1, name=N[0])
    qc.h(0)
    qc.h(0)
    qc.h(0)
    c1 = QuantumCircuit(1, name=N[1])
    c1.h(0)
    qc.append(c1.to_gate(), [0])
    return qc


def consume(qc):
    """Pauli.evolve(frame='s') of the circuit."""
    LABEL = 'X'
    return Pauli(LABEL).evolve(qc, frame='s')


CONSUMER = "Pauli.evolve(frame='s')"
NAMES = ['x', 'x']  # the names and labels drawn
NEUTRAL = ['neutral_name_0', 'neutral_name_1']  # the same circuit, neutral unique names
reference = consume(build(NEUTRAL))
try:
    result = consume(build(NAMES))
except Exception as exc:
    raise AssertionError(f'{CONSUMER} raised {type(exc).__name__}: {exc} once the circuit names/labels are {NAMES}, but not with neutral names') from None
assert str(result) == str(reference), f'{CONSUMER} changes when only the circuit names/labels change (to {NAMES}): {result} vs {reference} with neutral names'
