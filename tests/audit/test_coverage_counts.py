"""What an audit's summary counts as exercised (audit._count_units), on the real Qiskit 2.4.1
index and a real run store: a check's API, and the library calls a check made besides it (a
documented example's own lines, `entered`), but only of checks that judged an input."""

from pathlib import Path

import pytest

from qusema.audit import AuditSummary, _count_units, _ensure_index
from qusema.store import RunStore
from qusema.targets import default_cache_dir

pytestmark = pytest.mark.network

TARGET = "qiskit==2.4.1"
# two public methods, each named as the sandbox's tracer names a call: by its defining module
GLOBAL_PHASE = "qiskit.circuit.quantumcircuit.QuantumCircuit.global_phase"
DEPTH = "qiskit.circuit.quantumcircuit.QuantumCircuit.depth"


def _summary(tmp_path: Path, results: list[dict]) -> AuditSummary:
    db = _ensure_index(TARGET, default_cache_dir(), lambda message: None)
    store = RunStore(tmp_path / "run.sqlite")
    store.start_run("r", "audit", TARGET, {})
    for k, result in enumerate(results):
        store.finish_item("r", f"item{k}", result, 0.1)
    summary = AuditSummary(run_dir=tmp_path)
    _count_units(store, "r", "qiskit", db, summary)
    db.close()
    return summary


def test_the_calls_a_judged_example_made_are_exercised_entries(tmp_path: Path):
    bare = _summary(tmp_path / "a", [{"api": "qiskit.QuantumCircuit.h", "outcome": "holds", "examples": 1}])
    judged = _summary(tmp_path / "b", [{"api": "qiskit.QuantumCircuit.h", "outcome": "holds", "examples": 1,
                                        "entered": [GLOBAL_PHASE, DEPTH]}])
    assert judged.public_entries_exercised == bare.public_entries_exercised + 2
    assert judged.entry_units == bare.entry_units + 2


def test_the_calls_of_a_check_that_judged_nothing_are_not_exercised(tmp_path: Path):
    bare = _summary(tmp_path / "a", [{"api": "qiskit.QuantumCircuit.h", "outcome": "holds", "examples": 1}])
    refused = _summary(tmp_path / "b", [{"api": "qiskit.QuantumCircuit.h", "outcome": "holds", "examples": 1},
                                        {"api": "qiskit.QuantumCircuit.x", "outcome": "raised", "examples": 1,
                                         "entered": [GLOBAL_PHASE, DEPTH]}])
    assert refused.public_entries_exercised == bare.public_entries_exercised
