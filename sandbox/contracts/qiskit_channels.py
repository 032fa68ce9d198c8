"""Quantum channels, Qiskit (qiskit.quantum_info): the channel representations Kraus, Choi,
SuperOp, Chi, PTM and Stinespring describe the channel they were built from, and their
operations are the documented ones. Subjects are the representation classes the release exports.

Channels are random Kraus sets (a random isometry C^d -> C^(d k) split into k blocks) on 1-2
qubits; states are random density matrices, possibly on more qubits than the channel, with the
channel on a random ordered subset of them (`qargs`; qubit 0 is the least significant). The judge
is numpy: sum_k K rho K^dag, embedded on the qargs, never the library's own conversion code.

  - R(Kraus(K)) converted to every other representation T evolves a DensityMatrix as sum K rho K^dag;
  - R(Operator(U)) evolves as U rho U^dag;
  - a.compose(b) applies a then b; a.compose(b, front=True) and a.dot(b) apply b then a;
  - a.tensor(b) is a (x) b with b on the low qubits; a.expand(b) is b (x) a;
  - power(n) for integer n >= 0 is n-fold application (n = 0: identity, SuperOp^0);
  - adjoint() is the Hilbert-Schmidt adjoint, S_adj = S^dag, i.e. rho -> sum K^dag rho K;
  - is_cp / is_tp / is_cptp agree with numpy (Choi matrix PSD; sum B^dag A = I) on CPTP maps,
    CP maps that do not preserve trace, and TP maps that are not CP, given as the documented
    column-stacking SuperOp matrix S = sum conj(B) (x) A of rho -> sum A rho B^dag.
"""

import numpy as np
import oracle_core
from contract_runtime import Contract

ATOL = 1e-7
REPRESENTATIONS = ["Kraus", "Choi", "SuperOp", "Chi", "PTM", "Stinespring"]


def _subjects():
    import qiskit.quantum_info as qi

    return [name for name in REPRESENTATIONS if hasattr(qi, name)]


def _cls(name):
    import qiskit.quantum_info as qi

    return getattr(qi, name)


# -- numpy judge ----------------------------------------------------------------------------
def random_kraus(seed, num_qubits, count):
    rng = np.random.default_rng(seed)
    d = 2 ** num_qubits
    g = rng.normal(size=(d * count, d)) + 1j * rng.normal(size=(d * count, d))
    q, _ = np.linalg.qr(g)
    return [q[i * d:(i + 1) * d] for i in range(count)]


def random_density_matrix(seed, num_qubits):
    rng = np.random.default_rng(seed)
    d = 2 ** num_qubits
    g = rng.normal(size=(d, d)) + 1j * rng.normal(size=(d, d))
    rho = g @ g.conj().T
    return rho / np.trace(rho)


def random_unitary(seed, num_qubits):
    return oracle_core.haar_unitary(np.random.default_rng(seed), 2 ** num_qubits)


def embed(matrix, qargs, num_qubits):
    """`matrix` on qubits `qargs` (qargs[0] its least significant) of a little-endian register."""
    m = len(qargs)
    positions = [num_qubits - 1 - qargs[m - 1 - a] for a in range(m)]  # tensor axes, most significant first
    rest = [i for i in range(num_qubits) if i not in positions]
    full = np.kron(matrix, np.eye(2 ** len(rest))).reshape([2] * (2 * num_qubits))
    perm = list(np.argsort(positions + rest))
    return full.transpose(perm + [num_qubits + p for p in perm]).reshape(2 ** num_qubits, 2 ** num_qubits)


def apply_kraus(rho, kraus, qargs, num_qubits, right=None):
    """sum_k A_k rho B_k^dag (B = A unless `right` is given), on qargs."""
    right = kraus if right is None else right
    return sum(embed(a, qargs, num_qubits) @ rho @ embed(b, qargs, num_qubits).conj().T
               for a, b in zip(kraus, right))


def _literal(array):
    return f"np.array({np.asarray(array).tolist()!r})"


