"""Subjects listed by one audit of a release are what later audits of it work on, under the
same law code; a law that did not apply is asked again; a checkout is never cached."""

from dataclasses import replace
from pathlib import Path

import pytest

from qusema.audit import AUDIT_TOOLS, _work_items
from qusema.contracts.engine import ContractEngine, Subjects
from qusema.contracts.subject_cache import SubjectCache
from qusema.sandbox import open_sandbox
from qusema.store import RunStore
from qusema.targets.environments import EnvironmentStore

LAW = "qiskit.library.qft-is-dft"


def test_a_kept_list_is_read_back_and_a_law_that_did_not_apply_is_not_kept(tmp_path: Path):
    cache = SubjectCache(tmp_path / "subjects")
    assert cache.get(LAW) is None
    cache.put(LAW, Subjects(["QFT", "QFTGate"], {"QFT": "qiskit.circuit.library.QFT", "QFTGate": None}, None))
    assert cache.get(LAW) == Subjects(["QFT", "QFTGate"], {"QFT": "qiskit.circuit.library.QFT", "QFTGate": None},
                                      None)
    cache.put("other.law", Subjects([], {}, "listing subjects failed: timeout"))
    assert cache.get("other.law") is None  # a timeout under load must not stick
    (tmp_path / "subjects" / "cut.json").write_text('{"subjects": ["QF')  # a file cut short
    assert cache.get("cut") is None


@pytest.mark.network
@pytest.mark.release
def test_later_audits_of_a_release_work_on_the_kept_list(tmp_path: Path):
    env = EnvironmentStore().create("qiskit==2.4.1", tools=AUDIT_TOOLS)
    assert SubjectCache.for_environment(replace(env, source="checkout"), "qiskit") is None
    assert SubjectCache.for_environment(env, "qiskit").root.is_relative_to(env.root)
    cache = SubjectCache(tmp_path / "subjects")
    messages: list[str] = []
    with open_sandbox(env) as box, RunStore(tmp_path / "run.sqlite") as store:
        engine = ContractEngine(box, "qiskit")
        (law,) = [c for c in engine.catalog() if c.id == LAW]
        store.start_run("first", "audit", "qiskit==2.4.1", {})
        listed = {item.subject for item in _work_items(store, "first", engine, [law], messages.append, cache=cache)}
        assert listed and set(cache.get(LAW).names) == listed
        # A later audit reads the kept list, not the sandbox: drop one subject from it and
        # that audit no longer checks it; an audit without the cache still does.
        kept = cache.get(LAW)
        dropped = kept.names[0]
        cache.put(LAW, Subjects(kept.names[1:], kept.apis, None))
        store.start_run("second", "audit", "qiskit==2.4.1", {})
        again = {item.subject for item in _work_items(store, "second", engine, [law], messages.append, cache=cache)}
        assert again == listed - {dropped}
        assert any("as listed by an earlier audit" in m for m in messages), messages
        store.start_run("third", "audit", "qiskit==2.4.1", {})
        uncached = {item.subject for item in _work_items(store, "third", engine, [law], messages.append)}
        assert uncached == listed
