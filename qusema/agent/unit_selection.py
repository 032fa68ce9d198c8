"""`--units`: which contextual units the agent audits. A comma-separated list of

- a name: a qualified name or a unique suffix (`Pauli.evolve`);
- `file:PATH` (or anything ending in .py / .rs): every function and method in that file;
- `top:N`: the N most central units of the call graph.

Centrality is in-degree first: a unit many others call carries more of the library's
behaviour, and a defect in it reaches more public APIs. Out-degree breaks ties (a unit that
calls much does much), then the name, so the ranking is deterministic."""

from __future__ import annotations

from qusema.agent.tools import resolve_name
from qusema.units.index_db import IndexDB

_CALLABLE_KINDS = ("function", "method")


class UnitSelectionError(ValueError):
    pass


def select_units(db: IndexDB, spec: str) -> list[str]:
    chosen: list[str] = []
    for entry in (e.strip() for e in spec.split(",")):
        if not entry:
            continue
        if entry.startswith("top:"):
            try:
                n = int(entry[4:])
            except ValueError:
                raise UnitSelectionError(f"{entry!r}: top:N needs a number") from None
            found = ranked_units(db, n)
        elif entry.startswith("file:") or entry.endswith((".py", ".rs")):
            found = units_in_file(db, entry.removeprefix("file:"))
        else:
            qualname, error = resolve_name(db, entry)
            if qualname is None:
                raise UnitSelectionError(error.removeprefix("error: "))
            found = [qualname]
        chosen.extend(u for u in found if u not in chosen)
    if not chosen:
        raise UnitSelectionError(f"--units {spec!r} selects no unit")
    return chosen


def units_in_file(db: IndexDB, path: str) -> list[str]:
    rows = db.conn.execute("SELECT qualname FROM segments WHERE (file=? OR file LIKE ?) AND kind IN (?,?) "
                           "ORDER BY start_line", (path, f"%/{path}", *_CALLABLE_KINDS)).fetchall()
    if not rows:
        raise UnitSelectionError(f"no functions or methods indexed in a file {path!r}")
    return [q for (q,) in rows]


def ranked_units(db: IndexDB, n: int) -> list[str]:
    rows = db.conn.execute(
        """SELECT s.qualname,
                  (SELECT count(DISTINCT caller) FROM calls WHERE target=s.qualname AND caller<>s.qualname) AS inward,
                  (SELECT count(DISTINCT target) FROM calls WHERE caller=s.qualname AND status='resolved') AS outward
           FROM segments s WHERE s.kind IN (?,?) AND s.file NOT LIKE '%test%' AND coalesce(s.owner, '') NOT LIKE '%Error'
           ORDER BY inward DESC, outward DESC, s.qualname LIMIT ?""", (*_CALLABLE_KINDS, n)).fetchall()
    return [q for q, _, _ in rows]
