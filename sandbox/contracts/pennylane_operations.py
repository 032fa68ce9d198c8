"""Construction and operations, transformation and semantic queries, PennyLane: laws stated
once for every operator class the live library exports (qml.ops and qml), never for one class.

Subjects are the operator classes constructible from scalar angles and wires alone (found by
constructing each exported Operator subclass: every required argument but `wires` a float, every
datum a scalar), that have a matrix on qubits (dimension 2^n) or qutrits (3^n). Wire order is
PennyLane's: the first wire of `wire_order` is the most significant bit of a basis index.

PennyLane's matrices track global phase (`GlobalPhase` is an operator, decompositions emit it),
and `Operator.decomposition` is documented as the equality O = O_1 O_2 ... O_n with no phase
caveat, so laws on matrices, modifiers, decompositions and arithmetic are exact, global phase
included. Compilation transforms are judged up to a global phase: their docs promise an
equivalent circuit (`unitary_to_rot` states "up to a global phase" outright) and a global phase
is unobservable in every measurement a QNode returns.

The judge is independent of the library's own composition code: circuits are multiplied out here
with numpy (tensordot on the register), controlled matrices are built here, expected textbook
matrices come from oracle_core, and powers, adjoints, exponentials and spectra are numpy's.
"""

import functools
import inspect
import itertools
import math

import numpy as np
import oracle_core
from contract_runtime import Contract, angles

ATOL = 1e-7
MAX_WIRES = 5           # every check stays an exact dense computation
POOL_WIRES = [0, 1, 2, 3]  # register of the random circuits and expressions
WIRE_CHOICES = (1, 2, 3)  # wire counts tried for classes that take any number of wires
PROBE_ANGLE = 0.3

# Classes whose docs define them only on part of the inputs: (argument position, basis value).
# TemporaryAND: "assumes the target qubit to be in the state |0>" ... "Otherwise, behaviour may
# differ from the expected AND" -- only the columns of inputs with the target in |0> are owed.
ASSUMED_INPUTS = {"TemporaryAND": [(2, 0)]}


# -- which classes: found in the live library -------------------------------------------------
class OperatorKind:
    """An operator class constructible as cls(*angles, wires=...)."""

    def __init__(self, name, cls, num_angles, wire_counts, level, has_matrix):
        self.name, self.cls, self.num_angles = name, cls, num_angles
        self.wire_counts, self.level, self.has_matrix = wire_counts, level, has_matrix

    @property
    def qualified(self):
        import pennylane as qml

        return f"qml.{self.name}" if getattr(qml, self.name, None) is self.cls else f"qml.ops.{self.name}"


def _exported_operator_classes():
    """name -> class, each class once, under its own __name__ when it is exported so."""
    import pennylane as qml
    from pennylane.operation import Operator

    names = {}
    for module in (qml.ops, qml):
        for name in sorted(dir(module)):
            cls = getattr(module, name, None)
            if inspect.isclass(cls) and issubclass(cls, Operator):
                names.setdefault(cls, set()).add(name)
    return {(cls.__name__ if cls.__name__ in found else min(found)): cls for cls, found in names.items()}


def _angle_argument_count(cls):
    """How many angles the constructor takes before `wires`; None when it needs anything else."""
    try:
        parameters = list(inspect.signature(cls.__init__).parameters.values())[1:]
    except (TypeError, ValueError):
        return None
    names = [p.name for p in parameters if p.kind is not p.VAR_KEYWORD]
    if "wires" not in names and not any(p.kind is p.VAR_POSITIONAL for p in parameters):
        return None
    count = 0
    for p in parameters:
        if p.kind is p.VAR_POSITIONAL:
            count += cls.num_params if isinstance(cls.num_params, int) else 0
        elif p.name not in ("wires", "id") and p.kind is not p.VAR_KEYWORD and p.default is inspect.Parameter.empty:
            count += 1
    return count


