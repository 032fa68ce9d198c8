from qiskit.quantum_info import Operator
from qiskit.synthesis import OneQubitEulerDecomposer

import math
import numpy as np

X = np.array([[0, 1], [1, 0]], dtype=complex)
Y = np.array([[0, -1j], [1j, 0]], dtype=complex)
Z = np.diag([1, -1]).astype(complex)


def haar(dim, rng):
    """A Haar-random unitary (QR of a complex Gaussian matrix, phases fixed)."""
    m = rng.normal(size=(dim, dim)) + 1j * rng.normal(size=(dim, dim))
    q, r = np.linalg.qr(m)
    return q * (np.diag(r) / np.abs(np.diag(r)))


def canonical(a, b, c):
    """exp(i(a XX + b YY + c ZZ)), computed from the eigen-decomposition of the Hermitian sum."""
    h = a * np.kron(X, X) + b * np.kron(Y, Y) + c * np.kron(Z, Z)
    w, v = np.linalg.eigh(h)
    return (v * np.exp(1j * w)) @ v.conj().T

def rx(t):
    return np.cos(t / 2) * np.eye(2) - 1j * np.sin(t / 2) * X


def ry(t):
    return np.cos(t / 2) * np.eye(2) - 1j * np.sin(t / 2) * Y


def rz(t):
    return np.cos(t / 2) * np.eye(2) - 1j * np.sin(t / 2) * Z


def u1(t):
    return np.diag([1, np.exp(1j * t)])


def u3(theta, phi, lam):
    return np.array([[np.cos(theta / 2), -np.exp(1j * lam) * np.sin(theta / 2)],
                     [np.exp(1j * phi) * np.sin(theta / 2), np.exp(1j * (phi + lam)) * np.cos(theta / 2)]])


def r(theta, phi):
    return np.cos(theta / 2) * np.eye(2) - 1j * np.sin(theta / 2) * (np.cos(phi) * X + np.sin(phi) * Y)


sx = np.array([[1 + 1j, 1 - 1j], [1 - 1j, 1 + 1j]]) / 2

def one_qubit_input(kind, seed):
    rng = np.random.default_rng(seed)
    phase = np.exp(1j * rng.uniform(-np.pi, np.pi))
    if kind == "haar":
        return haar(2, rng)
    if kind == "identity":
        return phase * np.eye(2)
    if kind == "pauli":
        return phase * [X, Y, Z][rng.integers(3)]
    if kind == "clifford":
        h = np.array([[1, 1], [1, -1]]) / np.sqrt(2)
        s = np.diag([1, 1j])
        u = np.eye(2)
        for _ in range(rng.integers(1, 6)):
            u = (h if rng.integers(2) else s) @ u
        return phase * u
    if kind == "phase":
        return np.diag([1, np.exp(1j * rng.uniform(-np.pi, np.pi))])
    if kind == "near_identity":
        h = rng.normal(size=(2, 2)) + 1j * rng.normal(size=(2, 2))
        w, v = np.linalg.eigh(h + h.conj().T)
        return phase * (v * np.exp(1e-3j * w)) @ v.conj().T
    d = np.diag(np.exp(1j * rng.uniform(-np.pi, np.pi, 2)))
    return d if kind == "diagonal" else d[::-1]

u = one_qubit_input('haar', 0)
tol = 1e-07
decomposer = OneQubitEulerDecomposer('ZSX')
theta, phi, lam, gamma = decomposer.angles_and_phase(u)
# the class docstring's decomposition circuit for basis 'ZSX'
rebuilt = np.exp(1j * gamma) * rz(phi + np.pi) @ sx @ rz(theta + np.pi) @ sx @ rz(lam)
gap = np.abs(rebuilt - u).max()
overlap = np.vdot(rebuilt.ravel(), u.ravel())
gap_up_to_phase = np.abs(rebuilt * overlap / abs(overlap) - u).max()
assert gap < tol, f'angles_and_phase {(theta, phi, lam, gamma)} do not rebuild the input through the documented circuit: max deviation {gap} ({gap_up_to_phase} up to a global phase)'
allowed = ['rz', 'sx']
sizes = {}
for simplify in (False, True):
    circuit = decomposer(u, simplify=simplify)
    sizes[simplify] = len(circuit.data)
    names = sorted({inst.operation.name for inst in circuit.data})
    assert set(names) <= set(allowed), f'simplify={simplify}: gates {names} outside the basis gates {allowed}'
    gap = np.abs(Operator(circuit).data - u).max()
    assert gap < tol, f'the circuit for simplify={simplify} does not implement the input: max deviation {gap}'
assert sizes[True] <= sizes[False], f'simplify=True gave more gates than simplify=False: {sizes}'
