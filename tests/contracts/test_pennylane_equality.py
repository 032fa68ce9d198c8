"""The law `pennylane.query.equal-complete` (qml.equal sees through the documented re-expressions
of one operator) holds on the real release, and catches a planted qml.equal that does not: each
plant breaks exactly one documented re-expression, and the law's reproducer fails with it."""

import pytest

LAW = "pennylane.query.equal-complete"
IMPORTS = "import numpy as np\nimport pennylane as qml\n_equal = qml.equal\n"

# Each plant wraps the real qml.equal (Operator.__eq__ calls it through the module, so `==` is
# planted too) and breaks one re-expression the docs promise it sees through.
PLANTS = {
    "ctrl-control-order": (  # the pre-0.34 behaviour: control wires compared in order
        "def _planted(a, b, **kwargs):\n"
        "    if isinstance(a, qml.ops.Controlled) and isinstance(b, qml.ops.Controlled) and a.wires != b.wires:\n"
        "        return False\n"
        "    return _equal(a, b, **kwargs)\n"),
    "prod-factor-order": (
        "def _planted(a, b, **kwargs):\n"
        "    if isinstance(a, qml.ops.Prod) and isinstance(b, qml.ops.Prod) and \\\n"
        "            [o.wires for o in a.operands] != [o.wires for o in b.operands]:\n"
        "        return False\n"
        "    return _equal(a, b, **kwargs)\n"),
    "integer-data": (
        "def _planted(a, b, **kwargs):\n"
        "    if any(type(x) is not type(y) for x, y in zip(a.data, b.data)):\n"
        "        return False\n"
        "    return _equal(a, b, **kwargs)\n"),
    "parameter-tolerance": (  # ignores the caller's rtol/atol
        "def _planted(a, b, **kwargs):\n"
        "    return _equal(a, b)\n"),
    "converse": (
        "def _planted(a, b, **kwargs):\n"
        "    return True\n"),
}
INSTALL = "qml.equal = _planted\n"


@pytest.mark.parametrize("subject", sorted(PLANTS) + ["wires-container", "pauli-sum-term-order",
                                                      "hamiltonian-like-terms", "control-values-default"])
def test_law_holds_on_the_release(pennylane_runtime, subject):
    result = pennylane_runtime.assert_holds(contract=LAW, subject=subject, examples=20)
    assert result["api"] == "pennylane.equal"


@pytest.mark.parametrize("subject", sorted(PLANTS))
def test_law_catches_a_planted_wrong_equal(pennylane_runtime, subject):
    result = pennylane_runtime.assert_caught(contract=LAW, subject=subject, patch=IMPORTS + PLANTS[subject] + INSTALL,
                                             examples=30)
    reproducer = result["reproducer"]
    assert "import pennylane as qml" in reproducer and "qml.equal(a, b" in reproducer
    assert "contract" not in reproducer and "oracle_core" not in reproducer  # public API only


def test_violation_message_names_the_pair(pennylane_runtime):
    result = pennylane_runtime.check_law(contract=LAW, subject="ctrl-control-order",
                                         patch=IMPORTS + PLANTS["ctrl-control-order"] + INSTALL, examples=30)
    assert "qml.ctrl(" in result["example"] or "qml.ops.Controlled(" in result["example"], result["example"]
    assert "False for two documented forms of the same operator" in result["message"]


SUBJECTS = """
import json, contract_runtime as r
from contracts import pennylane_equality as m
found = r.subjects("pennylane", {law!r})
print(json.dumps({{"subjects": found["subjects"], "apis": found["apis"],
                   "leaves": sorted(m._leaf_kinds()), "small": sorted(m._small_kinds())}}))
"""


def test_subjects_are_the_documented_re_expression_kinds(pennylane_runtime):
    found = pennylane_runtime(SUBJECTS.format(law=LAW))
    assert found["subjects"] == ["wires-container", "integer-data", "parameter-tolerance", "prod-factor-order",
                                 "pauli-sum-term-order", "hamiltonian-like-terms", "ctrl-control-order",
                                 "control-values-default", "converse"]
    assert set(found["apis"].values()) == {"pennylane.equal"}
    # the operators inside each subject come from the live library, qutrit gates only where no qubit
    # register is assumed (products and controls are on qubits)
    assert {"RX", "CNOT", "Rot", "IsingXX", "CRY"} <= set(found["leaves"])
    assert "TShift" in found["small"] and "TShift" not in found["leaves"]


# == law 2: pennylane.robust.hash-agrees-with-eq =================================================
HASH_LAW = "pennylane.robust.hash-agrees-with-eq"
HASH_SUBJECTS = ["wires-container", "integer-data", "prod-factor-order", "pauli-sum-term-order",
                 "hamiltonian-like-terms", "ctrl-control-order", "control-values-default",
                 "measurement-of-equal-observables", "measurement-wires-container", "wires-objects"]

