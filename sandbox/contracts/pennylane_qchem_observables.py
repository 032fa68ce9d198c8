"""Quantum chemistry, PennyLane (qml.qchem): the spin and particle-number observables, the
Hartree-Fock reference state, the excitation lists built on it, and the matrix decompositions
(Givens rotations, double factorization) compute what their docstrings state, judged against
numpy built from the textbook definitions (not against the library).

Conventions, from the docstrings: Jordan-Wigner occupation-number basis, qubit j is spin
orbital j, |1> is occupied (hf_state: "n_i = 1 for i <= N"; particle_number's example
2 I - 1/2 sum Z_j is sum (1 - Z_j)/2); even spin orbitals are spin up (s_z = +1/2) and odd ones
spin down (spinz's example: -0.25 Z(0) + 0.25 Z(1) + ...). qml.matrix orders wires with wire 0
most significant.

  - particle_number(orbitals) = sum_j n_j; spinz(orbitals) = sum_j s_z(j) n_j: diagonal in the
    computational basis with the number of occupied orbitals / (n_up - n_down)/2 on the diagonal.
  - spin2(electrons, orbitals) = S^2 = S_- S_+ + S_z (S_z + 1) on the states of `electrons`
    electrons (the docstring's 3/4 N term is the constant 3/4 x electrons, so the operator is S^2
    in that sector only); there its eigenvalues are s(s+1) and it commutes with N and S_z.
  - hf_state(electrons, orbitals, basis): the occupation vector (1 for the first `electrons` spin
    orbitals), its parity encoding (qubit j holds n_0 + ... + n_j mod 2) and its Bravyi-Kitaev
    encoding (qubit j holds the Fenwick-tree partial sum n_{j&(j+1)} + ... + n_j mod 2: n_j for
    even j, Tranter et al. 2015), for each basis option the release documents.
  - excitations(electrons, orbitals, delta_sz): exactly the singles [r, p] (r occupied, p empty,
    sz[p] - sz[r] = delta_sz) and doubles [s, r, q, p] (s < r occupied, q < p empty,
    sz[p] + sz[q] - sz[r] - sz[s] = delta_sz), each once; excitations_to_wires maps [r, p] to
    the wires r..p and [s, r, q, p] to [wires s..r, wires q..p].
  - givens_decomposition(U) = (D, [(T_m, (m, m+1)), ...]) with U = diag(D) T_1 T_2 ... (each T_m a
    2x2 unitary on adjacent indices), for complex unitaries and real orthogonal matrices.
  - factorize(V): factors L^(r) with V_ijkl = sum_r L^(r)_ij L^(r)_kl, and core / leaf tensors
    with V_ijkl = sum_r sum_pq U_ip U_jp Z_pq U_kq U_lq (up to the eigenvalues the documented
    tol_eigval discards), on exactly low-rank positive semidefinite chemist-notation tensors.

The numpy oracle is one piece of source (`ORACLE`) exec'd here and pasted into every
reproducer, so that each reproducer is standalone.
"""

import inspect
import itertools

import numpy as np
from contract_runtime import Contract

