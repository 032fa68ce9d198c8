import numpy as np
from qiskit import QuantumCircuit
from qiskit.quantum_info import Operator
from qiskit import transpile


def build(N):
    """The circuit; N lists its names and labels."""
    qc = QuantumCircuit(1, name=N[0])
    c1 = QuantumCircuit(1, name=N[1])
    c1.h(0)
    qc.append(c1.to_gate(), [0])
    return qc


def consume(qc):
    """transpile(optimization_level=2) of the circuit."""
    BASIS = ['u', 'cx']
    return Operator(transpile(qc, basis_gates=BASIS, optimization_level=2, seed_transpiler=0))


CONSUMER = 'transpile(optimization_level=2)'
NAMES = ['x', 'x']  # the names and labels drawn
NEUTRAL = ['neutral_name_0', 'neutral_name_1']  # the same circuit, neutral unique names
reference = consume(build(NEUTRAL))
try:
    result = consume(build(NAMES))
except Exception as exc:
    raise AssertionError(f'{CONSUMER} raised {type(exc).__name__}: {exc} once the circuit names/labels are {NAMES}, but not with neutral names') from None
assert result.data.shape == reference.data.shape, f'{CONSUMER} changes when only the circuit names/labels change (to {NAMES}): shape {result.data.shape} vs {reference.data.shape}'
deviation = np.max(np.abs(result.data - reference.data))
assert deviation < 1e-07, f'{CONSUMER} changes when only the circuit names/labels change (to {NAMES}): max deviation {deviation:.3g} (global phase included)'
