"""`qusema audit`: the offline contract engine end to end — environment, Stage I index,
contract checks in warm sandboxes, verification of every violation, root cause, Stage III
qualification, findings and reports. Every finished work item is recorded with all it
produced in one transaction, so `--resume` repeats nothing and loses nothing."""

from __future__ import annotations

import fnmatch
import hashlib
import json
import shutil
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import ExitStack, suppress
from dataclasses import asdict, dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any

from typing import TYPE_CHECKING

from qusema.contracts.bandit import DEEPEN_FACTOR, CheckBandit, parse_key
from qusema.contracts.focus import PACKAGE_ALIASES, Focus, api_names, build_focus, entry_segments, is_public_api
from qusema.contracts.engine import (DEEPER, ContractEngine, ContractInfo, SandboxCallFailed, WorkItem,
                                     catalog_fingerprint, contract_modules)
from qusema.contracts.regression import REGRESSION_LAW, NoReference, regression_items, regression_law
from qusema.contracts.subject_cache import SubjectCache
from qusema.defects import Finding, Hypothesis, RootCause, Verdict, Verification
from qusema.sandbox import Limits, open_sandbox
from qusema.store import RunStore
from qusema.targets import resolve_source
from qusema.targets.environments import EnvironmentStore, TargetEnvironment, checkout_commit
from qusema.targets.source import inspect_checkout
from qusema.trigger.classify import DEPRECATION_PROBE, qualify
from qusema.units.call_graph import reachable
from qusema.units.index_db import IndexDB
from qusema.units.index_location import index_path
from qusema.units.indexer import build_index, parser_tag
from qusema.units.layout import detect_scope
from qusema.verify.localize import coverage_runs, lent_note, localize, under_entry
from qusema.verify.verifier import verify

if TYPE_CHECKING:  # the agent imports this module; at run time the pass is only passed in
    from qusema.agent.audit_llm import AgentPass

Progress = Callable[[str], None]
AUDIT_TOOLS = ("hypothesis>=6.100",)


PANIC_LAW = "documented input never makes the library panic (a Rust panic is an internal error, never a documented one)"
PANIC_SOURCE = ("robustness: PyO3 turns a Rust panic into PanicException, which no API documents as an error; "
                "the input came from a law whose inputs are valid for the API")


class AuditError(Exception):
    """The audit cannot run as asked (e.g. a --focus that names no unit)."""


class NoLawMatches(AuditError):
    """--contracts names no law of the release's catalog."""

    def __init__(self, patterns: tuple[str, ...], target: str, law_ids: list[str],
                 unavailable: dict[str, str]) -> None:
        prefixes: dict[str, int] = {}
        for law_id in law_ids:
            prefix = ".".join(law_id.split(".")[:2]) + ".*"
            prefixes[prefix] = prefixes.get(prefix, 0) + 1
        listing = ", ".join(f"{p} ({n})" for p, n in sorted(prefixes.items()))
        message = (f"no law of {target} matches --contracts {','.join(patterns)}; "
                   f"its {len(law_ids)} laws: {listing}")
        if unavailable:  # their laws are not in the catalog at all: say why
            message += "; families that do not load on this release: " + "; ".join(
                f"{family} ({reason})" for family, reason in sorted(unavailable.items()))
        super().__init__(message)


