"""Fermionic operators, PennyLane (qml.fermi): the fermion-to-qubit mappings the live release exports
represent the fermionic algebra on qubits as their docstrings state, and the fermionic operator
classes compute what their arithmetic names.

Subjects are found in the live release: the mappings of `qml.fermi` (jordan_wigner; parity_transform
and bravyi_kitaev from 0.35) and `qml.qchem.qubit_observable` once per mapping its docstring lists
(JW only before it had a `mapping` argument); the operator APIs (FermiC, FermiA, from_string,
FermiWord / FermiSentence arithmetic, `.adjoint()` from 0.40, `.to_mat()` from 0.37).

The independent oracle is numpy: the Jordan-Wigner matrices of the jordan_wigner docstring,
a_p = Z_0 ... Z_{p-1} (X_p + iY_p)/2 (so |1> is an occupied mode; wire 0 is the most significant
bit of a basis index, PennyLane's matrix convention), multiplied out in the word's order. The
parity and Bravyi-Kitaev mappings are the same algebra in another basis: their images are
U JW(op) U^T with U the permutation |n> -> |E n mod 2> of occupation vectors, E the parity
encoding (qubit j stores n_0 + ... + n_j, from the parity_transform docstring's formulas) or the
Bravyi-Kitaev (Fenwick tree) encoding (qubit j stores n_k for k from (j & (j+1)) to j: the update,
parity and remainder sets of arXiv:1812.02233 that the bravyi_kitaev docstring cites).

Inputs: 1-4 modes, FermiSentences of up to 3 words of length 1-4 with complex coefficients (hermitian
ones for qubit_observable, whose docstring takes an observable); ps=True/False, wire_map (a
permutation or string labels), tol.
"""

import functools
import inspect
import re

import numpy as np
from contract_runtime import Contract

# The numpy oracle shared by the checks and the reproducers (exec'd here, pasted there).
ORACLE = '''
def jw_ladder(p, n, create):
    """Jordan-Wigner image of a_p (or a_p^dagger) on n qubits, wire 0 most significant."""
    lower = np.array([[0, 1], [0, 0]], dtype=complex)  # (X + iY)/2: |1> (occupied) -> |0>
    factors = [np.diag([1.0, -1.0])] * p + [lower.T if create else lower] + [np.eye(2)] * (n - p - 1)
    out = np.eye(1, dtype=complex)
    for f in factors:
        out = np.kron(out, f)
    return out


def jw_matrix(terms, n):
    """sum_k c_k * (ladder operators of word k, multiplied in order); terms: [(c, [(orbital, '+'/'-')])]."""
    out = np.zeros((2 ** n, 2 ** n), dtype=complex)
    for coeff, word in terms:
        m = np.eye(2 ** n, dtype=complex)
        for orbital, sign in word:
            m = m @ jw_ladder(orbital, n, sign == "+")
        out += coeff * m
    return out


def encoding(kind, n):
    """Permutation matrix |occupations> -> |encoded bits> (jordan_wigner: identity; parity: qubit j
    holds n_0+...+n_j; bravyi_kitaev: qubit j holds n_k for k in [j & (j+1), j]), all mod 2."""
    u = np.zeros((2 ** n, 2 ** n))
    for index in range(2 ** n):
        occ = [(index >> (n - 1 - k)) & 1 for k in range(n)]
        if kind == "parity":
            bits = [sum(occ[: j + 1]) % 2 for j in range(n)]
        elif kind == "bravyi_kitaev":
            bits = [sum(occ[j & (j + 1): j + 1]) % 2 for j in range(n)]
        else:
            bits = occ
        u[int("".join(map(str, bits)), 2), index] = 1.0
    return u


def pauli_matrix(result, wires):
    """Matrix of a mapped operator on `wires` (in order): a PauliSentence evaluated term by term in
    numpy (an empty one is the zero operator), an Operator through qml.matrix."""
    if not isinstance(result, qml.pauli.PauliSentence):
        return np.asarray(qml.matrix(result, wire_order=wires), dtype=complex)
    paulis = {"I": np.eye(2), "X": np.array([[0, 1], [1, 0]]), "Y": np.array([[0, -1j], [1j, 0]]),
              "Z": np.diag([1.0, -1.0])}
    out = np.zeros((2 ** len(wires), 2 ** len(wires)), dtype=complex)
    for word, coeff in result.items():
        m = np.eye(1, dtype=complex)
        for w in wires:
            m = np.kron(m, paulis[dict(word.items()).get(w, "I")])
        out += coeff * m
    return out


def terms_of(op):
    """[(coefficient, [(orbital, sign)] in word order)] of a FermiWord or FermiSentence (read as the
    dicts they are documented to be: {(position, orbital): sign} and {FermiWord: coefficient})."""
    if isinstance(op, qml.fermi.FermiSentence):
        return [(complex(c), [(o, s) for (_, o), s in sorted(w.items())]) for w, c in op.items()]
    return [(1.0, [(o, s) for (_, o), s in sorted(op.items())])]
'''

