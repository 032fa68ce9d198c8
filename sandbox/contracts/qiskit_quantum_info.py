"""Quantum information objects, Qiskit (qiskit.quantum_info): the methods of Statevector,
DensityMatrix and Operator that act on a subset of subsystems (`qargs`) or on qudit dimensions
do what their documentation says. Subjects are (class, method) pairs the release has.

Conventions, from the documentation: subsystem 0 is the least significant (a vector of dims
(d0, d1, ...) is indexed i = i0 + d0 * (i1 + d1 * ...)); `qargs[0]` is the least significant
subsystem of an operator placed on `qargs`, and of a result reduced to `qargs` (probabilities,
probabilities_dict "keys are qudit strings", most significant first); `a.tensor(b)` has b on the
low subsystems, `a.expand(b)` is b.tensor(a); `compose` applies self then other (front=True and
`dot`: other then self); `apply_permutation(perm)`: qubit perm[k] occupies position k afterwards.
Inputs are random states, density matrices and operators (some with exact zeros) on 1-3
subsystems of dimension 2 or 3, with random ordered qargs.

The judge is numpy (tensordot / reshape / transpose on the little-endian tensor), never the
library's own code. Each check runs a program that is also the reproducer: inputs and the
numpy-computed expected values written out as literals, the library call, and the assertions.
"""

import math

import numpy as np
import oracle_core
from contract_runtime import Contract

# Double precision on at most 22-dimensional arrays: exact operations agree to ~1e-14.
ATOL = 1e-9
# Fractional powers go through an eigen / Schur decomposition (LAPACK; the result depends on the
# BLAS build to ~1e-12 for well-separated eigenvalues, which the inputs keep apart).
POWER_ATOL = 1e-7
# Sampling: an outcome count is a violation only when its exact binomial two-sided p-value is
# below this (at most 18 outcomes per example, 25 examples per subject: a false alarm needs a
# 1e-10 event), or when an outcome of probability zero is ever drawn.
P_VALUE = 1e-10
SHOTS = 2000
MAX_DIM = 18  # besides the fixed large-qudit shapes (11,), (2, 11), (11, 2)

# Subjects are "Class.method" (or "partial_trace(Class)"); a release lacking one has fewer.
STATE_METHODS = ["probabilities", "probabilities_dict", "expectation_value", "reset", "measure", "evolve", "tensor",
                 "expand", "reverse_qargs", "from_int", "conjugate", "to_dict", "sample_counts", "sample_memory"]
SUBJECTS = ([f"Statevector.{m}" for m in STATE_METHODS + ["inner", "equiv"]] +
            [f"DensityMatrix.{m}" for m in STATE_METHODS + ["from_label", "partial_transpose"]] +
            [f"Operator.{m}" for m in ["compose", "dot", "tensor", "expand", "power", "reverse_qargs",
                                       "apply_permutation", "from_label", "equiv", "conjugate", "transpose",
                                       "adjoint"]] +
            ["partial_trace(Statevector)", "partial_trace(DensityMatrix)"])
QUBITS_ONLY = {"Operator.apply_permutation", "Operator.from_label", "DensityMatrix.from_label"}


def _split(subject):
    """(class or function name, method name or None)."""
    if subject.startswith("partial_trace("):
        return "partial_trace", None
    cls, method = subject.split(".")
    return cls, method


def _subjects():
    import qiskit.quantum_info as qi

    found = []
    for subject in SUBJECTS:
        owner, method = _split(subject)
        target = getattr(qi, owner, None)
        if target is not None and (method is None or hasattr(target, method)):
            found.append(subject)
    return found


def _api(subject):
    owner, method = _split(subject)
    return f"qiskit.quantum_info.{owner}" + (f".{method}" if method else "")


# -- numpy judge --------------------------------------------------------------------------------
def random_vector(seed, dim, sparse=False):
    rng = np.random.default_rng(seed)
    vec = rng.normal(size=dim) + 1j * rng.normal(size=dim)
    if sparse:
        keep = rng.random(dim) < 0.5
        keep[rng.integers(dim)] = True
        vec = vec * keep
    return vec / np.linalg.norm(vec)


def random_density(seed, dim, sparse=False):
    """A rank-2 mixture of two random (possibly sparse) pure states."""
    a, b = random_vector(seed, dim, sparse), random_vector(seed + 1, dim, sparse)
    weight = 0.3 + 0.4 * np.random.default_rng(seed).random()
    return weight * np.outer(a, a.conj()) + (1 - weight) * np.outer(b, b.conj())


def random_matrix(seed, rows, cols):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(rows, cols)) + 1j * rng.normal(size=(rows, cols))


def random_unitary(seed, dim):
    return oracle_core.haar_unitary(np.random.default_rng(seed), dim)


