"""Cost from what the provider reports, at the price table's rates; never a crash."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from qusema.llm.pricing import Price, PriceTable
from qusema.llm.protocol import Usage, user
from qusema.llm.recording import RecordingModel

MILLION = 1_000_000


def test_openai_usage_is_priced_with_cached_input_apart(serve, connect) -> None:
    # gpt-4o: $2.50 per M input, $1.25 per M cached input, $10 per M output (shipped table)
    server = serve([{"response": {"text": "ok", "usage": {"input_tokens": 400_000, "cache_read_tokens": 600_000,
                                                          "output_tokens": 100_000}}}])
    turn = connect("openai", server).complete([user("hi")])
    assert server.requests and turn.raw["usage"]["prompt_tokens"] == MILLION  # OpenAI counts cached inside
    assert turn.usage == Usage(input_tokens=400_000, output_tokens=100_000, cache_read_tokens=600_000)
    assert turn.cost_usd == pytest.approx(0.4 * 2.50 + 0.6 * 1.25 + 0.1 * 10.0)
    assert turn.cost_note is None


def test_anthropic_usage_is_priced_with_cache_reads_and_writes(serve, connect) -> None:
    # claude-sonnet-4-5: $3 input, $15 output, $0.30 cache read, $3.75 cache write per M
    server = serve([{"response": {"text": "ok", "usage": {"input_tokens": MILLION, "output_tokens": MILLION,
                                                          "cache_read_tokens": MILLION,
                                                          "cache_write_tokens": MILLION}}}])
    turn = connect("anthropic", server).complete([user("hi")])
    assert turn.cost_usd == pytest.approx(3.0 + 15.0 + 0.30 + 3.75)


def test_dated_snapshots_find_their_family(serve, connect) -> None:
    server = serve([{"response": {"text": "ok", "usage": {"input_tokens": MILLION, "output_tokens": 0}}}])
    turn = connect("openai", server, model="gpt-4o-mini-2024-07-18").complete([user("hi")])
    assert turn.cost_usd == pytest.approx(0.15)  # gpt-4o-mini, not gpt-4o


def test_unknown_model_costs_nothing_and_says_why(serve, connect, store) -> None:
    server = serve([{"response": {"text": "ok", "usage": {"input_tokens": 5000, "output_tokens": 50}}}])
    store.start_run("r", "audit", "t", {})
    model = RecordingModel(connect("openai", server, model="my-finetune-7b"), store, "r")
    turn = model.complete([user("hi")])
    assert turn.cost_usd == 0.0
    assert "no price for openai:my-finetune-7b" in (turn.cost_note or "")
    [(_, exchange)] = store.records("r", "exchange")
    assert exchange["cost_usd"] == 0.0 and "no price" in exchange["cost_note"]
    assert exchange["usage"]["input_tokens"] == 5000  # the tokens are still on record


def test_provider_reported_cost_wins(serve, connect) -> None:
    server = serve([{"response": {"text": "ok", "usage": {"input_tokens": 10, "output_tokens": 10, "cost": 0.0042}}}])
    turn = connect("openai", server, model="meta-llama/llama-3.1-8b-instruct").complete([user("hi")])
    assert turn.cost_usd == 0.0042 and turn.cost_note == "cost as reported by the provider"


def test_user_override_by_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, serve, connect) -> None:
    override = tmp_path / "prices.json"
    override.write_text(json.dumps({"models": {"gpt-4o": {"input": 1.0, "output": 2.0},
                                               "llama3": {"input": 0, "output": 0}}}))
    monkeypatch.setenv("QUSEMA_PRICES", str(override))
    server = serve([{"response": {"text": "a", "usage": {"input_tokens": MILLION, "output_tokens": MILLION}}},
                    {"response": {"text": "b", "usage": {"input_tokens": MILLION, "output_tokens": MILLION}}}])
    assert connect("openai", server).complete([user("hi")]).cost_usd == pytest.approx(3.0)
    free = connect("openai", server, model="llama3").complete([user("hi")])
    assert free.cost_usd == 0.0 and "is free" in (free.cost_note or "")
    table = PriceTable.load()
    assert table.lookup("openai:gpt-4o-mini") == Price(0.15, 0.60, 0.075)  # untouched entries stay


def test_a_broken_override_is_an_error_not_a_silent_zero(tmp_path: Path) -> None:
    bad = tmp_path / "prices.json"
    bad.write_text(json.dumps({"models": {"gpt-4o": {"inptu": 1.0, "output": 2.0}}}))
    with pytest.raises(ValueError, match="gpt-4o"):
        PriceTable.load(bad)


def test_provider_qualified_prices() -> None:
    table = PriceTable({"deepseek:deepseek-chat": Price(1.0, 1.0), "deepseek-chat": Price(2.0, 2.0)})
    usage = Usage(input_tokens=MILLION)
    assert table.cost("deepseek:deepseek-chat", usage).usd == 1.0
    assert table.cost("openrouter:deepseek-chat", usage).usd == 2.0
