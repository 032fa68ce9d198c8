"""Scoring rules on hand-written findings: identified vs relocated vs neither, and the
version flip as the ground truth for relocation."""

from qusema.bench.dataset import load_dataset
from qusema.bench.scoring import BugScore, in_root_cause, score_bug
from qusema.bench.selfcheck import ReleaseRun
from qusema.defects import Finding, Hypothesis, RootCause, Verdict, Verification

DATASET = load_dataset()
IS_UNITARY = DATASET.bug("qiskit-14107")  # fixed in 2.2.1
ISOMETRY = DATASET.bug("qiskit-15465")  # no fixed release


def finding(bug, segment: str | None, code: str, *, file: str | None = None, verdict=Verdict.REPRODUCED,
            api: str = "qiskit.quantum_info.SparsePauliOp.is_unitary", law: str = "query.matches-matrix") -> Finding:
    hypothesis = Hypothesis(library=bug.library, version=bug.buggy_version, unit=segment or "?", api=api,
                            law_id=law, violated_constraint="agrees with the matrix", constraint_source="semantics",
                            triggering_input="x", predicted_behaviour="wrong", test_code=code, origin="contract")
    root = None if segment is None else RootCause(segment, file or bug.root_cause_file, 1, 9, 1.0, "ochiai")
    return Finding(hypothesis, Verification(hypothesis.id, verdict, "assertion_failed", "boom", 0.1, "process"),
                   "bug", "documented", root, ["qiskit==2.2.0"])


class ScriptedRerun:
    """Outcome per (release, reproducer) as a test scripts it; remembers what it was asked."""

    def __init__(self, outcomes: dict[tuple[str, str], str]) -> None:
        self.outcomes = outcomes
        self.calls: list[tuple[str, str]] = []

    def __call__(self, release: str, code: str) -> ReleaseRun:
        self.calls.append((release, code))
        status = self.outcomes[(release, code)]
        return ReleaseRun(release, status, "AssertionError: x" if status == "assertion_failed" else "", 0.1,
                          "process", f"env-{release}")


def score(bug, findings, rerun):
    return score_bug(bug, findings, rerun, run=1, source="contracts", setting="unit")


def test_finding_in_the_segment_that_flips_between_releases_relocates():
    f = finding(IS_UNITARY, IS_UNITARY.root_cause_qualname, "flip")
    rerun = ScriptedRerun({("qiskit==2.2.0", "flip"): "assertion_failed", ("qiskit==2.2.1", "flip"): "ok"})
    s = score(IS_UNITARY, [f], rerun)
    assert (s.identified, s.relocated) == (True, True)
    assert rerun.calls == [("qiskit==2.2.0", "flip"), ("qiskit==2.2.1", "flip")]  # both re-run, independently
    (m,) = s.matching
    assert m.fails_on_buggy and m.passes_on_fixed and m.reproducer == "flip"
    assert s.to_dict()["matching"][0]["relocates"] is True


def test_finding_that_still_fails_on_the_fixed_release_is_identified_only():
    f = finding(IS_UNITARY, IS_UNITARY.root_cause_qualname, "noflip")
    rerun = ScriptedRerun({("qiskit==2.2.0", "noflip"): "assertion_failed",
                           ("qiskit==2.2.1", "noflip"): "assertion_failed"})
    s = score(IS_UNITARY, [f], rerun)
    assert (s.identified, s.relocated) == (True, False)
    assert s.matching[0].passes_on_fixed is False


def test_finding_that_crashes_on_the_fixed_release_does_not_relocate():
    f = finding(IS_UNITARY, IS_UNITARY.root_cause_qualname, "crash")
    rerun = ScriptedRerun({("qiskit==2.2.0", "crash"): "assertion_failed", ("qiskit==2.2.1", "crash"): "exception"})
    assert score(IS_UNITARY, [f], rerun).relocated is False


def test_finding_that_no_longer_fails_on_the_buggy_release_does_not_relocate():
    f = finding(IS_UNITARY, IS_UNITARY.root_cause_qualname, "flaky")
    rerun = ScriptedRerun({("qiskit==2.2.0", "flaky"): "ok", ("qiskit==2.2.1", "flaky"): "ok"})
    s = score(IS_UNITARY, [f], rerun)
    assert (s.identified, s.relocated) == (True, False)


def test_without_a_fixed_release_failing_on_the_buggy_one_relocates():
    f = finding(ISOMETRY, ISOMETRY.root_cause_qualname + "#p2", "iso", api="qiskit.circuit.library.Isometry")
    rerun = ScriptedRerun({("qiskit==2.4.1", "iso"): "assertion_failed"})
    s = score(ISOMETRY, [f], rerun)
    assert (s.identified, s.relocated) == (True, True)
    assert s.matching[0].on_fixed is None and s.matching[0].passes_on_fixed is None
    assert rerun.calls == [("qiskit==2.4.1", "iso")]


def test_findings_elsewhere_are_neither_but_close_ones_are_kept_for_review():
    same_file = finding(IS_UNITARY, "qiskit.quantum_info.operators.symplectic.sparse_pauli_op.SparsePauliOp.simplify",
                        "sf")
    same_api = finding(IS_UNITARY, "qiskit.quantum_info.operators.base_operator.BaseOperator.x", "sa",
                       file="qiskit/quantum_info/operators/base_operator.py")
    unrelated = finding(IS_UNITARY, "qiskit.circuit.library.standard_gates.x.XGate.inverse", "u",
                        file="qiskit/circuit/library/standard_gates/x.py", api="qiskit.circuit.library.XGate")
    unlocalized = finding(IS_UNITARY, None, "nl")
    not_verified = finding(IS_UNITARY, IS_UNITARY.root_cause_qualname, "nv", verdict=Verdict.INCONCLUSIVE)
    rerun = ScriptedRerun({})
    s = score(IS_UNITARY, [same_file, same_api, unrelated, unlocalized, not_verified], rerun)
    assert (s.identified, s.relocated) == (False, False)
    assert rerun.calls == []  # nothing to re-run: nothing is in the root-cause segment
    reasons = {n.finding_id: n.why_not for n in s.near_misses}
    assert "in the bug's file" in reasons[same_file.id]
    assert "bug's API" in reasons[same_api.id]
    assert "not localized" in reasons[unlocalized.id]
    assert "inconclusive" in reasons[not_verified.id]
    assert unrelated.id not in reasons
    assert s.findings_in_run == 5


def test_partitions_count_as_the_segment_but_prefixes_do_not():
    assert in_root_cause(IS_UNITARY.root_cause_qualname + "#p1", IS_UNITARY)
    assert not in_root_cause(IS_UNITARY.root_cause_qualname + "_helper", IS_UNITARY)
    assert not in_root_cause(None, IS_UNITARY)


def test_a_score_round_trips_through_its_record():
    f = finding(IS_UNITARY, IS_UNITARY.root_cause_qualname, "flip")
    rerun = ScriptedRerun({("qiskit==2.2.0", "flip"): "assertion_failed", ("qiskit==2.2.1", "flip"): "ok"})
    s = score(IS_UNITARY, [f], rerun)
    again = BugScore.from_dict(s.to_dict())
    assert again.to_dict() == s.to_dict()
