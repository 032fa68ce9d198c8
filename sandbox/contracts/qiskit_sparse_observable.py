"""SparseObservable algebra, Qiskit (qiskit.quantum_info.SparseObservable, 1.3+): every constructor,
arithmetic operation, structure-preserving method and view of the class agrees with the matrix of
the observable it documents, over the whole single-qubit alphabet I X Y Z + - r l 0 1.

The judge is numpy: each term's matrix is the Kronecker product of the alphabet's 2x2 matrices as
the class docstring's table defines them (Paulis, and the projectors onto their +-1 eigenstates),
the right-most label letter on qubit 0 (the least significant). An observable the library returns
is read back through its documented raw arrays (`coeffs`, `bit_terms` with the numeric values of
the docstring's table, `indices`, `boundaries`, `num_qubits`), never through a library conversion.

  construct - from_label, from_list, from_sparse_list (indices in any order), from_terms, from_pauli
              (phase included), from_sparse_pauli_op, identity, zero, the default constructor,
              to_sparse_list back through from_sparse_list, copy (independent of the original),
              Term.to_observable summed, and to_matrix where the release has it, give the matrix;
  algebra   - + - (binary and unary), scalar * and /, the in-place forms, compose (self then other:
              B.A; front=True: A.B; qargs placing other on those qubits), tensor / ^ (other on the
              low qubits), expand, adjoint, conjugate, transpose are the matrix operations;
  keep      - simplify (default and user `tol`: like terms summed, sums below tol dropped),
              as_paulis (Pauli letters only), apply_layout (a list, with or without num_qubits;
              None with num_qubits) keep (or move, for a layout) the matrix; `==` compares
              structure (copy equal, equal simplified forms for reordered terms, the docstring's
              (a - b).simplify(tol) == zero recipe), and never calls different matrices equal;
  views     - num_qubits, num_terms, len, the raw arrays, iteration and indexing (Term.coeff,
              indices sorted, bit_terms, bit_labels, pauli_base, num_qubits), pauli_bases and
              to_sparse_list agree with the terms the observable was built from;
  repr      - the repr and Term.to_label print each term as `(coeff)(L_i ...)` (the format of the
              docstring examples; undocumented in words) for the observable's terms.

Each check runs a program that is also the reproducer: the inputs as literals, the numpy oracle,
the library call and the assertions. Inputs: 1-5 qubits, 0-4 terms, complex coefficients, every
alphabet letter. Laws already stated elsewhere are not repeated here: the Pauli-only matrix of
from_list/from_sparse_pauli_op (qiskit_data), commutes and a Pauli-only simplify (qiskit_semantics),
evolve (qiskit_data).
"""

import random

from contract_runtime import Contract

ALPHABET = "IXYZ+-rl01"
PAULIS = "IXYZ"
# the Pauli basis each letter is measured in (the docstrings of pauli_bases / Term.pauli_base)
BASIS = {"I": "I", "X": "X", "Y": "Y", "Z": "Z", "+": "X", "-": "X", "r": "Y", "l": "Y", "0": "Z", "1": "Z"}
COEFFICIENTS = [1.0, -1.0, 0.5, 2.0, 1j, -0.25j, 1.5 - 0.5j, -0.75 + 2j, 0.3, 3.0]
SCALARS = [2, -1, 0.5, 1j, -2.5j, 1.5 + 0.5j, 3.0]
# Matrices of observables with <= 16 terms of coefficients <= ~4 in size: entries are sums of a few
# dozen products of exactly representable numbers and 1/2, 1/sqrt(2)^2; rounding is ~1e-15.
TOL = 1e-10

