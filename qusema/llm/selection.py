"""Pick a Model by name: "openai:MODEL" or "anthropic:MODEL", optionally with a base URL.

A few OpenAI-compatible providers get a shorthand ("deepseek:deepseek-chat") that only
fills in their base URL and the variable their key is read from; everything else reaches
them as "openai:MODEL" with `base_url`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from qusema.llm.anthropic_model import AnthropicModel
from qusema.llm.openai_model import OpenAIModel
from qusema.llm.pricing import PriceTable
from qusema.llm.protocol import Model
from qusema.llm.retry import RetryPolicy


@dataclass(frozen=True)
class CompatibleProvider:
    base_url: str
    api_key_env: str


OPENAI_COMPATIBLE: Mapping[str, CompatibleProvider] = {
    "deepseek": CompatibleProvider("https://api.deepseek.com", "DEEPSEEK_API_KEY"),
    "openrouter": CompatibleProvider("https://openrouter.ai/api/v1", "OPENROUTER_API_KEY"),
    "ollama": CompatibleProvider("http://localhost:11434/v1", "OLLAMA_API_KEY"),
}


def model_from_spec(spec: str, base_url: str | None = None, *, api_key: str | None = None,
                    timeout_s: float = 120.0, retry: RetryPolicy | None = None, prices: PriceTable | None = None,
                    settings: Mapping[str, Any] | None = None) -> Model:
    provider, sep, model = spec.partition(":")
    if not sep or not model:
        raise ValueError(f"model spec {spec!r} is not PROVIDER:MODEL (e.g. openai:gpt-4o, anthropic:claude-sonnet-4-5)")
    common: dict[str, Any] = {"api_key": api_key, "timeout_s": timeout_s, "retry": retry, "prices": prices,
                              "settings": settings}
    if provider == "openai":
        return OpenAIModel(model, base_url=base_url, **common)
    if provider == "anthropic":
        return AnthropicModel(model, base_url=base_url, **common)
    if provider in OPENAI_COMPATIBLE:
        known = OPENAI_COMPATIBLE[provider]
        return OpenAIModel(model, base_url=base_url or known.base_url, api_key_env=known.api_key_env,
                           provider=provider, **common)
    names = ", ".join(["openai", "anthropic", *OPENAI_COMPATIBLE])
    raise ValueError(f"unknown model provider {provider!r} in {spec!r}; known: {names}")
