"""Sandbox runs recorded as they happen, and served back in a replay.

A replay must reproduce a run's findings byte for byte, yet a re-executed sandbox run never
takes the same number of microseconds twice. So a replay answers every sandbox run from the
record, and (when the target environment is at hand) also re-executes it and insists that
the outcome — status, exception, reports — is the same: the record is believed only where
execution still agrees with it."""

from __future__ import annotations

import hashlib
from collections import defaultdict, deque
from collections.abc import Callable
from typing import Any

from qusema.sandbox import ExceptionInfo, Limits, RunResult, Sandbox, Status

SANDBOX = "sandbox"


def run_key(code: str, filename: str) -> str:
    return "run:" + hashlib.sha256(f"{filename}\0{code}".encode()).hexdigest()


def result_from_json(data: dict[str, Any]) -> RunResult:
    exc = data.get("exception")
    fields = {k: v for k, v in data.items() if k not in ("status", "exception")}
    return RunResult(status=Status(data["status"]), exception=ExceptionInfo(**exc) if exc else None, **fields)


def outcome_of(result: RunResult) -> dict[str, Any]:
    """What a re-execution must agree on: timings and backends may differ, this may not."""
    return {"status": result.status.value, "exception": None if result.exception is None else
            [result.exception.type, result.exception.message], "reports": result.reports}


class RecordingSandbox:
    """Runs in `inner` and hands each run to `record(key, payload)` before returning it."""

    def __init__(self, inner: Sandbox, record: Callable[[str, dict[str, Any]], None]) -> None:
        self.inner = inner
        self.record = record
        self.backend = inner.backend

    def run(self, code: str, filename: str = "snippet.py", limits: Limits | None = None) -> RunResult:
        result = self.inner.run(code, filename=filename, limits=limits)
        self.record(run_key(code, filename), {"filename": filename, "code": code, "result": result.to_json()})
        return result

    def close(self) -> None:
        self.inner.close()


class SandboxDivergence(Exception):
    """A replayed sandbox run no longer behaves as recorded (or was never recorded)."""


class ReplaySandbox:
    """Serves recorded runs in recorded order per (code, filename). With `rerun`, each run is
    also executed there and its outcome compared with the record."""

    def __init__(self, records: list[tuple[str, dict[str, Any]]], rerun: Sandbox | None = None) -> None:
        self._by_key: dict[str, deque[dict[str, Any]]] = defaultdict(deque)
        for key, payload in records:
            self._by_key[key].append(payload)
        self.rerun = rerun
        self.backend: Any = rerun.backend if rerun is not None else None  # nothing runs without a rerun
        self.checked = 0

    def run(self, code: str, filename: str = "snippet.py", limits: Limits | None = None) -> RunResult:
        key = run_key(code, filename)
        queue = self._by_key.get(key)
        if not queue:
            raise SandboxDivergence(f"the recorded run never executed this code ({key}):\n{code[:500]}")
        recorded = queue.popleft()
        result = result_from_json(recorded["result"])
        if self.rerun is not None:
            again = self.rerun.run(code, filename=filename, limits=limits)
            if outcome_of(again) != outcome_of(result):
                raise SandboxDivergence(f"re-executed {filename} differs from the record: "
                                        f"{outcome_of(again)} != {outcome_of(result)}")
            self.checked += 1
        return result

    def close(self) -> None:
        if self.rerun is not None:
            self.rerun.close()