def apply_on(op, columns, qargs, dims):
    """op (acting on subsystems qargs, qargs[0] its least significant) applied to each column of
    `columns` (states of the little-endian register `dims`)."""
    n, k = len(dims), len(qargs)
    sub = [dims[q] for q in qargs]
    width = columns.shape[1]
    tensor = columns.reshape(tuple(reversed(dims)) + (width,))  # axis n-1-q is subsystem q
    op_tensor = op.reshape(tuple(reversed(sub)) * 2)  # out axis k-1-j, in axis 2k-1-j: qargs[j]
    result = np.tensordot(op_tensor, tensor, axes=([2 * k - 1 - j for j in range(k)], [n - 1 - q for q in qargs]))
    result = np.moveaxis(result, list(range(k)), [n - 1 - qargs[k - 1 - i] for i in range(k)])
    return result.reshape(-1, width)


def embed(op, qargs, dims):
    """The full matrix of op on qargs of the register `dims`."""
    return apply_on(op, np.eye(int(np.prod(dims)), dtype=complex), qargs, dims)


def marginal(probabilities, qargs, dims):
    """Marginal distribution of the qargs subsystems, qargs[0] least significant."""
    n = len(dims)
    tensor = probabilities.reshape(tuple(reversed(dims)))
    order = [n - 1 - q for q in reversed(qargs)]
    rest = [a for a in range(n) if a not in order]
    size = int(np.prod([dims[q] for q in qargs]))
    return tensor.transpose(order + rest).reshape(size, -1).sum(axis=1)


def key(index, sub_dims):
    """Ket label of basis index `index` of subsystems with dims sub_dims (least significant first)."""
    digits = np.unravel_index(index, tuple(reversed(sub_dims)))
    separator = "," if max(sub_dims) > 10 else ""
    return separator.join(str(int(d)) for d in digits)


def basis_projector(index, qargs, dims, target=None):
    """|target><index| on the qargs subsystems (target defaults to index), embedded."""
    size = int(np.prod([dims[q] for q in qargs]))
    local = np.zeros((size, size), dtype=complex)
    local[index if target is None else target, index] = 1
    return embed(local, qargs, dims)


def reverse_matrix(matrix, out_dims, in_dims):
    """The matrix with subsystem order reversed on both sides."""
    n_out, n_in = len(out_dims), len(in_dims)
    tensor = matrix.reshape(tuple(reversed(out_dims)) + tuple(reversed(in_dims)))
    order = list(reversed(range(n_out))) + [n_out + a for a in reversed(range(n_in))]
    return tensor.transpose(order).reshape(matrix.shape)


def partial_trace(rho, traced, dims):
    n = len(dims)
    tensor = rho.reshape(tuple(reversed(dims)) * 2)
    letters = "abcdefghij"
    rows = [letters[a] for a in range(n)]
    cols = [letters[a].upper() for a in range(n)]
    for q in traced:
        cols[n - 1 - q] = rows[n - 1 - q]
    kept = [a for a in range(n) if (n - 1 - a) not in traced]
    spec = "".join(rows) + "".join(cols) + "->" + "".join(rows[a] for a in kept) + "".join(cols[a] for a in kept)
    size = int(np.prod([dims[q] for q in range(n) if q not in traced]))
    return np.einsum(spec, tensor).reshape(size, size)


def partial_transpose(rho, qargs, dims):
    n = len(dims)
    tensor = rho.reshape(tuple(reversed(dims)) * 2)
    order = list(range(2 * n))
    for q in qargs:
        a = n - 1 - q
        order[a], order[n + a] = n + a, a
    return tensor.transpose(order).reshape(rho.shape)


def permutation_matrix(perm):
    """Qubit perm[k] occupies position k afterwards: |x> -> |y>, y_k = x_perm[k]."""
    n = len(perm)
    matrix = np.zeros((2 ** n, 2 ** n))
    for x in range(2 ** n):
        y = sum(((x >> perm[k]) & 1) << k for k in range(n))
        matrix[y, x] = 1
    return matrix


def unitary_power(u, exponent):
    """Principal power of a unitary: eigenphases in (-pi, pi] times the exponent."""
    values, vectors = np.linalg.eig(u)
    # eigenvectors of a unitary with distinct eigenvalues are orthogonal; orthonormalise anyway
    vectors, _ = np.linalg.qr(vectors)
    phases = np.angle(values)
    return (vectors * np.exp(1j * phases * exponent)) @ vectors.conj().T, phases


# -- program text -------------------------------------------------------------------------------
def _literal(array):
    return f"np.array({np.asarray(array).tolist()!r})"


def _tuple(values):
    return repr(tuple(int(v) for v in values))


