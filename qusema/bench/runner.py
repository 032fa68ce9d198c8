"""`qusema bench run`: audit the buggy releases of the historical bugs, then score each bug.

Sources:
- `contracts` — the offline contract engine (`qusema.audit.run_audit`), one focused audit
  per bug: it reads no text, so it is "given" the root-cause unit (`unit`) or the whole
  containing file (`file`) as an audit focus — only the checks whose entry API reaches that
  unit, or any function of that file, in Stage I's reverse call graph run
  (`qusema.contracts.focus`). The focus is where to look, never what is wrong there.
- `llm` — the LLM auditor, one audit per bug, given the root-cause segment's contextual
  unit (`unit`) or the whole containing file (`file`). It is reached through
  `qusema.agent.run_bench_audit` (see `LLMEntryPoint`); without it the run stops with a
  clear message. It needs the model (`llm`, PROVIDER:MODEL, and optionally `base_url`), and
  may run an ablation: `no-docs` (units without their documentation) or `no-verification`
  (claims accepted without running them). An ablation is a row of its own
  (`llm-<setting>-<ablation>`), recorded in every score and audit record.

Run r uses seed r - 1. Layout under OUT (default benchmarks/results/historical):
  OUT/<source>-<setting>/run-<r>/<bug>.json          one score per (bug, run)
  OUT/<source>-<setting>/run-<r>/audit-<target>.json what the audit did (funnel, cost)
Audits themselves go under WORK (default benchmarks/runs). A finished (bug, run) — its
score file exists — is never redone; an interrupted audit resumes (run_audit's own
resume)."""

from __future__ import annotations

import importlib
import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

from qusema.bench.dataset import Bug
from qusema.bench.scoring import BugScore, SandboxRerun, score_bug
from qusema.defects import Finding, Verdict

Progress = Callable[[str], None]
SOURCES = ("contracts", "llm")
SETTINGS = ("unit", "file")
ABLATIONS = ("none", "no-docs", "no-verification")
ABLATION_NOTES = {
    "no-docs": "units were rendered without their documentation (docstrings included)",
    "no-verification": "claims were accepted without running them; the scorer still re-ran every reproducer",
}
CONTRACT_SETTING_NOTES = {
    "unit": "the contract engine ran the checks whose entry API reaches the root-cause unit in the call graph",
    "file": "the contract engine ran the checks whose entry API reaches any function of the root-cause file",
}


class BenchError(Exception):
    """The benchmark cannot run as asked (a missing source, a bad setting), or some audits
    failed; `scores` holds what was scored anyway."""

    def __init__(self, message: str, scores: list[BugScore] | None = None) -> None:
        super().__init__(message)
        self.scores = scores or []


@dataclass(frozen=True)
class BenchConfig:
    source: str
    setting: str
    runs: int = 3
    time_budget_min: float = 30.0
    examples: int = 25
    deepen: int = 1  # contracts: re-checks per check at most, in the time an audit's budget leaves
    workers: int = 2
    backend: str | None = None
    item_timeout_s: float = 120.0  # per sandbox call of the audit (subjects, checks)
    out_dir: Path = Path("benchmarks/results/historical")
    work_dir: Path = Path("benchmarks/runs")
    llm: str | None = None  # PROVIDER:MODEL, for --source llm
    base_url: str | None = None
    ablation: str = "none"

    def __post_init__(self) -> None:
        if self.source not in SOURCES:
            raise BenchError(f"unknown source {self.source!r}; choose one of {', '.join(SOURCES)}")
        if self.setting not in SETTINGS:
            raise BenchError(f"unknown setting {self.setting!r}; choose one of {', '.join(SETTINGS)}")
        if self.runs < 1:
            raise BenchError("--runs must be at least 1")
        if self.ablation not in ABLATIONS:
            raise BenchError(f"unknown ablation {self.ablation!r}; choose one of {', '.join(ABLATIONS)}")
        if self.source == "llm" and not self.llm:
            raise BenchError("--source llm needs the model: --llm PROVIDER:MODEL (e.g. openai:gpt-4o, "
                             "anthropic:claude-sonnet-4-5; key from OPENAI_API_KEY / ANTHROPIC_API_KEY), "
                             "and --base-url URL for any other OpenAI-compatible endpoint")
        if self.source == "contracts" and (self.llm or self.base_url):
            raise BenchError("--llm and --base-url are for --source llm; the contract engine uses no model")
        if self.source == "contracts" and self.ablation != "none":
            raise BenchError(f"--ablation {self.ablation} switches off part of the LLM auditor; "
                             "it has no meaning for --source contracts")

    @property
    def row(self) -> str:
        return f"{self.source}-{self.setting}" + ("" if self.ablation == "none" else f"-{self.ablation}")

    def run_dir(self, run: int) -> Path:
        return self.out_dir / self.row / f"run-{run}"

    def score_path(self, run: int, bug: Bug) -> Path:
        return self.run_dir(run) / f"{bug.id}.json"

    def audit_record_path(self, run: int, key: str) -> Path:
        return self.run_dir(run) / f"audit-{key.replace('==', '-')}.json"