def _probe(cls, num_angles, num_wires):
    """(level, has_matrix) of cls(0.3, ..., wires=range(n)), or None when that is not valid."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            op = cls(*([PROBE_ANGLE] * num_angles), wires=list(range(num_wires)))
        except Exception:  # noqa: BLE001 (any refusal means: not constructible from angles and wires)
            return None
        if len(op.data) != num_angles or any(np.ndim(d) != 0 for d in op.data):
            return None
        if tuple(op.ndim_params) != (0,) * num_angles:  # the class declares array parameters
            return None
        if not op.has_matrix:
            return (None, False)
        try:
            dim = np.shape(op.matrix())[-1]
        except Exception:  # noqa: BLE001 (a matrix flag the class cannot honour: not a gate of this family)
            return None
    for level in (2, 3):
        if dim == level ** num_wires:
            return (level, True)
    return None


@functools.lru_cache(maxsize=None)  # noqa: UP033 (older targets run Python 3.8)
def _all_kinds():
    kinds = {}
    for name, cls in _exported_operator_classes().items():
        if cls.__module__ == "pennylane.operation":
            continue  # the abstract bases (Operator, Operation, CVObservable, ...)
        count = _angle_argument_count(cls)
        if count is None:
            continue
        fixed = getattr(cls, "num_wires", None)
        counts = [fixed] if isinstance(fixed, int) else list(WIRE_CHOICES)
        found = {k: _probe(cls, count, k) for k in counts if k <= MAX_WIRES}
        found = {k: v for k, v in found.items() if v is not None}
        shapes = set(found.values())
        if len(shapes) == 1:  # one consistent kind of operator at every valid width
            (level, has_matrix), = shapes
            kinds[name] = OperatorKind(name, cls, count, sorted(found), level, has_matrix)
    return kinds


def _gate_kinds():
    """Classes with a qubit or qutrit matrix."""
    return {n: k for n, k in _all_kinds().items() if k.has_matrix and k.level is not None}


def _operation_kinds():
    """Gates proper (Operation subclasses): unitary by definition, unlike observables such as GellMann."""
    from pennylane.operation import Operation

    return {n: k for n, k in _gate_kinds().items() if issubclass(k.cls, Operation)}


def _qubit_kinds():
    return {n: k for n, k in _operation_kinds().items() if k.level == 2}


def _pool_kinds():
    """Qubit gates that fit the register of random circuits and expressions, and whose docs
    define them on every input (a circuit cannot promise what state reaches a gate)."""
    return {n: k for n, k in _qubit_kinds().items()
            if min(k.wire_counts) <= len(POOL_WIRES) and n not in ASSUMED_INPUTS}


# -- building operators and writing them down ---------------------------------------------------
def _build(subject, arguments, num_wires, wires=None):
    kind = _all_kinds()[subject]
    return kind.cls(*arguments, wires=list(range(num_wires)) if wires is None else list(wires))


def _call_text(subject, arguments, num_wires, wires=None):
    wires = list(range(num_wires)) if wires is None else list(wires)
    inside = ", ".join([repr(float(a)) for a in arguments] + [f"wires={wires!r}"])
    return f"{_all_kinds()[subject].qualified}({inside})"


def _operator_strategy(subject, max_wires=MAX_WIRES):
    """(angles, number of wires) for one class."""
    from hypothesis import strategies as st

    kind = _all_kinds()[subject]
    counts = [k for k in kind.wire_counts if k <= max_wires] or kind.wire_counts[:1]
    return st.tuples(st.tuples(*[angles() for _ in range(kind.num_angles)]), st.sampled_from(counts))


def _leaf_strategy(kinds=None):
    """A random gate of the pool on random wires of the register: (name, angles, wires)."""
    from hypothesis import strategies as st

    kinds = kinds or _pool_kinds()

    def placed(name):
        kind = kinds[name]
        counts = [k for k in kind.wire_counts if k <= len(POOL_WIRES)]
        return st.sampled_from(counts).flatmap(lambda k: st.tuples(
            st.just(name), st.tuples(*[angles() for _ in range(kind.num_angles)]),
            st.permutations(POOL_WIRES).map(lambda p: tuple(p[:k]))))

    return st.sampled_from(sorted(kinds)).flatmap(placed)


def _leaf(leaf):
    name, arguments, wires = leaf
    return _build(name, arguments, len(wires), wires)


def _leaf_text(leaf):
    name, arguments, wires = leaf
    return _call_text(name, arguments, len(wires), wires)


def _subjects():
    return sorted(_gate_kinds())


def _operation_subjects():
    return sorted(_operation_kinds())


def _qubit_subjects():
    return sorted(_qubit_kinds())


def _api(subject):
    return f"pennylane.{_all_kinds()[subject].qualified[len('qml.'):]}"


HEADER = "import numpy as np\nimport pennylane as qml\n\n"

def circuit_matrix(ops, wire_order, level=2):
    """The matrix of ops applied in order; the first wire of wire_order is most significant."""
    n = len(wire_order)
    register = np.eye(level ** n, dtype=complex).reshape((level,) * n + (level ** n,))
    for op in ops:
        if len(op.wires) == 0:  # a global phase: the operator is a scalar
            register = register * complex(np.asarray(op.matrix()).reshape(-1)[0])
            continue
        if not op.has_matrix:
            sub = circuit_matrix(op.decomposition(), list(op.wires), level)
        else:
            sub = np.asarray(op.matrix())
        k = len(op.wires)
        axes = [list(wire_order).index(w) for w in op.wires]
        moved = np.tensordot(sub.reshape((level,) * (2 * k)), register, axes=(list(range(k, 2 * k)), axes))
        register = np.moveaxis(moved, list(range(k)), axes)
    return register.reshape(level ** n, level ** n)


# Printed into reproducers that multiply circuits out, so they stay standalone and judge the
# library's composition code with the very function the checks use, not with the library itself.
CIRCUIT_MATRIX_SOURCE = "\n" + inspect.getsource(circuit_matrix)


def _distance(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return float(np.max(np.abs(a - b))) if a.shape == b.shape else math.inf


def _matrix(op, wire_order=None):
    return np.asarray(op.matrix(wire_order=wire_order), dtype=complex)


def _operator_describe(subject, example):
    arguments, num_wires, *rest = example
    text = _call_text(subject, arguments, num_wires)
    return f"{text}, {', '.join(repr(r) for r in rest)}" if rest else text


def _level(subject):
    return _all_kinds()[subject].level


# -- unitarity ----------------------------------------------------------------------------------
def _check_unitary(subject, example):
    arguments, num_wires = example
    u = _matrix(_build(subject, arguments, num_wires))
    deviation = _distance(u @ u.conj().T, np.eye(u.shape[0]))
    assert deviation < ATOL, f"{_call_text(subject, arguments, num_wires)}.matrix() is not unitary: |U U^dag - I| = {deviation:.3g}"


def _reproduce_unitary(subject, example):
    call = _call_text(subject, *example)
    return HEADER + (
        f"u = {call}.matrix()\n"
        "deviation = np.max(np.abs(u @ u.conj().T - np.eye(u.shape[0])))\n"
        f"assert deviation < {ATOL}, f'{call} is not unitary: {{deviation}}'\n")


# -- matrix against the textbook ----------------------------------------------------------------
# PennyLane class -> oracle_core gate with the same argument order and the same convention
# (first wire most significant). The oracle's matrices are written independently of any library.
TEXTBOOK = {"PauliX": "x", "PauliY": "y", "PauliZ": "z", "Hadamard": "h", "S": "s", "T": "t", "SX": "sx",
            "CNOT": "cx", "CZ": "cz", "CY": "cy", "CH": "ch", "SWAP": "swap", "ISWAP": "iswap", "ECR": "ecr",
            "Toffoli": "ccx", "CSWAP": "cswap", "CCZ": "ccz", "RX": "rx", "RY": "ry", "RZ": "rz",
            "PhaseShift": "p", "U1": "u1", "U2": "u2", "U3": "u3", "CRX": "crx", "CRY": "cry", "CRZ": "crz",
            "ControlledPhaseShift": "cp", "IsingXX": "rxx", "IsingYY": "ryy", "IsingZZ": "rzz"}


def _textbook_subjects():
    return sorted(n for n in _qubit_kinds() if n in TEXTBOOK)


def _check_textbook(subject, example):
    arguments, num_wires = example
    expected = oracle_core.gate_matrix(TEXTBOOK[subject], arguments)
    deviation = _distance(_matrix(_build(subject, arguments, num_wires)), expected)
    assert deviation < ATOL, (f"{_call_text(subject, arguments, num_wires)}.matrix() is not the textbook "
                              f"{TEXTBOOK[subject]} matrix (max deviation {deviation:.3g}, global phase included)")


def _reproduce_textbook(subject, example):
    arguments, num_wires = example
    call = _call_text(subject, arguments, num_wires)
    expected = oracle_core.gate_matrix(TEXTBOOK[subject], arguments)
    return HEADER + (
        f"# the textbook matrix of {TEXTBOOK[subject]}{tuple(arguments)!r}, first wire most significant\n"
        f"expected = np.array({expected.tolist()!r})\n"
        f"deviation = np.max(np.abs({call}.matrix() - expected))\n"
        f"assert deviation < {ATOL}, f'{call} differs from its textbook matrix by {{deviation}}'\n")


# -- adjoint --------------------------------------------------------------------------------------
def _adjoint_strategy(subject):
    from hypothesis import strategies as st

    return _operator_strategy(subject).flatmap(lambda e: st.tuples(st.just(e[0]), st.just(e[1]), st.booleans()))


def _check_adjoint(subject, example):
    arguments, num_wires, lazy = example
    import pennylane as qml

    op = _build(subject, arguments, num_wires)
    u = _matrix(op)
    deviation = _distance(_matrix(qml.adjoint(op, lazy=lazy)), u.conj().T)
    assert deviation < ATOL, (f"qml.adjoint({_call_text(subject, arguments, num_wires)}, lazy={lazy}) is not the "
                              f"conjugate transpose (max deviation {deviation:.3g}, global phase included)")


def _reproduce_adjoint(subject, example):
    arguments, num_wires, lazy = example
    call = _call_text(subject, arguments, num_wires)
    return HEADER + (
        f"op = {call}\n"
        f"deviation = np.max(np.abs(qml.adjoint(op, lazy={lazy}).matrix() - op.matrix().conj().T))\n"
        f"assert deviation < {ATOL}, f'qml.adjoint({call}, lazy={lazy}) differs from the adjoint by {{deviation}}'\n")


# -- integer powers -------------------------------------------------------------------------------
POWER_FORMS = {
    "qml.pow": "qml.pow(op, {k})",
    "qml.pow-eager": "qml.pow(op, {k}, lazy=False)",
    "operator **": "op ** {k}",
}


def _power_strategy(subject):
    from hypothesis import strategies as st

    return _operator_strategy(subject, max_wires=4).flatmap(lambda e: st.tuples(
        st.just(e[0]), st.just(e[1]), st.sampled_from([0, 1, -1, 2, -2, 3, -3]),
        st.sampled_from(sorted(POWER_FORMS) + ["Operator.pow"])))


def _matrix_power(u, k):
    return np.linalg.matrix_power(u, k) if k >= 0 else np.linalg.matrix_power(u.conj().T, -k)


def _powered_matrix(op, k, form, level):
    """The matrix of op to the k by one documented route, over op's wires."""
    import pennylane as qml
    from pennylane.operation import PowUndefinedError

    if form == "Operator.pow":
        try:
            factors = op.pow(k)
        except PowUndefinedError:  # documented as optional for each class
            return None
        return circuit_matrix(factors, list(op.wires), level) if factors else np.eye(_matrix(op).shape[0])
    powered = {"qml.pow": lambda: qml.pow(op, k), "qml.pow-eager": lambda: qml.pow(op, k, lazy=False),
               "operator **": lambda: op ** k}[form]()
    return _matrix(powered, wire_order=list(op.wires))


def _check_power(subject, example):
    arguments, num_wires, k, form = example
    op = _build(subject, arguments, num_wires)
    actual = _powered_matrix(op, k, form, _level(subject))
    if actual is None:
        return
    expected = _matrix_power(_matrix(op), k)
    text = POWER_FORMS.get(form, "op.pow({k})").format(k=k)
    if actual.shape != expected.shape and _is_identity(actual) and _is_identity(expected):
        return  # a power of a qutrit operator that is the identity: PennyLane's one Identity is on qubits
    assert actual.shape == expected.shape, (f"{text} with op = {_call_text(subject, arguments, num_wires)} has a "
                                            f"{actual.shape} matrix, expected {expected.shape}")
    deviation = _distance(actual, expected)
    assert deviation < ATOL, (f"{text} with op = {_call_text(subject, arguments, num_wires)} is not the matrix power "
                              f"(max deviation {deviation:.3g}, global phase included)")


def _is_identity(matrix):
    return matrix.ndim == 2 and matrix.shape[0] == matrix.shape[1] and \
        bool(np.allclose(matrix, np.eye(matrix.shape[0]), atol=ATOL))


def _reproduce_power(subject, example):
    arguments, num_wires, k, form = example
    call = _call_text(subject, arguments, num_wires)
    expected = f"np.linalg.matrix_power(u, {k})" if k >= 0 else f"np.linalg.matrix_power(u.conj().T, {-k})"
    if form == "Operator.pow":
        actual = (CIRCUIT_MATRIX_SOURCE + "\n"
                  f"factors = op.pow({k})  # documented: a list of operators equal to op to the {k}\n"
                  f"actual = circuit_matrix(factors, list(op.wires), {_level(subject)}) if factors else np.eye(u.shape[0])\n")
        text = f"op.pow({k})"
    else:
        text = POWER_FORMS[form].format(k=k)
        actual = f"actual = qml.matrix({text}, wire_order=op.wires)\n"
    return HEADER + (
        f"op = {call}\n"
        "u = op.matrix()\n" + actual +
        f"expected = {expected}\n"
        f"assert actual.shape == expected.shape, f'{text} has a {{actual.shape}} matrix, expected {{expected.shape}}'\n"
        "deviation = np.max(np.abs(actual - expected))\n"
        f"assert deviation < {ATOL}, f'{text} with op = {call} differs from the matrix power by {{deviation}}'\n")


# -- controlled versions ------------------------------------------------------------------------------
def _control_strategy(subject):
    from hypothesis import strategies as st

    def with_controls(e):
        arguments, num_wires = e
        most = max(1, min(2, MAX_WIRES - num_wires))
        return st.integers(1, most).flatmap(lambda c: st.tuples(
            st.just(arguments), st.just(num_wires), st.lists(st.booleans(), min_size=c, max_size=c).map(tuple)))

    return _operator_strategy(subject, max_wires=MAX_WIRES - 1).flatmap(with_controls)


