"""Rewrites of Pauli sums, PennyLane: a rewrite returns the same operator, on the same wires.

A sum of Pauli terms is written the ways the docs show (`qml.ops.LinearCombination` /
`qml.Hamiltonian`, `qml.sum` of `qml.s_prod`s, `qml.dot`, `c * P + ...`), with a term that is the
identity on some wires among its Pauli words. The rewrites the docs offer for such an operator
-- `qml.simplify(op)`, `op.simplify()`, and the Pauli representation turned back into an
operator, `op.pauli_rep.operation(wire_order=op.wires)` -- must give the same operator back:

  - `Operator.wires` ("Wires of this operator"): a sum's wires are those of its terms, so an
    identity term's wires count; a rewrite that keeps the operator keeps them. The library's
    own Pauli conversions take a `wire_order` for exactly this (`PauliWord.operation`: the
    identity word acts on `wire_order`). A sum rewritten onto fewer wires has another default
    matrix (`qml.matrix(op)`: a different size) and another place in a circuit.
  - its matrix in the sum's wire order is the sum's, checked against Kronecker products of the
    2x2 Paulis built here (the first wire the most significant).

Identity factors inside a product term (`X(0) @ I(1)`) are not drawn: the law states the
terms as a user writes a Pauli word, each factor a non-identity Pauli, or the whole term an
identity. The check runs the reproducer itself: the standalone program is the single statement
of the law.
"""

from contract_runtime import Contract
from contracts.pennylane_pauli_grouping import KRONECKER

POOL = [0, 1, 2, 5, "a", "b", "q1", "w"]
LETTERS = "XYZ"
COEFFS = [1.0, -0.5, 0.25, 2.0, 1.5, -1.25, 0.75, 3.0]
OP = {"X": "qml.PauliX", "Y": "qml.PauliY", "Z": "qml.PauliZ"}


# How each rewrite is written, on the operator `op`.
REWRITES = {
    "qml.simplify": "qml.simplify(op)",
    "simplify()": "op.simplify()",
    "pauli_rep.operation": "op.pauli_rep.operation(wire_order=op.wires)",
}


# -- which forms and rewrites: those the release has ----------------------------------------------
def _forms():
    """How a sum is written -> the class its rewrite entry is named by."""
    import pennylane as qml

    forms = {}
    if hasattr(qml.ops, "LinearCombination"):
        forms["LinearCombination"] = "pennylane.ops.LinearCombination"
    if hasattr(qml, "Hamiltonian") and qml.Hamiltonian is not getattr(qml.ops, "LinearCombination", None):
        forms["Hamiltonian"] = "pennylane.Hamiltonian"  # the class before LinearCombination replaced it
    if hasattr(qml, "sum") and hasattr(qml, "s_prod"):
        forms["qml.sum"] = "pennylane.ops.Sum"
    if hasattr(qml, "dot"):
        forms["qml.dot"] = "pennylane.dot"
    forms["operator +"] = "pennylane.ops.Sum"
    return forms


def _subjects():
    import pennylane as qml

    found = []
    for form in _forms():
        for rewrite in REWRITES:
            if rewrite == "qml.simplify" and not hasattr(qml, "simplify"):
                continue
            if rewrite == "pauli_rep.operation" and not hasattr(qml.operation.Operator, "pauli_rep"):
                continue
            found.append(f"{form}:{rewrite}")
    return found


def _api(subject):
    form, rewrite = subject.split(":")
    owner = _forms()[form]
    if rewrite == "qml.simplify":
        return "pennylane.simplify"
    if rewrite == "simplify()":
        return f"{owner}.simplify" if owner != "pennylane.dot" else "pennylane.ops.Sum.simplify"
    return "pennylane.pauli.PauliSentence.operation"


# -- inputs -----------------------------------------------------------------------------------------
def _strategy(subject):
    """(terms, coefficients): terms on a few wires of POOL (ints and strings mixed), each a Pauli
    word ((wire, letter), ...) with distinct wires, or ("I", wires) the identity on those wires;
    at least one identity term and one Pauli word."""
    from hypothesis import strategies as st

    def on(universe):
        word = st.lists(st.tuples(st.sampled_from(universe), st.sampled_from(LETTERS)), min_size=1,
                        max_size=min(3, len(universe)), unique_by=lambda t: t[0]).map(tuple)
        identity = st.lists(st.sampled_from(universe), min_size=1, max_size=min(2, len(universe)),
                            unique=True).map(lambda wires: ("I", tuple(wires)))
        return st.tuples(st.lists(word, min_size=1, max_size=3), st.lists(identity, min_size=1, max_size=2)).flatmap(
            lambda t: st.permutations(t[0] + t[1]).map(tuple))

    universe = st.lists(st.sampled_from(POOL), min_size=1, max_size=4, unique=True)
    terms = universe.flatmap(on)
    return terms.flatmap(lambda ts: st.tuples(st.just(ts), st.lists(st.sampled_from(COEFFS), min_size=len(ts),
                                                                     max_size=len(ts))))