ORACLE = '''
def annihilators(n):
    """Jordan-Wigner c_j on n qubits (wire 0 most significant, |1> occupied): Z on wires < j."""
    lower = np.array([[0.0, 1.0], [0.0, 0.0]])  # |1> -> |0>
    ops = []
    for j in range(n):
        factors = [np.diag([1.0, -1.0])] * j + [lower] + [np.eye(2)] * (n - j - 1)
        op = np.ones((1, 1))
        for f in factors:
            op = np.kron(op, f)
        ops.append(op)
    return ops


def occupations(n):
    """occupations(n)[k, j] = 1 when spin orbital j is occupied in basis state k."""
    return np.array([[(k >> (n - 1 - j)) & 1 for j in range(n)] for k in range(2 ** n)])


def sz_of(j):
    return 0.5 if j % 2 == 0 else -0.5  # even spin orbitals are spin up


def number_matrix(n):
    return np.diag(occupations(n).sum(axis=1).astype(float))


def sz_matrix(n):
    return np.diag(occupations(n) @ np.array([sz_of(j) for j in range(n)]))


def s2_matrix(n):
    """S^2 = S_- S_+ + S_z (S_z + 1), S_+ = sum_k c+_{2k} c_{2k+1} (textbook, all particle numbers)."""
    c = annihilators(n)
    s_plus = sum((c[2 * k].T @ c[2 * k + 1] for k in range(n // 2)), np.zeros((2 ** n, 2 ** n)))
    sz = sz_matrix(n)
    return s_plus.T @ s_plus + sz @ (sz + np.eye(2 ** n))


def hf_occupation(electrons, orbitals):
    return np.array([1 if i < electrons else 0 for i in range(orbitals)])


def encode(occupation, basis):
    """The occupation vector in the parity / Bravyi-Kitaev encodings (Tranter et al. 2015)."""
    n = np.asarray(occupation)
    if basis == "parity":
        return np.cumsum(n) % 2
    if basis == "bravyi_kitaev":
        return np.array([n[j & (j + 1): j + 1].sum() % 2 for j in range(len(n))])
    return n


def all_excitations(electrons, orbitals, delta_sz):
    occ, empty = range(electrons), range(electrons, orbitals)
    sz = [0.5 if j % 2 == 0 else -0.5 for j in range(orbitals)]
    singles = [[r, p] for r in occ for p in empty if sz[p] - sz[r] == delta_sz]
    doubles = [[s, r, q, p] for s in occ for r in occ if s < r for q in empty for p in empty if q < p
               and sz[p] + sz[q] - sz[r] - sz[s] == delta_sz]
    return singles, doubles
'''

_ORACLE_NAMES = {"np": np}
exec(ORACLE, _ORACLE_NAMES)  # noqa: S102 (the oracle source above, shared verbatim with the reproducers)
occupations, number_matrix, sz_matrix = (_ORACLE_NAMES[n] for n in ("occupations", "number_matrix", "sz_matrix"))
s2_matrix, hf_occupation, encode = (_ORACLE_NAMES[n] for n in ("s2_matrix", "hf_occupation", "encode"))
all_excitations = _ORACLE_NAMES["all_excitations"]


def _fmt(array):
    return repr(np.round(np.asarray(array, dtype=float), 10).tolist())


def _header():
    return "import numpy as np\nimport pennylane as qml\n" + ORACLE + "\n"


# -- 1. particle number and spin observables ---------------------------------------------------------
OBSERVABLES = ("particle_number", "spinz", "spin2")
# Matrices of sums of Pauli words with coefficients 1/4 .. 3/4 x electrons: entries are exact up to
# the rounding of summing at most a few hundred terms (1e-13); 1e-9 leaves room and still sees any
# wrong coefficient (the smallest, 1/8, is 1e8 times larger).
OBS_TOL = 1e-9


def _observable_subjects():
    import pennylane as qml

    return [name for name in OBSERVABLES if callable(getattr(qml.qchem, name, None))]


def _observable_strategy(subject):
    from hypothesis import strategies as st

    # spin observables pair spin orbitals (up, down), so they get even counts; particle_number any
    orbitals = st.sampled_from([2, 4, 6, 8] if subject != "particle_number" else list(range(1, 9)))
    return orbitals.flatmap(lambda n: st.tuples(st.just(n), st.integers(1, n)))


def _observable_call(subject, orbitals, electrons):
    return (f"qml.qchem.spin2({electrons}, {orbitals})" if subject == "spin2"
            else f"qml.qchem.{subject}({orbitals})")