HELPERS = (
    "def assert_close(actual, expected, what, atol):\n"
    "    actual, expected = np.asarray(actual), np.asarray(expected)\n"
    "    assert actual.shape == expected.shape, f'{what}: shape {actual.shape}, expected {expected.shape}'\n"
    "    deviation = float(np.max(np.abs(actual - expected))) if actual.size else 0.0\n"
    "    assert deviation < atol, f'{what} differs from numpy by {deviation:.3g}:\\n{actual}\\nexpected\\n{expected}'\n"
    "\n"
    "def phase_distance(actual, expected):\n"
    "    actual, expected = np.asarray(actual).ravel(), np.asarray(expected).ravel()\n"
    "    overlap = np.vdot(actual, expected)\n"
    "    phase = overlap / abs(overlap) if abs(overlap) > 1e-12 else 1\n"
    "    return float(np.max(np.abs(actual * phase - expected)))\n"
    "\n"
    "def assert_same_dict(actual, expected, what, atol):\n"
    "    # entries of value 0 may be left out (the docs do not say); every other entry must be there\n"
    "    actual = {str(k): v for k, v in dict(actual).items()}\n"
    "    for k in set(actual) | set(expected):\n"
    "        a, e = actual.get(k, 0), expected.get(k, 0)\n"
    "        assert abs(a - e) < atol, f'{what}[{k!r}] is {a}, expected {e}; got {actual}'\n"
    "\n")


def _head(names, extra=""):
    return "import numpy as np\nfrom qiskit.quantum_info import " + ", ".join(sorted(set(names))) + "\n" + extra + "\n" + HELPERS


def _close(actual, expected, what, atol="ATOL"):
    return f"assert_close({actual}, {expected}, {what!r}, {atol})\n"


def _dims_check(call, expected, what):
    return f"assert tuple({call}) == {expected}, f'{what} is {{tuple({call})}}, expected {expected}'\n"


# -- inputs -------------------------------------------------------------------------------------
def _state(cls, example, seed_key="seed", dims=None):
    """(numpy data, constructor text) of the example's random state of class cls."""
    dims = tuple(example["dims"]) if dims is None else dims
    dim = int(np.prod(dims))
    data = (random_vector(example[seed_key], dim, example["sparse"]) if cls == "Statevector"
            else random_density(example[seed_key], dim, example["sparse"]))
    return data, f"{cls}({_literal(data)}, dims={_tuple(dims)})"


def _operator_text(matrix, out_dims, in_dims):
    return f"Operator({_literal(matrix)}, input_dims={_tuple(in_dims)}, output_dims={_tuple(out_dims)})"


def _sub_dims(example):
    return [example["dims"][q] for q in example["qargs"]]


# -- builders: each returns the law program for one subject and example -------------------------
def _probabilities(cls, method, example):
    dims, qargs = tuple(example["dims"]), list(example["qargs"])
    data, text = _state(cls, example)
    probs = np.abs(data) ** 2 if cls == "Statevector" else np.real(np.diag(data))
    expected = marginal(probs, qargs, dims)
    call = f"state.{method}({qargs!r})"
    body = f"state = {text}\n"
    if method == "probabilities":
        return body + f"expected = {_literal(expected)}  # marginal, qargs[0] least significant\n" + \
            _close(call, "expected", f"{cls}.probabilities({qargs})")
    table = {key(i, _sub_dims(example)): float(p) for i, p in enumerate(expected)}
    return body + f"expected = {table!r}  # keys: subsystem qargs[-1] first ... qargs[0] last\n" + \
        f"assert_same_dict({call}, expected, '{cls}.probabilities_dict({qargs})', ATOL)\n"


def _expectation_value(cls, method, example):
    dims, qargs = tuple(example["dims"]), list(example["qargs"])
    data, text = _state(cls, example)
    size = int(np.prod(_sub_dims(example)))
    local = random_matrix(example["other"], size, size)
    full = embed(local, qargs, dims)
    expected = np.vdot(data, full @ data) if cls == "Statevector" else np.trace(full @ data)
    return (f"state = {text}\n"
            f"oper = {_operator_text(local, _sub_dims(example), _sub_dims(example))}\n"
            f"expected = {complex(expected)!r}  # <psi|O|psi> or tr(O rho), O on qargs\n"
            + _close(f"state.expectation_value(oper, {qargs!r})", "expected",
                     f"{cls}.expectation_value(O, {qargs})"))


def _outcomes(cls, data, qargs, dims):
    """[(key, probability, normalised post-measurement state)] of measuring qargs."""
    probs = np.abs(data) ** 2 if cls == "Statevector" else np.real(np.diag(data))
    sub = [dims[q] for q in qargs]
    found = []
    for index, p in enumerate(marginal(probs, qargs, dims)):
        if p < 1e-12:
            continue
        projector = basis_projector(index, qargs, dims)
        post = projector @ data if cls == "Statevector" else projector @ data @ projector
        found.append((key(index, sub), float(p), post / (math.sqrt(p) if cls == "Statevector" else p), index))
    return found