@dataclass
class AuditRecord:
    """One audit of a run, as the table needs it: funnel, cost, how it ended, where it is."""

    key: str  # the release (contracts) or the bug (llm) the audit was for
    target: str
    source: str
    setting: str
    run: int
    run_dir: str
    run_id: str
    bugs: list[str]
    stop_reason: str
    seconds: float
    funnel: dict[str, int]  # candidates, verified_defects, findings, api_triggers, final_reports
    cost_usd: float = 0.0
    tokens: int = 0
    config: dict[str, Any] = field(default_factory=dict)
    setting_note: str = ""
    finished_at: str = field(default_factory=lambda: time.strftime("%Y-%m-%dT%H:%M:%S%z"))


@dataclass(frozen=True)
class BenchFocus:
    """What the LLM auditor is given for one bug: never issue text, fixes, tests or the
    self-check, only where to look."""

    setting: str  # unit: the segment's contextual unit; file: the whole containing file
    segment: str  # the root-cause qualname in the Stage I index (unit setting)
    file: str  # the containing file, relative to the source root (file setting)


@dataclass
class SourceOutcome:
    run_dir: Path
    run_id: str
    findings: list[Finding]
    funnel: dict[str, int]
    stop_reason: str
    cost_usd: float = 0.0
    tokens: int = 0
    config: dict[str, Any] = field(default_factory=dict)


class LLMEntryPoint(Protocol):
    """What `qusema.agent.run_bench_audit` must be for `--source llm`. `llm` is the model
    (PROVIDER:MODEL), `base_url` its endpoint when not the provider's own, `ablation` one of
    ABLATIONS."""

    def __call__(self, target: str, focus: BenchFocus, *, seed: int, out_root: Path, cache_dir: Path,
                 time_budget_s: float, backend: str | None, progress: Progress, llm: str,
                 base_url: str | None = None, ablation: str = "none") -> SourceOutcome: ...