_namespace = {}


def _oracle():
    """The oracle functions, with numpy and pennylane bound (pennylane only imports in the sandbox)."""
    if not _namespace:
        import pennylane as qml

        _namespace.update({"np": np, "qml": qml})
        exec(ORACLE, _namespace)  # noqa: S102 - our own oracle source, shared with the reproducers
    return _namespace


# Tolerance: coefficients are O(1) and words at most 4 ladder operators (norm <= 1 each), so every
# entry is a sum of a few products of O(1) numbers: rounding stays below 1e-13; products of two
# mapped operators (homomorphism law) multiply up to 16x16 matrices of entries <= ~10.
ATOL = 1e-9
MAPPINGS = ("jordan_wigner", "parity_transform", "bravyi_kitaev")
ENCODING = {"jordan_wigner": "jordan_wigner", "parity_transform": "parity", "bravyi_kitaev": "bravyi_kitaev",
            "parity": "parity"}
QO_MAPPINGS = ("jordan_wigner", "parity", "bravyi_kitaev")


# -- subjects: the live release's mappings ------------------------------------------------------------
@functools.lru_cache(maxsize=None)  # noqa: UP033 (older targets run Python 3.8)
def _mappings():
    """subject -> (callable, encoding kind, whether it takes n, its parameters)."""
    import pennylane as qml

    found = {}
    for name in MAPPINGS:
        fn = getattr(qml.fermi, name, None)
        if callable(fn):
            params = tuple(inspect.signature(fn).parameters)
            found[name] = (fn, ENCODING[name], "n" in params, params)
    qo = getattr(getattr(qml, "qchem", None), "qubit_observable", None)
    if callable(qo):
        params = tuple(inspect.signature(qo).parameters)
        if "mapping" in params:
            doc = qo.__doc__ or ""
            for kind in QO_MAPPINGS:
                if re.search(rf"['`]{kind}['`]", doc):
                    found[f"qubit_observable:{kind}"] = (qo, ENCODING[kind], False, params)
        else:
            found["qubit_observable"] = (qo, "jordan_wigner", False, params)
    return found


def _mapping_subjects():
    import pennylane as qml

    qml.fermi.FermiWord  # noqa: B018 - a release without qml.fermi has no subjects (AttributeError)
    return sorted(_mappings())


def _option_subjects():
    return [s for s in _mapping_subjects() if not s.startswith("qubit_observable")]


def _mapping_api(subject):
    if subject.startswith("qubit_observable"):
        return "pennylane.qchem.qubit_observable"
    return f"pennylane.fermi.{subject}"


def _call_source(subject, op_src, n, **options):
    """The source of one mapping call (the checks eval it, the reproducers print it)."""
    fn_name = "qml.qchem.qubit_observable" if subject.startswith("qubit_observable") else f"qml.fermi.{subject}"
    args = [op_src]
    if _mappings()[subject][2]:
        args.append(f"n={n}")
    if ":" in subject:
        args.append(f"mapping={subject.split(':')[1]!r}")
    args += [f"{k}={v!r}" for k, v in options.items() if v is not None and v is not False]
    return f"{fn_name}({', '.join(args)})"


# -- operators ---------------------------------------------------------------------------------------------
def _sentence_src(terms):
    """Source of a FermiSentence (dicts of the documented constructor form) with these terms."""
    words = ", ".join(f"qml.fermi.FermiWord({ {(i, o): s for i, (o, s) in enumerate(w)}!r}): {c!r}"
                      for c, w in terms)
    return f"qml.fermi.FermiSentence({{{words}}})"


def _build(src):
    import pennylane as qml

    return eval(src, {"qml": qml, "np": np})


COEFFS = [1.0, -1.0, 0.5j, 1 + 1j, -0.25 + 2j, 2.0]


