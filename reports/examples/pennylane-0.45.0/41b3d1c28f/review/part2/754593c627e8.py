import itertools
import numpy as np
import pennylane as qml

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

h = integrals(0, 4, 1, 1, full=False)
d = dipole(0, 4, 1, 1, full=False)
modals = None
h_out, d_out = qml.qchem.vscf_integrals(h, d)
# with all modals kept, each mode's modals are rotated by an orthogonal matrix:
# every one-mode block keeps its eigenvalues, every coupled block its Frobenius norm
def invariants(arrays, components):
    found = []
    for k, a in enumerate(arrays):
        a = np.asarray(a)
        for block in ([a[c] for c in range(3)] if components else [a]):
            if k == 0:
                found.append(np.array([np.linalg.eigvalsh((b + b.T) / 2) for b in block]))
            else:
                found.append(np.array([np.linalg.norm(block[i]) for i in itertools.product(range(block.shape[0]), repeat=k + 1)]))
    return found
before = invariants(h, False) + (invariants(d, True) if d is not None else [])
after = invariants(h_out, False) + (invariants(d_out, True) if d_out is not None else [])
deviation = max(np.max(np.abs(x - y)) if x.shape == y.shape else np.inf for x, y in zip(before, after))
tolerance = 1e-9 * max([np.max(np.abs(a)) for a in h + (d or [])] + [1.0])
assert deviation < tolerance, f'a spectrum or block norm changed by {deviation}'
