"""The regression oracle, host side: observe the documented examples of the audited release
and of a reference release (sandbox/surface_regression.py, each in its own environment and
sandbox), and turn every answer that changed into a check of the law
`LIB.surface.agrees-with-reference`, which re-runs it on the audited release and files it
through the ordinary pipeline (verify, localize, qualify, report) when it still differs.

An answer counts only when it is the same in two processes of the audited release (set order,
hash seeds and clocks make some answers differ from run to run) and in two runs of one process.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Callable
from typing import Any

from packaging.version import InvalidVersion, Version

from qusema.contracts.engine import WorkItem
from qusema.sandbox import Limits, open_sandbox
from qusema.sandbox.launch import sandbox_source_dir
from qusema.sandbox.records import Status
from qusema.targets.environments import EnvironmentStore, TargetEnvironment
from qusema.targets.registry import SimpleIndex

PROGRAMS_PER_CALL = 40  # documented programs observed per sandbox call (progress, and a timeout per call)
OBSERVE_TIMEOUT_S = 900.0
REGRESSION_LAW = "surface.agrees-with-reference"


class NoReference(Exception):
    """No reference release can be compared with (none earlier, or its environment fails)."""


def regression_law(library: str) -> str:
    return f"{library}.{REGRESSION_LAW}"


def default_reference(library: str, version: str) -> str:
    """The newest release of the newest earlier minor series (2.4.1 -> 2.3.x's last), or of
    the earlier patches when the series has no earlier minor."""
    current = Version(version)
    releases = [v for v in SimpleIndex().project_files(library).releases() if not v.is_prerelease]
    earlier_minor = [v for v in releases if v.release[:2] < current.release[:2]]
    candidates = earlier_minor or [v for v in releases if v < current]
    if not candidates:
        raise NoReference(f"{library} lists no release earlier than {version} to compare with")
    newest_minor = max(candidates).release[:2]
    return f"{library}=={max(v for v in candidates if v.release[:2] == newest_minor)}"


def parse_reference(library: str, version: str, reference: str) -> str:
    """`auto` or LIB==VER (of the same library) as LIB==VER."""
    if reference == "auto":
        return default_reference(library, version)
    name, _, other = reference.partition("==")
    if name.strip().lower() != library or not other.strip():
        raise NoReference(f"--reference {reference!r}: give an exact release of {library} "
                             f"(e.g. {library}==2.3.1) or 'auto'")
    try:
        Version(other.strip())
    except InvalidVersion as exc:
        raise NoReference(f"--reference {reference!r}: {exc}") from exc
    return f"{library}=={other.strip()}"


def _agree_function() -> Callable[[Any, Any], bool]:
    """`agree` of sandbox/surface_regression.py's OBSERVE_SOURCE (our own stdlib-only code):
    the host compares observations with the very function the law and its reproducers use."""
    path = sandbox_source_dir() / "surface_regression.py"
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "OBSERVE_SOURCE" for t in node.targets):
            namespace: dict[str, Any] = {}
            exec(compile(ast.literal_eval(node.value), str(path), "exec"), namespace)  # noqa: S102 (our own source)
            return namespace["agree"]
    raise RuntimeError(f"no OBSERVE_SOURCE in {path}")


def observe(env: TargetEnvironment, library: str, backend: str | None,
            progress: Callable[[str], None]) -> dict[str, Any]:
    """{key: answer} of the release in `env`, observed in one sandbox, in chunks."""
    observations: dict[str, Any] = {}
    first, total = 0, None
    with open_sandbox(env, backend, warm=False, limits=Limits(timeout_s=OBSERVE_TIMEOUT_S)) as box:
        while total is None or first < total:
            code = ("import surface_regression\n"
                    f"report('value', surface_regression.observe({library!r}, {first}, {PROGRAMS_PER_CALL}))\n")
            result = box.run(code, filename="observe.py")
            if result.status is not Status.OK or "value" not in result.reports:
                detail = result.exception.message if result.exception else (result.kill_reason or result.stderr[-500:])
                raise NoReference(f"observing {env.requirement} failed: {result.status.value}: {detail}")
            answer = result.reports["value"]
            observations.update(answer["observations"])
            total = answer["total_programs"]
            first += PROGRAMS_PER_CALL
            progress(f"observed {min(first, total)}/{total} documented examples on {env.requirement}")
    return observations


def regression_items(library: str, env: TargetEnvironment, reference: str, backend: str | None,
                     envs: EnvironmentStore, tools: tuple[str, ...],
                     progress: Callable[[str], None]) -> list[WorkItem]:
    """A check of the regression law for every answer of the audited release that differs
    from the reference release's, for the same documented code."""
    reference_env = envs.create(reference, tools=tools)
    audited = observe(env, library, backend, progress)
    again = observe(env, library, backend, progress)
    baseline = observe(reference_env, library, backend, progress)
    agree = _agree_function()
    stable = {k: v for k, v in audited.items() if k in again and agree(v, again[k])}
    changed = sorted(k for k, v in stable.items() if k in baseline and not agree(v, baseline[k]))
    progress(f"regression oracle: {len(stable)} stable answers of {len(audited)}, {len(set(stable) & set(baseline))} "
             f"comparable with {reference}, {len(changed)} changed")
    return [WorkItem(regression_law(library), json.dumps({"key": key, "reference": baseline[key], "against": reference},
                                                         sort_keys=True))
            for key in changed]