def _observable_check_source(subject, orbitals, electrons):
    """The law's assertions as source, run by the check and pasted into the reproducer."""
    call = _observable_call(subject, orbitals, electrons)
    lines = [f"operator = {call}",
             f"matrix = np.asarray(qml.matrix(operator, wire_order=range({orbitals})))",
             f"bits = occupations({orbitals})"]
    if subject in ("particle_number", "spinz"):
        expected = "number_matrix" if subject == "particle_number" else "sz_matrix"
        what = "number of occupied spin orbitals" if subject == "particle_number" else "(n_up - n_down)/2"
        lines += [
            f"expected = {expected}({orbitals})",
            "for k in range(len(bits)):",
            f"    assert abs(matrix[k, k] - expected[k, k]) <= {OBS_TOL}, (",
            f"        f'{call}: basis state |{{\"\".join(map(str, bits[k]))}}> has eigenvalue {{matrix[k, k]}}, '",
            f"        f'the {what} is {{expected[k, k]}}')",
            "off = np.abs(matrix - np.diag(np.diag(matrix))).max()",
            f"assert off <= {OBS_TOL}, f'{call} is not diagonal in the occupation-number basis (off-diagonal {{off}})'",
        ]
    else:
        lines += [
            f"sector = np.flatnonzero(bits.sum(axis=1) == {electrons})  # the states of {electrons} electrons",
            f"block, expected = matrix[np.ix_(sector, sector)], s2_matrix({orbitals})[np.ix_(sector, sector)]",
            "for a, k in enumerate(sector):",
            f"    assert abs(block[a, a] - expected[a, a]) <= {OBS_TOL}, (",
            f"        f'{call}: <{{\"\".join(map(str, bits[k]))}}|S^2|{{\"\".join(map(str, bits[k]))}}> is {{block[a, a]}}, '",
            "        f'the textbook S^2 gives {expected[a, a]}')",
            "worst = np.abs(block - expected).max()",
            (f"assert worst <= {OBS_TOL}, f'{call} differs from S^2 = S_- S_+ + S_z(S_z + 1) on the {electrons}-electron '"
             " f'states by {worst}'"),
            "eigenvalues = np.linalg.eigvalsh((block + block.conj().T) / 2)",
            "s = (np.sqrt(1 + 4 * np.clip(eigenvalues, 0, None)) - 1) / 2  # S^2 = s(s+1)",
            f"assert np.all(np.abs(2 * s - np.round(2 * s)) <= 1e-6) and eigenvalues.min() >= -{OBS_TOL}, (",
            f"    f'{call}: eigenvalues {{np.round(eigenvalues, 6)}} are not s(s+1) for half-integer s')",
            f"for name, other in (('N', number_matrix({orbitals})), ('S_z', sz_matrix({orbitals}))):",
            "    gap = np.abs(matrix @ other - other @ matrix).max()",
            f"    assert gap <= {OBS_TOL}, f'{call} does not commute with {{name}} (|[S^2, {{name}}]| = {{gap}})'",
        ]
    return "\n".join(lines) + "\n"


def _observable_check(subject, example):
    import pennylane as qml

    orbitals, electrons = example
    exec(_observable_check_source(subject, orbitals, electrons), {**_ORACLE_NAMES, "qml": qml})  # noqa: S102


def _observable_reproduce(subject, example):
    orbitals, electrons = example
    return _header() + _observable_check_source(subject, orbitals, electrons)


def _observable_describe(subject, example):
    return _observable_call(subject, *example)


# -- 2. Hartree-Fock state in each documented basis -------------------------------------------------
HF_BASES = ("occupation_number", "parity", "bravyi_kitaev")


def _hf_subjects():
    import pennylane as qml

    parameters = inspect.signature(qml.qchem.hf_state).parameters
    if "basis" not in parameters:
        return ["hf_state[occupation_number]"]  # releases before the option: the occupation vector only
    return [f"hf_state[{basis}]" for basis in HF_BASES]


def _basis(subject):
    return subject[len("hf_state["):-1]


def _hf_strategy(subject):
    from hypothesis import strategies as st

    explicit = st.booleans() if _basis(subject) == "occupation_number" else st.just(True)
    return st.integers(1, 8).flatmap(lambda n: st.tuples(st.integers(1, n), st.just(n), explicit))


def _hf_call(subject, example):
    electrons, orbitals, explicit = example
    option = f', basis="{_basis(subject)}"' if explicit and _hf_has_basis() else ""  # "": the messages use ''
    return f"qml.qchem.hf_state({electrons}, {orbitals}{option})"


def _hf_has_basis():
    import pennylane as qml

    return "basis" in inspect.signature(qml.qchem.hf_state).parameters