HEADER = '''import numpy as np
from qiskit.quantum_info import {imports}

# The single-qubit alphabet of the SparseObservable class docstring, as 2x2 matrices.
_plus, _minus = np.array([1, 1]) / np.sqrt(2), np.array([1, -1]) / np.sqrt(2)
_right, _left = np.array([1, 1j]) / np.sqrt(2), np.array([1, -1j]) / np.sqrt(2)
ALPHABET = {{"I": np.eye(2), "X": np.array([[0, 1], [1, 0]]), "Y": np.array([[0, -1j], [1j, 0]]),
            "Z": np.diag([1, -1]), "+": np.outer(_plus, _plus.conj()), "-": np.outer(_minus, _minus.conj()),
            "r": np.outer(_right, _right.conj()), "l": np.outer(_left, _left.conj()),
            "0": np.diag([1, 0]), "1": np.diag([0, 1])}}
# BitTerm numeric values, from the same table.
BIT_TERM_LETTER = {{1: "Z", 2: "X", 3: "Y", 9: "0", 5: "1", 10: "+", 6: "-", 11: "r", 7: "l"}}


def dense(terms, n):
    """sum of c * (Kronecker product of the label's letters): the right-most letter on qubit 0."""
    total = np.zeros((2 ** n, 2 ** n), dtype=complex)
    for label, coeff in terms:
        assert len(label) == n
        term = np.eye(1)
        for letter in label:
            term = np.kron(term, ALPHABET[letter])
        total += coeff * term
    return total


def label_of(letters, qubits, n):
    """The dense label of single-qubit letters placed on the given qubits (identity elsewhere)."""
    label = ["I"] * n
    for letter, qubit in zip(letters, qubits):
        label[n - 1 - int(qubit)] = letter
    return "".join(label)


def terms_of(obs):
    """(dense label, coeff) of each term, read from the documented raw arrays."""
    n, bounds = obs.num_qubits, list(obs.boundaries[:])
    bit_terms, indices, coeffs = list(obs.bit_terms[:]), list(obs.indices[:]), list(obs.coeffs[:])
    assert len(bounds) == len(coeffs) + 1 and bounds[0] == 0, f"boundaries {{bounds}} for {{len(coeffs)}} coefficients"
    return [(label_of([BIT_TERM_LETTER[int(b)] for b in bit_terms[bounds[i]:bounds[i + 1]]],
                      indices[bounds[i]:bounds[i + 1]], n), complex(coeffs[i])) for i in range(len(coeffs))]


def matrix_of(obs):
    return dense(terms_of(obs), obs.num_qubits)


def assert_matrix(obs, expected, what):
    assert obs.num_qubits == int(np.log2(expected.shape[0])), (
        f"{{what}}: {{obs.num_qubits}} qubits, expected {{int(np.log2(expected.shape[0]))}}")
    deviation = float(np.max(np.abs(matrix_of(obs) - expected), initial=0.0))
    assert deviation < {tol!r}, f"{{what}} is off the expected matrix by {{deviation:.3g}}: {{obs!r}}"

'''


def _header(*names):
    return HEADER.format(imports=", ".join(("SparseObservable",) + names), tol=TOL)


def _qi():
    import qiskit.quantum_info as qi

    return qi.SparseObservable  # AttributeError before Qiskit 1.3: the family does not apply


def _available(table):
    """The subjects whose method the live class has (a subject maps to its required attributes)."""
    cls = _qi()
    return [s for s, needs in table.items() if all(_has(cls, a) for a in needs)]


def _has(cls, dotted):
    obj = cls
    for part in dotted.split("."):
        if not hasattr(obj, part):
            return False
        obj = getattr(obj, part)
    return True


def _run(subject, program):
    namespace = {"__name__": "__main__"}
    exec(compile(program, f"<sparse-observable {subject}>", "exec"), namespace)  # noqa: S102


def _c(value):
    value = complex(value)
    return repr(value.real) if value.imag == 0 else repr(value)


def _terms_literal(terms):
    return "[" + ", ".join(f"({label!r}, {_c(c)})" for label, c in terms) + "]"


def _sparse(label):
    """(letters, qubits) of a dense label's non-identity letters, in ascending qubit order."""
    n = len(label)
    pairs = [(label[n - 1 - q], q) for q in range(n) if label[n - 1 - q] != "I"]
    return "".join(p[0] for p in pairs), [p[1] for p in pairs]


# -- inputs ------------------------------------------------------------------------------------------
def _st():
    from hypothesis import strategies as st

    return st


def _observable(rnd, n, letters=ALPHABET, min_terms=1, max_terms=4, pool=None):
    count = rnd.randint(min_terms, max_terms)
    terms = []
    for _ in range(count):
        if pool and rnd.random() < 0.5:
            label = rnd.choice(pool)
        else:
            label = "".join(rnd.choice(letters) for _ in range(n))
        terms.append((label, rnd.choice(COEFFICIENTS)))
    return terms


def _examples(make):
    st = _st()
    return st.tuples(st.integers(1, 5), st.randoms(use_true_random=False)).map(lambda t: make(t[0], t[1]))


# =============================================================================================
# construct: every constructor gives the alphabet matrix

CONSTRUCTORS = {
    "from_label": ["from_label"], "from_list": ["from_list"], "from_sparse_list": ["from_sparse_list"],
    "from_terms": ["from_terms"], "from_pauli": ["from_pauli"], "from_sparse_pauli_op": ["from_sparse_pauli_op"],
    "identity": ["identity"], "zero": ["zero"], "SparseObservable(data)": [],
    "to_sparse_list round trip": ["to_sparse_list", "from_sparse_list"], "copy": ["copy"],
    "Term.to_observable": ["Term.to_observable"], "to_matrix": ["to_matrix"],
}


def _construct_example(subject, n, rnd):
    letters = PAULIS if subject in ("from_pauli", "from_sparse_pauli_op") else ALPHABET
    empty_ok = subject in ("from_list", "from_sparse_list", "from_terms", "SparseObservable(data)")
    terms = _observable(rnd, n, letters, min_terms=0 if empty_ok and rnd.random() < 0.15 else 1)
    if subject in ("from_label", "from_pauli"):
        terms = [(terms[0][0], 1.0)]  # a single term, coefficient 1 (from_pauli: times the Pauli's phase)
    return {"n": n, "terms": terms, "phase": rnd.choice(["", "-", "i", "-i"]),
            "form": rnd.choice(["list", "sparse list", "label", "SparsePauliOp", "SparseObservable"]),
            "give_n": rnd.random() < 0.5, "seed": rnd.randint(0, 2 ** 31)}


