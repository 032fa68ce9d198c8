"""The guard must catch a model pointed anywhere but the local server."""

from __future__ import annotations

import pytest

from qusema.llm.local_server import LocalModelServer
from qusema.llm.protocol import TransientError, user
from qusema.llm.retry import RetryPolicy
from qusema.llm.selection import model_from_spec


@pytest.mark.parametrize("spec", ["openai:gpt-4o", "anthropic:claude-sonnet-4-5", "deepseek:deepseek-chat"])
def test_real_providers_are_unreachable_in_tests(spec: str, model_network_guard) -> None:
    model = model_from_spec(spec, api_key="sk-test", retry=RetryPolicy(max_attempts=1), timeout_s=5)
    with pytest.raises(TransientError, match="connection failed"):
        model.complete([user("hello")])
    seen = model_network_guard.acknowledge()
    assert seen and "lookup of api." in seen[0]


def test_a_local_server_the_test_did_not_register_is_refused(connect, model_network_guard) -> None:
    with LocalModelServer([{"response": {"text": "should not be reached"}}]) as stray:
        with pytest.raises(TransientError):
            connect("openai", stray, retry=RetryPolicy(max_attempts=1)).complete([user("hello")])
        assert stray.requests == []
    assert model_network_guard.acknowledge() == [f"connection to 127.0.0.1:{stray.port}"]


def test_provider_environment_is_cleared() -> None:
    import os

    assert not any(os.environ.get(v) for v in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_BASE_URL",
                                               "ANTHROPIC_BASE_URL"))
