from __future__ import annotations

import json
from typing import Literal

import pytest

from qusema.llm.protocol import ToolCall, system, user
from qusema.llm.tools import Toolbox, parse_docstring, tool_spec


def read_unit(name: str, depth: int = 1, kind: Literal["python", "rust"] = "python",
              callers: list[str] | None = None) -> str:
    """Read a unit of the audited library by its qualified name.

    Returns its source and documentation.

    Args:
        name: Qualified name, e.g. ``qiskit.circuit.QuantumCircuit.inverse``.
        depth: How many levels of callees to include;
            0 reads the unit alone.
        kind: Which language the unit is written in.
        callers: Restrict to these callers.
    """
    return f"source of {name} at depth {depth} ({kind}); callers={callers}"


def run_code(code: str, timeout_s: float) -> dict[str, object]:
    """Run code in the sandbox.

    :param code: A standalone Python program.
    :param timeout_s: Seconds before it is killed.
    :returns: status and output.
    """
    return {"status": "ok", "stdout": code.upper()}


def test_schema_comes_from_signature_and_docstring() -> None:
    spec = tool_spec(read_unit)
    assert spec.name == "read_unit"
    assert spec.description == ("Read a unit of the audited library by its qualified name.\n\n"
                                "Returns its source and documentation.")
    props = spec.parameters["properties"]
    assert spec.parameters["required"] == ["name"]
    assert props["name"] == {"type": "string",
                             "description": "Qualified name, e.g. ``qiskit.circuit.QuantumCircuit.inverse``."}
    assert props["depth"] == {"type": "integer", "default": 1,
                              "description": "How many levels of callees to include; 0 reads the unit alone."}
    assert props["kind"]["enum"] == ["python", "rust"] and props["kind"]["type"] == "string"
    assert props["callers"]["anyOf"] == [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]


def test_sphinx_docstrings_and_wire_shapes() -> None:
    spec = tool_spec(run_code)
    assert spec.description == "Run code in the sandbox."
    assert spec.parameters["properties"]["timeout_s"] == {"type": "number",
                                                          "description": "Seconds before it is killed."}
    assert spec.parameters["required"] == ["code", "timeout_s"]
    assert spec.to_openai() == {"type": "function", "function": {
        "name": "run_code", "description": "Run code in the sandbox.", "parameters": spec.parameters}}
    assert spec.to_anthropic() == {"name": "run_code", "description": "Run code in the sandbox.",
                                   "input_schema": spec.parameters}


def test_untyped_parameters_are_refused() -> None:
    def loose(x):  # type: ignore[no-untyped-def]
        """No types."""

    with pytest.raises(TypeError, match="no type hint"):
        tool_spec(loose)


def test_docstring_without_sections() -> None:
    assert parse_docstring("Just a line.\n\nAnd more.") == ("Just a line.\n\nAnd more.", {})


def test_toolbox_turns_bad_calls_into_messages_for_the_model() -> None:
    box = Toolbox([read_unit, run_code])
    ok = box.run(ToolCall("c1", "read_unit", {"name": "a.b", "depth": "2"}))
    assert ok.ok and ok.content == "source of a.b at depth 2 (python); callers=None"
    unknown = box.run(ToolCall("c2", "delete_everything", {}))
    assert not unknown.ok and "no tool 'delete_everything'" in unknown.content
    wrong = box.run(ToolCall("c3", "read_unit", {"name": "a.b", "kind": "cobol"}))
    assert not wrong.ok and "kind" in wrong.content
    missing = box.run(ToolCall("c4", "run_code", {"code": "x"}))
    assert not missing.ok and "timeout_s" in missing.content
    garbled = box.run(ToolCall("c5", "run_code", {}, raw_arguments='{"code": "x", '))
    assert not garbled.ok and "not a JSON object" in garbled.content
    structured = box.run(ToolCall("c6", "run_code", {"code": "hi", "timeout_s": 1}))
    assert json.loads(structured.content) == {"status": "ok", "stdout": "HI"}


def test_tool_round_trip_through_the_sdk(api, serve, connect) -> None:
    """The model asks for a tool, the toolbox runs it, and the result goes back in the
    provider's own format (OpenAI: a `tool` message; Anthropic: a `tool_result` block)."""
    server = serve([
        {"match": {"last_role": "user", "tools": ["read_unit", "run_code"]},
         "response": {"text": "Let me look.", "tool_calls": [
             {"name": "read_unit", "arguments": {"name": "qiskit.circuit.library.SXGate.inverse", "depth": 0}},
             {"name": "run_code", "arguments": {"code": "print(1)", "timeout_s": 2.5}}]}},
        {"match": {"last_role": "tool", "conversation_contains": "source of qiskit.circuit.library.SXGate.inverse"},
         "response": {"text": "The inverse drops the phase."}},
    ])
    model = connect(api, server)
    box = Toolbox([read_unit, run_code])
    conversation = [system("You audit quantum libraries."), user("Check SXGate.inverse")]
    first = model.complete(conversation, box.specs)
    assert first.text == "Let me look."
    assert [c.name for c in first.tool_calls] == ["read_unit", "run_code"]
    assert first.tool_calls[0].arguments == {"name": "qiskit.circuit.library.SXGate.inverse", "depth": 0}
    conversation.append(first.as_message())
    conversation += [box.run(call).as_message() for call in first.tool_calls]
    second = model.complete(conversation, box.specs)
    assert second.text == "The inverse drops the phase." and not second.tool_calls

    sent = server.requests[1].body
    assert sent is not None
    if api == "openai":
        assert sent["tools"][0]["function"]["name"] == "read_unit"
        assistant, result = sent["messages"][2], sent["messages"][3]
        assert assistant["tool_calls"][0]["id"] == first.tool_calls[0].id
        assert result == {"role": "tool", "tool_call_id": first.tool_calls[0].id,
                          "content": read_unit("qiskit.circuit.library.SXGate.inverse", depth=0)}
    else:
        assert sent["tools"][0]["input_schema"]["required"] == ["name"]
        assert sent["system"] == "You audit quantum libraries."
        assistant, results = sent["messages"][1], sent["messages"][2]
        assert assistant["content"][1] == {"type": "tool_use", "id": first.tool_calls[0].id, "name": "read_unit",
                                           "input": {"name": "qiskit.circuit.library.SXGate.inverse", "depth": 0}}
        # both results for one assistant turn travel in a single user message
        assert [b["tool_use_id"] for b in results["content"]] == [c.id for c in first.tool_calls]


def test_malformed_tool_arguments_survive_parsing(serve, connect) -> None:
    server = serve([{"response": {"tool_calls": [{"name": "run_code", "arguments": '{"code": "x", '}]}}])
    turn = connect("openai", server).complete([user("go")], Toolbox([run_code]).specs)
    assert turn.tool_calls[0].arguments == {} and turn.tool_calls[0].raw_arguments == '{"code": "x", '
    assert "not a JSON object" in Toolbox([run_code]).run(turn.tool_calls[0]).content
