import numpy as np
import pennylane as qml


def leaves(value, depth=0):
    if isinstance(value, (list, tuple)) and depth < 4:
        return [leaf for v in value for leaf in leaves(v, depth + 1)]
    return [value]


def same(a, b, depth=0):
    if depth > 6:
        return True
    if isinstance(a, qml.operation.Operator) or isinstance(b, qml.operation.Operator):
        return isinstance(a, qml.operation.Operator) and isinstance(b, qml.operation.Operator) and qml.equal(a, b)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k], depth + 1) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same(x, y, depth + 1) for x, y in zip(a, b))
    if callable(a) and not isinstance(a, np.ndarray):
        return a is b or a == b
    try:
        if isinstance(a, str) or isinstance(b, str) or a is None or b is None:
            return a == b
        return bool(np.array_equal(np.asarray(a), np.asarray(b)))
    except Exception:
        return a is b or a == b


op = qml.AmplitudeAmplification(U=qml.MultiRZ(0.0, wires=[0]), O=qml.MultiRZ(0.0, wires=[1]))
given = [0, 1]  # every wire label passed to the constructor
acted_on = [0, 1]  # the wire arguments the operator acts on
assert None not in list(op.wires), f'op.wires contains None: {op.wires}'
assert all(w in op.wires for w in acted_on), f'op.wires {op.wires} misses some of {acted_on}'
assert all(w in given for w in op.wires), f'op.wires {op.wires} names wires not given: {given}'
named = set(op.wires)
for key, value in op.hyperparameters.items():
    for item in (value if isinstance(value, (list, tuple)) else [value]):
        if isinstance(item, (qml.wires.Wires, qml.operation.Operator)):
            named |= set(item if isinstance(item, qml.wires.Wires) else item.wires)
    if key in []:  # wire-valued hyperparameters (by name or docstring)
        named |= set(leaves(value))
try:
    decomposition = op.decomposition()
except qml.operation.DecompositionUndefinedError:
    decomposition = []
for inner in decomposition:
    assert all(w in given for w in inner.wires), f'{inner} acts on wires the user did not give: {given}'
    assert all(w in named for w in inner.wires), (
        f'{inner} acts on wires neither in op.wires {op.wires} nor in op.hyperparameters')