def _construct_program(subject, ex):
    n, terms = ex["n"], ex["terms"]
    lit = _terms_literal(terms)
    shuffle = random.Random(ex["seed"])
    sparse = []
    for label, c in terms:
        letters, qubits = _sparse(label)
        order = list(range(len(qubits)))
        shuffle.shuffle(order)  # from_sparse_list zips letters with qubits: any order is the same term
        sparse.append(("".join(letters[i] for i in order), tuple(qubits[i] for i in order), c))
    sparse_lit = "[" + ", ".join(f"({a!r}, {b!r}, {_c(c)})" for a, b, c in sparse) + "]"
    nq = f", num_qubits={n}" if ex["give_n"] or not terms else ""
    imports = ()
    body = f"terms = {lit}\nexpected = dense(terms, {n})\n"
    if subject == "from_label":
        body += f"obs = SparseObservable.from_label({terms[0][0]!r})\n"
    elif subject == "from_list":
        body += f"obs = SparseObservable.from_list(terms{nq})\n"
    elif subject == "from_sparse_list":
        body += f"obs = SparseObservable.from_sparse_list({sparse_lit}, num_qubits={n})\n"
    elif subject == "from_terms":
        body += (f"parts = [SparseObservable.from_list([term], num_qubits={n})[0] for term in terms]\n"
                 f"obs = SparseObservable.from_terms(parts{nq})\n")
    elif subject == "from_pauli":
        imports = ("Pauli",)
        phase = {"": 1, "-": -1, "i": 1j, "-i": -1j}[ex["phase"]]
        body = (f"terms = [({terms[0][0]!r}, {_c(phase)})]\nexpected = dense(terms, {n})\n"
                f"obs = SparseObservable.from_pauli(Pauli({ex['phase'] + terms[0][0]!r}))\n")
    elif subject == "from_sparse_pauli_op":
        imports = ("SparsePauliOp",)
        body += "obs = SparseObservable.from_sparse_pauli_op(SparsePauliOp.from_list(terms))\n"
    elif subject == "identity":
        body = f"expected = np.eye({2 ** n})\nobs = SparseObservable.identity({n})\n"
    elif subject == "zero":
        body += (f"obs = SparseObservable.zero({n})\n"
                 f"assert_matrix(obs, np.zeros(({2 ** n}, {2 ** n})), 'SparseObservable.zero({n})')\n"
                 f"assert obs.num_terms == 0, f'zero has {{obs.num_terms}} terms, documented: no terms'\n"
                 f"obs = SparseObservable.zero({n}) + SparseObservable.from_list(terms, num_qubits={n})\n")
    elif subject == "SparseObservable(data)":
        form = ex["form"] if terms else "list"
        if form in ("label",):
            terms = terms[:1]
            body = f"terms = {_terms_literal([(terms[0][0], 1.0)])}\nexpected = dense(terms, {n})\n"
            data = repr(terms[0][0])
        elif form == "sparse list":
            data, nq = sparse_lit, f", num_qubits={n}"
        elif form == "SparsePauliOp":
            imports = ("SparsePauliOp",)
            terms = [("".join(ch if ch in PAULIS else BASIS[ch] for ch in label), c) for label, c in terms]
            body = f"terms = {_terms_literal(terms)}\nexpected = dense(terms, {n})\n"
            data = "SparsePauliOp.from_list(terms)"
        elif form == "SparseObservable":
            data = f"SparseObservable.from_list(terms, num_qubits={n})"
        else:
            data = "terms"
        body += f"obs = SparseObservable({data}{nq})\n"
    elif subject == "to_sparse_list round trip":
        body += (f"original = SparseObservable.from_list(terms, num_qubits={n})\n"
                 "sparse_list = original.to_sparse_list()\n"
                 f"from_triples = dense([(label_of(letters, qubits, {n}), c) for letters, qubits, c in sparse_list], {n})\n"
                 f"assert np.max(np.abs(from_triples - expected), initial=0.0) < {TOL!r}, "
                 "f'to_sparse_list {sparse_list} does not describe the observable {original!r}'\n"
                 "obs = SparseObservable.from_sparse_list(sparse_list, original.num_qubits)\n")
    elif subject == "copy":
        body += (f"original = SparseObservable.from_list(terms, num_qubits={n})\n"
                 "obs = original.copy()\n"
                 "assert obs is not original and obs == original, 'copy is not an equal, distinct observable'\n"
                 "scratch = original.copy()\n"
                 "if scratch.num_terms:\n"
                 "    scratch.coeffs[:] = np.zeros(scratch.num_terms, dtype=complex)\n"
                 "assert_matrix(original, expected, 'the original after its copy was changed')\n")
    elif subject == "Term.to_observable":
        body += (f"parts = list(SparseObservable.from_list(terms, num_qubits={n}))\n"
                 f"assert len(parts) == len(terms), f'{{len(parts)}} terms iterated, {{len(terms)}} given'\n"
                 f"obs = SparseObservable.zero({n})\n"
                 "for part in parts:\n"
                 "    obs = obs + part.to_observable()\n")
    elif subject == "to_matrix":
        body += (f"obs = SparseObservable.from_list(terms, num_qubits={n})\n"
                 "actual = np.asarray(obs.to_matrix())\n"
                 "actual = actual.toarray() if hasattr(actual, 'toarray') else actual\n"
                 f"deviation = float(np.max(np.abs(actual - expected), initial=0.0))\n"
                 f"assert deviation < {TOL!r}, f'to_matrix is off the alphabet matrix by {{deviation:.3g}}'\n")
    body += f"assert_matrix(obs, expected, {('SparseObservable.' + subject)!r})\n"
    return _header(*imports) + body


