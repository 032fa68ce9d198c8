import numpy as np
from qiskit import QuantumCircuit
from qiskit.quantum_info import Operator


def build(N):
    """The circuit; N lists its names and labels."""
    qc = QuantumCircuit(3, name=N[0])
    c1 = QuantumCircuit(2, name=N[1])
    c1.ch(0, 1)
    c1.ch(0, 1)
    c1.ch(0, 1)
    c1.ch(0, 1)
    qc.append(c1.to_gate(), [0, 1])
    qc.ccx(0, 1, 2)
    qc.ccx(0, 1, 2)
    return qc


def consume(qc, N):
    """Gate.control of the circuit."""
    LABEL = N[2]
    NUM_CTRL, CTRL_STATE = 2, 0
    return Operator(qc.to_gate(label=LABEL).control(NUM_CTRL, ctrl_state=CTRL_STATE))


CONSUMER = 'Gate.control'
NAMES = ['x', 'x', 'x']  # the names and labels drawn
NEUTRAL = ['neutral_name_0', 'neutral_name_1', 'neutral_name_2']  # the same circuit, neutral unique names
reference = consume(build(NEUTRAL), NEUTRAL)
try:
    result = consume(build(NAMES), NAMES)
except Exception as exc:
    raise AssertionError(f'{CONSUMER} raised {type(exc).__name__}: {exc} once the circuit names/labels are {NAMES}, but not with neutral names') from None
assert result.data.shape == reference.data.shape, f'{CONSUMER} changes when only the circuit names/labels change (to {NAMES}): shape {result.data.shape} vs {reference.data.shape}'
deviation = np.max(np.abs(result.data - reference.data))
assert deviation < 1e-07, f'{CONSUMER} changes when only the circuit names/labels change (to {NAMES}): max deviation {deviation:.3g} (global phase included)'
