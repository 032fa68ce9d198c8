from __future__ import annotations

import pytest

from qusema.llm.anthropic_model import AnthropicModel
from qusema.llm.openai_model import OpenAIModel
from qusema.llm.protocol import AuthenticationFailed, Model, user
from qusema.llm.selection import model_from_spec


def test_specs_pick_implementations() -> None:
    openai_model = model_from_spec("openai:gpt-4o", api_key="k")
    assert isinstance(openai_model, OpenAIModel) and isinstance(openai_model, Model)
    assert openai_model.name == "openai:gpt-4o"
    anthropic_model = model_from_spec("anthropic:claude-sonnet-4-5", api_key="k")
    assert isinstance(anthropic_model, AnthropicModel) and anthropic_model.settings["max_tokens"] > 0
    deepseek = model_from_spec("deepseek:deepseek-chat", api_key="k")
    assert isinstance(deepseek, OpenAIModel) and str(deepseek.client.base_url).startswith("https://api.deepseek.com")


@pytest.mark.parametrize("spec", ["gpt-4o", "openai:", "mistral:large"])
def test_bad_specs_say_what_is_wrong(spec: str) -> None:
    with pytest.raises(ValueError, match="spec|provider"):
        model_from_spec(spec, api_key="k")


@pytest.mark.parametrize("spec", ["openai:gpt-4o", "anthropic:claude-sonnet-4-5"])
def test_no_key_is_an_authentication_failure_before_any_request(spec: str) -> None:
    with pytest.raises(AuthenticationFailed, match="_API_KEY"):
        model_from_spec(spec)


def test_keys_come_from_the_environment(api, serve, monkeypatch: pytest.MonkeyPatch) -> None:
    server = serve([{"response": {"text": "hi"}}])
    monkeypatch.setenv("OPENAI_API_KEY" if api == "openai" else "ANTHROPIC_API_KEY", "env-key")
    base_url = server.openai_base_url if api == "openai" else server.anthropic_base_url
    model = model_from_spec(f"{api}:some-model", base_url=base_url)
    assert model.complete([user("x")]).text == "hi"
    assert server.requests[0].api_key == "env-key"


def test_keyless_local_servers_work_by_base_url(serve) -> None:
    """vLLM and Ollama take no key; a base URL alone is enough."""
    server = serve([{"response": {"text": "local"}}])
    model = model_from_spec("openai:llama3", base_url=server.openai_base_url)
    assert model.complete([user("x")]).text == "local"


def test_settings_reach_the_wire(api, serve, connect) -> None:
    server = serve([{"response": {"text": "ok"}}])
    connect(api, server, settings={"temperature": 0.0, "max_tokens": 256}).complete([user("x")])
    body = server.requests[0].body
    assert body["temperature"] == 0.0 and body["max_tokens"] == 256


def test_every_exported_name_resolves() -> None:
    import qusema.llm

    assert sorted(qusema.llm.__all__) == sorted(qusema.llm._MODULE_OF)
    for name in qusema.llm.__all__:
        assert getattr(qusema.llm, name) is not None
