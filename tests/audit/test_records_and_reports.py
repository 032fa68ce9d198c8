"""Qualification, the run store, and the report formats."""

import hashlib
import json
from dataclasses import replace
from pathlib import Path

import pytest

from qusema.audit import collect_findings, finding_from_dict, write_reports
from qusema.defects import Finding, Hypothesis, RootCause, Verdict, Verification
from qusema.store import RunStore
from qusema.trigger.classify import qualify


def test_qualification_needs_public_api_documented_input_and_live_api():
    assert qualify(True, "documented", []).classification == "bug"
    assert qualify(False, "documented", []).classification == "potential bug"
    assert qualify(True, "undocumented", []).classification == "potential bug"
    # the docs' own example printing other numbers: the code or the docs is wrong
    example = qualify(True, "documented example", [])
    assert example.classification == "potential bug" and "documentation" in example.reason
    # an answer the documentation allows (a skipped check): missed, not wrong
    permitted = qualify(True, "answer permitted", [])
    assert permitted.classification == "potential bug" and "allows this answer" in permitted.reason
    deprecated = qualify(True, "documented", ["X is deprecated as of 2.1"])
    assert deprecated.classification == "potential bug" and "deprecated" in deprecated.reason


def make_finding(library: str = "qiskit", api: str = "qiskit.circuit.library.RZGate.inverse") -> Finding:
    hypothesis = Hypothesis(
        library=library, version="2.4.1", unit="qiskit.circuit.library.standard_gates.rz.RZGate.inverse", api=api,
        law_id="qiskit.operation.inverse-is-adjoint", violated_constraint="inverse() is the adjoint",
        constraint_source="quantum semantics", triggering_input="RZGate(0.5)",
        predicted_behaviour="RZGate(0.5).inverse() differs from the adjoint", test_code="assert False, 'demo'\n",
        origin="contract")
    verification = Verification(hypothesis.id, Verdict.REPRODUCED, "assertion_failed", "demo", 0.1, "bwrap")
    cause = RootCause("qiskit.circuit.library.standard_gates.rz.RZGate.inverse",
                      "qiskit/circuit/library/standard_gates/rz.py", 90, 110, 1.0, "ochiai")
    return Finding(hypothesis, verification, "bug", "documented", cause, ["qiskit==2.4.1", "numpy==2.4.6"])


def test_finding_survives_a_json_round_trip():
    finding = make_finding()
    again = finding_from_dict(json.loads(json.dumps(finding.to_dict())))
    assert again.to_dict() == finding.to_dict()


def test_store_resume_keeps_finished_items_and_refuses_other_settings(tmp_path: Path):
    with RunStore(tmp_path / "run.sqlite") as store:
        store.start_run("r1", "audit", "qiskit==2.4.1", {"examples": 5, "contracts": ("a*",)})
        store.finish_item("r1", "a::X", {"outcome": "holds"}, 1.0, records=[("finding", "f1", {"x": 1})])
    with RunStore(tmp_path / "run.sqlite") as store:
        store.start_run("r1", "audit", "qiskit==2.4.1", {"examples": 5, "contracts": ("a*",)})  # tuples read back as lists
        assert store.done_items("r1") == {"a::X"}
        assert store.records("r1", "finding") == [("f1", {"x": 1})]
        with pytest.raises(ValueError, match="another configuration"):
            store.start_run("r1", "audit", "qiskit==2.4.1", {"examples": 6})


def test_duplicates_fold_into_one_finding(tmp_path: Path):
    first, second = make_finding(), make_finding()
    second.hypothesis.details["subject"] = "other"  # same law, API and root cause
    with RunStore(tmp_path / "run.sqlite") as store:
        store.start_run("r", "audit", "t", {})
        store.finish_item("r", "1", {}, 0, records=[("finding", first.id, first.to_dict())])
        store.finish_item("r", "2", {}, 0, records=[("finding", second.id, second.to_dict())])
        findings = collect_findings(store, "r")
    assert len(findings) == 1 and len(findings[0].duplicates) == 1


def test_two_assertions_of_a_law_failing_in_one_segment_stay_two_findings(tmp_path: Path):
    # One copy routine can drop one argument and reset another; a release may fix only one.
    findings = {}
    for name, assertion in [("a", "AssertionError at law.py:10"), ("b", "AssertionError at law.py:10"),
                            ("c", "AssertionError at law.py:20")]:
        finding = make_finding()
        finding.hypothesis.details.update(subject=name, assertion=assertion)
        findings[name] = finding
    with RunStore(tmp_path / "run.sqlite") as store:
        store.start_run("r", "audit", "t", {})
        for name, finding in findings.items():
            store.finish_item("r", name, {}, 0, records=[("finding", finding.id, finding.to_dict())])
        collected = collect_findings(store, "r")
    assert sorted(len(f.duplicates) for f in collected) == [0, 1]
    assert {f.hypothesis.details["assertion"] for f in collected} == {"AssertionError at law.py:10",
                                                                       "AssertionError at law.py:20"}
    # a finding without an assertion (an agent's) keeps the id it always had: the digest of
    # law, API and segment
    old_id = hashlib.sha256(b"qiskit.operation.inverse-is-adjoint|qiskit.circuit.library.RZGate.inverse|"
                            b"qiskit.circuit.library.standard_gates.rz.RZGate.inverse").hexdigest()[:12]
    assert make_finding().id == old_id
    assert findings["c"].id != old_id