def _construct_strategy(subject):
    return _examples(lambda n, rnd: _construct_example(subject, n, rnd))


# =============================================================================================
# algebra: operations are matrix operations

OPERATIONS = {
    "+": [], "-": [], "unary -": [], "scalar *": [], "* scalar": [], "/": [], "+=": [], "-=": [], "*=": [],
    "/=": [], "compose": ["compose"], "compose(front=True)": ["compose"], "compose(qargs)": ["compose"],
    "tensor": ["tensor"], "^": ["tensor"], "expand": ["expand"], "adjoint": ["adjoint"],
    "conjugate": ["conjugate"], "transpose": ["transpose"],
    # the class docstring names `&` as compose; a subject only where the class defines it
    "&": ["__and__"],
}
# operation -> (library expression, numpy expression of the expected matrix)
EXPRESSIONS = {
    "+": ("a + b", "A + B"), "-": ("a - b", "A - B"), "unary -": ("-a", "-A"),
    "scalar *": ("s * a", "s * A"), "* scalar": ("a * s", "s * A"), "/": ("a / s", "A / s"),
    "compose": ("a.compose(b)", "B @ A"), "compose(front=True)": ("a.compose(b, front=True)", "A @ B"),
    "&": ("a & b", "B @ A"),
    "tensor": ("a.tensor(b)", "np.kron(A, B)"), "^": ("a ^ b", "np.kron(A, B)"),
    "expand": ("a.expand(b)", "np.kron(B, A)"), "adjoint": ("a.adjoint()", "A.conj().T"),
    "conjugate": ("a.conjugate()", "A.conj()"), "transpose": ("a.transpose()", "A.T"),
}


def _algebra_example(subject, n, rnd):
    m = n
    if subject in ("tensor", "^", "expand"):
        n = min(n, 4)
        m = rnd.randint(1, 6 - n)
    qargs = None
    if subject == "compose(qargs)":
        m = rnd.randint(1, n)
        qargs = rnd.sample(range(n), m)
    unary = subject in ("unary -", "scalar *", "* scalar", "/", "*=", "/=", "adjoint", "conjugate", "transpose")
    compose = subject.startswith("compose") or subject == "&"
    # composing sums multiplies term counts (and projectors expand): keep products small
    a = _observable(rnd, n, max_terms=2 if compose else 4, min_terms=0 if not compose and rnd.random() < 0.1 else 1)
    b = [] if unary else _observable(rnd, m, max_terms=2 if compose else 4)
    return {"n": n, "m": m, "a": a, "b": b, "s": rnd.choice(SCALARS), "qargs": qargs}


def _algebra_program(subject, ex):
    n, m = ex["n"], ex["m"]
    body = (f"a_terms = {_terms_literal(ex['a'])}\nb_terms = {_terms_literal(ex['b'])}\n"
            f"s = {_c(ex['s'])}\n"
            f"A, B = dense(a_terms, {n}), dense(b_terms, {m})\n"
            f"a = SparseObservable.from_list(a_terms, num_qubits={n})\n"
            f"b = SparseObservable.from_list(b_terms, num_qubits={m})\n"
            f"assert_matrix(a, A, 'from_list (the operand)')\n")
    if subject == "compose(qargs)":
        qargs = ex["qargs"]
        # other's qubit k acts on qubit qargs[k] of self
        body += (f"qargs = {qargs!r}\n"
                 f"B_placed = dense([(label_of([label[{m - 1} - k] for k in range({m})], qargs, {n}), c) "
                 "for label, c in b_terms], " f"{n})\n"
                 "for front in (False, True):\n"
                 "    result = a.compose(b, qargs=qargs, front=front)\n"
                 "    expected = A @ B_placed if front else B_placed @ A\n"
                 f"    assert_matrix(result, expected, f'a.compose(b, qargs={{qargs}}, front={{front}})')\n")
        return _header() + body
    if subject in ("+=", "-=", "*=", "/="):
        operand = "s" if subject in ("*=", "/=") else "b"
        numpy_op = {"+=": "A + B", "-=": "A - B", "*=": "s * A", "/=": "A / s"}[subject]
        body += (f"result = a.copy()\nresult {subject} {operand}\n"
                 f"assert_matrix(result, {numpy_op}, 'a {subject} {operand}')\n")
        if operand == "b":
            body += f"assert_matrix(b, B, 'the right operand after a {subject} b')\n"
        return _header() + body
    library, numpy_expr = EXPRESSIONS[subject]
    body += (f"result = {library}\n"
             f"assert_matrix(result, {numpy_expr}, {library!r})\n"
             f"assert_matrix(a, A, 'the left operand after {library}')\n")
    return _header() + body


