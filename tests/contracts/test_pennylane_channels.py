"""The PennyLane channel laws hold on the real release for channels they are right for, catch a
planted wrong implementation (the library patched inside the test process) with a reproducer
that fails too, and their subjects are the channel classes the live library exports."""

import pytest

IMPORTS = "import numpy as np\nimport pennylane as qml\n"

HOLDS = {
    "pennylane.channel.kraus-trace-preserving": ["ThermalRelaxationError", "QutritAmplitudeDamping", "PauliError"],
    "pennylane.channel.kraus-match-docstring": ["GeneralizedAmplitudeDamping", "ResetError", "QutritDepolarizingChannel",
                                                "QubitChannel"],
    "pennylane.channel.default-mixed-applies-kraus": ["AmplitudeDamping", "QubitChannel", "PauliError"],
}

# Each plant breaks exactly what one law is about, for one channel class.
PLANTS = {
    # not trace preserving: sqrt(gamma) replaced by gamma
    "pennylane.channel.kraus-trace-preserving": (
        "AmplitudeDamping", "qml.AmplitudeDamping.compute_kraus_matrices = staticmethod(lambda gamma: "
                            "[np.diag([1, np.sqrt(1 - gamma)]), np.array([[0, gamma], [0, 0]])])"),
    # trace preserving, but a phase flip where the docstring says a bit flip
    "pennylane.channel.kraus-match-docstring": (
        "BitFlip", "qml.BitFlip.compute_kraus_matrices = staticmethod(lambda p: "
                   "[np.sqrt(1 - p) * np.eye(2), np.sqrt(p) * np.diag([1.0, -1.0])])"),
    # the device applies every channel twice (Kraus matrices themselves untouched)
    "pennylane.channel.default-mixed-applies-kraus": (
        "BitFlip", "import sys, pennylane.devices.qubit_mixed\n"
                   "_ao = sys.modules['pennylane.devices.qubit_mixed.apply_operation']\n"
                   "for _name in ('apply_operation_einsum', 'apply_operation_tensordot'):\n"
                   "    _orig = getattr(_ao, _name)\n"
                   "    setattr(_ao, _name, (lambda f: lambda op, state, *a, **k: "
                   "f(op, f(op, state, *a, **k), *a, **k) if isinstance(op, qml.BitFlip) else f(op, state, *a, **k))(_orig))"),
}


@pytest.mark.parametrize("contract,subject", [(c, s) for c, subjects in sorted(HOLDS.items()) for s in subjects])
def test_law_holds_on_the_release_for_channels_it_is_right_for(pennylane_runtime, contract, subject):
    pennylane_runtime.assert_holds(contract=contract, subject=subject, examples=15)


@pytest.mark.parametrize("contract", sorted(PLANTS))
def test_law_catches_a_planted_wrong_implementation(pennylane_runtime, contract):
    subject, patch = PLANTS[contract]
    pennylane_runtime.assert_holds(contract=contract, subject=subject, examples=10)  # right before the plant
    result = pennylane_runtime.assert_caught(contract=contract, subject=subject, patch=IMPORTS + patch, examples=25)
    reproducer = result["reproducer"]
    assert "import pennylane as qml" in reproducer and f"qml.{subject}(" in reproducer
    assert "contract" not in reproducer and "oracle_core" not in reproducer  # public API only


SUBJECTS = """
import json, contract_runtime as r
print(json.dumps({c: r.subjects("pennylane", c)["subjects"] for c in %r}))
"""


def test_subjects_are_the_channel_classes_the_library_exports(pennylane_runtime):
    found = pennylane_runtime(SUBJECTS % list(HOLDS))
    every = set(found["pennylane.channel.kraus-trace-preserving"])
    assert {"AmplitudeDamping", "BitFlip", "DepolarizingChannel", "QubitChannel", "ThermalRelaxationError",
            "PauliError", "TritFlip", "QutritChannel"} <= every
    assert "Channel" not in every and "RX" not in every  # the abstract base and unitary gates are not channels
    formula = set(found["pennylane.channel.kraus-match-docstring"])
    assert "ThermalRelaxationError" not in formula  # its docstring gives no closed formula for its probabilities
    assert every - {"ThermalRelaxationError"} == formula
    device = set(found["pennylane.channel.default-mixed-applies-kraus"])
    assert "BitFlip" in device and not device & {"TritFlip", "QutritChannel", "QutritDepolarizingChannel"}
