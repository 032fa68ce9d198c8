"""What the pipeline uses: a Sandbox that runs snippets against one target environment.

`WarmSandbox` keeps one worker with the target library imported and forks per snippet;
`ColdSandbox` starts a fresh sandbox and interpreter per snippet (slow, nothing shared
at all). Both answer with the same RunResult.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from qusema.sandbox.protocol import Backend
from qusema.sandbox.records import Limits, RunResult
from qusema.sandbox.selection import backend_for
from qusema.sandbox.worker_client import WorkerClient
from qusema.targets.environments import TargetEnvironment


class Sandbox(Protocol):
    backend: Backend

    def run(self, code: str, filename: str = "snippet.py",
            limits: Limits | None = None) -> RunResult: ...

    def close(self) -> None: ...


class WarmSandbox:
    def __init__(self, backend: Backend, env: TargetEnvironment,
                 preload: Sequence[str] | None = None, limits: Limits | None = None) -> None:
        self.backend = backend
        self.limits = limits or Limits()
        preload = list(preload) if preload is not None else _default_preload(env)
        self._client = WorkerClient(backend, env, preload, self.limits)

    def start(self) -> None:
        if not self._client.running:
            self._client.start()

    def run(self, code: str, filename: str = "snippet.py",
            limits: Limits | None = None) -> RunResult:
        # A worker killed by the host guard is started again here, transparently.
        return self._client.run(code, filename, limits or self.limits, warm=True)

    @property
    def worker(self) -> WorkerClient:
        return self._client

    def processes(self) -> set[int]:
        """Host pids now in the sandbox (the worker and whatever a snippet left)."""
        return self._client.processes()

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> WarmSandbox:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class ColdSandbox:
    def __init__(self, backend: Backend, env: TargetEnvironment,
                 limits: Limits | None = None) -> None:
        self.backend = backend
        self.env = env
        self.limits = limits or Limits()

    def run(self, code: str, filename: str = "snippet.py",
            limits: Limits | None = None) -> RunResult:
        limits = limits or self.limits
        with WorkerClient(self.backend, self.env, [], limits) as client:
            return client.run(code, filename, limits, warm=False)

    def close(self) -> None:
        return None

    def __enter__(self) -> ColdSandbox:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def open_sandbox(env: TargetEnvironment, backend: str | Backend | None = None, warm: bool = True,
                 limits: Limits | None = None, also_preload: Sequence[str] = ()) -> WarmSandbox | ColdSandbox:
    """One call for the pipeline: a sandbox on the named (or automatically chosen) backend.
    `also_preload` names modules (e.g. the contract families) the warm worker imports once,
    so every forked snippet has them already; one that fails to import is only recorded."""
    if backend is not None and not isinstance(backend, str):
        chosen = backend
        chosen.prepare(env)
    else:
        chosen = backend_for(env, backend)
    if not warm:
        return ColdSandbox(chosen, env, limits)
    return WarmSandbox(chosen, env, preload=[*_default_preload(env), *also_preload], limits=limits)


# Submodules a library loads lazily that most snippets use: imported once in the worker,
# they are not imported again (and thrown away) in every forked child.
WARM_IMPORTS: dict[str, list[str]] = {
    "qiskit": ["qiskit", "qiskit.quantum_info", "qiskit.circuit.library", "qiskit.transpiler"],
    "pennylane": ["pennylane"],
}


def _default_preload(env: TargetEnvironment) -> list[str]:
    if not env.import_name:
        return []
    return WARM_IMPORTS.get(env.import_name, [env.import_name])