def controlled_matrix(u, control_values):
    """|s><s| (x) U + (I - |s><s|) (x) I, controls first (most significant), s from the values."""
    size = 2 ** len(control_values)
    state = int("".join("1" if v else "0" for v in control_values), 2)
    projector = np.zeros((size, size))
    projector[state, state] = 1.0
    return np.kron(projector, u) + np.kron(np.eye(size) - projector, np.eye(u.shape[0]))


def _check_control(subject, example):
    import pennylane as qml

    arguments, num_wires, values = example
    op = _build(subject, arguments, num_wires)
    controls = list(range(num_wires, num_wires + len(values)))
    controlled = qml.ctrl(op, control=controls, control_values=list(values))
    actual = _matrix(controlled, wire_order=controls + list(range(num_wires)))
    deviation = _distance(actual, controlled_matrix(_matrix(op), values))
    assert deviation < ATOL, (f"qml.ctrl({_call_text(subject, arguments, num_wires)}, control={controls}, "
                              f"control_values={list(values)}) is not the controlled operator "
                              f"(max deviation {deviation:.3g}, global phase included)")


def _reproduce_control(subject, example):
    arguments, num_wires, values = example
    call = _call_text(subject, arguments, num_wires)
    controls = list(range(num_wires, num_wires + len(values)))
    size = 2 ** len(values)
    state = int("".join("1" if v else "0" for v in values), 2)
    return HEADER + (
        f"op = {call}\n"
        f"controlled = qml.ctrl(op, control={controls}, control_values={list(values)})\n"
        f"actual = qml.matrix(controlled, wire_order={controls + list(range(num_wires))})\n"
        f"# expected: |s><s| (x) U + (I - |s><s|) (x) I, controls first, s = {state} from the control values\n"
        f"projector = np.zeros(({size}, {size}))\n"
        f"projector[{state}, {state}] = 1.0\n"
        "u = op.matrix()\n"
        f"expected = np.kron(projector, u) + np.kron(np.eye({size}) - projector, np.eye(u.shape[0]))\n"
        "deviation = np.max(np.abs(actual - expected))\n"
        f"assert deviation < {ATOL}, f'the controlled {call} differs from the controlled matrix by {{deviation}}'\n")


# -- nested modifiers -----------------------------------------------------------------------------------
# A chain of modifiers applied innermost first: ("adjoint",), ("pow", k), ("ctrl", value).
def _modifier_strategy(max_controls):
    from hypothesis import strategies as st

    modifier = st.one_of(st.just(("adjoint",)), st.tuples(st.just("pow"), st.sampled_from([0, -1, 2, -2, 3])),
                         st.tuples(st.just("ctrl"), st.booleans()))
    return st.lists(modifier, min_size=1, max_size=3).filter(
        lambda chain: sum(m[0] == "ctrl" for m in chain) <= max_controls)


def _nested_strategy(subject):
    from hypothesis import strategies as st

    return _operator_strategy(subject, max_wires=MAX_WIRES - 1).flatmap(lambda e: st.tuples(
        st.just(e[0]), st.just(e[1]), _modifier_strategy(MAX_WIRES - e[1]).map(tuple)))


def _apply_modifiers(op, chain, num_wires, level):
    """(operator, its wires, expected matrix): the library's route and numpy's, side by side."""
    import pennylane as qml

    wires, expected = list(range(num_wires)), _matrix(op)
    next_control = num_wires
    for modifier in chain:
        if modifier[0] == "adjoint":
            op, expected = qml.adjoint(op), expected.conj().T
        elif modifier[0] == "pow":
            op, expected = qml.pow(op, modifier[1]), _matrix_power(expected, modifier[1])
        else:
            op = qml.ctrl(op, control=next_control, control_values=modifier[1])
            expected = controlled_matrix(expected, [modifier[1]])
            wires, next_control = [next_control] + wires, next_control + 1
    return op, wires, expected


def _modifier_text(base, chain, num_wires):
    text, next_control = base, num_wires
    for modifier in chain:
        if modifier[0] == "adjoint":
            text = f"qml.adjoint({text})"
        elif modifier[0] == "pow":
            text = f"qml.pow({text}, {modifier[1]})"
        else:
            text = f"qml.ctrl({text}, control={next_control}, control_values={modifier[1]})"
            next_control += 1
    return text


def _expected_modifier_source(chain):
    lines = []
    for modifier in chain:
        if modifier[0] == "adjoint":
            lines.append("expected = expected.conj().T")
        elif modifier[0] == "pow":
            k = modifier[1]
            lines.append(f"expected = np.linalg.matrix_power(expected, {k})" if k >= 0
                         else f"expected = np.linalg.matrix_power(expected.conj().T, {-k})")
        else:
            p = "np.diag([0.0, 1.0])" if modifier[1] else "np.diag([1.0, 0.0])"
            lines.append(f"expected = np.kron({p}, expected) + np.kron(np.eye(2) - {p}, np.eye(expected.shape[0]))"
                         f"  # control on |{int(modifier[1])}>, most significant")
    return "\n".join(lines) + "\n"


def _check_nested(subject, example):
    arguments, num_wires, chain = example
    op, wires, expected = _apply_modifiers(_build(subject, arguments, num_wires), chain, num_wires, _level(subject))
    deviation = _distance(_matrix(op, wire_order=wires), expected)
    text = _modifier_text(_call_text(subject, arguments, num_wires), chain, num_wires)
    assert deviation < ATOL, (f"{text} does not have the matrix of its modifiers applied in turn "
                              f"(max deviation {deviation:.3g}, global phase included)")


def _reproduce_nested(subject, example):
    arguments, num_wires, chain = example
    base = _call_text(subject, arguments, num_wires)
    text = _modifier_text("base", chain, num_wires)
    _, wires, _ = _apply_modifiers(_build(subject, arguments, num_wires), chain, num_wires, _level(subject))
    return HEADER + (
        f"base = {base}\n"
        f"op = {text}\n"
        f"actual = qml.matrix(op, wire_order={wires})\n"
        "expected = base.matrix()\n" + _expected_modifier_source(chain) +
        "deviation = np.max(np.abs(actual - expected))\n"
        f"assert deviation < {ATOL}, f'{text} with base = {base} differs from the composed matrix by {{deviation}}'\n")


# -- decompositions -------------------------------------------------------------------------------------
def _decomposition_strategy(subject):
    """The class alone, or under modifiers (their decompositions are separate code)."""
    from hypothesis import strategies as st

    # classes defined only on part of the inputs are judged plain, on the inputs owed
    modified = _nested_strategy(subject) if _level(subject) == 2 and subject not in ASSUMED_INPUTS else st.nothing()
    plain = _operator_strategy(subject).map(lambda e: (e[0], e[1], ()))
    return st.one_of(plain, modified)


def _check_decomposition(subject, example):
    arguments, num_wires, chain = example
    op, wires, _ = _apply_modifiers(_build(subject, arguments, num_wires), chain, num_wires, _level(subject))
    if not op.has_decomposition:
        return
    decomposition = op.decomposition()
    expected = _matrix(op, wire_order=wires)
    if not decomposition and _is_phase(expected):
        return  # documented (GlobalPhase.compute_decomposition): a global phase decomposes to nothing
    actual = circuit_matrix(decomposition, wires, _level(subject))
    columns = _owed_columns(subject, num_wires, _level(subject))
    deviation = _distance(actual[:, columns], expected[:, columns])
    text = _modifier_text(_call_text(subject, arguments, num_wires), chain, num_wires)
    assert deviation < ATOL, (f"the decomposition of {text} does not implement its matrix "
                              f"(max deviation {deviation:.3g}, global phase included)")


def _is_phase(u):
    return _distance(u, u[0, 0] * np.eye(u.shape[0])) < ATOL


def _reproduce_decomposition(subject, example):
    arguments, num_wires, chain = example
    base = _call_text(subject, arguments, num_wires)
    text = _modifier_text("base", chain, num_wires)
    _, wires, _ = _apply_modifiers(_build(subject, arguments, num_wires), chain, num_wires, _level(subject))
    return HEADER + CIRCUIT_MATRIX_SOURCE + (
        f"\nbase = {base}\n"
        f"op = {text}\n"
        "# documented: O = O_1 O_2 ... O_n, the decomposition applied in order\n"
        f"actual = circuit_matrix(op.decomposition(), {wires}, {_level(subject)})\n"
        f"expected = qml.matrix(op, wire_order={wires})\n"
        f"columns = {_owed_columns(subject, num_wires, _level(subject)) if not chain else 'slice(None)'}"
        "  # the inputs the class's docs define it on\n"
        "deviation = np.max(np.abs(actual[:, columns] - expected[:, columns]))\n"
        f"assert deviation < {ATOL}, f'the decomposition of {text} (base = {base}) differs from its matrix by {{deviation}}'\n")


