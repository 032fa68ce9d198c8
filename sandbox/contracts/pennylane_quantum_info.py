"""Quantum information, PennyLane: the quantum-information functions of `qml.math` the live release
exports compute the textbook quantity their docstring names.

Subjects: every function of `qml.math` defined in `pennylane.math.quantum` or `pennylane.math.fidelity`
that this law has an independent numpy oracle for (one subject per function present on the release).

  - fidelity(rho, sigma) = (Tr sqrt(sqrt(rho) sigma sqrt(rho)))^2 (the docstring's squared convention);
    fidelity_statevector(psi, phi) = |<psi|phi>|^2;
  - trace_distance = 1/2 ||rho - sigma||_1 (also one state against a batch, as documented);
  - relative_entropy = Tr rho (log rho - log sigma) / log(base) (0 for equal states, inf when
    supp rho is not inside supp sigma, as the docstring's examples say);
  - vn_entropy, max_entropy = log rank, min_entropy = -log max p, purity = Tr rho_A^2, all of the
    subsystem `indices` keeps; mutual_info = S(A) + S(B) - S(AB); vn_entanglement_entropy = S(A) for a
    pure state split into two parts;
  - reduce_dm / reduce_statevector keep the subsystem `indices` (the docs do not fix the order of the
    kept wires: the result may follow the given order or the ascending one), partial_trace traces
    `indices` out (the kept wires stay in ascending order);
  - expectation_value = <psi|A|psi>, sqrt_matrix = the positive square root, dm_from_state_vector
    = |psi><psi|.

Inputs: 1-3 qubit pure and mixed states of every rank (random, basis, GHZ, product, maximally mixed),
batched (a leading batch dimension, where the docstring lists that shape), permuted `indices`,
`check_state` on and off, complex64/complex128 inputs and `c_dtype`. Every batch entry must equal the
textbook value of that entry alone.
"""

import functools
import inspect
import math

import numpy as np
import oracle_core
from contract_runtime import Contract

# Tolerances by quantity and precision. complex128: linear quantities are exact to rounding;
# entropies go through an eigendecomposition (~1e-15 per eigenvalue); square roots turn a rounding
# error of 1e-16 in a zero eigenvalue into 1e-8 (fidelity of rank-deficient states, sqrt_matrix).
# complex64 (input or c_dtype): float32 eigenvalues carry ~1e-7 noise, whose square root is 3e-4,
# summed over up to 8 eigenvalues and squared in the fidelity.
TOLERANCE = {"double": {"linear": 1e-9, "entropy": 1e-7, "sqrt": 1e-6},
             "single": {"linear": 2e-5, "entropy": 2e-4, "sqrt": 2e-2}}
# An eigenvalue of the exact state below ZERO_BELOW is zero, above NONZERO_ABOVE nonzero; between
# the two, or anywhere below NONZERO_ABOVE in single precision, a rank may count it either way.
ZERO_BELOW = 1e-11
NONZERO_ABOVE = {"double": 1e-6, "single": 1e-4}
BASES = [None, 2, 10, 3.0]

# name -> (what it takes, quantity kind for the tolerance)
KINDS = {
    "fidelity": ("two density matrices", "sqrt"),
    "fidelity_statevector": ("two state vectors", "linear"),
    "trace_distance": ("two density matrices", "entropy"),
    "relative_entropy": ("two density matrices", "entropy"),
    "vn_entropy": ("density matrix, indices", "entropy"),
    "max_entropy": ("density matrix, indices", "entropy"),
    "min_entropy": ("density matrix, indices", "entropy"),
    "purity": ("density matrix, indices", "linear"),
    "reduce_dm": ("density matrix, indices", "linear"),
    "reduce_statevector": ("state vector, indices", "linear"),
    "partial_trace": ("density matrix, traced indices", "linear"),
    "mutual_info": ("density matrix, two index lists", "entropy"),
    "vn_entanglement_entropy": ("pure density matrix, bipartition", "entropy"),
    "expectation_value": ("operator, state vector", "linear"),
    "sqrt_matrix": ("density matrix", "sqrt"),
    "dm_from_state_vector": ("state vector", "linear"),
}
TAKES_VECTORS = {"fidelity_statevector", "reduce_statevector", "expectation_value", "dm_from_state_vector"}
TAKES_INDICES = {"vn_entropy", "max_entropy", "min_entropy", "purity", "reduce_dm", "reduce_statevector",
                 "partial_trace"}