def run_bench(config: BenchConfig, bugs: list[Bug], cache_dir: Path,
              progress: Progress = lambda _: None) -> list[BugScore]:
    """Every (bug, run) of the selection, one audit each, scored; finished ones are read
    back, not redone."""
    llm = _llm_entry_point() if config.source == "llm" else None
    from qusema.audit import AUDIT_TOOLS

    scores: list[BugScore] = []
    failed: list[str] = []
    with SandboxRerun(config.backend, tools=AUDIT_TOOLS) as rerun:
        for run in range(1, config.runs + 1):
            for bug in bugs:
                if config.score_path(run, bug).is_file():
                    scores.append(BugScore.from_dict(json.loads(config.score_path(run, bug).read_text())))
                    progress(f"run {run}: {bug.id} already scored")
                    continue
                progress(f"run {run}: auditing {bug.id}")
                try:
                    if llm is None:
                        record, findings = _contracts_audit(config, bug, run, cache_dir, progress)
                    else:
                        record, findings = _llm_audit(config, llm, bug, run, cache_dir, progress)
                except Exception as exc:  # noqa: BLE001 - one broken audit must not lose the others
                    # No score is written, so the next `bench run` retries this bug.
                    failed.append(f"run {run} {bug.id}: {type(exc).__name__}: {exc}")
                    _write_json(config.audit_record_path(run, bug.id).with_suffix(".error.json"),
                                {"key": bug.id, "run": run, "error": type(exc).__name__, "message": str(exc)})
                    progress(f"run {run}: audit of {bug.id} failed ({type(exc).__name__}: {exc}); it stays unscored")
                    continue
                _write_json(config.audit_record_path(run, bug.id), asdict(record))
                # a retry that succeeded: the earlier failure no longer stands
                config.audit_record_path(run, bug.id).with_suffix(".error.json").unlink(missing_ok=True)
                score = score_bug(bug, findings, rerun, run=run, source=config.source, setting=config.setting,
                                  audit={"record": str(config.audit_record_path(run, bug.id)),
                                         "run_dir": record.run_dir, "run_id": record.run_id,
                                         "stop_reason": record.stop_reason, "seed": run - 1,
                                         "time_budget_min": config.time_budget_min,
                                         "setting_note": record.setting_note,
                                         "ablation": config.ablation,
                                         **({"llm": config.llm, "base_url": config.base_url}
                                            if config.source == "llm" else {}),
                                         "cost_usd": record.cost_usd, "tokens": record.tokens})
                _write_json(config.score_path(run, bug), score.to_dict())
                progress(f"run {run}: {bug.id}: " + ("relocated" if score.relocated else
                                                     "identified" if score.identified else "not found")
                         + f" ({len(score.matching)} matching, {len(score.near_misses)} near misses)")
                scores.append(score)
    if failed:
        raise BenchError("audits failed (their bugs are unscored; `bench run` again retries them):\n  "
                         + "\n  ".join(failed), scores)
    return scores


def contract_focus(setting: str, bug: Bug) -> tuple[str, ...]:
    """What the contract engine is pointed at for a bug: its root-cause segment, or every
    function of the file that holds it."""
    return (bug.root_cause_qualname,) if setting == "unit" else (f"file:{bug.root_cause_file}",)


def _contracts_audit(config: BenchConfig, bug: Bug, run: int, cache_dir: Path,
                     progress: Progress) -> tuple[AuditRecord, list[Finding]]:
    from qusema.audit import AuditConfig, collect_findings, run_audit
    from qusema.store import RunStore

    target = bug.buggy_target
    audit_config = AuditConfig(target=target, examples=config.examples, seed=run - 1,
                               time_budget_s=config.time_budget_min * 60, workers=config.workers,
                               backend=config.backend, item_timeout_s=config.item_timeout_s,
                               focus=contract_focus(config.setting, bug), deepen=config.deepen)
    summary = run_audit(audit_config, config.work_dir / "audits" / config.row, cache_dir,
                        lambda m: progress(f"  [{bug.id}] {m}"))
    with RunStore(summary.run_dir / "run.sqlite") as store:
        (info,) = store.runs()
        findings = collect_findings(store, info.run_id)
        verifications = [payload for _, payload in store.records(info.run_id, "verification")]
    funnel = contract_funnel(verifications, findings,
                             _public_apis(cache_dir, target, audit_config.library, findings))
    record = AuditRecord(
        key=bug.id, target=target, source="contracts", setting=config.setting, run=run,
        run_dir=str(summary.run_dir), run_id=info.run_id, bugs=[bug.id],
        stop_reason=summary.stop_reason, seconds=summary.seconds, funnel=funnel,
        config={**audit_config.identity(), "time_budget_s": audit_config.time_budget_s,
                "deepen": audit_config.deepen, "deeper_checks": summary.deeper_checks,
                "contracts_checked": summary.contracts, "subjects": summary.subjects,
                "items_done": summary.items_done, "items_total": summary.items_total, "examples_run": summary.examples},
        setting_note=CONTRACT_SETTING_NOTES[config.setting])
    return record, findings


