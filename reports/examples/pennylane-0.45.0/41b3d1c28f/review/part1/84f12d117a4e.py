import numpy as np
import pennylane as qml

unitary = np.array([[-0.19264633241404083, -0.9812682561906395], [-0.9812682561906395, 0.19264633241404108]])
phases, rotations = qml.qchem.givens_decomposition(unitary)
phases = np.asarray(phases)
assert phases.shape == (2,) and np.all(np.abs(np.abs(phases) - 1) <= 1e-08), (
    f'givens_decomposition: D = {phases} is not a diagonal of unit-modulus phases')
rebuilt = np.diag(phases).astype(complex)
for t, (i, j) in rotations:
    t = np.asarray(t)
    assert j == i + 1, f'givens_decomposition: rotation on indices {(i, j)}, not adjacent (m, m+1)'
    assert np.abs(t.conj().T @ t - np.eye(2)).max() <= 1e-08, f'rotation {t} is not unitary'
    full = np.eye(2, dtype=complex)
    full[np.ix_([i, j], [i, j])] = t
    rebuilt = rebuilt @ full
error = np.abs(rebuilt - unitary).max()
assert error <= 1e-08, (f'D T_1 T_2 ... from givens_decomposition differs from U by {error}:\n'
                         f'{np.round(rebuilt, 6)}\nU =\n{np.round(unitary, 6)}')
