"""Matrix-specified instructions, Qiskit: an instruction built from a matrix, a vector, a
diagonal, a list of angles or blocks, a permutation, a binary matrix or a Pauli label
implements exactly what it was given, global phase included (Qiskit tracks global phase;
the docs state these objects by their matrix or their prepared amplitudes).

One law, three views of each instruction: Operator(instruction) (what simulation and the
quantum_info module see), Operator(instruction.definition) (the decomposition), and the
operator of `transpile(circuit, basis_gates=['u', 'cx'])` (what a user runs).

Expected actions, built here with numpy from the documentation only:
  UnitaryGate(U) = U; DiagonalGate(d) / Diagonal(d) = diag(d);
  Isometry(V, 0, 0): the first 2^m columns (ancillas, the more significant qubits, in |0>) = V;
  StatePreparation(psi): |0...0> -> psi, and its inverse() maps psi -> |0...0>;
  Initialize(psi): the state from |0...0> is psi;
  UCGate([U_0..]) = block-diag(U_0, U_1, ...) (target qubit 0, controls the higher qubits);
  UCRX/UCRY/UCRZGate([a_0..]) and UCPauliRotGate = block-diag(R(a_0), R(a_1), ...);
  HamiltonianGate(H, t) = expm(-i t H);
  PermutationGate(pattern) / Permutation(n, pattern): qubit pattern[k] moves to position k;
  LinearFunction(A): |x> -> |A x mod 2>, x_j the bit of qubit j;
  PauliGate(label) = the Pauli tensor product, label's last character on qubit 0;
  GraphStateGate(adj) / GraphState(adj): |0...0> -> prod_{(a,b) in E} CZ_ab |+>^n.

Inputs include structured matrices where implementations take special paths: signed and
phased permutation matrices (entries 0, +-1, +-i), diagonals of +-1/+-i, real orthogonal
matrices, Hadamard-like matrices, tiny entries, repeated blocks and repeated or zero
angles, basis states with phases, next to random (QR-drawn) unitaries, isometries and states.
"""

import math

import numpy as np
from contract_runtime import Contract, angles

ATOL = 1e-7
# transpile's two-qubit synthesis documentedly snaps a unitary to a nearby high-symmetry one
# within average gate fidelity 1 - 1e-9 (TwoQubitWeylDecomposition, default fidelity): the
# transpiled view is held to that, phase-sensitively (1 - Re tr(E^dag A)/d), besides ATOL.
SYNTHESIS_INFIDELITY = 1e-9
LAW_ID = "qiskit.operation.matrix-specified-is-exact"