def contract_funnel(verifications: list[dict[str, Any]], findings: list[Finding],
                    public_apis: set[str]) -> dict[str, int]:
    """candidates: hypotheses the engine emitted (each one verified); verified defects:
    those reproduced by their standalone test; findings: deduplicated by
    `Finding.dedupe_key` (law, API, root cause, the law's failing assertion); API triggers:
    findings whose reproducer enters through a documented public API; final reports:
    findings qualified as `bug`."""
    return {
        "candidates": len(verifications),
        "verified_defects": sum(1 for v in verifications if v.get("verdict") == Verdict.REPRODUCED.value),
        "findings": len(findings),
        "api_triggers": sum(1 for f in findings if f.hypothesis.api in public_apis),
        "final_reports": sum(1 for f in findings if f.classification == "bug"),
    }


def _public_apis(cache_dir: Path, target: str, library: str, findings: list[Finding]) -> set[str]:
    from qusema.contracts.focus import is_public_api
    from qusema.units.index_db import IndexDB
    from qusema.units.index_location import index_path

    path = index_path(cache_dir, target)
    if not path.is_file() or not findings:
        return set()
    with IndexDB(path) as db:
        return {f.hypothesis.api for f in findings if is_public_api(db, f.hypothesis.api, library)}


def _llm_entry_point() -> LLMEntryPoint:
    try:
        agent = importlib.import_module("qusema.agent")
    except ModuleNotFoundError as missing:
        if missing.name not in ("qusema.agent",):
            raise
        raise BenchError("--source llm needs the LLM auditor (qusema.agent), which is not in this checkout yet. "
                         "The offline row runs without it: qusema bench run --source contracts ...") from None
    entry = getattr(agent, "run_bench_audit", None)
    if entry is None:
        raise BenchError("--source llm needs qusema.agent.run_bench_audit(target, focus, *, seed, out_root, "
                         "cache_dir, time_budget_s, backend, progress) -> SourceOutcome "
                         "(see qusema.bench.runner.LLMEntryPoint); qusema.agent does not define it yet")
    return entry


def _llm_audit(config: BenchConfig, llm: LLMEntryPoint, bug: Bug, run: int, cache_dir: Path,
               progress: Progress) -> tuple[AuditRecord, list[Finding]]:
    assert config.llm is not None  # BenchConfig refuses --source llm without it
    focus = BenchFocus(config.setting, bug.root_cause_qualname, bug.root_cause_file)
    started = time.perf_counter()
    outcome = llm(bug.buggy_target, focus, seed=run - 1, out_root=config.work_dir / "audits" / config.row,
                  cache_dir=cache_dir, time_budget_s=config.time_budget_min * 60, backend=config.backend,
                  progress=lambda m: progress(f"  [{bug.id}] {m}"), llm=config.llm, base_url=config.base_url,
                  ablation=config.ablation)
    note = ("the auditor was given the root-cause contextual unit" if config.setting == "unit" else
            "the auditor was given the root-cause file: each of its functions and methods as a unit, in file order")
    if config.ablation != "none":
        note += f"; ablation {config.ablation}: " + ABLATION_NOTES[config.ablation]
    record = AuditRecord(
        key=bug.id, target=bug.buggy_target, source="llm", setting=config.setting, run=run,
        run_dir=str(outcome.run_dir), run_id=outcome.run_id, bugs=[bug.id], stop_reason=outcome.stop_reason,
        seconds=round(time.perf_counter() - started, 3), funnel=dict(outcome.funnel), cost_usd=outcome.cost_usd,
        tokens=outcome.tokens, config={**outcome.config, "llm": config.llm, "ablation": config.ablation},
        setting_note=note)
    return record, outcome.findings


def _write_json(path: Path, payload: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(payload, indent=1, default=str) + "\n")
    tmp.replace(path)  # a score file exists only whole: its presence marks the (bug, run) done
