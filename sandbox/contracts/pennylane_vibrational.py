"""Vibrational structure, PennyLane (qml.qchem): laws for the functions that turn vibrational
integrals and Taylor coefficients into VSCF-basis integrals and bosonic Hamiltonians, checked
on synthetic integrals of the documented shapes (n modes, m modals, 1/2/3-mode couplings,
dipole integrals with an x, y, z component axis first).

Subjects are the public functions the release exports (qml.qchem.vscf_integrals,
qml.qchem.christiansen_bosonic, qml.qchem.taylor_bosonic; absent before 0.40 / 0.42). The
functions that need a computed potential energy surface and the optional h5py / scikit-learn
packages (christiansen_integrals, taylor_coeffs) are not subjects: the cached releases lack
those packages.

Integral conventions, from the docstrings: Hamiltonian integrals have shapes (n, m, m),
(n, n, m, m, m, m), (n, n, n, m, m, m, m, m, m); dipole integrals the same with a leading axis
of 3 (the vscf_integrals docstring's "(3, n, m)" for one-mode dipoles contradicts the
christiansen_integrals_dipole example, whose one-mode component prints as (n, m, m)). The
integrals are real matrix elements of Hermitian operators, so they are symmetric under
exchanging bra and ket indices. christiansen_integrals fills only the blocks of modes
i > j (> k) -- the `ordered=True` convention of christiansen_bosonic -- and the generator
below does the same unless a law needs a relabelling-symmetric ("full") tensor.

Synthetic integrals are generated from a seed by a small numpy function that the reproducers
carry verbatim, so every reproducer is standalone.
"""

import itertools

import numpy as np

from contract_runtime import Contract

# The generator shared by the checks and the reproducers (exec'd here, pasted there).
GENERATOR = '''
def integrals(seed, n, m, order, full=False, harmonic=True):
    """Real, bra/ket-symmetric vibrational integrals for n modes and m modals, up to
    `order`-mode couplings; coupled blocks for modes i > j (> k) only, unless `full`, which
    also fills every relabelled block (symmetric under exchanging modes)."""
    rng = np.random.default_rng(seed)
    h1 = np.zeros((n, m, m))
    for i in range(n):
        a = rng.uniform(-1, 1, (m, m)) * 0.1
        h1[i] = (a + a.T) / 2
        if harmonic:
            h1[i] += np.diag((np.arange(m) + 0.5) * rng.uniform(0.5, 1.5))
    out = [h1]
    if order >= 2:
        h2 = np.zeros((n, n) + (m,) * 4)
        for i in range(n):
            for j in range(i):
                b = rng.uniform(-1, 1, (m,) * 4) * 0.01
                b = (b + b.transpose(2, 3, 0, 1)) / 2
                h2[i, j] = b
                if full:
                    h2[j, i] = b.transpose(1, 0, 3, 2)
        out.append(h2)
    if order >= 3:
        h3 = np.zeros((n, n, n) + (m,) * 6)
        for i in range(n):
            for j in range(i):
                for k in range(j):
                    c = rng.uniform(-1, 1, (m,) * 6) * 0.005
                    c = (c + c.transpose(3, 4, 5, 0, 1, 2)) / 2
                    h3[i, j, k] = c
                    if full:
                        for p in itertools.permutations(range(3)):
                            modes = tuple((i, j, k)[q] for q in p)
                            h3[modes] = c.transpose(list(p) + [3 + q for q in p])
        out.append(h3)
    return out


def dipole(seed, n, m, order, full=False):
    """Dipole integrals: three independent components stacked on a leading axis."""
    parts = [integrals(1000 * seed + 7 * a + 1, n, m, order, full, harmonic=False) for a in range(3)]
    return [np.stack([parts[a][k] for a in range(3)]) for k in range(order)]


def taylor(seed, n, k, order, is_local):
    """Taylor coefficients of k one-mode degrees (2.. or 3.., as taylor_bosonic reads them),
    with the two- and three-mode degree counts that go with them, positive frequencies and,
    for localized modes, an orthogonal localization matrix."""
    rng = np.random.default_rng(seed)
    start = 2 if is_local else 3
    top = k + start - 1
    count2 = sum(f - 1 for f in range(start, top + 1))
    count3 = sum((f - 1) * (f - 2) // 2 for f in range(max(start, 3), top + 1))
    coeffs = [rng.uniform(-1, 1, (n, k)) * 1e-3]
    if order >= 2:
        coeffs.append(rng.uniform(-1, 1, (n, n, count2)) * 1e-3)
    if order >= 3:
        coeffs.append(rng.uniform(-1, 1, (n, n, n, count3)) * 1e-3)
    freqs = rng.uniform(0.005, 0.03, n)
    uloc = np.linalg.qr(rng.uniform(-1, 1, (n, n)))[0] if is_local else None
    return coeffs, freqs, uloc


def canonical(sentence):
    """A bosonic operator as {(sorted creation indices, sorted annihilation indices): coeff}:
    normal-ordered words, where creators commute among themselves and so do annihilators."""
    words = {}
    if any(_signs(w) != sorted(_signs(w)) for w in sentence):
        sentence = sentence.normal_order()
    for word, coeff in sentence.items():
        ops = [word[key] for key in sorted(word)]
        idx = [key[1] for key in sorted(word)]
        assert ops == sorted(ops), f"word {word} is not normal ordered after normal_order()"
        key = (tuple(sorted(i for i, o in zip(idx, ops) if o == "+")),
               tuple(sorted(i for i, o in zip(idx, ops) if o == "-")))
        words[key] = words.get(key, 0) + complex(coeff)
    return words


def _signs(word):
    return [word[key] for key in sorted(word)]


def difference(a, b):
    """Largest coefficient difference between two canonical operators."""
    return max([abs(a.get(key, 0) - b.get(key, 0)) for key in set(a) | set(b)] + [0.0])
'''