TWO_STATES = {"fidelity", "fidelity_statevector", "trace_distance", "relative_entropy"}
HOME_MODULES = ("pennylane.math.quantum", "pennylane.math.fidelity")


# -- which functions: found in the live library ---------------------------------------------------
@functools.lru_cache(maxsize=None)  # noqa: UP033 (older targets run Python 3.8)
def _functions():
    """name -> function of every quantum-information function qml.math exports (defined in its
    quantum / fidelity modules) that the law has an oracle for."""
    import pennylane as qml

    found = {}
    for name in sorted(dir(qml.math)):
        obj = getattr(qml.math, name, None)
        if inspect.isfunction(obj) and getattr(obj, "__module__", "") in HOME_MODULES and name in KINDS:
            found[name] = obj
    return found


def _subjects():
    return sorted(_functions())


def _api(subject):
    return f"pennylane.math.{subject}"


@functools.lru_cache(maxsize=None)  # noqa: UP033
def _parameters(subject):
    return tuple(inspect.signature(_functions()[subject]).parameters)


# -- states, from a seed -----------------------------------------------------------------------------
def state_vector(kind, seed, n):
    """A normalized pure state of n qubits: random, a basis state, GHZ with a phase, or a product."""
    rng = np.random.default_rng(seed)
    dim = 2 ** n
    if kind == "basis":
        psi = np.zeros(dim, dtype=complex)
        psi[seed % dim] = 1.0
        return psi
    if kind == "ghz":
        psi = np.zeros(dim, dtype=complex)
        psi[0], psi[-1] = 1.0, np.exp(1j * rng.uniform(0, 2 * math.pi))
        return psi / np.linalg.norm(psi)
    if kind == "product":
        psi = np.ones(1, dtype=complex)
        for _ in range(n):
            q = rng.normal(size=2) + 1j * rng.normal(size=2)
            psi = np.kron(psi, q / np.linalg.norm(q))
        return psi
    psi = rng.normal(size=dim) + 1j * rng.normal(size=dim)
    return psi / np.linalg.norm(psi)


def density_matrix(kind, rank, seed, n):
    """A density matrix of n qubits: of the given rank (eigenvalues bounded away from zero), the
    maximally mixed state, or a pure state of a vector kind."""
    dim = 2 ** n
    if kind == "mixed":
        rank = max(1, min(rank, dim))
        rng = np.random.default_rng(seed)
        weights = 0.1 + rng.uniform(size=rank)
        weights = weights / weights.sum()
        vectors = oracle_core.haar_unitary(rng, dim)[:, :rank]
        return (vectors * weights) @ vectors.conj().T
    if kind == "maximally mixed":
        return np.eye(dim, dtype=complex) / dim
    psi = state_vector(kind, seed, n)
    return np.outer(psi, psi.conj())


def hermitian(seed, n):
    rng = np.random.default_rng(seed)
    dim = 2 ** n
    g = rng.normal(size=(dim, dim)) + 1j * rng.normal(size=(dim, dim))
    return (g + g.conj().T) / 2


# -- the textbook quantities, in numpy --------------------------------------------------------------
def reduced(rho, n, keep):
    """Tr over the wires not in `keep` of rho (wire 0 most significant), kept wires in `keep`'s order."""
    keep = list(keep)
    rest = [i for i in range(n) if i not in keep]
    perm = keep + rest
    t = np.asarray(rho, dtype=complex).reshape([2] * (2 * n)).transpose(perm + [n + p for p in perm])
    a, b = 2 ** len(keep), 2 ** len(rest)
    return np.trace(t.reshape(a, b, a, b), axis1=1, axis2=3)


def eigenvalues(rho):
    return np.clip(np.linalg.eigvalsh((rho + rho.conj().T) / 2), 0.0, None)


def entropy(rho, base):
    p = eigenvalues(rho)
    p = p[p > 0]
    return float(-np.sum(p * np.log(p)) / (math.log(base) if base else 1.0))


def matrix_sqrt(rho):
    w, v = np.linalg.eigh((rho + rho.conj().T) / 2)
    return (v * np.sqrt(np.clip(w, 0.0, None))) @ v.conj().T


def fidelity(rho, sigma):
    s = matrix_sqrt(rho)
    return float(np.sum(np.sqrt(eigenvalues(s @ sigma @ s))) ** 2)