def _hf_source(subject, example):
    electrons, orbitals, _ = example
    call = _hf_call(subject, example)
    return (f"state = np.asarray({call})\n"
            f"expected = encode(hf_occupation({electrons}, {orbitals}), {_basis(subject)!r})\n"
            f"assert state.shape == expected.shape and np.array_equal(state, expected), (\n"
            f"    f'{call} is {{state.tolist()}}; the occupation vector of {electrons} electrons in {orbitals} spin '\n"
            f"    f'orbitals in the {_basis(subject)} encoding is {{expected.tolist()}}')\n")


def _hf_check(subject, example):
    import pennylane as qml

    exec(_hf_source(subject, example), {**_ORACLE_NAMES, "qml": qml})  # noqa: S102


def _hf_reproduce(subject, example):
    return _header() + _hf_source(subject, example)


# -- 3. excitations and their wires -----------------------------------------------------------------
def _excitation_subjects():
    import pennylane as qml

    return [name for name in ("excitations", "excitations_to_wires") if callable(getattr(qml.qchem, name, None))]


def _excitation_strategy(subject):
    from hypothesis import strategies as st

    # excitations refuses electrons == orbitals (nothing to excite into): at least one empty orbital
    system = st.integers(2, 8).flatmap(lambda n: st.tuples(st.integers(1, n - 1), st.just(n)))
    if subject == "excitations":
        return st.tuples(system, st.sampled_from([0, 1, -1, 2, -2]))
    # a documented input of excitations_to_wires: singles / doubles as excitations() states them
    # (chosen from the numpy enumeration), on consecutive wires or on labelled ones
    return st.tuples(system, st.sampled_from([0, 1, -1]), st.integers(0, 2 ** 16), st.booleans())


def _excitation_source(subject, example):
    if subject == "excitations":
        (electrons, orbitals), delta_sz = example
        call = f"qml.qchem.excitations({electrons}, {orbitals}, delta_sz={delta_sz})"
        return (
            f"singles, doubles = {call}\n"
            f"want_singles, want_doubles = all_excitations({electrons}, {orbitals}, {delta_sz})\n"
            "for name, got, want in (('singles', singles, want_singles), ('doubles', doubles, want_doubles)):\n"
            "    got = [[int(i) for i in e] for e in got]\n"
            f"    assert len(got) == len({{tuple(e) for e in got}}), f'{call}: duplicate {{name}} in {{got}}'\n"
            "    assert sorted(got) == sorted(want), (\n"
            f"        f'{call}: {{name}} are {{sorted(got)}}; the {{name}} from the occupied to the empty spin orbitals '\n"
            f"        f'that change S_z by {delta_sz} are {{sorted(want)}}')\n")
    singles, doubles, wires = _wire_inputs(example)
    call = "qml.qchem.excitations_to_wires(singles, doubles" + (", wires=wires)" if wires else ")")
    return (
        f"singles, doubles = {singles!r}, {doubles!r}\n"
        + (f"wires = {wires!r}\n" if wires else f"wires = list(range({example[0][1]}))\n")
        + f"singles_wires, doubles_wires = {call}\n"
        "want_singles = [[wires[i] for i in range(r, p + 1)] for r, p in singles]\n"
        "want_doubles = [[[wires[i] for i in range(s, r + 1)], [wires[i] for i in range(q, p + 1)]]\n"
        "                for s, r, q, p in doubles]\n"
        "got_singles = [list(w) for w in singles_wires]\n"
        "got_doubles = [[list(a) for a in w] for w in doubles_wires]\n"
        "assert got_singles == want_singles, (\n"
        f"    f'{call}: single-excitation wires {{got_singles}}, the wires r..p of each [r, p] are {{want_singles}}')\n"
        "assert got_doubles == want_doubles, (\n"
        f"    f'{call}: double-excitation wires {{got_doubles}}, [wires s..r, wires q..p] of each [s, r, q, p] are '\n"
        "    f'{want_doubles}')\n")


def _wire_inputs(example):
    (electrons, orbitals), delta_sz, seed, labelled = example
    singles, doubles = all_excitations(electrons, orbitals, delta_sz)
    rng = np.random.default_rng(seed)
    singles = [e for e in singles if rng.uniform() < 0.6]
    doubles = [e for e in doubles if rng.uniform() < 0.6]
    wires = [f"w{i}" for i in range(orbitals)] if labelled else None
    return singles, doubles, wires