_namespace = {"np": np, "itertools": itertools}
exec(GENERATOR, _namespace)
integrals = _namespace["integrals"]
dipole = _namespace["dipole"]
taylor = _namespace["taylor"]
canonical = _namespace["canonical"]
difference = _namespace["difference"]

FAMILY = "vibrational structure"
VSCF_DOC = ("documentation: qml.qchem.vscf_integrals (integrals of the documented shapes converted to the "
            "VSCF basis; J. Chem. Theory Comput. 2010, 6, 235)")
ALL_SUBJECTS = ("vscf_integrals", "christiansen_bosonic", "taylor_bosonic")


def _exported(names):
    def subjects():
        import pennylane as qml

        found = [name for name in names if callable(getattr(qml.qchem, name, None))]
        if not found:
            raise AttributeError(f"pennylane.qchem has none of {', '.join(names)} on this release")
        return found
    return subjects


def _api(subject):
    return f"pennylane.qchem.{subject}"


def _function(subject):
    import pennylane as qml

    return getattr(qml.qchem, subject)


def _header():
    return "import itertools\nimport numpy as np\nimport pennylane as qml\n" + GENERATOR + "\n"


def _scale(arrays):
    return max([float(np.max(np.abs(a))) for a in arrays if a is not None and np.size(a)] + [1.0])


# -- strategies -------------------------------------------------------------------------------
def _vscf_strategy(decoupled=False, min_modes=1, dipoles=True, permutation=False, truncate=True):
    """(seed, n, m, h order, d order, modals or None[, permutation]) with sizes kept small."""
    from hypothesis import strategies as st

    def sized(nm):
        n, m = nm
        top = 3 if m <= (3 if n <= 3 else 2) else 2  # 3-mode integrals: n**3 blocks of m**6 elements
        h_order = st.just(1) if decoupled else st.integers(1, top)
        d_order = st.integers(1 if permutation else 0, top) if dipoles else st.just(0)
        modals = st.one_of(st.none(), st.lists(st.integers(1, m), min_size=n, max_size=n)) if truncate else st.none()
        perm = st.permutations(list(range(n))) if permutation else st.just(None)
        return st.tuples(st.integers(0, 2 ** 16), st.just(n), st.just(m), h_order, d_order, modals, perm)

    return st.tuples(st.integers(min_modes, 4), st.integers(1, 4)).flatmap(sized)


def _vscf_inputs(example, full=False):
    seed, n, m, h_order, d_order, modals, _ = example
    h = integrals(seed, n, m, h_order, full)
    d = dipole(seed, n, m, d_order, full) if d_order else None
    return h, d, modals


def _describe_vscf(subject, example):
    seed, n, m, h_order, d_order, modals, perm = example
    text = (f"h = integrals(seed={seed}, n={n}, m={m}, order={h_order}), "
            f"d = {f'dipole(seed={seed}, order={d_order})' if d_order else None}, modals={modals}")
    return text + (f", modes relabelled by {perm}" if perm is not None else "")


def _vscf_call(example, full=False, decoupled=False):
    seed, n, m, h_order, d_order, modals, _ = example
    return (f"h = integrals({seed}, {n}, {m}, {h_order}, full={full})\n"
            f"d = {f'dipole({seed}, {n}, {m}, {d_order}, full={full})' if d_order else None}\n"
            f"modals = {modals!r}\n")


# -- 1. shapes ---------------------------------------------------------------------------------
def _expected_shapes(n, size, order, components):
    lead = (3,) if components else ()
    return [lead + (n,) * k + (size,) * (2 * k) for k in range(1, order + 1)]