def relative_entropy(rho, sigma, base):
    """Tr rho (log rho - log sigma), inf when rho has weight outside the support of sigma."""
    p, u = np.linalg.eigh((rho + rho.conj().T) / 2)
    q, v = np.linalg.eigh((sigma + sigma.conj().T) / 2)
    overlap = np.abs(u.conj().T @ v) ** 2  # overlap[i, j] = |<r_i|s_j>|^2
    total = 0.0
    for i, pi in enumerate(p):
        if pi <= 1e-9:
            continue
        for j, qj in enumerate(q):
            if overlap[i, j] > 1e-9:
                if qj <= 1e-9:
                    return math.inf
                total += pi * overlap[i, j] * (math.log(pi) - math.log(qj))
    return total / (math.log(base) if base else 1.0)


def accepted_ranks(rho, precision):
    """The ranks a correct implementation may count: eigenvalues clearly zero or clearly nonzero
    count one way; those in between (in single precision: all below NONZERO_ABOVE) either way."""
    p = np.linalg.eigvalsh((rho + rho.conj().T) / 2)
    sure = int(np.sum(p > NONZERO_ABOVE[precision]))
    possible = int(np.sum(p > (ZERO_BELOW if precision == "double" else -1.0)))
    return list(range(max(sure, 1), max(possible, 1) + 1))


# -- examples ----------------------------------------------------------------------------------------
# An example: (subject, n, entries0, entries1, indices0, indices1, base, check_state, c_dtype, in_dtype, batch)
# entries: a tuple of state specs (kind, rank, seed), one per batch entry (one when unbatched);
# entries1 for the second state (or the operator's seeds for expectation_value), () when none.
VECTOR_KINDS = ["random", "basis", "ghz", "product"]
MATRIX_KINDS = ["mixed", "mixed", "random", "basis", "ghz", "product", "maximally mixed"]


def _strategy(subject):
    from hypothesis import strategies as st

    bipartite = subject in ("mutual_info", "vn_entanglement_entropy")
    sizes = st.integers(2, 3) if bipartite or subject == "partial_trace" else st.integers(1, 3)
    return st.tuples(sizes, st.sampled_from([0, 0, 1, 2, 3]), st.randoms(use_true_random=False)).map(
        lambda t: _example(subject, t[0], t[1], t[2]))


def _entry(subject, rnd, n, pure):
    kinds = VECTOR_KINDS if pure else MATRIX_KINDS
    return (rnd.choice(kinds), rnd.randint(1, 2 ** n), rnd.randint(0, 2 ** 32 - 1))


def _example(subject, n, batch, rnd):
    """One input, drawn with hypothesis's (shrinkable) random: batch 0 means unbatched."""
    pure = subject in TAKES_VECTORS or subject == "vn_entanglement_entropy"
    count = max(batch, 1)
    entries0 = tuple(_entry(subject, rnd, n, pure) for _ in range(count))
    entries1 = ()
    if subject in TWO_STATES:
        one_sided = subject == "trace_distance" and batch and rnd.random() < 0.3
        if subject == "relative_entropy":
            # sigma: full rank (a finite value), the same state (0), or a pure state (inf or 0)
            entries1 = tuple(rnd.choice([("mixed", 2 ** n, rnd.randint(0, 2 ** 32 - 1)), e,
                                         (rnd.choice(VECTOR_KINDS), 1, rnd.randint(0, 2 ** 32 - 1))])
                             for e in entries0)
        else:
            entries1 = tuple(_entry(subject, rnd, n, pure) for _ in range(1 if one_sided else count))
            if not one_sided and rnd.random() < 0.15:
                entries1 = entries0  # equal states: fidelity 1, distance 0
    elif subject == "expectation_value":
        entries1 = tuple(("hermitian", 0, rnd.randint(0, 2 ** 32 - 1)) for _ in range(count))
    wires = list(range(n))
    rnd.shuffle(wires)
    indices0, indices1 = (), ()
    if subject in TAKES_INDICES:
        low = 1
        high = n - 1 if subject == "partial_trace" else n
        indices0 = tuple(wires[:rnd.randint(low, high)])
    elif subject == "mutual_info":
        cut = rnd.randint(1, n - 1)
        end = rnd.randint(cut + 1, n)
        indices0, indices1 = tuple(wires[:cut]), tuple(wires[cut:end])
    elif subject == "vn_entanglement_entropy":
        cut = rnd.randint(1, n - 1)
        indices0, indices1 = tuple(wires[:cut]), tuple(wires[cut:])
    base = rnd.choice(BASES) if "base" in _parameters(subject) else None
    check_state = rnd.random() < 0.5 if "check_state" in _parameters(subject) else False
    c_dtype = rnd.choice(["complex128", "complex128", "complex64"]) if "c_dtype" in _parameters(subject) else None
    in_dtype = rnd.choice(["complex128", "complex128", "complex64", "list"])
    return (subject, n, entries0, entries1, indices0, indices1, base, check_state, c_dtype, in_dtype, batch)


