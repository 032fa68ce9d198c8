"""A Model over the `openai` SDK's chat completions. One implementation covers every
OpenAI-compatible server by `base_url`: OpenAI itself, DeepSeek, OpenRouter, vLLM, Ollama,
LiteLLM proxies."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from typing import Any

import openai

from qusema.llm.pricing import PriceTable
from qusema.llm.protocol import (AuthenticationFailed, Message, ModelError, ModelTurn, ToolCall, ToolSpec,
                                 TransientError, Usage)
from qusema.llm.retry import GarbledResponse, RetryPolicy, call_with_retries, error_for_status, sdk_kwargs

# Local servers (vLLM, Ollama) accept any key, but the SDK insists on one being set.
_KEYLESS_PLACEHOLDER = "no-key-needed"


class OpenAIModel:
    def __init__(self, model: str, *, base_url: str | None = None, api_key: str | None = None,
                 api_key_env: str = "OPENAI_API_KEY", provider: str = "openai", timeout_s: float = 120.0,
                 retry: RetryPolicy | None = None, prices: PriceTable | None = None,
                 settings: Mapping[str, Any] | None = None) -> None:
        key = api_key or os.environ.get(api_key_env)
        if base_url is None and provider == "openai":
            base_url = os.environ.get("OPENAI_BASE_URL") or None  # the SDK's own convention, made explicit
        if not key:
            if base_url is None:
                raise AuthenticationFailed(f"no API key for {provider}:{model}: set {api_key_env} or pass api_key")
            key = _KEYLESS_PLACEHOLDER
        self.name = f"{provider}:{model}"
        self.model = model
        self.base_url = base_url
        self.settings: dict[str, Any] = dict(settings or {})
        self.retry = retry or RetryPolicy()
        self.prices = prices or PriceTable.load()
        self.client = openai.OpenAI(api_key=key, base_url=base_url, timeout=timeout_s, max_retries=0)

    def complete(self, messages: Sequence[Message], tools: Sequence[ToolSpec] = ()) -> ModelTurn:
        request: dict[str, Any] = {"model": self.model, "messages": [_wire_message(m) for m in messages],
                                   **self.settings}
        if tools:
            request["tools"] = [t.to_openai() for t in tools]
        (completion, body), retries = call_with_retries(lambda: self._attempt(request), _classify,
                                                        (openai.APIError, GarbledResponse), self.retry)
        return self._turn(completion, body, retries)

    def _turn(self, completion: Any, body: dict[str, Any], retries: list[dict[str, Any]]) -> ModelTurn:
        choice = completion.choices[0]
        calls = tuple(_tool_call(c) for c in (choice.message.tool_calls or ()) if c.type == "function")
        usage = _usage(body.get("usage") or {})
        cost = self.prices.cost(self.name, usage)
        return ModelTurn(model=self.name, text=choice.message.content or "", tool_calls=calls, usage=usage,
                         cost_usd=cost.usd, cost_note=cost.note, stop_reason=choice.finish_reason or "",
                         response_id=completion.id or "", raw=body, retries=tuple(retries))

    def _attempt(self, request: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        create = self.client.chat.completions.with_raw_response.create
        raw = create(**sdk_kwargs(create, request))
        try:
            completion, body = raw.parse(), raw.http_response.json()
        except (openai.APIError, ValueError) as exc:
            raise GarbledResponse(f"unreadable response from {self.name}: {exc}") from exc
        if not completion.choices:
            raise GarbledResponse(f"{self.name} answered with no choices")
        return completion, body


def _wire_message(message: Message) -> dict[str, Any]:
    if message.role == "tool":
        return {"role": "tool", "tool_call_id": message.tool_call_id, "content": message.content}
    wire: dict[str, Any] = {"role": message.role, "content": message.content}
    if message.tool_calls:
        wire["content"] = message.content or None
        wire["tool_calls"] = [{"id": c.id, "type": "function",
                               "function": {"name": c.name,
                                            "arguments": c.raw_arguments or json.dumps(c.arguments)}}
                              for c in message.tool_calls]
    return wire


def _tool_call(call: Any) -> ToolCall:
    raw = call.function.arguments or ""
    try:
        arguments = json.loads(raw) if raw.strip() else {}
    except json.JSONDecodeError:
        arguments = {}  # kept raw so the caller can tell the model its arguments were not JSON
    if not isinstance(arguments, dict):
        arguments = {}
    return ToolCall(id=call.id, name=call.function.name, arguments=arguments, raw_arguments=raw)


def _usage(usage: Mapping[str, Any]) -> Usage:
    prompt = int(usage.get("prompt_tokens") or 0)
    details = usage.get("prompt_tokens_details") or {}
    # OpenAI reports cached input inside prompt_tokens; DeepSeek reports hits and misses apart.
    cached = int(details.get("cached_tokens") or usage.get("prompt_cache_hit_tokens") or 0)
    reported = usage.get("cost")
    return Usage(input_tokens=max(0, prompt - cached), output_tokens=int(usage.get("completion_tokens") or 0),
                 cache_read_tokens=cached,
                 reported_cost_usd=float(reported) if isinstance(reported, (int, float)) else None)


def _classify(exc: Exception) -> ModelError:
    if isinstance(exc, openai.APITimeoutError):
        return TransientError(f"timed out: {exc}", kind="timeout")
    if isinstance(exc, openai.APIConnectionError):
        return TransientError(f"connection failed: {exc}", kind="connection")
    if isinstance(exc, openai.APIStatusError):
        return error_for_status(exc.status_code, exc.message, exc.response.headers, exc.body)
    kind = "garbled" if isinstance(exc, GarbledResponse) else "other"
    return TransientError(f"{type(exc).__name__}: {exc}", kind=kind)
