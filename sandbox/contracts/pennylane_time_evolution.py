"""Hamiltonian simulation, PennyLane: the exponential operators are exp of the Hamiltonian in their
documented convention, the product formulas converge at their documented order, and TrotterProduct's
documented error bounds bound the true error.

Hamiltonians are `qml.dot` of 1-3 Pauli words (PauliX/Y/Z products, or an Identity) on 1-3 wires with
real coefficients; times have either sign. The judge is numpy and scipy: H is built here from the
letters (np.kron in wire order, wire 0 the most significant bit, PennyLane's convention) and
exponentiated with scipy.linalg.expm; circuits are multiplied out here from their decomposition.

  - exact-is-expm: qml.matrix(op, wire_order) equals the documented exponential, and so does the
    product of the decomposition's matrices when the op has one: `qml.exp(H, -1j t)` = expm(-itH) and
    `qml.exp(H, t)` = expm(tH) (docs: "exponential of an Operator times a coefficient"),
    `qml.evolve(H, t)` and `qml.ops.Evolution(H, t)` = e^{-itH} (their docstrings' e^{-ix O}),
    `qml.ops.Exp(H, -1j t)` = expm(-itH).
  - product-formula-order: the circuit of `qml.TrotterProduct(H, t, n, order)` (order 1, 2, 4) and of
    `qml.ApproxTimeEvolution(H, t, n)` (order 1) approximates e^{+-iHt} in the sign its docstring
    states (TrotterProduct e^{iHt}, ApproxTimeEvolution e^{-iHt}); for two or three terms that do not
    all commute, once the step lambda|t|/n is at most 1/2 (lambda = sum |c|), doubling n divides the
    spectral-norm error by at least 2^order / 1.5 (asymptotically 2^order; the 1.5 margin absorbs the
    next-order term at that step). ApproxTimeEvolution of a single term is exact. (Commuting terms are
    pennylane_templates' closed-form-unitary law, not repeated here.)
  - trotter-error-bound: `TrotterProduct.error(method=m)` for the documented methods
    ("one-norm-bound", "commutator-bound") is at least the true spectral-norm error
    ||e^{iHt} - [S_m(t/n)]^n|| (its docstring: "an *upper-bound* on the spectral norm error").
"""

import functools

from contract_runtime import Contract

from contracts.product_formulas import hamiltonians, order_assertion, start_steps, times

FAMILY = "time-evolution"
DOC = ("pennylane qml.exp / qml.evolve / qml.ops.Evolution / qml.ops.Exp docstrings (e^{-ix O}); "
       "qml.TrotterProduct (e^{iHt} ~ [S_m(t/n)]^n, error(): upper bound on the spectral-norm error), "
       "qml.ApproxTimeEvolution (e^{-iHt}) docstrings")

# Matrices at most 8x8 with norm <= e^{|t| lambda}: expm and a product of a few hundred small
# matrices accumulate ~1e-13 relative; 1e-8 leaves room and still catches any wrong sign, time or
# coefficient (those differ by O(|t| c) >> 1e-8 for the drawn values).
ATOL = 1e-8

EXACT = {  # subject -> (constructor source with {H} and {t}, expected exponent factor of H as source)
    "exp": ("qml.exp(H, -1j * t)", "-1j * t"),
    "exp(real coeff)": ("qml.exp(H, t)", "t"),
    "evolve": ("qml.evolve(H, t)", "-1j * t"),
    "Evolution": ("qml.ops.Evolution(H, t)", "-1j * t"),
    "Exp": ("qml.ops.Exp(H, -1j * t)", "-1j * t"),
}
FORMULAS = {"TrotterProduct1": ("TrotterProduct", 1), "TrotterProduct2": ("TrotterProduct", 2),
            "TrotterProduct4": ("TrotterProduct", 4), "ApproxTimeEvolution": ("ApproxTimeEvolution", 1)}
BOUNDS = ("one-norm-bound",)  # "commutator-bound": its check ran past 8 minutes on 30 inputs (not a subject until timed)


# -- examples: (n, terms ((label, coeff), ...), time, steps, order) -------------------------------
def _exact_strategy(subject):
    from hypothesis import strategies as st

    return st.tuples(hamiltonians(st), times(st)).map(lambda e: (e[0][0], e[0][1], e[1], 1, 1))


