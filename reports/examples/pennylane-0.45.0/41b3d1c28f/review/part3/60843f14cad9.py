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


def doc_entries(cls, lower=True):
    """name -> (type text, description) of each argument the class docstring lists under Args;
    the description runs on over the more deeply indented lines that follow. Lower-cased
    unless `lower` is False (documented option values keep their case)."""
    import re

    found = {}
    entry = re.compile(r"^([ \t]*)\*{0,2}(\w+)[ \t]*\(([^\n]*?)\)[ \t]*:[ \t]*(.*)$")
    for doc in (cls.__doc__ or "", getattr(cls.__init__, "__doc__", None) or ""):
        lines = doc.splitlines()
        for i, line in enumerate(lines):
            match = entry.match(line)
            if not match:
                continue
            indent, text = len(match.group(1).expandtabs()), [match.group(4)]
            for following in lines[i + 1:]:
                if not following.strip() or len(following) - len(following.lstrip()) <= indent:
                    break
                text.append(following.strip())
            described = (match.group(3), " ".join(text))
            found.setdefault(match.group(2), tuple(part.lower() for part in described) if lower else described)
    return found


def option_values(cls, name, limit):
    """The documented values of the constructor's keyword option `name` other than its
    default (at most `limit`): a bool flag's other value, a string option's other values (from
    a Literal annotation, else the strings quoted in the class docstring's entry for it)."""
    import inspect
    import re
    import typing

    try:
        parameter = inspect.signature(cls.__init__).parameters[name]
    except (TypeError, ValueError, KeyError):
        return []
    default = parameter.default
    if isinstance(default, bool):
        return [not default]
    if not isinstance(default, str):
        return []
    values = []
    annotations = [parameter.annotation]
    while annotations:
        annotation = annotations.pop()
        if typing.get_origin(annotation) is typing.Literal:
            values.extend(v for v in typing.get_args(annotation) if isinstance(v, str))
        elif typing.get_args(annotation):
            annotations.extend(typing.get_args(annotation))
    if not values:
        entry = doc_entries(cls, lower=False).get(name)
        # the Args entry, else the prose that spells the option out (``rotation='X'``)
        text = " ".join(entry) if entry is not None else ""
        text += " " + " ".join(re.findall(rf"""{name}\s*=\s*(["'][A-Za-z][\w-]*["'])""", cls.__doc__ or ""))
        values = re.findall(r"""["'`]+([A-Za-z][\w-]*)["'`]+""", text)
    return [v for v in dict.fromkeys(values) if v != default][:limit]


def documented_option(cls, name, value, audited, limit):
    """`value` where this release documents it for option `name`; where it does not, the
    value at the same place among this release's documented alternatives to the default, if
    they are as many as `audited` (the alternatives where the input was drawn): the values
    were renamed, not added or removed. Anything else keeps `value`, to be refused loudly."""
    import inspect

    here = option_values(cls, name, limit)
    default = inspect.signature(cls.__init__).parameters[name].default
    if value == default or value in here or value not in audited or len(here) != len(audited):
        return value
    return here[audited.index(value)]


op = qml.MultiControlledX(wires=[0, 1, 2], work_wire_type=documented_option(qml.MultiControlledX, 'work_wire_type', 'zeroed', ['zeroed'], 3))
wire_map = {0: 'm1', 1: 'm2', 2: 2}
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
