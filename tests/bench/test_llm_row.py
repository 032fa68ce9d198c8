"""The LLM row of the historical benchmark, end to end as a user runs it: `qusema bench run
--source llm --llm openai:gpt-4o --base-url ...` against a local model server with scripted
exchanges (the real OpenAI SDK over HTTP), the real sandbox on the real buggy releases, the
scorer's independent re-runs on the buggy and fixed releases, then `qusema bench table`.

Bugs: qiskit-12093 (qiskit 1.0.2, fixed in 1.1.0) and qiskit-13047 (qiskit 1.0.2, no fixed
release) are found and relocated; qiskit-10570 (qiskit 1.0.2) is not found, so the counts
can tell found from not found. The scripted model's answers name the bugs: they are
fixtures of the LLM path, not rules of the auditor.

The network guard of tests/llm/conftest.py (autouse here) fails any test whose model
traffic goes anywhere but the local server it started."""

from __future__ import annotations

import importlib.util
import json
import sqlite3
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from qusema.cli import main

_TESTS = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("qusema_tests_llm_guard_bench", _TESTS / "llm" / "conftest.py")
assert _spec is not None and _spec.loader is not None
_guard = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_guard)
model_network_guard = _guard.model_network_guard  # autouse: applies to every test of this module
serve = _guard.serve

sys.path.insert(0, str(_TESTS / "agent"))
import scripts

from qusema.agent.unit_selection import units_in_file
from qusema.targets.environments import cache_dir
from qusema.units.contextual_unit import build_unit
from qusema.units.index_db import IndexDB
from qusema.units.index_location import index_path

# Every scripted answer reports this usage, so cost and tokens are known in advance:
# gpt-4o at $2.50 / $10.00 per million input / output tokens.
USAGE = {"input_tokens": 10_000, "output_tokens": 1_000}
TOKENS_PER_EXCHANGE = 11_000
USD_PER_EXCHANGE = 10_000 * 2.5e-6 + 1_000 * 10e-6  # 0.035

SAMPLER_UNIT = "qiskit.primitives.statevector_sampler.StatevectorSampler._run_pub"
SAMPLER_FILE = "qiskit/primitives/statevector_sampler.py"
DAG_UNIT = "qiskit.converters.circuit_to_dag.circuit_to_dag"
EVOLVE = "qiskit.quantum_info.operators.symplectic.pauli.Pauli.evolve"

SAMPLER_TEST = '''import numpy as np
from qiskit import QuantumCircuit
from qiskit.primitives import StatevectorSampler

qc = QuantumCircuit(1)
qc.h(0)
qc.measure_all()
result = StatevectorSampler(seed=1234).run([qc, qc], shots=64).result()
first = result[0].data.meas.get_bitstrings()
second = result[1].data.meas.get_bitstrings()
observed = float(np.mean([a == b for a, b in zip(first, second)]))  # share of shots on which the two pubs agree
expected = 0.5  # two independent fair coin flips agree half the time

def check(value):
    assert abs(value - expected) < 0.2, f"the two pubs agree on {value:.2f} of the shots, expected about {expected}"

check(observed)
'''


def _paid(response: dict[str, Any]) -> dict[str, Any]:
    return {**response, "usage": dict(USAGE)}


def _sampler_claim(**extra: Any) -> dict[str, Any]:
    return {"law_id": "sampler.pubs-sampled-independently",
            "violated_constraint": "the pubs of one run() are sampled independently; a seed makes the run "
                                   "reproducible, it does not make the pubs copies of each other",
            "constraint_source": "documentation: StatevectorSampler.__init__ (seed)",
            "triggering_input": "StatevectorSampler(seed=1234).run([qc, qc], shots=64) with qc = H and measure",
            "predicted_behaviour": "every pub is reseeded with the same integer: both pubs get identical samples",
            "api": "qiskit.primitives.StatevectorSampler.run", "test_code": SAMPLER_TEST, **extra}


SAMPLER_TRIGGER = _sampler_claim(
    input_validity="documented",
    validity_evidence="seed: The seed or Generator object for random number generation.",
    explanation="StatevectorSampler._run_pub seeds the sampling of every pub with the sampler's integer seed, "
                "so the pubs of one run() call produce identical samples.")


def _stage2(unit: str) -> dict[str, Any]:
    return {"conversation_contains": f"Audit the unit `{unit}`", "last_role": "user"}


def _stage3(unit: str) -> dict[str, Any]:
    return {"conversation_contains": f"unit: `{unit}`", "last_message_contains": scripts.STAGE3}


