"""Price table: provider-reported usage → USD per call.

The table ships as package data (`prices.json`) and a user overrides or extends it with
their own file (`QUSEMA_PRICES` or an explicit path), merged entry by entry, because
published prices change faster than releases. Cost tracking must never stop an audit: a
model the table does not know (a local vLLM, a new release) costs 0 with a note saying so,
and the note is recorded with the exchange."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from qusema.llm.protocol import Usage

PRICES_ENV = "QUSEMA_PRICES"


@dataclass(frozen=True)
class Price:
    """USD per million tokens."""

    input: float
    output: float
    cache_read: float | None = None
    cache_write: float | None = None

    def cost(self, usage: Usage) -> float:
        per_token = 1e-6
        cache_read = self.input if self.cache_read is None else self.cache_read
        cache_write = self.input if self.cache_write is None else self.cache_write
        return per_token * (usage.input_tokens * self.input + usage.output_tokens * self.output
                            + usage.cache_read_tokens * cache_read + usage.cache_write_tokens * cache_write)

    @property
    def is_free(self) -> bool:
        return not any((self.input, self.output, self.cache_read, self.cache_write))


@dataclass(frozen=True)
class Cost:
    usd: float
    note: str | None = None


class PriceTable:
    def __init__(self, prices: Mapping[str, Price], source: str = "") -> None:
        self.prices = dict(prices)
        self.source = source

    @classmethod
    def load(cls, override: Path | None = None) -> "PriceTable":
        """The shipped table, with `override` (or the file named by QUSEMA_PRICES) merged over it."""
        shipped = json.loads(resources.files("qusema.llm").joinpath("prices.json").read_text())
        prices = _parse(shipped, "qusema/llm/prices.json")
        sources = ["qusema/llm/prices.json"]
        if override is None and os.environ.get(PRICES_ENV):
            override = Path(os.environ[PRICES_ENV])
        if override is not None:
            # A named override that cannot be read is a mistake the user must hear about,
            # unlike an unknown model, which is merely a gap in the table.
            prices.update(_parse(json.loads(override.read_text()), str(override)))
            sources.append(str(override))
        return cls(prices, source=" + ".join(sources))

    def lookup(self, model: str) -> Price | None:
        """`model` is "provider:id" or "id". Exact keys first, then the longest listed
        prefix of the id, so dated snapshots ("gpt-4o-2024-08-06") find their family."""
        provider, _, model_id = model.rpartition(":")
        candidates = [model, model_id] if provider else [model_id]
        for key in candidates:
            if key in self.prices:
                return self.prices[key]
        best = ""
        for key in self.prices:
            bare = key.rpartition(":")[2]
            if key.count(":") and provider and not key.startswith(provider + ":"):
                continue  # a price qualified for another provider
            if model_id.startswith(bare) and len(bare) > len(best.rpartition(":")[2]):
                best = key
        return self.prices[best] if best else None

    def cost(self, model: str, usage: Usage) -> Cost:
        if usage.reported_cost_usd is not None:
            return Cost(usage.reported_cost_usd, "cost as reported by the provider")
        price = self.lookup(model)
        if price is None:
            return Cost(0.0, f"no price for {model} in {self.source}; counted as 0 (add it with {PRICES_ENV})")
        if price.is_free:
            return Cost(0.0, f"{model} is free in {self.source}")
        return Cost(price.cost(usage))


def _parse(table: Mapping[str, Any], source: str) -> dict[str, Price]:
    models = table.get("models")
    if not isinstance(models, Mapping):
        raise ValueError(f"{source}: a price table needs a 'models' object")
    prices: dict[str, Price] = {}
    for name, entry in models.items():
        try:
            prices[name] = Price(**entry)
        except TypeError as exc:
            raise ValueError(f"{source}: bad price entry for {name!r}: {exc}") from None
    return prices
