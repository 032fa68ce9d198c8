import math
import numpy as np
from qiskit import QuantumCircuit, transpile
from qiskit.circuit.library import StatePreparation
from qiskit.quantum_info import Operator, Statevector

def expm_hermitian(h, t):
    """expm(-i t H) for Hermitian H, by its eigendecomposition."""
    values, vectors = np.linalg.eigh(np.asarray(h, dtype=complex))
    return (vectors * np.exp(-1j * t * values)) @ vectors.conj().T


def block_diagonal(blocks):
    blocks = [np.asarray(b, dtype=complex) for b in blocks]
    size = sum(b.shape[0] for b in blocks)
    out = np.zeros((size, size), dtype=complex)
    at = 0
    for b in blocks:
        out[at:at + b.shape[0], at:at + b.shape[0]] = b
        at += b.shape[0]
    return out


def rotation(axis, angle):
    """R_P(a) = exp(-i a P / 2)."""
    pauli = {"X": np.array([[0, 1], [1, 0]]), "Y": np.array([[0, -1j], [1j, 0]]),
             "Z": np.array([[1, 0], [0, -1]])}[axis]
    return math.cos(angle / 2) * np.eye(2) - 1j * math.sin(angle / 2) * pauli


def permutation_matrix(pattern):
    """Qubit pattern[k] goes to position k: output bit k = input bit pattern[k]."""
    n = len(pattern)
    out = np.zeros((2 ** n, 2 ** n))
    for x in range(2 ** n):
        y = sum(((x >> pattern[k]) & 1) << k for k in range(n))
        out[y, x] = 1
    return out


def linear_function_matrix(a):
    """|x> -> |A x mod 2>, x_j the bit of qubit j."""
    a = np.asarray(a, dtype=int)
    n = a.shape[0]
    out = np.zeros((2 ** n, 2 ** n))
    for x in range(2 ** n):
        bits = np.array([(x >> j) & 1 for j in range(n)])
        y_bits = a.dot(bits) % 2
        out[sum(int(b) << j for j, b in enumerate(y_bits)), x] = 1
    return out


def pauli_matrix(label):
    """The label's last character acts on qubit 0."""
    single = {"I": np.eye(2), "X": np.array([[0, 1], [1, 0]]), "Y": np.array([[0, -1j], [1j, 0]]),
              "Z": np.array([[1, 0], [0, -1]])}
    out = np.eye(1)
    for character in label:
        out = np.kron(out, single[character])
    return out


def graph_state(adjacency):
    """prod over edges (a, b) of CZ_ab applied to |+>^n."""
    n = len(adjacency)
    state = np.full(2 ** n, 2 ** (-n / 2), dtype=complex)
    for x in range(2 ** n):
        for a in range(n):
            for b in range(a + 1, n):
                if adjacency[a][b] and (x >> a) & 1 and (x >> b) & 1:
                    state[x] = -state[x]
    return state


def basis_state(n, index=0):
    out = np.zeros(2 ** n, dtype=complex)
    out[index] = 1
    return out


def label_state(label):
    """Statevector.from_label semantics: 0 1 + - r l, last character on qubit 0."""
    single = {"0": [1, 0], "1": [0, 1], "+": [1 / math.sqrt(2), 1 / math.sqrt(2)],
              "-": [1 / math.sqrt(2), -1 / math.sqrt(2)], "r": [1 / math.sqrt(2), 1j / math.sqrt(2)],
              "l": [1 / math.sqrt(2), -1j / math.sqrt(2)]}
    out = np.ones(1, dtype=complex)
    for character in label:
        out = np.kron(out, np.array(single[character], dtype=complex))
    return out


def phase_sensitive_infidelity(a, b):
    """1 - Re tr(b^dag a) / columns: zero only when a == b, global phase included."""
    a, b = np.asarray(a), np.asarray(b)
    columns = b.shape[1] if b.ndim == 2 else 1
    return float(1 - np.real(np.vdot(b, a)) / columns) if a.shape == b.shape else float("inf")


def deviation(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return float(np.max(np.abs(a - b))) if a.shape == b.shape else float("inf")


obj = StatePreparation([(-1+0j), 0j])
kind = 'state'
expected = np.array([(-1+0j), 0j])
circuit = QuantumCircuit(obj.num_qubits)
circuit.append(obj, list(range(obj.num_qubits)))
definition = obj.definition
transpiled = transpile(circuit, basis_gates=['u', 'cx'], seed_transpiler=0)

def part(value):
    value = np.asarray(value)
    if kind == 'operator' or value.ndim == 1:
        return value
    return value[:, :expected.shape[1]] if kind == 'columns' else value[:, 0]

dev = deviation(part(Operator(obj).data), expected)
assert dev < 1e-07, f'Operator(it) differs from what it was given: max deviation {dev}'
if definition is not None:
    dev = deviation(part(Operator(definition).data), expected)
    assert dev < 1e-07, f'Operator(its definition) differs from what it was given: max deviation {dev}'
dev = deviation(part(Operator.from_circuit(transpiled).data), expected)
gap = phase_sensitive_infidelity(part(Operator.from_circuit(transpiled).data), expected)
assert dev < 1e-07 or gap < 1e-09, f'Operator(transpiled) differs from what it was given: max deviation {dev}, infidelity {gap}'
dev = deviation(Operator(obj.inverse()).data @ expected, basis_state(obj.num_qubits))
assert dev < 1e-07, f'the inverse does not map the state back to |0...0>: {dev}'