def _kraus_literal(kraus):
    return "[" + ", ".join(_literal(k) for k in kraus) + "]"


def _distance(a, b):
    return float(np.max(np.abs(np.asarray(a) - np.asarray(b)))) if np.shape(a) == np.shape(b) else float("inf")


# Shared reproducer tail: the numpy judge written out.
JUDGE = (
    "def embed(matrix, qargs, n):\n"
    "    # matrix on qubits qargs (qargs[0] least significant) of an n-qubit little-endian register\n"
    "    m = len(qargs)\n"
    "    positions = [n - 1 - qargs[m - 1 - a] for a in range(m)]\n"
    "    rest = [i for i in range(n) if i not in positions]\n"
    "    full = np.kron(matrix, np.eye(2 ** len(rest))).reshape([2] * (2 * n))\n"
    "    perm = list(np.argsort(positions + rest))\n"
    "    return full.transpose(perm + [n + p for p in perm]).reshape(2 ** n, 2 ** n)\n\n"
    "def apply_kraus(rho, kraus, qargs, n):\n"
    "    return sum(embed(k, qargs, n) @ rho @ embed(k, qargs, n).conj().T for k in kraus)\n\n")


def _header_for(names):
    names = sorted(set(names))
    return f"import numpy as np\nfrom qiskit.quantum_info import {', '.join(names)}\n\n"


# -- strategies ----------------------------------------------------------------------------
def _placement():
    """(channel qubits, state qubits, qargs)."""
    from hypothesis import strategies as st

    return st.integers(1, 2).flatmap(lambda m: st.integers(m, 3).flatmap(lambda n: st.tuples(
        st.just(m), st.just(n), st.permutations(list(range(n))).map(lambda p: tuple(p[:m])))))


def _seed():
    from hypothesis import strategies as st

    return st.integers(0, 2 ** 32 - 1)


def _conversion_strategy(subject):
    from hypothesis import strategies as st

    return st.tuples(_placement(), st.integers(1, 4), st.sampled_from(_subjects()), _seed(), _seed())


def _evolve(channel, rho, qargs):
    from qiskit.quantum_info import DensityMatrix

    return DensityMatrix(rho).evolve(channel, qargs=list(qargs)).data


# -- conversions between representations -------------------------------------------------------
def _check_conversion(subject, example):
    (m, n, qargs), count, target, kraus_seed, state_seed = example
    from qiskit.quantum_info import Kraus

    kraus = random_kraus(kraus_seed, m, count)
    rho = random_density_matrix(state_seed, n)
    expected = apply_kraus(rho, kraus, qargs, n)
    channel = _cls(subject)(Kraus(kraus))
    for label, candidate in ((f"{subject}(Kraus(K))", channel),
                             (f"{target}({subject}(Kraus(K)))", _cls(target)(channel))):
        deviation = _distance(_evolve(candidate, rho, qargs), expected)
        assert deviation < ATOL, (f"DensityMatrix(rho).evolve({label}, qargs={list(qargs)}) is not sum K rho K^dag "
                                  f"for a random {count}-Kraus channel on {m} qubit(s) (max deviation {deviation:.3g})")


def _reproduce_conversion(subject, example):
    (m, n, qargs), count, target, kraus_seed, state_seed = example
    kraus = random_kraus(kraus_seed, m, count)
    rho = random_density_matrix(state_seed, n)
    return (_header_for(["Kraus", "DensityMatrix", subject, target]) + JUDGE +
            f"kraus = {_kraus_literal(kraus)}\n"
            f"rho = {_literal(rho)}\n"
            f"expected = apply_kraus(rho, kraus, {list(qargs)!r}, {n})\n"
            f"channel = {subject}(Kraus(kraus))\n"
            f"for label, candidate in (('{subject}', channel), ('{target}({subject})', {target}(channel))):\n"
            f"    actual = DensityMatrix(rho).evolve(candidate, qargs={list(qargs)!r}).data\n"
            "    deviation = np.max(np.abs(actual - expected))\n"
            f"    assert deviation < {ATOL}, f'{{label}} evolves rho differently from sum K rho K^dag: {{deviation}}'\n")