def _terms(draw, n, hermitian, max_words=3):
    from hypothesis import strategies as st

    words = {}
    for _ in range(draw(st.integers(1, max_words))):
        length = draw(st.integers(1, 4))
        word = tuple((draw(st.integers(0, n - 1)), draw(st.sampled_from("+-"))) for _ in range(length))
        coeff = draw(st.one_of(st.sampled_from(COEFFS),
                               st.builds(complex, st.floats(-2, 2), st.floats(-2, 2))))
        coeff = complex(round(coeff.real, 6), round(coeff.imag, 6))
        adj = tuple((o, "-" if s == "+" else "+") for o, s in reversed(word))
        if hermitian and adj == word:
            coeff = complex(coeff.real)  # a self-adjoint word: a real coefficient keeps it an observable
        words[word] = words.get(word, 0) + coeff
        if hermitian and adj != word:  # add the adjoint term: the sentence is an observable
            words[adj] = words.get(adj, 0) + coeff.conjugate()
    if hermitian:
        # qubit_observable takes its qubit count from the modes the operator names (len(o_ferm.wires)):
        # an observable that names every mode 0..n-1 (a weighted number operator) is one on n modes
        for p in range(n):
            number = ((p, "+"), (p, "-"))
            words[number] = words.get(number, 0) + draw(st.sampled_from([0.5, -1.0, 1.25]))
    return tuple((c, w) for w, c in words.items())


def _merged(terms):
    """The terms with equal words summed (a dict literal would keep only the last)."""
    words = {}
    for c, w in terms:
        words[w] = words.get(w, 0) + c
    return tuple((c, w) for w, c in words.items())


def _adjoint_terms(terms):
    return tuple((complex(c).conjugate(), tuple((o, "-" if s == "+" else "+") for o, s in reversed(w)))
                 for c, w in terms)


# -- law: the mapping equals the documented encoding --------------------------------------------------------
def _encoding_strategy(subject):
    from hypothesis import strategies as st

    @st.composite
    def example(draw):
        n = draw(st.integers(1, 4))
        terms = _terms(draw, n, subject.startswith("qubit_observable"))
        if not subject.startswith("qubit_observable") and draw(st.booleans()):
            terms = ((1.0, terms[0][1]),)  # passed as a FermiWord (its own dispatch path)
        ps = draw(st.booleans()) if "ps" in _mappings()[subject][3] else False
        return (n, terms, ps)

    return example()


def _encoding_expected(subject, n, terms):
    o = _oracle()
    u = o["encoding"](_mappings()[subject][1], n)
    return u @ o["jw_matrix"](terms, n) @ u.T


def _operator_src(terms):
    """A single word of coefficient 1 as a FermiWord, anything else as a FermiSentence."""
    if len(terms) == 1 and terms[0][0] == 1.0:
        return _word_src(terms[0][1])
    return _sentence_src(terms)


def _encoding_check(subject, example):
    n, terms, ps = example
    o = _oracle()
    call = _call_source(subject, _operator_src(terms), n, ps=ps)
    actual = o["pauli_matrix"](_build(call), list(range(n)))
    want = _encoding_expected(subject, n, terms)
    err = float(np.max(np.abs(actual - want)))
    assert err <= ATOL, (f"{call} on {n} qubit(s) differs from the documented {_mappings()[subject][1]} encoding "
                         f"by {err:.3g} (max entry)")


def _header(subject):
    return ["import numpy as np", "import pennylane as qml", "", ORACLE.strip(), ""]


def _encoding_reproduce(subject, example):
    n, terms, ps = example
    kind = _mappings()[subject][1]
    call = _call_source(subject, _operator_src(terms), n, ps=ps)
    lines = _header(subject) + [
        f"n = {n}",
        f"terms = {[(c, list(w)) for c, w in terms]!r}",
        f"result = {call}",
        "actual = pauli_matrix(result, list(range(n)))",
        f"# the docstring's mapping: Jordan-Wigner a_p = Z_0..Z_(p-1) (X_p + iY_p)/2, in the {kind} basis",
        f"u = encoding({kind!r}, n)",
        "expected = u @ jw_matrix(terms, n) @ u.T",
        "err = np.max(np.abs(actual - expected))",
        f"assert err <= {ATOL}, f'{subject} is not the documented {kind} mapping: max entry error {{err}}'",
    ]
    return "\n".join(lines) + "\n"