# numpy-only helpers computing what the docs say an instruction implements; the law runs
# them and every reproducer carries them, so what the reproducer asserts is what was checked.
HELPERS = r'''
def expm_hermitian(h, t):
    """expm(-i t H) for Hermitian H, by its eigendecomposition."""
    values, vectors = np.linalg.eigh(np.asarray(h, dtype=complex))
    return (vectors * np.exp(-1j * t * values)) @ vectors.conj().T


def block_diagonal(blocks):
    blocks = [np.asarray(b, dtype=complex) for b in blocks]
    size = sum(b.shape[0] for b in blocks)
    out = np.zeros((size, size), dtype=complex)
    at = 0
    for b in blocks:
        out[at:at + b.shape[0], at:at + b.shape[0]] = b
        at += b.shape[0]
    return out


def rotation(axis, angle):
    """R_P(a) = exp(-i a P / 2)."""
    pauli = {"X": np.array([[0, 1], [1, 0]]), "Y": np.array([[0, -1j], [1j, 0]]),
             "Z": np.array([[1, 0], [0, -1]])}[axis]
    return math.cos(angle / 2) * np.eye(2) - 1j * math.sin(angle / 2) * pauli


def permutation_matrix(pattern):
    """Qubit pattern[k] goes to position k: output bit k = input bit pattern[k]."""
    n = len(pattern)
    out = np.zeros((2 ** n, 2 ** n))
    for x in range(2 ** n):
        y = sum(((x >> pattern[k]) & 1) << k for k in range(n))
        out[y, x] = 1
    return out


def linear_function_matrix(a):
    """|x> -> |A x mod 2>, x_j the bit of qubit j."""
    a = np.asarray(a, dtype=int)
    n = a.shape[0]
    out = np.zeros((2 ** n, 2 ** n))
    for x in range(2 ** n):
        bits = np.array([(x >> j) & 1 for j in range(n)])
        y_bits = a.dot(bits) % 2
        out[sum(int(b) << j for j, b in enumerate(y_bits)), x] = 1
    return out


def pauli_matrix(label):
    """The label's last character acts on qubit 0."""
    single = {"I": np.eye(2), "X": np.array([[0, 1], [1, 0]]), "Y": np.array([[0, -1j], [1j, 0]]),
              "Z": np.array([[1, 0], [0, -1]])}
    out = np.eye(1)
    for character in label:
        out = np.kron(out, single[character])
    return out


def graph_state(adjacency):
    """prod over edges (a, b) of CZ_ab applied to |+>^n."""
    n = len(adjacency)
    state = np.full(2 ** n, 2 ** (-n / 2), dtype=complex)
    for x in range(2 ** n):
        for a in range(n):
            for b in range(a + 1, n):
                if adjacency[a][b] and (x >> a) & 1 and (x >> b) & 1:
                    state[x] = -state[x]
    return state


def basis_state(n, index=0):
    out = np.zeros(2 ** n, dtype=complex)
    out[index] = 1
    return out


def label_state(label):
    """Statevector.from_label semantics: 0 1 + - r l, last character on qubit 0."""
    single = {"0": [1, 0], "1": [0, 1], "+": [1 / math.sqrt(2), 1 / math.sqrt(2)],
              "-": [1 / math.sqrt(2), -1 / math.sqrt(2)], "r": [1 / math.sqrt(2), 1j / math.sqrt(2)],
              "l": [1 / math.sqrt(2), -1j / math.sqrt(2)]}
    out = np.ones(1, dtype=complex)
    for character in label:
        out = np.kron(out, np.array(single[character], dtype=complex))
    return out


def phase_sensitive_infidelity(a, b):
    """1 - Re tr(b^dag a) / columns: zero only when a == b, global phase included."""
    a, b = np.asarray(a), np.asarray(b)
    columns = b.shape[1] if b.ndim == 2 else 1
    return float(1 - np.real(np.vdot(b, a)) / columns) if a.shape == b.shape else float("inf")


def deviation(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return float(np.max(np.abs(a - b))) if a.shape == b.shape else float("inf")
'''

_HELPERS = {"np": np, "math": math}
exec(HELPERS, _HELPERS)  # noqa: S102 - our own numpy helpers, also shipped in reproducers


# -- subjects ----------------------------------------------------------------------------------
# subject -> (module attribute, kind); kind: "gate" (a Gate with a definition), "circuit"
# (a library QuantumCircuit subclass), "instruction" (a non-unitary Instruction).
SUBJECTS = {
    "UnitaryGate": "gate", "DiagonalGate": "gate", "Diagonal": "circuit", "Isometry": "gate",
    "StatePreparation": "gate", "Initialize": "instruction", "UCGate": "gate",
    "UCRXGate": "gate", "UCRYGate": "gate", "UCRZGate": "gate", "UCPauliRotGate": "gate",
    "HamiltonianGate": "gate", "PermutationGate": "gate", "Permutation": "circuit",
    "LinearFunction": "gate", "PauliGate": "gate", "GraphStateGate": "gate", "GraphState": "circuit",
}


def _subjects():
    from qiskit.circuit import library

    return [name for name in SUBJECTS if hasattr(library, name)]


def _api(subject):
    return f"qiskit.circuit.library.{subject}"


# -- input strategies ----------------------------------------------------------------------
PHASES = [1, -1, 1j, -1j]
ONE_QUBIT = {
    "I": [[1, 0], [0, 1]], "X": [[0, 1], [1, 0]], "Y": [[0, -1j], [1j, 0]], "Z": [[1, 0], [0, -1]],
    "H": [[2 ** -0.5, 2 ** -0.5], [2 ** -0.5, -(2 ** -0.5)]], "S": [[1, 0], [0, 1j]],
    "-I": [[-1, 0], [0, -1]], "iX": [[0, 1j], [1j, 0]], "-iI": [[-1j, 0], [0, -1j]],
}


def _complex(value):
    """A Python complex with exact zeros kept as 0 (repr stays short and round-trips)."""
    value = complex(value)
    return complex(float(value.real) + 0.0, float(value.imag) + 0.0)


