"""The harness self-check: each bug's hand-written reproducer must fail (AssertionError) on
its buggy release and pass on its first fixed release, where one exists. It proves the
environments hold the releases the dataset says; it says nothing about the auditor, and
its reproducers are never shown to the auditor.

Reproducers run in the sandbox, one warm sandbox per release, in the cached target
environments (the same ones `qusema env` and the audits build)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from contextlib import ExitStack
from dataclasses import asdict, dataclass, field
from pathlib import Path

from qusema.bench.dataset import Bug, Dataset
from qusema.sandbox import Limits, RunResult, Status, open_sandbox
from qusema.targets.environments import EnvironmentStore

Progress = Callable[[str], None]
SELFCHECK_LIMITS = Limits(timeout_s=300.0)


@dataclass(frozen=True)
class ReleaseRun:
    """One reproducer run on one release."""

    release: str
    status: str  # sandbox status: assertion_failed | ok | exception | timeout ...
    message: str  # assertion message or exception, first lines
    seconds: float
    backend: str
    environment: str  # environment key
    packages: list[str] = field(default_factory=list)

    @classmethod
    def from_result(cls, release: str, result: RunResult, env_key: str, packages: list[str]) -> ReleaseRun:
        if result.exception is not None:
            message = f"{result.exception.type}: {result.exception.message}".strip()
        else:
            message = result.kill_reason or ""
        return cls(release, result.status.value, message[:1000], round(result.duration_s, 2), result.backend,
                   env_key, packages)


@dataclass(frozen=True)
class SelfCheckResult:
    bug: str
    buggy: ReleaseRun
    fixed: ReleaseRun | None  # None where no release fixes the bug

    @property
    def present_on_buggy(self) -> bool:
        return self.buggy.status == Status.ASSERTION_FAILED.value

    @property
    def absent_on_fixed(self) -> bool | None:
        return None if self.fixed is None else self.fixed.status == Status.OK.value

    @property
    def ok(self) -> bool:
        return self.present_on_buggy and self.absent_on_fixed is not False

    @property
    def problem(self) -> str:
        problems = []
        if not self.present_on_buggy:
            problems.append(f"on {self.buggy.release} the reproducer ended {self.buggy.status}"
                            f" ({self.buggy.message or 'no message'}), not with an AssertionError")
        if self.fixed is not None and not self.absent_on_fixed:
            problems.append(f"on {self.fixed.release} it ended {self.fixed.status}"
                            f" ({self.fixed.message or 'no message'}), not cleanly")
        return "; ".join(problems)

    def to_dict(self) -> dict:
        return {"bug": self.bug, "ok": self.ok, "present_on_buggy": self.present_on_buggy,
                "absent_on_fixed": self.absent_on_fixed, "problem": self.problem,
                "buggy": asdict(self.buggy), "fixed": asdict(self.fixed) if self.fixed else None}


def run_selfcheck(dataset: Dataset, bugs: Iterable[Bug], backend: str | None = None,
                  envs: EnvironmentStore | None = None, progress: Progress = lambda _: None,
                  limits: Limits = SELFCHECK_LIMITS) -> list[SelfCheckResult]:
    """Runs every reproducer on its buggy and fixed releases; each release's environment
    is built once (or taken from the cache) and gets one warm sandbox."""
    envs = envs or EnvironmentStore()
    bugs = list(bugs)
    by_release: dict[str, list[tuple[Bug, str]]] = {}
    for bug in bugs:
        by_release.setdefault(bug.buggy_target, []).append((bug, "buggy"))
        if bug.fixed_target:
            by_release.setdefault(bug.fixed_target, []).append((bug, "fixed"))
    runs: dict[tuple[str, str], ReleaseRun] = {}
    for release, jobs in by_release.items():
        started = time.perf_counter()
        env = envs.create(release)
        progress(f"{release}: environment {env.key}")
        with ExitStack() as stack:
            box = stack.enter_context(open_sandbox(env, backend, limits=limits))
            for bug, role in jobs:
                code = dataset.selfcheck_path(bug).read_text()
                result = box.run(code, filename=f"{bug.id}.py")
                runs[(bug.id, role)] = ReleaseRun.from_result(release, result, env.key, env.packages)
                progress(f"  {bug.id} on {release} ({role}): {result.status.value}")
        progress(f"{release}: {len(jobs)} reproducers in {time.perf_counter() - started:.1f} s")
    return [SelfCheckResult(b.id, runs[(b.id, "buggy")], runs.get((b.id, "fixed"))) for b in bugs]


def write_selfcheck(results: list[SelfCheckResult], out_dir: Path) -> tuple[Path, Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    record = {"generated": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "bugs": len(results),
              "all_ok": all(r.ok for r in results), "results": [r.to_dict() for r in results]}
    json_path = out_dir / "selfcheck.json"
    json_path.write_text(json.dumps(record, indent=1) + "\n")
    md_path = out_dir / "selfcheck.md"
    md_path.write_text(selfcheck_markdown(results))
    return json_path, md_path


def selfcheck_markdown(results: list[SelfCheckResult]) -> str:
    def cell(run: ReleaseRun | None) -> str:
        if run is None:
            return "— (no fixed release)"
        return f"`{run.release}`: {run.status}"

    lines = [
        "# Harness self-check: historical bugs on their releases",
        "",
        "Each bug's reproducer (`benchmarks/historical/selfcheck/<bug>.py`, public API only) must fail with an "
        "AssertionError on the buggy release and run cleanly on the first fixed release, where one exists. "
        "Run in the sandbox by `qusema bench selfcheck`.",
        "",
        f"**{sum(r.ok for r in results)}/{len(results)} as expected.**",
        "",
        "| bug | buggy release | fixed release | verdict |",
        "|---|---|---|---|",
    ]
    for r in results:
        verdict = "present on buggy" + ("" if r.fixed is None else ", absent on fixed") if r.ok else f"**NO**: {r.problem}"
        lines.append(f"| {r.bug} | {cell(r.buggy)} | {cell(r.fixed)} | {verdict} |")
    lines.append("")
    return "\n".join(lines)
