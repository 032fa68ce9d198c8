import numpy as np
from qiskit import QuantumCircuit
from qiskit.quantum_info import Operator
from qiskit.quantum_info import Clifford


def build(N):
    """The circuit; N lists its names and labels."""
    qc = QuantumCircuit(2, name=N[0])
    qc.cx(0, 1)
    qc.cx(0, 1)
    qc.cx(0, 1)
    c1 = QuantumCircuit(1, name=N[1])
    c1.h(0)
    qc.append(c1.to_gate(), [0])
    return qc


def consume(qc):
    """Clifford of the circuit."""
    return Clifford(qc)


CONSUMER = 'Clifford'
NAMES = ['x', 'x']  # the names and labels drawn
NEUTRAL = ['neutral_name_0', 'neutral_name_1']  # the same circuit, neutral unique names
reference = consume(build(NEUTRAL))
try:
    result = consume(build(NAMES))
except Exception as exc:
    raise AssertionError(f'{CONSUMER} raised {type(exc).__name__}: {exc} once the circuit names/labels are {NAMES}, but not with neutral names') from None
assert result == reference, f'{CONSUMER} changes when only the circuit names/labels change (to {NAMES}):\n{result}\nvs neutral names:\n{reference}'