def _algebra_strategy(subject):
    return _examples(lambda n, rnd: _algebra_example(subject, n, rnd))


# =============================================================================================
# keep: structure-preserving methods keep the matrix; equality is structural and sound

KEEPERS = {
    "simplify": ["simplify"], "simplify(tol)": ["simplify"], "as_paulis": ["as_paulis"],
    "apply_layout(list)": ["apply_layout"], "apply_layout(list, num_qubits)": ["apply_layout"],
    "apply_layout(None, num_qubits)": ["apply_layout"], "apply_layout(TranspileLayout)": ["apply_layout"],
    "==": ["simplify"],
}
# coefficients whose like-term sums straddle the tolerances below by a wide margin, or cancel exactly
SMALL = [1e-12, -1e-12, 1e-5, 0.02j, 0.3, -0.3, 1.0, -1.0, 0.5j]
TOLERANCES = [None, 1e-9, 1e-3, 0.1]
DYADIC = [1.0, -1.0, 0.5, 2.0, 1j, -0.25j, 1.5 - 0.5j, -0.75 + 2j, 0.0]


def _keep_example(subject, n, rnd):
    pool = ["".join(rnd.choice(ALPHABET) for _ in range(n)) for _ in range(2)]
    terms = _observable(rnd, n, pool=pool)
    if subject.startswith("simplify"):
        terms = [(label, rnd.choice(SMALL + COEFFICIENTS)) for label, _ in terms]
    elif subject == "==":
        # dyadic coefficients: like-term sums are exact in any order (the docstring warns that
        # simplified forms of inexact sums may differ in the last bit)
        terms = [(label, rnd.choice(DYADIC)) for label, _ in terms]
    width = n + rnd.randint(0, 2)
    layout = rnd.sample(range(width), n)
    return {"n": n, "permutation": rnd.sample(range(n), n), "terms": terms, "tol": rnd.choice(TOLERANCES) if subject == "simplify(tol)" else None,
            "layout": layout, "width": width, "order": rnd.sample(range(len(terms)), len(terms)),
            "changed": rnd.randrange(len(terms))}


def _clear_of_tolerance(example):
    """Gray zone: a like-term sum within a factor 10 of the tolerance may be dropped or kept."""
    if example["tol"] is None and not example["terms"]:
        return True
    tol = example["tol"] if example["tol"] is not None else 1e-8  # simplify's documented default
    sums = {}
    for label, c in example["terms"]:
        sums[label] = sums.get(label, 0) + complex(c)
    return all(abs(s) == 0 or abs(s) < tol / 10 or abs(s) > tol * 10 for s in sums.values())


