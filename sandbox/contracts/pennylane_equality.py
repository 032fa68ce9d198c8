"""qml.equal is complete for the re-expressions PennyLane documents as the same operator.

The law `pennylane.query.equal` (pennylane_operations) checks qml.equal on operators built from
the *same* arguments, and its soundness against matrices. This family is its complement: for
pairs of operators built *differently* that a release's documentation says are the same
operator, `qml.equal(a, b)`, `qml.equal(b, a)` and `a == b` (Operator.__eq__ is qml.equal since
PennyLane 0.33) return True -- and, as an independent check that the pair really is one
operator, the two matrices (qml.matrix on the union of the wires) agree. The converse subject
states the sanity side: a re-expression perturbed so that the matrices differ compares unequal.

One subject per documented kind of re-expression; inside a subject hypothesis draws the
operators from the live library's classes (pennylane_operations' discovery: every exported
Operator subclass constructible from scalar angles and wires).

Which re-expressions are included, and why (the docs of each release tested):
- wires as a list, a tuple, a `qml.wires.Wires` or (one wire) a bare label: Operator's `wires`
  argument is documented as "Iterable[Any] or Any" / Wires, converted to Wires.
- integer vs float data: qml.equal compares parameters by value ("rtol/atol: tolerance for
  parameters"); Python ints and floats share the numpy interface (check_interface).
- parameters closer than the given atol (rtol=0): qml.equal's own docstring example
  (tape1/tape2, atol=1e-5).
- Prod factor order for factors on disjoint wires: docstring example `X(0) @ Y(1)` vs
  `Y(1) @ X(0)` (0.33: the same with Tensor).
- Pauli-sum term order and factor order inside a term: docstring example H1 == H2 (Hamiltonian
  terms matched regardless of how they are written).
- like terms split in two halves, an Identity factor on a fresh wire: docstring example H1 == H2
  exactly (0.5 Z(0)@Y(1) + 0.5 Y(1)@Z(0)@Identity("a") == 1 Z(0)@Y(1)).
- control wires permuted together with their control values: release notes 0.34 ("qml.equal for
  Controlled operators no longer returns False when equivalent but differently-ordered sets of
  control wires and control values are compared", #4944); owed from 0.34 on (DOCUMENTED_SINCE).
- control_values omitted vs given as all True: Controlled docs ("Defaults to True for all
  control wires"); qml.ctrl returns a Controlled.
Second law (`pennylane.robust.hash-agrees-with-eq`): on the same pairs (except parameter-tolerance and
converse) and on pairs of measurement processes and Wires objects, whenever the release's `==` says
True the hashes agree (Python data model, object.__hash__), so sets and dicts behave.

Not included (no release documents them as equal): adjoint(adjoint(op)) vs op, s_prod(1, op)
vs op, Sum term order for non-Pauli terms, explicit keyword defaults of arbitrary classes.
"""

import numpy as np
from contract_runtime import Contract, angles

from contracts import pennylane_operations as ops

HEADER = "import numpy as np\nimport pennylane as qml\n\n"
WIRES = [0, 1, 2, 3, 4]            # register of products and controlled operators
LABELS = [0, 1, 2, "a", "b", 7]    # wire labels for the wire-container subject
PAULIS = ["PauliX", "PauliY", "PauliZ"]
MATRIX_TOL = 1e-8                  # the pair must be one operator: matrices agree to rounding
DIFFERENT = 1e-6                   # converse: matrices this far apart are different operators
TOLERANCES = [1e-3, 1e-5, 1e-7]

SOURCE_EQUAL = ("documentation: qml.equal (docstring examples); release notes 0.33 ('Using == with operators ... "
                "will now behave the same as qml.equal', #4536)")
