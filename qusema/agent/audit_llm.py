"""`qusema audit --llm PROVIDER:MODEL`: the agent over selected units of a release, into the
same run store, findings and reports as the contract engine.

Units are worked in waves of `concurrency` threads. Each unit is a work item: recorded whole
when it finishes (findings included), so a resumed run repeats no finished unit, and a
rerun pays nothing for the model answers it has seen (the response cache). Exchanges,
tool results and sandbox runs are recorded as they happen, by the thread doing them, on its
own connection. A unit that stays rate-limited after every retry goes back in the queue and
the next wave runs with half the threads, after a pause."""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, cast

from qusema.agent.sandbox_log import RecordingSandbox
from qusema.agent.stage2 import UnitContext, run_stage2
from qusema.agent.stage3 import Stage3Result, finding_of, run_stage3
from qusema.agent.unit_selection import select_units
from qusema.llm.limits import LimitedModel, Limits
from qusema.llm.protocol import (
    AuthenticationFailed,
    CostLimitExceeded,
    Message,
    Model,
    ModelTurn,
    RateLimited,
    RunEnded,
    StepLimitExceeded,
    TimeLimitExceeded,
    ToolSpec,
    TransientError,
    UnrecordedRequest,
)
from qusema.llm.recording import RecordingModel
from qusema.llm.templates import Prompts
from qusema.sandbox import Sandbox
from qusema.store import RunStore
from qusema.units.index_db import IndexDB
from qusema.units.indexer import parser_tag

Progress = Callable[[str], None]
ITEM_PREFIX = "agent::"
MAX_REQUEUES = 3
ABLATIONS = ("none", "no-docs", "no-verification")


@dataclass(frozen=True)
class AgentConfig:
    target: str  # name==version
    llm: str  # "openai:gpt-4o", "anthropic:claude-sonnet-4-5"…
    units: str = "top:5"  # see unit_selection
    revisions: int = 2  # Stage II and Stage III: revisions after a mismatch
    max_depth: int = 6  # Stage III reverse-chain depth
    max_chains: int = 4
    token_budget: int = 4000  # of the rendered unit in the Stage II prompt
    unit_cost_usd: float | None = 0.5
    unit_steps: int | None = 40
    run_cost_usd: float | None = 5.0
    run_steps: int | None = None
    max_format_errors: int = 3
    # The benchmark's ablations: "no-docs" renders units without their documentation (Stage
    # II unit and `read_unit`); "no-verification" accepts every claim without running it.
    ablation: str = "none"
    # Which independent run this is (the benchmark's run - 1). The model is not seeded; the
    # seed separates runs — their ids, directories and response caches — so a second run
    # asks afresh instead of resuming the first.
    seed: int | None = None
    # not part of the run's identity:
    base_url: str | None = None
    concurrency: int = 2
    run_seconds: float | None = None
    unit_seconds: float | None = None
    backend: str | None = None
    item_timeout_s: float = 120.0
    cooldown_s: float = 5.0  # pause before a wave that follows a rate-limited one

    def __post_init__(self) -> None:
        if self.ablation not in ABLATIONS:
            raise ValueError(f"unknown ablation {self.ablation!r}; choose one of {', '.join(ABLATIONS)}")

    @property
    def library(self) -> str:
        return self.target.split("==")[0].strip().lower()

    @property
    def version(self) -> str:
        return self.target.split("==")[1].strip()

    def identity(self) -> dict[str, Any]:
        record = asdict(self)
        for volatile in ("base_url", "concurrency", "run_seconds", "unit_seconds", "backend", "item_timeout_s",
                         "cooldown_s"):
            record.pop(volatile)
        # Left out at their defaults, so runs from before these fields keep their ids.
        if record["ablation"] == "none":
            record.pop("ablation")
        if record["seed"] is None:
            record.pop("seed")
        return record

    @classmethod
    def from_identity(cls, record: Mapping[str, Any], **volatile: Any) -> AgentConfig:
        return cls(**{**record, **volatile})


def agent_run_id(config: AgentConfig) -> str:
    return "agent-" + hashlib.sha256(json.dumps(config.identity(), sort_keys=True).encode()).hexdigest()[:10]


