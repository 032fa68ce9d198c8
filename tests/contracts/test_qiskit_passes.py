"""The "passes honour the basis they are given" law holds on the real release where it is
right, catches planted wrong implementations (the library patched inside the test process),
and enumerates the basis-rewriting passes of the release."""

import pytest

LAW = "qiskit.transform.pass-respects-basis"

# Each plant breaks one part of the law for one pass.
PLANTS = {
    # (a) the output keeps operations outside the basis: translation skipped
    "outside-basis": ("BasisTranslator:rz,sx,x,cx",
                      "from qiskit.transpiler.passes import BasisTranslator\n"
                      "BasisTranslator.run = lambda self, dag: dag"),
    # (b) the output no longer implements the input: a sign slips into the synthesis
    "operator": ("UnitarySynthesis:u,cx",
                 "from qiskit.transpiler.passes import UnitarySynthesis\n"
                 "_synthesize = UnitarySynthesis.run\n"
                 "def _wrong(self, dag):\n"
                 "    out = _synthesize(self, dag)\n"
                 "    out.global_phase += 0.5\n"
                 "    return out\n"
                 "UnitarySynthesis.run = _wrong"),
    # (b) with the basis respected: single-qubit runs dropped instead of resynthesized
    "dropped-run": ("Optimize1qGatesDecomposition:rx,ry,rz,cz:target",
                    "from qiskit.transpiler.passes import Optimize1qGatesDecomposition\n"
                    "def _drop(self, dag):\n"
                    "    for node in dag.op_nodes():\n"
                    "        if len(node.qargs) == 1 and node.op.name not in ('barrier', 'delay'):\n"
                    "            dag.remove_op_node(node)\n"
                    "    return dag\n"
                    "Optimize1qGatesDecomposition.run = _drop"),
}


@pytest.mark.parametrize("subject", [
    "UnitarySynthesis:rz,sx,x,cx",
    "UnitarySynthesis:r,cz:target",
    "BasisTranslator:u,cx",
    "BasisTranslator:p,sx,ecr:target",
    "Optimize1qGatesDecomposition:rx,ry,rz,cz",
    "HighLevelSynthesis:rz,sx,x,cx",
])
def test_law_holds_on_the_release_for_passes_it_is_right_for(qiskit_runtime, subject):
    result = qiskit_runtime.assert_holds(contract=LAW, subject=subject, examples=15)
    name = subject.split(':')[0]
    assert result["api"] == f"qiskit.transpiler.passes.{name}.run on qiskit.transpiler.passes.{name}"


@pytest.mark.parametrize("plant", sorted(PLANTS))
def test_law_catches_a_planted_wrong_implementation(qiskit_runtime, plant):
    subject, patch = PLANTS[plant]
    result = qiskit_runtime.assert_caught(contract=LAW, subject=subject, patch=patch, examples=25)
    assert "contract" not in result["reproducer"]  # public API only, no law code


def test_law_finds_sxdg_outside_a_zsx_basis_from_unitary_synthesis(qiskit_runtime):
    """On 2.4.1 UnitarySynthesis(basis_gates=['rz', 'sx', 'rzz']) emits sxdg, which is not in
    the basis (a finding of this law)."""
    result = qiskit_runtime.check_law(contract=LAW, subject="UnitarySynthesis:rz,sx,rzz", examples=25)
    assert result["outcome"] == "violated", result
    assert "sxdg" in result["message"], result["message"]
    assert result["reproducer_fails"], result["reproducer"]


def test_subjects_are_the_basis_rewriting_passes_of_the_release(qiskit_runtime):
    result = qiskit_runtime("import json, contract_runtime as r\n"
                            f"a = r.subjects('qiskit', {LAW!r})\n"
                            "print(json.dumps([a['subjects'], a['apis'], a['reason']]))")
    subjects, apis, reason = result
    assert reason is None
    passes = {s.split(":")[0] for s in subjects}
    assert passes == {"UnitarySynthesis", "BasisTranslator", "Optimize1qGatesDecomposition", "HighLevelSynthesis"}
    # documented non-rewriters and approximate synthesis are not subjects
    assert not passes & {"SolovayKitaev", "Unroll3qOrMore", "UnrollCustomDefinitions", "GatesInBasis"}
    assert {"UnitarySynthesis:rz,sx,x,cx", "UnitarySynthesis:rz,sx,x,cx:target", "BasisTranslator:p,sx,ecr",
            "UnitarySynthesis:rz,sx,rzz"} <= set(subjects)
    # no documented complete translation path to an rxx basis in the standard equivalence library
    assert "BasisTranslator:rz,ry,rxx" not in subjects and "UnitarySynthesis:rz,ry,rxx" in subjects
    assert apis["HighLevelSynthesis:u,cx:target"] == ("qiskit.transpiler.passes.HighLevelSynthesis.run on "
                                                      "qiskit.transpiler.passes.HighLevelSynthesis")


def test_a_clifford_basis_may_keep_the_unitary_but_never_gains_other_gates(qiskit_runtime, old_qiskit_runtime):
    """h/s/sdg/cx cannot express most unitaries exactly. 2.4.1 approximates a one-qubit unitary
    with t and tdg, which are not in the basis; 1.0.2 synthesizes two-qubit unitaries with u.
    Both are findings; a unitary left as it was is not (only for these bases)."""
    new = qiskit_runtime.check_law(contract=LAW, subject="UnitarySynthesis:h,s,sdg,cx", examples=25,
                                   other_failures=False)
    assert new["outcome"] == "violated", new
    assert "['t', 'tdg']" in new["message"], new["message"]
    assert new["reproducer_fails"], new["reproducer"]
    old = old_qiskit_runtime.check_law(contract=LAW, subject="UnitarySynthesis:h,s,cz", examples=25,
                                       other_failures=False)
    assert old["outcome"] == "violated", old
    assert "['u']" in old["message"], old["message"]
    assert old["reproducer_fails"], old["reproducer"]
    subjects = qiskit_runtime("import json, contract_runtime as r\n"
                              f"print(json.dumps(r.subjects('qiskit', {LAW!r})['subjects']))")
    # only UnitarySynthesis documents leaving what it cannot synthesize
    assert [s for s in subjects if s.split(":")[1] == "h,s,cz"] == ["UnitarySynthesis:h,s,cz",
                                                                    "UnitarySynthesis:h,s,cz:target"]
