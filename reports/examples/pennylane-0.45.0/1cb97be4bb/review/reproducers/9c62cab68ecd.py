import warnings
import numpy as np
import pennylane as qml
from pennylane import numpy as pnp

warnings.filterwarnings('ignore')
dev = qml.device('default.qubit', wires=4)  # one wire more than the circuit's: the aux wire

@qml.qnode(dev, interface='autograd')
def circuit(weights):
    qml.CRX(weights[1], wires=[0, 1])
    qml.RX(0.0, wires=[2])
    qml.Hadamard(wires=[0])
    qml.CRX(0.0, wires=[0, 1])
    qml.RX(weights[0], wires=[2])
    qml.CZ(wires=[1, 0])
    return qml.expval(qml.PauliZ(0))

weights = pnp.array([0.333333, 1.570796], requires_grad=True)
result = np.asarray(qml.metric_tensor(circuit, argnum=[0, 3], approx=None, allow_nonunitary=False)(weights), dtype=float)
# expected: the full Fubini-Study metric Re[<d_i psi|d_j psi> - <d_i psi|psi><psi|d_j psi>],
# w.r.t. the entries of weights; computed with numpy from the analytic derivatives of the statevector; argnum counts tape parameters (every gate angle in gate order), the other rows and columns are 0
expected = np.array([[0.25, 0.0], [0.0, 0.0]])
either = np.zeros((2, 2), dtype=bool)
tol = 1e-07
assert result.shape == expected.shape, f'shape {result.shape}, expected {expected.shape}'
assert np.allclose(result, result.T, atol=tol, rtol=0), f'not symmetric:\n{result}'
assert np.linalg.eigvalsh((result + result.T) / 2).min() >= -tol, f'not positive semidefinite:\n{result}'
wrong = (np.abs(result - expected) > tol) & ~(either & (np.abs(result) <= tol))
assert not wrong.any(), (f'metric_tensor: entries {np.argwhere(wrong).tolist()} are wrong:\n'
                          f'{np.round(result, 8)}\nexpected\n{np.round(expected, 8)}')
