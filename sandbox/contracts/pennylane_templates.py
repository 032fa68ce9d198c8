"""State preparations, embeddings and closed-form templates, PennyLane: every such template the live
library exports (looked up by name in `qml`; a release that lacks one simply has fewer subjects) is
what its documentation says.

  - prepares-documented-state: a state-preparation or embedding template applied to |0...0> on
    `default.qubit` (`default.qutrit` for qutrit templates) gives, under `qml.state()`, the state
    its docstring defines (StatePrep / AmplitudeEmbedding with `pad_with` and `normalize`,
    MottonenStatePreparation, BasisEmbedding / BasisState / BasisStatePreparation, AngleEmbedding
    with rotation X, Y or Z, IQPEmbedding's documented circuit with `n_repeats` and `pattern`,
    QutritBasisStatePreparation), on a register of non-contiguous, permuted and string wire labels
    (the other register wires stay |0>), with broadcast (batched) parameters for the templates that
    take them (PennyLane's operator broadcasting, documented on `Operator`).
  - closed-form-unitary: a template whose docstring writes down its operator has that matrix
    (`qml.matrix(op, wire_order=register)` against numpy): QFT, GroverOperator, Reflection,
    FlipSign, Select, BlockEncode, ControlledSequence, QuantumPhaseEstimation (on an eigenstate with
    an exactly representable phase), and CommutingEvolution / ApproxTimeEvolution / TrotterProduct
    for a Hamiltonian of mutually commuting Pauli words (then the product formula is exact).

Global phase is part of the law everywhere except MottonenStatePreparation on releases whose
docstring does not show its GlobalPhase gate (there the docs promise the state only up to phase).
The expected values are numpy formulas written here from the docstrings, never the library's own.
"""

import functools
import inspect
import re

import numpy as np
import oracle_core
from contract_runtime import Contract

# Templates are products of at most a few dozen float64 gates: their rounding error is ~1e-13.
ATOL = 1e-7
REGISTER_LABELS = [0, "a", 2, "q3", 5]
MAX_MATRIX_QUBITS = 4  # qml.matrix of a 4-qubit register is 16 x 16: fast, and the reproducer stays readable


# -- what the live library exports ------------------------------------------------------------------
def _template(name):
    import pennylane as qml

    cls = getattr(qml, name, None)
    return cls if inspect.isclass(cls) else None


def _doc(name):
    """The class docstring with whitespace removed (formulas are looked up in it)."""
    return re.sub(r"\s+", "", _template(name).__doc__ or "")


def _takes(name, argument):
    return argument in inspect.signature(_template(name).__init__).parameters


# -- numpy helpers ------------------------------------------------------------------------------
def _rng(seed):
    return np.random.default_rng(seed)


def _complex_vector(rng, shape):
    return rng.normal(size=shape) + 1j * rng.normal(size=shape)


def _normalized(v):
    return v / np.linalg.norm(v, axis=-1, keepdims=True)


