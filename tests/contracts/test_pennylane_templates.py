"""The PennyLane template laws hold on the real release for templates they are right for, catch a
planted wrong implementation (the library patched inside the test process) with a reproducer that
fails too, and their subjects are the templates the live library exports."""

import pytest

IMPORTS = "import numpy as np\nimport pennylane as qml\n"
STATE = "pennylane.templates.prepares-documented-state"
MATRIX = "pennylane.templates.closed-form-unitary"

HOLDS = {
    STATE: ["StatePrep", "AmplitudeEmbedding", "MottonenStatePreparation", "AngleEmbedding", "IQPEmbedding",
            "BasisEmbedding", "QutritBasisStatePreparation"],
    MATRIX: ["QFT", "Reflection", "Select", "BlockEncode", "QuantumPhaseEstimation", "TrotterProduct",
             "ApproxTimeEvolution"],
}

# Each plant breaks exactly what one law is about, for one template.
PLANTS = [
    # every AngleEmbedding rotation by the opposite angle
    (STATE, "AngleEmbedding",
     "_orig = qml.AngleEmbedding.compute_decomposition\n"
     "qml.AngleEmbedding.compute_decomposition = staticmethod("
     "lambda features, wires, rotation: _orig(-qml.math.asarray(features), wires, rotation))"),
    # IQPEmbedding forgets its entanglers
    (STATE, "IQPEmbedding",
     "_orig = qml.IQPEmbedding.compute_decomposition\n"
     "qml.IQPEmbedding.compute_decomposition = staticmethod("
     "lambda features, wires, n_repeats, pattern: _orig(features, wires, n_repeats, []))"),
    # the QFT with the inverse DFT's sign
    (MATRIX, "QFT",
     "_orig = qml.QFT.compute_matrix\n"
     "qml.QFT.compute_matrix = staticmethod(lambda *a, **k: np.conj(_orig(*a, **k)))"),
    # FlipSign flips every basis state but the documented one (a global sign: -(I - 2|n><n|))
    (MATRIX, "FlipSign",
     "_orig = qml.FlipSign.compute_decomposition\n"
     "qml.FlipSign.compute_decomposition = staticmethod("
     "lambda wires, arr_bin: _orig(wires, arr_bin) + [qml.GlobalPhase(np.pi, wires=wires)])"),
]


@pytest.mark.parametrize("contract,subject", [(c, s) for c, subjects in sorted(HOLDS.items()) for s in subjects])
def test_law_holds_on_the_release_for_templates_it_is_right_for(pennylane_runtime, contract, subject):
    pennylane_runtime.assert_holds(contract=contract, subject=subject, examples=15)


@pytest.mark.parametrize("contract,subject,patch", PLANTS, ids=[f"{c.split('.')[-1]}-{s}" for c, s, _ in PLANTS])
def test_law_catches_a_planted_wrong_implementation(pennylane_runtime, contract, subject, patch):
    pennylane_runtime.assert_holds(contract=contract, subject=subject, examples=10)  # right before the plant
    result = pennylane_runtime.assert_caught(contract=contract, subject=subject, patch=IMPORTS + patch, examples=25)
    reproducer = result["reproducer"]
    assert "import pennylane as qml" in reproducer and f"qml.{subject}(" in reproducer
    assert "contract" not in reproducer and "oracle_core" not in reproducer  # public API only


SUBJECTS = """
import json, contract_runtime as r
print(json.dumps({c: r.subjects("pennylane", c)["subjects"] for c in %r}))
"""


def test_subjects_are_the_templates_the_library_exports(pennylane_runtime):
    found = pennylane_runtime(SUBJECTS % [STATE, MATRIX])
    states = set(found[STATE])
    assert {"StatePrep", "AmplitudeEmbedding", "MottonenStatePreparation", "BasisEmbedding", "BasisState",
            "AngleEmbedding", "IQPEmbedding", "QutritBasisStatePreparation"} <= states
    # BasisStatePreparation was removed from 0.45; operators that are not state preparations are not in
    assert not states & {"BasisStatePreparation", "QFT", "RX", "Adder"}
    matrices = set(found[MATRIX])
    assert {"QFT", "GroverOperator", "Reflection", "FlipSign", "Select", "BlockEncode", "ControlledSequence",
            "QuantumPhaseEstimation", "CommutingEvolution", "ApproxTimeEvolution", "TrotterProduct"} <= matrices
    assert not matrices & {"StatePrep", "Adder", "QROM", "Multiplier"}  # arithmetic templates: another family