# -- law: the mapping is an algebra homomorphism --------------------------------------------------------------
def _homomorphism_strategy(subject):
    from hypothesis import strategies as st

    observable = subject.startswith("qubit_observable")

    @st.composite
    def example(draw):
        n = draw(st.integers(1, 4))
        a = _terms(draw, n, observable, max_words=2)
        b = _terms(draw, n, observable, max_words=2)
        scalar = draw(st.sampled_from([2.0, -0.5, 1.5]) if observable else st.sampled_from([2.0, -0.5j, 1 + 1j]))
        return (n, a, b, scalar)

    return example()


def _homomorphism_cases(subject, a, b, scalar):
    """(name, fermionic terms built by hand, how its image follows from the images A, B)."""
    product = tuple((ca * cb, wa + wb) for ca, wa in a for cb, wb in b)
    cases = [("a + b", _merged(a + b), "A + B"), ("c * a", tuple((scalar * c, w) for c, w in a), "c * A")]
    if subject.startswith("qubit_observable"):
        # an observable in, an observable out: the anticommutator ab + ba of two observables is one
        reverse = tuple((cb * ca, wb + wa) for ca, wa in a for cb, wb in b)
        cases.append(("a b + b a", _merged(product + reverse), "A @ B + B @ A"))
    else:
        cases += [("a b", _merged(product), "A @ B"), ("a^dagger", _adjoint_terms(a), "A.conj().T")]
    return cases


def _image(subject, terms, n):
    return _oracle()["pauli_matrix"](_build(_call_source(subject, _sentence_src(terms), n)), list(range(n)))


def _homomorphism_check(subject, example):
    n, a, b, scalar = example
    images = {"A": _image(subject, a, n), "B": _image(subject, b, n), "c": scalar}
    for name, terms, rule in _homomorphism_cases(subject, a, b, scalar):
        want = eval(rule, {}, images)
        got = _image(subject, terms, n)
        scale = 1.0 + float(np.max(np.abs(want)))
        err = float(np.max(np.abs(got - want)))
        assert err <= ATOL * scale, (f"{_mapping_api(subject)} on {n} mode(s): map({name}) != {rule} "
                                     f"(A = map(a), B = map(b)); max entry error {err:.3g}")


def _homomorphism_reproduce(subject, example):
    n, a, b, scalar = example
    lines = ["import numpy as np", "import pennylane as qml", "", ORACLE.strip(), "",
             f"n = {n}", "wires = list(range(n))", f"c = {scalar!r}",
             f"A = pauli_matrix({_call_source(subject, _sentence_src(a), n)}, wires)",
             f"B = pauli_matrix({_call_source(subject, _sentence_src(b), n)}, wires)"]
    for name, terms, rule in _homomorphism_cases(subject, a, b, scalar):
        lines += [f"# {name}, written out as one fermionic operator",
                  f"got = pauli_matrix({_call_source(subject, _sentence_src(terms), n)}, wires)",
                  f"want = {rule}",
                  "err = np.max(np.abs(got - want))",
                  (f"assert err <= {ATOL} * (1 + np.max(np.abs(want))), "
                  f"f'map({name}) != {rule}: max entry error {{err}}'")]
    return "\n".join(lines) + "\n"


# -- law: the images of ladder operators satisfy the canonical anticommutation relations --------------------
def _car_strategy(subject):
    from hypothesis import strategies as st

    ps_ok = "ps" in _mappings()[subject][3]
    return st.tuples(st.integers(1, 4), st.booleans() if ps_ok else st.just(False))


def _car_source(subject, n, ps):
    return [f"n = {n}", "wires = list(range(n))",
            f"a = [pauli_matrix({_call_source(subject, 'qml.fermi.FermiA(p)', n, ps=ps)}, wires) for p in range(n)]",
            f"ad = [pauli_matrix({_call_source(subject, 'qml.fermi.FermiC(p)', n, ps=ps)}, wires) for p in range(n)]",
            "identity = np.eye(2 ** n)",
            "for p in range(n):",
            f"    assert np.allclose(ad[p], a[p].conj().T, atol={ATOL}), f'image of a_{{p}}^dagger is not the adjoint of a_{{p}}'",
            "    for q in range(n):",
            (f"        assert np.allclose(a[p] @ ad[q] + ad[q] @ a[p], identity * (p == q), atol={ATOL}), "
            "f'{{a_{p}, a_{q}^dagger}} != delta_pq'"),
            (f"        assert np.allclose(a[p] @ a[q] + a[q] @ a[p], 0, atol={ATOL}), "
            "f'{{a_{p}, a_{q}}} != 0'")]


