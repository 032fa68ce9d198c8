"""Hamiltonian simulation, Qiskit: `PauliEvolutionGate` is the documented U(t) = e^{-itH}, and the
product formulas of `qiskit.synthesis` approximate it at their documented order.

Hamiltonians are SparsePauliOps of 1-3 Pauli words on 1-3 qubits with real coefficients; times have
either sign. The judge is numpy and scipy: H is built here from the labels (np.kron in label order,
the leftmost letter the highest qubit, Qiskit's little-endian Operator convention) and exponentiated
with scipy.linalg.expm; the library's own `to_matrix` is never used.

  - exact-is-expm: `PauliEvolutionGate(H, time=t, synthesis=MatrixExponential())` has
    Operator(gate) = Operator(gate.definition) = expm(-i t H) (subject "MatrixExponential"); with the
    default synthesis, for Hamiltonians whose words mutually commute (where a product of the terms'
    exponentials is exact), Operator(gate) = expm(-i t H) as well (subject "default").
  - product-formula-order: the circuit `PauliEvolutionGate(H, t, synthesis=F(reps=r)).definition`
    (Operator(gate) itself may be computed exactly, whatever the synthesis) for every product formula
    the release exports (LieTrotter order 1, SuzukiTrotter order 2 and 4): exact when there is one
    term or the terms commute; otherwise, once the step lambda|t|/r is at most 1/2 (lambda = sum |c|),
    doubling reps divides ||U_r - expm||_2 by at least 2^order / 1.5 (the asymptotic ratio is
    2^order; the 1.5 margin absorbs the next-order term at that step size). QDrift is random: only its
    single-term exactness is a law here (every sample is that term, lambda t / N each).

Not duplicating qiskit_transformation (which only transpiles single-term evolutions).
"""

import functools

from contract_runtime import Contract

from contracts.product_formulas import (
    all_commute,
    hamiltonians,
    order_assertion,
    start_steps,
    times,
)

FAMILY = "time-evolution"
DOC = ("qiskit.circuit.library.PauliEvolutionGate docstring (U(t) = e^{-itH}); qiskit.synthesis LieTrotter / "
       "SuzukiTrotter (order, reps) / QDrift / MatrixExponential docstrings")

# Exact comparisons: matrices at most 8x8 of norm <= 1 built in double precision; expm and a product
# of <= a few hundred 2-qubit-gate circuits accumulate ~1e-13. 1e-8 leaves room and still catches any
# wrong sign, time or coefficient (those differ by O(|t| c) >> 1e-8 for the drawn values).
ATOL = 1e-8
FORMULAS = {"LieTrotter": ("LieTrotter", 1), "SuzukiTrotter2": ("SuzukiTrotter", 2),
            "SuzukiTrotter4": ("SuzukiTrotter", 4), "QDrift": ("QDrift", None)}


# -- examples: (n, terms ((label, coeff), ...), time, reps) ---------------------------------------
def _exact_strategy(subject):
    from hypothesis import strategies as st

    h = hamiltonians(st, commuting=True if subject == "default" else None)
    return st.tuples(h, times(st)).map(lambda e: (e[0][0], e[0][1], e[1], 1))


def _formula_strategy(subject):
    from hypothesis import strategies as st

    h = hamiltonians(st, max_terms=1 if subject == "QDrift" else 3)
    return st.tuples(h, times(st), st.integers(1, 3)).map(lambda e: (e[0][0], e[0][1], e[1], e[2]))


# -- the reproducer is the check: numpy/scipy judge, Qiskit through its public API -----------------
HEAD = """import numpy as np
from scipy.linalg import expm
from qiskit.quantum_info import Operator, SparsePauliOp
from qiskit.circuit.library import PauliEvolutionGate
{synthesis_import}
PAULI = {{"I": np.eye(2), "X": np.array([[0, 1], [1, 0]]), "Y": np.array([[0, -1j], [1j, 0]]),
         "Z": np.diag([1.0, -1.0])}}


def word(label):  # the leftmost letter acts on the highest qubit (Qiskit's little-endian order)
    m = np.eye(1)
    for letter in label:
        m = np.kron(m, PAULI[letter])
    return m


terms = {terms!r}
t = {time!r}
H = SparsePauliOp.from_list(terms)
exact = expm(-1j * t * sum(c * word(label) for label, c in terms))  # e^{{-itH}}
"""


def _error_expr():
    return "np.linalg.norm(U - exact, 2)"


