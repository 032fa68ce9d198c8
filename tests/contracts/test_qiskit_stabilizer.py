"""The Qiskit stabilizer-formalism laws hold on the real release for every subject it exports, catch planted
wrong implementations (the library patched inside the test process) with reproducers that fail too, and their
subjects are the Clifford / StabilizerState / PauliList / Pauli methods the live library has."""

import json

import pytest

CLIFFORD = "qiskit.stabilizer.clifford-operations-agree-with-unitaries"
STATE = "qiskit.stabilizer.state-agrees-with-statevector"
PAULI = "qiskit.stabilizer.pauli-list-algebra"

# Every subject of a law, checked in one process (one interpreter start per law keeps CI short).
ALL_SUBJECTS = """
import json, warnings
warnings.filterwarnings("ignore")
import contract_runtime as r
found = r.subjects("qiskit", {contract!r})["subjects"]
outcomes = {{s: r.check("qiskit", {contract!r}, s, {examples}, 0) for s in found}}
print(json.dumps({{s: [o["outcome"], o["examples"], o.get("message") or o.get("error")] for s, o in outcomes.items()}},
                 default=str))
"""


@pytest.mark.parametrize("contract", [CLIFFORD, STATE, PAULI])
def test_law_holds_on_the_release_for_every_subject(qiskit_runtime, contract):
    outcomes = qiskit_runtime(ALL_SUBJECTS.format(contract=contract, examples=8))
    assert outcomes
    broken = {s: o for s, o in outcomes.items() if o[0] != "holds" or o[1] < 1}
    assert not broken, json.dumps(broken, indent=1)[:3000]


def _wrap(cls, method, body, signature):
    """Patch source replacing `cls.method` by a function of the original `_orig`."""
    return (f"from qiskit.quantum_info import {cls}\nimport numpy as np\n"
            f"_orig = {cls}.{method}\n"
            f"def _planted({signature}):\n    {body}\n"
            f"{cls}.{method} = _planted\n")


# Each plant breaks one documented promise of one method.
PLANTS = {
    # front=True ignored: b applied after a instead of before
    (CLIFFORD, "compose"): _wrap("Clifford", "compose", "return _orig(self, other, qargs=qargs)",
                                 "self, other, qargs=None, front=False"),
    # the transpose computed as the adjoint (U^dagger instead of U^T)
    (CLIFFORD, "transpose"): _wrap("Clifford", "transpose", "return self.adjoint()", "self"),
    # keys written with qargs[0] leftmost (the bit order reversed)
    (STATE, "probabilities_dict"): _wrap("StabilizerState", "probabilities_dict",
                                         "return {k[::-1]: v for k, v in _orig(self, qargs, decimals).items()}",
                                         "self, qargs=None, decimals=None"),
    # the state handed back unchanged instead of collapsed
    (STATE, "measure"): _wrap("StabilizerState", "measure",
                              "outcome, _ = _orig(self, qargs)\n    return outcome, self.copy()", "self, qargs=None"),
    # the Pauli's phase dropped from the expectation value
    (STATE, "expectation_value"): _wrap("StabilizerState", "expectation_value",
                                        "oper = oper.copy()\n    if hasattr(oper, 'phase'): oper.phase = 0\n"
                                        "    return _orig(self, oper, qargs)", "self, oper, qargs=None"),
    # the front flag inverted: every anticommuting product gets the wrong sign
    (PAULI, "Pauli.compose"): _wrap("Pauli", "compose",
                                    "return _orig(self, other, qargs=qargs, front=not front, inplace=inplace)",
                                    "self, other, qargs=None, front=False, inplace=False"),
    # unique rows in sorted order instead of order of first appearance
    (PAULI, "PauliList.unique"): _wrap("PauliList", "unique",
                                       "out = _orig(self, return_index, return_counts)\n"
                                       "    return out.sort() if not (return_index or return_counts) else out",
                                       "self, return_index=False, return_counts=False"),
    # the weight option ignored
    (PAULI, "PauliList.sort"): _wrap("PauliList", "sort", "return _orig(self, False, phase)",
                                     "self, weight=False, phase=False"),
}


@pytest.mark.parametrize("contract,subject", sorted(PLANTS))
def test_law_catches_a_planted_wrong_implementation(qiskit_runtime, contract, subject):
    result = qiskit_runtime.assert_caught(contract=contract, subject=subject, patch=PLANTS[(contract, subject)],
                                          examples=40)
    assert "." + subject.split(".")[-1] + "(" in result["reproducer"]


SUBJECTS = """
import json, contract_runtime as r
print(json.dumps({c: r.subjects("qiskit", c)["subjects"] for c in %r}))
"""


def test_subjects_are_the_methods_the_library_has(qiskit_runtime):
    found = qiskit_runtime(SUBJECTS % [CLIFFORD, STATE, PAULI])
    assert {"compose", "dot", "transpose", "from_label", "from_circuit"} <= set(found[CLIFFORD])
    assert {"probabilities_dict", "measure", "reset", "evolve", "from_stabilizer_list",
            "probabilities_dict_from_bitstring"} <= set(found[STATE])  # the last one is in 2.4.1, not in 1.0.2
    assert {"PauliList.unique", "PauliList.sort", "PauliList.insert", "Pauli.compose"} <= set(found[PAULI])
    # covered by other families (qiskit_data, qiskit_semantics): not subjects here
    assert not {"to_operator", "adjoint", "power", "equiv"} & set(found[CLIFFORD] + found[STATE])
    assert not {"PauliList.group_commuting", "PauliList.commutes_with_all", "PauliList.evolve"} & set(found[PAULI])