def _check_shapes(subject, example):
    seed, n, m, h_order, d_order, modals, _ = example
    h, d, modals = _vscf_inputs(example)
    h_out, d_out = _function(subject)(h, d, modals=modals)
    size = max(modals) if modals else m
    got_h = [np.shape(a) for a in h_out]
    want_h = _expected_shapes(n, size, h_order, False)
    assert got_h == want_h, (f"vscf_integrals returned Hamiltonian integrals of shapes {got_h} for {n} modes, "
                             f"{m} modals, modals={modals}; documented shapes {want_h}")
    if d is None:
        assert d_out is None, f"vscf_integrals returned dipole integrals {type(d_out)} for d_integrals=None"
        return
    got_d = [np.shape(a) for a in d_out]
    want_d = _expected_shapes(n, size, d_order, True)
    assert got_d == want_d, (f"vscf_integrals returned dipole integrals of shapes {got_d} for {n} modes, "
                             f"{m} modals, modals={modals}; documented shapes {want_d}")


def _reproduce_shapes(subject, example):
    seed, n, m, h_order, d_order, modals, _ = example
    size = max(modals) if modals else m
    want_h = _expected_shapes(n, size, h_order, False)
    want_d = _expected_shapes(n, size, d_order, True) if d_order else None
    return _header() + _vscf_call(example) + (
        f"h_out, d_out = qml.qchem.{subject}(h, d, modals=modals)\n"
        "got_h = [np.shape(a) for a in h_out]\n"
        f"assert got_h == {want_h!r}, f'Hamiltonian integral shapes {{got_h}}, documented {want_h!r}'\n"
        "got_d = None if d_out is None else [np.shape(a) for a in d_out]\n"
        f"assert got_d == {want_d!r}, f'dipole integral shapes {{got_d}}, documented {want_d!r}'\n")


# -- 2. a change of modal basis: spectra and norms kept -------------------------------------------
def _invariants(arrays, components):
    """Per-mode spectra of the one-mode blocks, Frobenius norms of every coupled block."""
    found = []
    for k, a in enumerate(arrays):
        a = np.asarray(a)
        blocks = [a[c] for c in range(3)] if components else [a]
        for block in blocks:
            if k == 0:
                found.append(np.array([np.linalg.eigvalsh((b + b.T) / 2) for b in block]))
            else:
                n = block.shape[0]
                found.append(np.array([np.linalg.norm(block[idx]) for idx in itertools.product(range(n), repeat=k + 1)]))
    return found


def _basis_change_deviation(h, d, h_out, d_out):
    worst = 0.0
    for before, after in zip(_invariants(h, False) + (_invariants(d, True) if d is not None else []),
                             _invariants(h_out, False) + (_invariants(d_out, True) if d_out is not None else [])):
        if before.shape != after.shape:
            return float("inf")
        worst = max(worst, float(np.max(np.abs(before - after))) if before.size else 0.0)
    return worst


def _check_basis_change(subject, example):
    h, d, _ = _vscf_inputs(example)
    h_out, d_out = _function(subject)(h, d)
    deviation = _basis_change_deviation(h, d, h_out, d_out)
    tolerance = 1e-9 * _scale(h + (d or []))
    assert deviation < tolerance, (
        "vscf_integrals with every modal kept is not an orthogonal change of each mode's modal basis: "
        f"a one-mode spectrum or a coupled block's norm changed by {deviation:.3g}")


def _reproduce_basis_change(subject, example):
    return _header() + _vscf_call(example) + (
        f"h_out, d_out = qml.qchem.{subject}(h, d)\n"
        "# with all modals kept, each mode's modals are rotated by an orthogonal matrix:\n"
        "# every one-mode block keeps its eigenvalues, every coupled block its Frobenius norm\n"
        "def invariants(arrays, components):\n"
        "    found = []\n"
        "    for k, a in enumerate(arrays):\n"
        "        a = np.asarray(a)\n"
        "        for block in ([a[c] for c in range(3)] if components else [a]):\n"
        "            if k == 0:\n"
        "                found.append(np.array([np.linalg.eigvalsh((b + b.T) / 2) for b in block]))\n"
        "            else:\n"
        "                found.append(np.array([np.linalg.norm(block[i]) for i in itertools.product(range(block.shape[0]), repeat=k + 1)]))\n"
        "    return found\n"
        "before = invariants(h, False) + (invariants(d, True) if d is not None else [])\n"
        "after = invariants(h_out, False) + (invariants(d_out, True) if d_out is not None else [])\n"
        "deviation = max(np.max(np.abs(x - y)) if x.shape == y.shape else np.inf for x, y in zip(before, after))\n"
        f"tolerance = 1e-9 * max([np.max(np.abs(a)) for a in h + (d or [])] + [1.0])\n"
        "assert deviation < tolerance, f'a spectrum or block norm changed by {deviation}'\n")


