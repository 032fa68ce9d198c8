"""The PennyLane arithmetic-template law holds on the real release for templates it is right for,
catches planted wrong implementations (the library patched inside the test process) with a
reproducer that fails too, and its subjects are the arithmetic / basis-map templates the live
library exports."""

import pytest

LAW = "pennylane.templates.arithmetic-computes-function"
IMPORTS = "import numpy as np\nimport pennylane as qml\n"

HOLDS = ["Adder", "PhaseAdder", "Multiplier", "OutAdder", "SemiAdder", "IntegerComparator", "TemporaryAND", "QROM",
         "Permute", "FlipSign", "QubitCarry", "BasisEmbedding", "BasisState", "MultiControlledX"]

# Each plant breaks one template the way a wrong implementation would, and nothing else.
PLANTS = {
    # the modulus ignored: plain addition modulo 2^len(x_wires)
    "ignores mod": ("Adder", "qml.Adder.compute_decomposition = staticmethod(lambda k, x_wires, mod, work_wires, **kw: "
                             "[qml.adjoint(qml.QFT)(wires=x_wires), qml.PhaseAdder(k, x_wires), "
                             "qml.QFT(wires=x_wires)][::-1])"),
    # the result is right on x_wires but a work wire is left flipped (not given back in |0>)
    "dirty work wire": ("Multiplier", "_orig = qml.Multiplier.compute_decomposition\n"
                                      "qml.Multiplier.compute_decomposition = staticmethod(lambda *a, **k: "
                                      "_orig(*a, **k) + [qml.X(k['work_wires'][0])])"),
    # the inverse permutation (wire wires[i] sent to permutation[i] instead of the other way)
    "inverse permutation": ("Permute", "_init = qml.Permute.__init__\n"
                                       "def _inverse(self, permutation, wires, id=None):\n"
                                       "    wires = list(wires)\n"
                                       "    inverse = [None] * len(wires)\n"
                                       "    for i, w in enumerate(permutation):\n"
                                       "        inverse[wires.index(w)] = wires[i]\n"
                                       "    _init(self, inverse, wires, id=id)\n"
                                       "qml.Permute.__init__ = _inverse"),
    # right basis states, wrong relative phase: |110> -> -|111> (seen only on a superposition)
    "relative phase": ("TemporaryAND", "_orig = qml.TemporaryAND.compute_matrix\n"
                                       "def _matrix(*a, **k):\n"
                                       "    m = np.array(_orig(*a, **k))\n"
                                       "    m[7, 6] = -m[7, 6]\n"
                                       "    return m\n"
                                       "qml.TemporaryAND.compute_matrix = staticmethod(_matrix)"),
}


@pytest.mark.parametrize("subject", HOLDS)
def test_law_holds_on_the_release_for_templates_it_is_right_for(pennylane_runtime, subject):
    pennylane_runtime.assert_holds(contract=LAW, subject=subject, examples=10)


@pytest.mark.parametrize("plant", sorted(PLANTS))
def test_law_catches_a_planted_wrong_implementation(pennylane_runtime, plant):
    subject, patch = PLANTS[plant]
    result = pennylane_runtime.assert_caught(contract=LAW, subject=subject, patch=IMPORTS + patch, examples=40)
    reproducer = result["reproducer"]
    assert "import pennylane as qml" in reproducer and f"qml.{subject}(" in reproducer
    assert "contract" not in reproducer and "oracle_core" not in reproducer  # public API only


SUBJECTS = """
import json, contract_runtime as r
print(json.dumps(r.subjects("pennylane", %r)["subjects"]))
"""


def test_subjects_are_the_arithmetic_templates_the_library_exports(pennylane_runtime):
    found = set(pennylane_runtime(SUBJECTS % LAW))
    assert {"Adder", "PhaseAdder", "Multiplier", "OutAdder", "OutMultiplier", "ModExp", "SemiAdder", "QROM",
            "IntegerComparator", "TemporaryAND", "Permute", "FlipSign", "QubitCarry", "QubitSum", "BasisEmbedding",
            "BasisState"} <= found
    # not basis maps (QFT, rotations), or an alias of a subject already there (Elbow is TemporaryAND)
    assert not found & {"QFT", "RX", "Elbow", "StatePrep", "AmplitudeEmbedding"}


def test_phase_adder_is_checked_in_the_fourier_basis(pennylane_runtime):
    """PhaseAdder adds in the Fourier basis: the reproducer wraps it in QFT / adjoint QFT."""
    result = pennylane_runtime.assert_caught(
        contract=LAW, subject="PhaseAdder", examples=40,
        patch=IMPORTS + "qml.PhaseAdder.compute_decomposition = staticmethod(lambda *a, **k: [])")
    assert "qml.QFT(wires=" in result["reproducer"] and "qml.adjoint(qml.QFT)" in result["reproducer"]
