"""The table's shape (Tables 3 and 4 of the paper), and the runner's bookkeeping: one audit
per bug and run (focused on the bug's unit or file), finished (bug, run) pairs never redone, `--source llm` refused
clearly when the LLM auditor is missing."""

import json
from pathlib import Path

import pytest

import qusema.bench.runner as runner
from qusema.bench.dataset import load_dataset
from qusema.bench.runner import AuditRecord, BenchConfig, BenchError, run_bench
from qusema.bench.selfcheck import ReleaseRun
from qusema.bench.table import FUNNEL, write_table
from qusema.defects import Finding, Hypothesis, RootCause, Verdict, Verification

DATASET = load_dataset()


def _finding(bug, code: str, method: str = "ochiai") -> Finding:
    h = Hypothesis(library=bug.library, version=bug.buggy_version, unit=bug.root_cause_qualname, api=bug.api,
                   law_id="law", violated_constraint="c", constraint_source="s", triggering_input="i",
                   predicted_behaviour="p", test_code=code, origin="contract")
    return Finding(h, Verification(h.id, Verdict.REPRODUCED, "assertion_failed", "m", 0.1, "process"), "bug", "r",
                   RootCause(bug.root_cause_qualname, bug.root_cause_file, 1, 2, 1.0, method), [])


class FakeRerun:
    def __init__(self, *args, **kwargs) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None

    def __call__(self, release: str, code: str) -> ReleaseRun:
        # "flip" fails on buggy releases only; "stuck" fails everywhere.
        buggy = release in {b.buggy_target for b in DATASET.bugs if b.id in code}
        status = "assertion_failed" if buggy or code.startswith("stuck") else "ok"
        return ReleaseRun(release, status, "", 0.0, "fake", "env")


@pytest.fixture
def fake_audits(monkeypatch):
    audits: list[tuple[str, int]] = []

    def audit(config, bug, run, cache_dir, progress):
        audits.append((bug.id, run))
        # Run 1 finds qiskit-12093 (flips) and qiskit-10570 (stuck: identified only);
        # run 2 finds only qiskit-12093.
        found = [_finding(DATASET.bug("qiskit-12093"), "flip qiskit-12093")]
        if run == 1:
            found.append(_finding(DATASET.bug("qiskit-10570"), "stuck qiskit-10570"))
        record = AuditRecord(key=bug.id, target=bug.buggy_target, source="contracts", setting=config.setting, run=run,
                             run_dir="/nowhere", run_id="r", bugs=[bug.id], stop_reason="complete",
                             seconds=1.0, funnel={"candidates": 7, "verified_defects": 4, "findings": 3,
                                                  "api_triggers": 3, "final_reports": 2},
                             setting_note=runner.CONTRACT_SETTING_NOTES[config.setting])
        return record, found

    monkeypatch.setattr(runner, "_contracts_audit", audit)
    monkeypatch.setattr(runner, "SandboxRerun", FakeRerun)
    return audits


def test_one_audit_per_bug_and_run_and_resume_redoes_nothing(tmp_path: Path, fake_audits):
    ids = ["qiskit-12093", "qiskit-10570", "qiskit-11974", "qiskit-14107"]
    bugs = DATASET.select(ids)
    config = BenchConfig("contracts", "unit", runs=2, out_dir=tmp_path / "results", work_dir=tmp_path / "work")
    scores = run_bench(config, bugs, tmp_path / "cache")
    assert sorted(fake_audits) == sorted((bug, run) for bug in ids for run in (1, 2))
    by = {(s.bug, s.run): s for s in scores}
    assert (by[("qiskit-12093", 1)].identified, by[("qiskit-12093", 1)].relocated) == (True, True)
    assert (by[("qiskit-10570", 1)].identified, by[("qiskit-10570", 1)].relocated) == (True, False)
    assert not by[("qiskit-10570", 2)].identified
    assert not by[("qiskit-14107", 1)].identified
    fake_audits.clear()
    again = run_bench(config, bugs, tmp_path / "cache")
    assert fake_audits == []  # every (bug, run) was finished
    assert sorted((s.bug, s.run, s.relocated) for s in again) == sorted((s.bug, s.run, s.relocated) for s in scores)
    # Removing one score redoes that (bug, run) only.
    (config.run_dir(2) / "qiskit-11974.json").unlink()
    run_bench(config, bugs, tmp_path / "cache")
    assert fake_audits == [("qiskit-11974", 2)]