# -- 3. dipole components are transformed alike, and like the Hamiltonian ------------------------
FACTORS = (1.0, 2.0, -1.0)


def _component_dipole(h):
    return [np.stack([f * a for f in FACTORS]) for a in h]


def _components_deviation(h_out, d_out):
    worst = 0.0
    for k, a in enumerate(h_out):
        for c, f in enumerate(FACTORS):
            got, want = np.asarray(d_out[k][c]), f * np.asarray(a)
            if got.shape != want.shape:
                return float("inf")
            worst = max(worst, float(np.max(np.abs(got - want))))
    return worst


def _check_components(subject, example):
    h, _, modals = _vscf_inputs(example)
    h_out, d_out = _function(subject)(h, _component_dipole(h), modals=modals)
    assert d_out is not None and len(d_out) == len(h_out), (
        f"vscf_integrals returned {None if d_out is None else len(d_out)} dipole arrays for {len(h)}")
    deviation = _components_deviation(h_out, d_out)
    assert deviation < 1e-10 * _scale(h), (
        f"dipole components {FACTORS} x the Hamiltonian integrals are not returned as {FACTORS} x the "
        f"VSCF-basis Hamiltonian integrals (max deviation {deviation:.3g}): components are not transformed "
        "alike, or not to the Hamiltonian's VSCF basis")


def _reproduce_components(subject, example):
    return _header() + _vscf_call(example) + (
        f"factors = {FACTORS!r}\n"
        "# each dipole component is a multiple of the Hamiltonian integrals themselves\n"
        "d = [np.stack([f * a for f in factors]) for a in h]\n"
        f"h_out, d_out = qml.qchem.{subject}(h, d, modals=modals)\n"
        "# both are converted to the same VSCF basis, component by component\n"
        "deviation = max(np.max(np.abs(np.asarray(d_out[k][c]) - f * np.asarray(a)))\n"
        "                for k, a in enumerate(h_out) for c, f in enumerate(factors))\n"
        "tolerance = 1e-10 * max([np.max(np.abs(a)) for a in h] + [1.0])\n"
        "assert deviation < tolerance, f'dipole components differ from the rotated Hamiltonian by {deviation}'\n")


# -- 4. decoupled modes: the VSCF modals are each mode's eigenstates --------------------------------
def _check_decoupled(subject, example):
    seed, n, m, _, _, modals, _ = example
    h, _, modals = _vscf_inputs(example)
    h_out, _ = _function(subject)(h, modals=modals)
    kept = modals or [m] * n
    worst = 0.0
    for i in range(n):
        want = np.diag(np.linalg.eigvalsh(h[0][i])[:kept[i]])
        got = np.asarray(h_out[0])[i, :kept[i], :kept[i]]
        worst = max(worst, float(np.max(np.abs(got - want))) if got.shape == want.shape else float("inf"))
    assert worst < 1e-5 * _scale(h), (
        "for modes without coupling, the VSCF-basis one-mode integrals are not diagonal with each mode's "
        f"lowest eigenvalues in ascending order (max deviation {worst:.3g})")


def _reproduce_decoupled(subject, example):
    seed, n, m, _, _, modals, _ = example
    return _header() + _vscf_call(example) + (
        "# one-mode integrals only: the modes do not interact, the VSCF modals are each mode's eigenstates\n"
        f"h_out, _ = qml.qchem.{subject}(h, modals=modals)\n"
        f"kept = modals or [{m}] * {n}\n"
        f"for i in range({n}):\n"
        "    want = np.diag(np.linalg.eigvalsh(h[0][i])[:kept[i]])\n"
        "    got = np.asarray(h_out[0])[i, :kept[i], :kept[i]]\n"
        "    deviation = np.max(np.abs(got - want))\n"
        "    assert deviation < 1e-5 * max(np.max(np.abs(h[0])), 1.0), (\n"
        "        f'mode {i}: VSCF one-mode integrals {got} are not diag of the lowest eigenvalues {np.diag(want)}')\n")


# -- 5. relabelling modes relabels the outputs --------------------------------------------------------
def _permute(array, perm, order, components):
    """Relabel modes: new mode a is old mode perm[a], on each of the `order` mode axes."""
    array = np.asarray(array)
    offset = 1 if components else 0
    for axis in range(offset, offset + order):
        array = np.take(array, perm, axis=axis)
    return array


