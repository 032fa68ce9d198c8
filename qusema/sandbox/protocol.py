"""The two small interfaces every sandbox backend implements."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from qusema.sandbox.records import Containment, Limits
from qusema.targets.environments import TargetEnvironment


class BackendUnavailable(Exception):
    """The backend cannot run on this machine (no daemon, not installed...)."""


class WorkerDied(Exception):
    """The worker's channel closed; the message carries what it printed to stderr."""


class Transport(Protocol):
    """A byte channel to one running warm worker inside a sandbox."""

    def send(self, data: bytes) -> None: ...

    def receive_line(self, timeout: float) -> bytes | None:
        """One protocol line, or None if none came in time; raises WorkerDied at EOF."""
        ...

    def diagnostics(self) -> str:
        """The tail of what the worker wrote to stderr (import errors and the like)."""
        ...

    def processes(self) -> set[int]:
        """Host pids of the processes now in the sandbox, the worker included."""
        ...

    def kill(self) -> None:
        """Ends the sandbox and every process in it, now."""
        ...


class Backend(Protocol):
    """Starts warm workers for a target environment in some kind of sandbox."""

    name: str

    def claims(self) -> frozenset[Containment]:
        """What this backend contains on this machine; tests hold it to every claim."""
        ...

    def prepare(self, env: TargetEnvironment) -> None:
        """One-time work per environment (a docker image); cached by the backend."""
        ...

    def start_worker(self, env: TargetEnvironment, preload: Sequence[str],
                     limits: Limits) -> Transport:
        """Starts sandbox/warm_worker.py under env's Python, importing `preload` once."""
        ...

    def worker_nproc(self, limits: Limits) -> int | None:
        """RLIMIT_NPROC for snippets, where no pids cgroup caps them; None for none."""
        ...