def test_table_has_runs_means_cost_and_funnel(tmp_path: Path, fake_audits):
    bugs = DATASET.select(["qiskit-12093", "qiskit-10570", "qiskit-14107"])
    results = tmp_path / "results"
    for setting in ("unit", "file"):
        run_bench(BenchConfig("contracts", setting, runs=2, out_dir=results, work_dir=tmp_path / "w"),
                  bugs, tmp_path / "cache")
    md_path, json_path, rows = write_table(results, DATASET)
    table = json.loads(json_path.read_text())
    assert [(r["source"], r["setting"]) for r in table["rows"]] == [("contracts", "file"), ("contracts", "unit")]
    unit = table["rows"][1]
    assert [(r["identified"], r["relocated"], r["bugs_scored"]) for r in unit["runs"]] == [(2, 1, 3), (1, 1, 3)]
    assert unit["mean"]["identified"] == 1.5 and unit["mean"]["relocated"] == 1.0
    assert unit["total_cost_usd"] == 0.0 and unit["total_tokens"] == 0
    # three audits per run (one per bug), each with the scripted funnel
    assert {stage: unit["mean"][stage] for stage in FUNNEL} == {
        "candidates": 21, "verified_defects": 12, "api_triggers": 9, "final_reports": 6}
    assert table["per_bug"]["qiskit-12093"]["contracts-unit"] == ["R", "R"]
    assert table["per_bug"]["qiskit-10570"]["contracts-unit"] == ["I", "-"]
    markdown = md_path.read_text()
    assert "| Auditor | Setting | Run 1 | Run 2 | Mean identified | Mean relocated | Cost (USD) | Tokens |" in markdown
    assert "| contracts | unit | 2 / 1 (3/20 bugs) | 1 / 1 (3/20 bugs) | 1.50 | 1.00 | 0.00 | 0 |" in markdown
    assert "| Candidates | Verified defects | API triggers | Final reports |" in markdown
    assert "entry API reaches the root-cause unit" in markdown and "any function of the root-cause file" in markdown
    assert "| qiskit-12093 |" in markdown and "| pennylane-7344 |" in markdown  # every bug has a line


def test_llm_source_without_its_entry_point_fails_clearly(tmp_path: Path, monkeypatch):
    import importlib

    real = importlib.import_module

    def no_agent(name, *args, **kwargs):
        if name == "qusema.agent":
            raise ModuleNotFoundError("No module named 'qusema.agent'", name="qusema.agent")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(runner.importlib, "import_module", no_agent)
    config = BenchConfig("llm", "unit", runs=1, out_dir=tmp_path, work_dir=tmp_path, llm="openai:gpt-4o")
    with pytest.raises(BenchError, match="needs the LLM auditor"):
        run_bench(config, DATASET.select(["qiskit-14107"]), tmp_path)
    assert not any(tmp_path.iterdir())  # refused before anything was written


def test_bad_settings_are_refused():
    with pytest.raises(BenchError):
        BenchConfig("contracts", "segment")
    with pytest.raises(BenchError):
        BenchConfig("agents", "unit")