@dataclass(frozen=True)
class AuditConfig:
    target: str  # name==version
    examples: int = 25  # hypothesis examples per (contract, subject)
    seed: int = 0
    contracts: tuple[str, ...] = ("*",)  # glob patterns over contract ids
    time_budget_s: float = 1800.0
    workers: int = 2
    item_timeout_s: float = 120.0
    backend: str | None = None
    diff_against: tuple[str, ...] = ()  # other releases to re-run every reproducer on
    # Units (names or file:PATH, as --units takes them): only checks whose entry API
    # reaches one of them run (qusema.contracts.focus). Empty: the whole release.
    focus: tuple[str, ...] = ()
    # How many times a check that held may be re-checked with DEEPEN_FACTOR times the examples,
    # in the order a bandit over checks chooses, while the time budget lasts: rare inputs (a
    # signed basis vector among all isometries) need more draws than a first pass over every
    # law can afford.
    deepen: int = 3
    # A release of the same library whose answers to the same documented examples the audited
    # release's are compared with (the regression oracle, qusema.contracts.regression).
    reference: str | None = None

    @property
    def is_checkout(self) -> bool:
        return "==" not in self.target

    # Cached: for a checkout these read its metadata and run git, and the audit asks for
    # them once per check.
    @cached_property
    def library(self) -> str:
        if self.is_checkout:
            return inspect_checkout(Path(self.target)).name
        return self.target.split("==")[0].strip().lower()

    @cached_property
    def commit(self) -> str | None:
        return checkout_commit(Path(self.target)) if self.is_checkout else None

    @cached_property
    def version(self) -> str:
        if self.commit is not None:
            return f"checkout-{self.commit[:12]}"
        return self.target.split("==")[1].strip()

    def identity(self) -> dict[str, Any]:
        """What makes two runs the same run (the time budget may change on resume)."""
        record = asdict(self)
        if self.commit is not None:
            record["commit"] = self.commit  # the path alone names no code
        record.pop("time_budget_s")
        record.pop("workers")
        record.pop("backend")
        record.pop("diff_against")
        record.pop("deepen")  # deeper rounds only add checks, in the time the budget leaves
        if not self.focus:
            record.pop("focus")  # runs made before focus existed keep their ids
        if self.reference is None:
            record.pop("reference")  # likewise for runs with no regression oracle
        record["laws"] = catalog_fingerprint(self.library)
        return record


@dataclass
class AuditSummary:
    run_dir: Path
    contracts: int = 0
    subjects: int = 0
    items_total: int = 0
    items_done: int = 0
    examples: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)
    findings: int = 0
    drafts: int = 0  # issue drafts: one per law broken through one API
    stop_reason: str = "complete"
    deeper_checks: int = 0  # re-checks with more examples, in the time the budget left
    seconds: float = 0.0
    # Units covered, statically: the functions and methods the checks done enter the library
    # through, and all those reachable from them over resolved calls (PyO3 links included).
    entry_units: int = 0
    units_reached: int = 0
    units_total: int = 0
    # Public entries exercised: the functions and methods of the public API map (a class counts
    # through its constructor) that a check ran at least one input through.
    public_entries_exercised: int = 0
    public_entries_total: int = 0
    findings_by_class: dict[str, int] = field(default_factory=dict)

    @property
    def examples_per_second(self) -> float:
        return round(self.examples / self.seconds, 1) if self.seconds else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "run_dir": str(self.run_dir), "examples_per_second": self.examples_per_second}


def run_identity(config: AuditConfig, agent: AgentPass | None = None) -> dict[str, Any]:
    return config.identity() | ({"agent": agent.identity()} if agent else {})


def run_id_for(config: AuditConfig, agent: AgentPass | None = None) -> str:
    return hashlib.sha256(json.dumps(run_identity(config, agent), sort_keys=True).encode()).hexdigest()[:10]


def run_audit(config: AuditConfig, out_root: Path, cache_dir: Path, progress: Progress,
              envs: EnvironmentStore | None = None, agent: AgentPass | None = None) -> AuditSummary:
    """The contract engine over the release, then (with `agent`) the LLM agent over the
    selected units; both write the same findings to the same run store."""
    started = time.perf_counter()
    run_id = run_id_for(config, agent)
    run_dir = out_root / f"{config.library}-{config.version}" / run_id
    summary = AuditSummary(run_dir=run_dir)
    # The environment first: a release that does not resolve leaves no run behind (a second
    # try would otherwise be told to --resume a run that never started).
    env = _environment(config, envs or EnvironmentStore(), progress)
    store_path = run_dir / "run.sqlite"
    fresh = not store_path.exists()
    try:
        return _audit_in(config, run_id, run_dir, summary, env, cache_dir, progress, envs, agent, started)
    except BaseException as exc:
        if fresh and store_path.exists() and _nothing_checked(store_path, run_id):
            # Asked wrongly (--contracts, --focus) or stopped before the first check: a new run
            # with nothing in it would only stand in the way of the next command (--resume).
            shutil.rmtree(run_dir, ignore_errors=True)
            with suppress(OSError):
                run_dir.parent.rmdir()  # the release's directory, when this was its only run
        elif isinstance(exc, AuditError) and store_path.exists():
            # A resumed run refused its settings: stopped, not left 'running'.
            with RunStore(store_path) as store:
                store.finish_run(run_id, "stopped", str(exc))
        raise


