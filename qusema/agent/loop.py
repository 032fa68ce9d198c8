"""The agent loop, in one place: ask the model, run the tools it calls, feed results back,
until it gives an answer that validates against the schema. Limits are not counted here:
the model is a `LimitedModel`, whose typed exits end the loop and say why. Every step goes
to the run store as it happens (the trajectory), before the next one starts."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import pydantic

from qusema.llm.protocol import Message, Model, ModelTurn, tool_result, user
from qusema.llm.templates import AnswerFormatError, AnswerParser
from qusema.llm.tools import Toolbox

T = TypeVar("T", bound=pydantic.BaseModel)
STEP = "step"


@dataclass
class Trajectory:
    """Appends one `step` record per model turn, tool result and format error of one scope
    (a unit and stage). `record` is the run store's, bound to the run."""

    record: Callable[[str, str, dict[str, Any]], None]
    scope: str
    steps: int = 0

    def add(self, kind: str, **payload: Any) -> None:
        self.steps += 1
        self.record(STEP, f"{self.scope}#{self.steps}", {"scope": self.scope, "n": self.steps, "kind": kind,
                                                         **payload})

    def model(self, turn: ModelTurn) -> None:
        self.add("model", text=turn.text, tool_calls=[{"name": c.name, "arguments": c.arguments}
                                                      for c in turn.tool_calls],
                 usage=turn.to_dict()["usage"], cost_usd=turn.cost_usd, cached=turn.cached)


@dataclass
class Answer(Generic[T]):
    value: T
    messages: list[Message]  # the conversation, ending with the accepted answer


def ask(model: Model, messages: Sequence[Message], schema: type[T], trajectory: Trajectory,
        tools: Toolbox | None = None, max_format_errors: int = 3) -> Answer[T]:
    parser = AnswerParser(schema, max_format_errors)
    conversation = list(messages)
    while True:
        turn = model.complete(conversation, tools.specs if tools else ())
        trajectory.model(turn)
        conversation.append(turn.as_message())
        if turn.tool_calls:
            for call in turn.tool_calls:
                if tools is None:
                    result = tool_result(call, "error: no tools can be used here; give the answer")
                else:
                    outcome = tools.run(call)
                    trajectory.add("tool", name=call.name, arguments=call.arguments, ok=outcome.ok,
                                   content=outcome.content)
                    result = outcome.as_message()
                conversation.append(result)
            continue
        try:
            return Answer(parser.parse(turn.text), conversation)
        except AnswerFormatError as exc:  # FormatErrorsExceeded (a typed exit) passes through
            trajectory.add("format_error", errors=exc.errors)
            conversation.append(user(exc.feedback))
