"""The PennyLane wire-hygiene laws hold on the real release for subjects they are right for, and
catch a planted wrong implementation (the library patched inside the test process): each law can
fail, and its reproducer fails with it."""

import pytest

IMPORTS = "import numpy as np\nimport pennylane as qml\n"

DECLARED = "pennylane.operation.wires-are-declared"
MAPPED = "pennylane.operation.map-wires-maps-hyperparameters"

# Each plant breaks exactly what one law is about, for one subject the law is right for.
PLANTS = {
    # a decomposition that reaches for a wire nobody gave it
    DECLARED: ("QFT", ("qml.QFT.compute_decomposition = staticmethod(lambda *params, wires, **hyper: "
                       "[qml.Hadamard(w) for w in wires] + [qml.CNOT(wires=[wires[0], 'ancilla'])])")),
    # map_wires that relabels the controls and the base but forgets the work wires
    MAPPED: ("ControlledOp", ("qml.ops.Controlled.map_wires = lambda self, wire_map: qml.ctrl("
                              "self.base.map_wires(wire_map), control=[wire_map.get(w, w) for w in self.control_wires], "
                              "control_values=self.control_values, work_wires=self.work_wires)")),
}

HOLDS = [(DECLARED, "QFT"), (DECLARED, "ControlledOp"), (DECLARED, "Adder"), (DECLARED, "MultiControlledX"),
         (MAPPED, "QFT"), (MAPPED, "ControlledOp"), (MAPPED, "Adder"), (MAPPED, "IQPEmbedding")]


@pytest.mark.parametrize(("contract", "subject"), HOLDS)
def test_law_holds_on_the_release_for_a_subject_it_is_right_for(pennylane_runtime, contract, subject):
    pennylane_runtime.assert_holds(contract=contract, subject=subject, examples=15)


@pytest.mark.parametrize("contract", sorted(PLANTS))
def test_law_catches_a_planted_wrong_implementation(pennylane_runtime, contract):
    subject, patch = PLANTS[contract]
    result = pennylane_runtime.assert_caught(contract=contract, subject=subject, patch=IMPORTS + patch, examples=30)
    reproducer = result["reproducer"]
    assert "import pennylane as qml" in reproducer
    assert "contract" not in reproducer and "hypothesis" not in reproducer  # public API only


def test_planted_map_wires_bug_names_the_stale_work_wires(pennylane_runtime):
    subject, patch = PLANTS[MAPPED]
    result = pennylane_runtime.check_law(patch=IMPORTS + patch, contract=MAPPED, subject=subject, examples=30)
    assert "work_wires" in result["message"], result["message"]


SUBJECTS = """
import json, contract_runtime as r
print(json.dumps({{c: r.subjects("pennylane", c)["subjects"] for c in {contracts!r}}}))
"""


def test_subjects_are_enumerated_from_the_live_library(pennylane_runtime):
    found = pennylane_runtime(SUBJECTS.format(contracts=[DECLARED, MAPPED]))
    declared, mapped = set(found[DECLARED]), set(found[MAPPED])
    assert declared == mapped
    # gates, controlled operators with work wires, arithmetic templates and embeddings alike
    assert {"RX", "CNOT", "QFT", "ControlledOp", "MultiControlledX", "Adder", "OutAdder", "AngleEmbedding",
            "StronglyEntanglingLayers", "Select", "GroverOperator", "Permute"} <= declared
    # a class whose required argument is no wire, number, array or operator (a measurement value,
    # a measurement process) is not constructed by this family
    assert "Conditional" not in declared and "Snapshot" not in declared
    assert len(declared) > 120


OPTIONS = """
import json, inspect, contract_runtime as r
from contracts import pennylane_wires as w
def set_options(subject):
    return sorted({(name, value) for config in w._accepted_configs(subject)
                   for name, kind, value in config if kind == "option"})
default = inspect.signature(w._exported_operator_classes()["MultiControlledX"].__init__).parameters["work_wire_type"].default
print(json.dumps({"angle": set_options("AngleEmbedding"), "mcx": set_options("MultiControlledX"),
                  "mcx_default": default, "rx": set_options("RX")}))
"""


def test_keyword_options_are_set_to_their_documented_non_default_values(pennylane_runtime):
    found = pennylane_runtime(OPTIONS)
    # the docstring spells rotation='X' / 'Y' / 'Z' out; 'X' is the default
    assert found["angle"] == [["rotation", "Y"], ["rotation", "Z"]]
    # a Literal annotation lists the work wire types; the other one than the default is drawn
    assert [name for name, _ in found["mcx"]] == ["work_wire_type"]
    assert found["mcx"][0][1] not in (found["mcx_default"], None)
    assert found["rx"] == []  # no option: nothing added


def test_map_wires_that_resets_a_keyword_option_is_caught(pennylane_runtime):
    # A copy rebuilt from the data and wires alone: right for the default rotation, wrong for
    # any other. Only an input with the option set can show it.
    patch = IMPORTS + ("qml.AngleEmbedding.map_wires = lambda self, wire_map: qml.AngleEmbedding("
                       "self.data[0], wires=[wire_map.get(w, w) for w in self.wires])")
    result = pennylane_runtime.assert_caught(contract=MAPPED, subject="AngleEmbedding", patch=patch, examples=40)
    assert "rotation=" in result["reproducer"], result["reproducer"]


# The reproducer of a map_wires input with MultiControlledX's non-default work wire type set,
# written on 0.42.3 (where that value is spelled "clean"), then run as written.
OPTION_REPRODUCER = """
import json
from contracts import pennylane_wires as w
args = (("wires", ("wires", [0, 1, 2])), ("work_wires", ("wires", [3])), ("work_wire_type", ("literal", "clean")))
print(json.dumps({"reproducer": w._reproduce_map("MultiControlledX", (args, 7))}))
"""

RUN_AS_WRITTEN = """
import json
try:
    exec({code!r}, {{"__name__": "__main__"}})
    print(json.dumps({{"outcome": "passed"}}))
except Exception as exc:
    print(json.dumps({{"outcome": type(exc).__name__, "message": str(exc)}}))
"""


def test_a_reproducer_reads_a_renamed_option_value_on_the_release_that_runs_it(pennylane_release):
    # 0.45.0 renamed the work wire types ("clean"/"dirty" became "zeroed"/"borrowed") and refuses
    # the old names: a reproducer with the literal could only raise there, so a version flip could
    # not tell whether map_wires still drops the type. Written portably, it asks the same question
    # on both releases: 0.42.3 drops the work wires and resets their type, 0.45.0 keeps both.
    reproducer = pennylane_release("pennylane==0.42.3")(OPTION_REPRODUCER)["reproducer"]
    assert "documented_option(qml.MultiControlledX, 'work_wire_type', 'clean'" in reproducer
    for law_code in ("contract_runtime", "oracle_core", "qusema", "from contracts"):
        assert law_code not in reproducer
    on_old = pennylane_release("pennylane==0.42.3")(RUN_AS_WRITTEN.format(code=reproducer))
    assert on_old["outcome"] == "AssertionError", on_old
    assert on_old["message"].startswith("hyperparameter work_wire"), on_old
    on_new = pennylane_release("pennylane==0.45.0")(RUN_AS_WRITTEN.format(code=reproducer))
    assert on_new == {"outcome": "passed"}, on_new