def _vscf_relabel_deviation(subject, example):
    seed, n, m, h_order, d_order, modals, perm = example
    h, d, modals = _vscf_inputs(example, full=True)
    h_out, d_out = _function(subject)(h, d, modals=modals)
    mode_axes = [np.shape(a)[:k + 1] for k, a in enumerate(h_out)]
    mode_axes += [np.shape(a)[1:k + 2] for k, a in enumerate(d_out)]
    for a, axes in zip(list(h_out) + list(d_out), mode_axes):
        assert all(size == n for size in axes), (
            f"vscf_integrals output {np.shape(a)} has mode axes {axes}, not one entry per mode of the {n} "
            "modes: relabelling the modes cannot relabel it")
    h_p = [_permute(a, perm, k + 1, False) for k, a in enumerate(h)]
    d_p = [_permute(a, perm, k + 1, True) for k, a in enumerate(d)]
    modals_p = [modals[p] for p in perm] if modals else None
    h_pout, d_pout = _function(subject)(h_p, d_p, modals=modals_p)
    worst = 0.0
    pairs = [(_permute(a, perm, k + 1, False), b) for k, (a, b) in enumerate(zip(h_out, h_pout))]
    pairs += [(_permute(a, perm, k + 1, True), b) for k, (a, b) in enumerate(zip(d_out, d_pout))]
    for want, got in pairs:
        got = np.asarray(got)
        worst = max(worst, float(np.max(np.abs(got - want))) if got.shape == want.shape else float("inf"))
    return worst, h + d


def _check_relabel_vscf(subject, example):
    worst, arrays = _vscf_relabel_deviation(subject, example)
    assert worst < 1e-10 * _scale(arrays), (
        f"relabelling the modes by {list(example[6])} in every input does not relabel the VSCF-basis "
        f"integrals the same way (max deviation {worst:.3g})")


def _reproduce_relabel_vscf(subject, example):
    perm, n = list(example[6]), example[1]
    return _header() + _vscf_call(example, full=True) + (
        f"perm = {perm!r}  # new mode a is old mode perm[a]\n"
        "def relabel(array, order, components):\n"
        "    array = np.asarray(array)\n"
        "    for axis in range(1 if components else 0, (1 if components else 0) + order):\n"
        "        array = np.take(array, perm, axis=axis)\n"
        "    return array\n"
        f"h_out, d_out = qml.qchem.{subject}(h, d, modals=modals)\n"
        "for k, a in enumerate(h_out):\n"
        f"    assert np.shape(a)[:k + 1] == ({n},) * (k + 1), f'Hamiltonian output {{np.shape(a)}} lacks modes'\n"
        "for k, a in enumerate(d_out):\n"
        f"    assert np.shape(a)[1:k + 2] == ({n},) * (k + 1), f'dipole output {{np.shape(a)}} lacks modes'\n"
        "h_p = [relabel(a, k + 1, False) for k, a in enumerate(h)]\n"
        "d_p = [relabel(a, k + 1, True) for k, a in enumerate(d)]\n"
        "modals_p = [modals[p] for p in perm] if modals else None\n"
        f"h_pout, d_pout = qml.qchem.{subject}(h_p, d_p, modals=modals_p)\n"
        "tolerance = 1e-10 * max([np.max(np.abs(a)) for a in h + d] + [1.0])\n"
        "for k, (a, b) in enumerate(zip(h_out, h_pout)):\n"
        "    deviation = np.max(np.abs(relabel(a, k + 1, False) - np.asarray(b)))\n"
        "    assert deviation < tolerance, f'{k + 1}-mode Hamiltonian integrals not relabelled: {deviation}'\n"
        "for k, (a, b) in enumerate(zip(d_out, d_pout)):\n"
        "    deviation = np.max(np.abs(relabel(a, k + 1, True) - np.asarray(b)))\n"
        "    assert deviation < tolerance, f'{k + 1}-mode dipole integrals not relabelled: {deviation}'\n")


# christiansen_bosonic: the operator of relabelled integrals is the relabelled operator
def _christiansen_strategy(permutation=False):
    from hypothesis import strategies as st

    def sized(nm):
        n, m = nm
        top = 3 if m <= 2 else 2
        perm = st.permutations(list(range(n))) if permutation else st.just(None)
        return st.tuples(st.integers(0, 2 ** 16), st.just(n), st.just(m), st.integers(1, top), perm)

    return st.tuples(st.integers(2 if permutation else 1, 3), st.integers(1, 3)).flatmap(sized)


def _christiansen_args(h):
    return {"one": h[0], "two": h[1] if len(h) > 1 else None, "three": h[2] if len(h) > 2 else None}