SOURCES = {
    "wires-container": "documentation: Operator (wires: 'Iterable[Any] or Any'), qml.wires.Wires; qml.equal",
    "integer-data": "documentation: qml.equal (parameters compared by value, rtol/atol; check_interface), "
                    "qml.math.get_interface",
    "parameter-tolerance": "documentation: qml.equal (rtol/atol; example tape1/tape2 with atol=1e-5 is True)",
    "prod-factor-order": "documentation: qml.equal example (X(0) @ Y(1) equals Y(1) @ X(0))",
    "pauli-sum-term-order": "documentation: qml.equal example (Hamiltonians H1 == H2: Pauli terms matched "
                            "however written)",
    "hamiltonian-like-terms": "documentation: qml.equal example (0.5 Z(0)@Y(1) + 0.5 Y(1)@Z(0)@Identity('a') "
                              "equals 1 Z(0)@Y(1))",
    "ctrl-control-order": "release notes 0.34 ('qml.equal for Controlled operators no longer returns False "
                          "when equivalent but differently-ordered sets of control wires and control values are "
                          "compared', #4944; owed from 0.34 on); qml.ctrl, Controlled",
    "control-values-default": "documentation: Controlled (control_values 'Defaults to True for all control "
                              "wires'); qml.ctrl",
    "converse": "documentation: qml.equal ('True if the operators ... are equal'); quantum semantics "
                "(different matrices are different operators)",
}
SUBJECTS = list(SOURCES)


# -- operator pools (from the live library) ------------------------------------------------------
def _small_kinds():
    """Classes with a matrix, constructible from angles on at most 3 wires."""
    return {n: k for n, k in ops._gate_kinds().items() if min(k.wire_counts) <= 3}


def _leaf_kinds(max_width=2):
    """Qubit gates usable as factors / controlled bases, on at most max_width wires."""
    return {n: k for n, k in ops._pool_kinds().items() if any(c <= max_width for c in k.wire_counts)}


def _fmt(x):
    return repr(float(x))


def _gate_text(name, arguments, wires_text):
    inside = ", ".join([a if isinstance(a, str) else _fmt(a) for a in arguments] + [f"wires={wires_text}"])
    return f"{ops._all_kinds()[name].qualified}({inside})"


def _leaf_text(leaf):
    name, arguments, wires = leaf
    return _gate_text(name, arguments, repr(list(wires)))


def _leaf_spec(kinds, max_width):
    """(name, angles, width) of one gate."""
    from hypothesis import strategies as st

    def spec(name):
        kind = kinds[name]
        return st.tuples(st.just(name), st.tuples(*[angles() for _ in range(kind.num_angles)]),
                         st.sampled_from([c for c in kind.wire_counts if c <= max_width]))

    return st.sampled_from(sorted(kinds)).flatmap(spec)


def _place(specs, wires):
    """Give each (name, angles, width) its own wires from `wires`, in turn; drop what does not fit."""
    placed, free = [], list(wires)
    for name, arguments, width in specs:
        if width <= len(free):
            placed.append((name, arguments, tuple(free[:width])))
            free = free[width:]
    return placed, free


def _gate_strategy(kinds):
    """(name, angles, number of wires) of one class."""
    from hypothesis import strategies as st

    def spec(name):
        kind = kinds[name]
        return st.tuples(st.just(name), st.tuples(*[angles() for _ in range(kind.num_angles)]),
                         st.sampled_from([c for c in kind.wire_counts if c <= 3]))

    return st.sampled_from(sorted(kinds)).flatmap(spec)


def _pauli_word_strategy():
    """A Pauli word on wires 0..2: sorted tuple of (wire, Pauli name), at least one factor."""
    from hypothesis import strategies as st

    return st.dictionaries(st.sampled_from([0, 1, 2]), st.sampled_from(PAULIS), min_size=1, max_size=3).map(
        lambda d: tuple(sorted(d.items())))


def _word_text(word, order=None, identity=False):
    factors = [f"qml.{p}({w!r})" for w, p in word]
    if order is not None:
        factors = [factors[i % len(factors)] for i in order if i < len(factors)]
    if identity:
        factors.append("qml.Identity('a')")
    return factors[0] if len(factors) == 1 else " @ ".join(factors)


def _coefficient():
    from hypothesis import strategies as st

    return st.integers(-8, 8).filter(lambda k: k != 0).map(lambda k: k / 4)