def _precision(example):
    c_dtype, in_dtype = example[8], example[9]
    return "single" if "complex64" in (c_dtype, in_dtype) else "double"


def _array(subject, n, entry, vector):
    kind, rank, seed = entry
    if kind == "hermitian":
        return hermitian(seed, n)
    return state_vector(kind, seed, n) if vector else density_matrix(kind, rank, seed, n)


def _inputs(example):
    """The numpy arrays the function is called with (cast to the input dtype, then back to
    complex128: the oracle sees exactly the numbers the library is given)."""
    subject, n, entries0, entries1, _, _, _, _, _, in_dtype, batch = example
    vector = subject in TAKES_VECTORS
    dtype = np.complex64 if in_dtype == "complex64" else np.complex128

    def stack(entries, as_vector):
        arrays = [_array(subject, n, e, as_vector).astype(dtype) for e in entries]
        return np.stack(arrays) if batch else arrays[0]

    first = stack(entries0, vector)
    if not entries1:
        return first, None
    second = stack(entries1, vector and subject != "expectation_value")
    if subject == "trace_distance" and batch and len(entries1) == 1:
        second = second[0]  # one state against the batch
    if subject == "expectation_value":
        first, second = second, first  # (operator, state)
    return first, second


def _keywords(example):
    subject, _, _, _, indices0, indices1, base, check_state, c_dtype, _, _ = example
    params = _parameters(subject)
    kwargs = {}
    if subject in TAKES_INDICES:
        kwargs["indices"] = list(indices0)
    if subject in ("mutual_info", "vn_entanglement_entropy"):
        kwargs["indices0"], kwargs["indices1"] = list(indices0), list(indices1)
    if "base" in params and base is not None:
        kwargs["base"] = base
    if "check_state" in params and check_state:
        kwargs["check_state"] = True
    if "c_dtype" in params and c_dtype is not None:
        kwargs["c_dtype"] = c_dtype
    return kwargs


def _call(example):
    first, second = _inputs(example)
    args = [first] if second is None else [first, second]
    if example[9] == "list":
        args = [a.tolist() for a in args]
    return _functions()[example[0]](*args, **_keywords(example))


def _expected_entry(subject, n, a, b, example):
    """The textbook value for one (unbatched) entry: a list of acceptable values."""
    _, _, _, _, indices0, indices1, base, _, _, _, _ = example
    precision = _precision(example)
    if subject == "fidelity":
        return [fidelity(a, b)]
    if subject == "fidelity_statevector":
        return [abs(np.vdot(a, b)) ** 2]
    if subject == "trace_distance":
        return [float(np.sum(np.abs(np.linalg.eigvalsh(a - b))) / 2)]
    if subject == "relative_entropy":
        return [relative_entropy(a, b, base)]
    if subject == "dm_from_state_vector":
        return [np.outer(a, a.conj())]
    if subject == "expectation_value":
        return [np.vdot(b, a @ b)]
    if subject == "sqrt_matrix":
        return [matrix_sqrt(a)]
    rho = np.outer(a, a.conj()) if subject in TAKES_VECTORS else a
    if subject in ("reduce_dm", "reduce_statevector"):
        return [reduced(rho, n, indices0), reduced(rho, n, sorted(indices0))]
    if subject == "partial_trace":
        return [reduced(rho, n, [i for i in range(n) if i not in indices0])]
    part = reduced(rho, n, indices0)
    scale = math.log(base) if base else 1.0
    if subject == "vn_entropy" or subject == "vn_entanglement_entropy":
        return [entropy(part, base)]
    if subject == "purity":
        return [float(np.real(np.trace(part @ part)))]
    if subject == "max_entropy":
        return [math.log(r) / scale for r in accepted_ranks(part, precision)]
    if subject == "min_entropy":
        return [-math.log(float(np.max(eigenvalues(part)))) / scale]
    if subject == "mutual_info":
        both = reduced(rho, n, sorted(indices0 + indices1))
        return [entropy(part, base) + entropy(reduced(rho, n, indices1), base) - entropy(both, base)]
    raise KeyError(subject)


