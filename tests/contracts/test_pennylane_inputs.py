"""The array-like inputs law holds on the real PennyLane release where it is right, catches a planted
wrong implementation (the library patched inside the test process: a function that reads a tuple
differently, and one that modifies its caller's list), and its reproducer fails with it."""

import pytest

LAW = "pennylane.robust.inputs-are-array-likes"

# A plant keeps the function's docstring (functools.wraps): the docstring is the subject's seed.
READS_TUPLES_REVERSED = (
    "import functools\n"
    "import pennylane.math as pm\n"
    "original = pm.fidelity_statevector\n"
    "@functools.wraps(original)\n"
    "def planted(state0, state1, *args, **kwargs):\n"
    "    if isinstance(state0, tuple):\n"
    "        state0 = list(state0)[::-1]\n"
    "    return original(state0, state1, *args, **kwargs)\n"
    "pm.fidelity_statevector = planted\n")

MODIFIES_ITS_ARGUMENT = (
    "import functools\n"
    "import pennylane.pauli as pauli\n"
    "original = pauli.is_qwc\n"
    "@functools.wraps(original)\n"
    "def planted(pauli_vec_1, pauli_vec_2):\n"
    "    result = original(pauli_vec_1, pauli_vec_2)\n"
    "    if isinstance(pauli_vec_1, list):\n"
    "        pauli_vec_1.reverse()\n"
    "    return result\n"
    "pauli.is_qwc = planted\n")


@pytest.mark.parametrize("subject", ["pennylane.math.fidelity_statevector#2", "pennylane.pauli.is_qwc#0",
                                     "pennylane.math.expand_matrix#3", "pennylane.dot#4"])
def test_law_holds_on_the_release_for_subjects_it_is_right_for(pennylane_runtime, subject):
    result = pennylane_runtime.assert_holds(contract=LAW, subject=subject, examples=25)
    assert result["api"] == subject.split("#")[0]


@pytest.mark.parametrize("subject, patch, message", [
    ("pennylane.math.fidelity_statevector#2", READS_TUPLES_REVERSED, "different result"),
    ("pennylane.pauli.is_qwc#0", MODIFIES_ITS_ARGUMENT, "modified"),
])
def test_law_catches_a_planted_wrong_implementation(pennylane_runtime, subject, patch, message):
    result = pennylane_runtime.assert_caught(contract=LAW, subject=subject, patch=patch, examples=25)
    assert message in result["message"], result["message"]
    assert "import pennylane as qml" in result["reproducer"]  # public API only, standalone
    assert "contract_runtime" not in result["reproducer"] and "contracts" not in result["reproducer"]


def test_subjects_are_docstring_examples_with_documented_array_like_literals(pennylane_runtime):
    result = pennylane_runtime("import json, contract_runtime as r\n"
                               f"print(json.dumps(r.subjects('pennylane', {LAW!r})))")
    subjects = set(result["subjects"])
    assert {"pennylane.math.fidelity_statevector#2", "pennylane.pauli.is_qwc#0", "pennylane.dot#4"} <= subjects
    assert len(subjects) >= 20
    # every subject names a public function, never qml.labs / qml.data, and its api is that function
    assert all(result["apis"][s] == s.rsplit("#", 1)[0] for s in subjects)
    assert not any(".labs." in s or ".data." in s for s in subjects)
    # qml.math.purity(state, indices): state is tensor_like, indices only list[int], so a
    # purity subject converts the state and never the indices
    purity = sorted(s for s in subjects if s.startswith("pennylane.math.purity#"))
    assert purity, "purity's examples (states written as [1/2, ...]) are subjects"
    forms = pennylane_runtime(
        "import json\nfrom contracts import pennylane_inputs as m\n"
        f"seeds = {{s: m._validated(s) for s in {purity!r}}}\n"
        "print(json.dumps({s: sorted(str(k) for k in seed.forms) for s, seed in seeds.items()}))")
    assert all(keys == ["0"] for keys in forms.values()), forms


def test_the_docs_decide_the_forms(pennylane_runtime):
    # Sequence-typed arguments take list or tuple only (an ndarray is not a Sequence);
    # array / tensor_like ones take an ndarray too.
    result = pennylane_runtime(
        "import json\nfrom contracts import pennylane_inputs as m\n"
        "seed = m._validated('pennylane.math.expand_matrix#3')\n"
        "print(json.dumps({str(k): v for k, v in seed.forms.items()}))")
    assert result["wires"] == ["list", "tuple"]
    assert result["wire_order"] == ["list", "tuple", "array"]


def test_numbers_written_as_arithmetic_of_constants_are_literals(pennylane_runtime):
    # Docstrings write coefficients as -1/2 or 2**-3; such a list is a literal of numbers,
    # a list holding a name is not.
    result = pennylane_runtime(
        "import ast, json\nfrom contracts import pennylane_inputs as m\n"
        "forms = [m._literal_form(ast.parse(t, mode='eval').body) for t in "
        "['[0, 1.0, -1/2, 1/3]', '(2 * 0.5, 2**-3)', '[0, x / 2]', '[1 + 2j]']]\n"
        "print(json.dumps({'forms': forms}))")
    assert result["forms"] == ["list", "tuple", None, "list"]