class RunBudget:
    """The run-wide caps, shared by every unit's thread (a LimitedModel wraps one model;
    this one counts across many)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.lock = threading.Lock()
        self.steps = 0
        self.cost_usd = 0.0
        self.started = time.monotonic()

    def check(self) -> None:
        with self.lock:
            lim = self.limits
            if lim.steps is not None and self.steps >= lim.steps:
                raise StepLimitExceeded(f"run step limit reached: {self.steps} model calls of {lim.steps} allowed",
                                        scope="run", steps=self.steps, limit=lim.steps)
            if lim.cost_usd is not None and self.cost_usd >= lim.cost_usd:
                raise CostLimitExceeded(f"run cost limit reached: ${self.cost_usd:.6f} of ${lim.cost_usd:.6f} spent",
                                        scope="run", cost_usd=round(self.cost_usd, 6), limit_usd=lim.cost_usd,
                                        steps=self.steps)
            elapsed = time.monotonic() - self.started
            if lim.seconds is not None and elapsed >= lim.seconds:
                raise TimeLimitExceeded(f"run time limit reached: {elapsed:.1f} s of {lim.seconds:.1f} s",
                                        scope="run", seconds=round(elapsed, 3), limit_s=lim.seconds)

    def add(self, turn: ModelTurn) -> None:
        with self.lock:
            self.steps += 1
            self.cost_usd += turn.cost_usd


class _Budgeted:
    def __init__(self, inner: Model, budget: RunBudget) -> None:
        self.inner, self.budget = inner, budget
        self.name, self.settings = inner.name, inner.settings

    def complete(self, messages: Sequence[Message], tools: Sequence[ToolSpec] = ()) -> ModelTurn:
        self.budget.check()
        turn = self.inner.complete(messages, tools)
        self.budget.add(turn)
        return turn


def _ends_run(exc: RunEnded) -> bool:
    return exc.details.get("scope") == "run" or isinstance(exc, (AuthenticationFailed, UnrecordedRequest))


@dataclass
class _UnitOutcome:
    unit: str
    result: dict[str, Any] = field(default_factory=dict)
    records: list[tuple[str, str, dict[str, Any]]] = field(default_factory=list)
    cost_usd: float = 0.0
    seconds: float = 0.0
    requeue: RunEnded | None = None  # rate limited or transient after every retry: try again later
    stop_run: RunEnded | None = None


@dataclass
class AgentPassSummary:
    units: list[str] = field(default_factory=list)
    done: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)
    stop_reason: str = "complete"


class AgentPass:
    """The agent's part of an audit, given the run's store, index, environment and
    sandboxes. `run_audit` can call it after the contract engine (see docs/agent.md), and
    `run_llm_audit` runs it alone."""

    def __init__(self, config: AgentConfig, model: Model, prompts: Prompts | None = None) -> None:
        self.config = config
        self.model = model
        self.prompts = prompts or Prompts()
        self.budget = RunBudget(Limits(config.run_cost_usd, config.run_steps, config.run_seconds))

    def identity(self) -> dict[str, Any]:
        return self.config.identity()

    def run(self, store: RunStore, run_id: str, environment: list[str], db: IndexDB, boxes: Sequence[Sandbox],
            progress: Progress) -> str:
        """Work every selected unit not yet done; returns "complete" or the stop reason."""
        summary = AgentPassSummary(units=self._units(store, run_id, db, progress))
        done = store.done_items(run_id)
        queue = [u for u in summary.units if ITEM_PREFIX + u not in done]
        progress(f"agent: {len(summary.units)} units, {len(summary.units) - len(queue)} already done")
        width = max(1, min(self.config.concurrency, len(boxes)))
        requeues: dict[str, int] = {}
        with ThreadPoolExecutor(max_workers=width) as pool:
            while queue:
                wave, queue = queue[:width], queue[width:]
                futures = [pool.submit(self._unit, store.path, run_id, environment, db.path, box, unit)
                           for unit, box in zip(wave, boxes, strict=False)]
                outcomes = [f.result() for f in futures]
                # Recorded here, in unit order, by the thread that owns `store`: a replay writes
                # the same records in the same order whatever the threads did.
                retry: list[str] = []
                for outcome in outcomes:
                    if outcome.requeue is not None:
                        requeues[outcome.unit] = requeues.get(outcome.unit, 0) + 1
                        if requeues[outcome.unit] > MAX_REQUEUES:
                            return _stop(store, run_id, outcome.requeue, progress)
                        retry.append(outcome.unit)
                        continue
                    if outcome.stop_run is None:
                        store.finish_item(run_id, ITEM_PREFIX + outcome.unit, outcome.result, outcome.seconds,
                                          outcome.cost_usd, records=outcome.records)
                        progress(f"agent: {outcome.unit}: {outcome.result.get('outcome')}")
                stops = [o.stop_run for o in outcomes if o.stop_run is not None]
                if stops:
                    return _stop(store, run_id, stops[0], progress)
                if retry:
                    width = max(1, width // 2)
                    waits = [o.requeue.details.get("retry_after_s") or 0 for o in outcomes if o.requeue is not None]
                    pause = max([self.config.cooldown_s, *[w for w in waits if isinstance(w, (int, float))]])
                    progress(f"agent: rate limited; next wave with {width} thread(s) after {pause:.0f} s")
                    time.sleep(pause)
                    queue = retry + queue
        return "complete"

    def _units(self, store: RunStore, run_id: str, db: IndexDB, progress: Progress) -> list[str]:
        """Selected once and recorded, so a resumed run works on the same list."""
        recorded = store.records(run_id, "agent_units")
        if recorded:
            return list(recorded[-1][1]["units"])
        units = select_units(db, self.config.units)
        store.record(run_id, "agent_units", self.config.units, {"units": units})
        return units

    def _unit(self, store_path: Path, run_id: str, environment: list[str], index_file: Path, box: Sandbox,
              unit: str) -> _UnitOutcome:
        started = time.perf_counter()
        outcome = _UnitOutcome(unit)
        with RunStore(store_path) as ustore, IndexDB(index_file, parser_tag()) as udb:
            def record(kind: str, key: str, payload: dict[str, Any]) -> None:
                ustore.record(run_id, kind, key, payload)

            limited = LimitedModel(RecordingModel(self.model, ustore, run_id),
                                   Limits(self.config.unit_cost_usd, self.config.unit_steps,
                                          self.config.unit_seconds))
            ctx = UnitContext(self.config.library, self.config.version, udb,
                              RecordingSandbox(box, lambda key, payload: record("sandbox", key, payload)),
                              _Budgeted(limited, self.budget),  # the run's caps are checked first
                              self.prompts, record, self.config.revisions, self.config.token_budget,
                              self.config.max_format_errors, docs=self.config.ablation != "no-docs",
                              verify=self.config.ablation != "no-verification")
            try:
                self._stages(ctx, unit, environment, outcome)
            except RunEnded as exc:
                record("unit_stop", unit, {"stage": outcome.result.get("stage", 2), **exc.to_dict()})
                if _ends_run(exc):
                    outcome.stop_run = exc
                    outcome.result = {}
                elif isinstance(exc, (RateLimited, TransientError)):
                    outcome.requeue = exc
                else:
                    outcome.result = {"outcome": f"stopped: {exc.reason}", "stop_reason": exc.reason,
                                      "message": exc.message}
            outcome.cost_usd = round(limited.cost_usd, 8)
            outcome.result["cost_usd"] = outcome.cost_usd
            outcome.result["model_calls"] = limited.steps
        outcome.seconds = time.perf_counter() - started
        return outcome

    def _stages(self, ctx: UnitContext, unit: str, environment: list[str], outcome: _UnitOutcome) -> None:
        outcome.result = {"stage": 2}
        s2 = run_stage2(ctx, unit)
        if s2.defect is None:
            for attempt in s2.attempts:
                verdict = attempt.evidence.verification.verdict
                outcome.records.append(("agent_verdict", attempt.hypothesis.id, {
                    "unit": unit, "stage": 2, "classification": "not bug",
                    "reason": f"the claimed defect was not reproduced: {verdict.value} — "
                              f"{attempt.evidence.verification.message[:300]}",
                    "hypothesis": attempt.hypothesis.to_dict(), **attempt.evidence.to_dict()}))
            outcome.result = {"outcome": "no defect claimed" if not s2.attempts else
                              f"not reproduced ({s2.attempts[-1].evidence.verification.verdict.value})",
                              "claims": len(s2.attempts), "no_defect_reason": s2.no_defect_reason}
            return
        outcome.result = {"stage": 3}
        try:
            s3 = run_stage3(ctx, s2.defect, self.config.max_depth, self.config.max_chains)
        except RunEnded as exc:
            if _ends_run(exc) or isinstance(exc, (RateLimited, TransientError)):
                raise
            # The defect is verified; only its trigger is missing. Keep it, and say why.
            ctx.record("unit_stop", unit, {"stage": 3, **exc.to_dict()})
            s3 = Stage3Result("potential bug", f"Stage III ended early ({exc.reason}): {exc.message}",
                              s2.defect.hypothesis, s2.defect.evidence)
        finding = finding_of(ctx, s3, environment)
        verdict_record = {"unit": unit, "stage": 3, "classification": s3.classification, "reason": s3.reason,
                          "finding": finding.id, "hypothesis": s3.hypothesis.to_dict(), **s3.evidence.to_dict()}
        outcome.records.append(("agent_verdict", s3.hypothesis.id, verdict_record))
        if s3.classification != "not bug":
            outcome.records.append(("finding", finding.id, finding.to_dict()))
        outcome.result = {"outcome": s3.classification, "finding": finding.id, "api": s3.hypothesis.api,
                          "verified_at": "api" if s3.hypothesis.details.get("stage") == 3 else "unit"}


def _stop(store: RunStore, run_id: str, exc: RunEnded, progress: Progress) -> str:
    store.record(run_id, "stop", exc.reason, exc.to_dict())
    progress(f"agent: run stopped ({exc.reason}): {exc.message}")
    return exc.reason


@dataclass
class LLMAuditSummary:
    run_dir: Path
    run_id: str
    units: int = 0
    done: int = 0
    findings: int = 0
    cost_usd: float = 0.0
    paid_usd: float = 0.0
    stop_reason: str = "complete"
    outcomes: dict[str, int] = field(default_factory=dict)


def run_llm_audit(config: AgentConfig, out_root: Path, cache_dir: Path, progress: Progress, *,
                  model: Model | None = None, envs: Any = None) -> LLMAuditSummary:
    """The agent alone on a release: OUT/<library>-<version>/<run id>/ with run.sqlite,
    findings.json, findings.sarif and drafts/, as `qusema audit` writes them."""
    from qusema.audit import AUDIT_TOOLS, _ensure_index, collect_findings, write_reports
    from qusema.llm.selection import model_from_spec
    from qusema.sandbox import Limits as SandboxLimits
    from qusema.sandbox import open_sandbox
    from qusema.targets.environments import EnvironmentStore

    run_id = agent_run_id(config)
    run_dir = out_root / f"{config.library}-{config.version}" / run_id
    with RunStore(run_dir / "run.sqlite") as store:
        store.start_run(run_id, "audit", config.target, {"agent": config.identity()})
        progress(f"run {run_id} in {run_dir}")
        env = (envs or EnvironmentStore()).create(config.target, tools=AUDIT_TOOLS)
        if not store.records(run_id, "environment"):
            store.record(run_id, "environment", env.key, {"packages": env.packages, "python": env.python_version})
        db = _ensure_index(config.target, cache_dir, progress)
        agent = AgentPass(config, model or model_from_spec(config.llm, config.base_url))
        with ExitStack() as stack:
            boxes: list[Sandbox] = []
            for _ in range(max(1, config.concurrency)):
                box = open_sandbox(env, config.backend, limits=SandboxLimits(timeout_s=config.item_timeout_s))
                boxes.append(cast(Sandbox, stack.enter_context(box)))
            stop = agent.run(store, run_id, env.packages, db, boxes, progress)
        db.close()
        findings = collect_findings(store, run_id)
        write_reports(run_dir, findings, env.python_version)
        store.finish_run(run_id, "finished" if stop == "complete" else "stopped", stop)
        return summarize(store, run_id, run_dir, len(findings))


def summarize(store: RunStore, run_id: str, run_dir: Path, findings: int) -> LLMAuditSummary:
    run = store.run(run_id)
    summary = LLMAuditSummary(run_dir=run_dir, run_id=run_id, findings=findings,
                              stop_reason=(run.stop_reason if run and run.stop_reason else "complete"))
    units = store.records(run_id, "agent_units")
    summary.units = len(units[-1][1]["units"]) if units else 0
    for item, result in store.item_results(run_id):
        if item.startswith(ITEM_PREFIX):
            summary.done += 1
            summary.outcomes[result["outcome"]] = summary.outcomes.get(result["outcome"], 0) + 1
    for _, exchange in store.records(run_id, "exchange"):
        summary.cost_usd += exchange.get("cost_usd", 0.0)
        summary.paid_usd += exchange.get("paid_usd", 0.0)
    return summary
