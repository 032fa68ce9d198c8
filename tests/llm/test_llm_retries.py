"""Retries, backoff and aborts, through the real SDKs against scripted HTTP failures."""

from __future__ import annotations

import time

import pytest

from qusema.llm.protocol import (AuthenticationFailed, ContextWindowExceeded, RateLimited, RequestRejected,
                                 user)
from qusema.llm.retry import RetryPolicy, retry_after_s

OK = {"response": {"text": "fine"}}


def test_rate_limit_is_retried_after_the_time_the_server_asks(api, serve, connect) -> None:
    server = serve([{"error": {"kind": "rate_limit", "retry_after": 0.3}}, OK])
    started = time.perf_counter()
    turn = connect(api, server).complete([user("hello")])
    elapsed = time.perf_counter() - started
    assert turn.text == "fine"
    assert [r.status for r in server.requests] == [429, 200]
    assert len(turn.retries) == 1
    assert turn.retries[0]["error"]["type"] == "RateLimited"
    # Retry-After (0.3 s) outranks our own backoff (10 ms here): never come back sooner.
    assert 0.3 <= turn.retries[0]["wait_s"] <= 0.33
    assert elapsed >= 0.3


def test_retry_after_ms_is_understood(serve, connect) -> None:
    server = serve([{"error": {"kind": "rate_limit", "retry_after_ms": 150}}, OK])
    turn = connect("openai", server).complete([user("hello")])
    assert 0.15 <= turn.retries[0]["wait_s"] <= 0.165


def test_server_errors_back_off_exponentially_then_recover(api, serve, connect) -> None:
    server = serve([{"error": "server_error"}, {"error": "overloaded"}, {"error": "server_error"}, OK])
    policy = RetryPolicy(max_attempts=4, base_delay_s=0.02, max_delay_s=1.0, jitter=0.0)
    turn = connect(api, server, retry=policy).complete([user("hello")])
    assert turn.text == "fine"
    assert [r.status for r in server.requests] == [500, 503 if api == "openai" else 529, 500, 200]
    assert [r["wait_s"] for r in turn.retries] == [0.02, 0.04, 0.08]


def test_backoff_is_capped_and_jittered() -> None:
    import random

    policy = RetryPolicy(base_delay_s=1.0, max_delay_s=8.0, jitter=0.5, rng=random.Random(1))
    waits = [policy.wait_s(n, None) for n in range(10)]
    assert all(0.5 <= w <= 1.0 for w in waits[:1])
    assert all(4.0 <= w <= 8.0 for w in waits[3:])  # capped at max_delay_s, at least half of it
    assert len(set(waits[3:])) > 1  # jitter spreads clients that failed together


def test_retries_run_out_as_a_typed_error(api, serve, connect) -> None:
    server = serve([{"error": "rate_limit", "times": "always"}])
    with pytest.raises(RateLimited) as caught:
        connect(api, server).complete([user("hello")])
    assert len(server.requests) == 4  # fast_retries.max_attempts
    assert len(caught.value.details["retries"]) == 3


def test_a_retry_after_beyond_patience_gives_up_at_once(serve, connect) -> None:
    server = serve([{"error": {"kind": "rate_limit", "retry_after": 3600}}, OK])
    with pytest.raises(RateLimited, match="429"):
        connect("openai", server).complete([user("hello")])
    assert len(server.requests) == 1


def test_timeouts_are_retried(api, serve, connect) -> None:
    server = serve([{"response": {"text": "too late"}, "delay_s": 3.0}, OK])
    turn = connect(api, server, timeout_s=0.4).complete([user("hello")])
    assert turn.text == "fine"
    assert turn.retries[0]["error"]["type"] == "TransientError"
    assert turn.retries[0]["error"]["details"]["kind"] == "timeout"
    assert len(server.requests) == 2


def test_authentication_failure_aborts_without_retrying(api, serve, connect) -> None:
    server = serve([{"error": "auth"}, OK])
    with pytest.raises(AuthenticationFailed, match="401"):
        connect(api, server).complete([user("hello")])
    assert len(server.requests) == 1
    assert server.requests[0].api_key == "test-key"


def test_context_window_errors_abort_without_retrying(api, serve, connect) -> None:
    server = serve([{"error": "context_length"}, OK])
    with pytest.raises(ContextWindowExceeded):
        connect(api, server).complete([user("a very long conversation")])
    assert len(server.requests) == 1


def test_exhausted_quota_is_not_mistaken_for_a_rate_limit(serve, connect) -> None:
    server = serve([{"error": {"kind": "rate_limit", "code": "insufficient_quota",
                               "message": "You exceeded your current quota"}}, OK])
    with pytest.raises(RequestRejected, match="quota"):
        connect("openai", server).complete([user("hello")])
    assert len(server.requests) == 1


def test_a_garbled_body_is_transient(api, serve, connect) -> None:
    server = serve([{"raw": {"status": 200, "body": "{\"id\": \"chatcmpl-1\", \"choi"}}, OK])
    turn = connect(api, server).complete([user("hello")])
    assert turn.text == "fine"
    assert len(server.requests) == 2


def test_retry_after_header_forms() -> None:
    assert retry_after_s({"retry-after": "2"}) == 2.0
    assert retry_after_s({"retry-after-ms": "250", "retry-after": "9"}) == 0.25
    assert retry_after_s({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}) == 0.0  # in the past
    assert retry_after_s({}) is None
