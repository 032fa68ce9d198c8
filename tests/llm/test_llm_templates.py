"""Prompts rendered strictly; structured answers validated, malformed ones fed back."""

from __future__ import annotations

from pathlib import Path

import jinja2
import pydantic
import pytest

from qusema.llm.protocol import FormatErrorsExceeded, user
from qusema.llm.recording import RecordingModel
from qusema.llm.templates import AnswerParser, Prompts, ask_structured, extract_json


class Constraint(pydantic.BaseModel):
    law: str
    source: str


class Explanation(pydantic.BaseModel):
    summary: str
    constraints: list[Constraint] = pydantic.Field(min_length=1)


UNIT = {"name": "qiskit.circuit.library.RZGate.inverse", "kind": "method",
        "source": "def inverse(self):\n    return RZGate(-self.params[0])", "doc": "Return inverted RZ gate."}
GOOD = ('{"summary": "negates the angle", '
        '"constraints": [{"law": "U @ U.inverse() == I", "source": "quantum semantics"}]}')


def test_example_prompt_renders_as_messages() -> None:
    messages = Prompts().messages("examples/explain_unit.j2", library="qiskit", version="1.0.2", unit=UNIT,
                                  answer_schema=Explanation)
    assert [m.role for m in messages] == ["system", "user"]
    assert messages[0].content.startswith("You are a careful reviewer of the qiskit 1.0.2 source code.")
    assert "return RZGate(-self.params[0])" in messages[1].content
    assert '"constraints"' in messages[1].content and '"minItems": 1' in messages[1].content


def test_missing_variables_are_errors() -> None:
    with pytest.raises(jinja2.UndefinedError, match="version"):
        Prompts().messages("examples/explain_unit.j2", library="qiskit", unit=UNIT, answer_schema=Explanation)
    with pytest.raises(jinja2.UndefinedError, match="doc"):
        Prompts().render("examples/explain_unit.j2", library="qiskit", version="1", answer_schema=Explanation,
                         unit={k: v for k, v in UNIT.items() if k != "doc"})


def test_prompts_directory_is_overridable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "t.j2").write_text("Hello {{ who }}")
    monkeypatch.setenv("QUSEMA_PROMPTS", str(tmp_path))
    assert Prompts().render("t.j2", who="Bob") == "Hello Bob\n"


def test_json_is_found_in_prose_and_fences() -> None:
    assert extract_json('Sure:\n```json\n{"a": 1}\n```\nDone.') == '{"a": 1}'
    assert extract_json('Here: {"a": {"b": 2}} hope it helps') == '{"a": {"b": 2}}'


def test_malformed_answers_are_fed_back_and_recovered(api, serve, connect, store) -> None:
    server = serve([
        {"response": {"text": '{"summary": "negates the angle", "constraints": [{"law": "U U^-1 = I"'}},  # cut off
        {"match": {"last_message_contains": "could not be used"},
         "response": {"text": '{"summary": "negates", "constraints": []}'}},  # valid JSON, schema says no
        {"match": {"last_message_contains": "constraints: List should have at least 1 item"},
         "response": {"text": f"Here it is:\n```json\n{GOOD}\n```"}},
    ])
    store.start_run("r", "audit", "t", {})
    answer = ask_structured(RecordingModel(connect(api, server), store, "r"), [user("Explain RZGate.inverse")],
                            Explanation, max_consecutive_errors=3)
    assert answer.value.constraints[0].source == "quantum semantics"
    assert len(server.requests) == 3 and all(r.status == 200 for r in server.requests)
    feedback = answer.messages[2].content
    assert answer.messages[2].role == "user" and "JSON" in feedback and '"summary"' in feedback
    assert len(store.records("r", "exchange")) == 3


def test_consecutive_format_errors_are_capped(api, serve, connect) -> None:
    server = serve([{"response": {"text": "I think the gate is fine."}, "times": "always"}])
    with pytest.raises(FormatErrorsExceeded) as caught:
        ask_structured(connect(api, server), [user("Explain")], Explanation, max_consecutive_errors=2)
    assert len(server.requests) == 2
    assert caught.value.reason == "format_errors" and len(caught.value.details["errors"]) == 2


def test_a_valid_answer_resets_the_count() -> None:
    parser = AnswerParser(Explanation, max_consecutive_errors=2)
    with pytest.raises(ValueError):
        parser.parse("nope")
    parser.parse(GOOD)
    with pytest.raises(ValueError):
        parser.parse("nope again")  # one in a row, not two
    with pytest.raises(FormatErrorsExceeded):
        parser.parse("and again")


def test_tool_calls_in_a_structured_exchange_are_answered(serve, connect) -> None:
    """A model that calls a tool where none can run still gets an answer for the call
    (both wire formats require one) and is asked again."""
    server = serve([{"response": {"tool_calls": [{"name": "locate", "arguments": {"name": "x"}}]}},
                    {"match": {"conversation_contains": "no tools can be used here"}, "response": {"text": GOOD}}])
    answer = ask_structured(connect("openai", server), [user("Explain")], Explanation)
    assert answer.value.summary == "negates the angle"
    assert server.requests[1].body["messages"][2]["role"] == "tool"
