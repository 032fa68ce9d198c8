import warnings
import numpy as np
import pennylane as qml
from pennylane import numpy as pnp

warnings.filterwarnings('ignore')
dev = qml.device('default.qubit')  # no wire count: any wire exists

@qml.qnode(dev, interface='autograd')
def circuit(weights):
    qml.CRX(weights[0], wires=[0, 1])
    qml.RX(0.0, wires=[2])
    qml.Hadamard(wires=[0])
    qml.CRX(0.0, wires=[0, 1])
    qml.Rot(weights[1], weights[4], weights[3], wires=[2])
    qml.CRZ(weights[2], wires=[0, 1])
    qml.RY(weights[5], wires=[2])
    qml.Hadamard(wires=[2])
    return qml.expval(qml.PauliZ(0))

weights = pnp.array([3.141593, 0.373516, -0.785398, -0.0, -0.0, 1.133294], requires_grad=True)
result = np.asarray(qml.metric_tensor(circuit, argnum=[6, 7], approx=None)(weights), dtype=float)
# expected: the full Fubini-Study metric Re[<d_i psi|d_j psi> - <d_i psi|psi><psi|d_j psi>],
# w.r.t. the entries of weights; computed with numpy from the analytic derivatives of the statevector; argnum counts tape parameters (every gate angle in gate order), the other rows and columns are 0
expected = np.array([[0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0625, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.25]])
either = np.zeros((6, 6), dtype=bool)
tol = 1e-07
assert result.shape == expected.shape, f'shape {result.shape}, expected {expected.shape}'
assert np.allclose(result, result.T, atol=tol, rtol=0), f'not symmetric:\n{result}'
assert np.linalg.eigvalsh((result + result.T) / 2).min() >= -tol, f'not positive semidefinite:\n{result}'
wrong = (np.abs(result - expected) > tol) & ~(either & (np.abs(result) <= tol))
assert not wrong.any(), (f'metric_tensor: entries {np.argwhere(wrong).tolist()} are wrong:\n'
                          f'{np.round(result, 8)}\nexpected\n{np.round(expected, 8)}')