def _to_lists(matrix):
    matrix = np.asarray(matrix, dtype=complex)
    if matrix.ndim == 1:
        return [_complex(v) for v in matrix]
    return [[_complex(v) for v in row] for row in matrix]


def _haar(seed, dim, real=False):
    rng = np.random.default_rng(seed)
    a = rng.normal(size=(dim, dim)) + (0 if real else 1j * rng.normal(size=(dim, dim)))
    q, r = np.linalg.qr(a)
    return q * (np.diag(r) / np.abs(np.diag(r)))


def _unitaries(num_qubits):
    """Unitaries on num_qubits qubits: structured ones first (hypothesis shrinks to them)."""
    from hypothesis import strategies as st

    dim = 2 ** num_qubits
    phases = st.lists(st.sampled_from(PHASES), min_size=dim, max_size=dim)
    perms = st.permutations(list(range(dim)))

    def phased_permutation(args):
        perm, ph = args
        out = np.zeros((dim, dim), dtype=complex)
        for col, row in enumerate(perm):
            out[row, col] = ph[col]
        return out

    def hadamard_like(args):
        perm, ph = args
        h = np.array(ONE_QUBIT["H"], dtype=complex)
        out = np.eye(1)
        for _ in range(num_qubits):
            out = np.kron(out, h)
        return phased_permutation((perm, ph)) @ out

    def tiny(args):
        perm, ph, eps, seed = args
        # a phased permutation times a rotation by a tiny angle: entries near zero
        rot = np.kron(np.eye(dim // 2), _HELPERS["rotation"]("Y", eps)) if dim > 1 else np.eye(1)
        return phased_permutation((perm, ph)) @ rot @ np.diag(np.exp(1j * np.linspace(0, seed, dim)))

    def product(factors):
        out = np.eye(1)
        for name in factors:
            out = np.kron(out, np.array(ONE_QUBIT[name], dtype=complex))
        return out

    return st.one_of(
        st.tuples(perms, phases).map(phased_permutation),
        phases.map(lambda ph: np.diag(np.array(ph, dtype=complex))),
        st.lists(st.sampled_from(sorted(ONE_QUBIT)), min_size=num_qubits, max_size=num_qubits).map(product),
        st.tuples(perms, phases).map(hadamard_like),
        st.tuples(perms, phases, st.sampled_from([1e-9, 1e-12, 1e-6, -1e-9]), st.integers(0, 5)).map(tiny),
        st.tuples(st.integers(0, 2 ** 32 - 1), st.sampled_from(PHASES)).map(lambda a: a[1] * _haar(a[0], dim, real=True)),
        st.integers(0, 2 ** 32 - 1).map(lambda seed: _haar(seed, dim)),
        st.tuples(st.sampled_from(list(range(dim))), st.integers(0, 2 ** 32 - 1)).map(
            lambda a: _haar(a[1], dim) @ phased_permutation((list(range(dim)), [1] * dim))
            if a[0] == 0 else _mix_basis_columns(_haar(a[1], dim), a[0])),
    ).map(_to_lists)


def _mix_basis_columns(u, count):
    """A unitary whose first `count` columns are basis vectors with phase -1, the rest random."""
    dim = u.shape[0]
    out = np.zeros((dim, dim), dtype=complex)
    for j in range(count):
        out[dim - 1 - j, j] = -1
    if dim - count:
        q, _ = np.linalg.qr(u[:dim - count, :dim - count])
        out[:dim - count, count:] = q
    return out


def _states(num_qubits):
    """Unit vectors: columns of the unitaries above (structured and random)."""
    from hypothesis import strategies as st

    dim = 2 ** num_qubits
    basis = st.tuples(st.integers(0, dim - 1), st.sampled_from(PHASES)).map(
        lambda a: [_complex(a[1] if i == a[0] else 0) for i in range(dim)])  # basis state, phased
    # weighted 1:1 with the columns of all the unitaries above: states of a single nonzero
    # amplitude are where state preparation takes its shortest paths
    return st.one_of(basis, st.tuples(_unitaries(num_qubits), st.integers(0, dim - 1)).map(
        lambda a: [row[a[1]] for row in a[0]]))


def _qubits(low=1, high=3):
    from hypothesis import strategies as st

    return st.integers(min_value=low, max_value=high)


def _strategy(subject):
    from hypothesis import strategies as st

    if subject == "UnitaryGate":
        return _qubits().flatmap(_unitaries).map(lambda u: (u,))
    if subject in ("DiagonalGate", "Diagonal"):
        def diagonal(n):
            entry = st.one_of(st.sampled_from(PHASES),
                              angles().map(lambda a: _complex(np.exp(1j * a))))
            return st.lists(entry, min_size=2 ** n, max_size=2 ** n)
        return _qubits().flatmap(diagonal).map(lambda d: (d,))
    if subject == "Isometry":
        pairs = st.sampled_from([(0, 1), (1, 1), (0, 2), (1, 2), (2, 2), (1, 3), (2, 3), (0, 3)])
        return pairs.flatmap(lambda p: _unitaries(p[1]).map(
            lambda u: ([row[:2 ** p[0]] for row in u],)))
    if subject in ("StatePreparation", "Initialize"):
        labels = st.lists(st.sampled_from("01+-rl"), min_size=1, max_size=3).map(lambda c: ("".join(c),))
        ints = _qubits().flatmap(lambda n: st.tuples(st.integers(0, 2 ** n - 1), st.just(n)))
        vectors = _qubits().flatmap(_states).map(lambda v: (v,))
        return st.one_of(vectors, vectors, labels, ints)  # amplitude vectors: half of the inputs
    if subject == "UCGate":
        pool = st.lists(st.one_of(st.sampled_from(sorted(ONE_QUBIT)).map(lambda k: _to_lists(ONE_QUBIT[k])),
                                  _unitaries(1)), min_size=1, max_size=3)
        return st.tuples(pool, st.integers(0, 2)).flatmap(
            lambda a: st.lists(st.sampled_from(a[0]), min_size=2 ** a[1], max_size=2 ** a[1])).map(lambda g: (g,))
    if subject in ("UCRXGate", "UCRYGate", "UCRZGate", "UCPauliRotGate"):
        axis = st.sampled_from("XYZ") if subject == "UCPauliRotGate" else st.just(subject[3])
        return st.tuples(st.integers(0, 2), axis).flatmap(
            lambda a: st.tuples(st.lists(angles(), min_size=2 ** a[0], max_size=2 ** a[0]), st.just(a[1])))
    if subject == "HamiltonianGate":
        return st.tuples(_qubits().flatmap(_hermitian), angles())
    if subject in ("PermutationGate", "Permutation"):
        return _qubits().flatmap(lambda n: st.permutations(list(range(n)))).map(lambda p: (list(p),))
    if subject == "LinearFunction":
        return _qubits().flatmap(_invertible_binary).map(lambda a: (a,))
    if subject == "PauliGate":
        return st.lists(st.sampled_from("IXYZ"), min_size=1, max_size=3).map(lambda c: ("".join(c),))
    if subject in ("GraphStateGate", "GraphState"):
        return _qubits().flatmap(_adjacency).map(lambda a: (a,))
    raise KeyError(subject)


def _hermitian(num_qubits):
    from hypothesis import strategies as st

    dim = 2 ** num_qubits
    labels = st.lists(st.sampled_from("IXYZ"), min_size=num_qubits, max_size=num_qubits).map("".join)
    coefficient = st.sampled_from([1.0, -1.0, 0.5, 2.0, 0.0, 1e-9])

    def pauli_sum(terms):
        return sum((c * _HELPERS["pauli_matrix"](label) for label, c in terms), np.zeros((dim, dim), dtype=complex))

    def random_hermitian(seed):
        rng = np.random.default_rng(seed)
        a = rng.normal(size=(dim, dim)) + 1j * rng.normal(size=(dim, dim))
        return (a + a.conj().T) / 2

    def degenerate(args):
        seed, values = args
        u = _haar(seed, dim)
        return (u * np.array(values, dtype=float)) @ u.conj().T

    return st.one_of(
        st.lists(st.tuples(labels, coefficient), min_size=1, max_size=3).map(pauli_sum),
        st.lists(st.sampled_from([0.0, 1.0, -1.0, 0.5, math.pi]), min_size=dim, max_size=dim).map(
            lambda d: np.diag(np.array(d, dtype=complex))),
        st.tuples(st.integers(0, 2 ** 32 - 1), st.lists(st.sampled_from([0.0, 1.0, -2.0]), min_size=dim,
                                                         max_size=dim)).map(degenerate),
        st.integers(0, 2 ** 32 - 1).map(random_hermitian),
    ).map(lambda h: _to_lists((np.asarray(h) + np.asarray(h).conj().T) / 2))


def _invertible_binary(num_qubits):
    """P L U over GF(2) with unit-diagonal L, U: every invertible binary matrix has this form."""
    from hypothesis import strategies as st

    n = num_qubits
    bits = st.lists(st.integers(0, 1), min_size=n * n, max_size=n * n)

    def build(args):
        perm, lower_bits, upper_bits = args
        lower = np.eye(n, dtype=int)
        upper = np.eye(n, dtype=int)
        for i in range(n):
            for j in range(n):
                if j < i:
                    lower[i, j] = lower_bits[i * n + j]
                elif j > i:
                    upper[i, j] = upper_bits[i * n + j]
        p = np.eye(n, dtype=int)[list(perm)]
        return [[int(v) for v in row] for row in (p @ lower @ upper) % 2]

    return st.tuples(st.permutations(list(range(n))), bits, bits).map(build)


def _adjacency(num_qubits):
    from hypothesis import strategies as st

    n = num_qubits
    pairs = [(a, b) for a in range(n) for b in range(a + 1, n)]

    def build(edges):
        adj = [[0] * n for _ in range(n)]
        for (a, b), on in zip(pairs, edges):
            adj[a][b] = adj[b][a] = int(on)
        return adj

    return st.lists(st.booleans(), min_size=len(pairs), max_size=len(pairs)).map(build)


# -- construction, expectation, and the source text of both ----------------------------------------
def _input_text(subject, example):
    """The constructor call as Python source."""
    if subject in ("UnitaryGate", "Isometry"):
        matrix = f"np.array({example[0]!r})"
        return f"{subject}({matrix})" if subject == "UnitaryGate" else f"Isometry({matrix}, 0, 0)"
    if subject in ("StatePreparation", "Initialize"):
        if len(example) == 2:
            return f"{subject}({example[0]!r}, num_qubits={example[1]!r})"
        return f"{subject}({example[0]!r})"
    if subject in ("UCRXGate", "UCRYGate", "UCRZGate"):
        return f"{subject}({example[0]!r})"
    if subject == "UCPauliRotGate":
        return f"UCPauliRotGate({example[0]!r}, {example[1]!r})"
    if subject == "UCGate":
        return f"UCGate([np.array(g) for g in {example[0]!r}])"
    if subject == "HamiltonianGate":
        return f"HamiltonianGate(np.array({example[0]!r}), {example[1]!r})"
    if subject == "Permutation":
        return f"Permutation({len(example[0])}, {example[0]!r})"
    if subject == "LinearFunction":
        return f"LinearFunction({example[0]!r}, validate_input=True)"
    return f"{subject}({example[0]!r})"


def _expected_text(subject, example):
    """Source computing `expected` (a matrix, its first columns, or a state) with the helpers,
    and `kind`: 'operator', 'columns' or 'state'."""
    if subject == "UnitaryGate":
        return f"kind = 'operator'\nexpected = np.array({example[0]!r})\n"
    if subject in ("DiagonalGate", "Diagonal"):
        return f"kind = 'operator'\nexpected = np.diag(np.array({example[0]!r}))\n"
    if subject == "Isometry":
        return f"kind = 'columns'\nexpected = np.array({example[0]!r})  # the isometry: the first columns\n"
    if subject in ("StatePreparation", "Initialize"):
        if len(example) == 2:
            return f"kind = 'state'\nexpected = basis_state({example[1]!r}, {example[0]!r})\n"
        if isinstance(example[0], str):
            return f"kind = 'state'\nexpected = label_state({example[0]!r})\n"
        return f"kind = 'state'\nexpected = np.array({example[0]!r})\n"
    if subject == "UCGate":
        return f"kind = 'operator'\nexpected = block_diagonal({example[0]!r})\n"
    if subject in ("UCRXGate", "UCRYGate", "UCRZGate", "UCPauliRotGate"):
        angles_, axis = example
        return f"kind = 'operator'\nexpected = block_diagonal([rotation({axis!r}, a) for a in {angles_!r}])\n"
    if subject == "HamiltonianGate":
        return f"kind = 'operator'\nexpected = expm_hermitian(np.array({example[0]!r}), {example[1]!r})\n"
    if subject in ("PermutationGate", "Permutation"):
        return f"kind = 'operator'\nexpected = permutation_matrix({example[0]!r})\n"
    if subject == "LinearFunction":
        return f"kind = 'operator'\nexpected = linear_function_matrix({example[0]!r})\n"
    if subject == "PauliGate":
        return f"kind = 'operator'\nexpected = pauli_matrix({example[0]!r})\n"
    if subject in ("GraphStateGate", "GraphState"):
        return f"kind = 'state'\nexpected = graph_state({example[0]!r})\n"
    raise KeyError(subject)


def _build(subject, example):
    from qiskit.circuit import library

    namespace = {"np": np, subject: getattr(library, subject)}
    return eval(_input_text(subject, example), namespace)  # our own constructor text


def _expected(subject, example):
    namespace = dict(_HELPERS)
    exec(_expected_text(subject, example), namespace)  # noqa: S102 - our own helper text
    return namespace["kind"], np.asarray(namespace["expected"], dtype=complex)


# -- the three views ---------------------------------------------------------------------------
def _views(subject, obj):
    """(name, callable returning the view's operator or state) for each view of `obj`."""
    from qiskit import QuantumCircuit, transpile
    from qiskit.quantum_info import Operator, Statevector

    kind = SUBJECTS[subject]
    if kind == "circuit":
        circuit = obj
        definition = obj.decompose()
    else:
        circuit = QuantumCircuit(obj.num_qubits)
        circuit.append(obj, list(range(obj.num_qubits)))
        definition = obj.definition

    def transpiled():
        return transpile(circuit, basis_gates=["u", "cx"], seed_transpiler=0)

    if kind == "instruction":  # Initialize: contains reset, seen through its state from |0...0>
        return [("Statevector(circuit holding it)", lambda: Statevector(circuit).data),
                ("Statevector(its definition)", lambda: Statevector(definition).data),
                ("the state of transpile(circuit, basis_gates=['u','cx'])",
                 lambda: _transpiled_state(transpiled()))]
    views = [("Operator(it)", lambda: Operator(obj).data)]
    if definition is not None:
        views.append(("Operator(its definition)", lambda: Operator(definition).data))
    views.append(("Operator of transpile(circuit, basis_gates=['u','cx'])",
                  lambda: Operator.from_circuit(transpiled()).data))
    return views


TRANSPILED_STATE = r'''
def transpiled_state(tqc):
    """The state a transpiled circuit prepares from |0...0>, qubits in the original order."""
    from qiskit.quantum_info import Statevector

    data = Statevector(tqc).data
    layout = getattr(tqc, "layout", None)
    if layout is not None and getattr(layout, "final_layout", None) is not None:
        final = layout.final_index_layout()  # final position of each virtual qubit
        n = tqc.num_qubits
        tensor = data.reshape([2] * n)  # axis i is qubit n-1-i
        data = tensor.transpose([n - 1 - final[n - 1 - i] for i in range(n)]).reshape(-1)
    return data
'''
exec(TRANSPILED_STATE, _HELPERS)  # noqa: S102


def _transpiled_state(tqc):
    return _HELPERS["transpiled_state"](tqc)


def _view_value(kind, value, expected):
    """What a view says about the law's object: the whole matrix, its first columns, or the
    state from |0...0> (first column of an operator)."""
    value = np.asarray(value)
    if kind == "operator" or value.ndim == 1:
        return value
    if kind == "columns":
        return value[:, :expected.shape[1]]
    return value[:, 0]


def _check(subject, example):
    obj = _build(subject, example)
    kind, expected = _expected(subject, example)
    call = _input_text(subject, example)
    for name, view in _views(subject, obj):
        actual = _view_value(kind, view(), expected)
        dev = _HELPERS["deviation"](actual, expected)
        if "transpile" in name and dev >= ATOL:
            gap = _HELPERS["phase_sensitive_infidelity"](actual, expected)
            if gap < SYNTHESIS_INFIDELITY:
                continue
            dev_text = f"{dev:.3g}, phase-sensitive infidelity {gap:.3g}"
        else:
            dev_text = f"{dev:.3g}"
        what = {"operator": "the matrix", "columns": "the isometry (first columns)",
                "state": "the state from |0...0>"}[kind]
        assert dev < ATOL, (f"{name} for {call} does not implement {what} it was given: max deviation "
                            f"{dev_text} (global phase included)")
    if subject == "StatePreparation":
        from qiskit.quantum_info import Operator

        back = Operator(obj.inverse()).data @ expected
        dev = _HELPERS["deviation"](back, _HELPERS["basis_state"](obj.num_qubits))
        assert dev < ATOL, (f"{call}.inverse() does not map the prepared state back to |0...0>: "
                            f"max deviation {dev:.3g} (global phase included)")


def _reproduce(subject, example):
    kind = SUBJECTS[subject]
    call = _input_text(subject, example)
    lines = ["import math", "import numpy as np", "from qiskit import QuantumCircuit, transpile",
             f"from qiskit.circuit.library import {subject}",
             "from qiskit.quantum_info import Operator, Statevector", "", HELPERS.strip(), "", ""]
    lines.append(f"obj = {call}")
    lines.append(_expected_text(subject, example).rstrip())
    if kind == "circuit":
        lines += ["circuit = obj", "definition = obj.decompose()"]
    else:
        lines += ["circuit = QuantumCircuit(obj.num_qubits)", "circuit.append(obj, list(range(obj.num_qubits)))",
                  "definition = obj.definition"]
    lines.append("transpiled = transpile(circuit, basis_gates=['u', 'cx'], seed_transpiler=0)")
    lines.append("")
    lines.append("def part(value):\n"
                 "    value = np.asarray(value)\n"
                 "    if kind == 'operator' or value.ndim == 1:\n"
                 "        return value\n"
                 "    return value[:, :expected.shape[1]] if kind == 'columns' else value[:, 0]\n")
    if kind == "instruction":
        lines.append(TRANSPILED_STATE.strip())
        views = [("Statevector(circuit holding it)", "Statevector(circuit).data"),
                 ("Statevector(its definition)", "Statevector(definition).data"),
                 ("transpiled state", "transpiled_state(transpiled)")]
    else:
        views = [("Operator(it)", "Operator(obj).data")]
        views.append(("Operator(its definition)", "Operator(definition).data"))
        views.append(("Operator(transpiled)", "Operator.from_circuit(transpiled).data"))
    for name, code in views:
        guard = "if definition is not None:\n    " if "definition" in code else ""
        lines.append(f"{guard}dev = deviation(part({code}), expected)")
        indent = "    " if guard else ""
        if "transpile" in code:
            lines.append(f"gap = phase_sensitive_infidelity(part({code}), expected)")
            lines.append(f"assert dev < {ATOL} or gap < {SYNTHESIS_INFIDELITY}, "
                         f"f'{name} differs from what it was given: max deviation {{dev}}, infidelity {{gap}}'")
        else:
            lines.append(f"{indent}assert dev < {ATOL}, f'{name} differs from what it was given: max deviation {{dev}}'")
    if subject == "StatePreparation":
        lines.append("dev = deviation(Operator(obj.inverse()).data @ expected, basis_state(obj.num_qubits))")
        lines.append(f"assert dev < {ATOL}, f'the inverse does not map the state back to |0...0>: {{dev}}'")
    return "\n".join(lines) + "\n"


def _describe(subject, example):
    return _input_text(subject, example)


CONTRACTS = [
    Contract(LAW_ID, "construction and operations",
             "an instruction specified by a matrix, vector, diagonal, angle/block list, permutation, binary "
             "matrix or Pauli label implements exactly that (global phase included) in Operator(it), "
             "Operator(its definition) and transpile(..., basis_gates=['u','cx'])",
             "documentation: qiskit.circuit.library UnitaryGate, DiagonalGate, Isometry (ancillas more "
             "significant than inputs), StatePreparation / Initialize (params: amplitudes, label, int), "
             "UCGate (block-diagonal matrix), UCRX/UCRY/UCRZGate, HamiltonianGate (exp(-iHt)), PermutationGate "
             "(pattern[k] = m: qubit m to position k), LinearFunction (binary matrix), PauliGate, GraphStateGate; "
             "transpile (approximation_degree 1.0 = no approximation; two-qubit synthesis tolerance: "
             "TwoQubitWeylDecomposition fidelity 1 - 1e-9)",
             _subjects, _strategy, _check, _reproduce, _api, describe=_describe),
]
