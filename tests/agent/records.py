"""Reading a run's records in the tests."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any


def records(run_dir: Path, kind: str) -> list[dict[str, Any]]:
    with sqlite3.connect(run_dir / "run.sqlite") as conn:
        return [json.loads(p) for (p,) in conn.execute("SELECT payload FROM records WHERE kind=? ORDER BY seq",
                                                       (kind,))]


def run_row(run_dir: Path) -> tuple[str, str | None]:
    with sqlite3.connect(run_dir / "run.sqlite") as conn:
        return conn.execute("SELECT status, stop_reason FROM runs").fetchone()


def findings(run_dir: Path) -> list[dict[str, Any]]:
    return json.loads((run_dir / "findings.json").read_text())["findings"]