# -- strategies: one per subject -----------------------------------------------------------------
def _strategy(subject):
    from hypothesis import strategies as st

    if subject == "wires-container":
        forms = ["list", "tuple", "Wires", "bare"]
        return _gate_strategy(_small_kinds()).flatmap(lambda g: st.tuples(
            st.just(g), st.permutations(LABELS).map(lambda p: tuple(p[:g[2]])),
            st.sampled_from(forms), st.sampled_from(forms)))
    if subject == "integer-data":
        kinds = {n: k for n, k in _small_kinds().items() if k.num_angles >= 1}
        return _gate_strategy(kinds).flatmap(lambda g: st.tuples(
            st.just(g), st.tuples(*[st.integers(-7, 7) for _ in range(len(g[1]))])))
    if subject == "parameter-tolerance":
        kinds = {n: k for n, k in _small_kinds().items() if k.num_angles >= 1}
        return _gate_strategy(kinds).flatmap(lambda g: st.tuples(
            st.just(g), st.sampled_from(TOLERANCES),
            st.tuples(*[st.floats(-0.45, 0.45) for _ in range(len(g[1]))])))
    if subject == "prod-factor-order":
        return st.tuples(st.lists(_leaf_spec(_leaf_kinds(), 2), min_size=2, max_size=3), st.permutations(WIRES),
                         st.permutations(range(3)), st.sampled_from(["qml.prod", "@"]))
    if subject == "pauli-sum-term-order":
        return st.tuples(st.lists(st.tuples(_coefficient(), _pauli_word_strategy()), min_size=2, max_size=4,
                                  unique_by=lambda t: t[1]),
                         st.permutations(range(4)), st.lists(st.permutations(range(3)), min_size=4, max_size=4),
                         st.sampled_from(["qml.Hamiltonian", "qml.sum"]))
    if subject == "hamiltonian-like-terms":
        return st.tuples(st.lists(st.tuples(_coefficient(), _pauli_word_strategy()), min_size=1, max_size=3,
                                  unique_by=lambda t: t[1]),
                         st.permutations(range(3)))
    if subject in ("ctrl-control-order", "control-values-default"):
        return st.tuples(_leaf_spec(_leaf_kinds(), 2), st.permutations(WIRES), st.integers(2, 3),
                         st.lists(st.booleans(), min_size=3, max_size=3), st.permutations(range(3)),
                         st.sampled_from(["qml.ctrl", "qml.ops.Controlled"]))
    if subject == "converse":
        return st.tuples(st.sampled_from(["controls permuted without their values", "factors reordered on shared wires",
                                          "angle changed", "wires reversed", "coefficient changed"]),
                         _leaf_spec(_leaf_kinds(), 2), _leaf_spec(_leaf_kinds(), 2), st.permutations(WIRES),
                         st.lists(st.booleans(), min_size=3, max_size=3), st.floats(1e-3, 1.0),
                         st.tuples(_coefficient(), _pauli_word_strategy()))
    raise KeyError(subject)


# -- the pair of each example: (first text, second text, equal's keyword text, must be equal) -------
def _wires_text(labels, form):
    labels = list(labels)
    if form == "tuple":
        return repr(tuple(labels))
    if form == "Wires":
        return f"qml.wires.Wires({labels!r})"
    if form == "bare" and len(labels) == 1:
        return repr(labels[0])
    return repr(labels)


def _controlled_text(form, base, controls, values):
    values_text = "" if values is None else f", control_values={list(values)!r}"
    return f"{form}({base}, {list(controls)!r}{values_text})"