def _nothing_checked(store_path: Path, run_id: str) -> bool:
    with RunStore(store_path) as store:
        return not store.done_items(run_id)


def _audit_in(config: AuditConfig, run_id: str, run_dir: Path, summary: AuditSummary, env: TargetEnvironment,
              cache_dir: Path, progress: Progress, envs: EnvironmentStore | None, agent: AgentPass | None,
              started: float) -> AuditSummary:
    with RunStore(run_dir / "run.sqlite") as store:
        store.start_run(run_id, "audit", config.target, run_identity(config, agent))
        progress(f"run {run_id} in {run_dir}")
        progress(f"environment {env.key}: {len(env.packages)} packages")
        db = _ensure_index(config.target, cache_dir, progress)
        store.record(run_id, "environment", env.key, {"packages": env.packages, "python": env.python_version})
        limits = Limits(timeout_s=config.item_timeout_s)
        with ExitStack() as stack:
            preload = contract_modules(config.library)
            boxes = [stack.enter_context(open_sandbox(env, config.backend, limits=limits, also_preload=preload))
                     for _ in range(config.workers)]
            engine = ContractEngine(boxes[0], config.library, limits)
            catalog = engine.catalog()
            contracts = [c for c in catalog if any(fnmatch.fnmatch(c.id, p) for p in config.contracts)]
            if not contracts and agent is None:  # with --llm, the agent alone may be asked for
                raise NoLawMatches(config.contracts, config.target, [c.id for c in catalog],
                                   engine.unavailable_families())
            focus = _focus(store, run_id, config, db, progress) if config.focus else None
            items = _work_items(store, run_id, engine, contracts, progress, focus,
                                SubjectCache.for_environment(env, config.library))
            if config.reference is not None:
                items = _regression_items(store, run_id, config, env, contracts, envs or EnvironmentStore(),
                                          progress) + items
            summary.contracts, summary.subjects = len(contracts), len({i.subject for i in items})
            summary.items_total = len(items)
            context = _AuditContext(config, env, db, {c.id: c for c in contracts}, run_id,
                                    frozenset(focus.units) if focus else frozenset())
            engines = [ContractEngine(b, config.library, limits) for b in boxes]
            stop = _check_all(store, context, engines, items, started, progress)
            if agent is not None and stop == "complete":
                stop = agent.run(store, run_id, env.packages, db, boxes, progress)
            if stop == "complete" and config.deepen:
                _deepen(store, context, engines, started, progress)
            summary.stop_reason = stop
        for other in config.diff_against:
            diff_against(store, run_id, collect_findings(store, run_id), other, config.backend, progress,
                         envs or EnvironmentStore())
        findings = collect_findings(store, run_id)
        drafts = write_reports(run_dir, findings, env.python_version)
        store.finish_run(run_id, "finished" if stop == "complete" else "stopped", stop)
        _summarize(store, run_id, summary)
        _count_units(store, run_id, config.library, db, summary)
        db.close()
    summary.findings = len(findings)
    summary.findings_by_class = dict(Counter(f.finding_class for f in findings))
    summary.drafts = drafts
    summary.seconds = round(time.perf_counter() - started, 1)
    (run_dir / "summary.json").write_text(json.dumps(summary.to_dict(), indent=1) + "\n")
    return summary


def _count_units(store: RunStore, run_id: str, library: str, db: IndexDB, summary: AuditSummary) -> None:
    results = [result for _, result in store.item_results(run_id)]
    apis = {result.get("api") for result in results} - {None}
    # the library calls a check made on its inputs besides its API (a documented example's own
    # lines): each was judged by the check's oracle as much as the API was
    apis |= {name for result in results for name in result.get("entered") or ()}
    entries = sorted({q for api in apis for q in entry_segments(db, api, library)})
    reached = reachable(db, entries)
    callable_units = {q for (q,) in db.conn.execute("SELECT qualname FROM segments WHERE kind IN ('function', 'method')")}
    summary.entry_units = len(callable_units.intersection(entries))
    summary.units_reached = len(callable_units.intersection(reached))
    summary.units_total = len(callable_units)
    # exercised: a check judged at least one input through the entry (held or was violated).
    # A check that "raised" is left out even when it counts an example: that example is the
    # attempt that found no way to build its input, or that every input was set aside.
    judged = [result for result in results
              if result.get("outcome") in ("holds", "violated") and int(result.get("examples") or 0) > 0]
    exercised_apis = ({result.get("api") for result in judged} - {None}) | \
        {name for result in judged for name in result.get("entered") or ()}
    exercised = {q for api in exercised_apis for q in entry_segments(db, api, library)}
    public = {q for (q,) in db.conn.execute("SELECT DISTINCT p.qualname FROM public_api p JOIN segments s "
                                           "ON s.qualname = p.qualname WHERE s.kind IN ('function', 'method')")}
    summary.public_entries_exercised = len(public & exercised)
    summary.public_entries_total = len(public)


