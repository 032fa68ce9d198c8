"""The Qiskit channel laws hold on the real release for the representations they are right for,
catch a planted wrong implementation (the library patched inside the test process) with a
reproducer that fails too, and their subjects are the representations the release exports."""

import pytest

CONTRACTS = ["qiskit.channel.representations-agree", "qiskit.channel.operator-conversion",
             "qiskit.channel.operations", "qiskit.channel.predicates"]

# Each plant breaks exactly what one law is about, for one representation.
PLANTS = {
    # Kraus -> Choi conversion conjugated (the complex-conjugate channel)
    "qiskit.channel.representations-agree": (
        "Choi", "import qiskit.quantum_info.operators.channel.transformations as _t\n"
                "_orig = _t._kraus_to_choi\n"
                "_t._kraus_to_choi = lambda data: _orig(data).conj()"),
    # Operator(U) read as its transpose
    "qiskit.channel.operator-conversion": (
        "SuperOp", "from qiskit.quantum_info import SuperOp, Operator\n"
                   "_init = SuperOp.__init__\n"
                   "def _wrong(self, data, *a, **k):\n"
                   "    _init(self, data.transpose() if isinstance(data, Operator) else data, *a, **k)\n"
                   "SuperOp.__init__ = _wrong"),
    # compose applies the channels in the wrong order
    "qiskit.channel.operations": (
        "Kraus", "from qiskit.quantum_info import Kraus\n"
                 "_compose = Kraus.compose\n"
                 "Kraus.compose = lambda self, other, qargs=None, front=False: _compose(self, other, qargs, not front)"),
    # every PTM claims to preserve trace
    "qiskit.channel.predicates": (
        "PTM", "from qiskit.quantum_info import PTM\nPTM.is_tp = lambda self, atol=None, rtol=None: True"),
}


@pytest.mark.parametrize("contract,subject", [(c, s) for c in CONTRACTS for s in ("Kraus", "Chi", "Stinespring")])
def test_law_holds_on_the_release_for_representations_it_is_right_for(qiskit_runtime, contract, subject):
    qiskit_runtime.assert_holds(contract=contract, subject=subject, examples=15)


@pytest.mark.parametrize("contract", sorted(PLANTS))
def test_law_catches_a_planted_wrong_implementation(qiskit_runtime, contract):
    subject, patch = PLANTS[contract]
    qiskit_runtime.assert_holds(contract=contract, subject=subject, examples=10)  # right before the plant
    result = qiskit_runtime.assert_caught(contract=contract, subject=subject, patch=patch, examples=25)
    reproducer = result["reproducer"]
    assert "from qiskit.quantum_info import" in reproducer and subject in reproducer
    assert "contract" not in reproducer and "oracle_core" not in reproducer  # public API only


def test_subjects_are_the_channel_representations_the_release_exports(qiskit_runtime):
    found = qiskit_runtime("import json, contract_runtime as r\n"
                           f"print(json.dumps({{c: r.subjects('qiskit', c) for c in {CONTRACTS!r}}}))")
    for contract in CONTRACTS:
        assert found[contract]["subjects"] == ["Kraus", "Choi", "SuperOp", "Chi", "PTM", "Stinespring"]
        assert found[contract]["apis"]["Chi"].startswith("qiskit.quantum_info.Chi")
    assert "Operator" not in found["qiskit.channel.predicates"]["subjects"]  # a unitary, not a channel class
