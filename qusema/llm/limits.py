"""Budgets as a Model wrapper: cost, step and wall-clock caps enforced before each call, as typed exits.

Wrappers nest, so a per-unit budget sits inside a per-run one:
`LimitedModel(LimitedModel(recording, run_limits), unit_limits)`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import time

from qusema.llm.protocol import (CostLimitExceeded, Message, Model, ModelTurn, RunEnded, StepLimitExceeded,
                                 TimeLimitExceeded, ToolSpec)
from qusema.store import RunStore


@dataclass(frozen=True)
class Limits:
    cost_usd: float | None = None  # None: no cap
    steps: int | None = None  # model calls
    seconds: float | None = None  # wall clock, from the wrapper's creation


class LimitedModel:
    """Counts what each turn costs at the price table, cached or not: a rerun or a replay
    of the same conversation then stops at the same step as the original did, which keeps
    replays byte-for-byte. What was actually paid is `paid_usd`."""

    def __init__(self, inner: Model, limits: Limits) -> None:
        self.inner = inner
        self.limits = limits
        self.name = inner.name
        self.settings: Mapping[str, Any] = inner.settings
        self.steps = 0
        self.cost_usd = 0.0
        self.paid_usd = 0.0
        self.started = time.monotonic()

    def complete(self, messages: Sequence[Message], tools: Sequence[ToolSpec] = ()) -> ModelTurn:
        # Checked before the call, as the turn that crossed the cap has already been paid for
        # and is worth handing back.
        if self.limits.steps is not None and self.steps >= self.limits.steps:
            raise StepLimitExceeded(f"step limit reached: {self.steps} model calls of {self.limits.steps} allowed",
                                    steps=self.steps, limit=self.limits.steps)
        if self.limits.cost_usd is not None and self.cost_usd >= self.limits.cost_usd:
            raise CostLimitExceeded(f"cost limit reached: ${self.cost_usd:.6f} of ${self.limits.cost_usd:.6f} spent",
                                    cost_usd=self.cost_usd, limit_usd=self.limits.cost_usd, steps=self.steps)
        elapsed = time.monotonic() - self.started
        if self.limits.seconds is not None and elapsed >= self.limits.seconds:
            raise TimeLimitExceeded(f"time limit reached: {elapsed:.1f} s of {self.limits.seconds:.1f} s",
                                    seconds=round(elapsed, 3), limit_s=self.limits.seconds, steps=self.steps)
        turn = self.inner.complete(messages, tools)
        self.steps += 1
        self.cost_usd += turn.cost_usd
        self.paid_usd += turn.paid_usd
        return turn


def record_stop(store: RunStore, run_id: str, exc: RunEnded, status: str = "stopped") -> None:
    """Close a run that a typed exit ended: its slug becomes the run's stop_reason and the
    whole story goes in a "stop" record."""
    store.record(run_id, "stop", exc.reason, exc.to_dict())
    store.finish_run(run_id, status, exc.reason)