def _reset(cls, method, example):
    dims, qargs = tuple(example["dims"]), list(example["qargs"])
    data, text = _state(cls, example)
    body = f"state = {text}\nstate.seed({example['other']})\nactual = state.reset({qargs!r})\n"
    body += _dims_check("actual.dims()", _tuple(dims), f"{cls}.reset({qargs}).dims()")
    size = int(np.prod(_sub_dims(example)))
    if cls == "DensityMatrix":
        expected = sum(basis_projector(k, qargs, dims, 0) @ data @ basis_projector(k, qargs, dims, 0).conj().T
                       for k in range(size))
        return body + f"expected = {_literal(expected)}  # sum_k |0><k| rho |k><0| on qargs\n" + \
            _close("actual.data", "expected", f"DensityMatrix.reset({qargs})")
    branches = [basis_projector(index, qargs, dims, 0) @ post for _, _, post, index in _outcomes(cls, data, qargs, dims)]
    return body + (f"branches = [{', '.join(_literal(b) for b in branches)}]\n"
                   "# the result is one measurement branch, rotated to |0> on qargs (global phase free)\n"
                   "distance = min(phase_distance(actual.data, b) for b in branches)\n"
                   f"assert distance < ATOL, f'Statevector.reset({qargs}) is no measurement branch rotated to 0 "
                   "(closest differs by {distance:.3g}): {actual.data}'\n")


def _measure(cls, method, example):
    dims, qargs = tuple(example["dims"]), list(example["qargs"])
    data, text = _state(cls, example)
    branches = {k: _literal(post) for k, _, post, _ in _outcomes(cls, data, qargs, dims)}
    compare = "phase_distance(state.data, branches[outcome])" if cls == "Statevector" else \
        "float(np.max(np.abs(state.data - branches[outcome])))"
    return (f"state = {text}\nstate.seed({example['other']})\n"
            f"outcome, state = state.measure({qargs!r})\n"
            "branches = {" + ", ".join(f"{k!r}: {v}" for k, v in branches.items()) + "}\n"
            f"assert str(outcome) in branches, f'{cls}.measure({qargs}) gave outcome {{outcome!r}} of probability 0 "
            "(possible: {sorted(branches)})'\n"
            "outcome = str(outcome)\n"
            f"deviation = {compare}\n"
            f"assert deviation < ATOL, f'{cls}.measure({qargs}): the state after outcome {{outcome}} is not the "
            "collapsed state (off by {deviation:.3g})'\n")


def _evolve(cls, method, example):
    dims, qargs = tuple(example["dims"]), list(example["qargs"])
    data, text = _state(cls, example)
    u = random_unitary(example["other"], int(np.prod(_sub_dims(example))))
    full = embed(u, qargs, dims)
    expected = full @ data if cls == "Statevector" else full @ data @ full.conj().T
    return (f"state = {text}\n"
            f"u = {_operator_text(u, _sub_dims(example), _sub_dims(example))}\n"
            f"expected = {_literal(expected)}  # U on qargs (qargs[0] least significant)\n"
            f"actual = state.evolve(u, qargs={qargs!r})\n"
            + _close("actual.data", "expected", f"{cls}.evolve(U, qargs={qargs})"))


def _tensor(cls, method, example):
    """a.tensor(b) = a (x) b with b on the low subsystems; a.expand(b) = b (x) a."""
    dims = tuple(example["dims"])
    split = example["split"] % len(dims) if len(dims) > 1 else 0
    low, high = dims[:max(split, 1)], dims[max(split, 1):] or (2,)
    if cls == "Operator":
        a_m, b_m = random_matrix(example["seed"], int(np.prod(high)), int(np.prod(high))), \
            random_matrix(example["other"], int(np.prod(low)), int(np.prod(low)))
        a_text, b_text = _operator_text(a_m, high, high), _operator_text(b_m, low, low)
        dims_call = "actual.input_dims()"
    else:
        a_m, a_text = _state(cls, example, "seed", high)
        b_m, b_text = _state(cls, example, "other", low)
        dims_call = "actual.dims()"
    kron = np.kron(a_m, b_m)
    call = "a.tensor(b)" if method == "tensor" else "b.expand(a)"
    return (f"a = {a_text}\nb = {b_text}\n"
            f"expected = {_literal(kron)}  # a (x) b, b on the low subsystems\n"
            f"actual = {call}\n"
            + _close("actual.data", "expected", f"{cls} {call}")
            + _dims_check(dims_call, _tuple(tuple(low) + tuple(high)), f"{call} dims"))