def _owed_columns(subject, num_wires, level=2):
    """Indices of the basis inputs on which the class's docs define its action."""
    assumed = ASSUMED_INPUTS.get(subject, [])
    return [j for j in range(level ** num_wires)
            if all((j // level ** (num_wires - 1 - position)) % level == value for position, value in assumed)]


# -- registered decomposition rules -----------------------------------------------------------------------
def _rule_subjects():
    import pennylane as qml

    return sorted(n for n, k in _gate_kinds().items() if len(qml.list_decomps(k.cls)) > 0)


def _rule_strategy(subject):
    import pennylane as qml
    from hypothesis import strategies as st

    count = len(qml.list_decomps(_all_kinds()[subject].cls))
    return _operator_strategy(subject).flatmap(lambda e: st.tuples(st.just(e[0]), st.just(e[1]), st.integers(0, count - 1)))


def _rule_operations(op, index):
    """The operations the index-th registered rule queues for op; None when not applicable."""
    import pennylane as qml

    rule = qml.list_decomps(type(op))[index]
    if not rule.is_applicable(**op.resource_params):
        return rule, None
    with qml.queuing.AnnotatedQueue() as queue:
        rule(*op.data, wires=op.wires, **op.hyperparameters)
    return rule, qml.tape.QuantumScript.from_queue(queue).operations


def _check_rule(subject, example):
    arguments, num_wires, index = example
    op = _build(subject, arguments, num_wires)
    rule, operations = _rule_operations(op, index)
    if operations is None:
        return
    stray = [w for o in operations for w in o.wires if w not in op.wires]
    if stray:  # the rule borrows work wires: its contract is then about a larger register
        return
    actual = circuit_matrix(operations, list(op.wires), _level(subject))
    columns = _owed_columns(subject, num_wires, _level(subject))
    deviation = _distance(actual[:, columns], _matrix(op)[:, columns])
    assert deviation < ATOL, (f"decomposition rule {rule.name} (qml.list_decomps({_all_kinds()[subject].qualified})"
                              f"[{index}]) does not implement {_call_text(subject, arguments, num_wires)} "
                              f"(max deviation {deviation:.3g}, global phase included)")


def _reproduce_rule(subject, example):
    arguments, num_wires, index = example
    call = _call_text(subject, arguments, num_wires)
    return HEADER + CIRCUIT_MATRIX_SOURCE + (
        f"\nop = {call}\n"
        f"rule = qml.list_decomps({_all_kinds()[subject].qualified})[{index}]\n"
        "assert rule.is_applicable(**op.resource_params)\n"
        "tape = qml.tape.make_qscript(rule)(*op.data, wires=op.wires, **op.hyperparameters)\n"
        f"actual = circuit_matrix(tape.operations, list(op.wires), {_level(subject)})\n"
        f"columns = {_owed_columns(subject, num_wires, _level(subject))}  # the inputs the class's docs define it on\n"
        "deviation = np.max(np.abs(actual[:, columns] - op.matrix()[:, columns]))\n"
        f"assert deviation < {ATOL}, f'rule {{rule.name}} for {call} differs from its matrix by {{deviation}}'\n")


# -- eigenvalues ----------------------------------------------------------------------------------------
def _unmatched(actual, expected):
    """Largest distance when pairing each expected eigenvalue with its nearest unused actual one."""
    remaining = list(np.asarray(actual, dtype=complex).ravel())
    if len(remaining) != len(expected):
        return math.inf
    worst = 0.0
    for value in expected:
        j = int(np.argmin([abs(value - r) for r in remaining]))
        worst = max(worst, abs(value - remaining.pop(j)))
    return worst


def _check_eigvals(subject, example):
    from pennylane.operation import EigvalsUndefinedError

    arguments, num_wires = example
    op = _build(subject, arguments, num_wires)
    try:
        eigenvalues = op.eigvals()
    except EigvalsUndefinedError:
        return
    gap = _unmatched(eigenvalues, np.linalg.eigvals(_matrix(op)))
    assert gap < 1e-6, (f"{_call_text(subject, arguments, num_wires)}.eigvals() = {np.round(eigenvalues, 6).tolist()} "
                        f"is not the spectrum of its matrix (unmatched by {gap:.3g})")


def _reproduce_eigvals(subject, example):
    call = _call_text(subject, *example)
    return HEADER + (
        f"op = {call}\n"
        "actual = list(np.asarray(op.eigvals(), dtype=complex))\n"
        "expected = np.linalg.eigvals(op.matrix())\n"
        "assert len(actual) == len(expected), f'{len(actual)} eigenvalues for a {len(expected)}-dimensional operator'\n"
        "for value in expected:  # pair each eigenvalue of the matrix with the nearest unused one\n"
        "    j = int(np.argmin([abs(value - a) for a in actual]))\n"
        f"    assert abs(value - actual[j]) < 1e-6, f'{call}.eigvals() misses the eigenvalue {{value}} of its matrix'\n"
        "    actual.pop(j)\n")


# -- generators -----------------------------------------------------------------------------------------
def _generator_subjects():
    return sorted(n for n, k in _operation_kinds().items()
                  if k.num_angles == 1 and _build(n, [PROBE_ANGLE], k.wire_counts[0]).has_generator)


def _hermitian_exponential(g, t):
    """exp(i t G) for Hermitian G, by its spectral decomposition."""
    values, vectors = np.linalg.eigh(g)
    return (vectors * np.exp(1j * t * values)) @ vectors.conj().T


def _check_generator(subject, example):
    import pennylane as qml

    arguments, num_wires = example
    op = _build(subject, arguments, num_wires)
    g = np.asarray(qml.matrix(op.generator(), wire_order=op.wires), dtype=complex)
    skew = _distance(g, g.conj().T)
    assert skew < ATOL, f"the generator of {_call_text(subject, arguments, num_wires)} is not Hermitian (|G - G^dag| = {skew:.3g})"
    deviation = _distance(_hermitian_exponential(g, float(arguments[0])), _matrix(op))
    assert deviation < ATOL, (f"exp(i phi G) with G = {_call_text(subject, arguments, num_wires)}.generator() is not "
                              f"the operator (max deviation {deviation:.3g}, global phase included)")


def _reproduce_generator(subject, example):
    arguments, num_wires = example
    call = _call_text(subject, arguments, num_wires)
    return HEADER + (
        f"op = {call}\n"
        "g = qml.matrix(op.generator(), wire_order=op.wires)\n"
        "values, vectors = np.linalg.eigh(g)\n"
        f"# documented: U(phi) = exp(i phi G), here phi = {float(arguments[0])!r}\n"
        f"exponential = (vectors * np.exp(1j * {float(arguments[0])!r} * values)) @ vectors.conj().T\n"
        f"assert np.max(np.abs(g - g.conj().T)) < {ATOL}, 'the generator is not Hermitian'\n"
        "deviation = np.max(np.abs(exponential - op.matrix()))\n"
        f"assert deviation < {ATOL}, f'exp(i phi G) differs from {call} by {{deviation}}'\n")


# -- capability flags -----------------------------------------------------------------------------------
def _undefined_error(name):
    """The release's `<Thing>UndefinedError`: pennylane.exceptions on recent releases,
    pennylane.operation before that module held them."""
    import pennylane.operation

    try:
        from pennylane import exceptions
    except ImportError:
        exceptions = None
    return getattr(exceptions, name, None) or getattr(pennylane.operation, name)


def _capabilities():
    return [(flag, method, _undefined_error(error)) for flag, method, error in (
        ("has_matrix", "matrix", "MatrixUndefinedError"),
        ("has_sparse_matrix", "sparse_matrix", "SparseMatrixUndefinedError"),
        ("has_decomposition", "decomposition", "DecompositionUndefinedError"),
        ("has_diagonalizing_gates", "diagonalizing_gates", "DiagGatesUndefinedError"),
        ("has_adjoint", "adjoint", "AdjointUndefinedError"),
        ("has_generator", "generator", "GeneratorUndefinedError"))]


def _flag_subjects():
    return sorted(_all_kinds())


# Flags are properties of the class (or of the instance's arity), not of the angles: small values
# keep channels and state preparations inside their documented parameter ranges.
FLAG_VALUES = [0.0, 0.1, 0.2]


def _flag_strategy(subject):
    from hypothesis import strategies as st

    kind = _all_kinds()[subject]
    return st.tuples(st.tuples(*[st.sampled_from(FLAG_VALUES) for _ in range(kind.num_angles)]),
                     st.sampled_from(kind.wire_counts))


def _check_flags(subject, example):
    arguments, num_wires = example
    op = _build(subject, arguments, num_wires)
    for flag, method, undefined in _capabilities():
        if not hasattr(op, flag):
            continue
        claimed = bool(getattr(op, flag))
        try:
            getattr(op, method)()
            works = True
        except undefined:
            works = False
        assert claimed == works, (f"{_call_text(subject, arguments, num_wires)}.{flag} is {claimed} but "
                                  f".{method}() {'works' if works else 'raises ' + undefined.__name__}")


def _reproduce_flags(subject, example):
    call = _call_text(subject, *example)
    op = _build(subject, *example)
    lines = []
    for flag, method, undefined in _capabilities():
        if hasattr(op, flag):
            lines.append(f"    ({flag!r}, {method!r}, qml.exceptions.{undefined.__name__}),")
    return HEADER + (
        f"op = {call}\n"
        "for flag, method, undefined in [\n" + "\n".join(lines) + "\n]:\n"
        "    try:\n"
        "        getattr(op, method)()\n"
        "        works = True\n"
        "    except undefined:\n"
        "        works = False\n"
        f"    assert bool(getattr(op, flag)) == works, f'{call}.{{flag}} is {{getattr(op, flag)}} but .{{method}}() works={{works}}'\n")


# -- wire relabelling ---------------------------------------------------------------------------------------
LABELS = ["a", "b", 7, 11, "q3", -1, 0.5]


def _map_wires_strategy(subject):
    from hypothesis import strategies as st

    return _operator_strategy(subject).flatmap(lambda e: st.tuples(
        st.just(e[0]), st.just(e[1]), st.permutations(LABELS + list(range(e[1]))).map(lambda p: tuple(p[:e[1]]))))


def _check_map_wires(subject, example):
    arguments, num_wires, new_labels = example
    op = _build(subject, arguments, num_wires)
    wire_map = dict(zip(range(num_wires), new_labels))
    mapped = op.map_wires(wire_map)
    text = f"{_call_text(subject, arguments, num_wires)}.map_wires({wire_map!r})"
    assert list(mapped.wires) == list(new_labels), f"{text} acts on {list(mapped.wires)}, expected {list(new_labels)}"
    assert list(op.wires) == list(range(num_wires)), f"{text} changed the original operator's wires to {list(op.wires)}"
    deviation = _distance(_matrix(mapped, wire_order=list(new_labels)), _matrix(op, wire_order=list(range(num_wires))))
    assert deviation < ATOL, f"{text} changed the matrix beyond relabelling (max deviation {deviation:.3g})"


def _reproduce_map_wires(subject, example):
    arguments, num_wires, new_labels = example
    call = _call_text(subject, arguments, num_wires)
    wire_map = dict(zip(range(num_wires), new_labels))
    return HEADER + (
        f"op = {call}\n"
        f"mapped = op.map_wires({wire_map!r})\n"
        f"assert list(mapped.wires) == {list(new_labels)!r}, f'mapped wires {{mapped.wires}}'\n"
        f"assert list(op.wires) == {list(range(num_wires))!r}, 'map_wires changed the original operator'\n"
        f"deviation = np.max(np.abs(qml.matrix(mapped, wire_order={list(new_labels)!r}) - "
        f"qml.matrix(op, wire_order={list(range(num_wires))!r})))\n"
        f"assert deviation < {ATOL}, f'{call}.map_wires changed the matrix by {{deviation}}'\n")


# -- parameter broadcasting -------------------------------------------------------------------------------------
def _batched_subjects():
    import pennylane as qml

    documented = qml.ops.qubit.attributes.supports_broadcasting
    return sorted(n for n, k in _gate_kinds().items() if k.num_angles >= 1 and n in documented)


def _batched_strategy(subject):
    from hypothesis import strategies as st

    kind = _all_kinds()[subject]
    return st.integers(1, 3).flatmap(lambda size: st.tuples(
        st.tuples(*[st.lists(angles(), min_size=size, max_size=size).map(tuple) for _ in range(kind.num_angles)]),
        st.sampled_from(kind.wire_counts)))


def _check_batched(subject, example):
    import pennylane as qml

    columns, num_wires = example
    size = len(columns[0])
    batched = _build(subject, [np.array(c) for c in columns], num_wires)
    text = _batched_text(subject, columns, num_wires)
    assert batched.batch_size == size, f"{text}.batch_size is {batched.batch_size}, expected {size}"
    stacks = {"matrix()": _matrix(batched), "qml.adjoint(op).matrix()": _matrix(qml.adjoint(batched))}
    for b in range(size):
        single = _build(subject, [c[b] for c in columns], num_wires)
        u = _matrix(single)
        for route, expected in (("matrix()", u), ("qml.adjoint(op).matrix()", u.conj().T)):
            deviation = _distance(stacks[route][b], expected)
            assert deviation < ATOL, (f"{text}.{route}[{b}] is not the unbatched operator's "
                                      f"(max deviation {deviation:.3g})")


def _batched_text(subject, columns, num_wires):
    inside = ", ".join([f"np.array({[float(v) for v in c]!r})" for c in columns] + [f"wires={list(range(num_wires))!r}"])
    return f"{_all_kinds()[subject].qualified}({inside})"


def _reproduce_batched(subject, example):
    columns, num_wires = example
    text = _batched_text(subject, columns, num_wires)
    singles = [_call_text(subject, [c[b] for c in columns], num_wires) for b in range(len(columns[0]))]
    return HEADER + (
        f"op = {text}\n"
        f"singles = [{', '.join(singles)}]\n"
        f"assert op.batch_size == {len(singles)}, f'batch_size {{op.batch_size}}'\n"
        "matrices, adjoints = op.matrix(), qml.adjoint(op).matrix()\n"
        "for b, single in enumerate(singles):\n"
        f"    assert np.max(np.abs(matrices[b] - single.matrix())) < {ATOL}, f'matrix()[{{b}}] differs from {{single}}'\n"
        f"    assert np.max(np.abs(adjoints[b] - single.matrix().conj().T)) < {ATOL}, f'adjoint matrix [{{b}}] differs'\n")


# -- operator arithmetic ------------------------------------------------------------------------------------------
# Each construct: (how many operands, library route, numpy route over full-register matrices, text).
def _arithmetic_constructs():
    import pennylane as qml

    return {
        "qml.prod": (2, lambda a, c: qml.prod(*a), lambda m, c: m[0] @ m[1], "qml.prod({0}, {1})"),
        "qml.prod-eager": (2, lambda a, c: qml.prod(*a, lazy=False), lambda m, c: m[0] @ m[1], "qml.prod({0}, {1}, lazy=False)"),
        "qml.sum": (2, lambda a, c: qml.sum(*a), lambda m, c: m[0] + m[1], "qml.sum({0}, {1})"),
        "qml.s_prod": (1, lambda a, c: qml.s_prod(c, a[0]), lambda m, c: c * m[0], "qml.s_prod({c}, {0})"),
        "operator @": (2, lambda a, c: a[0] @ a[1], lambda m, c: m[0] @ m[1], "{0} @ {1}"),
        "operator +": (2, lambda a, c: a[0] + a[1], lambda m, c: m[0] + m[1], "{0} + {1}"),
        "operator -": (2, lambda a, c: a[0] - a[1], lambda m, c: m[0] - m[1], "{0} - {1}"),
        "scalar *": (1, lambda a, c: c * a[0], lambda m, c: c * m[0], "{c} * {0}"),
        "Operator.simplify": (2, lambda a, c: qml.prod(qml.sum(a[0], qml.s_prod(c, a[1])), qml.adjoint(a[1])).simplify(),
                              lambda m, c: (m[0] + c * m[1]) @ m[1].conj().T,
                              "qml.prod(qml.sum({0}, qml.s_prod({c}, {1})), qml.adjoint({1})).simplify()"),
        "qml.simplify": (2, lambda a, c: qml.simplify(qml.pow(qml.prod(a[0], qml.adjoint(a[0]), a[1]), 2)),
                         lambda m, c: np.linalg.matrix_power(m[0] @ m[0].conj().T @ m[1], 2),
                         "qml.simplify(qml.pow(qml.prod({0}, qml.adjoint({0}), {1}), 2))"),
    }


def _arithmetic_subjects():
    return sorted(_arithmetic_constructs())


SCALARS = [0.0, 1.0, -1.0, 0.5, -2.5, 1j, -0.5j, 0.3 + 0.4j]


def _arithmetic_strategy(subject):
    from hypothesis import strategies as st

    count = _arithmetic_constructs()[subject][0]
    return st.tuples(st.lists(_leaf_strategy(), min_size=count, max_size=count).map(tuple), st.sampled_from(SCALARS))


def _full_matrix(op):
    """op's matrix on the whole register, multiplied out here."""
    return circuit_matrix([op], POOL_WIRES)


def _arithmetic_text(subject, leaves, scalar):
    return _arithmetic_constructs()[subject][3].format(*[_leaf_text(l) for l in leaves], c=repr(scalar))


def _check_arithmetic(subject, example):
    leaves, scalar = example
    _, route, expected_route, _ = _arithmetic_constructs()[subject]
    operands = [_leaf(l) for l in leaves]
    result = route(operands, scalar)
    expected = expected_route([_full_matrix(o) for o in operands], scalar)
    deviation = _distance(_matrix(result, wire_order=POOL_WIRES), expected)
    assert deviation < ATOL, (f"{_arithmetic_text(subject, leaves, scalar)} does not have the matrix of the expression "
                              f"(max deviation {deviation:.3g}, global phase included)")


def _reproduce_arithmetic(subject, example):
    leaves, scalar = example
    _, _, _, template = _arithmetic_constructs()[subject]
    names = [f"op{i}" for i in range(len(leaves))]
    numpy_forms = {"qml.prod": "m[0] @ m[1]", "qml.prod-eager": "m[0] @ m[1]", "qml.sum": "m[0] + m[1]",
                   "qml.s_prod": "c * m[0]", "operator @": "m[0] @ m[1]", "operator +": "m[0] + m[1]",
                   "operator -": "m[0] - m[1]", "scalar *": "c * m[0]",
                   "Operator.simplify": "(m[0] + c * m[1]) @ m[1].conj().T",
                   "qml.simplify": "np.linalg.matrix_power(m[0] @ m[0].conj().T @ m[1], 2)"}
    text = template.format(*names, c="c")
    return HEADER + CIRCUIT_MATRIX_SOURCE + "\n" + "".join(
        f"{n} = {_leaf_text(l)}\n" for n, l in zip(names, leaves)) + (
        f"c = {scalar!r}\n"
        f"result = {text}\n"
        f"m = [circuit_matrix([o], {POOL_WIRES}) for o in [{', '.join(names)}]]\n"
        f"expected = {numpy_forms[subject]}\n"
        f"deviation = np.max(np.abs(qml.matrix(result, wire_order={POOL_WIRES}) - expected))\n"
        f"assert deviation < {ATOL}, f'{text} differs from the matrix of the expression by {{deviation}}'\n")


# -- compilation transforms ------------------------------------------------------------------------------------
# Optional arguments the transforms document, drawn alongside the circuit.
DOCUMENTED_OPTIONS = {
    "cancel_inverses": [{}, {"recursive": False}],
    "commute_controlled": [{}, {"direction": "left"}],
    "compile": [{}, {"num_passes": 2}],
    "decompose": [{}, {"gate_set": {"RX", "RY", "RZ", "CNOT", "GlobalPhase"}}, {"gate_set": {"RX", "RZ", "CZ"}},
                  {"gate_set": {"H", "T", "CNOT"}, "stopping_condition": "two-qubit"}],
    "merge_rotations": [{}, {"atol": 1e-6}],
    "single_qubit_fusion": [{}, {"atol": 1e-6}],
}
# undo_swaps is documented to remove SWAPs by "changing the position of the qubits accordingly":
# its output equals the input up to that relabelling of the wires (judged as such below).
DOCUMENTED_RELABELLING = {"undo_swaps"}
# The docs' list of compilation transforms: a "Basic circuit compilation tasks" heading (0.43 on) or,
# before, "A set of transforms to perform basic circuit compilation tasks." over the same list.
COMPILATION_SECTION = "basic circuit compilation tasks"


def _autosummary_after(doc, marker):
    """The names of the first autosummary list after `marker` (case-insensitive) in `doc`."""
    start = doc.lower().find(marker)
    if start < 0:
        return []
    lines = doc[start:].split(".. autosummary::", 1)[-1].splitlines()[1:]
    names, begun = [], False
    for line in lines:
        text = line.strip()
        if text.startswith(":") or (not text and not begun):
            continue  # autosummary options, and the blank line before the list
        if not text:
            break
        begun = True
        names.append(text.lstrip("~").split(".")[-1])
    return names


def transform_type():
    """The class of qml.transform objects: Transform from 0.43, TransformDispatcher before."""
    import pennylane as qml

    core = qml.transforms.core
    return getattr(core, "Transform", None) or core.TransformDispatcher


def tape_function(transform):
    """The function a transform applies to one tape (`_tape_transform` from 0.43, the `transform`
    property before); None if the release has neither."""
    return getattr(transform, "_tape_transform", None) or getattr(transform, "transform", None)


def _transform_subjects():
    """The transforms the library's docs list under basic circuit compilation, callable on a
    circuit alone (others need a pattern, a coupling map or registers the law cannot invent)."""
    import pennylane as qml

    kind = transform_type()
    found = []
    for name in _autosummary_after(qml.transforms.__doc__ or "", COMPILATION_SECTION):
        transform = getattr(qml.transforms, name, None) or getattr(qml, name, None)
        if transform is None or not isinstance(transform, kind):
            continue
        if all(p.default is not inspect.Parameter.empty or p.kind in (p.VAR_KEYWORD, p.VAR_POSITIONAL)
               for p in list(inspect.signature(tape_function(transform)).parameters.values())[1:]):
            found.append(name)
    return sorted(found)


def _transform_forms():
    """How a user hands the circuit over: a tape, a quantum function, or (where the release can
    show the user-level tape of a QNode: qml.workflow.construct_tape, 0.41 on) a QNode."""
    import pennylane as qml

    workflow = getattr(qml, "workflow", None)
    return ["tape", "qfunc"] + (["qnode"] if hasattr(workflow, "construct_tape") else [])


def _circuit_strategy():
    """Gates of the pool, often echoing the previous gate (same gate, new angles, or its adjoint)
    so that cancellations, merges and fusions have something to work on."""
    from hypothesis import strategies as st

    def step(previous):
        return st.one_of(_leaf_strategy().map(lambda l: ("gate", l)),
                         st.just(("adjoint-of-previous", previous)),
                         st.tuples(angles(), angles(), angles()).map(
                             lambda a: ("gate", (previous[0], a[:len(previous[1])], previous[2]))))

    @st.composite
    def circuit(draw):
        ops = [("gate", draw(_leaf_strategy()))]
        for _ in range(draw(st.integers(0, 5))):
            ops.append(draw(step(ops[-1][1])))
        return tuple(ops)

    return circuit()


def _transform_strategy(subject):
    from hypothesis import strategies as st

    return st.tuples(_circuit_strategy(), st.sampled_from(_transform_forms()),
                     st.sampled_from(range(len(DOCUMENTED_OPTIONS.get(subject, [{}])))))


def _circuit_ops(circuit):
    import pennylane as qml

    return [_leaf(leaf) if kind == "gate" else qml.adjoint(_leaf(leaf)) for kind, leaf in circuit]


def _circuit_lines(circuit, indent=""):
    return "".join(f"{indent}{_leaf_text(leaf) if kind == 'gate' else 'qml.adjoint(' + _leaf_text(leaf) + ')'}\n"
                   for kind, leaf in circuit)


def _options(subject, index):
    options = dict(DOCUMENTED_OPTIONS.get(subject, [{}])[index])
    if options.get("stopping_condition") == "two-qubit":
        options["stopping_condition"] = lambda op: len(op.wires) <= 2
    return options


def _options_text(subject, index):
    options = DOCUMENTED_OPTIONS.get(subject, [{}])[index]
    parts = []
    for key, value in options.items():
        parts.append(f"{key}=lambda op: len(op.wires) <= 2" if value == "two-qubit" else
                     f"{key}={sorted(value) if isinstance(value, set) else value!r}")
    return ", ".join(parts)


def _transform(subject):
    import pennylane as qml

    return getattr(qml.transforms, subject, None) or getattr(qml, subject)


def _transformed_operations(subject, circuit, form, index):
    import pennylane as qml

    transform, options = _transform(subject), _options(subject, index)
    # the measurement spans the register, as a QNode's would: some transforms match patterns
    # only on circuits at least as wide as the pattern
    if form == "tape":
        tape = qml.tape.QuantumScript(_circuit_ops(circuit), [qml.probs(wires=POOL_WIRES)])
        (tape,), _ = transform(tape, **options)
        return tape.operations

    def qfunc():
        _circuit_ops(circuit)
        return qml.probs(wires=POOL_WIRES)

    if form == "qnode":  # the circuit as the user's transforms leave it ("user" level)
        qnode = qml.QNode(qfunc, qml.device("default.qubit"))
        return qml.workflow.construct_tape(transform(qnode, **options), level="user")().operations
    return qml.tape.make_qscript(transform(qfunc, **options))().operations


def _equal_up_to_phase_and_relabelling(before, after, relabel):
    verdict = oracle_core.compare_unitaries(before, after, atol=ATOL)["verdict"]
    if verdict in (oracle_core.EQUAL, oracle_core.EQUAL_UP_TO_GLOBAL_PHASE) or not relabel:
        return verdict in (oracle_core.EQUAL, oracle_core.EQUAL_UP_TO_GLOBAL_PHASE)
    n = len(POOL_WIRES)
    for perm in itertools.permutations(range(n)):
        p = np.eye(2 ** n).reshape((2,) * (2 * n)).transpose(list(perm) + list(range(n, 2 * n))).reshape(2 ** n, 2 ** n)
        # undo_swaps moves each SWAP to the circuit's start ("running from right to left"), where
        # it relabels the input wires: the output may differ by a permutation on either side
        if any(oracle_core.compare_unitaries(u, after, atol=ATOL)["verdict"] != oracle_core.NOT_EQUAL
               for u in (p @ before, before @ p)):
            return True
    return False


def _check_transform(subject, example):
    circuit, form, index = example
    before = circuit_matrix(_circuit_ops(circuit), POOL_WIRES)
    after = circuit_matrix(_transformed_operations(subject, circuit, form, index), POOL_WIRES)
    assert _equal_up_to_phase_and_relabelling(before, after, subject in DOCUMENTED_RELABELLING), (
        f"qml.transforms.{subject}({_options_text(subject, index)}) changed the operator of the circuit "
        f"[{'; '.join(_circuit_lines(circuit).splitlines())}] (given as a {form}) beyond a global phase")


def _reproduce_transform(subject, example):
    circuit, form, index = example
    options = _options_text(subject, index)
    import pennylane as qml

    call = f"qml.transforms.{subject}" if hasattr(qml.transforms, subject) else f"qml.{subject}"
    extra = f", {options}" if options else ""
    if form == "tape":
        build = ("ops = [\n" + _circuit_lines(circuit, "    ").replace("\n", ",\n") + "]\n"
                 f"(new_tape,), _ = {call}(qml.tape.QuantumScript(ops, [qml.probs(wires={POOL_WIRES})]){extra})\n"
                 "new_ops = new_tape.operations\n")
    else:
        build = ("def circuit():\n" + _circuit_lines(circuit, "    ") +
                 f"    return qml.probs(wires={POOL_WIRES})\n"
                 f"\nops = qml.tape.make_qscript(circuit)().operations\n")
        if form == "qnode":
            build += ("qnode = qml.QNode(circuit, qml.device('default.qubit'))\n"
                      f"new_ops = qml.workflow.construct_tape({call}(qnode{extra}), level='user')().operations\n")
        else:
            build += f"new_ops = qml.tape.make_qscript({call}(circuit{extra}))().operations\n"
    relabel = ""
    if subject in DOCUMENTED_RELABELLING:
        n = len(POOL_WIRES)
        relabel = ("# documented: the output may relabel the wires\n"
                   "import itertools\n"
                   f"perms = [np.eye({2 ** n}).reshape((2,) * {2 * n}).transpose(list(p) + list(range({n}, {2 * n})))"
                   f".reshape({2 ** n}, {2 ** n}) for p in itertools.permutations(range({n}))]\n")
    else:
        relabel = f"perms = [np.eye({2 ** len(POOL_WIRES)})]\n"
    return HEADER + CIRCUIT_MATRIX_SOURCE + "\n" + build + relabel + (
        f"before = circuit_matrix(ops, {POOL_WIRES})\n"
        f"after = circuit_matrix(new_ops, {POOL_WIRES})\n"
        "def phase_free_gap(u, v):\n"
        "    overlap = np.vdot(u, v)\n"
        "    phase = overlap / abs(overlap) if abs(overlap) > 0 else 1.0\n"
        "    return np.max(np.abs(v - phase * u))\n"
        "gap = min(min(phase_free_gap(p @ before, after), phase_free_gap(before @ p, after)) for p in perms)\n"
        f"assert gap < {ATOL}, f'{call} changed the circuit operator beyond a global phase: {{gap}}'\n")


# -- semantic queries ---------------------------------------------------------------------------------------------
# Expressions the predicates are asked about: both answers (True and False) must be reachable.
EXPRESSIONS = {
    "op": ("{0}", lambda m: m),
    "op + adjoint(op)": ("qml.sum({0}, qml.adjoint({0}))", lambda m: m + m.conj().T),
    "1j * op": ("qml.s_prod(1j, {0})", lambda m: 1j * m),
    "op @ op": ("qml.prod({0}, {0})", lambda m: m @ m),
    "op + op": ("qml.sum({0}, {0})", lambda m: m + m),
    "adjoint(op)": ("qml.adjoint({0})", lambda m: m.conj().T),
    "exp(i op)": ("qml.exp({0}, 1j)", None),
}


def _query_strategy(subject):
    from hypothesis import strategies as st

    return _operator_strategy(subject, max_wires=3).flatmap(lambda e: st.tuples(
        st.just(e[0]), st.just(e[1]), st.sampled_from([k for k, v in EXPRESSIONS.items() if v[1] is not None])))


def _expression(subject, arguments, num_wires, form):
    import pennylane as qml

    op = _build(subject, arguments, num_wires)
    builders = {"op": lambda: op, "op + adjoint(op)": lambda: qml.sum(op, qml.adjoint(op)),
                "1j * op": lambda: qml.s_prod(1j, op), "op @ op": lambda: qml.prod(op, op),
                "op + op": lambda: qml.sum(op, op), "adjoint(op)": lambda: qml.adjoint(op)}
    return builders[form](), EXPRESSIONS[form][1](_matrix(op)), \
        EXPRESSIONS[form][0].format(_call_text(subject, arguments, num_wires))


# Predicates answered with numpy.allclose by the library: beyond this band both answers are
# clear; inside it (e.g. RX(1e-9) is Hermitian to 1e-8) the law does not judge.
CLEARLY_TRUE, CLEARLY_FALSE = 1e-10, 1e-4


def _predicate_check(name, ground_truth):
    def check(subject, example):
        import pennylane as qml

        arguments, num_wires, form = example
        expression, m, text = _expression(subject, arguments, num_wires, form)
        deviation = ground_truth(m)
        if CLEARLY_TRUE < deviation < CLEARLY_FALSE:
            return
        answer = getattr(qml, name)(expression)
        assert answer == (deviation <= CLEARLY_TRUE), (
            f"qml.{name}({text}) returned {answer}, but its matrix is {'' if deviation <= CLEARLY_TRUE else 'not '}"
            f"{name[3:]} (deviation {deviation:.3g})")
    return check


def _hermitian_deviation(m):
    return _distance(m, m.conj().T)


def _unitary_deviation(m):
    return _distance(m @ m.conj().T, np.eye(m.shape[0]))


def _predicate_reproducer(name, formula):
    def reproduce(subject, example):
        arguments, num_wires, form = example
        _, _, text = _expression(subject, arguments, num_wires, form)
        return HEADER + (
            f"op = {text}\n"
            "m = qml.matrix(op)\n"
            f"deviation = {formula}\n"
            f"truth = deviation <= {CLEARLY_TRUE}\n"
            f"answer = qml.{name}(op)\n"
            f"assert answer == truth, f'qml.{name}({text}) returned {{answer}} but the matrix says {{truth}} ({{deviation}})'\n")
    return reproduce


# -- is_commuting ---------------------------------------------------------------------------------------------------
def _commuting_strategy(subject):
    from hypothesis import strategies as st

    kind = _all_kinds()[subject]
    counts = [k for k in kind.wire_counts if k <= len(POOL_WIRES)]
    first = st.sampled_from(counts).flatmap(lambda k: st.tuples(
        st.just(subject), st.tuples(*[angles() for _ in range(kind.num_angles)]),
        st.permutations(POOL_WIRES).map(lambda p: tuple(p[:k]))))
    return st.tuples(first, _leaf_strategy())


def _commuting_subjects():
    return sorted(n for n, k in _pool_kinds().items() if min(k.wire_counts) <= len(POOL_WIRES))


def _check_commuting(subject, example):
    import pennylane as qml

    first, second = example
    a, b = _full_matrix(_leaf(first)), _full_matrix(_leaf(second))
    try:
        answer = qml.is_commuting(_leaf(first), _leaf(second))
    except (qml.exceptions.QuantumFunctionError, KeyError):
        # documented (QuantumFunctionError) or not (a KeyError from the lookup table), a refusal
        # is loud: this law is about silent answers, so the pair is not judged here
        return
    # The lookup table answers for operator classes whatever the angles, so only True is a
    # claim about these matrices that must hold: False may be a conservative "don't know".
    if answer:
        gap = _distance(a @ b, b @ a)
        assert gap < ATOL, (f"qml.is_commuting({_leaf_text(first)}, {_leaf_text(second)}) returned True but the "
                            f"matrices do not commute (|AB - BA| = {gap:.3g})")


def _reproduce_commuting(subject, example):
    first, second = example
    text = f"qml.is_commuting({_leaf_text(first)}, {_leaf_text(second)})"
    return HEADER + (
        f"a = qml.matrix({_leaf_text(first)}, wire_order={POOL_WIRES})\n"
        f"b = qml.matrix({_leaf_text(second)}, wire_order={POOL_WIRES})\n"
        f"answer = {text}\n"
        "gap = np.max(np.abs(a @ b - b @ a))\n"
        f"assert not answer or gap < {ATOL}, f'{text} returned True but the matrices do not commute: {{gap}}'\n")


# -- qml.equal ---------------------------------------------------------------------------------------------------------
EQUAL_VARIANTS = ["same arguments", "other angles", "other wires", "double adjoint", "other class"]


def _equal_strategy(subject):
    from hypothesis import strategies as st

    kind = _all_kinds()[subject]
    return _operator_strategy(subject, max_wires=3).flatmap(lambda e: st.tuples(
        st.just(e[0]), st.just(e[1]), st.sampled_from(EQUAL_VARIANTS),
        st.tuples(*[angles() for _ in range(kind.num_angles)]), _leaf_strategy()))


def _equal_pair(subject, example):
    """(second operator, its source text, must qml.equal be True)."""
    import pennylane as qml

    arguments, num_wires, variant, other_angles, other_leaf = example
    base = _call_text(subject, arguments, num_wires)
    if variant == "same arguments":
        return _build(subject, arguments, num_wires), base, True
    if variant == "other angles":
        return _build(subject, other_angles, num_wires), _call_text(subject, other_angles, num_wires), None
    if variant == "other wires":
        wires = list(range(num_wires))[::-1] if num_wires > 1 else [num_wires]
        return _build(subject, arguments, num_wires, wires), _call_text(subject, arguments, num_wires, wires), None
    if variant == "double adjoint":
        return qml.adjoint(qml.adjoint(_build(subject, arguments, num_wires))), f"qml.adjoint(qml.adjoint({base}))", None
    return _leaf(other_leaf), _leaf_text(other_leaf), None


def _check_equal(subject, example):
    import pennylane as qml

    arguments, num_wires = example[:2]
    first = _build(subject, arguments, num_wires)
    second, second_text, must = _equal_pair(subject, example)
    answer = qml.equal(first, second)
    text = f"qml.equal({_call_text(subject, arguments, num_wires)}, {second_text})"
    if must:
        assert answer, f"{text} returned False for two operators built from the same arguments"
    if answer:
        wires = list(dict.fromkeys(list(first.wires) + list(second.wires)))
        # equal compares parameters with rtol=1e-5: the matrices then agree to about that much
        gap = _distance(circuit_matrix([first], wires, _level(subject)), circuit_matrix([second], wires, _level(subject)))
        assert gap < 1e-4, f"{text} returned True but the operators' matrices differ by {gap:.3g}"


def _reproduce_equal(subject, example):
    arguments, num_wires = example[:2]
    first_text = _call_text(subject, arguments, num_wires)
    _, second_text, must = _equal_pair(subject, example)
    return HEADER + CIRCUIT_MATRIX_SOURCE + (
        f"\nfirst = {first_text}\nsecond = {second_text}\n"
        "answer = qml.equal(first, second)\n" +
        ("assert answer, 'qml.equal is False for two operators built from the same arguments'\n" if must else "") +
        "wires = list(dict.fromkeys(list(first.wires) + list(second.wires)))\n"
        f"gap = np.max(np.abs(circuit_matrix([first], wires, {_level(subject)}) - circuit_matrix([second], wires, {_level(subject)})))\n"
        "assert not answer or gap < 1e-4, f'qml.equal returned True but the matrices differ by {gap}'\n")


def _describe_leaves(subject, example):
    leaves, scalar = example
    return _arithmetic_text(subject, leaves, scalar)


def _describe_transform(subject, example):
    circuit, form, index = example
    return (f"{subject}({_options_text(subject, index)}) on a {form}: "
            + "; ".join(_circuit_lines(circuit).splitlines()))


def _describe_query(subject, example):
    return _expression(subject, *example)[2]


def _describe_pair(subject, example):
    return f"{_leaf_text(example[0])}, {_leaf_text(example[1])}"


def _describe_equal(subject, example):
    return f"{_call_text(subject, *example[:2])} vs {_equal_pair(subject, example)[1]}"


def _describe_batched(subject, example):
    return _batched_text(subject, *example)


def _describe_modified(subject, example):
    arguments, num_wires, chain = example
    return _modifier_text(_call_text(subject, arguments, num_wires), chain, num_wires)


OPERATION = "construction and operations"
TRANSFORMATION = "transformation, synthesis, compilation"
QUERIES = "semantic queries"
EXACT = "quantum semantics (PennyLane matrices track global phase: equality is exact)"


def _op(id, law, source, check, reproduce, strategy=_operator_strategy, subjects=_subjects, api=_api,
        describe=_operator_describe, family=OPERATION, validity="documented"):
    return Contract(id, family, law, source, subjects, strategy, check, reproduce, api, validity=validity,
                    describe=describe)


CONTRACTS = [
    _op("pennylane.operation.unitary", "an operation's matrix() is unitary", "quantum semantics",
        _check_unitary, _reproduce_unitary, subjects=_operation_subjects),
    _op("pennylane.operation.matrix-is-textbook",
        "a standard gate's matrix() is the textbook matrix (first wire most significant), global phase included",
        "quantum semantics; PennyLane operator docstrings (matrix representations)",
        _check_textbook, _reproduce_textbook, subjects=_textbook_subjects),
    _op("pennylane.operation.adjoint-is-dagger", "qml.adjoint(op) (lazy or eager) has the conjugate-transpose matrix",
        "documentation: qml.adjoint; quantum semantics", _check_adjoint, _reproduce_adjoint,
        strategy=_adjoint_strategy,
        api=lambda s: "pennylane.adjoint"),
    _op("pennylane.operation.pow-is-matrix-power",
        "qml.pow(op, k), op ** k and op.pow(k) for integer k implement the k-th matrix power, global phase included",
        "documentation: qml.pow, Operator.pow ('operators equal to this one raised to the given power')",
        _check_power, _reproduce_power, strategy=_power_strategy, subjects=_operation_subjects,
        api=lambda s: "pennylane.pow"),
    _op("pennylane.operation.ctrl-is-controlled-matrix",
        "qml.ctrl(op, control, control_values) applies op exactly when the controls hold control_values",
        "documentation: qml.ctrl (control_values); quantum semantics",
        _check_control, _reproduce_control, strategy=_control_strategy, subjects=_qubit_subjects,
        api=lambda s: "pennylane.ctrl"),
    _op("pennylane.operation.nested-modifiers",
        "adjoint, pow and ctrl nested in any order have the matrix of each modifier applied in turn",
        "documentation: qml.adjoint, qml.pow, qml.ctrl; quantum semantics",
        _check_nested, _reproduce_nested, strategy=_nested_strategy, subjects=_qubit_subjects,
        api=lambda s: "pennylane.ctrl", describe=_describe_modified),
    _op("pennylane.operation.decomposition-implements-matrix",
        "op.decomposition() (also of adjoint/pow/ctrl-modified operators) applied in order has op's matrix, "
        "global phase included (a pure global phase may decompose to nothing)",
        "documentation: Operator.decomposition ('O = O_1 O_2 ... O_n'); GlobalPhase.compute_decomposition "
        "('decomposes to an empty list')",
        _check_decomposition, _reproduce_decomposition, strategy=_decomposition_strategy,
        api=lambda s: f"{_api(s)}.decomposition", describe=_describe_modified),
    _op("pennylane.operation.decomposition-rules-implement-matrix",
        "every applicable decomposition rule registered for a class (qml.list_decomps) implements its matrix, "
        "global phase included",
        "documentation: qml.list_decomps, qml.register_resources (rules emit GlobalPhase)",
        _check_rule, _reproduce_rule, strategy=_rule_strategy, subjects=_rule_subjects,
        api=lambda s: "pennylane.decomposition.list_decomps"),
    _op("pennylane.operation.eigvals-match-matrix", "op.eigvals() is the spectrum of op.matrix()",
        "documentation: Operator.eigvals; linear algebra", _check_eigvals, _reproduce_eigvals,
        api=lambda s: f"{_api(s)}.eigvals"),
    _op("pennylane.operation.generator-exponentiates",
        "for a single-parameter operation U(phi), op.generator() is Hermitian and exp(i phi G) = U(phi)",
        "documentation: Operation.generator ('U(phi) = e^{i phi G}')", _check_generator, _reproduce_generator,
        subjects=_generator_subjects, api=lambda s: f"{_api(s)}.generator"),
    _op("pennylane.operation.capability-flags-truthful",
        "has_matrix, has_sparse_matrix, has_decomposition, has_diagonalizing_gates, has_adjoint, has_generator "
        "are True exactly when the corresponding method is defined",
        "documentation: Operator.has_* ('Whether or not the Operator returns a defined ...')",
        _check_flags, _reproduce_flags, strategy=_flag_strategy, subjects=_flag_subjects),
    _op("pennylane.operation.map-wires-relabels",
        "op.map_wires(m) acts on the mapped wires with the same matrix, and leaves op unchanged",
        "documentation: Operator.map_wires ('a copy of the current operator with its wires changed')",
        _check_map_wires, _reproduce_map_wires, strategy=_map_wires_strategy, api=lambda s: f"{_api(s)}.map_wires"),
    _op("pennylane.operation.broadcast-is-stack",
        "an operation built from broadcast (batched) angles has batch_size B and matrices (and adjoint matrices) "
        "equal to the B unbatched operators'",
        "documentation: parameter broadcasting, qml.ops.qubit.attributes.supports_broadcasting",
        _check_batched, _reproduce_batched, strategy=_batched_strategy, subjects=_batched_subjects,
        describe=_describe_batched),
    _op("pennylane.operation.arithmetic-preserves-matrix",
        "qml.prod, qml.sum, qml.s_prod, @, +, -, scalar *, simplify() and qml.simplify give the matrix of the "
        "expression, global phase included",
        "documentation: qml.prod, qml.sum, qml.s_prod, Operator.simplify, qml.simplify; linear algebra",
        _check_arithmetic, _reproduce_arithmetic, strategy=_arithmetic_strategy, subjects=_arithmetic_subjects,
        api=lambda s: "pennylane." + {"operator @": "prod", "operator +": "sum", "operator -": "sum",
                                      "scalar *": "s_prod", "Operator.simplify": "simplify",
                                      "qml.prod-eager": "prod"}.get(s, s[len("qml."):]),
        describe=_describe_leaves),
    _op("pennylane.transform.preserves-operator",
        "a compilation transform leaves the circuit's operator unchanged up to a global phase (undo_swaps: up to "
        "its documented wire relabelling), given a tape, a quantum function or a QNode",
        "documentation: qml.transforms 'Basic circuit compilation tasks'; each transform's docstring",
        _check_transform, _reproduce_transform, strategy=_transform_strategy, subjects=_transform_subjects,
        api=lambda s: f"pennylane.transforms.{s}", describe=_describe_transform, family=TRANSFORMATION),
    _op("pennylane.query.is-hermitian", "qml.is_hermitian(op) is True exactly when op's matrix equals its adjoint",
        "documentation: qml.is_hermitian", _predicate_check("is_hermitian", _hermitian_deviation),
        _predicate_reproducer("is_hermitian", "np.max(np.abs(m - m.conj().T))"), strategy=_query_strategy,
        api=lambda s: "pennylane.is_hermitian", describe=_describe_query, family=QUERIES),
    _op("pennylane.query.is-unitary", "qml.is_unitary(op) is True exactly when op's matrix is unitary",
        "documentation: qml.is_unitary", _predicate_check("is_unitary", _unitary_deviation),
        _predicate_reproducer("is_unitary", "np.max(np.abs(m @ m.conj().T - np.eye(m.shape[0])))"),
        strategy=_query_strategy, api=lambda s: "pennylane.is_unitary", describe=_describe_query, family=QUERIES),
    _op("pennylane.query.is-commuting",
        "qml.is_commuting(a, b) returns True only when the operators' matrices commute",
        "documentation: qml.is_commuting ('True if the operations commute, False otherwise')",
        _check_commuting, _reproduce_commuting, strategy=_commuting_strategy, subjects=_commuting_subjects,
        api=lambda s: "pennylane.is_commuting", describe=_describe_pair, family=QUERIES),
    _op("pennylane.query.equal",
        "qml.equal is True for operators built from the same arguments, and True only when the matrices agree",
        "documentation: qml.equal (compares types and attributes; equal operators are the same operator)",
        _check_equal, _reproduce_equal, strategy=_equal_strategy, api=lambda s: "pennylane.equal",
        describe=_describe_equal, family=QUERIES),
]