def _environment(config: AuditConfig, envs: EnvironmentStore, progress: Progress) -> TargetEnvironment:
    if not config.is_checkout:
        return envs.create(config.target, tools=AUDIT_TOOLS)
    progress(f"building {config.target} at {config.version} (cached by commit)")
    return envs.from_checkout(Path(config.target), import_name=config.library.replace("-", "_"), tools=AUDIT_TOOLS)


def _ensure_index(target: str, cache_dir: Path, progress: Progress) -> IndexDB:
    tree = resolve_source(target, cache_dir)
    db = IndexDB(index_path(cache_dir, target), parser_tag())
    run = build_index(tree.root, db, detect_scope(tree.root))
    progress(f"index: {run.segments or 'up to date'}" if not run.up_to_date else "index up to date")
    return db


def _focus(store: RunStore, run_id: str, config: AuditConfig, db: IndexDB, progress: Progress) -> Focus:
    from qusema.agent.unit_selection import UnitSelectionError, select_units  # the agent imports this module

    try:
        units = select_units(db, ",".join(config.focus))
    except UnitSelectionError as exc:
        raise AuditError(f"--focus: {exc}") from exc
    focus = build_focus(db, units, config.library)
    store.record(run_id, "focus", "focus", focus.to_dict())
    progress(f"focus: {len(units)} units, reached from {len(focus.reached)} segments "
             f"({len(focus.public_names)} public names)")
    return focus


def _regression_items(store: RunStore, run_id: str, config: AuditConfig, env: TargetEnvironment,
                      contracts: list[ContractInfo], envs: EnvironmentStore, progress: Progress) -> list[WorkItem]:
    """The regression oracle's checks, first (few, and each one an answer that changed):
    observed once per run and recorded, so a resumed run works on the same list."""
    law = regression_law(config.library)
    if law not in {c.id for c in contracts}:
        progress(f"--reference: {law} is not among the laws --contracts selects; no regression checks")
        return []
    recorded = store.records(run_id, "regression")
    if recorded:
        return [WorkItem(law, subject) for subject in recorded[-1][1]["subjects"]]
    try:
        items = regression_items(config.library, env, config.reference, config.backend, envs, AUDIT_TOOLS, progress)
    except NoReference as exc:
        raise AuditError(str(exc)) from exc
    store.record(run_id, "regression", config.reference, {"subjects": [i.subject for i in items]})
    return items


def interleave_laws(items: list[WorkItem]) -> list[WorkItem]:
    """Every law's first subject, then every law's second, and so on (laws in catalog order,
    each law's subjects in its own order). A budget that ends before the last check has then
    checked every law on some subjects, instead of the first laws of the catalog on all of
    theirs and the last laws on none: one law with hundreds of subjects (documentation
    examples, every operator class) no longer decides which laws an audit runs at all."""
    by_law: dict[str, list[WorkItem]] = {}
    for item in items:
        by_law.setdefault(item.contract, []).append(item)
    rounds = max((len(group) for group in by_law.values()), default=0)
    return [group[i] for i in range(rounds) for group in by_law.values() if i < len(group)]


