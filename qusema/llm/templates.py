"""Prompts are data: Jinja templates under `prompts/`, rendered with StrictUndefined so a
missing variable is an error, never an empty hole in what the model reads. Answers that
must have a shape are validated against pydantic schemas; a malformed answer is fed back
to the model with the validation errors, and too many in a row end the conversation with
`FormatErrorsExceeded`.

A template may hold a whole conversation opening as blocks: `{% block system %}` and
`{% block user %}` become a system and a user message (`Prompts.messages`)."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

import jinja2
import pydantic

from qusema.llm.protocol import FormatErrorsExceeded, Message, Model, ModelTurn, ToolSpec, tool_result, user

PROMPTS_ENV = "QUSEMA_PROMPTS"
T = TypeVar("T", bound=pydantic.BaseModel)


def default_prompts_dir() -> Path:
    """QUSEMA_PROMPTS if set, else the repository's `prompts/` next to the package."""
    if os.environ.get(PROMPTS_ENV):
        return Path(os.environ[PROMPTS_ENV])
    return Path(__file__).resolve().parents[2] / "prompts"


class Prompts:
    def __init__(self, root: Path | None = None) -> None:
        self.root = root or default_prompts_dir()
        if not self.root.is_dir():
            raise FileNotFoundError(f"no prompts directory at {self.root} (set {PROMPTS_ENV})")
        self.env = jinja2.Environment(loader=jinja2.FileSystemLoader(self.root), undefined=jinja2.StrictUndefined,
                                      keep_trailing_newline=False, trim_blocks=True, lstrip_blocks=True,
                                      autoescape=False)  # prompts are not HTML; escaping would corrupt code
        self.env.filters["tojson"] = lambda value, indent=2: json.dumps(value, indent=indent, default=str)
        self.env.globals["answer_format"] = answer_format

    def render(self, name: str, **variables: Any) -> str:
        return self.env.get_template(name).render(**variables).strip() + "\n"

    def messages(self, name: str, **variables: Any) -> list[Message]:
        """The template's `system` and `user` blocks as messages, in that order."""
        template = self.env.get_template(name)
        context = template.new_context(variables)
        found = [role for role in ("system", "user") if role in template.blocks]
        if not found:
            raise ValueError(f"prompt {name} has neither a 'system' nor a 'user' block")
        return [Message(role, "".join(template.blocks[role](context)).strip() + "\n")  # type: ignore[arg-type]
                for role in found]


def answer_format(schema: type[pydantic.BaseModel]) -> str:
    """The JSON schema a structured answer must satisfy, as text for a prompt."""
    return json.dumps(schema.model_json_schema(), indent=2)


_FENCE = re.compile(r"```(?:json)?\s*\n(.*?)```", re.S)


def extract_json(text: str) -> str:
    """The JSON object in a model's answer: inside a ```json fence if there is one, else from
    the first `{` to the last `}`. Models wrap JSON in prose; this accepts that and nothing
    more lenient, so a truncated or broken object still fails validation."""
    if m := _FENCE.search(text):
        return m.group(1).strip()
    start, end = text.find("{"), text.rfind("}")
    return text[start:end + 1] if 0 <= start < end else text.strip()


def default_feedback(errors: str, schema: type[pydantic.BaseModel]) -> str:
    return (f"Your last answer could not be used: {errors}\n"
            f"Answer again with exactly one JSON object that matches this schema, and nothing else:\n"
            f"{answer_format(schema)}")


class AnswerFormatError(ValueError):
    """One malformed answer; `feedback` is what to tell the model."""

    def __init__(self, errors: str, feedback: str) -> None:
        super().__init__(errors)
        self.errors = errors
        self.feedback = feedback


class AnswerParser(Generic[T]):
    """Validates answers against `schema` and counts consecutive failures; a valid answer
    resets the count, so a model that stumbles now and then is not punished for it."""

    def __init__(self, schema: type[T], max_consecutive_errors: int = 3,
                 feedback: Callable[[str, type[pydantic.BaseModel]], str] = default_feedback) -> None:
        self.schema = schema
        self.max_consecutive_errors = max_consecutive_errors
        self.feedback = feedback
        self.consecutive_errors = 0
        self.errors: list[str] = []

    def parse(self, text: str) -> T:
        try:
            value = self.schema.model_validate_json(extract_json(text))
        except pydantic.ValidationError as exc:
            errors = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or '(answer)'}: {e['msg']}"
                               for e in exc.errors())
            self.consecutive_errors += 1
            self.errors.append(errors)
            if self.consecutive_errors >= self.max_consecutive_errors:
                raise FormatErrorsExceeded(
                    f"{self.consecutive_errors} malformed answers in a row for {self.schema.__name__}",
                    errors=self.errors[-self.consecutive_errors:], last_answer=text[:2000]) from None
            raise AnswerFormatError(errors, self.feedback(errors, self.schema)) from None
        self.consecutive_errors = 0
        return value


@dataclass
class StructuredAnswer(Generic[T]):
    value: T
    messages: list[Message]  # the whole conversation, ending with the accepted answer
    turns: list[ModelTurn] = field(default_factory=list)


def ask_structured(model: Model, messages: Sequence[Message], schema: type[T], *,
                   tools: Sequence[ToolSpec] = (), run_tool: Callable[[Any], Message] | None = None,
                   max_consecutive_errors: int = 3) -> StructuredAnswer[T]:
    """Ask until the answer validates against `schema`. Tool calls, when `run_tool` is given,
    are run and their results sent back; they are not format errors. Bound the number of
    calls with a LimitedModel: this loop ends only on a valid answer or a typed exit."""
    parser = AnswerParser(schema, max_consecutive_errors)
    conversation = list(messages)
    turns: list[ModelTurn] = []
    while True:
        turn = model.complete(conversation, tools)
        turns.append(turn)
        conversation.append(turn.as_message())
        if turn.tool_calls and run_tool is not None:
            conversation.extend(run_tool(call) for call in turn.tool_calls)
            continue
        # Both wire formats require an answer to every tool call before anything else.
        conversation.extend(tool_result(call, "error: no tools can be used here; give the answer")
                            for call in turn.tool_calls)
        try:
            value = parser.parse(turn.text)
        except AnswerFormatError as exc:
            conversation.append(user(exc.feedback))
            continue
        return StructuredAnswer(value, conversation, turns)
