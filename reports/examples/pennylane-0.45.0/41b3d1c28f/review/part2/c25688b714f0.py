import warnings
import numpy as np
import pennylane as qml
from pennylane import numpy as pnp

warnings.filterwarnings('ignore')
dev = qml.device('default.qubit', wires=3)  # the circuit's wires only

@qml.qnode(dev, interface='autograd')
def circuit(weights):
    qml.CRX(weights[0], wires=[0, 1])
    qml.RX(0.0, wires=[2])
    qml.Hadamard(wires=[0])
    qml.CRX(0.0, wires=[0, 1])
    qml.PhaseShift(weights[3], wires=[2])
    qml.Hadamard(wires=[2])
    qml.CRY(weights[2], wires=[1, 0])
    qml.RX(weights[1], wires=[2])
    qml.Rot(3.141593, 0.89948, weights[4], wires=[2])
    qml.RY(weights[5], wires=[1])
    qml.RZ(weights[6], wires=[0])
    qml.CZ(wires=[1, 2])
    return qml.expval(qml.PauliZ(0))

weights = pnp.array([0.0, -2.468793, -1.789359, -0.0, 0.0, -3.141593, 0.0], requires_grad=True)
result = np.asarray(qml.metric_tensor(circuit, argnum=[0, 9, 10], approx='block-diag')(weights), dtype=float)
# expected: its block-diagonal approximation: the full metric's entry for two parameters of one group of commuting gates, 0 for two gates in each other's light cone,
# w.r.t. the entries of weights; computed with numpy from the analytic derivatives of the statevector; argnum counts tape parameters (every gate angle in gate order), the other rows and columns are 0
expected = np.array([[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.25, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.25]])
# entries the documentation lets be either the full value or 0 (independent gates, grouping not fixed)
either = np.array([[False, False, False, False, False, False, False], [False, False, False, False, False, False, False], [False, False, False, False, False, False, False], [False, False, False, False, False, False, False], [False, False, False, False, False, False, False], [False, False, False, False, False, False, True], [False, False, False, False, False, True, False]])
tol = 1e-07
assert result.shape == expected.shape, f'shape {result.shape}, expected {expected.shape}'
assert np.allclose(result, result.T, atol=tol, rtol=0), f'not symmetric:\n{result}'
assert np.linalg.eigvalsh((result + result.T) / 2).min() >= -tol, f'not positive semidefinite:\n{result}'
wrong = (np.abs(result - expected) > tol) & ~(either & (np.abs(result) <= tol))
assert not wrong.any(), (f'metric_tensor/block-diag: entries {np.argwhere(wrong).tolist()} are wrong:\n'
                          f'{np.round(result, 8)}\nexpected\n{np.round(expected, 8)}')
