"""Quantum channels, PennyLane: every channel class the live library exports (subclasses of
`pennylane.operation.Channel` found in `qml` and `qml.ops`) is the channel its documentation says.

  - its Kraus matrices (`Channel.kraus_matrices()`) are trace preserving: sum_k K_k^dag K_k = I;
  - they are the Kraus matrices the class docstring writes down, in the docstring's order (the
    formulas are written here in numpy, independently; a formula is checked only on releases whose
    docstring states it, e.g. GeneralizedAmplitudeDamping changed its documented K_0 between
    releases); `QubitChannel` / `QutritChannel` return the Kraus list they were given;
  - `default.mixed` applying the channel to a random (mixed) density matrix gives
    sum_k K_k rho K_k^dag, with the register in the device's wire order (the first wire is the
    most significant), the channel on non-adjacent, permuted and string-labelled wires.

Parameters are drawn from their documented ranges only (probabilities in [0, 1], sums of
probabilities that the docstring bounds by 1 kept <= 1, ThermalRelaxationError with T2 <= 2 T1);
an input the library refuses with an error is out of the law's domain.
"""

import functools
import inspect
import math
import re

import numpy as np
from contract_runtime import Contract

ATOL = 1e-7
# The library regularizes its square roots (sqrt(x + eps), eps = 1e-14, for differentiability at
# x = 0): a Kraus matrix entry may be off by sqrt(eps) = 1e-7, a change of 1e-14 in the channel.
FORMULA_ATOL = 1e-6
PAULI = {"I": np.eye(2), "X": np.array([[0, 1], [1, 0]]), "Y": np.array([[0, -1j], [1j, 0]]),
         "Z": np.diag([1.0, -1.0])}
# Sums of probabilities the docstrings bound by one (argument positions).
BOUNDED_SUMS = {"ResetError": (0, 1), "TritFlip": (0, 1, 2), "QutritAmplitudeDamping": (1, 2)}
KRAUS_LIST_CLASSES = {"QubitChannel": 2, "QutritChannel": 3}


# -- which classes: found in the live library ---------------------------------------------------
@functools.lru_cache(maxsize=None)  # noqa: UP033 (older targets run Python 3.8)
def _channel_classes():
    """name -> class of every Channel subclass exported by qml or qml.ops."""
    import pennylane as qml
    from pennylane.operation import Channel

    found = {}
    for module in (qml, qml.ops):
        for name in sorted(dir(module)):
            cls = getattr(module, name, None)
            if inspect.isclass(cls) and issubclass(cls, Channel) and cls is not Channel \
                    and not inspect.isabstract(cls):
                found.setdefault(cls.__name__, cls)
    return found


def _qualified(subject):
    import pennylane as qml

    return f"qml.{subject}" if getattr(qml, subject, None) is _channel_classes()[subject] else f"qml.ops.{subject}"


def _argument_names(cls):
    parameters = list(inspect.signature(cls.__init__).parameters.values())[1:]
    return [p.name for p in parameters if p.name not in ("wires", "id")
            and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]


@functools.lru_cache(maxsize=None)  # noqa: UP033
def _level(subject):
    """Local dimension (2 for qubit channels, 3 for qutrit channels), from the class itself."""
    cls = _channel_classes()[subject]
    if subject in KRAUS_LIST_CLASSES:
        return KRAUS_LIST_CLASSES[subject]
    if subject == "PauliError":
        op = cls("X", 0.5, wires=[0])
    else:
        op = cls(*([0.1] * len(_argument_names(cls))), wires=[0])
    dim = np.shape(op.kraus_matrices()[0])[-1]
    return int(dim)


def _subjects():
    return sorted(_channel_classes())


def _api(subject):
    return f"pennylane.{subject}.kraus_matrices"


# -- inputs ----------------------------------------------------------------------------------
def _probability():
    from hypothesis import strategies as st

    return st.one_of(st.sampled_from([0.0, 1.0, 0.5]), st.floats(min_value=0.0, max_value=1.0))


