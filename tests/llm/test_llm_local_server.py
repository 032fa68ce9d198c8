"""The local server itself: hand-written scripts, loud mismatches, started by hand."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from qusema.llm.local_server import LocalModelServer, load_script
from qusema.llm.protocol import RequestRejected, user
from qusema.llm.recording import RecordingModel

YAML_SCRIPT = """\
# a person wrote this
exchanges:
  - match: {api: anthropic, last_message_contains: "RZ"}
    response:
      text: "RZ is diagonal."
      usage: {input_tokens: 12, output_tokens: 4}
    label: anthropic answer
  - match: {api: openai}
    error: {kind: rate_limit, retry_after: 0}
  - match: {api: openai}
    response: {text: "after the wait"}
"""


def test_hand_written_yaml_script(tmp_path: Path, serve, connect) -> None:
    path = tmp_path / "script.yaml"
    path.write_text(YAML_SCRIPT)
    server = serve(path)
    assert connect("openai", server).complete([user("hello")]).text == "after the wait"
    assert connect("anthropic", server).complete([user("what is RZ?")]).text == "RZ is diagonal."
    assert [(r.api, r.status, r.exchange) for r in server.requests] == [
        ("openai", 429, "#1"), ("openai", 200, "#2"), ("anthropic", 200, "anthropic answer")]
    assert server.unused() == []


def test_a_request_off_script_fails_loudly(api, serve, connect) -> None:
    server = serve([{"match": {"last_message_contains": "expected"}, "response": {"text": "x"}}])
    with pytest.raises(RequestRejected, match="no scripted exchange matches request #0"):
        connect(api, server).complete([user("something else")])
    assert server.requests[0].exchange is None and len(server.unused()) == 1


def test_script_errors_are_caught_early() -> None:
    with pytest.raises(ValueError, match="exactly one of"):
        load_script([{"response": {"text": "a"}, "error": "auth"}])
    with pytest.raises(ValueError, match="unknown keys"):
        load_script([{"respons": {"text": "a"}}])
    with pytest.raises(ValueError, match="loopback"):
        LocalModelServer([], host="0.0.0.0")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start_by_hand(args: list[str], port: int) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    process = subprocess.Popen([sys.executable, "-m", "qusema.llm.local_server", *args, "--port", str(port)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    assert process.stdout is not None
    line = process.stdout.readline()  # the first line is printed once it listens
    assert line.startswith("serving"), line + process.stderr.read()
    return process


def test_started_by_hand(tmp_path: Path, connect, model_network_guard) -> None:
    script = tmp_path / "script.json"
    script.write_text(json.dumps([{"response": {"text": "from the command line"}}]))
    port = _free_port()
    model_network_guard.allow(port)
    process = _start_by_hand([str(script)], port)
    try:
        server = LocalModelServer([], port=port)  # only for its URLs; not started
        assert connect("openai", server).complete([user("hi")]).text == "from the command line"
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_a_recorded_run_can_be_served_back(tmp_path: Path, serve, connect, model_network_guard) -> None:
    """A recorded run served over HTTP: the SDK parses the provider's recorded bodies again."""
    from qusema.store import RunStore

    server = serve([{"response": {"text": "first"}}, {"response": {"text": "second"}}])
    with RunStore(tmp_path / "run.sqlite") as store:
        store.start_run("r", "audit", "t", {})
        model = RecordingModel(connect("anthropic", server), store, "r")
        originals = [model.complete([user("one")]), model.complete([user("two")])]
    port = _free_port()
    model_network_guard.allow(port)
    process = _start_by_hand(["--from-run", str(tmp_path / "run.sqlite"), "r"], port)
    try:
        again = connect("anthropic", LocalModelServer([], port=port))
        replayed = [again.complete([user("one")]), again.complete([user("two")])]
    finally:
        process.terminate()
        process.wait(timeout=10)
    assert [t.raw for t in replayed] == [t.raw for t in originals]
    assert [t.text for t in replayed] == ["first", "second"]


def test_the_documented_script_example_is_valid() -> None:
    import yaml

    doc = (Path(__file__).resolve().parents[2] / "docs" / "llm.md").read_text()
    block = doc.split("### Scripted-exchange format", 1)[1].split("```yaml\n", 1)[1].split("```", 1)[0]
    exchanges = load_script(yaml.safe_load(block))
    assert len(exchanges) == 12
    assert exchanges[-1].times is None and exchanges[9].delay_s == 30