def _car_check(subject, example):
    n, ps = example
    scope = {"np": np, "qml": _oracle()["qml"], "pauli_matrix": _oracle()["pauli_matrix"]}
    try:
        exec("\n".join(_car_source(subject, n, ps)), scope)  # noqa: S102 - the reproducer's own statements
    except AssertionError as exc:
        raise AssertionError(f"{_mapping_api(subject)} on {n} mode(s), ps={ps}: {exc}") from None


def _car_reproduce(subject, example):
    n, ps = example
    return "\n".join(["import numpy as np", "import pennylane as qml", "", ORACLE.strip(), ""]
                     + _car_source(subject, n, ps)) + "\n"


# -- law: the documented options give the same operator -------------------------------------------------------
def _options_strategy(subject):
    from hypothesis import strategies as st

    @st.composite
    def example(draw):
        n = draw(st.integers(1, 4))
        terms = _terms(draw, n, False)
        labels = draw(st.sampled_from(["permutation", "strings", "shifted"]))
        perm = draw(st.permutations(list(range(n))))
        if labels == "strings":
            wire_map = {i: "abcd"[perm[i]] for i in range(n)}
        elif labels == "shifted":
            wire_map = {i: perm[i] + 10 for i in range(n)}
        else:
            wire_map = {i: perm[i] for i in range(n)}
        tol = draw(st.sampled_from([None, 1e-12, 1e-8]))
        return (n, terms, draw(st.booleans()), wire_map, tol)

    return example()


def _options_check(subject, example):
    n, terms, ps, wire_map, tol = example
    o = _oracle()
    op = _sentence_src(terms)
    plain = o["pauli_matrix"](_build(_call_source(subject, op, n)), list(range(n)))
    call = _call_source(subject, op, n, ps=ps, wire_map=wire_map, tol=tol)
    actual = o["pauli_matrix"](_build(call), [wire_map[i] for i in range(n)])
    # tol drops imaginary parts (and terms) below tol: at most 4^n Pauli terms each moved by <= tol
    bound = ATOL + (4 ** n) * (tol or 0.0)
    err = float(np.max(np.abs(actual - plain)))
    assert err <= bound, (f"{call} on wires {[wire_map[i] for i in range(n)]} is not the operator "
                          f"{_call_source(subject, op, n)} relabelled: max entry error {err:.3g}")


def _options_reproduce(subject, example):
    n, terms, ps, wire_map, tol = example
    op = _sentence_src(terms)
    bound = ATOL + (4 ** n) * (tol or 0.0)
    lines = ["import numpy as np", "import pennylane as qml", "", ORACLE.strip(), "",
             f"n = {n}", f"wire_map = {wire_map!r}",
             f"plain = pauli_matrix({_call_source(subject, op, n)}, list(range(n)))",
             (f"mapped = pauli_matrix({_call_source(subject, op, n, ps=ps, wire_map=wire_map, tol=tol)}, "
             "[wire_map[i] for i in range(n)])"),
             "# ps, wire_map and tol change the output type, the wire labels and (by at most tol) the coefficients",
             "err = np.max(np.abs(mapped - plain))",
             f"assert err <= {bound!r}, f'options change the operator: max entry error {{err}}'"]
    return "\n".join(lines) + "\n"