def _reverse_qargs(cls, method, example):
    dims = tuple(example["dims"])
    if cls == "Operator":
        out_dims = tuple(example["out_dims"])
        matrix = random_matrix(example["seed"], int(np.prod(out_dims)), int(np.prod(dims)))
        text, expected = _operator_text(matrix, out_dims, dims), reverse_matrix(matrix, out_dims, dims)
        dims_checks = (_dims_check("actual.input_dims()", _tuple(dims[::-1]), "reverse_qargs().input_dims()") +
                       _dims_check("actual.output_dims()", _tuple(out_dims[::-1]), "reverse_qargs().output_dims()"))
    else:
        data, text = _state(cls, example)
        expected = reverse_matrix(data.reshape(-1, 1), dims, (1,)).ravel() if cls == "Statevector" \
            else reverse_matrix(data, dims, dims)
        dims_checks = _dims_check("actual.dims()", _tuple(dims[::-1]), f"{cls}.reverse_qargs().dims()")
    return (f"x = {text}\nexpected = {_literal(expected)}  # subsystem order reversed\n"
            "actual = x.reverse_qargs()\n" + _close("actual.data", "expected", f"{cls}.reverse_qargs()") + dims_checks)


def _from_int(cls, method, example):
    dims = tuple(example["dims"])
    form = example["form"] % 3
    if form == 0:
        total = int(np.prod(dims))
        dims_arg = repr(total)  # an int: qubits if a power of 2, else one qudit
        expected_dims = (2,) * (total.bit_length() - 1) if total & (total - 1) == 0 else (total,)
    else:
        dims_arg, expected_dims = (_tuple(dims) if form == 1 else repr(list(dims))), dims
    total = int(np.prod(dims))
    index = example["other"] % total
    vector = np.zeros(total, dtype=complex)
    vector[index] = 1
    expected = vector if cls == "Statevector" else np.outer(vector, vector)
    return (f"actual = {cls}.from_int({index}, {dims_arg})\n"
            f"expected = {_literal(expected)}  # |{index}>\n"
            + _close("actual.data", "expected", f"{cls}.from_int({index}, {dims_arg})")
            + _dims_check("actual.dims()", _tuple(expected_dims), f"{cls}.from_int({index}, {dims_arg}).dims()"))


def _conjugations(cls, method, example):
    dims = tuple(example["dims"])
    if cls == "Operator":
        out_dims = tuple(example["out_dims"])
        matrix = random_matrix(example["seed"], int(np.prod(out_dims)), int(np.prod(dims)))
        text = _operator_text(matrix, out_dims, dims)
        expected = {"conjugate": matrix.conj(), "transpose": matrix.T, "adjoint": matrix.conj().T}[method]
        swapped = method != "conjugate"
        dims_checks = (_dims_check("actual.input_dims()", _tuple(out_dims if swapped else dims), f"{method}().input_dims()") +
                       _dims_check("actual.output_dims()", _tuple(dims if swapped else out_dims), f"{method}().output_dims()"))
    else:
        matrix, text = _state(cls, example)
        expected = matrix.conj()
        dims_checks = _dims_check("actual.dims()", _tuple(dims), f"{cls}.conjugate().dims()")
    return (f"x = {text}\nexpected = {_literal(expected)}\nactual = x.{method}()\n"
            + _close("actual.data", "expected", f"{cls}.{method}()") + dims_checks)


def _to_dict(cls, method, example):
    dims = tuple(example["dims"])
    data, text = _state(cls, example)
    if cls == "Statevector":
        table = {key(i, dims): complex(a) for i, a in enumerate(data)}
        return (f"state = {text}\nexpected = {table!r}  # keys: subsystem n-1 first ... subsystem 0 last\n"
                f"assert_same_dict(state.to_dict(), expected, '{cls}.to_dict()', ATOL)\n")
    # The docs' examples are all symmetric, so they do not say whether key 'a|b' holds rho[a, b] or
    # rho[b, a]: either reading passes, the digits of each key and the values must be right.
    size = data.shape[0]
    rows = {f"{key(i, dims)}|{key(j, dims)}": complex(data[i, j]) for i in range(size) for j in range(size)}
    columns = {f"{key(j, dims)}|{key(i, dims)}": complex(data[i, j]) for i in range(size) for j in range(size)}
    return (f"state = {text}\nactual = state.to_dict()\n"
            f"as_rows = {rows!r}  # key 'a|b' = rho[a, b]\n"
            f"as_columns = {columns!r}  # key 'a|b' = rho[b, a]\n"
            "def mismatch(expected):\n"
            "    try:\n"
            f"        assert_same_dict(actual, expected, '{cls}.to_dict()', ATOL)\n"
            "    except AssertionError as exc:\n"
            "        return str(exc)\n"
            "    return None\n"
            "problems = [mismatch(as_rows), mismatch(as_columns)]\n"
            "assert None in problems, 'DensityMatrix.to_dict() matches rho under neither key order: ' + problems[0]\n")