# -- Operator -> channel ----------------------------------------------------------------------------
def _operator_strategy(subject):
    return __import__("hypothesis").strategies.tuples(_placement(), _seed(), _seed())


def _check_operator(subject, example):
    (m, n, qargs), unitary_seed, state_seed = example
    from qiskit.quantum_info import Operator

    u = random_unitary(unitary_seed, m)
    rho = random_density_matrix(state_seed, n)
    expected = apply_kraus(rho, [u], qargs, n)
    deviation = _distance(_evolve(_cls(subject)(Operator(u)), rho, qargs), expected)
    assert deviation < ATOL, (f"DensityMatrix(rho).evolve({subject}(Operator(U)), qargs={list(qargs)}) is not "
                              f"U rho U^dag for a random {m}-qubit unitary (max deviation {deviation:.3g})")


def _reproduce_operator(subject, example):
    (m, n, qargs), unitary_seed, state_seed = example
    u = random_unitary(unitary_seed, m)
    rho = random_density_matrix(state_seed, n)
    return (_header_for(["Operator", "DensityMatrix", subject]) + JUDGE +
            f"u = {_literal(u)}\n"
            f"rho = {_literal(rho)}\n"
            f"expected = apply_kraus(rho, [u], {list(qargs)!r}, {n})\n"
            f"actual = DensityMatrix(rho).evolve({subject}(Operator(u)), qargs={list(qargs)!r}).data\n"
            "deviation = np.max(np.abs(actual - expected))\n"
            f"assert deviation < {ATOL}, f'{subject}(Operator(U)) evolves rho differently from U rho U^dag: {{deviation}}'\n")


# -- operations: compose / dot / tensor / expand / power / adjoint --------------------------------------
OPERATIONS = ["compose", "compose-front", "dot", "tensor", "expand", "power", "adjoint"]


def _operation_strategy(subject):
    from hypothesis import strategies as st

    return st.tuples(st.sampled_from(OPERATIONS), st.integers(1, 2), st.integers(1, 3), st.integers(1, 3),
                     st.integers(0, 3), _seed(), _seed(), _seed())


def _operation_case(example):
    """(expression text over a and b, kraus_a, kraus_b, expected Kraus list or adjoint flag, qubits)."""
    op, m, count_a, count_b, exponent, seed_a, seed_b, state_seed = example
    if op in ("tensor", "expand"):
        m_b = 1 if m == 2 else 2 - (seed_b % 2)  # at most 3 qubits in all
        a, b = random_kraus(seed_a, 1, count_a), random_kraus(seed_b, m_b, count_b)
        n = 1 + m_b
    else:
        a, b = random_kraus(seed_a, m, count_a), random_kraus(seed_b, m, count_b)
        n = m
    if op == "compose":
        text, kraus = "a.compose(b)", [y @ x for x in a for y in b]
    elif op in ("compose-front", "dot"):
        text = "a.compose(b, front=True)" if op == "compose-front" else "a.dot(b)"
        kraus = [x @ y for x in a for y in b]
    elif op == "tensor":
        text, kraus = "a.tensor(b)", [np.kron(x, y) for x in a for y in b]
    elif op == "expand":
        text, kraus = "a.expand(b)", [np.kron(y, x) for x in a for y in b]
    elif op == "power":
        text = f"a.power({exponent})"
        kraus = [np.eye(2 ** m)]
        for _ in range(exponent):
            kraus = [x @ k for x in a for k in kraus]
    else:
        text, kraus = "a.adjoint()", [x.conj().T for x in a]
    return text, a, b, kraus, n, random_density_matrix(state_seed, n)


def _apply_full(rho, kraus):
    return sum(k @ rho @ k.conj().T for k in kraus)


