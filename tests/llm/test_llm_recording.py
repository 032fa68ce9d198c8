"""Every exchange on record; repeats free; recorded runs replay byte for byte offline;
budgets end runs as typed, recorded exits."""

from __future__ import annotations

import json

import pytest

from qusema.llm.limits import LimitedModel, Limits, record_stop
from qusema.llm.protocol import (ContextWindowExceeded, CostLimitExceeded, StepLimitExceeded, TimeLimitExceeded,
                                 UnrecordedRequest,
                                 system, user)
from qusema.llm.recording import RecordingModel, ReplayModel
from qusema.llm.tools import Toolbox


def locate(name: str) -> str:
    """Find a unit.

    Args:
        name: What to look for.
    """
    return f"found {name}"


SCRIPT = [
    {"response": {"text": "", "tool_calls": [{"name": "locate", "arguments": {"name": "RZGate"}}],
                  "usage": {"input_tokens": 100_000, "output_tokens": 1000}}},
    {"response": {"text": "RZGate.inverse negates the angle.",
                  "usage": {"input_tokens": 120_000, "output_tokens": 2000}}},
]


def conversation_run(model) -> list[dict]:
    """A tiny tool loop standing in for the agent: it is what gets recorded and replayed."""
    box = Toolbox([locate])
    messages = [system("You audit."), user("Look at RZGate.")]
    turns = []
    while True:
        turn = model.complete(messages, box.specs)
        turns.append(turn.to_dict())
        messages.append(turn.as_message())
        if not turn.tool_calls:
            return turns
        messages += [box.run(c).as_message() for c in turn.tool_calls]


def test_every_exchange_is_recorded(api, serve, connect, store) -> None:
    server = serve(SCRIPT)
    store.start_run("r1", "audit", "qiskit==1.0.2", {})
    turns = conversation_run(RecordingModel(connect(api, server), store, "r1"))
    exchanges = store.records("r1", "exchange")
    assert len(exchanges) == 2 == len(turns)
    key, first = exchanges[0]
    assert key.startswith("llm:")
    assert first["request"]["messages"][1] == {"role": "user", "content": "Look at RZGate."}
    assert first["request"]["tools"][0]["name"] == "locate"
    assert first["response"]["tool_calls"][0]["name"] == "locate"
    assert first["usage"]["input_tokens"] == 100_000
    assert first["cost_usd"] > 0 and first["paid_usd"] == first["cost_usd"] and not first["cache_hit"]
    assert first["seconds"] > 0 and first["started"] > 0
    assert first["response"]["raw"]["id"] == turns[0]["raw"]["id"]  # the provider's own body


def test_rerun_is_served_from_cache_and_pays_nothing(api, serve, connect, store) -> None:
    server = serve(SCRIPT)
    store.start_run("r1", "audit", "t", {})
    first = conversation_run(RecordingModel(connect(api, server), store, "r1"))
    assert len(server.requests) == 2
    store.start_run("r2", "audit", "t", {})
    limited = LimitedModel(RecordingModel(connect(api, server), store, "r2"), Limits())
    second = conversation_run(limited)
    assert len(server.requests) == 2  # nothing new reached the provider
    assert [t["text"] for t in second] == [t["text"] for t in first]
    assert all(t["cached"] for t in second)
    assert limited.paid_usd == 0.0 and limited.cost_usd > 0
    assert all(p["cache_hit"] and p["paid_usd"] == 0.0 for _, p in store.records("r2", "exchange"))


def test_cache_can_be_bypassed(serve, connect, store) -> None:
    server = serve([{"response": {"text": "one"}}, {"response": {"text": "two"}}])
    store.start_run("r", "audit", "t", {})
    model = RecordingModel(connect("openai", server), store, "r", use_cache=False)
    assert [model.complete([user("same")]).text for _ in range(2)] == ["one", "two"]
    assert len(server.requests) == 2


