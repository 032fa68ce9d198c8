"""Spectrum-based localization: Ochiai scores by hand, and the mapping onto segments of a
real index (the fixture library)."""

import math
import shutil
from pathlib import Path

import pytest

from qusema.units.index_db import IndexDB
from qusema.units.indexer import build_index, parser_tag
from qusema.units.layout import detect_scope
from qusema.verify.localize import CoverageRun, localize, ochiai


def test_ochiai_by_hand():
    runs = [
        CoverageRun(passed=False, lines={"a.py": [1, 2, 3]}),
        CoverageRun(passed=True, lines={"a.py": [1, 2]}),
        CoverageRun(passed=True, lines={"a.py": [1]}),
    ]
    scores = ochiai(runs)
    assert scores[("a.py", 3)] == 1.0  # only the failing run executes it
    assert scores[("a.py", 2)] == pytest.approx(1 / math.sqrt(2))
    assert scores[("a.py", 1)] == pytest.approx(1 / math.sqrt(3))


def test_no_failing_run_localizes_nothing():
    assert ochiai([CoverageRun(passed=True, lines={"a.py": [1]})]) == {}


@pytest.fixture
def fixture_index(qfix_root: Path, tmp_path: Path) -> IndexDB:
    tree = tmp_path / "qfix"
    shutil.copytree(qfix_root, tree)
    db = IndexDB(tmp_path / "index.sqlite", parser_tag())
    build_index(tree, db, detect_scope(tree), workers=1)
    return db


def test_localize_picks_the_segment_only_failing_runs_execute(fixture_index: IndexDB):
    # Circuit.append (lines 39-42) runs in every run; Circuit._check (44-46) only fails.
    failing = CoverageRun(passed=False, lines={"qfix/circuit.py": [40, 41, 42, 45, 46]})
    passing = CoverageRun(passed=True, lines={"qfix/circuit.py": [40, 41, 42]})
    cause = localize([failing, passing], fixture_index)
    assert cause is not None
    assert cause.segment == "qfix.circuit.Circuit._check"
    assert (cause.file, cause.start_line, cause.end_line) == ("qfix/circuit.py", 44, 46)
    assert cause.score == 1.0


def test_a_tie_goes_to_the_segment_nearest_the_entry_api(fixture_index: IndexDB):
    # Both runs execute the same lines of Circuit.append (entry) and Circuit._check (its
    # callee): coverage cannot tell them apart, and _check has more lines at the top score.
    lines = {"qfix/circuit.py": [40, 45, 46]}
    runs = [CoverageRun(passed=False, lines=lines), CoverageRun(passed=True, lines=lines)]
    assert localize(runs, fixture_index).segment == "qfix.circuit.Circuit._check"  # no entry given
    entered = localize(runs, fixture_index, entry=["qfix.circuit.Circuit.append"])
    assert entered.segment == "qfix.circuit.Circuit.append"
    # An entry the tied segments are not reachable from leaves the line count to decide.
    assert localize(runs, fixture_index, entry=["qfix.gates.HGate.__init__"]).segment == "qfix.circuit.Circuit._check"