def _keep_program(subject, ex):
    n, terms = ex["n"], ex["terms"]
    body = (f"terms = {_terms_literal(terms)}\nexpected = dense(terms, {n})\n"
            f"obs = SparseObservable.from_list(terms, num_qubits={n})\n")
    if subject.startswith("simplify"):
        tol = ex["tol"]
        call = "obs.simplify()" if tol is None else f"obs.simplify(tol={tol!r})"
        threshold = 1e-8 if tol is None else tol
        body += (f"# like terms (same letters on the same qubits) summed; sums below tol ({threshold!r}) dropped\n"
                 "sums = {}\n"
                 "for label, c in terms:\n"
                 "    sums[label] = sums.get(label, 0) + c\n"
                 f"kept = [(label, c) for label, c in sums.items() if abs(c) >= {threshold!r}]\n"
                 f"result = {call}\n"
                 f"assert_matrix(result, dense(kept, {n}), {call!r})\n"
                 "labels = [label for label, _ in terms_of(result)]\n"
                 f"assert len(labels) == len(set(labels)), f'{call} left like terms unsummed: {{result!r}}'\n"
                 f"assert sorted(labels) == sorted(label for label, _ in kept), "
                 f"f'{call} keeps terms {{sorted(labels)}}, the summed terms over tol are {{sorted(l for l, _ in kept)}}'\n"
                 f"assert_matrix(obs, expected, 'the observable after {call}')\n")
    elif subject == "as_paulis":
        body += ("result = obs.as_paulis()\n"
                 "assert_matrix(result, expected, 'obs.as_paulis()')\n"
                 "letters = set(''.join(label for label, _ in terms_of(result)))\n"
                 "assert letters <= set('IXYZ'), f'as_paulis left non-Pauli letters {sorted(letters - set(\"IXYZ\"))}'\n")
    elif subject.startswith("apply_layout"):
        layout, width = ex["layout"], ex["width"]
        if subject == "apply_layout(TranspileLayout)":
            # single-qubit gates need no routing: virtual qubit k stays on initial_layout[k] of the device
            body += (f"from qiskit import QuantumCircuit, transpile\nfrom qiskit.transpiler import CouplingMap\n"
                     f"circuit = QuantumCircuit({n})\ncircuit.h(range({n}))\n"
                     f"physical = transpile(circuit, coupling_map=CouplingMap.from_line({width}), "
                     f"initial_layout={layout!r}, optimization_level=0, seed_transpiler=0)\n")
            call, mapping, out = "obs.apply_layout(physical.layout)", layout, width
        elif subject == "apply_layout(None, num_qubits)":
            call, mapping, out = f"obs.apply_layout(None, {width})", list(range(n)), width
        elif subject == "apply_layout(list, num_qubits)":
            call, mapping, out = f"obs.apply_layout({layout!r}, {width})", layout, width
        else:
            layout = ex["permutation"]  # without num_qubits the width stays: a permutation
            call, mapping, out = f"obs.apply_layout({layout!r})", layout, n
        body += (f"# qubit k of the observable moves to qubit {mapping}[k]\n"
                 f"moved = [(label_of([label[{n - 1} - k] for k in range({n})], {mapping!r}, {out}), c) "
                 "for label, c in terms]\n"
                 f"result = {call}\n"
                 f"assert_matrix(result, dense(moved, {out}), {call!r})\n")
    else:  # ==
        order, changed = ex["order"], ex["changed"]
        body += (f"reordered = SparseObservable.from_list([terms[i] for i in {order!r}], num_qubits={n})\n"
                 "assert obs == obs.copy(), 'an observable differs from its copy'\n"
                 "assert obs.simplify() == reordered.simplify(), "
                 "'the same terms in another order have different simplified forms'\n"
                 f"assert (obs - reordered).simplify(1e-10) == SparseObservable.zero({n}), "
                 "'(a - b).simplify(tol) of a reordering is not zero'\n"
                 f"other_terms = [(label, c + 0.5 if i == {changed} else c) for i, (label, c) in enumerate(terms)]\n"
                 f"other = SparseObservable.from_list(other_terms, num_qubits={n})\n"
                 f"if np.max(np.abs(dense(other_terms, {n}) - expected)) > 1e-6:\n"
                 "    assert obs != other and obs.simplify() != other.simplify(), "
                 "'observables with different matrices compare equal'\n"
                 f"assert obs != SparseObservable.from_list(terms, num_qubits={n}).tensor(SparseObservable.identity(1)), "
                 "'observables on different numbers of qubits compare equal'\n")
    return _header() + body


def _keep_strategy(subject):
    strategy = _examples(lambda n, rnd: _keep_example(subject, n, rnd))
    return strategy.filter(_clear_of_tolerance) if subject.startswith("simplify") else strategy


# =============================================================================================
# views: counts, arrays, terms and bases agree with the terms given

VIEWS = {
    "num_qubits/num_terms/len": ["num_terms"], "raw arrays": ["boundaries"], "iteration/indexing": ["Term"],
    "Term.bit_labels": ["Term.bit_labels"], "pauli_bases": ["pauli_bases"], "Term.pauli_base": ["Term.pauli_base"],
    "to_sparse_list": ["to_sparse_list"],
}
NUMERIC = {"Z": 1, "X": 2, "Y": 3, "0": 9, "1": 5, "+": 10, "-": 6, "r": 11, "l": 7}


def _views_example(subject, n, rnd):
    return {"n": n, "terms": _observable(rnd, n, min_terms=0 if rnd.random() < 0.1 else 1)}