def _formula_strategy(subject):
    from hypothesis import strategies as st

    cls, order = FORMULAS[subject]
    if cls == "ApproxTimeEvolution":
        # no identity word: ApproxTimeEvolution is "expressed in terms of Pauli gates" (PauliRot), and an
        # identity term (a global phase) is outside what its docstring describes
        h = st.one_of(hamiltonians(st, 1, 1), hamiltonians(st, 2, 3, commuting=False)).filter(
            lambda e: all(set(w) != {"I"} for w, _ in e[1]))
    else:
        h = hamiltonians(st, 2, 3, commuting=False)
    return st.tuples(h, times(st), st.integers(1, 3)).map(lambda e: (e[0][0], e[0][1], e[1], e[2], order))


def _bound_strategy(subject):
    from hypothesis import strategies as st

    return st.tuples(hamiltonians(st, 2, 3), times(st), st.integers(1, 4), st.sampled_from([1, 2, 4])).map(
        lambda e: (e[0][0], e[0][1], e[1], e[2], e[3]))


# -- sources: the reproducer is the check ----------------------------------------------------------
HEAD = """import numpy as np
from scipy.linalg import expm
import pennylane as qml

PAULI = {{"I": np.eye(2), "X": np.array([[0, 1], [1, 0]]), "Y": np.array([[0, -1j], [1j, 0]]),
         "Z": np.diag([1.0, -1.0])}}
WIRES = list(range({n}))


def word(label):  # letter i acts on wire i; wire 0 is the most significant bit
    m = np.eye(1)
    for letter in label:
        m = np.kron(m, PAULI[letter])
    return m


def circuit_matrix(ops):  # the decomposition's gates applied in order, multiplied out with numpy
    u = np.eye(2 ** len(WIRES), dtype=complex)
    for op in ops:
        u = qml.matrix(op, wire_order=WIRES) @ u
    return u


terms = {terms!r}
t = {time!r}
H = qml.dot([c for _, c in terms], [{ops}])
h = sum(c * word(label) for label, c in terms)
"""

NAMES = {"X": "qml.PauliX", "Y": "qml.PauliY", "Z": "qml.PauliZ"}


def _op_source(label):
    factors = [f"{NAMES[letter]}({i})" for i, letter in enumerate(label) if letter != "I"]
    return " @ ".join(factors) if factors else "qml.Identity(0)"


def _head(example):
    n, terms, time, _, _ = example
    return HEAD.format(n=n, terms=list(terms), time=time, ops=", ".join(_op_source(w) for w, _ in terms))


def _exact_source(subject, example):
    make, factor = EXACT[subject]
    return _head(example) + (
        f"op = {make}\n"
        f"exact = expm({factor} * h)\n"
        "U = qml.matrix(op, wire_order=WIRES)\n"
        "error = np.linalg.norm(U - exact, 2)\n"
        f"assert error < {ATOL!r}, f'qml.matrix({make}) is at distance {{error:.3g}} from expm({factor} * H)'\n"
        "if op.has_decomposition:\n"
        "    error = np.linalg.norm(circuit_matrix(op.decomposition()) - exact, 2)\n"
        f"    assert error < {ATOL!r}, f'the decomposition of {make} is at distance {{error:.3g}} from "
        f"expm({factor} * H)'\n")


@functools.lru_cache(maxsize=None)  # noqa: UP033
def _sign(cls):
    """The sign of i in the exponent the docstring states: -1 for e^{-iHt}, +1 for e^{iHt}."""
    import pennylane as qml

    doc = (getattr(qml, cls).__doc__ or "").replace("\\ ", "").replace(" ", "")  # e^{-i H t} -> e^{-iHt}
    minus, plus = "e^{-iHt}" in doc, "e^{iHt}" in doc
    if minus != plus:
        return -1 if minus else 1
    return None


def _call(cls, order, steps_expr):
    if cls == "TrotterProduct":
        return f"qml.TrotterProduct(H, t, n={steps_expr}, order={order})"
    # its docstring types the argument as a Hamiltonian (before 0.34 a Sum is refused)
    return f"qml.ApproxTimeEvolution(qml.Hamiltonian(*H.terms()), t, {steps_expr})"