def _work_items(store: RunStore, run_id: str, engine: ContractEngine, contracts: list[ContractInfo],
                progress: Progress, focus: Focus | None = None, cache: SubjectCache | None = None) -> list[WorkItem]:
    """Subjects are asked once per run and recorded, so a resumed run works on the same list;
    with a `cache`, once per release and law code (see `SubjectCache`)."""
    recorded = {key: payload for key, payload in store.records(run_id, "subjects")}
    items: list[WorkItem] = []
    distance: dict[WorkItem, int] = {}
    if not recorded:
        for family, reason in engine.unavailable_families().items():
            progress(f"family {family} does not load on this release: {reason}")
            store.record(run_id, "unavailable", family, {"reason": reason})
    kept = 0
    for contract in contracts:
        if contract.id not in recorded:
            found = cache.get(contract.id) if cache is not None else None
            if found is None:
                found = engine.subjects(contract.id)
                if cache is not None:
                    cache.put(contract.id, found)
            else:
                kept += 1
            if found.reason and not contract.id.endswith(REGRESSION_LAW):  # its checks come from --reference
                progress(f"{contract.id} does not apply to this release: {found.reason}")
            recorded[contract.id] = {"subjects": found.names, "apis": found.apis, "reason": found.reason}
            store.record(run_id, "subjects", contract.id, recorded[contract.id])
        apis = recorded[contract.id].get("apis", {})
        for subject in recorded[contract.id]["subjects"]:
            item = WorkItem(contract.id, subject)
            if focus is not None:
                calls = focus.distance(apis.get(subject))
                if calls is None:
                    continue
                distance[item] = calls
            items.append(item)
    if kept:
        progress(f"subjects of {kept} laws as listed by an earlier audit of this release with the same law code")
    items = interleave_laws(items)
    if focus is not None:
        # Closest first: a budget that ends early has then run the checks whose entry API
        # reaches a focus unit in the fewest calls (laws interleaved among equals).
        items.sort(key=distance.__getitem__)
        total = sum(len(r["subjects"]) for r in recorded.values())
        progress(f"focus keeps {len(items)} of {total} checks (those whose entry API reaches a focus unit), "
                 "closest first")
    progress(f"{len(contracts)} contracts, {len(items)} (contract, subject) checks")
    return items


@dataclass(frozen=True)
class _AuditContext:
    config: AuditConfig
    env: TargetEnvironment
    db: IndexDB
    contracts: dict[str, ContractInfo]
    run_id: str
    # The units a focused audit was asked to look at (localization prefers them among ties).
    focus_units: frozenset[str] = frozenset()


def _check_all(store: RunStore, ctx: _AuditContext, engines: list[ContractEngine], items: list[WorkItem],
               started: float, progress: Progress, bandit: CheckBandit | None = None) -> str:
    """Run `items` (those not done yet), then, with a `bandit`, the re-checks it chooses one at
    a time as sandboxes come free, each choice made with every result in so far; until all
    is done or the time budget is spent."""
    done = store.done_items(ctx.run_id) & {i.key for i in items}
    pending = [i for i in items if i.key not in done]
    if items:
        progress(f"{len(done)} checks already done, {len(pending)} to go")
    free = list(engines)
    running: dict[Future, tuple[WorkItem, ContractEngine, float]] = {}
    finished = len(done)
    stop = "complete"

    def next_item() -> WorkItem | None:
        if pending:
            return pending.pop(0)
        return bandit.pop() if bandit is not None else None

    def total() -> int:  # the bandit counts its running re-checks among those it has left
        return finished + len(pending) + (bandit.remaining() if bandit is not None else len(running))

    # One thread per sandbox; only this thread touches the store (SQLite connections are
    # not shared across threads), and each item is recorded whole.
    with ThreadPoolExecutor(max_workers=len(engines)) as pool:
        while True:
            while free and stop == "complete":
                if time.perf_counter() - started > ctx.config.time_budget_s:
                    stop = f"time budget of {ctx.config.time_budget_s:.0f} s reached"
                    break
                item = next_item()
                if item is None:
                    break
                engine = free.pop()
                # A deeper re-check only adds to a complete audit: it gets the time the budget
                # leaves, not the sandbox timeout (a first check runs all its examples).
                limit = (None if item.examples is None else
                         max(MIN_DEEPER_CHECK_S, ctx.config.time_budget_s - (time.perf_counter() - started)))
                running[pool.submit(_process_item, ctx, engine, item, limit)] = (item, engine, time.perf_counter())
            if not running:
                break
            completed, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in completed:
                item, engine, began = running.pop(future)
                free.append(engine)
                outcome = future.result()
                result, records = outcome.result, _records_for(ctx, outcome)
                store.finish_item(ctx.run_id, item.key, result, time.perf_counter() - began, records=records)
                if bandit is not None:
                    bandit.record(item.key, result)
                finished += 1
                of = total()
                _step(progress, finished, of,
                      f"[{finished}/{of}] {item.contract} {item.subject}: {result['outcome']}"
                      f" ({result.get('examples', 0)} examples, {result.get('seconds', 0)} s)",
                      any(kind == "finding" for kind, _, _ in records))
    return stop


