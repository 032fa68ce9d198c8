"""The agent tests run the real SDKs against a local model server and the real sandbox on a
real release. The network guard is the model layer's own (tests/llm/conftest.py), loaded
here so the same fixture, and the same rules, hold: any model request that is not to a
local server the test started fails the test."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

_HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("qusema_tests_llm_guard", _HERE.parent / "llm" / "conftest.py")
assert _spec is not None and _spec.loader is not None
_guard = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_guard)
model_network_guard = _guard.model_network_guard
serve = _guard.serve
connect = _guard.connect
fast_retries = _guard.fast_retries
api = _guard.api

sys.path.insert(0, str(_HERE))  # scripts.py, the scripted exchanges

from qusema.agent.audit_llm import AgentConfig, LLMAuditSummary, run_llm_audit
from qusema.targets.environments import cache_dir

DEFAULT_MODELS = {"openai": "gpt-4o", "anthropic": "claude-sonnet-4-5"}


@pytest.fixture(scope="session", autouse=True)
def prepared_target() -> None:
    """The target release's environment and Stage I index, made once before any test's network
    guard is up (a session fixture is set up before the function-scoped guard). Making them
    downloads the release from the package registry: the guard forbids model traffic, and with
    an empty cache every agent test failed on that download, by the guard, not on what it tests."""
    import scripts

    from qusema.audit import AUDIT_TOOLS, _ensure_index
    from qusema.targets.environments import EnvironmentStore

    EnvironmentStore().create(scripts.TARGET, tools=AUDIT_TOOLS)
    _ensure_index(scripts.TARGET, cache_dir(), lambda message: None)


@pytest.fixture
def run_agent(serve: Callable, connect: Callable, tmp_path: Path) -> Callable[..., Any]:
    """Serve `script`, point a real SDK model for `api` at it, and audit the historical bug's
    unit on its buggy release. Returns (summary, server, messages)."""

    def run(api: str, script: list[dict[str, Any]], *, model_kwargs: dict[str, Any] | None = None,
            **config: Any) -> tuple[LLMAuditSummary, Any, list[str]]:
        import scripts

        server = serve(script)
        model = connect(api, server, **(model_kwargs or {}))
        settings = {"target": scripts.TARGET, "llm": f"{api}:{DEFAULT_MODELS[api]}", "units": scripts.UNIT_SUFFIX,
                    "concurrency": 1, "cooldown_s": 0.0, **config}
        messages: list[str] = []
        summary = run_llm_audit(AgentConfig(**settings), tmp_path / "reports", cache_dir(), messages.append,
                                model=model)
        return summary, server, messages

    return run