def _exact_source(subject, example):
    _n, terms, time, _ = example
    src = HEAD.format(synthesis_import="from qiskit.synthesis import MatrixExponential" if subject ==
                      "MatrixExponential" else "", terms=list(terms), time=time)
    if subject == "MatrixExponential":
        src += ("gate = PauliEvolutionGate(H, time=t, synthesis=MatrixExponential())\n"
                "for what, U in [('Operator(gate)', Operator(gate).data), "
                "('Operator(gate.definition)', Operator(gate.definition).data)]:\n"
                "    error = np.linalg.norm(U - exact, 2)\n"
                f"    assert error < {ATOL!r}, f'{{what}} != expm(-i t H): spectral-norm distance {{error:.3g}}'\n")
    else:
        src += ("# the words mutually commute: the default product formula is exact\n"
                "gate = PauliEvolutionGate(H, time=t)\n"
                "for what, U in [('Operator(gate)', Operator(gate).data), "
                "('Operator(gate.definition)', Operator(gate.definition).data)]:\n"
                "    error = np.linalg.norm(U - exact, 2)\n"
                f"    assert error < {ATOL!r}, f'commuting terms, default synthesis: {{what}} is at distance {{error:.3g}} "
                "from expm(-i t H)'\n")
    return src


def _formula_call(subject, reps_expr):
    cls, order = FORMULAS[subject]
    if cls == "SuzukiTrotter":
        return f"SuzukiTrotter(order={order}, reps={reps_expr})"
    if cls == "QDrift":
        return f"QDrift(reps={reps_expr}, seed=7)"
    return f"{cls}(reps={reps_expr})"


def _formula_source(subject, example):
    _n, terms, time, reps = example
    cls, order = FORMULAS[subject]
    src = HEAD.format(synthesis_import=f"from qiskit.synthesis import {cls}", terms=list(terms), time=time)
    src += (f"def error(reps):\n    gate = PauliEvolutionGate(H, time=t, synthesis={_formula_call(subject, 'reps')})\n"
            "    return np.linalg.norm(Operator(gate.definition).data - exact, 2)  # the synthesized circuit\n\n")
    labels = [w for w, _ in terms]
    if len(terms) == 1 or (cls != "QDrift" and all_commute(labels)):
        why = "a single term" if len(terms) == 1 else "mutually commuting terms"
        src += (f"# {why}: every product formula is exact\n"
                f"e = error({reps})\n"
                f"assert e < {ATOL!r}, f'{why}, reps={reps}: distance to expm(-i t H) is {{e:.3g}}'\n")
        return src
    src += order_assertion(order, start_steps(terms, time, reps), "reps", ATOL)
    return src


def _run(source):
    exec(compile(source, "<law>", "exec"), {"__name__": "__law__"})  # noqa: S102 (the reproducer is the check)


# -- subjects ---------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=None)  # noqa: UP033
def _synthesis():
    import qiskit.synthesis
    from qiskit.circuit.library import PauliEvolutionGate  # noqa: F401 (absent: the family does not apply)

    return qiskit.synthesis


def _exact_subjects():
    s = _synthesis()
    return (["MatrixExponential"] if hasattr(s, "MatrixExponential") else []) + ["default"]


def _formula_subjects():
    s = _synthesis()
    return [name for name, (cls, _) in FORMULAS.items() if hasattr(s, cls)]


def _describe(subject, example):
    _n, terms, time, reps = example
    return f"H = SparsePauliOp.from_list({list(terms)!r}), time={time!r}, reps={reps}"


CONTRACTS = [
    Contract("qiskit.evolution.exact-is-expm", FAMILY,
             "PauliEvolutionGate(H, time=t) is e^{-itH} (scipy expm of H built from the Pauli labels): with "
             "synthesis=MatrixExponential() both Operator(gate) and Operator(gate.definition), and with the default "
             "synthesis whenever the terms commute; 1-3 Pauli words on 1-3 qubits, real coefficients, t of either sign",
             DOC, _exact_subjects, _exact_strategy, lambda s, e: _run(_exact_source(s, e)), _exact_source,
             lambda s: "qiskit.circuit.library.PauliEvolutionGate" + (
                 "(synthesis=MatrixExponential())" if s == "MatrixExponential" else ""),
             describe=_describe),
    Contract("qiskit.evolution.product-formula-order", FAMILY,
             "PauliEvolutionGate with a product-formula synthesis (LieTrotter, SuzukiTrotter order 2/4, reps) is exact "
             "for one term or commuting terms, and otherwise, at step lambda|t|/reps <= 1/2, doubling reps divides the "
             "spectral-norm error to expm(-itH) by at least 2^order/1.5; QDrift is exact for a single term",
             DOC, _formula_subjects, _formula_strategy, lambda s, e: _run(_formula_source(s, e)), _formula_source,
             lambda s: f"qiskit.synthesis.{FORMULAS[s][0]}", describe=_describe),
]
