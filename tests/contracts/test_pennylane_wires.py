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
