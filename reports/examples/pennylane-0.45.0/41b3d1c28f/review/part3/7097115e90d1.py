import numpy as np
import pennylane as qml

PAULI = {"I": np.eye(2, dtype=complex), "X": np.array([[0, 1], [1, 0]], dtype=complex),
         "Y": np.array([[0, -1j], [1j, 0]]), "Z": np.diag([1.0 + 0j, -1.0])}


def kron(word, wire_order):
    """Matrix of the Pauli word {wire: letter} on wire_order, the first wire the most significant."""
    m = np.eye(1, dtype=complex)
    for w in wire_order:
        m = np.kron(m, PAULI[word.get(w, "I")])
    return m


def same(m, expected):
    """Same shape and entries."""
    return np.shape(m) == np.shape(expected) and np.allclose(m, expected)

WIRES = [0, 1]  # the wires of the terms, identity terms included
terms = [(1.0, {0: 'X'}), (1.0, {})]
expected = sum(c * kron(word, WIRES) for c, word in terms)
op = qml.ops.LinearCombination([1.0, 1.0], [qml.PauliX(0), qml.Identity([0, 1])])
assert set(op.wires) == set(WIRES), f'{op} acts on {list(op.wires)}, its terms on {WIRES}'
assert same(qml.matrix(op, wire_order=WIRES), expected), f'{op} does not have the matrix of its terms'
result = op.simplify()
assert set(result.wires) == set(op.wires), (
    f'op.simplify() is {result} on wires {list(result.wires)}; {op} acts on {list(op.wires)}')
assert same(qml.matrix(result, wire_order=WIRES), expected), (
    f'op.simplify() is {result}, which does not have the matrix of {op}')
