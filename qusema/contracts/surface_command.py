"""`qusema surface LIB==VER`: the public surface of a release as the surface laws see it
(sandbox/surface_listing.py lists it inside the sandbox, in the release's environment), with
the laws that check each entry and why none does where none does."""

from __future__ import annotations

import fnmatch
import json
from collections import Counter
from typing import Any

import click

from qusema.cli_errors import target_failure
from qusema.sandbox.protocol import BackendUnavailable
from qusema.sandbox.records import Limits, Status
from qusema.sandbox.worker_client import WorkerStartError
from qusema.targets.environments import EnvironmentStore, TargetEnvironmentError

SURFACE_LIBRARIES = ("qiskit", "pennylane")  # the libraries with a contracts/<library>_surface.py
LISTING_TIMEOUT_S = 600.0  # the whole surface of a release, walked once


def surface_listing(target: str, backend: str | None) -> dict[str, Any]:
    """The listing of sandbox/surface_listing.py for TARGET (LIB==VER)."""
    from qusema.audit import AUDIT_TOOLS
    from qusema.sandbox.session import open_sandbox

    library = target.split("==", 1)[0].strip().lower()
    env = EnvironmentStore().create(target, tools=AUDIT_TOOLS)
    code = f"import surface_listing\nreport('value', surface_listing.listing({library!r}))\n"
    with open_sandbox(env, backend, warm=False, limits=Limits(timeout_s=LISTING_TIMEOUT_S)) as box:
        result = box.run(code, filename="surface_listing.py")
    if result.status is not Status.OK or "value" not in result.reports:
        detail = result.exception.message if result.exception else (result.kill_reason or result.stderr[-800:])
        raise click.ClickException(f"listing the surface of {target} failed: {result.status.value}: {detail}")
    return result.reports["value"]


def summarize(listing: dict[str, Any]) -> dict[str, Any]:
    """Entries by kind, how many a law checks, and the commonest reasons none does."""
    kinds: dict[str, Counter[str]] = {}
    reasons: Counter[str] = Counter()
    for entry in listing["entries"]:
        counts = kinds.setdefault(entry["kind"], Counter())
        counts["entries"] += 1
        counts["checked"] += bool(entry["laws"])
        if not entry["laws"]:
            reasons[_reason_class(entry["why_not"] or "")] += 1
    total = sum(c["entries"] for c in kinds.values())
    checked = sum(c["checked"] for c in kinds.values())
    return {"library": listing["library"], "modules": listing["modules"], "entries": total, "checked": checked,
            "by_kind": {kind: dict(counts) for kind, counts in sorted(kinds.items())},
            "not_checked_because": dict(reasons.most_common(12))}


def _reason_class(reason: str) -> str:
    """A reason with its names left out, so like reasons count together."""
    if reason.startswith("parameter "):
        return "a parameter: " + reason.split(": ", 1)[-1].split(" a ", 1)[0].strip()
    for marker in (" builds a ", " build a "):
        if marker in reason:
            return reason.split(marker, 1)[0] + marker.rstrip() + " ..."
    return reason


@click.command("surface")
@click.argument("target")
@click.option("--list", "list_entries", is_flag=True, help="Every entry, one per line: kind, name, laws or why none.")
@click.option("--entries", "pattern", default=None, metavar="GLOB",
              help="Only entries whose name matches, e.g. 'qiskit.quantum_info.*'.")
@click.option("--unchecked", is_flag=True, help="Only entries no law checks.")
@click.option("--json", "as_json", is_flag=True, help="The whole listing as JSON.")
@click.option("--sandbox", "backend", type=click.Choice(["docker", "bwrap", "process"]), default=None,
              help="Sandbox backend [default: docker if a daemon answers, else bwrap, else process].")
def surface_command(target: str, list_entries: bool, pattern: str | None, unchecked: bool, as_json: bool,
                    backend: str | None) -> None:
    """List the public surface of TARGET (qiskit==VER or pennylane==VER) as an audit's
    API-surface laws see it: every public class, property, method, function and documented
    example, the laws that check it, how their inputs are built (documented example,
    constructor, typed arguments) and, where no law checks an entry, why not.

    The listing runs in the sandbox, in the release's environment (made on first use)."""
    library, _, version = target.partition("==")
    if not version.strip():
        raise click.ClickException(f"{target!r}: give an exact release, e.g. qiskit==2.4.1")
    if library.strip().lower() not in SURFACE_LIBRARIES:
        raise click.ClickException(f"{library!r} has no surface laws; known: {', '.join(SURFACE_LIBRARIES)}")
    try:
        listing = surface_listing(target, backend)
    except (TargetEnvironmentError, BackendUnavailable, WorkerStartError) as exc:
        raise target_failure(exc) from exc
    entries = [e for e in listing["entries"] if (pattern is None or fnmatch.fnmatchcase(e["entry"], pattern))
               and (not unchecked or not e["laws"])]
    if as_json:
        click.echo(json.dumps({**summarize({**listing, "entries": entries}), "listing": entries}, indent=1))
        return
    if list_entries or pattern or unchecked:
        for entry in entries:
            said = ", ".join(entry["laws"]) if entry["laws"] else f"not checked: {entry['why_not']}"
            click.echo(f"{entry['kind']:<26} {entry['entry']}  [{said}]")
    figures = summarize({**listing, "entries": entries})
    click.echo(f"{target}: {figures['entries']} public entries in {figures['modules']} modules, "
               f"{figures['checked']} checked by a surface law ({_share(figures['checked'], figures['entries'])})")
    for kind, counts in figures["by_kind"].items():
        click.echo(f"  {kind:<26} {counts.get('checked', 0):>6} of {counts['entries']:>6} checked")
    if figures["not_checked_because"]:
        click.echo("not checked, commonest reasons:")
        for reason, count in figures["not_checked_because"].items():
            click.echo(f"  {count:>6}  {reason}")


def _share(part: int, whole: int) -> str:
    return f"{part / whole:.0%}" if whole else "n/a"


__all__ = ["surface_command", "surface_listing", "summarize"]