def _check_operation(subject, example):
    from qiskit.quantum_info import Kraus

    text, a, b, kraus, n, rho = _operation_case(example)
    cls = _cls(subject)
    result = eval(text, {}, {"a": cls(Kraus(a)), "b": cls(Kraus(b))})  # noqa: S307 (our own fixed text)
    expected = _apply_full(rho, kraus)
    deviation = _distance(_evolve(result, rho, range(n)), expected)
    assert deviation < ATOL, (f"{text} on {subject} channels a, b (random Kraus sets) evolves a density matrix "
                              f"differently from the documented channel (max deviation {deviation:.3g})")


def _reproduce_operation(subject, example):
    text, a, b, kraus, n, rho = _operation_case(example)
    return (_header_for(["Kraus", "DensityMatrix", subject]) +
            f"kraus_a = {_kraus_literal(a)}\n"
            f"kraus_b = {_kraus_literal(b)}\n"
            f"a, b = {subject}(Kraus(kraus_a)), {subject}(Kraus(kraus_b))\n"
            f"rho = {_literal(rho)}\n"
            f"# expected Kraus set of {text} (compose: a then b; front/dot: b then a; tensor: a (x) b with b low;\n"
            "# expand: b (x) a; power(n): a applied n times; adjoint: K^dag)\n"
            f"expected_kraus = {_kraus_literal(kraus)}\n"
            "expected = sum(k @ rho @ k.conj().T for k in expected_kraus)\n"
            f"actual = DensityMatrix(rho).evolve({text}).data\n"
            "deviation = np.max(np.abs(actual - expected))\n"
            f"assert deviation < {ATOL}, f'{text} evolves rho differently from the documented channel: {{deviation}}'\n")


# -- predicates -----------------------------------------------------------------------------------
KINDS = ["cptp", "cp-not-tp", "tp-not-cp", "transpose"]


def _predicate_strategy(subject):
    from hypothesis import strategies as st

    return st.tuples(st.sampled_from(KINDS), st.integers(1, 2), st.integers(1, 3),
                     st.floats(0.2, 2.0), _seed(), _seed())


def _general_map(example):
    """(left, right) Kraus lists of rho -> sum A rho B^dag."""
    kind, m, count, t, seed_a, seed_b = example
    k1 = random_kraus(seed_a, m, count)
    if kind == "cptp":
        return k1, k1
    if kind == "cp-not-tp":
        c = 0.5 + 0.4 * (t - 0.2) / 1.8 if seed_b % 2 else 1.1 + 0.4 * (t - 0.2) / 1.8
        return [c * k for k in k1], [c * k for k in k1]
    if kind == "tp-not-cp":
        k2 = random_kraus(seed_b, m, count)
        left = [np.sqrt(1 + t) * k for k in k1] + [np.sqrt(t) * k for k in k2]
        right = [np.sqrt(1 + t) * k for k in k1] + [-np.sqrt(t) * k for k in k2]
        return left, right
    d = 2 ** m  # transpose: rho -> rho^T = sum_ij E_ij rho E_ji ... as sum_ij |i><j| rho |i><j|
    units = [np.outer(np.eye(d)[i], np.eye(d)[j]) for i in range(d) for j in range(d)]
    return units, [u.conj().T for u in units]


def superop_matrix(left, right):
    """Column-stacking superoperator of rho -> sum A rho B^dag: vec(A rho B^dag) = (conj(B) (x) A) vec(rho)."""
    return sum(np.kron(b.conj(), a) for a, b in zip(left, right))


def numpy_predicates(left, right):
    d = left[0].shape[0]
    tp = _distance(sum(b.conj().T @ a for a, b in zip(left, right)), np.eye(d)) < 1e-6
    choi = np.zeros((d * d, d * d), dtype=complex)
    for i in range(d):
        for j in range(d):
            e = np.zeros((d, d))
            e[i, j] = 1
            image = sum(a @ e @ b.conj().T for a, b in zip(left, right))
            choi += np.kron(e, image)
    choi = (choi + choi.conj().T) / 2
    min_eig = float(np.min(np.linalg.eigvalsh(choi)))
    return {"is_cp": min_eig > -1e-6, "is_tp": tp}, min_eig