# -- law: fermionic operator arithmetic and constructors -------------------------------------------------------
# subject -> (attribute that must exist, python expression over a, b, c, producing the library's result,
#             numpy rule over the oracle matrices A, B and c)
ALGEBRA = {
    "FermiSentence.__add__": ("FermiSentence.__add__", "a + b", "A + B"),
    "FermiSentence.__sub__": ("FermiSentence.__sub__", "a - b", "A - B"),
    "FermiSentence.__mul__": ("FermiSentence.__mul__", "a * b", "A @ B"),
    "FermiSentence.__rmul__": ("FermiSentence.__rmul__", "c * a", "c * A"),
    "FermiWord.__mul__": ("FermiWord.__mul__", "wa * wb", "WA @ WB"),
    "FermiWord.__add__": ("FermiWord.__add__", "wa + wb", "WA + WB"),
    "FermiWord.__sub__": ("FermiWord.__sub__", "wa - wb", "WA - WB"),
    "FermiWord.__pow__": ("FermiWord.__pow__", "wa ** 3", "WA @ WA @ WA"),
    # a constant is c times the identity (the __add__ docstrings: "Add a ... constant")
    "FermiSentence.__radd__": ("FermiSentence.__radd__", "c + a", "c * np.eye(2 ** n) + A"),
    "FermiWord.__rsub__": ("FermiWord.__rsub__", "c - wa", "c * np.eye(2 ** n) - WA"),
    "FermiSentence.adjoint": ("FermiSentence.adjoint", "a.adjoint()", "A.conj().T"),
    "FermiWord.adjoint": ("FermiWord.adjoint", "wa.adjoint()", "WA.conj().T"),
    "FermiSentence.to_mat": ("FermiSentence.to_mat", "a.to_mat(n)", None),
    "FermiWord.to_mat": ("FermiWord.to_mat", "wa.to_mat(n)", None),
    "from_string": ("from_string", None, "WA"),
    "FermiC": ("FermiC", "qml.fermi.FermiC(p)", "ladder(p, True)"),
    "FermiA": ("FermiA", "qml.fermi.FermiA(p)", "ladder(p, False)"),
}


def _algebra_subjects():
    import pennylane as qml

    found = []
    for subject, (attr, _, _) in ALGEBRA.items():
        obj = qml.fermi
        for part in attr.split("."):
            obj = getattr(obj, part, None)
        if obj is not None:
            found.append(subject)
    return found


def _algebra_api(subject):
    return f"pennylane.fermi.{subject}"


def _algebra_strategy(subject):
    from hypothesis import strategies as st

    _, expr, rule = ALGEBRA[subject]
    # only the operands the subject uses are drawn (the others stay fixed): shorter shrinks
    used = set(re.findall(r"\b(a|b|wa|wb|WA|WB|A|B|p)\b", f"{expr} {rule}".replace("from_string", "wa")))
    fixed_terms, fixed_word = ((1.0, ((0, "+"),)),), ((0, "-"),)

    @st.composite
    def example(draw):
        n = draw(st.integers(1, 4))
        a = _terms(draw, n, False) if used & {"a", "A"} else fixed_terms
        b = _terms(draw, n, False) if used & {"b", "B"} else fixed_terms
        wa = _terms(draw, n, False, max_words=1)[0][1] if used & {"wa", "WA"} or subject == "from_string" else fixed_word
        wb = _terms(draw, n, False, max_words=1)[0][1] if used & {"wb", "WB"} else fixed_word
        c = draw(st.sampled_from([2.0, -0.5j, 1 + 1j, 3]))
        p = draw(st.integers(0, n - 1))
        style = draw(st.sampled_from(["+-", "+", "^"])) if subject == "from_string" else "+-"  # documented forms
        return (n, a, b, wa, wb, c, p, style)

    return example()


def _string_of(word, style):
    if style == "^":
        return " ".join(f"{o}^" if s == "+" else f"{o}" for o, s in word)
    if style == "+":
        return " ".join(f"{o}+" if s == "+" else f"{o}" for o, s in word)
    return " ".join(f"{o}{s}" for o, s in word)


def _word_src(word):
    return f"qml.fermi.FermiWord({ {(i, o): s for i, (o, s) in enumerate(word)}!r})"


def _algebra_source(subject, example):
    """The reproducer's statements after the oracle: build operands, call the API, compare."""
    n, a, b, wa, wb, c, p, style = example
    _, expr, rule = ALGEBRA[subject]
    lines = [f"n = {n}", f"p = {p}", f"c = {c!r}",
             f"a = {_sentence_src(a)}", f"b = {_sentence_src(b)}",
             f"wa = {_word_src(wa)}", f"wb = {_word_src(wb)}",
             "ladder = lambda q, create: jw_ladder(q, n, create)",
             "A, B = jw_matrix(terms_of(a), n), jw_matrix(terms_of(b), n)",
             "WA, WB = jw_matrix(terms_of(wa), n), jw_matrix(terms_of(wb), n)"]
    if subject == "from_string":
        lines += [f"result = qml.fermi.from_string({_string_of(wa, style)!r})",
                  "assert result == wa, f'from_string gave {result!r}, the docstring form is {wa!r}'",
                  "got = jw_matrix(terms_of(result), n)"]
    elif subject.endswith("to_mat"):
        which = "wa" if subject.startswith("FermiWord") else "a"
        lines += [f"got = np.asarray({expr})",
                  "# the matrix of the docstring's example: Jordan-Wigner, wire 0 most significant",
                  f"want = jw_matrix(terms_of({which}), n)"]
    else:
        lines += [f"result = {expr}", "got = jw_matrix(terms_of(result), n)"]
    if rule is not None:
        lines.append(f"want = {rule}")
    lines += ["err = np.max(np.abs(got - want)) if got.shape == want.shape else float('inf')",
              (f"assert err <= {ATOL} * (1 + np.max(np.abs(want))), "
              f"f'{subject}: the operator is not {rule or 'the Jordan-Wigner matrix'} (max entry error {{err}})'")]
    return lines