def _excitation_check(subject, example):
    import pennylane as qml

    if subject == "excitations_to_wires":
        from hypothesis import reject

        singles, doubles, _ = _wire_inputs(example)
        if not singles and not doubles:
            reject()  # nothing to map
    exec(_excitation_source(subject, example), {**_ORACLE_NAMES, "qml": qml})  # noqa: S102


def _excitation_reproduce(subject, example):
    return _header() + _excitation_source(subject, example)


# -- 4. Givens decomposition -----------------------------------------------------------------------
# U is rebuilt from at most N(N-1)/2 = 15 2x2 rotations of a 6x6 matrix: rounding adds ~1e-15 per
# product, so 1e-8 is slack for rounding yet far below any misplaced rotation or phase (O(0.1)).
GIVENS_TOL = 1e-8


def _givens_subjects():
    import pennylane as qml

    return ["givens_decomposition"] if callable(getattr(qml.qchem, "givens_decomposition", None)) else []


def _givens_strategy(subject):
    from hypothesis import strategies as st

    return st.tuples(st.integers(2, 6), st.sampled_from(["unitary", "orthogonal", "reflection", "phases",
                                                          "permutation", "identity"]),
                     st.integers(0, 2 ** 16))


def _givens_matrix(example):
    n, kind, seed = example
    rng = np.random.default_rng(seed)
    if kind == "identity":
        return np.eye(n, dtype=complex)
    if kind == "phases":
        return np.diag(np.exp(1j * rng.uniform(0, 2 * np.pi, n)))
    if kind == "permutation":
        return np.eye(n, dtype=complex)[rng.permutation(n)]
    if kind == "unitary":
        q, r = np.linalg.qr(rng.normal(size=(n, n)) + 1j * rng.normal(size=(n, n)))
        return q * (np.diag(r) / np.abs(np.diag(r)))
    q, r = np.linalg.qr(rng.normal(size=(n, n)))
    q = q * np.sign(np.diag(r))
    if (np.linalg.det(q) < 0) != (kind == "reflection"):
        q[:, 0] = -q[:, 0]
    return q  # real orthogonal: the docstring's real path (det +1) and its negative-determinant case


def _givens_source(example):
    matrix = _givens_matrix(example)
    literal = f"np.array({matrix.tolist()!r})"  # real entries stay real: the docstring's orthogonal path
    n = example[0]
    return (
        f"unitary = {literal}\n"
        "phases, rotations = qml.qchem.givens_decomposition(unitary)\n"
        "phases = np.asarray(phases)\n"
        f"assert phases.shape == ({n},) and np.all(np.abs(np.abs(phases) - 1) <= {GIVENS_TOL}), (\n"
        "    f'givens_decomposition: D = {phases} is not a diagonal of unit-modulus phases')\n"
        f"rebuilt = np.diag(phases).astype(complex)\n"
        "for t, (i, j) in rotations:\n"
        "    t = np.asarray(t)\n"
        "    assert j == i + 1, f'givens_decomposition: rotation on indices {(i, j)}, not adjacent (m, m+1)'\n"
        f"    assert np.abs(t.conj().T @ t - np.eye(2)).max() <= {GIVENS_TOL}, f'rotation {{t}} is not unitary'\n"
        f"    full = np.eye({n}, dtype=complex)\n"
        "    full[np.ix_([i, j], [i, j])] = t\n"
        "    rebuilt = rebuilt @ full\n"
        "error = np.abs(rebuilt - unitary).max()\n"
        f"assert error <= {GIVENS_TOL}, (f'D T_1 T_2 ... from givens_decomposition differs from U by {{error}}:\\n'\n"
        "                         f'{np.round(rebuilt, 6)}\\nU =\\n{np.round(unitary, 6)}')\n")


def _givens_check(subject, example):
    import pennylane as qml

    exec(_givens_source(example), {"qml": qml, "np": np})  # noqa: S102