def _random_kraus(seed, dim, count):
    """A random Kraus set: a random isometry C^dim -> C^(dim*count) split into blocks."""
    rng = np.random.default_rng(seed)
    g = rng.normal(size=(dim * count, dim)) + 1j * rng.normal(size=(dim * count, dim))
    q, _ = np.linalg.qr(g)
    return [q[i * dim:(i + 1) * dim] for i in range(count)]


def _arguments(subject, num_wires_choices=(1, 2, 3)):
    """Strategy of (arguments, number of wires): the constructor arguments before `wires`."""
    from hypothesis import strategies as st

    cls = _channel_classes()[subject]
    if subject in KRAUS_LIST_CLASSES:
        level = KRAUS_LIST_CLASSES[subject]
        widths = [1, 2] if level == 2 else [1]
        return st.tuples(st.sampled_from(widths), st.integers(1, 4), st.integers(0, 2 ** 32 - 1)).map(
            lambda t: ((tuple(tuple(tuple(complex(x) for x in row) for row in k)
                              for k in _random_kraus(t[2], level ** t[0], t[1])),), t[0]))
    if subject == "PauliError":
        return st.sampled_from(list(num_wires_choices)).flatmap(lambda n: st.tuples(
            st.tuples(st.text(alphabet="XYZI", min_size=n, max_size=n), _probability()), st.just(n)))
    names = _argument_names(cls)
    if subject == "ThermalRelaxationError":
        # pe in [0, 1]; T1 > 0; T2 <= 2 T1 (docstring); gate time >= 0
        return st.tuples(_probability(), st.floats(0.1, 100.0), st.floats(0.01, 1.0),
                         st.floats(0.0, 50.0)).map(lambda t: ((t[0], t[1], t[2] * 2 * t[1], t[3]), 1))
    bounded = BOUNDED_SUMS.get(subject, ())

    def bound(values):
        values = list(values)
        total = sum(values[i] for i in bounded)
        if total > 1.0:
            for i in bounded:
                values[i] = values[i] / total
            excess = sum(values[i] for i in bounded) - 1.0
            if excess > 0:
                values[bounded[-1]] = max(0.0, values[bounded[-1]] - excess)
        return (tuple(values), 1)

    return st.tuples(*[_probability() for _ in names]).map(bound)


def _literal(value):
    """Python source for an argument (Kraus lists as numpy arrays)."""
    if isinstance(value, tuple) and value and isinstance(value[0], tuple):
        return "[" + ", ".join(f"np.array({[list(row) for row in k]!r})" for k in value) + "]"
    return repr(value)


def _library_arguments(value):
    if isinstance(value, tuple) and value and isinstance(value[0], tuple):
        return [np.array(k) for k in value]
    return value


def _build(subject, arguments, wires):
    cls = _channel_classes()[subject]
    return cls(*[_library_arguments(a) for a in arguments], wires=list(wires))


def _call_text(subject, arguments, wires):
    inside = ", ".join([_literal(a) for a in arguments] + [f"wires={list(wires)!r}"])
    return f"{_qualified(subject)}({inside})"


def _kraus_of(op):
    return [np.asarray(k, dtype=complex) for k in op.kraus_matrices()]


# -- trace preservation -------------------------------------------------------------------------
def _tp_strategy(subject):
    return _arguments(subject)


def _check_tp(subject, example):
    arguments, num_wires = example
    wires = list(range(num_wires))
    op = _build(subject, arguments, wires)
    kraus = _kraus_of(op)
    dim = kraus[0].shape[0]
    total = sum(k.conj().T @ k for k in kraus)
    deviation = float(np.max(np.abs(total - np.eye(dim))))
    assert deviation < ATOL, (f"{_call_text(subject, arguments, wires)}.kraus_matrices() is not trace preserving: "
                              f"|sum K^dag K - I| = {deviation:.3g}")