@pytest.mark.parametrize("library, headings", [
    ("qiskit", ["### Environment", "### What is happening?", "### How can we reproduce the issue?",
                "### What should happen?", "### Any suggestions?"]),
    ("pennylane", ["### Expected behavior", "### Actual behavior", "### Additional information",
                   "### Source code", "### Tracebacks", "### System information"]),
])
def test_drafts_follow_the_library_template_and_sarif_points_at_the_root_cause(tmp_path, library, headings):
    finding = make_finding(library)
    write_reports(tmp_path, [finding], "3.11.7")
    (draft,) = list((tmp_path / "drafts").glob("*.md"))
    text = draft.read_text()
    positions = [text.index(h) for h in headings]
    assert positions == sorted(positions)
    assert "assert False, 'demo'" in text and "qiskit==2.4.1" in text
    sarif = json.loads((tmp_path / "findings.sarif").read_text())
    (result,) = sarif["runs"][0]["results"]
    assert result["ruleId"] == "qiskit.operation.inverse-is-adjoint" and result["level"] == "error"
    assert result["locations"][0]["physicalLocation"]["region"] == {"startLine": 90, "endLine": 110}
    assert result["partialFingerprints"] == {"qusemaFinding/v1": finding.id}
    findings = json.loads((tmp_path / "findings.json").read_text())
    assert findings["schema_version"] == "1.1" and findings["findings"][0]["id"] == finding.id
    assert findings["findings"][0]["class"] == "silent wrong result" == result["properties"]["class"]


def test_a_draft_title_names_the_api_and_what_was_observed_within_the_limit():
    from qusema.report.drafts import TITLE_LIMIT, title

    finding = make_finding()
    long_law = "every pass documented as rewriting a circuit into a basis " * 8
    observed = "output uses operations outside the basis ['h', 's', 'sdg', 'cx']: ['t', 'tdg']"
    finding = replace(finding, hypothesis=replace(finding.hypothesis, violated_constraint=long_law,
                                                  triggering_input="qc = QuantumCircuit(1)\nqc.h(0)\n"),
                      verification=replace(finding.verification, message=observed))
    assert title(finding) == f"[silent wrong result] qiskit.circuit.library.RZGate.inverse: {observed}"
    wordy = replace(finding, verification=replace(finding.verification, message="the value is wrong " * 20))
    clipped = title(wordy)
    full = "[silent wrong result] qiskit.circuit.library.RZGate.inverse: " + " ".join(("the value is wrong " * 20).split())
    assert len(clipped) <= TITLE_LIMIT and clipped.endswith("…")
    kept = clipped[:-1]
    assert full.startswith(kept) and full[len(kept)] == " "  # cut between words
    silent = replace(finding, verification=replace(finding.verification, message=""))
    assert title(silent).startswith("[silent wrong result] qiskit.circuit.library.RZGate.inverse: every pass documented")


def test_a_finding_says_its_class_as_its_source_said_or_by_its_law():
    from qusema.report.drafts import title

    finding = make_finding()
    crash = replace(finding, hypothesis=replace(finding.hypothesis, details={"finding_class": "crash"}))
    panic = replace(finding, hypothesis=replace(finding.hypothesis, law_id="qiskit.robust.no-panic", details={}))
    assert (finding.finding_class, crash.finding_class, panic.finding_class) == (
        "silent wrong result", "crash", "crash")
    assert title(crash).startswith("[crash] ") and crash.to_dict()["class"] == "crash"


def test_one_draft_per_law_broken_through_one_api_led_by_the_best_localized_finding(tmp_path):
    def finding(segment: str, score: float, api: str = "qiskit.circuit.library.RZGate.inverse",
                classification: str = "bug") -> Finding:
        f = make_finding(api=api)
        f.hypothesis = replace(f.hypothesis, test_code=f"assert False, 'input at {segment}'\n",
                               triggering_input=f"input at {segment}")
        f.root_cause = RootCause(segment, "qiskit/x.py", 1, 2, score, "ochiai")
        f.classification = classification
        return f

    weak, strong = finding("pkg.helper", 0.5), finding("pkg.entry", 0.9)  # one law, one API, two segments
    elsewhere = finding("pkg.entry", 0.9, api="qiskit.circuit.library.RXGate.inverse")
    potential = finding("pkg.other", 0.9, classification="potential bug")
    assert len({f.id for f in (weak, strong, elsewhere, potential)}) == 4  # four findings to the benchmark
    drafts = write_reports(tmp_path, [weak, strong, elsewhere, potential], "3.11.7")
    assert drafts == 3
    texts = {p.name: p.read_text() for p in (tmp_path / "drafts").glob("*.md")}
    assert set(texts) == {f"bug-{strong.id}.md", f"bug-{elsewhere.id}.md", f"potential-bug-{potential.id}.md"}
    grouped = texts[f"bug-{strong.id}.md"]
    # the lead's reproducer first, the other input after it, each as runnable code
    assert grouped.index("input at pkg.entry") < grouped.index("1 more input(s)") < grouped.index(
        "assert False, 'input at pkg.helper'")
    assert "Localized to `pkg.helper`" in grouped and weak.id in grouped
    assert "more input(s)" not in texts[f"bug-{elsewhere.id}.md"]
    record = json.loads((tmp_path / "findings.json").read_text())
    assert len(record["findings"]) == 4  # findings.json and SARIF keep every finding
    assert record["drafts"][f"bug-{strong.id}.md"] == [strong.id, weak.id]
    assert len(json.loads((tmp_path / "findings.sarif").read_text())["runs"][0]["results"]) == 4