def _step(progress: Progress, done: int, total: int, line: str, found: bool) -> None:
    """One check done: to a display that draws checks (qusema.progress_display), as a step;
    to a plain message callback, as its line."""
    step = getattr(progress, "step", None)
    if step is None:
        progress(line + (" -> FINDING" if found else ""))
    else:
        step(done, total, line, found)


# A deeper re-check started just before the budget ends still gets this long.
MIN_DEEPER_CHECK_S = 10.0


def _deepen(store: RunStore, ctx: _AuditContext, engines: list[ContractEngine], started: float,
            progress: Progress) -> None:
    """Every check done, time left: re-check the checks that held, with DEEPEN_FACTOR times
    the examples of their last check and fresh random inputs (`WorkItem.seed`), in the order
    a bandit over checks chooses (qusema.contracts.bandit: expected violations per second),
    up to --deepen times each, while the budget lasts. A budget that runs out here leaves the
    audit complete: these checks only add."""
    laws = set(ctx.contracts)
    bandit = CheckBandit.from_results(ctx.config.examples, ctx.config.deepen,
                                      ((key, result) for key, result in store.item_results(ctx.run_id)
                                       if parse_key(key)[0] in laws))
    if not bandit.remaining():
        return
    progress(f"time left: checks that held are re-checked with {DEEPEN_FACTOR}x the examples, up to "
             f"{ctx.config.deepen} times each ({bandit.remaining()} re-checks at most), those expected to find "
             "the most per second first")
    _check_all(store, ctx, engines, [], started, progress, bandit)


@dataclass
class _Violation:
    """One verified-or-not violation of an item, with what localization and qualification
    need (computed in a worker thread)."""

    hypothesis: Hypothesis
    verification: Verification
    coverage: list = field(default_factory=list)
    deprecations: list[str] = field(default_factory=list)


@dataclass
class _ItemOutcome:
    """What the sandbox side of one item produced: the check's result and each distinct
    violation it found (a law broken in more than one way gives more than one)."""

    result: dict
    violations: list[_Violation] = field(default_factory=list)


def _process_item(ctx: _AuditContext, engine: ContractEngine, item: WorkItem,
                  time_limit_s: float | None = None) -> _ItemOutcome:
    """Check one (contract, subject); a violation is verified and its coverage traced here,
    in the sandbox, so it is recorded together with the check that found it."""
    result = engine.check(item, item.examples or ctx.config.examples, item.seed(ctx.config.seed),
                          time_limit_s=time_limit_s)
    if result["outcome"] != "violated" and not result.get("panic"):
        return _ItemOutcome(result)
    contract = ctx.contracts[item.contract]
    outcome = _ItemOutcome(result)
    for found in [result, *result.get("other_violations", [])]:
        # A panic on a law's input breaks the robustness law, whatever the law was checking.
        law_id, law, source = ((f"{ctx.config.library}.robust.no-panic", PANIC_LAW, PANIC_SOURCE)
                               if found.get("panic") else (contract.id, contract.law, contract.source))
        hypothesis = Hypothesis(
            library=ctx.config.library, version=ctx.config.version, unit=result["api"], api=result["api"],
            law_id=law_id, violated_constraint=law, constraint_source=source,
            triggering_input=found["example"], predicted_behaviour=found["message"],
            test_code=found["reproducer"], origin="contract",
            details={"subject": item.subject, "validity": result["validity"], "found_by": contract.id,
                     "finding_class": "crash" if found.get("panic") else contract.kind,
                     **({"assertion": found["assertion"]} if found.get("assertion") else {})},
        )
        violation = _Violation(hypothesis, verify(engine.sandbox, hypothesis))
        outcome.violations.append(violation)
        if violation.verification.verdict != Verdict.REPRODUCED:
            continue
        try:
            violation.coverage = coverage_runs(lambda code: engine.trace(code, ctx.env.import_name),
                                               found["reproducer"], found.get("passing_reproducers", []),
                                               found.get("failing_variants", []),
                                               [(lent["subject"], lent["reproducer"])
                                                for lent in found.get("lent_passing", [])])
        except SandboxCallFailed as failed:  # no localization for this one; the finding stands
            found["localization_error"] = str(failed)
        probe = engine.sandbox.run(DEPRECATION_PROBE.format(code=hypothesis.test_code, package=ctx.env.import_name))
        violation.deprecations = list(probe.reports.get("deprecations", []))
    return outcome


