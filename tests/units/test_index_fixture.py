"""The whole Stage I index of the fixture library, through the command line a user runs.
Expected values were read off the fixture's Python and Rust source by hand."""

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from qusema.cli import main


def run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture
def indexed(qfix_root: Path, tmp_path: Path) -> tuple[Path, str]:
    tree = tmp_path / "qfix"
    shutil.copytree(qfix_root, tree)
    cache = str(tmp_path / "cache")
    run("index", str(tree), "--cache-dir", cache, "--quiet")
    return tree, cache


def test_python_calls_link_to_the_rust_functions_behind_pyo3(indexed):
    _, cache = indexed
    callees = json.loads(run("callees", "qfix.circuit.Circuit.shifted", "--cache-dir", cache, "--json"))["callees"]
    by_text = {c["callee_text"]: c for c in callees}
    assert by_text["apply_phase"]["target"] == "qfix_core::phase::apply_phase"
    assert by_text["apply_phase"]["via"] == "pyo3"
    init = json.loads(run("callees", "qfix.circuit.Circuit.__init__", "--cache-dir", cache, "--json"))["callees"]
    assert {c["callee_text"]: c["target"] for c in init}["PhaseTable"] == "qfix_core::table::PhaseTable::py_new"
    phase = json.loads(run("callees", "Circuit.global_phase", "--cache-dir", cache, "--json"))["callees"]
    assert {c["callee_text"]: c["target"] for c in phase}["self._table.lookup"] == "qfix_core::table::PhaseTable::lookup"


def test_callers_of_a_rust_function_reach_a_public_api(indexed):
    _, cache = indexed
    out = json.loads(run("callers", "qfix_core::phase::apply_phase", "--to-public", "--cache-dir", cache, "--json"))
    chains = [tuple(c["chain"]) for c in out["chains"]]
    assert ("qfix_core::phase::apply_phase", "qfix.circuit.Circuit.shifted") in chains
    assert "qfix.Circuit.shifted" in out["chains"][0]["public_names"]


def test_private_helper_reaches_the_public_method_that_calls_it(indexed):
    _, cache = indexed
    out = json.loads(run("callers", "Circuit._check", "--to-public", "--cache-dir", cache, "--json"))
    assert out["chains"][0]["chain"] == ["qfix.circuit.Circuit._check", "qfix.circuit.Circuit.append"]


def test_unit_documentation_names_its_origins(indexed):
    _, cache = indexed
    unit = json.loads(run("unit", "qfix.gates.RZGate.inverse", "--cache-dir", cache, "--json"))
    origins = [(d["source"], d["origin"]) for d in unit["docs"]]
    assert origins == [
        ("docstring", "qfix.gates.RZGate.inverse"),
        ("base class method docstring", "qfix.circuit.Gate.inverse"),
        ("base class docstring", "qfix.circuit.Gate"),
    ]
    assert unit["public_names"] == ["qfix.RZGate.inverse"]
    bare = json.loads(run("unit", "qfix.gates.bell", "--cache-dir", cache, "--json"))
    assert bare["docs"] == [] and bare["docs_searched"] == ["the definition itself"]
    text = run("unit", "qfix.gates.bell", "--cache-dir", cache)
    assert "none found (searched: the definition itself)" in text


def test_rust_unit_gets_the_docs_of_its_python_interface(indexed):
    _, cache = indexed
    unit = json.loads(run("unit", "qfix_core::table::PhaseTable::lookup", "--cache-dir", cache, "--json"))
    assert ("python interface class docstring", "qfix.circuit.Circuit") in \
        [(d["source"], d["origin"]) for d in unit["docs"]]
    assert [e["python_name"] for e in unit["pyo3"]] == ["qfix._native.phase.PhaseTable.lookup"]


def test_public_api_map_comes_from_all_and_autosummary(indexed):
    tree, cache = indexed
    import sqlite3

    (db_file,) = (Path(cache) / "index").glob("*.sqlite")
    rows = set(sqlite3.connect(db_file).execute("SELECT public_name, qualname FROM public_api"))
    assert ("qfix.Circuit", "qfix.circuit.Circuit.__init__") in rows
    assert ("qfix.BaseGate.label", "qfix.circuit.Gate.label") in rows
    assert ("qfix.HGate.label", "qfix.circuit.Gate.label") in rows  # inherited, called through HGate
    assert ("qfix.phase_of", "qfix.analysis.phases.phase_of") in rows  # only in the autosummary
    assert ("qfix.analysis.rz_phase", "qfix.analysis.phases.rz_phase") in rows  # an autofunction directive
    # a package without __all__ exports its public names, re-exports included
    assert ("qfix.analysis.phase_of", "qfix.analysis.phases.phase_of") in rows
    assert not any(name.endswith("._check") for name, _ in rows)  # private stays private


def test_token_budget_cuts_with_a_marker(indexed):
    from qusema.units.contextual_unit import CHARS_PER_TOKEN, build_unit
    from qusema.units.index_db import IndexDB

    _, cache = indexed
    (db_file,) = (Path(cache) / "index").glob("*.sqlite")
    with IndexDB(db_file) as db:
        unit = build_unit(db, "qfix.circuit.Circuit.global_phase")
    assert unit.public_names == ["qfix.Circuit.global_phase"]  # declared twice (__all__, autosummary), named once
    full = unit.render(token_budget=10_000)
    assert "cut to fit the token budget" not in full and "return accumulate(" in full
    budget = 80
    assert len(full) > budget * CHARS_PER_TOKEN  # the whole unit does not fit: something must be cut
    small = unit.render(token_budget=budget)
    assert "cut to fit the token budget" in small
    assert len(small) <= budget * CHARS_PER_TOKEN + 10  # part separators only
    assert small.startswith("# qfix.circuit.Circuit.global_phase")  # the header is kept first


def test_reindex_reparses_only_the_changed_file(indexed):
    tree, cache = indexed
    gates = tree / "qfix" / "gates.py"
    gates.write_text(gates.read_text().replace("return qc\n", "qc.append(HGate())\n    return qc\n"))
    out = json.loads(run("index", str(tree), "--cache-dir", cache, "--json", "--quiet"))
    assert out["run"]["parsed"] == 1 and out["run"]["reused"] == 10
    callees = json.loads(run("callees", "qfix.gates.bell", "--cache-dir", cache, "--json"))["callees"]
    assert [c["target"] for c in callees].count("qfix.circuit.Circuit.append") == 2
    again = json.loads(run("index", str(tree), "--cache-dir", cache, "--json", "--quiet"))
    assert again["run"]["up_to_date"]


def test_ambiguous_and_unknown_names_say_so(indexed):
    _, cache = indexed
    result = CliRunner().invoke(main, ["unit", "inverse", "--cache-dir", cache])
    assert result.exit_code != 0 and "ambiguous" in result.output
    result = CliRunner().invoke(main, ["unit", "no_such_function", "--cache-dir", cache])
    assert result.exit_code != 0 and "no segment named" in result.output