def _pair(subject, example):
    if subject == "wires-container":
        (name, arguments, _), labels, form1, form2 = example
        return (_gate_text(name, arguments, _wires_text(labels, form1)),
                _gate_text(name, arguments, _wires_text(labels, form2)), "", True)
    if subject == "integer-data":
        (name, _, width), integers = example
        wires = repr(list(range(width)))
        return (_gate_text(name, [repr(int(k)) for k in integers], wires), _gate_text(name, integers, wires), "", True)
    if subject == "parameter-tolerance":
        (name, arguments, width), atol, fractions = example
        wires = repr(list(range(width)))
        moved = [a + f * atol for a, f in zip(arguments, fractions)]
        return (_gate_text(name, arguments, wires), _gate_text(name, moved, wires), f", rtol=0, atol={atol!r}", True)
    if subject == "prod-factor-order":
        specs, wires, order, form = example
        leaves, _ = _place(specs, wires)
        permuted = [leaves[i] for i in order if i < len(leaves)]
        texts = [[_leaf_text(leaf) for leaf in chosen] for chosen in (leaves, permuted)]
        if form == "@":
            return " @ ".join(texts[0]), " @ ".join(texts[1]), "", True
        return f"qml.prod({', '.join(texts[0])})", f"qml.prod({', '.join(texts[1])})", "", True
    if subject == "pauli-sum-term-order":
        terms, order, factor_orders, form = example
        permuted = [(terms[i], factor_orders[i]) for i in order if i < len(terms)]
        first = [(c, _word_text(w)) for c, w in terms]
        second = [(c, _word_text(w, o)) for (c, w), o in permuted]
        return _sum_text(form, first), _sum_text(form, second), "", True
    if subject == "hamiltonian-like-terms":
        terms, order = example
        (c, word), rest = terms[0], terms[1:]
        split = [(c / 2, _word_text(word)), (c / 2, _word_text(word, order, identity=True))]
        rest = [(k, _word_text(w)) for k, w in rest]
        return (_sum_text("qml.Hamiltonian", split + rest), _sum_text("qml.Hamiltonian", [(c, _word_text(word))] + rest),
                "", True)
    if subject in ("ctrl-control-order", "control-values-default"):
        spec, wires, count, values, order, form = example
        (leaf,), free = _place([spec], wires)
        controls, values = free[:count], values[:count]
        base = _leaf_text(leaf)
        if subject == "control-values-default":
            return (_controlled_text(form, base, controls, None),
                    _controlled_text(form, base, controls, [True] * count), "", True)
        permutation = [i for i in order if i < count]
        return (_controlled_text(form, base, controls, values),
                _controlled_text(form, base, [controls[i] for i in permutation], [values[i] for i in permutation]),
                "", True)
    if subject == "converse":
        variant, spec1, spec2, wires, values, delta, (c, word) = example
        (leaf1, leaf2), free = _place([spec1, spec2], wires)
        if variant == "controls permuted without their values":
            controls = free[:1] + [leaf2[2][0]]  # two controls, values kept in place: the mapping changes
            base, kept = _leaf_text(leaf1), [values[0], not values[0]]
            return (_controlled_text("qml.ctrl", base, controls, kept),
                    _controlled_text("qml.ctrl", base, controls[::-1], kept), "", False)
        if variant == "factors reordered on shared wires":
            shared = (leaf2[0], leaf2[1], tuple((list(leaf1[2]) + free)[:len(leaf2[2])]))  # shares leaf1's wires
            a, b = _leaf_text(leaf1), _leaf_text(shared)
            return f"qml.prod({a}, {b})", f"qml.prod({b}, {a})", "", False
        if variant == "angle changed":
            name, arguments, wires1 = leaf1
            if not arguments:
                return _leaf_text(leaf1), _leaf_text(leaf2), "", False
            moved = (arguments[0] + delta,) + tuple(arguments[1:])
            return _leaf_text(leaf1), _leaf_text((name, moved, wires1)), "", False
        if variant == "wires reversed":
            name, arguments, wires1 = leaf1
            return _leaf_text(leaf1), _leaf_text((name, arguments, wires1[::-1])), "", False
        return (_sum_text("qml.Hamiltonian", [(c, _word_text(word))]),
                _sum_text("qml.Hamiltonian", [(c + delta, _word_text(word))]), "", False)
    raise KeyError(subject)


def _sum_text(form, terms):
    if form == "qml.Hamiltonian":
        return f"qml.Hamiltonian({[c for c, _ in terms]!r}, [{', '.join(t for _, t in terms)}])"
    return f"qml.sum({', '.join(f'qml.s_prod({c!r}, {t})' for c, t in terms)})"


# -- the check and its reproducer ----------------------------------------------------------------
def _build(text):
    import pennylane as qml

    return eval(text, {"qml": qml, "np": np})  # our own generated constructor text


def _gap(a, b):
    import pennylane as qml

    wires = list(dict.fromkeys(list(a.wires) + list(b.wires)))
    ma = np.asarray(qml.matrix(a, wire_order=wires), dtype=complex)
    mb = np.asarray(qml.matrix(b, wire_order=wires), dtype=complex)
    return float(np.max(np.abs(ma - mb))) if ma.shape == mb.shape else float("inf")


