"""The model layer's vocabulary: provider-neutral messages and turns, the `Model` protocol
every implementation satisfies, and the typed exceptions that say why a call (or a run)
ended.

Messages are plain dataclasses rather than either provider's wire shapes so that the agent,
the recorder and the replayer never depend on which SDK answered; each implementation
translates at its own edge."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

Role = Literal["system", "user", "assistant", "tool"]


@dataclass(frozen=True)
class ToolCall:
    """A tool the model asked to run. `arguments` is the decoded JSON object; a model that
    sent something undecodable gets `{}` here and the raw text in `raw_arguments`, so the
    caller can feed the error back instead of crashing."""

    id: str
    name: str
    arguments: dict[str, Any]
    raw_arguments: str = ""

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "ToolCall":
        return cls(id=data["id"], name=data["name"], arguments=dict(data.get("arguments") or {}),
                   raw_arguments=data.get("raw_arguments", ""))


@dataclass(frozen=True)
class Message:
    role: Role
    content: str = ""
    tool_calls: tuple[ToolCall, ...] = ()  # assistant messages only
    tool_call_id: str | None = None  # tool messages only: which call this answers
    # tool messages: the tool's name (Anthropic does not need it, some OpenAI-compatible servers do)
    name: str | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"role": self.role, "content": self.content}
        if self.tool_calls:
            data["tool_calls"] = [asdict(c) for c in self.tool_calls]
        if self.tool_call_id is not None:
            data["tool_call_id"] = self.tool_call_id
        if self.name is not None:
            data["name"] = self.name
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Message":
        return cls(role=data["role"], content=data.get("content") or "",
                   tool_calls=tuple(ToolCall.from_dict(c) for c in data.get("tool_calls") or ()),
                   tool_call_id=data.get("tool_call_id"), name=data.get("name"))


def system(text: str) -> Message:
    return Message("system", text)


def user(text: str) -> Message:
    return Message("user", text)


def tool_result(call: ToolCall, content: str) -> Message:
    return Message("tool", content, tool_call_id=call.id, name=call.name)


@dataclass(frozen=True)
class ToolSpec:
    """A tool as the model sees it: name, description, JSON schema of its arguments."""

    name: str
    description: str
    parameters: dict[str, Any]

    def to_openai(self) -> dict[str, Any]:
        return {"type": "function",
                "function": {"name": self.name, "description": self.description, "parameters": self.parameters}}

    def to_anthropic(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description, "input_schema": self.parameters}

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Usage:
    """Tokens as the provider reported them, normalised: `input_tokens` excludes cached
    input (OpenAI counts it inside prompt_tokens, Anthropic does not), so each field is
    priced once."""

    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    reported_cost_usd: float | None = None  # some gateways (OpenRouter, LiteLLM) report the charge itself

    @property
    def total_tokens(self) -> int:
        return self.input_tokens + self.output_tokens + self.cache_read_tokens + self.cache_write_tokens


@dataclass(frozen=True)
class ModelTurn:
    """One answer. `cost_usd` is what the exchange costs at the price table (or as the
    provider reported); `cached` says that this time it was served from the response cache
    and so cost nothing, which `paid_usd` reflects."""

    model: str  # the spec, "provider:model"
    text: str
    tool_calls: tuple[ToolCall, ...] = ()
    usage: Usage = field(default_factory=Usage)
    cost_usd: float = 0.0
    cost_note: str | None = None  # why the cost is 0 or approximate (unknown model, free model…)
    stop_reason: str = ""
    response_id: str = ""
    raw: dict[str, Any] = field(default_factory=dict)  # the provider's response body, as received
    retries: tuple[dict[str, Any], ...] = ()  # what was retried before this answer, and how long we waited
    cached: bool = False

    @property
    def paid_usd(self) -> float:
        return 0.0 if self.cached else self.cost_usd

    def as_message(self) -> Message:
        """The turn as the assistant message to append to the conversation."""
        return Message("assistant", self.text, tool_calls=self.tool_calls)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["tool_calls"] = [asdict(c) for c in self.tool_calls]
        data["retries"] = list(self.retries)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "ModelTurn":
        return cls(model=data["model"], text=data.get("text", ""),
                   tool_calls=tuple(ToolCall.from_dict(c) for c in data.get("tool_calls") or ()),
                   usage=Usage(**data.get("usage") or {}), cost_usd=data.get("cost_usd", 0.0),
                   cost_note=data.get("cost_note"), stop_reason=data.get("stop_reason", ""),
                   response_id=data.get("response_id", ""), raw=dict(data.get("raw") or {}),
                   retries=tuple(data.get("retries") or ()), cached=data.get("cached", False))


@runtime_checkable
class Model(Protocol):
    """Anything that answers a conversation. `name` is the "provider:model" spec;
    `settings` are the request parameters that shape answers (temperature, max tokens…),
    part of what makes two requests the same for the response cache."""

    @property
    def name(self) -> str: ...

    @property
    def settings(self) -> Mapping[str, Any]: ...

    def complete(self, messages: Sequence[Message], tools: Sequence[ToolSpec] = ()) -> ModelTurn: ...


# -- why a call or a run ended ---------------------------------------------------------------

class RunEnded(Exception):
    """Base of every typed exit. `reason` is a stable slug for the run store's stop_reason;
    the message says the rest."""

    reason = "error"

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details = details

    def to_dict(self) -> dict[str, Any]:
        return {"type": type(self).__name__, "reason": self.reason, "message": self.message,
                "details": json.loads(json.dumps(self.details, default=str))}


class ModelError(RunEnded):
    """The provider could not answer."""

    reason = "model_error"


class RateLimited(ModelError):
    """Still rate limited after every retry the policy allows."""

    reason = "rate_limited"


class TransientError(ModelError):
    """Server errors, timeouts, dropped connections, garbled bodies: still failing after retries."""

    reason = "transient_error"


class AuthenticationFailed(ModelError):
    """No key, or the provider refused it. Retrying cannot help."""

    reason = "authentication_failed"


class ContextWindowExceeded(ModelError):
    """The conversation no longer fits the model. Retrying the same request cannot help."""

    reason = "context_window_exceeded"


class RequestRejected(ModelError):
    """Any other refusal (bad request, unknown model, no scripted answer): not retried."""

    reason = "request_rejected"


class UnrecordedRequest(ModelError):
    """A replay was asked something the recorded run never asked."""

    reason = "unrecorded_request"


class LimitExceeded(RunEnded):
    """A budget the caller set ran out."""

    reason = "limit"


class CostLimitExceeded(LimitExceeded):
    reason = "cost_limit"


class StepLimitExceeded(LimitExceeded):
    reason = "step_limit"


class TimeLimitExceeded(LimitExceeded):
    """The wall-clock budget ran out. Unlike cost and steps this depends on the machine,
    so a replay need not stop at the same place."""

    reason = "time_limit"


class FormatErrorsExceeded(LimitExceeded):
    """The model kept answering in a shape the schema rejects."""

    reason = "format_errors"


ERRORS_BY_NAME: dict[str, type[RunEnded]] = {
    cls.__name__: cls for cls in (
        RunEnded, ModelError, RateLimited, TransientError, AuthenticationFailed, ContextWindowExceeded,
        RequestRejected, UnrecordedRequest, LimitExceeded, CostLimitExceeded, StepLimitExceeded,
        TimeLimitExceeded, FormatErrorsExceeded)}


def error_from_dict(data: Mapping[str, Any]) -> RunEnded:
    """Rebuild a recorded exit, so a replay ends where and how the original run did."""
    cls = ERRORS_BY_NAME.get(data.get("type", ""), ModelError)
    return cls(data.get("message", ""), **dict(data.get("details") or {}))