def _sampling(cls, method, example):
    dims, qargs = tuple(example["dims"]), list(example["qargs"])
    data, text = _state(cls, example)
    probs = np.abs(data) ** 2 if cls == "Statevector" else np.real(np.diag(data))
    # Rounding can put a marginal a hair outside [0, 1] (1.0000000000000002 for a state whose
    # weight is all on one outcome), where the binomial distribution is undefined (nan p-value).
    table = {key(i, _sub_dims(example)): float(min(max(p, 0.0), 1.0))
             for i, p in enumerate(marginal(probs, qargs, dims))}
    if method == "sample_counts":
        counting = f"counts = {{str(k): int(v) for k, v in state.sample_counts({SHOTS}, qargs={qargs!r}).items()}}\n"
    else:
        counting = (f"memory = [str(m) for m in state.sample_memory({SHOTS}, qargs={qargs!r})]\n"
                    f"assert len(memory) == {SHOTS}, f'{{len(memory)}} samples for {SHOTS} shots'\n"
                    "counts = {k: memory.count(k) for k in set(memory)}\n")
    return (f"state = {text}\nstate.seed({example['other']})\n"
            f"probabilities = {table!r}  # Born rule on qargs\n" + counting +
            f"assert sum(counts.values()) == {SHOTS}, f'counts add to {{sum(counts.values())}}, not {SHOTS}'\n"
            "for outcome, count in counts.items():\n"
            "    assert probabilities.get(outcome, 0) > 1e-12, "
            f"f'{cls}.{method}: outcome {{outcome!r}} has probability 0 but was drawn {{count}} times'\n"
            "for outcome, p in probabilities.items():\n"
            "    count = counts.get(outcome, 0)\n"
            f"    p_value = 2 * min(binom.cdf(count, {SHOTS}, p), binom.sf(count - 1, {SHOTS}, p))\n"
            f"    assert p_value > {P_VALUE}, (f'{cls}.{method}: outcome {{outcome!r}} drawn {{count}} times in {SHOTS} "
            "shots, probability {p:.4f} (binomial p-value {p_value:.3g})')\n")


def _inner(cls, method, example):
    a, a_text = _state(cls, example, "seed")
    b, b_text = _state(cls, example, "other")
    return (f"a = {a_text}\nb = {b_text}\n"
            f"expected = {complex(np.vdot(a, b))!r}  # <a|b>, a conjugated\n"
            + _close("a.inner(b)", "expected", "Statevector.inner"))


def _equiv(cls, method, example):
    dims = tuple(example["dims"])
    total = int(np.prod(dims))
    if cls == "Statevector":
        a, a_text = _state(cls, example, "seed")
        other = random_vector(example["other"], total)
        make = lambda m: f"Statevector({_literal(m)}, dims={_tuple(dims)})"  # noqa: E731
    else:
        a = random_unitary(example["seed"], total)
        a_text = _operator_text(a, dims, dims)
        other = random_unitary(example["other"], total)
        make = lambda m: _operator_text(m, dims, dims)  # noqa: E731
    phase = np.exp(1j * example["phase"])
    # same: a times a global phase; different: a mixed half-way with another random object
    b = phase * a if example["same"] else phase * (a + other) / np.linalg.norm(a + other) * np.linalg.norm(a)
    distance = float(np.linalg.norm(b.ravel() * np.exp(-1j * np.angle(np.vdot(a.ravel(), b.ravel()))) - a.ravel()))
    if not example["same"] and distance < 1e-2:
        from hypothesis import reject

        reject()  # too close to call
    expected = bool(example["same"])
    return (f"a = {a_text}\nb = {make(b)}\n"
            f"# b is {'a times a global phase' if expected else 'not a up to phase (distance %.3g)' % distance}\n"
            f"assert bool(a.equiv(b)) == {expected}, '{cls}.equiv is {not expected}, expected {expected}'\n")


def _partial_trace(cls, method, example):
    dims, qargs = tuple(example["dims"]), list(example["qargs"])
    if len(qargs) == len(dims):
        qargs = qargs[:-1]  # keep one subsystem
    data, text = _state(cls, example)
    rho = np.outer(data, data.conj()) if cls == "Statevector" else data
    expected = partial_trace(rho, qargs, dims)
    kept = tuple(d for q, d in enumerate(dims) if q not in qargs)
    return (f"state = {text}\nexpected = {_literal(expected)}  # subsystems {qargs} traced out\n"
            f"actual = partial_trace(state, {qargs!r})\n"
            + _close("actual.data", "expected", f"partial_trace({cls}, {qargs})")
            + _dims_check("actual.dims()", _tuple(kept), f"partial_trace({cls}, {qargs}).dims()"))