def _algebra_check(subject, example):
    o = _oracle()
    scope = dict(o)
    try:
        exec("\n".join(_algebra_source(subject, example)), scope)  # noqa: S102 - the reproducer's own statements
    except AssertionError as exc:
        raise AssertionError(f"{subject} on {example[0]} mode(s): {exc}") from None


def _algebra_reproduce(subject, example):
    return "\n".join(["import numpy as np", "import pennylane as qml", "", ORACLE.strip(), ""]
                     + _algebra_source(subject, example)) + "\n"


FAMILY = "fermionic operators"
DOC = ("documentation: pennylane.fermi.jordan_wigner, parity_transform, bravyi_kitaev (formulas for a_p, "
       "a_p^dagger; ps, wire_map, tol), pennylane.qchem.qubit_observable (mapping), FermiWord / FermiSentence "
       "(dict forms, arithmetic, adjoint, to_mat example), from_string (string forms); Seeley, Richard & Love, "
       "J. Chem. Phys. 137, 224109 (2012) and arXiv:1812.02233 for the Bravyi-Kitaev sets")

CONTRACTS = [
    Contract("pennylane.fermi.mapping-matches-documented-encoding", FAMILY,
             "a fermion-to-qubit mapping of the release maps every fermionic operator (1-4 modes, words of length "
             "<= 4, complex coefficients) to U JW(op) U^T: JW the docstring's Jordan-Wigner matrices "
             "(a_p = Z_0..Z_(p-1) (X_p + iY_p)/2), U the identity, parity or Bravyi-Kitaev basis change; "
             "in particular a_p^dagger a_p is diagonal with the occupation of mode p under Jordan-Wigner, "
             "and all three have the same spectrum",
             DOC, _mapping_subjects, _encoding_strategy, _encoding_check, _encoding_reproduce, _mapping_api),
    Contract("pennylane.fermi.mapping-is-algebra-homomorphism", FAMILY,
             "a fermion-to-qubit mapping is an algebra homomorphism on n qubits: map(a + b) = map(a) + map(b), "
             "map(c a) = c map(a), map(a b) = map(a) map(b), map(a^dagger) = map(a)^dagger (for qubit_observable, "
             "on observables: sums, real multiples and ab + ba)",
             DOC, _mapping_subjects, _homomorphism_strategy, _homomorphism_check, _homomorphism_reproduce,
             _mapping_api),
    Contract("pennylane.fermi.ladder-images-satisfy-car", FAMILY,
             "the images of a_p and a_p^dagger under a fermion-to-qubit mapping satisfy the canonical "
             "anticommutation relations {a_p, a_q^dagger} = delta_pq, {a_p, a_q} = 0, and map(a_p^dagger) = "
             "map(a_p)^dagger, on 1-4 modes",
             DOC, _option_subjects, _car_strategy, _car_check, _car_reproduce, _mapping_api),
    Contract("pennylane.fermi.mapping-options-agree", FAMILY,
             "the documented options of a fermion-to-qubit mapping give the same operator: ps=True (a "
             "PauliSentence) and ps=False (an Operator), wire_map (the same operator on relabelled wires) and "
             "tol (coefficients moved by at most tol)",
             DOC, _option_subjects, _options_strategy, _options_check, _options_reproduce, _mapping_api),
    Contract("pennylane.fermi.operator-algebra-matches-numpy", FAMILY,
             "FermiWord / FermiSentence arithmetic (+, -, *, scalar *, **), .adjoint(), .to_mat(n), from_string "
             "(all documented string forms) and FermiC / FermiA give the operator their names say, judged by the "
             "numpy Jordan-Wigner matrices of operands and result",
             DOC, _algebra_subjects, _algebra_strategy, _algebra_check, _algebra_reproduce, _algebra_api),
]
