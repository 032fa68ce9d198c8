"""`--units` on the real qiskit 1.0.2 index: by name, by file, by call-graph centrality."""

from __future__ import annotations

import pytest
import scripts

from qusema.agent.unit_selection import UnitSelectionError, select_units
from qusema.audit import _ensure_index
from qusema.targets.environments import cache_dir

FILE = "qiskit/quantum_info/operators/symplectic/base_pauli.py"


@pytest.fixture(scope="module")
def db():
    index = _ensure_index(scripts.TARGET, cache_dir(), lambda m: None)
    yield index
    index.close()


def test_by_name_file_and_rank_without_duplicates(db):
    by_name = select_units(db, scripts.UNIT_SUFFIX)
    assert by_name == [scripts.UNIT]
    in_file = select_units(db, f"file:{FILE}")
    assert scripts.UNIT in in_file and all(db.segment(u).file == FILE for u in in_file)
    assert select_units(db, f"{scripts.UNIT_SUFFIX},file:{FILE}") == by_name + [u for u in in_file if u != scripts.UNIT]


def test_ranking_is_by_distinct_callers_and_deterministic(db):
    top = select_units(db, "top:5")
    assert len(top) == 5 and top == select_units(db, "top:5")

    def callers(unit: str) -> int:
        return len({c.caller for c in db.calls_to(unit) if c.caller != unit})

    counts = [callers(u) for u in top]
    assert counts == sorted(counts, reverse=True)
    assert counts[-1] >= callers(scripts.UNIT)  # a unit with few callers is not among the most central


def test_unknown_and_ambiguous_names_are_errors(db):
    with pytest.raises(UnitSelectionError, match="no unit named"):
        select_units(db, "NoSuchThing.anywhere")
    with pytest.raises(UnitSelectionError, match="ambiguous"):
        select_units(db, "__init__")
