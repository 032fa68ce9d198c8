import numpy as np
import pennylane as qml

a = qml.ctrl(qml.CH(wires=[0, 1]), [2, 3], control_values=[False, False])
b = qml.ctrl(qml.CH(wires=[0, 1]), [3, 2], control_values=[False, False])

if a == b:  # the law judges only pairs the release calls equal
    assert hash(a) == hash(b), f'a == b but hash(a) = {hash(a)} != hash(b) = {hash(b)}'
    assert len({a, b}) == 1, f'a == b but the set {{a, b}} has {len({a, b})} elements'
    assert {a: 1}.get(b) == 1, 'a == b but the dict {a: 1} does not find b'
