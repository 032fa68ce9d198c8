"""Automatic scoring of a run against one historical bug.

- A defect is **identified** when a verified finding's root cause is the bug's root-cause
  segment (as the Stage I index of the buggy release names it; a partition `#p<k>` of a
  long segment counts as the segment).
- A bug is **relocated** when, in addition, that finding's API-level reproducer fails with
  an AssertionError on the buggy release and, where a fixed release exists, runs cleanly on
  it. Both are re-run here, independently of the run that produced the finding: the version
  flip is the ground truth that the same defect was found.

A score keeps everything a person needs to confirm it: each matching finding with its law,
entry API, root cause, reproducer and both re-runs, and the findings that came close (same
file, or the bug's API) with why they did not count."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable
from contextlib import ExitStack
from dataclasses import asdict, dataclass, field
from typing import Any

from qusema.bench.dataset import Bug
from qusema.bench.selfcheck import ReleaseRun
from qusema.defects import Finding, Verdict
from qusema.sandbox import Limits, Status, open_sandbox
from qusema.targets.environments import EnvironmentStore

# release, reproducer code -> how the reproducer ended there
Rerun = Callable[[str, str], ReleaseRun]
_PARTITION = re.compile(r"#p\d+$")
RERUN_LIMITS = Limits(timeout_s=300.0)


def in_root_cause(segment: str | None, bug: Bug) -> bool:
    if not segment:
        return False
    return _PARTITION.sub("", segment) == bug.root_cause_qualname


@dataclass(frozen=True)
class MatchedFinding:
    """A verified finding whose root cause is the bug's segment, re-run on both releases."""

    finding_id: str
    law_id: str
    api: str
    classification: str
    root_cause: dict[str, Any]
    verification: dict[str, Any]
    reproducer: str
    on_buggy: ReleaseRun
    on_fixed: ReleaseRun | None
    fails_on_buggy: bool
    passes_on_fixed: bool | None  # None where no release fixes the bug

    @property
    def relocates(self) -> bool:
        return self.fails_on_buggy and self.passes_on_fixed is not False


@dataclass(frozen=True)
class NearMiss:
    """A finding that did not count but that a reviewer should look at."""

    finding_id: str
    law_id: str
    api: str
    root_cause: dict[str, Any] | None
    why_not: str


@dataclass
class BugScore:
    bug: str
    run: int
    source: str
    setting: str
    target: str
    fixed_target: str | None
    root_cause_qualname: str
    identified: bool
    relocated: bool
    matching: list[MatchedFinding] = field(default_factory=list)
    near_misses: list[NearMiss] = field(default_factory=list)
    findings_in_run: int = 0
    audit: dict[str, Any] = field(default_factory=dict)  # where the run is, how it ended
    scored_at: str = field(default_factory=lambda: time.strftime("%Y-%m-%dT%H:%M:%S%z"))

    def to_dict(self) -> dict[str, Any]:
        record = asdict(self)
        for matched, data in zip(self.matching, record["matching"]):
            data["relocates"] = matched.relocates
        return record

    @classmethod
    def from_dict(cls, record: dict[str, Any]) -> BugScore:
        record = dict(record)
        matching = []
        for m in record.pop("matching"):
            m = dict(m)
            m.pop("relocates", None)
            m["on_buggy"] = ReleaseRun(**m["on_buggy"])
            m["on_fixed"] = ReleaseRun(**m["on_fixed"]) if m["on_fixed"] else None
            matching.append(MatchedFinding(**m))
        near = [NearMiss(**n) for n in record.pop("near_misses")]
        return cls(matching=matching, near_misses=near, **record)


def score_bug(bug: Bug, findings: Iterable[Finding], rerun: Rerun, *, run: int, source: str, setting: str,
              audit: dict[str, Any] | None = None) -> BugScore:
    findings = list(findings)
    score = BugScore(bug=bug.id, run=run, source=source, setting=setting, target=bug.buggy_target,
                     fixed_target=bug.fixed_target, root_cause_qualname=bug.root_cause_qualname,
                     identified=False, relocated=False, findings_in_run=len(findings), audit=dict(audit or {}))
    for finding in findings:
        segment = finding.root_cause.segment if finding.root_cause else None
        verified = finding.verification.verdict == Verdict.REPRODUCED
        if in_root_cause(segment, bug) and verified:
            score.matching.append(_rerun_both(bug, finding, rerun))
            continue
        why = _near_miss_reason(bug, finding, segment, verified)
        if why:
            score.near_misses.append(NearMiss(finding.id, finding.hypothesis.law_id, finding.hypothesis.api,
                                              asdict(finding.root_cause) if finding.root_cause else None, why))
    score.identified = bool(score.matching)
    score.relocated = any(m.relocates for m in score.matching)
    return score


def _rerun_both(bug: Bug, finding: Finding, rerun: Rerun) -> MatchedFinding:
    code = finding.hypothesis.test_code
    on_buggy = rerun(bug.buggy_target, code)
    on_fixed = rerun(bug.fixed_target, code) if bug.fixed_target else None
    return MatchedFinding(
        finding_id=finding.id, law_id=finding.hypothesis.law_id, api=finding.hypothesis.api,
        classification=finding.classification, root_cause=asdict(finding.root_cause),
        verification=finding.verification.to_dict(), reproducer=code, on_buggy=on_buggy, on_fixed=on_fixed,
        fails_on_buggy=on_buggy.status == Status.ASSERTION_FAILED.value,
        passes_on_fixed=None if on_fixed is None else on_fixed.status == Status.OK.value,
    )


def _near_miss_reason(bug: Bug, finding: Finding, segment: str | None, verified: bool) -> str:
    if in_root_cause(segment, bug) and not verified:
        return f"root cause matches but the verdict is {finding.verification.verdict.value}"
    if finding.root_cause is None and _same_api(bug, finding):
        return "entry API is the bug's API, but the failure was not localized to a segment"
    if finding.root_cause is not None and finding.root_cause.file == bug.root_cause_file:
        return f"root cause {segment} is in the bug's file, not its segment"
    if _same_api(bug, finding):
        return f"entry API is the bug's API, root cause {segment}"
    return ""


def _same_api(bug: Bug, finding: Finding) -> bool:
    api = bug.api.split(" ")[0].removeprefix("qml.").split("(")[0]
    return bool(api) and api in finding.hypothesis.api


class SandboxRerun:
    """Re-runs reproducers in warm sandboxes, one per release, opened on first use.

    Uses the same environments as the audit (`tools`), so `--diff-against` and scoring
    share their cached environments and images."""

    def __init__(self, backend: str | None = None, tools: tuple[str, ...] = (),
                 envs: EnvironmentStore | None = None, limits: Limits = RERUN_LIMITS) -> None:
        self.backend = backend
        self.tools = tools
        self.envs = envs or EnvironmentStore()
        self.limits = limits
        self._stack = ExitStack()
        self._boxes: dict[str, tuple[Any, Any]] = {}

    def __call__(self, release: str, code: str) -> ReleaseRun:
        if release not in self._boxes:
            env = self.envs.create(release, tools=self.tools)
            self._boxes[release] = (env, self._stack.enter_context(open_sandbox(env, self.backend,
                                                                                limits=self.limits)))
        env, box = self._boxes[release]
        result = box.run(code, filename="reproducer.py")
        return ReleaseRun.from_result(release, result, env.key, env.packages)

    def close(self) -> None:
        self._stack.close()
        self._boxes.clear()

    def __enter__(self) -> SandboxRerun:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