def _reproduce_tp(subject, example):
    arguments, num_wires = example
    call = _call_text(subject, arguments, list(range(num_wires)))
    return ("import numpy as np\nimport pennylane as qml\n\n"
            f"kraus = [np.asarray(k) for k in {call}.kraus_matrices()]\n"
            "total = sum(k.conj().T @ k for k in kraus)\n"
            "deviation = np.max(np.abs(total - np.eye(total.shape[0])))\n"
            f"assert deviation < {ATOL}, f'sum K^dag K differs from the identity by {{deviation}}'\n")


# -- the docstring's formula ----------------------------------------------------------------------
def _normalized_doc(subject):
    return re.sub(r"\s+", "", _channel_classes()[subject].__doc__ or "")


def _x3():
    return np.array([[0, 1, 0], [0, 0, 1], [1, 0, 0]], dtype=complex)


def _z3():
    w = np.exp(2j * np.pi / 3)
    return np.diag([1, w, w ** 2])


def _qutrit_depolarizing(p):
    out = [math.sqrt(1 - p) * np.eye(3)]
    for i in range(3):
        for j in range(3):
            if (i, j) != (0, 0):
                out.append(math.sqrt(p / 8) * np.linalg.matrix_power(_x3(), i) @ np.linalg.matrix_power(_z3(), j))
    return out


def _pauli_error(operators, p):
    word = np.eye(1)
    for letter in operators:
        word = np.kron(word, PAULI[letter])
    return [math.sqrt(1 - p) * np.eye(word.shape[0]), math.sqrt(p) * word]


def _sq(x):
    return math.sqrt(max(x, 0.0))


# (class, text the docstring must state for this formula (whitespace removed), formula)
FORMULAS = [
    ("AmplitudeDamping", r"K_0=\begin{bmatrix}1&0\\0&\sqrt{1-\gamma}",
     lambda g: [np.array([[1, 0], [0, _sq(1 - g)]]), np.array([[0, _sq(g)], [0, 0]])]),
    ("PhaseDamping", r"K_1=\begin{bmatrix}0&0\\0&\sqrt{\gamma}",
     lambda g: [np.array([[1, 0], [0, _sq(1 - g)]]), np.array([[0, 0], [0, _sq(g)]])]),
    ("GeneralizedAmplitudeDamping", r"K_0=\sqrt{1-p}\begin{bmatrix}1&0\\0&\sqrt{1-\gamma}",
     lambda g, p: [_sq(1 - p) * np.array([[1, 0], [0, _sq(1 - g)]]), _sq(1 - p) * np.array([[0, _sq(g)], [0, 0]]),
                   _sq(p) * np.array([[_sq(1 - g), 0], [0, 1]]), _sq(p) * np.array([[0, 0], [_sq(g), 0]])]),
    ("GeneralizedAmplitudeDamping", r"K_0=\sqrt{p}\begin{bmatrix}1&0\\0&\sqrt{1-\gamma}",
     lambda g, p: [_sq(p) * np.array([[1, 0], [0, _sq(1 - g)]]), _sq(p) * np.array([[0, _sq(g)], [0, 0]]),
                   _sq(1 - p) * np.array([[_sq(1 - g), 0], [0, 1]]), _sq(1 - p) * np.array([[0, 0], [_sq(g), 0]])]),
    ("DepolarizingChannel", r"K_1=\sqrt{p/3}\begin{bmatrix}0&1\\1&0",
     lambda p: [_sq(1 - p) * PAULI["I"], _sq(p / 3) * PAULI["X"], _sq(p / 3) * PAULI["Y"], _sq(p / 3) * PAULI["Z"]]),
    ("BitFlip", r"K_1=\sqrt{p}\begin{bmatrix}0&1\\1&0",
     lambda p: [_sq(1 - p) * PAULI["I"], _sq(p) * PAULI["X"]]),
    ("PhaseFlip", r"K_1=\sqrt{p}\begin{bmatrix}1&0\\0&-1",
     lambda p: [_sq(1 - p) * PAULI["I"], _sq(p) * PAULI["Z"]]),
    ("ResetError", r"K_4=\sqrt{p_1}\begin{bmatrix}0&0\\0&1",
     lambda p0, p1: [_sq(1 - p0 - p1) * np.eye(2), _sq(p0) * np.array([[1, 0], [0, 0]]),
                     _sq(p0) * np.array([[0, 1], [0, 0]]), _sq(p1) * np.array([[0, 0], [1, 0]]),
                     _sq(p1) * np.array([[0, 0], [0, 1]])]),
    ("PauliError", r"K_1=\sqrt{p}*(K_{w0}\otimesK_{w1}", _pauli_error),
    ("QutritAmplitudeDamping", r"K_3=\begin{bmatrix}0&0&0\\0&0&\sqrt{\gamma_{21}}",
     lambda g10, g20, g21: [np.diag([1, _sq(1 - g10), _sq(1 - g20 - g21)]),
                            np.array([[0, _sq(g10), 0], [0, 0, 0], [0, 0, 0]]),
                            np.array([[0, 0, _sq(g20)], [0, 0, 0], [0, 0, 0]]),
                            np.array([[0, 0, 0], [0, 0, _sq(g21)], [0, 0, 0]])]),
    ("QutritDepolarizingChannel", r"K_{i,j}=\sqrt{\frac{p}{8}}X^iZ^j", _qutrit_depolarizing),
    ("TritFlip", r"K_1=\sqrt{p_{01}}\begin{bmatrix}0&1&0\\1&0&0\\0&0&1",
     lambda a, b, c: [_sq(1 - a - b - c) * np.eye(3), _sq(a) * np.array([[0, 1, 0], [1, 0, 0], [0, 0, 1]]),
                      _sq(b) * np.array([[0, 0, 1], [0, 1, 0], [1, 0, 0]]),
                      _sq(c) * np.array([[1, 0, 0], [0, 0, 1], [0, 1, 0]])]),
]