def expected(example):
    """Per batch entry (one entry when unbatched), the acceptable textbook values."""
    subject, n, _, _, _, _, _, _, _, _, batch = example
    first, second = _inputs(example)
    a_all = np.asarray(first, dtype=complex)
    b_all = None if second is None else np.asarray(second, dtype=complex)
    if not batch:
        return [_expected_entry(subject, n, a_all, b_all, example)]
    out = []
    for i in range(batch):
        a = a_all[i]
        b = None if b_all is None else (b_all if b_all.ndim == a_all.ndim - 1 else b_all[i])
        if subject == "expectation_value":
            b = b_all[i]
        out.append(_expected_entry(subject, n, a, b, example))
    return out


def _close(actual, value, tol):
    value = np.asarray(value)
    if np.shape(actual) != np.shape(value):
        return False
    if value.ndim == 0 and math.isinf(float(np.real(value))):
        return bool(np.isinf(np.real(actual)) and np.real(actual) > 0)
    return bool(np.all(np.abs(np.asarray(actual, dtype=complex) - value) <= tol))


def _compare(example, result):
    """(entry, actual, acceptable values) of the first batch entry that is not textbook, or None."""
    subject, batch = example[0], example[10]
    tol = TOLERANCE[_precision(example)][KINDS[subject][1]]
    result = np.asarray(result)
    wanted = expected(example)
    scalar = np.ndim(wanted[0][0]) == 0
    if batch and result.shape[:1] != (batch,):
        if scalar and result.size == 1:
            # one number for the whole batch: say which entries it is wrong for
            value = result.reshape(())
            wrong = [i for i, values in enumerate(wanted) if not any(_close(value, v, tol) for v in values)]
            assert not wrong, (f"qml.math.{subject} on a batch of {batch} returned the single value "
                               f"{np.round(value, 10).tolist()!r}; the textbook values of the entries are "
                               f"{[np.round(v[0], 10).tolist() for v in wanted]!r}")
        raise AssertionError(f"qml.math.{subject} on a batch of {batch} returned shape {result.shape}, "
                             f"expected a leading batch dimension of {batch}")
    entries = list(result) if batch else [result]
    for i, (actual, values) in enumerate(zip(entries, wanted)):
        actual = np.asarray(actual)
        if scalar:
            assert actual.size == 1, f"qml.math.{subject} returned shape {result.shape} for a scalar quantity"
            actual = actual.reshape(())
        if not any(_close(actual, v, tol) for v in values):
            return i, actual, values, tol
    return None


def _describe(subject, example):
    _, n, entries0, entries1, indices0, indices1, base, check_state, c_dtype, in_dtype, batch = example
    kw = ", ".join(f"{k}={v!r}" for k, v in _keywords(example).items())
    return (f"qml.math.{subject}({kw}) on {n} qubit(s), {'batch of ' + str(batch) if batch else 'unbatched'}, "
            f"input {in_dtype}, states {list(entries0)}" + (f" / {list(entries1)}" if entries1 else ""))


def _check(subject, example):
    result = _call(example)
    mismatch = _compare(example, result)
    if mismatch is not None:
        i, actual, values, tol = mismatch
        raise AssertionError(f"{_describe(subject, example)}: entry {i} is {np.round(actual, 10).tolist()!r}, "
                             f"the textbook value is {' or '.join(repr(np.round(v, 10).tolist()) for v in values)} "
                             f"(tolerance {tol})")


# -- reproducer ----------------------------------------------------------------------------------------
def _literal(array, in_dtype):
    if in_dtype == "list":
        return repr(np.asarray(array).tolist())
    return f"np.array({np.asarray(array).tolist()!r}, dtype=np.{in_dtype})"


FORMULAS = {
    "fidelity": "(Tr sqrt(sqrt(rho) sigma sqrt(rho)))^2",
    "fidelity_statevector": "|<psi|phi>|^2",
    "trace_distance": "1/2 Tr|rho - sigma|",
    "relative_entropy": "Tr rho (log rho - log sigma) / log(base)",
    "vn_entropy": "-Tr rho_A log rho_A / log(base), rho_A the state of the wires `indices`",
    "max_entropy": "log(rank rho_A) / log(base), rho_A the state of the wires `indices`",
    "min_entropy": "-log(max eigenvalue of rho_A) / log(base), rho_A the state of the wires `indices`",
    "purity": "Tr rho_A^2, rho_A the state of the wires `indices`",
    "reduce_dm": "rho_A, the partial trace over the wires not in `indices` (wire 0 most significant)",
    "reduce_statevector": "rho_A of |psi><psi|, the partial trace over the wires not in `indices`",
    "partial_trace": "the partial trace over the wires `indices` (kept wires ascending)",
    "mutual_info": "S(rho_A) + S(rho_B) - S(rho_AB)",
    "vn_entanglement_entropy": "S(rho_A) of the pure state",
    "expectation_value": "<psi|A|psi>",
    "sqrt_matrix": "the positive semidefinite square root",
    "dm_from_state_vector": "|psi><psi|",
}


