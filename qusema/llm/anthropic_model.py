"""A Model over the `anthropic` SDK's messages API."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

import anthropic

from qusema.llm.pricing import PriceTable
from qusema.llm.protocol import (AuthenticationFailed, Message, ModelError, ModelTurn, ToolCall, ToolSpec,
                                 TransientError, Usage)
from qusema.llm.retry import GarbledResponse, RetryPolicy, call_with_retries, error_for_status, sdk_kwargs

# The messages API requires max_tokens; this leaves room for a hypothesis with test code.
DEFAULT_MAX_TOKENS = 8192


class AnthropicModel:
    def __init__(self, model: str, *, base_url: str | None = None, api_key: str | None = None,
                 api_key_env: str = "ANTHROPIC_API_KEY", timeout_s: float = 120.0,
                 retry: RetryPolicy | None = None, prices: PriceTable | None = None,
                 settings: Mapping[str, Any] | None = None) -> None:
        key = api_key or os.environ.get(api_key_env)
        if not key:
            raise AuthenticationFailed(f"no API key for anthropic:{model}: set {api_key_env} or pass api_key")
        self.name = f"anthropic:{model}"
        self.model = model
        self.base_url = base_url
        self.settings: dict[str, Any] = {"max_tokens": DEFAULT_MAX_TOKENS, **(settings or {})}
        self.retry = retry or RetryPolicy()
        self.prices = prices or PriceTable.load()
        self.client = anthropic.Anthropic(api_key=key, base_url=base_url, timeout=timeout_s, max_retries=0)

    def complete(self, messages: Sequence[Message], tools: Sequence[ToolSpec] = ()) -> ModelTurn:
        system_text, wire = _wire_messages(messages)
        request: dict[str, Any] = {"model": self.model, "messages": wire, **self.settings}
        if system_text:
            request["system"] = system_text
        if tools:
            request["tools"] = [t.to_anthropic() for t in tools]
        (message, body), retries = call_with_retries(lambda: self._attempt(request), _classify,
                                                        (anthropic.APIError, GarbledResponse), self.retry)
        texts = [block.text for block in message.content if block.type == "text"]
        calls = tuple(ToolCall(id=block.id, name=block.name,
                               arguments=dict(block.input) if isinstance(block.input, Mapping) else {})
                      for block in message.content if block.type == "tool_use")
        usage = _usage(body.get("usage") or {})
        cost = self.prices.cost(self.name, usage)
        return ModelTurn(model=self.name, text="".join(texts), tool_calls=calls, usage=usage, cost_usd=cost.usd,
                         cost_note=cost.note, stop_reason=message.stop_reason or "", response_id=message.id or "",
                         raw=body, retries=tuple(retries))

    def _attempt(self, request: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        create = self.client.messages.with_raw_response.create
        raw = create(**sdk_kwargs(create, request))
        try:
            return raw.parse(), raw.http_response.json()
        except (anthropic.APIError, ValueError) as exc:
            raise GarbledResponse(f"unreadable response from {self.name}: {exc}") from exc


def _wire_messages(messages: Sequence[Message]) -> tuple[str, list[dict[str, Any]]]:
    """System text goes in its own field; tool results travel as user turns, and the API
    wants all results for one assistant turn in a single user message, so consecutive ones
    (and a user message right after them) are merged."""
    system_parts: list[str] = []
    wire: list[dict[str, Any]] = []
    for m in messages:
        if m.role == "system":
            system_parts.append(m.content)
            continue
        if m.role == "tool":
            block: dict[str, Any] = {"type": "tool_result", "tool_use_id": m.tool_call_id, "content": m.content}
            role, blocks = "user", [block]
        elif m.role == "assistant":
            blocks = [{"type": "text", "text": m.content}] if m.content else []
            blocks += [{"type": "tool_use", "id": c.id, "name": c.name, "input": c.arguments} for c in m.tool_calls]
            role = "assistant"
        else:
            role, blocks = "user", [{"type": "text", "text": m.content}]
        if wire and wire[-1]["role"] == role:
            wire[-1]["content"].extend(blocks)
        else:
            wire.append({"role": role, "content": blocks})
    return "\n\n".join(system_parts), wire


def _usage(usage: Mapping[str, Any]) -> Usage:
    return Usage(input_tokens=int(usage.get("input_tokens") or 0),
                 output_tokens=int(usage.get("output_tokens") or 0),
                 cache_read_tokens=int(usage.get("cache_read_input_tokens") or 0),
                 cache_write_tokens=int(usage.get("cache_creation_input_tokens") or 0))


def _classify(exc: Exception) -> ModelError:
    if isinstance(exc, anthropic.APITimeoutError):
        return TransientError(f"timed out: {exc}", kind="timeout")
    if isinstance(exc, anthropic.APIConnectionError):
        return TransientError(f"connection failed: {exc}", kind="connection")
    if isinstance(exc, anthropic.APIStatusError):
        return error_for_status(exc.status_code, exc.message, exc.response.headers, exc.body)
    kind = "garbled" if isinstance(exc, GarbledResponse) else "other"
    return TransientError(f"{type(exc).__name__}: {exc}", kind=kind)
