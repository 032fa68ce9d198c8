"""The agent end to end through both SDKs (OpenAI and Anthropic wire formats) against a
local model server with scripted exchanges, on the real qiskit 1.0.2 release in the real
sandbox: Stage II and III to a verified bug; a false claim refuted; a check that cannot fail
rejected; malformed answers recovered from or ended as recorded; rate limits and timeouts
retried; a cost cap stopping the run; a recorded run replayed byte for byte offline."""

from __future__ import annotations

import sqlite3
import subprocess
from pathlib import Path

import scripts
from click.testing import CliRunner
from records import findings, records, run_row

from qusema.agent.cli_commands import replay_command
from qusema.audit import AUDIT_TOOLS
from qusema.targets.environments import EnvironmentStore


def _python(spec: str, tools: tuple[str, ...] = AUDIT_TOOLS) -> Path:
    return EnvironmentStore().create(spec, tools=tools).python


def _run(python: Path, code: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(python), "-W", "ignore", "-c", code], check=False, capture_output=True, text=True, timeout=300)


def test_stage2_and_stage3_reach_a_verified_bug(api, run_agent):
    summary, server, _ = run_agent(api, scripts.bug_script())
    assert [r.api for r in server.requests] == [api] * 3 and server.unused() == []
    assert all(r.status == 200 for r in server.requests)
    assert summary.stop_reason == "complete" and summary.outcomes == {"bug": 1}
    (finding,) = findings(summary.run_dir)
    h = finding["hypothesis"]
    assert finding["classification"] == "bug", finding["classification_reason"]
    assert h["origin"] == "llm" and h["api"] == "qiskit.quantum_info.Pauli.evolve" and h["details"]["stage"] == 3
    assert h["unit"] == scripts.UNIT and finding["root_cause"]["segment"] == scripts.UNIT
    assert finding["verification"]["verdict"] == "reproduced" and finding["verification"]["adequacy"] > 0
    # the Stage III chain walked from the unit to the public API's segment
    assert h["details"]["chain"][0] == scripts.UNIT and h["details"]["chain"][-1].endswith("Pauli.evolve")
    # the reproducer, standalone, fails on the buggy release and passes where it is fixed
    buggy = _run(_python(scripts.TARGET), h["test_code"])
    assert buggy.returncode != 0 and "AssertionError" in buggy.stderr
    fixed = _run(_python(scripts.FIXED, ()), h["test_code"])
    assert fixed.returncode == 0, fixed.stderr[-2000:]
    # every step was recorded: the tool call and its result, three exchanges, both verifications
    steps = records(summary.run_dir, "step")
    assert [s["kind"] for s in steps] == ["model", "tool", "model", "model"]
    assert steps[1]["name"] == "list_callers" and "qiskit.quantum_info.Pauli.evolve" in steps[1]["content"]
    assert len(records(summary.run_dir, "exchange")) == 3
    assert [v["stage"] for v in records(summary.run_dir, "verification")] == [2, 3]
    assert list((summary.run_dir / "drafts").glob("bug-*.md"))


def test_a_false_defect_is_refuted_by_verification(api, run_agent):
    script = [{"label": "false claim", "match": {"conversation_contains": scripts.STAGE2, "last_role": "user"},
               "response": scripts.defect(scripts.FALSE_TEST)},
              {"label": "gives up", "match": {"last_message_contains": scripts.REVISE2},
               "response": scripts.no_defect("the test passed; the claim was wrong")}]
    summary, server, _ = run_agent(api, script)
    assert server.unused() == []
    assert "verdict: refuted" in str(server.requests[1].body)
    assert findings(summary.run_dir) == []
    (verification,) = records(summary.run_dir, "verification")
    assert verification["verification"]["verdict"] == "refuted"
    assert verification["adequacy"]["detected"] > 0  # the check was a real one: the library is right here
    (verdict,) = records(summary.run_dir, "agent_verdict")
    assert verdict["classification"] == "not bug" and "refuted" in verdict["reason"]
    assert summary.outcomes == {"not reproduced (refuted)": 1}


def test_an_assertion_that_cannot_fail_is_rejected_by_the_adequacy_check(api, run_agent):
    script = [{"label": "vacuous check", "match": {"conversation_contains": scripts.STAGE2, "last_role": "user"},
               "response": scripts.defect(scripts.VACUOUS_TEST)},
              {"label": "gives up", "match": {"last_message_contains": scripts.REVISE2},
               "response": scripts.no_defect()}]
    summary, server, _ = run_agent(api, script)
    (verification,) = records(summary.run_dir, "verification")
    assert verification["verification"]["verdict"] == "inadequate"
    adequacy = verification["adequacy"]
    assert adequacy["detected"] == 0 and adequacy["relevant"] > 0 and adequacy["baseline_passes"]
    assert "cannot fail" in adequacy["reason"]
    assert "cannot fail" in str(server.requests[1].body)  # the model was told why
    assert findings(summary.run_dir) == []
    assert records(summary.run_dir, "agent_verdict")[0]["classification"] == "not bug"