def test_replay_reproduces_a_run_byte_for_byte_with_the_server_stopped(api, serve, connect, store,
                                                                       model_network_guard) -> None:
    server = serve(SCRIPT)
    store.start_run("r1", "audit", "t", {})
    original = conversation_run(RecordingModel(connect(api, server), store, "r1"))
    server.stop()
    model_network_guard.allowed_ports.clear()  # any network attempt now fails the test
    replayed = conversation_run(ReplayModel(store, "r1"))
    assert json.dumps(replayed, sort_keys=True) == json.dumps(original, sort_keys=True)


def test_replay_fails_loudly_on_an_unseen_request(serve, connect, store) -> None:
    server = serve(SCRIPT)
    store.start_run("r1", "audit", "t", {})
    conversation_run(RecordingModel(connect("openai", server), store, "r1"))
    replay = ReplayModel(store, "r1")
    with pytest.raises(UnrecordedRequest, match="shares its first 1 message"):
        replay.complete([system("You audit."), user("Look at CXGate instead.")], Toolbox([locate]).specs)
    replay.complete([system("You audit."), user("Look at RZGate.")], Toolbox([locate]).specs)
    with pytest.raises(UnrecordedRequest):  # each recorded answer is given once
        replay.complete([system("You audit."), user("Look at RZGate.")], Toolbox([locate]).specs)


def test_a_recorded_error_replays_as_the_same_exit(serve, connect, store) -> None:
    server = serve([{"error": "context_length"}])
    store.start_run("r1", "audit", "t", {})
    with pytest.raises(ContextWindowExceeded):
        RecordingModel(connect("anthropic", server), store, "r1").complete([user("huge")])
    [(_, exchange)] = store.records("r1", "exchange")
    assert exchange["error"]["type"] == "ContextWindowExceeded"
    with pytest.raises(ContextWindowExceeded, match="prompt is too long"):
        ReplayModel(store, "r1").complete([user("huge")])


def test_cost_cap_stops_the_run_with_the_reason_recorded(api, serve, connect, store) -> None:
    # each turn costs ~$0.3 at gpt-4o / claude-sonnet-4-5 rates; the cap is $0.5
    turn = {"response": {"text": "", "tool_calls": [{"name": "locate", "arguments": {"name": "X"}}],
                         "usage": {"input_tokens": 100_000, "output_tokens": 1000}}, "times": "always"}
    server = serve([turn])
    store.start_run("r1", "audit", "t", {"cost_usd": 0.5})
    model = LimitedModel(RecordingModel(connect(api, server), store, "r1"), Limits(cost_usd=0.5))
    with pytest.raises(CostLimitExceeded) as caught:
        try:
            conversation_run(model)
        except CostLimitExceeded as exc:
            record_stop(store, "r1", exc)
            raise
    assert len(server.requests) == 2  # the call that crossed the cap was the last one made
    assert caught.value.details["cost_usd"] >= 0.5
    run = store.run("r1")
    assert run is not None and run.status == "stopped" and run.stop_reason == "cost_limit"
    [(reason, stop)] = store.records("r1", "stop")
    assert reason == "cost_limit" and stop["type"] == "CostLimitExceeded" and "cost limit" in stop["message"]


def test_step_cap_nests_inside_a_run_budget(serve, connect) -> None:
    server = serve([{"response": {"text": "", "tool_calls": [{"name": "locate", "arguments": {"name": "X"}}]},
                     "times": "always"}])
    run_budget = LimitedModel(connect("openai", server), Limits(cost_usd=100.0))
    unit_budget = LimitedModel(run_budget, Limits(steps=3))
    with pytest.raises(StepLimitExceeded, match="3 model calls"):
        conversation_run(unit_budget)
    assert len(server.requests) == 3 and run_budget.steps == 3


def test_wall_clock_cap(serve, connect, store) -> None:
    server = serve([{"response": {"text": "", "tool_calls": [{"name": "locate", "arguments": {"name": "X"}}]},
                     "delay_s": 0.15, "times": "always"}])
    store.start_run("r1", "audit", "t", {})
    model = LimitedModel(connect("anthropic", server), Limits(seconds=0.4))
    with pytest.raises(TimeLimitExceeded) as caught:
        conversation_run(model)
    record_stop(store, "r1", caught.value)
    assert 2 <= len(server.requests) <= 3
    run = store.run("r1")
    assert run is not None and run.stop_reason == "time_limit"
