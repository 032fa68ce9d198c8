import numpy as np
from qiskit import QuantumCircuit
from qiskit.quantum_info import Operator
from qiskit import qasm2


def build(N):
    """The circuit; N lists its names and labels."""
    qc = QuantumCircuit(1, name=N[0])
    c1 = QuantumCircuit(1, name=N[1])
    c1.h(0)
    qc.append(c1.to_gate(), [0])
    return qc


def consume(qc):
    """qasm2.dumps/loads of the circuit."""
    text = qasm2.dumps(qc)
    return Operator(qasm2.loads(text, custom_instructions=qasm2.LEGACY_CUSTOM_INSTRUCTIONS))


CONSUMER = 'qasm2.dumps/loads'
NAMES = ['x', 'x']  # the names and labels drawn
NEUTRAL = ['neutral_name_0', 'neutral_name_1']  # the same circuit, neutral unique names
reference = consume(build(NEUTRAL))
try:
    result = consume(build(NAMES))
except Exception as exc:
    raise AssertionError(f'{CONSUMER} raised {type(exc).__name__}: {exc} once the circuit names/labels are {NAMES}, but not with neutral names') from None
assert result.data.shape == reference.data.shape, f'{CONSUMER} changes when only the circuit names/labels change (to {NAMES}): shape {result.data.shape} vs {reference.data.shape}'
overlap = abs(np.trace(result.data.conj().T @ reference.data)) / reference.data.shape[0]
assert overlap > 1 - 1e-07, f'{CONSUMER} changes when only the circuit names/labels change (to {NAMES}): |tr(A^dag B)|/d = {overlap:.6f} (up to global phase)'