def pauli_exchanges() -> list[dict[str, Any]]:
    """qiskit-12093: a tool call, the Stage II hypothesis, the Stage III trigger."""
    return [
        {"label": "12093 stage2: callers", "match": _stage2(scripts.UNIT),
         "response": _paid({"text": "", "tool_calls": [{"name": "list_callers",
                                                         "arguments": {"name": scripts.UNIT_SUFFIX}}]})},
        {"label": "12093 stage2: hypothesis", "match": {"conversation_contains": f"Audit the unit `{scripts.UNIT}`",
                                                        "last_role": "tool"},
         "response": _paid(scripts.defect(scripts.STAGE2_TEST))},
        {"label": "12093 stage3: trigger", "match": _stage3(scripts.UNIT),
         "response": _paid(scripts.answer(scripts.TRIGGER))},
    ]


def sampler_exchanges() -> list[dict[str, Any]]:
    """qiskit-13047: the Stage II hypothesis through StatevectorSampler.run, then the trigger."""
    return [
        {"label": "13047 stage2: hypothesis", "match": _stage2(SAMPLER_UNIT),
         "response": _paid(scripts.answer({"defect": _sampler_claim(), "no_defect_reason": None}))},
        {"label": "13047 stage3: trigger", "match": _stage3(SAMPLER_UNIT),
         "response": _paid(scripts.answer(SAMPLER_TRIGGER))},
    ]


def _bench(out: Path, work: Path, *args: str) -> Any:
    return CliRunner().invoke(main, ["bench", "run", "--source", "llm", "--llm", "openai:gpt-4o", "--runs", "1",
                                     "--out", str(out), "--work", str(work), *args], catch_exceptions=False)


def _json(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text())


def _records(run_dir: str | Path, kind: str) -> list[dict[str, Any]]:
    with sqlite3.connect(Path(run_dir) / "run.sqlite") as conn:
        return [json.loads(p) for (p,) in conn.execute("SELECT payload FROM records WHERE kind=? ORDER BY seq",
                                                       (kind,))]


@pytest.fixture
def key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")  # after the guard removed the real ones


def test_llm_row_end_to_end_through_bench_run_and_table(serve, key, tmp_path: Path):
    script = [*pauli_exchanges(), *sampler_exchanges(),
              {"label": "10570 stage2: nothing", "match": _stage2(DAG_UNIT),
               "response": _paid(scripts.no_defect("the conversion looks right"))}]
    server = serve(script)
    out, work = tmp_path / "results", tmp_path / "work"
    bugs = "qiskit-12093,qiskit-13047,qiskit-10570"
    result = _bench(out, work, "--base-url", server.openai_base_url, "--bugs", bugs)
    assert result.exit_code == 0, result.output
    assert server.unused() == [] and len(server.requests) == 6
    assert all(r.api == "openai" and r.status == 200 and r.api_key == "test-key" for r in server.requests)
    assert {r.body["model"] for r in server.requests} == {"gpt-4o"}
    assert "run 1: 2 identified, 2 relocated of 3 bugs" in result.output

    run_dir = out / "llm-unit" / "run-1"
    pauli, sampler, dag = (_json(run_dir / f"{b}.json") for b in bugs.split(","))
    assert (pauli["identified"], pauli["relocated"]) == (True, True)
    assert (sampler["identified"], sampler["relocated"]) == (True, True)
    assert (dag["identified"], dag["relocated"]) == (False, False) and dag["findings_in_run"] == 0
    # relocated by the scorer's own re-runs: fails on the buggy release, passes on the fixed one
    (matched,) = pauli["matching"]
    assert matched["api"] == "qiskit.quantum_info.Pauli.evolve" and matched["classification"] == "bug"
    assert matched["on_buggy"]["release"] == "qiskit==1.0.2" and matched["on_buggy"]["status"] == "assertion_failed"
    assert matched["on_fixed"]["release"] == "qiskit==1.1.0" and matched["on_fixed"]["status"] == "ok"
    (matched,) = sampler["matching"]
    assert matched["root_cause"]["segment"] == SAMPLER_UNIT and matched["on_fixed"] is None
    assert matched["on_buggy"]["status"] == "assertion_failed" and matched["relocates"]
    assert pauli["audit"]["llm"] == "openai:gpt-4o" and pauli["audit"]["ablation"] == "none"

    # the audit records: funnel, cost and tokens from the run store's exchanges
    audits = {b: _json(run_dir / f"audit-{b}.json") for b in bugs.split(",")}
    one = {"candidates": 1, "verified_defects": 1, "findings": 1, "api_triggers": 1, "final_reports": 1}
    assert audits["qiskit-12093"]["funnel"] == one and audits["qiskit-13047"]["funnel"] == one
    assert audits["qiskit-10570"]["funnel"] == dict.fromkeys(one, 0)
    for bug, exchanges in (("qiskit-12093", 3), ("qiskit-13047", 2), ("qiskit-10570", 1)):
        audit = audits[bug]
        assert audit["tokens"] == exchanges * TOKENS_PER_EXCHANGE
        assert audit["cost_usd"] == pytest.approx(exchanges * USD_PER_EXCHANGE)
        assert len(_records(audit["run_dir"], "exchange")) == exchanges
        assert audit["stop_reason"] == "complete" and audit["config"]["units"] == [audit["config"]["units_spec"]]
    assert audits["qiskit-13047"]["config"]["units"] == [SAMPLER_UNIT]

    table = CliRunner().invoke(main, ["bench", "table", "--out", str(out)], catch_exceptions=False)
    assert table.exit_code == 0, table.output
    assert "| llm | unit | 2 / 2 (3/20 bugs) | 2.00 | 2.00 | 0.21 | 66000 |" in table.output
    assert "| llm | unit | 2.00 | 2.00 | 2.00 | 2.00 |" in table.output  # the funnel, mean per run
    assert "| qiskit-12093 | `qiskit.quantum_info.Pauli.evolve` | R |" in table.output
    assert "| qiskit-10570 | `qiskit.converters.circuit_to_dag` | - |" in table.output
    row = _json(out / "table.json")["rows"][0]
    assert (row["source"], row["setting"], row["ablation"]) == ("llm", "unit", "none")
    assert row["total_tokens"] == 6 * TOKENS_PER_EXCHANGE

    # a second `bench run` redoes nothing: every (bug, run) is scored, no model call is made
    again = _bench(out, work, "--base-url", server.openai_base_url, "--bugs", bugs)
    assert again.exit_code == 0, again.output
    assert len(server.requests) == 6


