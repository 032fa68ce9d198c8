"""The Pauli-sum rewrite law holds on the real release where its rewrites are right, catches a
planted rewrite that loses an identity term's wires or changes a coefficient (the library patched
inside the test process), and finds, on the real 0.45.0 release, the LinearCombination
simplification that drops the wires only an identity term names, with a reproducer that fails."""

import pytest

IMPORTS = "import numpy as np\nimport pennylane as qml\n"
LAW = "pennylane.operation.sum-rewrites-keep-the-operator"

HOLDS = ["qml.sum:qml.simplify", "qml.dot:simplify()", "operator +:simplify()", "LinearCombination:pauli_rep.operation"]

PLANTS = {
    # the identity Pauli word turned into an operator on the first wire of its wire order only
    "identity-on-one-wire": ("qml.sum:pauli_rep.operation", (
        "_orig = qml.pauli.PauliWord.operation\n"
        "def _narrow(self, wire_order=()):\n"
        "    return _orig(self, wire_order=list(wire_order)[:1]) if len(self) == 0 else _orig(self, wire_order)\n"
        "qml.pauli.PauliWord.operation = _narrow\n")),
    # qml.simplify that halves the first coefficient: same wires, another matrix
    "coefficient": ("qml.dot:qml.simplify", (
        "_orig = qml.simplify\n"
        "def _halved(op):\n"
        "    coeffs, ops = _orig(op).terms()\n"
        "    return qml.dot([coeffs[0] / 2] + list(coeffs[1:]), ops)\n"
        "qml.simplify = _halved\n")),
}


@pytest.mark.parametrize("subject", HOLDS)
def test_law_holds_where_the_rewrite_is_right(pennylane_runtime, subject):
    pennylane_runtime.assert_holds(contract=LAW, subject=subject, examples=40)


@pytest.mark.parametrize("plant", sorted(PLANTS))
def test_law_catches_a_planted_wrong_rewrite(pennylane_runtime, plant):
    subject, patch = PLANTS[plant]
    result = pennylane_runtime.assert_caught(contract=LAW, subject=subject, patch=IMPORTS + patch, examples=40)
    assert ("on wires" in result["message"]) == (plant == "identity-on-one-wire"), result["message"]


def test_law_finds_the_linear_combination_that_drops_identity_wires(pennylane_runtime):
    # Not planted: 0.45.0's LinearCombination.simplify rebuilds the identity word on the Pauli
    # representation's wires, which no longer include the wires only the identity term named.
    result = pennylane_runtime.check_law(contract=LAW, subject="LinearCombination:simplify()", examples=40,
                                         other_failures=False)
    assert result["outcome"] == "violated", result
    assert result["reproducer_fails"], result["reproducer"]
    assert "on wires" in result["message"], result["message"]
    assert "qml.Identity(" in result["reproducer"]


def test_subjects_are_the_forms_and_rewrites_the_release_has(pennylane_runtime, pennylane_release):
    code = ("import json, contract_runtime as r\n"
            f"print(json.dumps(r.subjects('pennylane', {LAW!r})['subjects']))\n")
    new = set(pennylane_runtime(code))
    assert {"LinearCombination:qml.simplify", "qml.sum:simplify()", "qml.dot:pauli_rep.operation"} <= new
    assert not any(s.startswith("Hamiltonian:") for s in new)  # qml.Hamiltonian is LinearCombination there
    old = set(pennylane_release("pennylane==0.33.1")(code))
    assert "Hamiltonian:simplify()" in old and not any(s.startswith("LinearCombination:") for s in old)