def test_a_malformed_answer_is_fed_back_and_the_model_recovers(api, run_agent):
    script = [{"label": "broken json", "match": {"conversation_contains": scripts.STAGE2, "last_role": "user"},
               "response": {"text": '```json\n{"defect": {"law_id": "x", "violated_constr\n```'}},
              {"label": "fixed", "match": {"last_message_contains": scripts.FORMAT_ERROR},
               "response": scripts.no_defect()}]
    summary, server, _ = run_agent(api, script)
    assert server.unused() == []
    kinds = [s["kind"] for s in records(summary.run_dir, "step")]
    assert kinds == ["model", "format_error", "model"]
    assert summary.stop_reason == "complete" and summary.outcomes == {"no defect claimed": 1}


def test_malformed_answers_in_a_row_end_the_unit_as_recorded(api, run_agent):
    script = [{"label": "always broken", "response": {"text": "I think there is a bug {not json"},
               "times": "always"}]
    summary, server, _ = run_agent(api, script, max_format_errors=3)
    assert len(server.requests) == 3
    (stop,) = records(summary.run_dir, "unit_stop")
    assert stop["reason"] == "format_errors" and stop["type"] == "FormatErrorsExceeded"
    assert summary.outcomes == {"stopped: format_errors": 1}


def test_rate_limit_and_timeout_responses_are_retried(api, run_agent):
    script = [{"label": "429", "error": {"kind": "rate_limit", "retry_after_ms": 30}},
              {"label": "too slow", "response": scripts.no_defect(), "delay_s": 2.5},
              {"label": "answer", "response": scripts.no_defect()}]
    summary, server, _ = run_agent(api, script, model_kwargs={"timeout_s": 1.0})
    assert [r.exchange for r in server.requests][:2] == ["429", "too slow"]
    (exchange,) = records(summary.run_dir, "exchange")
    assert [r["error"]["reason"] for r in exchange["retries"]] == ["rate_limited", "transient_error"]
    assert exchange["retries"][1]["error"]["details"]["kind"] == "timeout"
    assert summary.outcomes == {"no defect claimed": 1}


def test_a_cost_cap_stops_the_run_with_the_reason_recorded(api, run_agent):
    expensive = {"text": "", "tool_calls": [{"name": "read_unit", "arguments": {"name": "Pauli.evolve"}}],
                 "usage": {"input_tokens": 200_000, "output_tokens": 100}}
    script = [{"label": "expensive", "response": expensive},
              {"label": "never asked", "response": scripts.no_defect()}]
    summary, server, _ = run_agent(api, script, run_cost_usd=0.10)
    assert len(server.requests) == 1  # the second call was refused before it was made
    assert summary.stop_reason == "cost_limit"
    assert run_row(summary.run_dir) == ("stopped", "cost_limit")
    (stop,) = records(summary.run_dir, "stop")
    assert stop["reason"] == "cost_limit" and stop["details"]["scope"] == "run"
    assert stop["details"]["cost_usd"] >= 0.10
    with sqlite3.connect(summary.run_dir / "run.sqlite") as conn:
        assert conn.execute("SELECT count(*) FROM work").fetchone() == (0,)  # the unit resumes later


def test_replay_reproduces_the_findings_byte_for_byte_without_a_network(run_agent, model_network_guard):
    summary, server, _ = run_agent("openai", scripts.bug_script())
    server.stop()
    model_network_guard.allowed_ports.clear()  # from here on, no model server at all
    original = (summary.run_dir / "findings.json").read_bytes()
    result = CliRunner().invoke(replay_command, [str(summary.run_dir)])
    assert result.exit_code == 0, result.output
    assert "findings.json: identical" in result.output and "findings.sarif: identical" in result.output
    assert (summary.run_dir / "replay" / "findings.json").read_bytes() == original
    # the replay is a real check: a recorded answer that no longer matches makes it fail
    with sqlite3.connect(summary.run_dir / "run.sqlite") as conn:
        conn.execute("DELETE FROM records WHERE seq = (SELECT max(seq) FROM records WHERE kind='exchange')")
    tampered = CliRunner().invoke(replay_command, [str(summary.run_dir)])
    assert tampered.exit_code == 1 and "findings.json: DIFFERS" in tampered.output


def test_the_audit_command_runs_the_agent_beside_the_contract_engine(serve, tmp_path, monkeypatch):
    """As a user runs it: `qusema audit --llm ... --base-url ...`, key from the environment."""
    from qusema.cli import main

    server = serve(scripts.bug_script())
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    out = tmp_path / "reports"
    result = CliRunner().invoke(main, [
        "audit", scripts.TARGET, "--out", str(out), "--contracts", "no.contract.matches.this", "--workers", "1",
        "--llm", "openai:gpt-4o", "--base-url", server.openai_base_url, "--units", scripts.UNIT_SUFFIX,
        "--llm-concurrency", "1"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert server.unused() == []
    (run_dir,) = (out / "qiskit-1.0.2").iterdir()
    (finding,) = findings(run_dir)
    assert finding["classification"] == "bug" and finding["hypothesis"]["origin"] == "llm"
    assert "findings: 1" in result.output