def _formula_source(subject, example):
    _n, terms, time, steps, _ = example
    cls, order = FORMULAS[subject]
    sign = "" if _sign(cls) > 0 else "-"
    src = _head(example) + (
        f"exact = expm({sign}1j * t * h)  # the docstring's e^{{{sign}iHt}}\n\n\n"
        f"def error(n):\n    op = {_call(cls, order, 'n')}\n"
        "    return np.linalg.norm(circuit_matrix(op.decomposition()) - exact, 2)\n\n\n")
    if len(terms) == 1:
        return src + (f"e = error({steps})\n"
                      f"assert e < {ATOL!r}, f'a single term, n={steps}: distance to expm({sign}itH) is {{e:.3g}}'\n")
    return src + order_assertion(order, start_steps(terms, time, steps), "n", ATOL)


def _bound_source(subject, example):
    _n, _terms, _time, steps, order = example
    sign = "" if _sign("TrotterProduct") > 0 else "-"
    return _head(example) + (
        f"op = qml.TrotterProduct(H, t, n={steps}, order={order})\n"
        f"true_error = np.linalg.norm(circuit_matrix(op.decomposition()) - expm({sign}1j * t * h), 2)\n"
        f"bound = float(op.error(method={subject!r}).error)\n"
        "# documented: an upper bound on the spectral-norm error (1e-9: the true error's rounding)\n"
        f"assert true_error <= bound + 1e-9, f'error(method=\"{subject}\") = {{bound:.6g}} < true error "
        "{true_error:.6g}'\n")


def _run(source):
    exec(compile(source, "<law>", "exec"), {"__name__": "__law__"})  # noqa: S102 (the reproducer is the check)


# -- subjects ---------------------------------------------------------------------------------------
def _exact_subjects():
    import pennylane as qml

    present = {"exp": hasattr(qml, "exp"), "exp(real coeff)": hasattr(qml, "exp"), "evolve": hasattr(qml, "evolve"),
               "Evolution": hasattr(qml.ops, "Evolution"), "Exp": hasattr(qml.ops, "Exp")}
    return [s for s in EXACT if present[s]]


def _formula_subjects():
    import pennylane as qml

    return [s for s, (cls, _) in FORMULAS.items() if hasattr(qml, cls) and _sign(cls) is not None]


def _bound_subjects():
    import pennylane as qml

    trotter = getattr(qml, "TrotterProduct", None)
    if trotter is None or not hasattr(trotter, "error") or _sign("TrotterProduct") is None:
        raise AttributeError("qml.TrotterProduct.error is absent")
    doc = trotter.error.__doc__ or ""
    return [m for m in BOUNDS if m in doc]


def _describe(subject, example):
    _n, terms, time, steps, order = example
    return f"terms={list(terms)!r}, t={time!r}, n={steps}, order={order}"


CONTRACTS = [
    Contract("pennylane.evolution.exact-is-expm", FAMILY,
             "qml.exp(H, -1j t) and qml.ops.Exp(H, -1j t) are expm(-itH), qml.exp(H, t) is expm(tH), qml.evolve(H, t) "
             "and qml.ops.Evolution(H, t) are e^{-itH}: their qml.matrix and (when defined) their decomposition, for "
             "1-3 Pauli words on 1-3 wires with real coefficients and t of either sign",
             DOC, _exact_subjects, _exact_strategy, lambda s, e: _run(_exact_source(s, e)), _exact_source,
             lambda s: EXACT[s][0].split("(")[0], describe=_describe),
    Contract("pennylane.evolution.product-formula-order", FAMILY,
             "the decomposition of qml.TrotterProduct(H, t, n, order) (order 1, 2, 4) and qml.ApproxTimeEvolution(H, t, "
             "n) approximates e^{+-iHt} (the docstring's sign) at its order: at step lambda|t|/n <= 1/2, doubling n "
             "divides the spectral-norm error by at least 2^order/1.5; ApproxTimeEvolution of one term is exact",
             DOC, _formula_subjects, _formula_strategy, lambda s, e: _run(_formula_source(s, e)), _formula_source,
             lambda s: f"qml.{FORMULAS[s][0]}", describe=_describe),
    Contract("pennylane.evolution.trotter-error-bound", FAMILY,
             "qml.TrotterProduct(H, t, n, order).error(method=m) for each documented method is at least the true "
             "spectral-norm error ||e^{iHt} - [S_m(t/n)]^n|| (the docstring calls it an upper bound)",
             DOC, _bound_subjects, _bound_strategy, lambda s, e: _run(_bound_source(s, e)), _bound_source,
             lambda s: "qml.TrotterProduct.error", describe=_describe),
]