def _value_literal(value):
    value = np.asarray(value)
    if value.ndim == 0:
        v = complex(value)
        if math.isinf(v.real):
            return "float('inf')"
        return repr(v.real) if v.imag == 0 else repr(v)
    return f"np.array({value.tolist()!r})"


def _reproduce(subject, example):
    first, second = _inputs(example)
    in_dtype, batch = example[9], example[10]
    args = [first] if second is None else [first, second]
    names = ["state0", "state1"] if len(args) == 2 else ["state"]
    if subject == "expectation_value":
        names = ["operator", "state"]
    lines = ["import numpy as np", "import pennylane as qml", ""]
    for name, arg in zip(names, args):
        lines.append(f"{name} = {_literal(arg, in_dtype)}")
    kw = "".join(f", {k}={v!r}" for k, v in _keywords(example).items())
    lines.append(f"result = np.asarray(qml.math.{subject}({', '.join(names)}{kw}))")
    wanted = expected(example)
    tol = TOLERANCE[_precision(example)][KINDS[subject][1]]
    lines.append(f"# textbook value ({FORMULAS[subject]}), computed with numpy; a list of acceptable values per "
                 f"{'batch entry' if batch else 'call'}")
    lines.append("expected = [" + ", ".join("[" + ", ".join(_value_literal(v) for v in values) + "]"
                                            for values in wanted) + "]")
    if batch:
        lines.append(f"if result.shape[:1] != ({batch},) and result.size == 1:")
        lines.append(f"    entries = [result.reshape(())] * {batch}  # one value for the whole batch: compare it with each entry")
        lines.append("else:")
        lines.append(f"    assert result.shape[:1] == ({batch},), f'batch dimension lost: shape {{result.shape}}'")
        lines.append("    entries = list(result)")
    else:
        lines.append("entries = [result]")
    lines += [
        "def close(actual, value):",
        "    actual, value = np.asarray(actual), np.asarray(value)",
        "    if value.size == 1 and actual.size == 1:",
        "        actual, value = actual.reshape(()), value.reshape(())",
        "        if np.isinf(value.real):",
        "            return bool(np.isinf(actual.real) and actual.real > 0)",
        "    return actual.shape == value.shape and bool(np.all(np.abs(actual - value) <= " + repr(tol) + "))",
        "for i, (actual, values) in enumerate(zip(entries, expected)):",
        f"    assert any(close(actual, v) for v in values), "
        f"f'qml.math.{subject}: entry {{i}} is {{actual}}, textbook value {{values}}'",
    ]
    if batch:
        lines.append(f"assert result.shape[:1] == ({batch},), f'batch dimension lost: shape {{result.shape}}'")
    return "\n".join(lines) + "\n"


FAMILY = "quantum information"
DOC = ("documentation: pennylane.math.{function} docstrings (fidelity, fidelity_statevector, trace_distance, "
       "relative_entropy, vn_entropy, mutual_info, purity, reduce_dm, reduce_statevector, partial_trace, max_entropy, "
       "min_entropy, expectation_value, sqrt_matrix, dm_from_state_vector, vn_entanglement_entropy); "
       "Nielsen & Chuang ch. 9 and 11")

CONTRACTS = [
    Contract("pennylane.math.quantum-info-matches-textbook", FAMILY,
             "each quantum-information function of qml.math computes the textbook quantity its docstring names "
             "(squared fidelity, trace distance, relative/von Neumann/max/min entropy, mutual information, purity, "
             "reduced states of the kept `indices`, partial trace, <psi|A|psi>, matrix square root, |psi><psi|), "
             "for 1-3 qubit pure and mixed states of any rank, each batch entry as the unbatched value, with "
             "check_state, permuted indices, complex64/complex128 inputs and c_dtype",
             DOC, _subjects, _strategy, _check, _reproduce, _api, describe=_describe),
]