def _relabel_operator(words, perm, m):
    """Canonical operator with mode o's modal s (index o*m + s) moved to mode perm^-1(o)."""
    new_mode = {old: new for new, old in enumerate(perm)}
    move = lambda i: new_mode[i // m] * m + i % m  # noqa: E731
    out = {}
    for (plus, minus), c in words.items():
        key = (tuple(sorted(move(i) for i in plus)), tuple(sorted(move(i) for i in minus)))
        out[key] = out.get(key, 0) + c
    return out


def _check_relabel_christiansen(subject, example):
    seed, n, m, order, perm = example
    h = integrals(seed, n, m, order, full=True)
    h_p = [_permute(a, perm, k + 1, False) for k, a in enumerate(h)]
    before = _relabel_operator(canonical(_function(subject)(**_christiansen_args(h))), perm, m)
    after = canonical(_function(subject)(**_christiansen_args(h_p)))
    deviation = difference(before, after)
    assert deviation < 1e-12 * _scale(h), (
        f"relabelling the modes by {list(perm)} in the integrals does not relabel the bosonic operator "
        f"(register index mode*{m} + modal) the same way (max coefficient deviation {deviation:.3g})")


def _reproduce_relabel_christiansen(subject, example):
    seed, n, m, order, perm = example
    return _header() + (
        f"h = integrals({seed}, {n}, {m}, {order}, full=True)  # symmetric under exchanging modes\n"
        f"perm = {list(perm)!r}  # new mode a is old mode perm[a]\n"
        "h_p = [h[0][perm]]\n"
        "for k, a in enumerate(h[1:], start=2):\n"
        "    for axis in range(k):\n"
        "        a = np.take(a, perm, axis=axis)\n"
        "    h_p.append(a)\n"
        "args = lambda h: dict(one=h[0], two=h[1] if len(h) > 1 else None, three=h[2] if len(h) > 2 else None)\n"
        f"before = canonical(qml.qchem.{subject}(**args(h)))\n"
        f"after = canonical(qml.qchem.{subject}(**args(h_p)))\n"
        f"# bosonic index of (mode, modal) is mode * {m} + modal\n"
        "new_mode = {old: new for new, old in enumerate(perm)}\n"
        f"move = lambda i: new_mode[i // {m}] * {m} + i % {m}\n"
        "relabelled = {}\n"
        "for (plus, minus), c in before.items():\n"
        "    key = (tuple(sorted(map(move, plus))), tuple(sorted(map(move, minus))))\n"
        "    relabelled[key] = relabelled.get(key, 0) + c\n"
        "deviation = difference(relabelled, after)\n"
        "assert deviation < 1e-12 * max([np.max(np.abs(a)) for a in h] + [1.0]), (\n"
        "    f'the operator of relabelled integrals differs from the relabelled operator by {deviation}')\n")


def _check_relabel(subject, example):
    if subject == "vscf_integrals":
        return _check_relabel_vscf(subject, example)
    return _check_relabel_christiansen(subject, example)


def _reproduce_relabel(subject, example):
    if subject == "vscf_integrals":
        return _reproduce_relabel_vscf(subject, example)
    return _reproduce_relabel_christiansen(subject, example)


def _relabel_strategy(subject):
    if subject == "vscf_integrals":
        return _vscf_strategy(decoupled=True, min_modes=2, permutation=True)
    return _christiansen_strategy(permutation=True)


# -- 6. Hermitian integrals / real coefficients give a Hermitian bosonic Hamiltonian ----------------
def _taylor_strategy():
    from hypothesis import strategies as st

    return st.tuples(st.integers(0, 2 ** 16), st.integers(1, 3), st.integers(1, 3), st.integers(1, 3),
                     st.booleans()).filter(lambda e: not (e[1] == 3 and e[2] == 3 and e[3] == 3))


def _hermitian_strategy(subject):
    return _taylor_strategy() if subject == "taylor_bosonic" else _christiansen_strategy()


def _build_operator(subject, example):
    if subject == "taylor_bosonic":
        seed, n, k, order, is_local = example
        coeffs, freqs, uloc = taylor(seed, n, k, order, is_local)
        return _function(subject)(coeffs, freqs, is_local=is_local, uloc=uloc), coeffs
    seed, n, m, order, _ = example
    h = integrals(seed, n, m, order)
    return _function(subject)(**_christiansen_args(h)), h


def _adjoint(words):
    return {(minus, plus): complex(c).conjugate() for (plus, minus), c in words.items()}


def _check_hermitian(subject, example):
    operator, inputs = _build_operator(subject, example)
    words = canonical(operator)
    deviation = difference(words, _adjoint(words))
    assert deviation < 1e-12 * _scale(inputs), (
        f"{subject} of real, Hermitian input is not Hermitian: H and H^dagger differ by {deviation:.3g} "
        "in a coefficient")


def _build_text(subject, example):
    if subject == "taylor_bosonic":
        seed, n, k, order, is_local = example
        return (f"coeffs, freqs, uloc = taylor({seed}, {n}, {k}, {order}, {is_local})\n"
                f"operator = qml.qchem.taylor_bosonic(coeffs, freqs, is_local={is_local}, uloc=uloc)\n"
                "inputs = coeffs\n")
    seed, n, m, order, _ = example
    return (f"h = integrals({seed}, {n}, {m}, {order})  # real and bra/ket symmetric: Hermitian\n"
            f"operator = qml.qchem.christiansen_bosonic(one=h[0], two=h[1] if len(h) > 1 else None, "
            "three=h[2] if len(h) > 2 else None)\n"
            "inputs = h\n")


def _reproduce_hermitian(subject, example):
    return _header() + _build_text(subject, example) + (
        "words = canonical(operator)\n"
        "adjoint = {(minus, plus): complex(c).conjugate() for (plus, minus), c in words.items()}\n"
        "deviation = difference(words, adjoint)\n"
        "assert deviation < 1e-12 * max([np.max(np.abs(a)) for a in inputs] + [1.0]), (\n"
        "    f'the Hamiltonian is not Hermitian: H and H^dagger differ by {deviation}')\n")


def _describe_operator(subject, example):
    if subject == "taylor_bosonic":
        seed, n, k, order, is_local = example
        return f"taylor(seed={seed}, modes={n}, one-mode degrees={k}, couplings={order}, is_local={is_local})"
    seed, n, m, order, perm = example
    text = f"integrals(seed={seed}, n={n}, m={m}, order={order})"
    return text + (f", modes relabelled by {list(perm)}" if perm is not None else "")


# -- 7. the caller's arrays are not modified ------------------------------------------------------------
def _mutation_strategy(subject):
    if subject == "vscf_integrals":
        return _vscf_strategy()
    return _hermitian_strategy(subject)


def _mutation_inputs(subject, example):
    """(arrays the caller passes, call) for the subject."""
    function = _function(subject)
    if subject == "vscf_integrals":
        h, d, modals = _vscf_inputs(example)
        return h + (d or []), lambda: function(h, d, modals=modals)
    if subject == "taylor_bosonic":
        seed, n, k, order, is_local = example
        coeffs, freqs, uloc = taylor(seed, n, k, order, is_local)
        arrays = coeffs + [freqs] + ([uloc] if uloc is not None else [])
        return arrays, lambda: function(coeffs, freqs, is_local=is_local, uloc=uloc)
    seed, n, m, order, _ = example
    h = integrals(seed, n, m, order)
    return h, lambda: function(**_christiansen_args(h))


def _check_no_mutation(subject, example):
    arrays, call = _mutation_inputs(subject, example)
    copies = [np.array(a, copy=True) for a in arrays]
    call()
    changed = [i for i, (a, c) in enumerate(zip(arrays, copies)) if not np.array_equal(a, c)]
    assert not changed, f"{subject} modified the caller's input array(s) at position(s) {changed}"


def _reproduce_no_mutation(subject, example):
    if subject == "vscf_integrals":
        call = _vscf_call(example) + f"arrays = h + (d or [])\ncall = lambda: qml.qchem.{subject}(h, d, modals=modals)\n"
    elif subject == "taylor_bosonic":
        seed, n, k, order, is_local = example
        call = (f"coeffs, freqs, uloc = taylor({seed}, {n}, {k}, {order}, {is_local})\n"
                "arrays = coeffs + [freqs] + ([uloc] if uloc is not None else [])\n"
                f"call = lambda: qml.qchem.taylor_bosonic(coeffs, freqs, is_local={is_local}, uloc=uloc)\n")
    else:
        seed, n, m, order, _ = example
        call = (f"h = integrals({seed}, {n}, {m}, {order})\narrays = h\n"
                "call = lambda: qml.qchem.christiansen_bosonic(one=h[0], two=h[1] if len(h) > 1 else None, "
                "three=h[2] if len(h) > 2 else None)\n")
    return _header() + call + (
        "copies = [np.array(a, copy=True) for a in arrays]\n"
        "call()\n"
        "changed = [i for i, (a, c) in enumerate(zip(arrays, copies)) if not np.array_equal(a, c)]\n"
        "assert not changed, f'the call modified the input arrays at positions {changed}'\n")


def _describe_any(subject, example):
    return _describe_vscf(subject, example) if subject == "vscf_integrals" else _describe_operator(subject, example)


VSCF = _exported(["vscf_integrals"])

CONTRACTS = [
    Contract("pennylane.qchem.vibrational-vscf-shapes", FAMILY,
             "vscf_integrals returns Hamiltonian integrals of shapes (n, M, M), (n, n, M^4), (n, n, n, M^6) and "
             "dipole integrals of shapes (3, n, M, M), ... (one array per input array; None without dipoles), "
             "where M is the largest requested number of modals (the input's m by default), for any n and m",
             VSCF_DOC + " (Usage Details: integral shapes; `modals`: maximum number of modals per mode)",
             VSCF, lambda s: _vscf_strategy(), _check_shapes, _reproduce_shapes, _api, describe=_describe_vscf),
    Contract("pennylane.qchem.vibrational-vscf-basis-change", FAMILY,
             "with every modal kept, vscf_integrals only changes each mode's modal basis by an orthogonal "
             "rotation: every one-mode block (Hamiltonian and each dipole component) keeps its eigenvalues and "
             "every 2- and 3-mode block keeps its Frobenius norm",
             VSCF_DOC + "; quantum semantics: the VSCF modals are an orthonormal basis of each mode's modal space",
             VSCF, lambda s: _vscf_strategy(truncate=False), _check_basis_change, _reproduce_basis_change, _api,
             describe=_describe_vscf),
    Contract("pennylane.qchem.vibrational-vscf-dipole-components", FAMILY,
             "vscf_integrals transforms the three dipole components alike and to the Hamiltonian's VSCF basis: "
             "dipole components equal to (1, 2, -1) x the Hamiltonian integrals come back as (1, 2, -1) x the "
             "VSCF-basis Hamiltonian integrals",
             VSCF_DOC + " (both Hamiltonian and dipole integrals are returned 'in VSCF basis'; the first dipole "
             "axis is the x, y, z component); the transformation is linear in the integrals",
             VSCF, lambda s: _vscf_strategy(dipoles=False), _check_components, _reproduce_components, _api,
             describe=_describe_vscf),
    Contract("pennylane.qchem.vibrational-vscf-decoupled", FAMILY,
             "for modes without coupling (one-mode integrals only), the VSCF-basis one-mode integrals of each "
             "mode are diagonal, holding that mode's lowest eigenvalues in ascending order (up to the "
             "documented cutoff_ratio)",
             VSCF_DOC + " (docstring example: a one-mode input comes back diagonal with ascending eigenvalues); "
             "physics: for a separable Hamiltonian the VSCF modals are the eigenstates of each mode",
             VSCF, lambda s: _vscf_strategy(decoupled=True, dipoles=False), _check_decoupled,
             _reproduce_decoupled, _api, describe=_describe_vscf),
    Contract("pennylane.qchem.vibrational-mode-relabelling", FAMILY,
             "relabelling the vibrational modes consistently in every input (integrals, dipoles, modals) "
             "relabels the output the same way: vscf_integrals (uncoupled Hamiltonian, coupled dipoles) "
             "returns relabelled integrals, christiansen_bosonic (mode-symmetric integrals) the operator with "
             "each (mode, modal) register index moved to its new mode",
             "documentation: qml.qchem.vscf_integrals, qml.qchem.christiansen_bosonic (H = sum over modes i "
             "and mode pairs of C b^dagger b terms; one bosonic index per (mode, modal), mode by mode as in the "
             "docstring example); physics: mode labels carry no meaning",
             _exported(["vscf_integrals", "christiansen_bosonic"]), _relabel_strategy, _check_relabel,
             _reproduce_relabel, _api, describe=_describe_any),
    Contract("pennylane.qchem.vibrational-bosonic-hermitian", FAMILY,
             "the bosonic vibrational Hamiltonian is Hermitian: christiansen_bosonic of real integrals that are "
             "symmetric under exchanging bra and ket modals, and taylor_bosonic of real Taylor coefficients, "
             "positive frequencies and an orthogonal localization matrix, equal their adjoint",
             "documentation: qml.qchem.christiansen_bosonic (C are matrix elements of T + V between real "
             "modals), qml.qchem.taylor_bosonic (H = T + V with q = (b^dagger + b)/sqrt2, p Hermitian); "
             "quantum semantics: a Hamiltonian is Hermitian",
             _exported(["christiansen_bosonic", "taylor_bosonic"]), _hermitian_strategy, _check_hermitian,
             _reproduce_hermitian, _api, describe=_describe_operator),
    Contract("pennylane.qchem.vibrational-no-mutation", FAMILY,
             "the vibrational functions do not modify the caller's integral, coefficient, frequency or "
             "localization arrays",
             "documentation: the functions' Args are inputs and their Returns are new arrays/operators; "
             "nothing documents in-place modification",
             _exported(list(ALL_SUBJECTS)), _mutation_strategy, _check_no_mutation, _reproduce_no_mutation, _api,
             describe=_describe_any),
]
