import numpy as np
import pennylane as qml

a = qml.Hamiltonian([0.125, 0.125], [qml.PauliX(0), qml.PauliX(0) @ qml.Identity('a')])
b = qml.Hamiltonian([0.25], [qml.PauliX(0)])

if a == b:  # the law judges only pairs the release calls equal
    assert hash(a) == hash(b), f'a == b but hash(a) = {hash(a)} != hash(b) = {hash(b)}'
    assert len({a, b}) == 1, f'a == b but the set {{a, b}} has {len({a, b})} elements'
    assert {a: 1}.get(b) == 1, 'a == b but the dict {a: 1} does not find b'