def _is_identity(term):
    return term[0] == "I"


def _term_src(term):
    if _is_identity(term):
        return f"qml.Identity({list(term[1])!r})"
    return " @ ".join(f"{OP[letter]}({wire!r})" for wire, letter in term)


def _word_src(term):
    """The term as {wire: letter} for the Kronecker construction (the identity: no letter)."""
    if _is_identity(term):
        return "{}"
    return "{" + ", ".join(f"{wire!r}: {letter!r}" for wire, letter in term) + "}"


def _wires_of(terms):
    wires = []
    for term in terms:
        for wire in (term[1] if _is_identity(term) else [w for w, _ in term]):
            if wire not in wires:
                wires.append(wire)
    return wires


def _sum_src(form, terms, coeffs):
    observables = ", ".join(_term_src(t) for t in terms)
    if form == "LinearCombination":
        return f"qml.ops.LinearCombination({list(coeffs)!r}, [{observables}])"
    if form == "Hamiltonian":
        return f"qml.Hamiltonian({list(coeffs)!r}, [{observables}])"
    if form == "qml.dot":
        return f"qml.dot({list(coeffs)!r}, [{observables}])"
    if form == "qml.sum":
        return "qml.sum(" + ", ".join(f"qml.s_prod({c!r}, {_term_src(t)})" for c, t in zip(coeffs, terms)) + ")"
    return " + ".join(f"{c!r} * ({_term_src(t)})" for c, t in zip(coeffs, terms))


# -- the law ----------------------------------------------------------------------------------------
def _reproduce(subject, example):
    form, rewrite = subject.split(":")
    terms, coeffs = example
    wires = _wires_of(terms)
    return KRONECKER + (
        f"\nWIRES = {wires!r}  # the wires of the terms, identity terms included\n"
        f"terms = [{', '.join(f'({c!r}, {_word_src(t)})' for c, t in zip(coeffs, terms))}]\n"
        "expected = sum(c * kron(word, WIRES) for c, word in terms)\n"
        f"op = {_sum_src(form, terms, coeffs)}\n"
        "assert set(op.wires) == set(WIRES), f'{op} acts on {list(op.wires)}, its terms on {WIRES}'\n"
        "assert same(qml.matrix(op, wire_order=WIRES), expected), f'{op} does not have the matrix of its terms'\n"
        f"result = {REWRITES[rewrite]}\n"
        f"assert set(result.wires) == set(op.wires), (\n"
        f"    f'{REWRITES[rewrite]} is {{result}} on wires {{list(result.wires)}}; {{op}} acts on {{list(op.wires)}}')\n"
        "assert same(qml.matrix(result, wire_order=WIRES), expected), (\n"
        f"    f'{REWRITES[rewrite]} is {{result}}, which does not have the matrix of {{op}}')\n")


def _check(subject, example):
    exec(compile(_reproduce(subject, example), "<pauli-sum-law>", "exec"), {"__name__": "__main__"})  # noqa: S102


def _describe(subject, example):
    form, rewrite = subject.split(":")
    terms, coeffs = example
    return f"{REWRITES[rewrite]} with op = {_sum_src(form, terms, coeffs)}"


CONTRACTS = [
    Contract("pennylane.operation.sum-rewrites-keep-the-operator", "construction and operations",
             "a sum of Pauli words and identity terms, written as LinearCombination / Hamiltonian, qml.sum of "
             "s_prods, qml.dot or c * P + ..., acts on its terms' wires (identity terms included) with their "
             "summed matrix; qml.simplify(op), op.simplify() and op.pauli_rep.operation(wire_order=op.wires) "
             "return the same operator: the same wires and, in that wire order, the same matrix (checked "
             "against Kronecker products of the 2x2 Paulis)",
             "documentation: Operator.wires ('Wires of this operator'), qml.simplify / Operator.simplify "
             "(a simplified form of the same operator), PauliSentence.operation / PauliWord.operation "
             "(wire_order: the wires of the identity); linear algebra",
             _subjects, _strategy, _check, _reproduce, _api, describe=_describe),
]