# Each plant replaces one hash with a plausible wrong one that disagrees with == on pairs the docs
# call equal: a hash that depends on factor order / term order, or that tags Wires so a Wires no
# longer hashes like the tuple it compares equal to.
HASH_PLANTS = {
    "prod-factor-order": (  # factors hashed in the order written, not sorted
        "qml.ops.Prod.hash = property(lambda self: hash(('Prod', str([f.hash for f in self.operands]))))\n"),
    "pauli-sum-term-order": (  # terms hashed in the order written, not as a multiset
        "qml.ops.Sum.hash = property(lambda self: hash(('Sum', tuple(o.hash for o in self.operands))))\n"),
    "wires-objects": (  # Wires([0, 1]) == (0, 1) but no longer hashes like it
        "qml.wires.Wires.__hash__ = lambda self: hash(('Wires', self.labels))\n"),
}


@pytest.mark.parametrize("subject", ["wires-container", "prod-factor-order", "pauli-sum-term-order",
                                     "control-values-default", "measurement-wires-container", "wires-objects"])
def test_hash_law_holds_on_the_release(pennylane_runtime, subject):
    result = pennylane_runtime.assert_holds(contract=HASH_LAW, subject=subject, examples=20)
    assert result["examples"] >= 20


@pytest.mark.parametrize("subject", sorted(HASH_PLANTS))
def test_hash_law_catches_a_planted_wrong_hash(pennylane_runtime, subject):
    result = pennylane_runtime.assert_caught(contract=HASH_LAW, subject=subject,
                                             patch="import pennylane as qml\n" + HASH_PLANTS[subject], examples=30)
    assert "a == b is True but hash(a)" in result["message"]
    reproducer = result["reproducer"]
    assert "import pennylane as qml" in reproducer and "hash(a) == hash(b)" in reproducer
    assert "contract" not in reproducer  # public API only


def test_hash_law_reports_the_release_violation_of_control_order(pennylane_runtime):
    # pennylane 0.45.0: qml.ctrl(op, [2, 3], values) == qml.ctrl(op, [3, 2], permuted values) is True
    # (#4944), but Controlled.hash hashes the control wires in the order given.
    result = pennylane_runtime.check_law(contract=HASH_LAW, subject="ctrl-control-order", examples=25)
    assert result["outcome"] == "violated", result
    assert result["reproducer_fails"], result["reproducer"]
    assert result["example"].startswith(("qml.ctrl(", "qml.ops.Controlled(")), result["example"]


NOT_EQUAL = """
import json, warnings
warnings.filterwarnings("ignore")
import pennylane as qml
from contracts import pennylane_equality as m
example = (("PauliX", (), 1), [0, 1, 2, 3, 4], 2, [True, False, True], [1, 0, 2], "qml.ctrl")
code = m._hash_reproduce("ctrl-control-order", example)
outcomes = {{}}
for label, patch in (("real", None), ("never equal", lambda a, b: False)):
    if patch is not None:
        qml.ops.Controlled.__eq__ = patch
    try:
        exec(code, {{"__name__": "__main__"}})
        outcomes[label] = "passes"
    except AssertionError:
        outcomes[label] = "fails"
print(json.dumps({{"outcomes": outcomes, "code": code}}))
"""


def test_hash_reproducer_passes_when_the_pair_is_not_equal(pennylane_runtime):
    # the reproducer's precondition is a == b: with == answering False it must not fail
    found = pennylane_runtime(NOT_EQUAL.format())
    assert found["outcomes"]["never equal"] == "passes", found
    assert found["outcomes"]["real"] == "fails", found  # 0.45.0: equal, but the hashes differ
    assert "if a == b:" in found["code"]


HASH_SUBJECT_LIST = """
import json, contract_runtime as r
print(json.dumps(r.subjects("pennylane", {law!r})))
"""


def test_hash_subjects_are_the_pair_kinds(pennylane_runtime):
    found = pennylane_runtime(HASH_SUBJECT_LIST.format(law=HASH_LAW))
    assert found["subjects"] == HASH_SUBJECTS, found
    # tolerance-based and unequal pairs are not judged by this law
    assert "parameter-tolerance" not in found["subjects"] and "converse" not in found["subjects"]
    assert found["apis"]["wires-objects"] == "pennylane.wires.Wires"
    assert found["apis"]["ctrl-control-order"] == "pennylane.ops.Controlled"
    assert found["apis"]["measurement-wires-container"] == "pennylane.measurements.MeasurementProcess"