def _records_for(ctx: _AuditContext, outcome: _ItemOutcome) -> list[tuple[str, str, dict]]:
    """Root cause and qualification need the index: done here, in the thread that owns it."""
    records: list[tuple[str, str, dict]] = []
    for violation in outcome.violations:
        records.append(("verification", violation.hypothesis.id, violation.verification.to_dict()))
        if violation.verification.verdict != Verdict.REPRODUCED:
            continue
        hypothesis = violation.hypothesis
        entry = entry_segments(ctx.db, hypothesis.api, ctx.config.library)
        root_cause = _root_cause(ctx, violation.coverage, hypothesis.api, entry)
        public = is_public_api(ctx.db, hypothesis.api, ctx.config.library)
        qualification = qualify(public, outcome.result["validity"], violation.deprecations)
        if root_cause is not None:
            hypothesis = Hypothesis(**{**asdict(hypothesis), "unit": root_cause.segment})
        finding = Finding(hypothesis, violation.verification, qualification.classification, qualification.reason,
                          root_cause, ctx.env.packages)
        records.append(("finding", finding.id, finding.to_dict()))
    return records


def _root_cause(ctx: _AuditContext, coverage: list, api: str, entry: list[str]) -> RootCause | None:
    """Localize on the spectrum of the API's own call when that is one call (see
    `under_entry`). That narrowing drops code the reproducer runs outside the call, which
    is noise for a function but not for what a call returns and later calls run (a device
    built by qml.device executes circuits afterwards): so when a unit under audit is among
    the top suspects of the whole spectrum but not of the narrowed one, the whole one is
    used."""
    if all(r.passed for r in coverage):
        return None
    narrowed = (under_entry(coverage, ctx.db, entry) if _entered_by_one_call(api, entry, ctx.config.library)
                else coverage)
    root_cause = localize(narrowed, ctx.db, entry, ctx.focus_units)
    if ctx.focus_units and narrowed is not coverage and (root_cause is None
                                                         or root_cause.segment not in ctx.focus_units):
        # No twin rule here: the whole spectrum holds the code that builds inputs and
        # expected values, and a twin would tie all of it with the API's own code.
        whole = localize(coverage, ctx.db, entry, ctx.focus_units, twins=False)
        if whole is not None and whole.segment in ctx.focus_units:
            return replace(whole, method=whole.method + " (whole spectrum: the API's own call did not reach it)"
                           + lent_note(coverage))
    if root_cause is None:
        return _compiled_entry(ctx.db, entry)
    return replace(root_cause, method=root_cause.method + lent_note(narrowed))


def _compiled_entry(db: IndexDB, entry: list[str]) -> RootCause | None:
    """When no Python line ranks as a suspect and the API is compiled code (a Rust function
    PyO3 exposes), the API's own Rust segment: line coverage cannot see into it, so the
    spectrum is silent exactly where the computation ran. Reported without a score; the
    Stage I call graph leads on from it (`qusema callees`)."""
    segments = [db.segment(q) for q in entry]
    if not segments or any(s is None or s.language != "rust" for s in segments):
        return None
    first = segments[0]
    return RootCause(segment=first.qualname, file=first.file, start_line=first.start_line, end_line=first.end_line,
                     score=0.0, method="no Python line the failing runs executed ranks as a suspect, and the API "
                     "is compiled code (Rust) that line coverage cannot see into: its entry segment is reported "
                     "(no score; its callees in the Stage I index are the next suspects)")


def _entered_by_one_call(api: str, entry: list[str], library: str) -> bool:
    """Whether the API under test is one function or method the reproducer calls: then its
    call is where the defect shows, and the spectrum can be narrowed to it. Not for a class
    (what its constructor builds is exercised by later calls: Operator(gate), gate.definition)
    nor for an API string naming several entry points (qml.measure ... on qml.device(...))."""
    constructors = ("__init__", "__new__")
    return (len(api_names(api, PACKAGE_ALIASES.get(library, {}))) == 1 and bool(entry)
            and not any(q.rsplit(".", 1)[-1] in constructors for q in entry))