def _check_predicates(subject, example):
    from hypothesis import assume
    from qiskit.quantum_info import SuperOp

    left, right = _general_map(example)
    expected, min_eig = numpy_predicates(left, right)
    assume(min_eig > -1e-9 or min_eig < -1e-3)  # stay away from the CP boundary
    channel = _cls(subject)(SuperOp(superop_matrix(left, right)))
    expected["is_cptp"] = expected["is_cp"] and expected["is_tp"]
    for name in ("is_cp", "is_tp", "is_cptp"):
        actual = bool(getattr(channel, name)())
        assert actual == expected[name], (f"{subject}(SuperOp(S)).{name}() is {actual} for a {example[0]} map on "
                                          f"{example[1]} qubit(s) (numpy: {expected[name]}; Choi min eigenvalue "
                                          f"{min_eig:.3g})")


def _reproduce_predicates(subject, example):
    left, right = _general_map(example)
    expected, min_eig = numpy_predicates(left, right)
    expected["is_cptp"] = expected["is_cp"] and expected["is_tp"]
    s = superop_matrix(left, right)
    return (_header_for(["SuperOp", subject]) +
            f"# a {example[0]} map rho -> sum A rho B^dag as its column-stacking superoperator sum conj(B) (x) A\n"
            f"s = {_literal(s)}\n"
            f"channel = {subject}(SuperOp(s))\n"
            f"# numpy: Choi matrix minimum eigenvalue {min_eig:.6g}, is_tp {expected['is_tp']}\n"
            + "".join(f"assert bool(channel.{name}()) == {expected[name]}, "
                      f"'{subject}.{name}() should be {expected[name]}'\n" for name in ("is_cp", "is_tp", "is_cptp")))


def _describe(subject, example):
    return f"{subject}: {example!r}"


FAMILY = "quantum channels"
DOC = "documentation: qiskit.quantum_info.{Kraus, Choi, SuperOp, Chi, PTM, Stinespring}, DensityMatrix.evolve"

CONTRACTS = [
    Contract("qiskit.channel.representations-agree", FAMILY,
             "a channel built from a Kraus set, in any representation and converted to any other, evolves a density "
             "matrix (on any qargs) as sum K rho K^dag", DOC + "; quantum semantics",
             _subjects, _conversion_strategy, _check_conversion, _reproduce_conversion,
             lambda s: f"qiskit.quantum_info.{s}", describe=_describe),
    Contract("qiskit.channel.operator-conversion", FAMILY,
             "a channel representation built from Operator(U) evolves a density matrix as U rho U^dag",
             DOC + "; quantum semantics", _subjects, _operator_strategy, _check_operator, _reproduce_operator,
             lambda s: f"qiskit.quantum_info.{s}", describe=_describe),
    Contract("qiskit.channel.operations", FAMILY,
             "compose applies self then other (front=True / dot: other then self); tensor is self (x) other with other "
             "on the low qubits, expand the reverse; power(n) for integer n >= 0 is n-fold application; adjoint is "
             "the Hilbert-Schmidt adjoint (SuperOp S^dag)",
             DOC + " (compose, dot, tensor, expand, power, adjoint docstrings)",
             _subjects, _operation_strategy, _check_operation, _reproduce_operation,
             lambda s: f"qiskit.quantum_info.{s}.compose", describe=_describe),
    Contract("qiskit.channel.predicates", FAMILY,
             "is_cp / is_tp / is_cptp agree with the Choi matrix being PSD and sum B^dag A = I, for CPTP, CP-not-TP and "
             "TP-not-CP maps", DOC + " (is_cp, is_tp, is_cptp; SuperOp column-stacking convention)",
             _subjects, _predicate_strategy, _check_predicates, _reproduce_predicates,
             lambda s: f"qiskit.quantum_info.{s}.is_cptp", describe=_describe),
]
