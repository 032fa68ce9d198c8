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


op = qml.IntegerComparator(value=0, wires=[0, 1])
wire_map = {0: 'm1', 1: 'm0'}
before = dict(op.hyperparameters)
mapped = op.map_wires(wire_map)
expected = [wire_map.get(w, w) for w in op.wires]
assert list(mapped.wires) == expected, f'mapped wires {mapped.wires}, expected {expected}'
assert mapped.hyperparameters.keys() == before.keys(), 'map_wires changed the hyperparameter keys'
for key, value in before.items():
    new = mapped.hyperparameters[key]
    if isinstance(value, qml.wires.Wires):
        want = [wire_map.get(w, w) for w in value]
        assert list(new) == want, f'hyperparameter {key}: {new!r}, expected wires {want}'
    elif isinstance(value, qml.operation.Operator):
        want = [wire_map.get(w, w) for w in value.wires]
        assert list(new.wires) == want, f'hyperparameter {key}: {new!r}, expected wires {want}'
        assert same(list(value.data), list(new.data)), f'hyperparameter {key} changed its data'
    elif isinstance(value, (list, tuple)) and value and all(isinstance(v, qml.operation.Operator) for v in value):
        assert len(new) == len(value), f'hyperparameter {key}: {new!r}'
        for a, b in zip(value, new):
            assert list(b.wires) == [wire_map.get(w, w) for w in a.wires], f'{key}: {a!r} became {b!r}'
    elif key in []:  # wire-valued hyperparameters (by name or docstring)
        want = [wire_map.get(w, w) for w in leaves(value)]
        assert new is not None and leaves(new) == want, f'hyperparameter {key}: {new!r}, expected {want}'
    else:
        assert same(value, new), f'hyperparameter {key} changed from {value!r} to {new!r}'
assert same(list(op.data), list(mapped.data)), 'map_wires changed the data'
if len(op.wires) <= 6 and op.has_matrix:
    original = qml.matrix(op, wire_order=list(op.wires))
    relabelled = qml.matrix(mapped, wire_order=expected)
    deviation = np.max(np.abs(original - relabelled))
    assert deviation < 1e-07, f'map_wires changed the matrix by {deviation}'
