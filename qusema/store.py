"""The run store: what happened in a run, at what cost, recorded as it happens, so an
interrupted run resumes where it stopped and a finished one can be replayed.

One SQLite file per run directory. Work items are recorded *after* they finish, in one
transaction with their result: a crash loses at most the item in flight, and resuming
never repeats a finished one."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (run_id TEXT PRIMARY KEY, kind TEXT NOT NULL, target TEXT NOT NULL,
    config TEXT NOT NULL, started REAL NOT NULL, finished REAL, status TEXT NOT NULL, stop_reason TEXT);
CREATE TABLE IF NOT EXISTS work (run_id TEXT NOT NULL, item TEXT NOT NULL, result TEXT NOT NULL,
    cost_usd REAL NOT NULL, seconds REAL NOT NULL, finished REAL NOT NULL, PRIMARY KEY (run_id, item));
CREATE TABLE IF NOT EXISTS records (seq INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT NOT NULL,
    kind TEXT NOT NULL, key TEXT NOT NULL, payload TEXT NOT NULL, created REAL NOT NULL);
CREATE INDEX IF NOT EXISTS records_kind ON records(run_id, kind);
CREATE TABLE IF NOT EXISTS cache (key TEXT PRIMARY KEY, payload TEXT NOT NULL, created REAL NOT NULL);
"""


@dataclass(frozen=True)
class RunInfo:
    run_id: str
    kind: str
    target: str
    config: dict[str, Any]
    started: float
    finished: float | None
    status: str
    stop_reason: str | None


class RunStore:
    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.conn = sqlite3.connect(path)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.executescript(SCHEMA)

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> "RunStore":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- runs ------------------------------------------------------------------------------
    def start_run(self, run_id: str, kind: str, target: str, config: dict[str, Any]) -> RunInfo:
        """Start a run, or reopen it to resume (its config must then be the same)."""
        existing = self.run(run_id)
        config = json.loads(json.dumps(config, sort_keys=True))  # as it will read back (tuples -> lists)
        if existing is not None:
            if existing.config != config:
                raise ValueError(f"run {run_id} was started with another configuration: {existing.config}")
            with self.conn:
                self.conn.execute("UPDATE runs SET status='running', finished=NULL, stop_reason=NULL WHERE run_id=?",
                                  (run_id,))
            return self.run(run_id)  # type: ignore[return-value]
        with self.conn:
            self.conn.execute("INSERT INTO runs VALUES (?,?,?,?,?,?,?,?)",
                              (run_id, kind, target, json.dumps(config, sort_keys=True), time.time(), None,
                               "running", None))
        return self.run(run_id)  # type: ignore[return-value]

    def finish_run(self, run_id: str, status: str, stop_reason: str | None = None) -> None:
        with self.conn:
            self.conn.execute("UPDATE runs SET status=?, finished=?, stop_reason=? WHERE run_id=?",
                              (status, time.time(), stop_reason, run_id))

    def run(self, run_id: str) -> RunInfo | None:
        row = self.conn.execute("SELECT * FROM runs WHERE run_id=?", (run_id,)).fetchone()
        if row is None:
            return None
        run_id, kind, target, config, started, finished, status, reason = row
        return RunInfo(run_id, kind, target, json.loads(config), started, finished, status, reason)

    def runs(self) -> list[RunInfo]:
        return [r for r in (self.run(i) for (i,) in self.conn.execute("SELECT run_id FROM runs ORDER BY started"))
                if r is not None]

    # -- work items -------------------------------------------------------------------------
    def done_items(self, run_id: str) -> set[str]:
        return {i for (i,) in self.conn.execute("SELECT item FROM work WHERE run_id=?", (run_id,))}

    def finish_item(self, run_id: str, item: str, result: dict[str, Any], seconds: float,
                    cost_usd: float = 0.0, records: list[tuple[str, str, dict[str, Any]]] = ()) -> None:
        """Record a finished item and what it produced, atomically."""
        now = time.time()
        with self.conn:
            self.conn.execute("INSERT OR REPLACE INTO work VALUES (?,?,?,?,?,?)",
                              (run_id, item, json.dumps(result, default=str), cost_usd, seconds, now))
            self.conn.executemany("INSERT INTO records(run_id, kind, key, payload, created) VALUES (?,?,?,?,?)",
                                  [(run_id, kind, key, json.dumps(payload, default=str), now)
                                   for kind, key, payload in records])

    def item_results(self, run_id: str) -> Iterator[tuple[str, dict[str, Any]]]:
        for item, result in self.conn.execute("SELECT item, result FROM work WHERE run_id=? ORDER BY finished",
                                              (run_id,)):
            yield item, json.loads(result)

    def totals(self, run_id: str) -> dict[str, float]:
        items, cost, seconds = self.conn.execute(
            "SELECT count(*), coalesce(sum(cost_usd),0), coalesce(sum(seconds),0) FROM work WHERE run_id=?",
            (run_id,)).fetchone()
        return {"items": items, "cost_usd": cost, "seconds": seconds}

    # -- records -----------------------------------------------------------------------------
    def record(self, run_id: str, kind: str, key: str, payload: dict[str, Any]) -> None:
        with self.conn:
            self.conn.execute("INSERT INTO records(run_id, kind, key, payload, created) VALUES (?,?,?,?,?)",
                              (run_id, kind, key, json.dumps(payload, default=str), time.time()))

    def records(self, run_id: str, kind: str) -> list[tuple[str, dict[str, Any]]]:
        return [(k, json.loads(p)) for k, p in self.conn.execute(
            "SELECT key, payload FROM records WHERE run_id=? AND kind=? ORDER BY seq", (run_id, kind))]

    # -- content-addressed cache (e.g. model responses) ----------------------------------------
    def cached(self, key: str) -> dict[str, Any] | None:
        row = self.conn.execute("SELECT payload FROM cache WHERE key=?", (key,)).fetchone()
        return json.loads(row[0]) if row else None

    def cache(self, key: str, payload: dict[str, Any]) -> None:
        with self.conn:
            self.conn.execute("INSERT OR REPLACE INTO cache VALUES (?,?,?)", (key, json.dumps(payload), time.time()))