def _views_program(subject, ex):
    n, terms = ex["n"], ex["terms"]
    body = (f"terms = {_terms_literal(terms)}\n"
            f"obs = SparseObservable.from_list(terms, num_qubits={n})\n"
            "def sparse(label):\n"
            "    # the non-identity letters and their qubits, ascending (the documented term-wise order)\n"
            f"    pairs = [(label[{n - 1} - q], q) for q in range({n}) if label[{n - 1} - q] != 'I']\n"
            "    return ''.join(p[0] for p in pairs), [p[1] for p in pairs]\n")
    if subject == "num_qubits/num_terms/len":
        body += (f"assert obs.num_qubits == {n}, f'num_qubits is {{obs.num_qubits}}, expected {n}'\n"
                 "assert obs.num_terms == len(terms), f'num_terms is {obs.num_terms}, expected {len(terms)}'\n"
                 "assert len(obs) == len(terms), f'len is {len(obs)}, expected {len(terms)}'\n")
    elif subject == "raw arrays":
        body += (f"NUMERIC = {NUMERIC!r}  # BitTerm values of the class docstring's table\n"
                 "boundaries, bit_terms, indices = [0], [], []\n"
                 "for label, _ in terms:\n"
                 "    letters, qubits = sparse(label)\n"
                 "    bit_terms += [NUMERIC[ch] for ch in letters]\n"
                 "    indices += qubits\n"
                 "    boundaries.append(len(indices))\n"
                 "assert [complex(c) for c in obs.coeffs[:]] == [complex(c) for _, c in terms], "
                 "f'coeffs {list(obs.coeffs[:])}, given {[c for _, c in terms]}'\n"
                 "assert [int(b) for b in obs.boundaries[:]] == boundaries, f'boundaries {list(obs.boundaries[:])}, expected {boundaries}'\n"
                 "assert [int(q) for q in obs.indices[:]] == indices, f'indices {list(obs.indices[:])}, expected {indices}'\n"
                 "assert [int(b) for b in obs.bit_terms[:]] == bit_terms, f'bit_terms {list(obs.bit_terms[:])}, expected {bit_terms}'\n")
    elif subject == "iteration/indexing":
        body += ("iterated = list(obs)\n"
                 "assert len(iterated) == len(terms), f'{len(iterated)} terms iterated, {len(terms)} given'\n"
                 "for i, (label, c) in enumerate(terms):\n"
                 "    letters, qubits = sparse(label)\n"
                 "    for term, how in ((iterated[i], 'iteration'), (obs[i], f'obs[{i}]'), (obs[i - len(terms)], f'obs[{i - len(terms)}]')):\n"
                 "        assert complex(term.coeff) == complex(c), f'{how}: coeff {term.coeff}, expected {c}'\n"
                 "        assert [int(q) for q in term.indices] == qubits, f'{how}: indices {list(term.indices)}, expected {qubits}'\n"
                 "        assert [BIT_TERM_LETTER[int(b)] for b in term.bit_terms] == list(letters), "
                 "f'{how}: bit_terms {list(term.bit_terms)} for letters {letters!r}'\n"
                 f"        assert term.num_qubits == {n}, f'{{how}}: num_qubits {{term.num_qubits}}'\n")
    elif subject == "Term.bit_labels":
        body += ("for i, (label, c) in enumerate(terms):\n"
                 "    letters, qubits = sparse(label)\n"
                 "    assert obs[i].bit_labels() == letters, f'term {i}: bit_labels {obs[i].bit_labels()!r}, expected {letters!r} (in indices order)'\n")
    elif subject == "pauli_bases":
        body += (f"BASIS = {BASIS!r}\n"
                 "bases = obs.pauli_bases()\n"
                 "expected = [''.join(BASIS[ch] for ch in label) for label, _ in terms]\n"
                 "assert len(bases) == len(terms), f'{len(bases)} bases for {len(terms)} terms'\n"
                 "assert [p.to_label() for p in bases] == expected, f'pauli_bases {bases.to_labels()}, expected {expected}'\n")
    elif subject == "Term.pauli_base":
        body += (f"BASIS = {BASIS!r}\n"
                 "for i, (label, c) in enumerate(terms):\n"
                 "    wanted = ''.join(BASIS[ch] for ch in label)\n"
                 "    assert obs[i].pauli_base().to_label() == wanted, f'term {i} ({label}): pauli_base {obs[i].pauli_base()}, expected {wanted}'\n")
    else:  # to_sparse_list
        body += (f"def dense_label(letters, qubits):\n"
                 f"    return label_of(letters, qubits, {n})\n"
                 "actual = sorted(((dense_label(letters, qubits), complex(c)) for letters, qubits, c in obs.to_sparse_list()), key=repr)\n"
                 "wanted = sorted(((label, complex(c)) for label, c in terms), key=repr)\n"
                 "assert actual == wanted, f'to_sparse_list {obs.to_sparse_list()} describes {actual}, the terms are {wanted}'\n")
    return _header() + body


def _views_strategy(subject):
    return _examples(lambda n, rnd: _views_example(subject, n, rnd))


# =============================================================================================
# repr: the printed terms are the observable's terms

PRINTERS = {"repr": [], "Term.to_label": ["Term.to_label"]}

PARSE = '''import re


def parse_terms(text, n):
    """(dense label, coeff) of each printed term `(coeff)(L_i L_j ...)`; `0.0` is no term."""
    out = []
    for coeff, body in re.findall(r"\\(([^()]*)\\)\\(([^()]*)\\)", text):
        coeff = complex(coeff.replace("+-", "-"))
        pairs = [item.rsplit("_", 1) for item in body.split()]
        out.append((label_of([p[0] for p in pairs], [int(p[1]) for p in pairs], n), coeff))
    return out

'''