def _givens_reproduce(subject, example):
    return "import numpy as np\nimport pennylane as qml\n\n" + _givens_source(example)


def _givens_describe(subject, example):
    n, kind, seed = example
    return f"givens_decomposition of a {n}x{n} {kind} matrix (seed {seed})"


# -- 5. double factorization -----------------------------------------------------------------------
# Thresholds handed to factorize: V's nonzero eigenvalues (as an n^2 x n^2 matrix) are >= 0.05 by
# construction, so tol_factor 1e-8 drops only its zero eigenvalues (rounding, ~1e-15); the rebuilt
# factors are then exact to rounding, and 1e-8 is the slack. The core/leaf form also drops factor
# eigenvalues below tol_eigval, which changes V by at most 2 tol_eigval sum_p |lambda_p| per factor
# (bound computed per example and added).
TOL_FACTOR, TOL_EIGVAL, FACTOR_TOL = 1e-8, 1e-8, 1e-8


def _factorize_subjects():
    import pennylane as qml

    if not callable(getattr(qml.qchem, "factorize", None)):
        return []
    parameters = inspect.signature(qml.qchem.factorize).parameters
    return ["factorize"] + (["factorize[cholesky]"] if "cholesky" in parameters else [])


def _factorize_strategy(subject):
    from hypothesis import strategies as st

    return st.integers(2, 4).flatmap(lambda n: st.tuples(st.just(n), st.integers(1, n * (n + 1) // 2),
                                                         st.integers(0, 2 ** 16)))


def _two_electron(example):
    """V_ijkl = sum_r w_r L_ij L_kl with symmetric, orthonormal L (Frobenius) and weights >= 0.05:
    a real chemist-notation tensor with its 8-fold symmetry, PSD of rank R as an n^2 x n^2 matrix."""
    n, rank, seed = example
    rng = np.random.default_rng(seed)
    basis = []
    for i, j in itertools.combinations_with_replacement(range(n), 2):
        e = np.zeros((n, n))
        e[i, j] = e[j, i] = 1.0
        basis.append(e.ravel() / np.linalg.norm(e))
    rotation = np.linalg.qr(rng.normal(size=(len(basis), len(basis))))[0]
    vectors = np.array(basis).T @ rotation[:, :rank]  # orthonormal, in the symmetric subspace
    weights = 0.05 + rng.uniform(size=rank)
    return ((vectors * weights) @ vectors.T).reshape(n, n, n, n)


def _factorize_source(subject, example):
    v = _two_electron(example)
    option = ", cholesky=True" if subject == "factorize[cholesky]" else ""
    call = f"qml.qchem.factorize(two, tol_factor={TOL_FACTOR}, tol_eigval={TOL_EIGVAL}{option})"
    return (
        f"two = np.array({np.round(v, 15).tolist()!r})\n"
        f"factors, cores, leaves = {call}\n"
        "rebuilt = np.einsum('rij,rkl->ijkl', np.asarray(factors), np.asarray(factors))\n"
        "error = np.abs(rebuilt - two).max()\n"
        f"assert error <= {FACTOR_TOL}, f'sum_r L_ij L_kl of the factors differs from V_ijkl by {{error}}'\n"
        "rebuilt = np.zeros_like(two)\n"
        "bound = 0.0\n"
        "for core, leaf, factor in zip(cores, leaves, factors):\n"
        "    core, leaf = np.asarray(core), np.asarray(leaf)\n"
        "    if core.ndim == 1:  # releases before 0.40 return each factor's eigenvalues: Z = outer(lambda, lambda)\n"
        "        core = np.outer(core, core)\n"
        "    rebuilt += np.einsum('ip,jp,pq,kq,lq->ijkl', leaf, leaf, core, leaf, leaf)\n"
        f"    bound += 2 * {TOL_EIGVAL} * np.abs(np.linalg.eigvalsh(np.asarray(factor))).sum()  # dropped eigenvalues\n"
        "error = np.abs(rebuilt - two).max()\n"
        f"assert error <= {FACTOR_TOL} + bound, (\n"
        "    f'sum_r U_ip U_jp Z_pq U_kq U_lq of the core and leaf tensors differs from V_ijkl by {error} '\n"
        "    f'(the eigenvalues below tol_eigval account for at most {bound})')\n")


def _factorize_check(subject, example):
    import pennylane as qml

    exec(_factorize_source(subject, example), {"qml": qml, "np": np})  # noqa: S102


def _factorize_reproduce(subject, example):
    return "import numpy as np\nimport pennylane as qml\n\n" + _factorize_source(subject, example)


def _factorize_describe(subject, example):
    n, rank, seed = example
    return f"{subject} of a rank-{rank} two-electron tensor on {n} orbitals (seed {seed})"


FAMILY = "quantum chemistry"
DOC = ("documentation: pennylane.qchem.particle_number, spinz, spin2, hf_state, excitations, excitations_to_wires, "
       "givens_decomposition, factorize docstrings; Jordan-Wigner occupation-number basis; Tranter et al., Int. J. "
       "Quantum Chem. 115, 1431 (2015) for the parity / Bravyi-Kitaev encodings; Clements et al., Optica 3, 1460 "
       "(2016); Motta et al., arXiv:1902.02134")

CONTRACTS = [
    Contract("pennylane.qchem.number-and-spin-observables", FAMILY,
             "particle_number and spinz are diagonal in the occupation-number basis (qubit j = spin orbital j, |1> "
             "occupied, even orbitals spin up) with the number of occupied orbitals / (n_up - n_down)/2 on the "
             "diagonal; spin2(electrons, orbitals) equals S^2 = S_- S_+ + S_z(S_z+1) on the states of `electrons` "
             "electrons, with eigenvalues s(s+1), commuting with N and S_z",
             DOC, _observable_subjects, _observable_strategy, _observable_check, _observable_reproduce,
             lambda subject: f"pennylane.qchem.{subject}", describe=_observable_describe),
    Contract("pennylane.qchem.hf-state-encodes-occupation", FAMILY,
             "hf_state(electrons, orbitals, basis) is the occupation vector with the first `electrons` spin orbitals "
             "occupied, in each documented basis: occupation_number, parity (qubit j = n_0 + ... + n_j mod 2) and "
             "bravyi_kitaev (qubit j = n_{j&(j+1)} + ... + n_j mod 2)",
             DOC, _hf_subjects, _hf_strategy, _hf_check, _hf_reproduce, lambda subject: "pennylane.qchem.hf_state",
             describe=lambda subject, example: _hf_call(subject, example)),
    Contract("pennylane.qchem.excitations-enumerate-selection-rules", FAMILY,
             "excitations(electrons, orbitals, delta_sz) returns exactly once each single [r, p] and double "
             "[s, r, q, p] from occupied to empty spin orbitals whose S_z change is delta_sz; excitations_to_wires "
             "maps [r, p] to wires r..p and [s, r, q, p] to [wires s..r, wires q..p]",
             DOC, _excitation_subjects, _excitation_strategy, _excitation_check, _excitation_reproduce,
             lambda subject: f"pennylane.qchem.{subject}"),
    Contract("pennylane.qchem.givens-decomposition-reconstructs", FAMILY,
             "givens_decomposition(U) returns unit phases D and 2x2 unitaries T_m on adjacent indices (m, m+1) "
             "with U = diag(D) T_1 T_2 ..., for complex unitaries and real orthogonal matrices (det +1 and -1)",
             DOC, _givens_subjects, _givens_strategy, _givens_check, _givens_reproduce,
             lambda subject: "pennylane.qchem.givens_decomposition", describe=_givens_describe),
    Contract("pennylane.qchem.factorize-reconstructs", FAMILY,
             "factorize(V) on an exactly low-rank chemist-notation tensor returns factors with V_ijkl = "
             "sum_r L_ij L_kl and core / leaf tensors with V_ijkl = sum_r U_ip U_jp Z_pq U_kq U_lq (up to the "
             "eigenvalues below tol_eigval), with eigendecomposition and, where offered, Cholesky",
             DOC, _factorize_subjects, _factorize_strategy, _factorize_check, _factorize_reproduce,
             lambda subject: "pennylane.qchem.factorize", describe=_factorize_describe),
]