def test_file_setting_gives_the_auditor_every_unit_of_the_containing_file(serve, key, tmp_path: Path):
    script = [*sampler_exchanges(),
              {"label": "other units: nothing", "match": {"conversation_contains": "Audit the unit `"},
               "response": _paid(scripts.no_defect()), "times": "always"}]
    server = serve(script)
    out, work = tmp_path / "results", tmp_path / "work"
    result = _bench(out, work, "--base-url", server.openai_base_url, "--bugs", "qiskit-13047", "--setting", "file")
    assert result.exit_code == 0, result.output
    with IndexDB(index_path(cache_dir(), "qiskit==1.0.2")) as db:
        in_file = units_in_file(db, SAMPLER_FILE)
    assert SAMPLER_UNIT in in_file and len(in_file) > 3
    audit = _json(out / "llm-file" / "run-1" / "audit-qiskit-13047.json")
    assert audit["config"]["units_spec"] == f"file:{SAMPLER_FILE}"
    assert audit["config"]["units"] == in_file  # every function and method of the file, in file order
    assert _records(audit["run_dir"], "agent_units")[0]["units"] == in_file
    assert len(server.requests) == len(in_file) - 1 + 2  # one answer per other unit; two for the bug's unit
    assert audit["funnel"]["candidates"] == 1 and audit["funnel"]["final_reports"] == 1
    score = _json(out / "llm-file" / "run-1" / "qiskit-13047.json")
    assert score["setting"] == "file" and score["relocated"]
    assert "each of its functions and methods as a unit" in score["audit"]["setting_note"]