def _bits(value, width, level=2):
    return [(value // level ** (width - 1 - i)) % level for i in range(width)]


def _basis(index, dim):
    e = np.zeros(dim, dtype=complex)
    e[index] = 1.0
    return e


def _kron_all(factors):
    out = np.eye(1, dtype=complex)
    for f in factors:
        out = np.kron(out, f)
    return out


def _on_sites(matrix, sites, num_sites):
    """`matrix` (its tensor factors in order) on the sites `sites` of `num_sites` qubits, site 0 the most
    significant."""
    rest = [i for i in range(num_sites) if i not in sites]
    full = np.kron(matrix, np.eye(2 ** len(rest))).reshape([2] * (2 * num_sites))
    perm = list(np.argsort(list(sites) + rest))
    return full.transpose(perm + [num_sites + p for p in perm]).reshape(2 ** num_sites, 2 ** num_sites)


def _literal(value):
    """Python source of a (nested) list / array argument."""
    if isinstance(value, np.ndarray):
        return f"np.array({value.tolist()!r})"
    return repr(value)


# The embedding of a template's state / matrix into the device register, as the reproducers spell it
# (the template's first wire most significant; the device's first wire most significant).
EMBED_SOURCE = '''
def embed_state(psi, positions, n, level):
    """psi on register positions `positions` (in order), |0> on the other positions."""
    rest = [i for i in range(n) if i not in positions]
    zero = np.zeros(level ** len(rest)); zero[0] = 1.0
    batch = psi.shape[:-1]
    full = np.einsum("...i,j->...ij", psi, zero).reshape(batch + (level,) * n)
    perm = [len(batch) + p for p in np.argsort(list(positions) + rest)]
    return full.transpose(list(range(len(batch))) + perm).reshape(batch + (level ** n,))

def embed_matrix(m, positions, n):
    """m on register positions `positions` (in order), the identity on the others."""
    rest = [i for i in range(n) if i not in positions]
    full = np.kron(m, np.eye(2 ** len(rest))).reshape([2] * (2 * n))
    perm = list(np.argsort(list(positions) + rest))
    return full.transpose(perm + [n + p for p in perm]).reshape(2 ** n, 2 ** n)
'''
_EMBED = {}
exec(EMBED_SOURCE, {"np": np}, _EMBED)  # noqa: S102 (our own source: the check and the reproducer share it)
embed_state, embed_matrix = _EMBED["embed_state"], _EMBED["embed_matrix"]


def _placed(width, max_register):
    """Strategy of (register, wires): a register of int and string labels with `width` to
    `max_register` wires, and the template's wires an ordered subset of it (permuted, non-adjacent)."""
    from hypothesis import strategies as st

    return st.integers(width, max(width, max_register)).flatmap(lambda size: st.permutations(REGISTER_LABELS).map(
        lambda p: tuple(p[:size])).flatmap(lambda register: st.tuples(
            st.just(register), st.permutations(list(register)).map(lambda p: tuple(p[:width])))))


def _seed():
    from hypothesis import strategies as st

    return st.integers(0, 2 ** 32 - 1)


# ==================================================================================================
# Law 1: state preparations and embeddings prepare the documented state
# ==================================================================================================
# Each builder takes (options, wires) and returns (call source, expected state on `wires`, exact phase?).
BATCHED = (None, 1, 3)  # no batch dimension, or a batch of that size


def _amplitudes(name, options, wires):
    """StatePrep(state, ..., pad_with, normalize) / AmplitudeEmbedding(features, ...): the vector, padded
    with `pad_with` to 2^n entries, then divided by its norm when `normalize` (docstrings)."""
    seed, batch, pad, normalize = options
    rng = _rng(seed)
    dim = 2 ** len(wires)
    length = dim if pad is None else 1 + seed % (dim - 1) if dim > 1 else dim
    shape = (length,) if batch is None else (batch, length)
    v = _complex_vector(rng, shape)
    if not normalize:
        v = _normalized(v)  # with pad_with 0 the padded vector is normalized too
    else:
        v = v * rng.uniform(0.3, 3.0)
    padded = v if pad is None else np.concatenate([v, np.full(shape[:-1] + (dim - length,), pad)], axis=-1)
    expected = _normalized(padded) if normalize else padded
    first = "state" if name == "StatePrep" else "features"
    keywords = ""
    if pad is not None:
        keywords += f", pad_with={pad!r}"
    if normalize:
        keywords += ", normalize=True"
    return f"qml.{name}({first}={_literal(v)}, wires={list(wires)!r}{keywords})", expected, True


def _amplitude_options(name):
    from hypothesis import strategies as st

    pads = [None]
    if _takes(name, "pad_with"):
        pads += [0.0, 0.5, (0.3 - 0.2j)]
    normalizes = [False, True] if _takes(name, "normalize") else [False]

    def consistent(t):
        seed, batch, pad, normalize = t
        # a nonzero pad value leaves the padded vector unnormalized: only valid with normalize=True
        return (seed, batch, pad, normalize or (pad not in (None, 0.0)))

    return st.tuples(_seed(), st.sampled_from(BATCHED), st.sampled_from(pads),
                     st.sampled_from(normalizes)).map(consistent)


def _mottonen(name, options, wires):
    seed, batch = options
    shape = (2 ** len(wires),) if batch is None else (batch, 2 ** len(wires))
    v = _normalized(_complex_vector(_rng(seed), shape))
    # The docstring promises the state up to a global phase, unless it shows the GlobalPhase gate
    # (releases that add it: then `np.allclose(state, circuit(state))` is its own example).
    exact = "GlobalPhase" in _doc(name)
    return f"qml.{name}({_literal(v)}, wires={list(wires)!r})", v, exact


def _basis_state(name, options, wires, level=2):
    value, as_int = options
    bits = _bits(value % level ** len(wires), len(wires), level)
    argument = repr(value % level ** len(wires)) if as_int else repr(bits)
    index = int("".join(map(str, bits)), level)
    return f"qml.{name}({argument}, wires={list(wires)!r})", _basis(index, level ** len(wires)), True


def _basis_options(name):
    from hypothesis import strategies as st

    doc = (_template(name).__doc__ or "").lower()
    # the integer form only where the docstring documents it ("integer", or "state=2 (equivalent to 010")
    forms = [False, True] if ("integer" in doc or "(equivalent to" in doc) else [False]
    return st.tuples(st.integers(0, 3 ** 5), st.sampled_from(forms))


def _rotation_state(axis, angle):
    c, s = np.cos(angle / 2), np.sin(angle / 2)
    return {"X": np.array([c, -1j * s]), "Y": np.array([c, s]), "Z": np.array([np.exp(-0.5j * angle), 0])}[axis]


def _angle(name, options, wires):
    """AngleEmbedding: RX/RY/RZ(features[i]) on wires[i]; with fewer features than wires the remaining
    wires get no rotation (docstring)."""
    seed, batch, count, axis = options
    count = min(count, len(wires))
    rng = _rng(seed)
    features = rng.uniform(-2 * np.pi, 2 * np.pi, size=(count,) if batch is None else (batch, count))
    rows = features[None] if batch is None else features
    states = []
    for row in rows:
        factors = [_rotation_state(axis, a) for a in row] + [np.array([1.0, 0.0])] * (len(wires) - count)
        states.append(_kron_all([f[:, None] for f in factors])[:, 0])
    expected = states[0] if batch is None else np.array(states)
    return (f"qml.{name}({_literal(features)}, wires={list(wires)!r}, rotation={axis!r})", expected, True)


def _angle_options(name):
    from hypothesis import strategies as st

    return st.tuples(_seed(), st.sampled_from(BATCHED), st.integers(1, 4), st.sampled_from(["X", "Y", "Z"]))


def _iqp(name, options, wires):
    """IQPEmbedding's documented circuit, n_repeats times: H on every wire, RZ(features[i]) on wires[i],
    then for each pattern pair (default: all pairs of wires, in order) the ZZ entangler
    MultiRZ(features[i] * features[j]) = exp(-i x_i x_j Z Z / 2) on the pair (decomposition docs)."""
    seed, batch, n_repeats, use_pattern = options
    rng = _rng(seed)
    n = len(wires)
    features = rng.uniform(-np.pi, np.pi, size=(n,) if batch is None else (batch, n))
    pairs = [(a, b) for i, a in enumerate(wires) for b in wires[i + 1:]]
    if use_pattern and n > 1:
        chosen = rng.integers(0, 2, size=len(pairs)).astype(bool)
        chosen[int(rng.integers(0, len(pairs)))] = True  # at least one entangler
        pattern = [list(p)[::-1] if rng.integers(0, 2) else list(p) for p, keep in zip(pairs, chosen) if keep]
    else:
        pattern = None
    applied = pairs if pattern is None else [tuple(p) for p in pattern]
    z = np.array([[1 - 2 * b for b in _bits(k, n)] for k in range(2 ** n)])  # z[k, i] = eigenvalue of Z_i on |k>
    hadamards = _kron_all([np.array([[1, 1], [1, -1]]) / np.sqrt(2)] * n)
    rows = features[None] if batch is None else features
    states = []
    for x in rows:
        phase = -0.5 * z @ x
        for a, b in applied:
            i, j = list(wires).index(a), list(wires).index(b)
            phase = phase - 0.5 * x[i] * x[j] * z[:, i] * z[:, j]
        psi = _basis(0, 2 ** n)
        for _ in range(n_repeats):
            psi = np.exp(1j * phase) * (hadamards @ psi)
        states.append(psi)
    expected = states[0] if batch is None else np.array(states)
    keywords = f", n_repeats={n_repeats}" + ("" if pattern is None else f", pattern={pattern!r}")
    return f"qml.{name}({_literal(features)}, wires={list(wires)!r}{keywords})", expected, True


def _iqp_options(name):
    from hypothesis import strategies as st

    return st.tuples(_seed(), st.sampled_from(BATCHED), st.integers(1, 2), st.booleans())


# name -> (builder, options strategy, widths, local dimension)
STATE_TEMPLATES = {
    "StatePrep": (_amplitudes, _amplitude_options, (1, 3), 2),
    "AmplitudeEmbedding": (_amplitudes, _amplitude_options, (1, 3), 2),
    "MottonenStatePreparation": (_mottonen, lambda name: _seed_batch(), (1, 3), 2),
    "BasisEmbedding": (_basis_state, _basis_options, (1, 4), 2),
    "BasisState": (_basis_state, _basis_options, (1, 4), 2),
    "BasisStatePreparation": (_basis_state, _basis_options, (1, 4), 2),
    "AngleEmbedding": (_angle, _angle_options, (1, 4), 2),
    "IQPEmbedding": (_iqp, _iqp_options, (1, 3), 2),
    "QutritBasisStatePreparation": (functools.partial(_basis_state, level=3), _basis_options, (1, 2), 3),
}


def _seed_batch():
    from hypothesis import strategies as st

    return st.tuples(_seed(), st.sampled_from(BATCHED))


def _state_subjects():
    return [name for name in sorted(STATE_TEMPLATES) if _template(name) is not None]


def _state_strategy(subject):
    from hypothesis import strategies as st

    _, options, (low, high), level = STATE_TEMPLATES[subject]
    max_register = 3 if level == 3 else 5
    return st.integers(low, high).flatmap(lambda width: st.tuples(_placed(width, min(width + 2, max_register)),
                                                                  options(subject)))


def _state_case(subject, example):
    (register, wires), options = example
    builder, _, _, level = STATE_TEMPLATES[subject]
    call, psi, exact = builder(subject, options, list(wires))
    positions = [list(register).index(w) for w in wires]
    expected = embed_state(np.asarray(psi, dtype=complex), positions, len(register), level)
    return call, expected, exact, level


def _device_name(level):
    return "default.qutrit" if level == 3 else "default.qubit"


def _run_state(register, call, level):
    import pennylane as qml

    dev = qml.device(_device_name(level), wires=list(register))

    @qml.qnode(dev)
    def circuit():
        eval(call, {"qml": qml, "np": np})  # noqa: S307 (the call source the reproducer prints)
        return qml.state()

    return np.asarray(circuit())


def _phase_aligned(actual, expected):
    """`actual` times the global phase (per batch row) that best matches it to `expected`."""
    overlap = np.sum(np.conj(actual) * expected, axis=-1, keepdims=True)
    return actual * np.where(np.abs(overlap) > 0, overlap / np.maximum(np.abs(overlap), 1e-300), 1.0)


def _check_state(subject, example):
    (register, _), _ = example
    call, expected, exact, level = _state_case(subject, example)
    actual = _run_state(register, call, level)
    where = f"{call} on {_device_name(level)} with wires {list(register)!r}"
    assert actual.shape == expected.shape, f"{where}: qml.state() has shape {actual.shape}, expected {expected.shape}"
    if not exact:
        actual = _phase_aligned(actual, expected)
    deviation = float(np.max(np.abs(actual - expected)))
    phase = "" if exact else " (up to global phase)"
    assert deviation < ATOL, (f"{where}: qml.state() is not the documented state{phase}, max deviation "
                              f"{deviation:.3g}\n  got      {np.round(actual, 4).tolist()}\n"
                              f"  expected {np.round(expected, 4).tolist()}")


def _reproduce_state(subject, example):
    (register, wires), _ = example
    call, _, exact, level = _state_case(subject, example)
    builder, _, _, _ = STATE_TEMPLATES[subject]
    _, psi, _ = builder(subject, example[1], list(wires))
    psi = np.asarray(psi, dtype=complex)
    positions = [list(register).index(w) for w in wires]
    compare = ("deviation = np.max(np.abs(actual - expected))\n" if exact else
               "# documented up to a global phase: align it first\n"
               "overlap = np.sum(np.conj(actual) * expected, axis=-1, keepdims=True)\n"
               "actual = actual * np.where(np.abs(overlap) > 0, overlap / np.abs(overlap), 1.0)\n"
               "deviation = np.max(np.abs(actual - expected))\n")
    return ("import numpy as np\nimport pennylane as qml\n" + EMBED_SOURCE + "\n"
            f"register = {list(register)!r}\n"
            f"dev = qml.device({_device_name(level)!r}, wires=register)\n\n"
            "@qml.qnode(dev)\n"
            "def circuit():\n"
            f"    {call}\n"
            "    return qml.state()\n\n"
            "actual = np.asarray(circuit())\n"
            f"# the state the docstring of {subject} defines on wires {list(wires)!r} (first wire most significant)\n"
            f"psi = np.array({psi.tolist()!r})\n"
            f"expected = embed_state(psi, {positions!r}, {len(register)}, {level})\n"
            "assert actual.shape == expected.shape, f'state of shape {actual.shape}, expected {expected.shape}'\n"
            + compare +
            f"assert deviation < {ATOL}, f'the prepared state differs from the documented one by {{deviation}}'\n")


def _describe_state(subject, example):
    (register, _), _ = example
    call, _, _, level = _state_case(subject, example)
    return f"{call} on {_device_name(level)} with wires {list(register)!r}"


# ==================================================================================================
# Law 2: closed-form templates have the documented matrix
# ==================================================================================================
# Each builder takes (options, role wires) and returns (call source, expected matrix on the
# concatenated role wires (first most significant), mask of input basis states the docs fix or None).
def _qft(name, options, roles):
    (wires,) = roles
    dim = 2 ** len(wires)
    omega = np.exp(2j * np.pi / dim)  # docstring: |m> -> 2^{-N/2} sum_n omega^{mn} |n>, omega = e^{2 pi i / 2^N}
    matrix = np.array([[omega ** (m * k) for m in range(dim)] for k in range(dim)]) / np.sqrt(dim)
    return f"qml.{name}(wires={list(wires)!r})", matrix, None


def _grover(name, options, roles):
    wires, work = roles
    dim = 2 ** len(wires)
    diffusion = 2 * np.full((dim, dim), 1.0 / dim) - np.eye(dim)  # G = 2|s><s| - I on `wires`
    matrix = np.kron(diffusion, np.eye(2 ** len(work)))  # work wires: auxiliary, returned untouched
    extra = f", work_wires={list(work)!r}" if work else ""
    return f"qml.{name}(wires={list(wires)!r}{extra})", matrix, None


def _reflection(name, options, roles):
    """R(U, alpha) = U(-I + (1 - e^{i alpha}) |0><0|_reflection-wires (x) I_rest) U^dag (docstring), i.e.
    -I + (1 - e^{i alpha}) |Psi><Psi| when the reflection wires are all of U's wires."""
    seed, alpha, subset = options
    (wires,) = roles
    rng = _rng(seed)
    u = oracle_core.haar_unitary(rng, 2 ** len(wires))
    reflected = list(wires)[:max(1, min(subset, len(wires)))] if subset else list(wires)
    sites = [list(wires).index(w) for w in reflected]
    zero = np.zeros((2 ** len(sites),) * 2)
    zero[0, 0] = 1.0
    middle = -np.eye(2 ** len(wires)) + (1 - np.exp(1j * alpha)) * _on_sites(zero, sites, len(wires))
    matrix = u @ middle @ u.conj().T
    extra = f", reflection_wires={reflected!r}" if subset else ""
    call = f"qml.{name}(qml.QubitUnitary({_literal(u)}, wires={list(wires)!r}), alpha={alpha!r}{extra})"
    return call, matrix, None


def _flip_sign(name, options, roles):
    value, as_int = options
    (wires,) = roles
    dim = 2 ** len(wires)
    value %= dim
    matrix = np.eye(dim) - 2 * np.outer(_basis(value, dim), _basis(value, dim))  # -1 on |n> only
    argument = repr(value) if as_int else repr(_bits(value, len(wires)))
    return f"qml.{name}({argument}, wires={list(wires)!r})", matrix, None


def _target_unitaries(rng, targets, count):
    """`count` random unitaries, each on a random nonempty ordered subset of `targets`:
    (source, matrix on `targets`)."""
    out = []
    for _ in range(count):
        size = int(rng.integers(1, len(targets) + 1))
        chosen = [targets[i] for i in rng.permutation(len(targets))[:size]]
        u = oracle_core.haar_unitary(rng, 2 ** size)
        on_targets = _on_sites(u, [targets.index(w) for w in chosen], len(targets))
        out.append((f"qml.QubitUnitary({_literal(u)}, wires={chosen!r})", on_targets))
    return out


def _select(name, options, roles):
    """Select |i> (x) |psi> = |i> (x) U_i |psi> for i < len(ops) (docstring; the control states past the
    last op are not documented, so they are masked out)."""
    seed, surplus = options
    control, targets = roles
    rng = _rng(seed)
    count = max(1, 2 ** len(control) - surplus)
    ops = _target_unitaries(rng, list(targets), count)
    tdim = 2 ** len(targets)
    matrix = np.zeros((2 ** len(control) * tdim,) * 2, dtype=complex)
    for i, (_, u) in enumerate(ops):
        matrix[i * tdim:(i + 1) * tdim, i * tdim:(i + 1) * tdim] = u
    mask = np.repeat(np.arange(2 ** len(control)) < count, tdim)
    calls = ", ".join(source for source, _ in ops)
    return f"qml.{name}([{calls}], control={list(control)!r})", matrix, mask


def _block_encode(name, options, roles):
    """U(A) = [[A, sqrt(I - A A^dag)], [sqrt(I - A^dag A), -A^dag]] for a d x d block A on log2(2d) wires,
    for an A the docstring does not normalize: its note normalizes A when "the norm", the maximum of
    ||A A^dag|| and ||A^dag A||, exceeds 1, without saying which matrix norm. A is drawn with operator
    norm <= 1 and also max-row-sum norms of A A^dag and A^dag A <= 1, so no reading of the note
    normalizes it."""
    seed, scale = options
    (wires,) = roles
    rng = _rng(seed)
    dim = 2 ** (len(wires) - 1)
    a = _complex_vector(rng, (dim, dim))
    a = a * (scale / np.linalg.norm(a, 2))
    row_sum_norm = max(np.linalg.norm(a @ a.conj().T, np.inf), np.linalg.norm(a.conj().T @ a, np.inf))
    if row_sum_norm > 1:
        a = a / np.sqrt(row_sum_norm)  # A A^dag scales quadratically in A

    def psd_sqrt(m):
        values, vectors = np.linalg.eigh(m)
        return (vectors * np.sqrt(np.clip(values, 0, None))) @ vectors.conj().T

    eye = np.eye(dim)
    matrix = np.block([[a, psd_sqrt(eye - a @ a.conj().T)], [psd_sqrt(eye - a.conj().T @ a), -a.conj().T]])
    return f"qml.{name}({_literal(a)}, wires={list(wires)!r})", matrix, None


def _controlled_sequence(name, options, roles):
    """sum_k |k><k| (x) U^k: control[0] carries U^(2^(c-1)), the last control U (decreasing powers of 2)."""
    (seed,) = options
    control, targets = roles
    rng = _rng(seed)
    (source, u), = _target_unitaries(rng, list(targets), 1)
    blocks = [np.linalg.matrix_power(u, k) for k in range(2 ** len(control))]
    tdim = 2 ** len(targets)
    matrix = np.zeros((len(blocks) * tdim,) * 2, dtype=complex)
    for k, block in enumerate(blocks):
        matrix[k * tdim:(k + 1) * tdim, k * tdim:(k + 1) * tdim] = block
    return f"qml.{name}({source}, control={list(control)!r})", matrix, None


def _phase_estimation(name, options, roles):
    """On the eigenstate |j> of a diagonal U with eigenvalue e^{2 pi i k_j / 2^m}, QPE with m estimation
    wires maps |0...0>|j> to |k_j>|j> exactly (the phase is exactly representable; estimation wires read
    as a binary fraction, first wire most significant)."""
    seed, = options
    estimation, targets = roles
    rng = _rng(seed)
    m, tdim = len(estimation), 2 ** len(targets)
    ks = rng.integers(0, 2 ** m, size=tdim)
    j = int(rng.integers(0, tdim))
    diagonal = np.exp(2j * np.pi * ks / 2 ** m)
    matrix = np.zeros((2 ** m * tdim,) * 2, dtype=complex)
    matrix[int(ks[j]) * tdim + j, j] = 1.0  # column |0>|j> -> |k_j>|j>
    mask = np.zeros(2 ** m * tdim, dtype=bool)
    mask[j] = True
    call = (f"qml.{name}(qml.DiagonalQubitUnitary({_literal(diagonal)}, wires={list(targets)!r}), "
            f"estimation_wires={list(estimation)!r})")
    return call, matrix, mask


PAULI = {"X": np.array([[0, 1], [1, 0]]), "Y": np.array([[0, -1j], [1j, 0]]), "Z": np.diag([1.0, -1.0])}


def _evolution_sign(name):
    """The sign of i in the exponent the docstring states for its operator: -1 for e^{-iHt}, +1 for
    TrotterProduct's e^{iHt}; None if neither is stated."""
    doc = _doc(name)
    minus, plus = "e^{-iHt}" in doc, "e^{iHt}" in doc
    if minus != plus:
        return -1 if minus else 1
    return None  # neither, or both: the docstring does not pin the sign down


def _commuting_hamiltonian(seed, wires):
    """Pauli words that mutually commute: each wire has one letter, and a word is that letter on a
    nonempty subset of wires. (coefficients, words as [(letter, wire)], matrix)."""
    rng = _rng(seed)
    n = len(wires)
    letters = [str(rng.choice(["X", "Y", "Z"])) for _ in wires]
    count = int(rng.integers(2, 4))  # TrotterProduct refuses a single term ("use qml.exp")
    coeffs = [float(np.round(rng.uniform(-2, 2), 6)) for _ in range(count)]
    words = []
    for _ in range(count):
        subset = [i for i in range(n) if rng.integers(0, 2)] or [int(rng.integers(0, n))]
        words.append([(letters[i], wires[i]) for i in subset])
    matrix = sum(c * _kron_all([PAULI[letters[i]] if any(w == wires[i] for _, w in word) else np.eye(2)
                                for i in range(n)]) for c, word in zip(coeffs, words))
    return coeffs, words, matrix


def _hamiltonian_source(coeffs, words):
    names = {"X": "PauliX", "Y": "PauliY", "Z": "PauliZ"}
    terms = [" @ ".join(f"qml.{names[letter]}({wire!r})" for letter, wire in word) for word in words]
    return f"qml.Hamiltonian({coeffs!r}, [{', '.join(terms)}])"


def _evolution(name, options, roles):
    seed, time, steps, order = options
    (wires,) = roles
    coeffs, words, h = _commuting_hamiltonian(seed, list(wires))
    values, vectors = np.linalg.eigh(h)
    sign = _evolution_sign(name)
    matrix = (vectors * np.exp(sign * 1j * time * values)) @ vectors.conj().T
    hamiltonian = _hamiltonian_source(coeffs, words)
    if name == "ApproxTimeEvolution":
        call = f"qml.{name}({hamiltonian}, {time!r}, {steps})"
    elif name == "TrotterProduct":
        call = f"qml.{name}({hamiltonian}, {time!r}, n={steps}, order={order})"
    else:
        call = f"qml.{name}({hamiltonian}, {time!r})"
    return call, matrix, None


def _st():
    from hypothesis import strategies as st

    return st


def _lazy(make):
    """A strategy built on first use (hypothesis is imported only when a law runs)."""
    return lambda name: make(_st())


# name -> (builder, options strategy, role width ranges)
MATRIX_TEMPLATES = {
    "QFT": (_qft, _lazy(lambda st: st.just(())), [(1, 3)]),
    "GroverOperator": (_grover, _lazy(lambda st: st.just(())), [(2, 3), (0, 1)]),  # docs: at least two wires
    "Reflection": (_reflection, _lazy(lambda st: st.tuples(
        _seed(), st.one_of(st.sampled_from([np.pi, 0.0, np.pi / 2]), st.floats(-2 * np.pi, 2 * np.pi)),
        st.integers(0, 2))), [(1, 2)]),
    "FlipSign": (_flip_sign, _lazy(lambda st: st.tuples(st.integers(0, 15), st.booleans())), [(1, 3)]),
    "Select": (_select, _lazy(lambda st: st.tuples(_seed(), st.integers(0, 1))), [(1, 2), (1, 2)]),
    "BlockEncode": (_block_encode, _lazy(lambda st: st.tuples(
        _seed(), st.one_of(st.just(1.0), st.floats(0.05, 1.0)))), [(1, 3)]),
    "ControlledSequence": (_controlled_sequence, _lazy(lambda st: st.tuples(_seed())), [(1, 2), (1, 2)]),
    "QuantumPhaseEstimation": (_phase_estimation, _lazy(lambda st: st.tuples(_seed())), [(1, 3), (1, 1)]),
    "CommutingEvolution": (_evolution, _lazy(lambda st: st.tuples(
        _seed(), st.floats(-2.0, 2.0), st.just(1), st.just(1))), [(1, 3)]),
    "ApproxTimeEvolution": (_evolution, _lazy(lambda st: st.tuples(
        _seed(), st.floats(-2.0, 2.0), st.integers(1, 3), st.just(1))), [(1, 3)]),
    "TrotterProduct": (_evolution, _lazy(lambda st: st.tuples(
        _seed(), st.floats(-2.0, 2.0), st.integers(1, 3), st.sampled_from([1, 2, 4]))), [(1, 3)]),
}
EVOLUTIONS = ("CommutingEvolution", "ApproxTimeEvolution", "TrotterProduct")


def _matrix_subjects():
    present = [name for name in sorted(MATRIX_TEMPLATES) if _template(name) is not None]
    # an evolution is a subject only where its docstring states the sign of its exponent
    return [name for name in present if name not in EVOLUTIONS or _evolution_sign(name) is not None]


def _matrix_strategy(subject):
    from hypothesis import strategies as st

    _, options, ranges = MATRIX_TEMPLATES[subject]
    sizes = st.tuples(*[st.integers(low, high) for low, high in ranges])
    return sizes.flatmap(lambda widths: st.tuples(
        st.just(widths), _placed(sum(widths), min(sum(widths) + 1, MAX_MATRIX_QUBITS)), options(subject)))


def _roles(widths, wires):
    out, start = [], 0
    for width in widths:
        out.append(tuple(wires[start:start + width]))
        start += width
    return out


def _matrix_case(subject, example):
    widths, (register, wires), options = example
    builder = MATRIX_TEMPLATES[subject][0]
    call, matrix, mask = builder(subject, options, _roles(widths, list(wires)))
    return call, np.asarray(matrix, dtype=complex), mask


def _expected_full(subject, example):
    """The documented matrix on the register, and the mask of register input basis states it fixes."""
    widths, (register, wires), _ = example
    call, matrix, mask = _matrix_case(subject, example)
    positions = [list(register).index(w) for w in wires]
    expected = embed_matrix(matrix, positions, len(register))
    columns = np.ones(2 ** len(register), dtype=bool)
    if mask is not None:
        columns = np.diag(embed_matrix(np.diag(mask.astype(float)), positions, len(register))).real > 0.5
    return call, expected, columns


def _check_matrix(subject, example):
    import pennylane as qml

    _, (register, _), _ = example
    call, expected, columns = _expected_full(subject, example)
    op = eval(call, {"qml": qml, "np": np})  # noqa: S307 (the call source the reproducer prints)
    actual = np.asarray(qml.matrix(op, wire_order=list(register)))
    where = f"qml.matrix({call}, wire_order={list(register)!r})"
    assert actual.shape == expected.shape, f"{where} has shape {actual.shape}, expected {expected.shape}"
    deviation = float(np.max(np.abs(actual[:, columns] - expected[:, columns])))
    assert deviation < ATOL, f"{where} is not the documented operator (max deviation {deviation:.3g})"


def _reproduce_matrix(subject, example):
    widths, (register, wires), _ = example
    call, matrix, mask = _matrix_case(subject, example)
    positions = [list(register).index(w) for w in wires]
    masking = ""
    if mask is not None:
        masking = (f"# only the input basis states the documentation fixes (on wires {list(wires)!r})\n"
                   f"mask = np.array({mask.astype(int).tolist()!r})\n"
                   f"columns = np.diag(embed_matrix(np.diag(mask), {positions!r}, {len(register)})).real > 0.5\n"
                   "actual, expected = actual[:, columns], expected[:, columns]\n")
    return ("import numpy as np\nimport pennylane as qml\n" + EMBED_SOURCE + "\n"
            f"register = {list(register)!r}\n"
            f"op = {call}\n"
            "actual = np.asarray(qml.matrix(op, wire_order=register))\n"
            f"# the operator the docstring of {subject} writes down, on wires {list(wires)!r} "
            "(first wire most significant)\n"
            f"documented = np.array({matrix.tolist()!r})\n"
            f"expected = embed_matrix(documented, {positions!r}, {len(register)})\n"
            "assert actual.shape == expected.shape, f'matrix of shape {actual.shape}, expected {expected.shape}'\n"
            + masking +
            "deviation = np.max(np.abs(actual - expected))\n"
            f"assert deviation < {ATOL}, f'the matrix differs from the documented operator by {{deviation}}'\n")


def _describe_matrix(subject, example):
    _, (register, _), _ = example
    call, _, _ = _matrix_case(subject, example)
    return f"qml.matrix({call}, wire_order={list(register)!r})"


FAMILY = "templates"
DOC = "documentation: pennylane.{template} (class docstring)"

CONTRACTS = [
    Contract("pennylane.templates.prepares-documented-state", FAMILY,
             "a state-preparation or embedding template applied to |0...0> prepares the state its docstring "
             "defines (qml.state() on default.qubit / default.qutrit), on non-contiguous, permuted and string "
             "wires of a larger register, with pad_with / normalize / rotation / n_repeats / pattern options "
             "and broadcast parameters; global phase included unless the docstring leaves it free",
             DOC + "; documentation: qml.state, operator broadcasting",
             _state_subjects, _state_strategy, _check_state, _reproduce_state,
             lambda s: f"pennylane.{s}", describe=_describe_state),
    Contract("pennylane.templates.closed-form-unitary", FAMILY,
             "a template whose docstring writes down its operator has that matrix under qml.matrix(op, "
             "wire_order=register), global phase included: QFT, GroverOperator, Reflection, FlipSign, Select, "
             "BlockEncode, ControlledSequence, QuantumPhaseEstimation (on an eigenstate), and "
             "CommutingEvolution / ApproxTimeEvolution / TrotterProduct for commuting Pauli words "
             "(product formulas exact, exponent sign as documented)",
             DOC + "; documentation: qml.matrix",
             _matrix_subjects, _matrix_strategy, _check_matrix, _reproduce_matrix,
             lambda s: f"pennylane.{s}", describe=_describe_matrix),
]