def _matrix_bound(subject, example):
    """How far apart the matrices of an equivalent pair may be."""
    if subject == "parameter-tolerance":
        (_, arguments, _), atol, _ = example
        return MATRIX_TOL + 4 * atol * max(1, len(arguments))  # d/dtheta of a gate entry is at most ~2 here
    return MATRIX_TOL


def _check(subject, example):
    import warnings

    import pennylane as qml

    first_text, second_text, keywords, must = _pair(subject, example)
    kwargs = eval(f"dict({keywords.lstrip(', ')})")  # our own keyword text
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            a, b = _build(first_text), _build(second_text)
        except (ValueError, TypeError):  # the library refuses the input: outside the law's domain
            from hypothesis import assume

            assume(False)
        gap = _gap(a, b)
        answers = {"qml.equal(a, b)": qml.equal(a, b, **kwargs), "qml.equal(b, a)": qml.equal(b, a, **kwargs)}
        if not keywords:
            answers["a == b"] = bool(a == b)
    pair = f"a = {first_text}; b = {second_text}"
    if must:
        bound = _matrix_bound(subject, example)
        assert gap <= bound, f"{pair}: documented as the same operator but the matrices differ by {gap:.3g}"
        wrong = [call for call, answer in answers.items() if not answer]
        assert not wrong, f"{pair}: {', '.join(wrong)} False for two documented forms of the same operator ({subject})"
    else:
        wrong = [call for call, answer in answers.items() if answer]
        assert gap <= DIFFERENT or not wrong, (
            f"{pair}: {', '.join(wrong)} True but the matrices differ by {gap:.3g}")


def _reproduce(subject, example):
    first_text, second_text, keywords, must = _pair(subject, example)
    lines = [HEADER + f"a = {first_text}\nb = {second_text}\n",
             "wires = list(dict.fromkeys(list(a.wires) + list(b.wires)))\n",
             "gap = np.max(np.abs(qml.matrix(a, wire_order=wires) - qml.matrix(b, wire_order=wires)))\n"]
    checks = [f"qml.equal(a, b{keywords})", f"qml.equal(b, a{keywords})"] + ([] if keywords else ["a == b"])
    if must:
        bound = _matrix_bound(subject, example)
        lines.append(f"assert gap <= {bound!r}, f'documented as the same operator, yet the matrices differ by {{gap}}'\n")
        for call in checks:
            lines.append(f"assert {call}, '{call} is False for two documented forms of the same operator'\n")
    else:
        for call in checks:
            lines.append(f"assert gap <= {DIFFERENT!r} or not ({call}), "
                         f"f'{call} is True but the matrices differ by {{gap}}'\n")
    return "".join(lines)


def _describe(subject, example):
    first_text, second_text, keywords, _ = _pair(subject, example)
    return f"{first_text} vs {second_text}" + (f" ({keywords.lstrip(', ')})" if keywords else "")


# A re-expression first documented by a later release than the one tested is not owed there:
# before 0.34 qml.equal compared Controlled operators' control wires as ordered attributes (the
# docstring's "comparison of the types and attributes"), and 0.34's release notes list the
# order-insensitive comparison as an improvement (#4944), not as a bug fix.
DOCUMENTED_SINCE = {"ctrl-control-order": (0, 34)}


def _release():
    import pennylane as qml

    return tuple(int(part) for part in qml.__version__.split(".")[:2])


def _subjects():
    import pennylane as qml

    found = [s for s in SUBJECTS if _release() >= DOCUMENTED_SINCE.get(s, (0, 0))]
    if not hasattr(qml, "ctrl") or not hasattr(qml.ops, "Controlled"):
        found = [s for s in found if s not in ("ctrl-control-order", "control-values-default")]
    if not hasattr(qml, "Hamiltonian"):
        found = [s for s in found if s != "hamiltonian-like-terms"]
    return found if ops._all_kinds() else []