def _formula(subject):
    """The numpy formula the release's docstring states for this class, or None."""
    if subject in KRAUS_LIST_CLASSES:
        return lambda kraus_list: [np.array(k) for k in kraus_list]
    doc = _normalized_doc(subject)
    for name, stated, formula in FORMULAS:
        if name == subject and stated.replace(" ", "") in doc:
            return formula
    return None


def _formula_subjects():
    return [s for s in _subjects() if _formula(s) is not None]


def _check_formula(subject, example):
    arguments, num_wires = example
    wires = list(range(num_wires))
    kraus = _kraus_of(_build(subject, arguments, wires))
    expected = [np.asarray(k, dtype=complex) for k in _formula(subject)(*arguments)]
    call = _call_text(subject, arguments, wires)
    assert len(kraus) == len(expected), (f"{call}.kraus_matrices() has {len(kraus)} matrices, "
                                         f"the docstring writes down {len(expected)}")
    for i, (k, e) in enumerate(zip(kraus, expected)):
        assert k.shape == e.shape, f"{call}.kraus_matrices()[{i}] has shape {k.shape}, the docstring's K_{i} {e.shape}"
        deviation = float(np.max(np.abs(k - e)))
        assert deviation < FORMULA_ATOL, (f"{call}.kraus_matrices()[{i}] is not the docstring's K_{i} "
                                  f"(max deviation {deviation:.3g})")