def diff_against(store: RunStore, run_id: str, findings: list[Finding], other: str, backend: str | None,
                 progress: Progress, envs: EnvironmentStore) -> None:
    """Re-run every reproducer on another release: an AssertionError there means the defect
    is still present; a clean run, that it is fixed there; anything else (the API is gone,
    a crash) says neither."""
    done = {key for key, _ in store.records(run_id, "diff")}
    pending = [f for f in findings if f"{f.id}@{other}" not in done]
    if not pending:
        return
    env = envs.create(other, tools=AUDIT_TOOLS)
    with open_sandbox(env, backend) as box:
        for finding in pending:
            result = box.run(finding.hypothesis.test_code, filename="reproducer.py")
            verdict = {"assertion_failed": "still present", "ok": "fixed there"}.get(
                result.status.value, f"inconclusive ({result.exception.type if result.exception else result.status.value})")
            store.record(run_id, "diff", f"{finding.id}@{other}", {"finding": finding.id, "release": other,
                                                                   "verdict": verdict})
            progress(f"{finding.id} on {other}: {verdict}")


def collect_findings(store: RunStore, run_id: str) -> list[Finding]:
    """Findings of a run, deduplicated by `Finding.dedupe_key` (law, entry API, root-cause
    segment and, for a law's check, the assertion that failed), with what re-running them
    on other releases showed."""
    merged: dict[str, Finding] = {}
    for key, payload in store.records(run_id, "finding"):
        finding = finding_from_dict(payload)
        if key in merged:
            merged[key].duplicates.append(finding.hypothesis.id)
        else:
            merged[key] = finding
    for _, diff in store.records(run_id, "diff"):
        if diff["finding"] in merged:
            merged[diff["finding"]].other_releases[diff["release"]] = diff["verdict"]
    return list(merged.values())


def finding_from_dict(payload: dict[str, Any]) -> Finding:
    h = dict(payload["hypothesis"])
    h.pop("id", None)
    v = dict(payload["verification"])
    v["verdict"] = Verdict(v["verdict"])
    return Finding(
        hypothesis=Hypothesis(**h), verification=Verification(**v), classification=payload["classification"],
        classification_reason=payload["classification_reason"],
        root_cause=RootCause(**payload["root_cause"]) if payload["root_cause"] else None,
        environment=payload["environment"], other_releases=payload.get("other_releases", {}),
        duplicates=payload.get("duplicates", []),
    )


def write_reports(run_dir: Path, findings: list[Finding], python_version: str) -> int:
    """findings.json and findings.sarif (every finding) and the issue drafts: one per law broken
    through one API (`draft_groups`), which findings.json's `drafts` maps to its findings.
    Returns the number of drafts."""
    from qusema.defects import FINDINGS_SCHEMA_VERSION
    from qusema.report.drafts import draft, draft_groups, draft_name
    from qusema.report.sarif import sarif

    drafts = run_dir / "drafts"
    drafts.mkdir(parents=True, exist_ok=True)
    for stale in drafts.glob("*.md"):
        stale.unlink()
    groups = draft_groups(findings)
    for lead, *others in groups:
        (drafts / draft_name([lead])).write_text(draft(lead, python_version, others))
    (run_dir / "findings.json").write_text(json.dumps(
        {"schema_version": FINDINGS_SCHEMA_VERSION, "findings": [f.to_dict() for f in findings],
         "drafts": {draft_name(group): [f.id for f in group] for group in groups}}, indent=2) + "\n")
    (run_dir / "findings.sarif").write_text(json.dumps(sarif(findings, "0.1.0"), indent=2) + "\n")
    return len(groups)


def _summarize(store: RunStore, run_id: str, summary: AuditSummary) -> None:
    for key, result in store.item_results(run_id):
        summary.examples += result.get("examples", 0)
        deeper = DEEPER in key  # a re-check of a law that held, with more examples: not another check
        outcome = f"{result['outcome']} when deepened" if deeper else result["outcome"]
        summary.outcomes[outcome] = summary.outcomes.get(outcome, 0) + 1
        summary.deeper_checks += deeper
        summary.items_done += not deeper