# == law 2: objects that compare equal hash equally (Python data model) ===========================
# Python's data model: "The only required property is that objects which compare equal have the
# same hash value" (object.__hash__). PennyLane operators, measurement processes and Wires define
# both == and __hash__, so sets and dicts of them rely on the two agreeing. The pairs are law 1's
# documented re-expressions plus measurement processes and Wires objects; only pairs the release
# itself calls equal are judged (assume(a == b)), so this law never decides what equality should
# be -- only that the hash agrees with it. (Not reused: parameter-tolerance, whose == with a
# tolerance cannot be hash-consistent by construction, and converse, whose pairs are unequal.)
SOURCE_HASH = ("Python data model, object.__hash__ ('The only required property is that objects which compare "
               "equal have the same hash value'); PennyLane: Operator.__eq__/MeasurementProcess.__eq__ are qml.equal "
               "(release notes 0.33, #4536), Operator.hash / MeasurementProcess.hash ('Integer hash that uniquely "
               "represents the operator'), qml.wires.Wires (__eq__, __hash__)")
HASH_OPERATOR_SUBJECTS = ["wires-container", "integer-data", "prod-factor-order", "pauli-sum-term-order",
                          "hamiltonian-like-terms", "ctrl-control-order", "control-values-default"]
HASH_SUBJECTS = HASH_OPERATOR_SUBJECTS + ["measurement-of-equal-observables", "measurement-wires-container",
                                          "wires-objects"]
HASH_APIS = {
    "wires-container": "pennylane.operation.Operator",
    "integer-data": "pennylane.operation.Operator",
    "prod-factor-order": "pennylane.ops.Prod",
    "pauli-sum-term-order": "pennylane.ops.Sum, pennylane.Hamiltonian",
    "hamiltonian-like-terms": "pennylane.Hamiltonian",
    "ctrl-control-order": "pennylane.ops.Controlled",
    "control-values-default": "pennylane.ops.Controlled",
    "measurement-of-equal-observables": "pennylane.measurements.MeasurementProcess",
    "measurement-wires-container": "pennylane.measurements.MeasurementProcess",
    "wires-objects": "pennylane.wires.Wires",
}
OBSERVABLE_MEASUREMENTS = ["qml.expval", "qml.var"]          # of any Pauli word or Pauli sum
WORD_MEASUREMENTS = OBSERVABLE_MEASUREMENTS + ["qml.sample", "qml.counts"]  # of a Pauli word
WIRES_MEASUREMENTS = ["qml.probs", "qml.sample", "qml.counts"]
WIRES_OBJECT_FORMS = ["list", "tuple", "Wires", "bare", "plain tuple"]


def _hash_strategy(subject):
    from hypothesis import strategies as st

    if subject in HASH_OPERATOR_SUBJECTS:
        return _strategy(subject)
    if subject == "measurement-of-equal-observables":
        word = st.tuples(st.just("pauli-word-factor-order"), st.tuples(_pauli_word_strategy(), st.permutations(range(3))),
                         st.sampled_from(WORD_MEASUREMENTS))
        sums = st.sampled_from(["pauli-sum-term-order", "hamiltonian-like-terms"]).flatmap(
            lambda kind: st.tuples(st.just(kind), _strategy(kind), st.sampled_from(OBSERVABLE_MEASUREMENTS)))
        return st.one_of(word, sums)
    if subject == "measurement-wires-container":
        forms = ["list", "tuple", "Wires", "bare"]
        return st.tuples(st.sampled_from(WIRES_MEASUREMENTS), st.integers(1, 3), st.permutations(LABELS),
                         st.sampled_from(forms), st.sampled_from(forms))
    if subject == "wires-objects":
        return st.tuples(st.integers(0, 4), st.permutations(LABELS), st.sampled_from(WIRES_OBJECT_FORMS),
                         st.sampled_from(WIRES_OBJECT_FORMS))
    raise KeyError(subject)


def _wires_object_text(labels, form):
    if form == "plain tuple":
        return repr(tuple(labels))
    return f"qml.wires.Wires({_wires_text(labels, form)})"


