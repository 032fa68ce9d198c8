import numpy as np
import pennylane as qml

a = qml.expval(qml.PauliX(0) @ qml.PauliX(1))
b = qml.expval(qml.PauliX(1) @ qml.PauliX(0))

if a == b:  # the law judges only pairs the release calls equal
    assert hash(a) == hash(b), f'a == b but hash(a) = {hash(a)} != hash(b) = {hash(b)}'
    assert len({a, b}) == 1, f'a == b but the set {{a, b}} has {len({a, b})} elements'
    assert {a: 1}.get(b) == 1, 'a == b but the dict {a: 1} does not find b'