def test_a_failed_audit_leaves_its_bugs_unscored_and_the_others_scored(tmp_path: Path, fake_audits, monkeypatch):
    working = runner._contracts_audit

    def flaky(config, bug, run, cache_dir, progress):
        if bug.id == "qiskit-14107":
            raise TimeoutError("subjects: timeout")
        return working(config, bug, run, cache_dir, progress)

    monkeypatch.setattr(runner, "_contracts_audit", flaky)
    config = BenchConfig("contracts", "unit", runs=1, out_dir=tmp_path / "r", work_dir=tmp_path / "w")
    with pytest.raises(BenchError, match="qiskit-14107: TimeoutError") as failed:
        run_bench(config, DATASET.select(["qiskit-12093", "qiskit-14107"]), tmp_path / "cache")
    assert [s.bug for s in failed.value.scores] == ["qiskit-12093"]
    assert not config.score_path(1, DATASET.bug("qiskit-14107")).exists()  # retried by the next run
    # The table reads the failure's record as a failure, not as an audit, and says so.
    md_path, _, _ = write_table(config.out_dir, DATASET)
    assert "1 audit(s) failed and are unscored" in md_path.read_text()
    # The retry succeeds: its failure no longer stands, in the records or the table.
    monkeypatch.setattr(runner, "_contracts_audit", working)
    run_bench(config, DATASET.select(["qiskit-12093", "qiskit-14107"]), tmp_path / "cache")
    assert config.score_path(1, DATASET.bug("qiskit-14107")).exists()
    assert not list(config.out_dir.rglob("*.error.json"))
    md_path, _, _ = write_table(config.out_dir, DATASET)
    assert "failed" not in md_path.read_text()


def test_scores_located_by_a_tie_given_to_the_audited_unit_are_marked_and_counted_apart(tmp_path: Path,
                                                                                       monkeypatch):
    from qusema.bench.table import TIE_TO_FOCUS

    def audit(config, bug, run, cache_dir, progress):
        method = f"ochiai over line coverage; 9 segments tied at the top score, {TIE_TO_FOCUS} over the closest to the API, x"
        found = [_finding(DATASET.bug("qiskit-12093"), "flip qiskit-12093", method),
                 _finding(DATASET.bug("qiskit-14107"), "flip qiskit-14107")]
        record = AuditRecord(key=bug.id, target=bug.buggy_target, source="contracts", setting=config.setting,
                             run=run, run_dir="/nowhere", run_id="r", bugs=[bug.id], stop_reason="complete",
                             seconds=1.0, funnel={}, setting_note="")
        return record, [f for f in found if bug.id in f.hypothesis.test_code]

    monkeypatch.setattr(runner, "_contracts_audit", audit)
    monkeypatch.setattr(runner, "SandboxRerun", FakeRerun)
    results = tmp_path / "results"
    run_bench(BenchConfig("contracts", "unit", runs=1, out_dir=results, work_dir=tmp_path / "w"),
              DATASET.select(["qiskit-12093", "qiskit-14107"]), tmp_path / "cache")
    md_path, json_path, _ = write_table(results, DATASET)
    table = json.loads(json_path.read_text())
    assert table["per_bug"]["qiskit-12093"]["contracts-unit"] == ["R*"]
    assert table["per_bug"]["qiskit-14107"]["contracts-unit"] == ["R"]
    run = table["rows"][0]["runs"][0]
    assert (run["relocated"], run["relocated_by_tie"]) == (2, 1)
    assert "of the relocated bugs, 1 (per run) were located among segments coverage tied" in md_path.read_text()


def test_the_table_command_refuses_a_directory_without_scores_and_writes_nothing(tmp_path: Path):
    from click.testing import CliRunner

    from qusema.cli import main

    empty = tmp_path / "results"
    empty.mkdir()
    (empty / "contracts-unit").mkdir()  # a row directory with no run in it scores nothing either
    result = CliRunner().invoke(main, ["bench", "table", "--out", str(empty)])
    assert result.exit_code == 1
    assert f"no scores under {empty}" in result.output
    assert not (empty / "table.md").exists() and not (empty / "table.json").exists()