def test_no_verification_ablation_accepts_a_false_claim_that_the_scorer_then_rejects(serve, key, tmp_path: Path):
    """A claim that is false on this release (an ordinary circuit name): with verification it
    is refuted (tests/agent); without it, it is accepted, counts as identified, and only the
    scorer's re-run keeps it from counting as relocated — what verification buys."""
    false_trigger = {**scripts.TRIGGER, "test_code": scripts.FALSE_TEST}
    server = serve([
        {"label": "false claim", "match": _stage2(scripts.UNIT), "response": _paid(scripts.defect(scripts.FALSE_TEST))},
        {"label": "false trigger", "match": _stage3(scripts.UNIT), "response": _paid(scripts.answer(false_trigger))},
    ])
    out, work = tmp_path / "results", tmp_path / "work"
    result = _bench(out, work, "--base-url", server.openai_base_url, "--bugs", "qiskit-12093",
                    "--ablation", "no-verification")
    assert result.exit_code == 0, result.output
    assert server.unused() == []
    run_dir = out / "llm-unit-no-verification" / "run-1"
    assert not (out / "llm-unit").exists()  # an ablation never mixes with the full row
    score = _json(run_dir / "qiskit-12093.json")
    assert score["audit"]["ablation"] == "no-verification"
    assert "accepted without running" in score["audit"]["setting_note"]
    assert (score["identified"], score["relocated"]) == (True, False)
    (matched,) = score["matching"]
    assert matched["verification"]["status"] == "not_run"
    assert matched["on_buggy"]["status"] == "ok"  # the scorer ran it: the claim was false
    audit = _json(run_dir / "audit-qiskit-12093.json")
    assert audit["config"]["agent"]["ablation"] == audit["config"]["ablation"] == "no-verification"
    assert audit["funnel"]["candidates"] == audit["funnel"]["verified_defects"] == 1
    assert _records(audit["run_dir"], "sandbox") == []  # nothing the model wrote was run during the audit
    assert [v["verification"]["status"] for v in _records(audit["run_dir"], "verification")] == ["not_run"] * 2

    table = CliRunner().invoke(main, ["bench", "table", "--out", str(out)], catch_exceptions=False)
    assert "| llm | unit, no-verification | 1 / 0 (1/20 bugs) | 1.00 | 0.00 | 0.07 | 22000 |" in table.output
    assert "| qiskit-12093 | `qiskit.quantum_info.Pauli.evolve` | I |" in table.output


def test_no_docs_ablation_renders_units_without_their_documentation(serve, key, tmp_path: Path):
    server = serve([
        {"label": "read a related unit", "match": _stage2(scripts.UNIT),
         "response": _paid({"text": "", "tool_calls": [{"name": "read_unit", "arguments": {"name": EVOLVE}}]})},
        {"label": "nothing", "match": {"last_role": "tool"}, "response": _paid(scripts.no_defect())},
    ])
    out, work = tmp_path / "results", tmp_path / "work"
    result = _bench(out, work, "--base-url", server.openai_base_url, "--bugs", "qiskit-12093", "--ablation", "no-docs")
    assert result.exit_code == 0, result.output
    assert server.unused() == []
    with IndexDB(index_path(cache_dir(), "qiskit==1.0.2")) as db:
        unit_doc = build_unit(db, scripts.UNIT).docs[0].text.splitlines()[0]
        evolve_doc = build_unit(db, EVOLVE).docs[0].text.splitlines()[0]
        assert unit_doc in build_unit(db, scripts.UNIT).render(4000)  # what the full auditor is shown
    assert unit_doc == "Update BasePauli inplace by applying a Clifford circuit."
    opening = json.dumps(server.requests[0].body, ensure_ascii=False)
    assert f"Audit the unit `{scripts.UNIT}`" in opening and "def _append_circuit" in opening
    assert unit_doc not in opening and "## documentation" not in opening  # neither section nor docstring
    tool_result = json.dumps(server.requests[1].body["messages"][-1], ensure_ascii=False)
    assert "def evolve" in tool_result and evolve_doc not in tool_result and "## documentation" not in tool_result
    score = _json(out / "llm-unit-no-docs" / "run-1" / "qiskit-12093.json")
    assert score["audit"]["ablation"] == "no-docs" and not score["identified"]
    assert "without their documentation" in score["audit"]["setting_note"]


@pytest.mark.parametrize(("args", "message"), [
    (["--source", "llm"], "needs the model: --llm PROVIDER:MODEL"),
    (["--source", "llm", "--llm", "openai:gpt-4o"], "OPENAI_API_KEY"),
    (["--source", "llm", "--llm", "anthropic:claude-sonnet-4-5"], "ANTHROPIC_API_KEY"),
    (["--source", "llm", "--llm", "gpt-4o"], "is not PROVIDER:MODEL"),
    (["--source", "contracts", "--llm", "openai:gpt-4o"], "are for --source llm"),
    (["--source", "contracts", "--ablation", "no-docs"], "no meaning for --source contracts"),
])
def test_the_llm_options_are_checked_before_anything_runs(tmp_path: Path, args: list[str], message: str):
    out, work = tmp_path / "results", tmp_path / "work"
    result = CliRunner().invoke(main, ["bench", "run", *args, "--bugs", "qiskit-12093", "--runs", "1",
                                       "--out", str(out), "--work", str(work)])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert not out.exists() and not work.exists()