def _hash_pair(subject, example):
    """(first text, second text): two hashable PennyLane objects the docs say are the same."""
    if subject in HASH_OPERATOR_SUBJECTS:
        return _pair(subject, example)[:2]
    if subject == "measurement-of-equal-observables":
        kind, inner, measurement = example
        if kind == "pauli-word-factor-order":
            word, order = inner
            first, second = _word_text(word), _word_text(word, order)
        else:
            first, second = _pair(kind, inner)[:2]
        return f"{measurement}({first})", f"{measurement}({second})"
    if subject == "measurement-wires-container":
        measurement, count, labels, form1, form2 = example
        labels = labels[:count]
        return (f"{measurement}(wires={_wires_text(labels, form1)})",
                f"{measurement}(wires={_wires_text(labels, form2)})")
    if subject == "wires-objects":
        count, labels, form1, form2 = example
        labels = labels[:count]
        if count != 1:  # a bare label is one wire
            form1, form2 = [f if f != "bare" else "list" for f in (form1, form2)]
        return _wires_object_text(labels, form1), _wires_object_text(labels, form2)
    raise KeyError(subject)


def _hash_check(subject, example):
    import warnings

    from hypothesis import assume

    first_text, second_text = _hash_pair(subject, example)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            a, b = _build(first_text), _build(second_text)
        except (ValueError, TypeError):  # the library refuses the input: outside the law's domain
            assume(False)
        assume(bool(a == b))  # only pairs the release itself calls equal are judged
        ha, hb = hash(a), hash(b)
        size, found = len({a, b}), {a: 1}.get(b)
    pair = f"a = {first_text}; b = {second_text}"
    assert ha == hb, f"{pair}: a == b is True but hash(a) = {ha} != hash(b) = {hb} ({subject})"
    assert size == 1, f"{pair}: a == b is True but the set {{a, b}} has {size} elements ({subject})"
    assert found == 1, f"{pair}: a == b is True but {{a: 1}}.get(b) is {found!r} ({subject})"


def _hash_reproduce(subject, example):
    first_text, second_text = _hash_pair(subject, example)
    return (HEADER + f"a = {first_text}\nb = {second_text}\n\n"
            "if a == b:  # the law judges only pairs the release calls equal\n"
            "    assert hash(a) == hash(b), f'a == b but hash(a) = {hash(a)} != hash(b) = {hash(b)}'\n"
            "    assert len({a, b}) == 1, f'a == b but the set {{a, b}} has {len({a, b})} elements'\n"
            "    assert {a: 1}.get(b) == 1, 'a == b but the dict {a: 1} does not find b'\n")


def _hash_describe(subject, example):
    return "{} vs {}".format(*_hash_pair(subject, example))


def _hash_subjects():
    import pennylane as qml

    found = [s for s in HASH_SUBJECTS if s not in HASH_OPERATOR_SUBJECTS or s in _subjects()]
    if not all(hasattr(qml, name) for name in ("expval", "var", "probs", "sample", "counts")):
        found = [s for s in found if not s.startswith("measurement-")]
    return found if ops._all_kinds() else []


CONTRACTS = [
    Contract("pennylane.query.equal-complete", "semantic queries",
             "for two operators built differently that the docs say are the same operator (wires as list/tuple/Wires, "
             "integer vs float data, parameters within atol, Prod factors on disjoint wires reordered, Pauli-sum terms "
             "reordered or split, control wires permuted with their values, control_values omitted vs all True), "
             "qml.equal (both ways) and == return True and the matrices agree; a pair whose matrices differ compares "
             "unequal",
             "; ".join([SOURCE_EQUAL] + [f"{s}: {SOURCES[s]}" for s in SUBJECTS]),
             _subjects, _strategy, _check, _reproduce, lambda subject: "pennylane.equal", describe=_describe),
    Contract("pennylane.robust.hash-agrees-with-eq", "robustness",
             "for two hashable PennyLane objects the release calls equal (a == b) -- operators built as documented "
             "re-expressions of one operator (wires as list/tuple/Wires, integer vs float data, Prod factors on "
             "disjoint wires reordered, Pauli-sum terms reordered or split, control wires permuted with their values, "
             "control_values omitted vs all True), measurement processes (expval/var/sample/counts of equal "
             "observables; probs/sample/counts of the same wires as list/tuple/Wires) and Wires objects -- hash(a) == "
             "hash(b), so {a, b} has one element and {a: 1}[b] == 1",
             "; ".join([SOURCE_HASH] + [f"{s}: {SOURCES[s]}" for s in HASH_OPERATOR_SUBJECTS]),
             _hash_subjects, _hash_strategy, _hash_check, _hash_reproduce, lambda subject: HASH_APIS[subject],
             describe=_hash_describe),
]