def _reproduce_formula(subject, example):
    arguments, num_wires = example
    call = _call_text(subject, arguments, list(range(num_wires)))
    expected = [np.asarray(k, dtype=complex) for k in _formula(subject)(*arguments)]
    listed = ",\n    ".join(f"np.array({k.tolist()!r})" for k in expected)
    return ("import numpy as np\nimport pennylane as qml\n\n"
            f"# the Kraus matrices the docstring of {subject} writes down, for these arguments\n"
            f"expected = [\n    {listed},\n]\n"
            f"kraus = [np.asarray(k) for k in {call}.kraus_matrices()]\n"
            "assert len(kraus) == len(expected), f'{len(kraus)} Kraus matrices, the docstring has {len(expected)}'\n"
            "for i, (k, e) in enumerate(zip(kraus, expected)):\n"
            "    assert k.shape == e.shape, f'K_{i} has shape {k.shape}, expected {e.shape}'\n"
            "    deviation = np.max(np.abs(k - e))\n"
            f"    assert deviation < {FORMULA_ATOL}, f'K_{{i}} differs from the docstring by {{deviation}}'\n")


# -- default.mixed applies sum K rho K^dag ---------------------------------------------------------
REGISTER_LABELS = [0, "a", 2, "q3", 7]


def _device_subjects():
    return [s for s in _subjects() if _level(s) == 2]


def _device_strategy(subject):
    """(arguments, register, target wires, state seed): the register mixes int and string
    labels, the channel's wires are a random ordered subset of it (non-adjacent, permuted)."""
    from hypothesis import strategies as st

    def placed(args_and_width):
        arguments, width = args_and_width
        return st.integers(width, min(width + 2, len(REGISTER_LABELS) - 1)).flatmap(lambda size: st.tuples(
            st.just(arguments), st.permutations(REGISTER_LABELS).map(lambda p: tuple(p[:size])),
            st.integers(0, 2 ** 32 - 1)).flatmap(lambda t: st.tuples(
                st.just(t[0]), st.just(t[1]), st.permutations(list(t[1])).map(lambda p: tuple(p[:width])),
                st.just(t[2]))))

    return _arguments(subject, num_wires_choices=(1, 2)).flatmap(placed)


def _random_state(seed, dim):
    rng = np.random.default_rng(seed)
    psi = rng.normal(size=dim) + 1j * rng.normal(size=dim)
    return psi / np.linalg.norm(psi)


def embed(matrix, positions, num_sites, level=2):
    """`matrix` (its tensor factors in order) acting on the sites `positions` (0 = most
    significant) of a register of `num_sites` sites."""
    m = len(positions)
    rest = [i for i in range(num_sites) if i not in positions]
    full = np.kron(matrix, np.eye(level ** len(rest))).reshape([level] * (2 * num_sites))
    order = list(positions) + rest
    perm = list(np.argsort(order))
    assert m <= num_sites
    return full.transpose(perm + [num_sites + p for p in perm]).reshape(level ** num_sites, level ** num_sites)


def expected_density_matrix(psi, kraus, positions, num_sites):
    """sum_k K rho K^dag on the register plus one environment site (the last), environment traced out."""
    rho = np.outer(psi, psi.conj())
    out = sum(embed(k, positions, num_sites + 1) @ rho @ embed(k, positions, num_sites + 1).conj().T for k in kraus)
    d = 2 ** num_sites
    return np.trace(out.reshape(d, 2, d, 2), axis1=1, axis2=3)


def _device_run(subject, example):
    import pennylane as qml

    arguments, register, targets, seed = example
    register, targets = list(register), list(targets)
    psi = _random_state(seed, 2 ** (len(register) + 1))
    dev = qml.device("default.mixed", wires=register + ["env"])

    @qml.qnode(dev)
    def circuit():
        qml.StatePrep(psi, wires=register + ["env"])
        _build(subject, arguments, targets)
        return qml.density_matrix(wires=register)

    actual = np.asarray(circuit())
    kraus = _kraus_of(_build(subject, arguments, targets))
    expected = expected_density_matrix(psi, kraus, [register.index(w) for w in targets], len(register))
    return actual, expected


def _check_device(subject, example):
    arguments, register, targets, _ = example
    actual, expected = _device_run(subject, example)
    call = _call_text(subject, arguments, targets)
    assert actual.shape == expected.shape, f"density matrix of shape {actual.shape}, expected {expected.shape}"
    deviation = float(np.max(np.abs(actual - expected)))
    assert deviation < ATOL, (f"default.mixed with wires {list(register) + ['env']} applying {call} to a random state "
                              f"does not give sum K rho K^dag on the register (max deviation {deviation:.3g})")