def _partial_transpose(cls, method, example):
    dims, qargs = tuple(example["dims"]), list(example["qargs"])
    data, text = _state(cls, example)
    return (f"state = {text}\nexpected = {_literal(partial_transpose(data, qargs, dims))}  # qargs transposed\n"
            + _close(f"state.partial_transpose({qargs!r}).data", "expected", f"DensityMatrix.partial_transpose({qargs})"))


def _from_label(cls, method, example):
    label = example["label"]
    singles = {"I": np.eye(2), "X": [[0, 1], [1, 0]], "Y": [[0, -1j], [1j, 0]], "Z": [[1, 0], [0, -1]],
               "H": np.array([[1, 1], [1, -1]]) / math.sqrt(2), "S": [[1, 0], [0, 1j]],
               "T": [[1, 0], [0, (1 + 1j) / math.sqrt(2)]], "0": [[1, 0], [0, 0]], "1": [[0, 0], [0, 1]],
               "+": [[0.5, 0.5], [0.5, 0.5]], "-": [[0.5, -0.5], [-0.5, 0.5]], "r": [[0.5, -0.5j], [0.5j, 0.5]],
               "l": [[0.5, 0.5j], [-0.5j, 0.5]]}
    if cls == "DensityMatrix":
        label = "".join(c for c in label if c in "01+-rl") or "0"
    expected = np.eye(1)
    for char in label:  # first character is the most significant qubit
        expected = np.kron(expected, np.asarray(singles[char], dtype=complex))
    return (f"expected = {_literal(expected)}  # tensor product, last character on qubit 0\n"
            + _close(f"{cls}.from_label({label!r}).data", "expected", f"{cls}.from_label({label!r})"))


def _compose(cls, method, example):
    dims, qargs = tuple(example["dims"]), list(example["qargs"])
    total, sub = int(np.prod(dims)), _sub_dims(example)
    a = random_matrix(example["seed"], total, total)
    b = random_matrix(example["other"], int(np.prod(sub)), int(np.prod(sub)))
    whole = example["whole"] and len(qargs) == len(dims)
    b_full = b if whole else embed(b, qargs, dims)
    b_dims = dims if whole else sub
    qargs_text = "" if whole else f", qargs={qargs!r}"
    if method == "dot":
        call, expected = f"a.dot(b{qargs_text})", a @ b_full
    elif example["front"]:
        call, expected = f"a.compose(b{qargs_text}, front=True)", a @ b_full
    else:
        call, expected = f"a.compose(b{qargs_text})", b_full @ a
    return (f"a = {_operator_text(a, dims, dims)}\nb = {_operator_text(b, b_dims, b_dims)}\n"
            f"expected = {_literal(expected)}  # compose: B.A; front=True and dot: A.B (B on qargs)\n"
            f"actual = {call}\n" + _close("actual.data", "expected", call)
            + _dims_check("actual.input_dims()", _tuple(dims), f"{call}.input_dims()"))


def _power(cls, method, example):
    import inspect

    from qiskit.quantum_info import Operator

    dims = tuple(example["dims"])
    total = int(np.prod(dims))
    u = random_unitary(example["seed"], total)
    if example["fraction"]:
        exponent = example["exponent"] + example["fraction"] / 4.0
    else:
        exponent = example["exponent"]
    expected, phases = unitary_power(u, exponent)
    if exponent != int(exponent):
        from hypothesis import reject

        gaps = np.abs(np.subtract.outer(phases, phases)) + np.eye(total)
        if np.max(np.abs(phases)) > math.pi - 1e-2 or np.min(gaps) < 1e-3:
            reject()  # near the branch cut, or nearly degenerate: the principal power is ill-conditioned
    else:
        expected = np.linalg.matrix_power(u, int(exponent))
    options = ""
    if example["assume_unitary"] and "assume_unitary" in inspect.signature(Operator.power).parameters:
        options = ", assume_unitary=True"
    exponent_text = repr(int(exponent)) if exponent == int(exponent) else repr(exponent)
    call = f"u.power({exponent_text}{options})"
    return (f"u = {_operator_text(u, dims, dims)}\n"
            f"expected = {_literal(expected)}  # U^n (fractional: principal branch)\n"
            + _close(f"{call}.data", "expected", call, "POWER_ATOL"))


