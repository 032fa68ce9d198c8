"""Every exchange recorded, every repeat free, every recorded run replayable.

`RecordingModel` logs each exchange (request, response, usage, cost, timing, retries,
error) to the run store as it happens and serves repeats of a request it has seen from the
store's content-addressed cache. `ReplayModel` answers from a recorded run alone — no
network, no cache — and refuses any request the run never made."""

from __future__ import annotations

import hashlib
import json
import time
from collections import defaultdict, deque
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from qusema.llm.protocol import (Message, Model, ModelError, ModelTurn, ToolSpec, UnrecordedRequest,
                                 error_from_dict)
from qusema.store import RunStore

EXCHANGE = "exchange"
_KEY_VERSION = "qusema-llm-v1"


def request_payload(model: str, settings: Mapping[str, Any], messages: Sequence[Message],
                    tools: Sequence[ToolSpec]) -> dict[str, Any]:
    return {"model": model, "settings": dict(settings), "messages": [m.to_dict() for m in messages],
            "tools": [t.to_dict() for t in tools]}


def request_key(request: Mapping[str, Any]) -> str:
    """Content address of a request. The base URL is left out on purpose: the same model
    asked the same thing through another gateway (or a test server on another port) is the
    same question."""
    canonical = json.dumps([_KEY_VERSION, request], sort_keys=True, separators=(",", ":"), default=str)
    return "llm:" + hashlib.sha256(canonical.encode()).hexdigest()


class RecordingModel:
    def __init__(self, inner: Model, store: RunStore, run_id: str, *, use_cache: bool = True) -> None:
        self.inner = inner
        self.store = store
        self.run_id = run_id
        self.use_cache = use_cache
        self.name = inner.name
        self.settings: Mapping[str, Any] = inner.settings

    def complete(self, messages: Sequence[Message], tools: Sequence[ToolSpec] = ()) -> ModelTurn:
        request = request_payload(self.name, self.settings, messages, tools)
        key = request_key(request)
        started = time.time()
        clock = time.perf_counter()
        hit = self.store.cached(key) if self.use_cache else None
        if hit is not None:
            turn = replace(ModelTurn.from_dict(hit), cached=True)
        else:
            try:
                turn = self.inner.complete(messages, tools)
            except ModelError as exc:
                # Recorded so the run shows what it was trying when it ended, and so a replay
                # ends the same way; errors are never cached, a later run should try again.
                self._record(key, request, None, exc, started, time.perf_counter() - clock)
                raise
            self.store.cache(key, replace(turn, cached=False).to_dict())
        self._record(key, request, turn, None, started, time.perf_counter() - clock)
        return turn

    def _record(self, key: str, request: dict[str, Any], turn: ModelTurn | None, error: ModelError | None,
                started: float, seconds: float) -> None:
        payload: dict[str, Any] = {"model": self.name, "request": request, "started": started,
                                   "seconds": round(seconds, 6)}
        if turn is not None:
            payload.update(response=turn.to_dict(), usage=turn.to_dict()["usage"], cost_usd=turn.cost_usd,
                           paid_usd=turn.paid_usd, cost_note=turn.cost_note, cache_hit=turn.cached,
                           retries=list(turn.retries))
        if error is not None:
            payload.update(error=error.to_dict(), cost_usd=0.0, paid_usd=0.0, cache_hit=False)
        self.store.record(self.run_id, EXCHANGE, key, payload)


class ReplayModel:
    """Answers exactly as a recorded run was answered. A request asked twice is answered
    in the order the run saw, so sampled models replay faithfully too."""

    def __init__(self, store: RunStore, run_id: str, name: str | None = None,
                 settings: Mapping[str, Any] | None = None) -> None:
        self.run_id = run_id
        self._by_key: dict[str, deque[dict[str, Any]]] = defaultdict(deque)
        self._requests: list[dict[str, Any]] = []
        for key, payload in store.records(run_id, EXCHANGE):
            self._by_key[key].append(payload)
            self._requests.append(payload["request"])
        if not self._requests:
            raise UnrecordedRequest(f"run {run_id} has no recorded model exchanges to replay")
        first = self._requests[0]
        self.name = name or first["model"]
        self.settings: Mapping[str, Any] = dict(settings if settings is not None else first["settings"])

    def complete(self, messages: Sequence[Message], tools: Sequence[ToolSpec] = ()) -> ModelTurn:
        request = request_payload(self.name, self.settings, messages, tools)
        key = request_key(request)
        queue = self._by_key.get(key)
        if not queue:
            raise UnrecordedRequest(f"run {self.run_id} never made this request ({key}); "
                                    f"{self._nearest(request)}", key=key)
        recorded = queue.popleft()
        if "error" in recorded:
            raise error_from_dict(recorded["error"])
        return ModelTurn.from_dict(recorded["response"])

    def _nearest(self, request: Mapping[str, Any]) -> str:
        """Where the conversation left the recorded ones, to make a divergence easy to find."""
        def shared(a: Mapping[str, Any]) -> int:
            n = 0
            for x, y in zip(a["messages"], request["messages"], strict=False):
                if x != y:
                    break
                n += 1
            return n
        best = max(self._requests, key=shared)
        n = shared(best)
        if best["model"] != request["model"] or best["settings"] != request["settings"]:
            return f"closest recorded request is for {best['model']} with settings {best['settings']}"
        if n < len(request["messages"]):
            return (f"the closest recorded request shares its first {n} message(s); message {n} differs: "
                    f"{json.dumps(request['messages'][n])[:300]}")
        return "its messages match a recorded request but the tools differ"