def _reproduce_device(subject, example):
    arguments, register, targets, seed = example
    register, targets = list(register), list(targets)
    call = _call_text(subject, arguments, targets)
    psi = _random_state(seed, 2 ** (len(register) + 1))
    n = len(register)
    positions = [register.index(w) for w in targets]
    return ("import numpy as np\nimport pennylane as qml\n\n"
            f"register = {register!r}\n"
            f"psi = np.array({psi.tolist()!r})\n"
            "dev = qml.device('default.mixed', wires=register + ['env'])\n\n"
            "@qml.qnode(dev)\n"
            "def circuit():\n"
            "    qml.StatePrep(psi, wires=register + ['env'])\n"
            f"    {call}\n"
            "    return qml.density_matrix(wires=register)\n\n"
            "actual = np.asarray(circuit())\n"
            f"kraus = [np.asarray(k) for k in {call}.kraus_matrices()]\n"
            f"# expected: sum K rho K^dag with K on register positions {positions} (first wire most significant),\n"
            "# then the environment wire (last) traced out\n"
            f"n, positions = {n + 1}, {positions!r}\n"
            "rest = [i for i in range(n) if i not in positions]\n"
            "perm = list(np.argsort(positions + rest))\n"
            "def embed(k):\n"
            "    full = np.kron(k, np.eye(2 ** len(rest))).reshape([2] * (2 * n))\n"
            "    return full.transpose(perm + [n + p for p in perm]).reshape(2 ** n, 2 ** n)\n"
            "rho = np.outer(psi, psi.conj())\n"
            "out = sum(embed(k) @ rho @ embed(k).conj().T for k in kraus)\n"
            f"d = {2 ** n}\n"
            "expected = np.trace(out.reshape(d, 2, d, 2), axis1=1, axis2=3)\n"
            "deviation = np.max(np.abs(actual - expected))\n"
            f"assert deviation < {ATOL}, f'default.mixed differs from sum K rho K^dag by {{deviation}}'\n")


def _describe(subject, example):
    if len(example) == 2:
        arguments, num_wires = example
        return _call_text(subject, arguments, list(range(num_wires)))
    arguments, register, targets, seed = example
    return f"{_call_text(subject, arguments, list(targets))} on register {list(register)} (+ 'env'), state seed {seed}"


FAMILY = "quantum channels"
DOC = "documentation: pennylane.{class} (Kraus matrices in the class docstring), pennylane.operation.Channel"

CONTRACTS = [
    Contract("pennylane.channel.kraus-trace-preserving", FAMILY,
             "a channel's Kraus matrices are trace preserving: sum_k K_k^dag K_k = I, for every parameter in the "
             "documented range", DOC + "; quantum semantics (a channel is CPTP)",
             _subjects, _tp_strategy, _check_tp, _reproduce_tp, _api, describe=_describe),
    Contract("pennylane.channel.kraus-match-docstring", FAMILY,
             "Channel.kraus_matrices() are the Kraus matrices the class docstring writes down, in its order "
             "(QubitChannel/QutritChannel: the list given)", DOC,
             _formula_subjects, _tp_strategy, _check_formula, _reproduce_formula, _api, describe=_describe),
    Contract("pennylane.channel.default-mixed-applies-kraus", FAMILY,
             "default.mixed applying a channel to a density matrix gives sum_k K_k rho K_k^dag, in the device's wire "
             "order, for channels on non-adjacent, permuted and string-labelled wires",
             DOC + "; documentation: default.mixed, qml.density_matrix",
             _device_subjects, _device_strategy, _check_device, _reproduce_device,
             lambda s: "pennylane.devices.DefaultMixed", describe=_describe),
]
