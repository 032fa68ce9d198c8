"""Shared by the sandbox tests: targets, limits, and host-side checks that a snippet left
nothing behind. (A plain module: `from conftest import` is ambiguous with several conftests.)"""

from __future__ import annotations

import os
import secrets
import time
from pathlib import Path

from qusema.sandbox import Limits, RunResult, Status, WarmSandbox
from qusema.targets.environments import TargetEnvironment

# Cheap environment for containment: numpy only (the runner may use it for reports).
CHEAP_TARGET = "numpy==2.2.6"
QISKIT_TARGET = "qiskit==2.4.1"
# A secret of the host that must never reach a snippet (conftest puts it in the host's
# environment before any sandbox starts).
HOST_SECRET = "qusema-test-secret-" + secrets.token_hex(8)

TEST_LIMITS = Limits(timeout_s=10.0, memory_bytes=1024**3, pids=128,
                     max_output_bytes=8 * 1024**2, capture_bytes=16 * 1024)


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

def env_for(backend, request) -> TargetEnvironment:
    """The cheap environment this backend can run: for process-as-root, the readable one."""
    if backend.name == "process" and os.geteuid() == 0:
        return request.getfixturevalue("readable_cheap_env")
    return request.getfixturevalue("cheap_env")