def _printer_program(subject, ex):
    n, terms = ex["n"], ex["terms"]
    body = (f"terms = {_terms_literal(terms)}\n"
            f"obs = SparseObservable.from_list(terms, num_qubits={n})\n")
    if subject == "repr":
        body += (f"printed = parse_terms(repr(obs), {n})\n"
                 "assert sorted(printed, key=repr) == sorted([(l, complex(c)) for l, c in terms], key=repr), f'repr {obs!r} prints {printed}, the terms are {terms}'\n"
                 f"assert ' on {n} qubit' in repr(obs), f'repr {{obs!r}} does not say {n} qubits'\n")
    else:
        body += ("for i, (label, c) in enumerate(terms):\n"
                 f"    printed = parse_terms(obs[i].to_label(), {n})\n"
                 "    assert printed == [(label, c)], f'term {i}: to_label {obs[i].to_label()!r} prints {printed}, the term is {(label, c)}'\n")
    return _header() + PARSE + body


def _printer_strategy(subject):
    st = _st()
    # repr's coefficient is Python's complex repr: keep coefficients exactly representable in it
    return st.tuples(st.integers(1, 5), st.randoms(use_true_random=False)).map(
        lambda t: {"n": t[0], "terms": _observable(t[1], t[0], min_terms=0 if t[1].random() < 0.1 else 1)})


# =============================================================================================

def _checker(program):
    return lambda subject, example: _run(subject, program(subject, example))


def _api(prefix):
    def api(subject):
        name = subject.split("(")[0].split(" ")[0].split("/")[0]
        if name.startswith("Term."):
            return f"qiskit.quantum_info.SparseObservable.{name}"
        if not name[:1].isalpha():
            return f"qiskit.quantum_info.SparseObservable.__{prefix}__"
        return f"qiskit.quantum_info.SparseObservable.{name}"
    return api


def _describe(subject, example):
    return f"SparseObservable {subject} on {example}"


FAMILY = "SparseObservable algebra"
DOC = ("documentation: qiskit.quantum_info.SparseObservable class docstring (alphabet table, raw arrays, "
       "construction, canonical ordering, mathematical manipulation) and the docstrings of its methods; "
       "the Kronecker-product matrix of a term (right-most label letter on qubit 0)")

CONTRACTS = [
    Contract("qiskit.sparse-observable.constructors-give-the-matrix", FAMILY,
             "every SparseObservable constructor (from_label, from_list, from_sparse_list with indices in any "
             "order, from_terms, from_pauli with its phase, from_sparse_pauli_op, identity, zero, the default "
             "constructor), the to_sparse_list round trip, copy, Term.to_observable and to_matrix give the sum of "
             "the Kronecker products of the documented alphabet matrices (I X Y Z + - r l 0 1), 1-5 qubits",
             DOC, lambda: _available(CONSTRUCTORS), _construct_strategy, _checker(_construct_program),
             _construct_program, _api("new"), describe=_describe),
    Contract("qiskit.sparse-observable.algebra-is-matrix-algebra", FAMILY,
             "SparseObservable +, -, unary -, scalar * and /, their in-place forms, compose (B.A; front=True A.B; "
             "qargs placing other on those qubits), tensor / ^ (other on the low qubits), expand, adjoint, "
             "conjugate and transpose are the same operations on the alphabet matrices, operands unchanged",
             DOC, lambda: _available(OPERATIONS), _algebra_strategy, _checker(_algebra_program),
             _algebra_program, _api("op"), describe=_describe),
    Contract("qiskit.sparse-observable.structure-methods-keep-the-matrix", FAMILY,
             "SparseObservable.simplify sums like terms and drops sums below tol (default and user tol), as_paulis "
             "keeps the matrix with Pauli letters only, apply_layout moves qubit k to layout[k] (list, list with "
             "num_qubits, None with num_qubits); == is structural (copies and simplified reorderings equal, the "
             "(a - b).simplify(tol) == zero recipe) and never equates different matrices",
             DOC, lambda: _available(KEEPERS), _keep_strategy, _checker(_keep_program), _keep_program,
             _api("eq"), describe=_describe),
    Contract("qiskit.sparse-observable.views-agree-with-the-terms", FAMILY,
             "SparseObservable num_qubits, num_terms, len, the raw arrays (coeffs, bit_terms with the documented "
             "numeric values, indices sorted term-wise, boundaries from 0), iteration and indexing (Term.coeff, "
             "indices, bit_terms, num_qubits, bit_labels, pauli_base), pauli_bases and to_sparse_list describe "
             "exactly the terms the observable was built from",
             DOC, lambda: _available(VIEWS), _views_strategy, _checker(_views_program), _views_program,
             _api("len"), describe=_describe),
    Contract("qiskit.sparse-observable.printed-terms-are-the-terms", FAMILY,
             "the repr of a SparseObservable and Term.to_label print each term as (coeff)(L_i ...), in the format "
             "of the docstring examples, for exactly the observable's terms and qubit count",
             DOC, lambda: _available(PRINTERS), _printer_strategy, _checker(_printer_program), _printer_program,
             _api("repr"), validity="undocumented", describe=_describe),
]
