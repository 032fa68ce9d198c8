"""Checks on the host side that a snippet left nothing behind."""

from __future__ import annotations

import time
from pathlib import Path

from qusema.sandbox import RunResult, Status, WarmSandbox


def host_processes_with(token: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if token.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def assert_next_snippet_unaffected(box: WarmSandbox) -> None:
    result = box.run("report('fine', sum(range(10)))")
    assert result.status is Status.OK, result
    assert result.reports == {"fine": 45}


def settle_processes(box: WarmSandbox, expected: set[int], timeout: float = 5.0) -> set[int]:
    """The sandbox's processes once killed ones have been reaped (which is not instant)."""
    deadline = time.monotonic() + timeout
    current = box.processes()
    while current != expected and time.monotonic() < deadline:
        time.sleep(0.05)
        current = box.processes()
    return current


def describe(result: RunResult) -> str:
    return f"{result.status} {result.kill_reason} {result.exception} {result.stdout[:300]!r}"
