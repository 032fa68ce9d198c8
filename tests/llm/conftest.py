"""The model-layer tests talk to real SDKs over real HTTP, but only ever to a local model
server that the test itself started. `model_network_guard` (autouse) enforces that: with
it, a socket connection to any other address or port, or a name lookup of any other host,
fails at once, and the test fails at teardown even if the code under test swallowed the
error; provider keys and base URLs from the environment are removed so nothing silently
picks them up."""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from qusema.llm.local_server import LocalModelServer
from qusema.llm.retry import RetryPolicy
from qusema.store import RunStore

_LOOPBACK = {"127.0.0.1", "localhost", "::1"}
_PROVIDER_ENV = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_ORG_ID", "OPENAI_PROJECT_ID", "OPENAI_ADMIN_KEY",
                 "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL", "ANTHROPIC_PROFILE",
                 "DEEPSEEK_API_KEY", "OPENROUTER_API_KEY", "OLLAMA_API_KEY", "QUSEMA_PRICES", "QUSEMA_PROMPTS")


class ModelNetworkGuard:
    def __init__(self) -> None:
        self.allowed_ports: set[int] = set()
        self.violations: list[str] = []

    def allow(self, port: int) -> None:
        self.allowed_ports.add(port)

    def acknowledge(self) -> list[str]:
        """For the tests of the guard itself: take the violations they provoked on purpose."""
        seen, self.violations = self.violations, []
        return seen

    def check_host(self, host: Any) -> None:
        if isinstance(host, bytes):
            host = host.decode()
        if host is not None and str(host) not in _LOOPBACK:
            self.violations.append(f"name lookup of {host}")
            raise socket.gaierror(socket.EAI_NONAME, f"blocked by the test guard: lookup of {host}")

    def check_address(self, family: int, address: Any) -> None:
        if family not in (socket.AF_INET, socket.AF_INET6):
            return
        host, port = address[0], address[1]
        if host not in _LOOPBACK or port not in self.allowed_ports:
            self.violations.append(f"connection to {host}:{port}")
            raise ConnectionRefusedError(f"blocked by the test guard: {host}:{port} is not a local model server")


@pytest.fixture(autouse=True)
def model_network_guard(monkeypatch: pytest.MonkeyPatch) -> Iterator[ModelNetworkGuard]:
    guard = ModelNetworkGuard()
    for name in _PROVIDER_ENV:
        monkeypatch.delenv(name, raising=False)
    real_connect, real_connect_ex = socket.socket.connect, socket.socket.connect_ex
    real_getaddrinfo = socket.getaddrinfo

    def connect(sock: socket.socket, address: Any) -> None:
        guard.check_address(sock.family, address)
        return real_connect(sock, address)

    def connect_ex(sock: socket.socket, address: Any) -> int:
        guard.check_address(sock.family, address)
        return real_connect_ex(sock, address)

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        guard.check_host(host)
        return real_getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)
    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    yield guard
    if guard.violations:
        pytest.fail("model request(s) to something other than the local model server: "
                    + "; ".join(guard.violations))


ServerFactory = Callable[[Sequence[Mapping[str, Any]] | Path], LocalModelServer]


@pytest.fixture
def serve(model_network_guard: ModelNetworkGuard) -> Iterator[ServerFactory]:
    """Start a local model server on a script; the guard lets requests reach it."""
    servers: list[LocalModelServer] = []

    def start(script: Sequence[Mapping[str, Any]] | Path) -> LocalModelServer:
        server = LocalModelServer(script).start()
        model_network_guard.allow(server.port)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def fast_retries() -> RetryPolicy:
    """Real backoff, scaled down so a test waits milliseconds, not minutes."""
    return RetryPolicy(max_attempts=4, base_delay_s=0.01, max_delay_s=0.05, max_retry_after_s=2.0)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RunStore]:
    with RunStore(tmp_path / "run.sqlite") as s:
        yield s


DEFAULT_MODELS = {"openai": "gpt-4o", "anthropic": "claude-sonnet-4-5"}


@pytest.fixture
def connect(fast_retries: RetryPolicy) -> Callable[..., Any]:
    """A real SDK-backed model for `api` pointed at `server`, picked by spec like a user would."""
    from qusema.llm.selection import model_from_spec

    def make(api: str, server: LocalModelServer, model: str | None = None, **kwargs: Any) -> Any:
        base_url = server.openai_base_url if api == "openai" else server.anthropic_base_url
        kwargs.setdefault("retry", fast_retries)
        kwargs.setdefault("api_key", "test-key")
        kwargs.setdefault("timeout_s", 5.0)
        return model_from_spec(f"{api}:{model or DEFAULT_MODELS[api]}", base_url=base_url, **kwargs)

    return make


@pytest.fixture(params=["openai", "anthropic"])
def api(request: pytest.FixtureRequest) -> str:
    return request.param