def _apply_permutation(cls, method, example):
    dims = tuple(example["dims"])
    n = len(dims)
    perm = list(example["perm"][:n]) if sorted(example["perm"][:n]) == list(range(n)) else list(range(n))[::-1]
    total = 2 ** n
    a = random_matrix(example["seed"], total, total)
    p = permutation_matrix(perm)
    expected = a @ p if example["front"] else p @ a
    call = f"a.apply_permutation({perm!r}, front={bool(example['front'])})"
    return (f"a = {_operator_text(a, dims, dims)}\n"
            f"expected = {_literal(expected)}  # P: qubit perm[k] to position k; front: A.P, else P.A\n"
            f"actual = {call}\n" + _close("actual.data", "expected", call))


BUILDERS = {
    "probabilities": _probabilities, "probabilities_dict": _probabilities, "expectation_value": _expectation_value,
    "reset": _reset, "measure": _measure, "evolve": _evolve, "tensor": _tensor, "expand": _tensor,
    "reverse_qargs": _reverse_qargs, "from_int": _from_int, "conjugate": _conjugations, "transpose": _conjugations,
    "adjoint": _conjugations, "to_dict": _to_dict, "sample_counts": _sampling, "sample_memory": _sampling,
    "inner": _inner, "equiv": _equiv, "partial_transpose": _partial_transpose, "from_label": _from_label,
    "compose": _compose, "dot": _compose, "power": _power, "apply_permutation": _apply_permutation,
}


def _program(subject, example):
    owner, method = _split(subject)
    if owner == "partial_trace":
        cls = subject[len("partial_trace("):-1]
        body, names = _partial_trace(cls, None, example), [cls, "partial_trace"]
    else:
        body, names = BUILDERS[method](owner, method, example), [owner, "Operator"]
    extra = "from scipy.stats import binom\n" if method in ("sample_counts", "sample_memory") else ""
    constants = f"ATOL = {ATOL}\nPOWER_ATOL = {POWER_ATOL}\n\n"
    return _head(names, extra) + constants + body


# -- strategy -----------------------------------------------------------------------------------
def _strategy(subject):
    from hypothesis import strategies as st

    qudits = subject not in QUBITS_ONLY
    sizes = st.sampled_from([2, 3]) if qudits else st.just(2)
    dims = st.lists(sizes, min_size=1, max_size=3).filter(lambda d: int(np.prod(d)) <= MAX_DIM)
    if qudits:
        # a subsystem of dimension > 10: ket labels documentedly put commas between subsystems
        dims = st.one_of(dims, st.sampled_from([[11], [2, 11], [11, 2]]))

    @st.composite
    def example(draw):
        chosen = draw(dims)
        n = len(chosen)
        qargs = draw(st.permutations(list(range(n))))[:draw(st.integers(1, n))]
        seed = st.integers(0, 2 ** 31 - 1)
        return {"dims": chosen, "qargs": list(qargs), "seed": draw(seed), "other": draw(seed),
                "sparse": draw(st.booleans()), "split": draw(st.integers(0, 2)), "form": draw(st.integers(0, 2)),
                "out_dims": draw(st.lists(sizes, min_size=1, max_size=2)),
                "label": draw(st.text("IXYZHST01+-rl", min_size=1, max_size=4)),
                "phase": draw(st.floats(-math.pi, math.pi, allow_nan=False)), "same": draw(st.booleans()),
                "whole": draw(st.booleans()), "front": draw(st.booleans()),
                "exponent": draw(st.integers(-2, 3)), "fraction": draw(st.integers(0, 3)),
                "assume_unitary": draw(st.booleans()), "perm": draw(st.permutations(list(range(3))))}

    return example()


def _check(subject, example):
    program = _program(subject, example)
    exec(compile(program, "<law>", "exec"), {"__name__": "__main__"})  # noqa: S102 - our own program


def _describe(subject, example):
    return f"{subject}: dims={tuple(example['dims'])}, qargs={example['qargs']}, {example!r}"


FAMILY = "quantum information"
CONTRACTS = [
    Contract("qiskit.quantum_info.subsystem-methods-agree-with-numpy", FAMILY,
             "Statevector, DensityMatrix and Operator methods acting on qargs or qudit dims (probabilities, "
             "probabilities_dict, expectation_value, reset, measure, evolve, partial_trace, partial_transpose, "
             "compose, dot, tensor, expand, power, reverse_qargs, apply_permutation, from_label, from_int, inner, "
             "equiv, conjugate, transpose, adjoint, to_dict, seeded sample_counts / sample_memory) agree with numpy "
             "on the little-endian tensor (qargs[0] least significant; samples follow the Born rule)",
             "documentation: qiskit.quantum_info.Statevector, DensityMatrix, Operator, partial_trace (method "
             "docstrings); quantum semantics",
             _subjects, _strategy, _check, _program, _api, describe=_describe),
]
