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
    qml.RZ(weights[2], wires=[2])
    qml.CZ(wires=[2, 0])
    qml.RY(weights[3], wires=[0])
    qml.CRY(weights[1], wires=[1, 2])
    qml.Hadamard(wires=[1])
    return qml.expval(qml.PauliZ(0))

weights = pnp.array([0.0, -0.945907, -0.785398, -0.7896], requires_grad=True)
result = np.asarray(qml.metric_tensor(circuit, approx='block-diag')(weights), dtype=float)
# expected: its block-diagonal approximation: the full metric's entry for two parameters of one group of commuting gates, 0 for two gates in each other's light cone,
# w.r.t. the entries of weights; computed with numpy from the analytic derivatives of the statevector
expected = np.array([[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.25]])
# entries the documentation lets be either the full value or 0 (independent gates, grouping not fixed)
either = np.array([[False, False, True, False], [False, False, False, True], [True, False, False, False], [False, True, False, False]])
tol = 1e-07
assert result.shape == expected.shape, f'shape {result.shape}, expected {expected.shape}'
assert np.allclose(result, result.T, atol=tol, rtol=0), f'not symmetric:\n{result}'
assert np.linalg.eigvalsh((result + result.T) / 2).min() >= -tol, f'not positive semidefinite:\n{result}'
wrong = (np.abs(result - expected) > tol) & ~(either & (np.abs(result) <= tol))
assert not wrong.any(), (f'metric_tensor/block-diag: entries {np.argwhere(wrong).tolist()} are wrong:\n'
                          f'{np.round(result, 8)}\nexpected\n{np.round(expected, 8)}')
