"""The host's side of the warm worker: start it, wait until it is ready, run snippets.

The worker enforces each snippet's limits itself; the host only guards against the worker
not answering at all (killed by the kernel, wedged), with a deadline a little past the
snippet's own timeout, after which the whole sandbox is killed and started anew.

Every request carries a fresh nonce that its result must echo. A result line with another
nonce, or any line the host did not ask for, means something other than the worker wrote
into the channel: the worker is killed and that snippet's run is inconclusive (`killed`),
never another snippet's verdict.
"""

from __future__ import annotations

import itertools
import json
import secrets
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from qusema.sandbox.protocol import Backend, Transport, WorkerDied
from qusema.sandbox.records import Limits, RunResult, Status
from qusema.targets.environments import TargetEnvironment

PROTOCOL_VERSION = 2
STARTUP_TIMEOUT_S = 360.0  # a cold container, `import pennylane` and its surface prepared (about 100 s) on a busy machine
HOST_GRACE_S = 10.0


CHANNEL_TAMPERED = ("the result channel carried a line that does not answer this request; "
                    "the worker was killed and this run is inconclusive")


class WorkerStartError(Exception):
    """The worker did not come up; carries what it wrote to stderr."""


@dataclass(frozen=True)
class WorkerInfo:
    python: str
    pid: int
    preloaded: list[str]
    preload_errors: dict[str, str]
    preload_seconds: float


class WorkerClient:
    def __init__(self, backend: Backend, env: TargetEnvironment, preload: Sequence[str],
                 limits: Limits) -> None:
        self.backend = backend
        self.env = env
        self.preload = list(preload)
        self.limits = limits
        self._ids = itertools.count(1)
        self._transport: Transport | None = None
        self.info: WorkerInfo | None = None
        # The thread every worker process of this client is started from (see `start`).
        self._parent: ThreadPoolExecutor | None = None

    def start(self) -> WorkerInfo:
        # Started from a thread of this client's own, which lives until `close`, never from
        # the caller's: a sandbox's parent-death signal (bwrap --die-with-parent, PDEATHSIG)
        # fires when the *thread* that started it ends. Audits run checks on pool threads,
        # and a worker started by one was killed, idle, when that pool closed.
        if self._parent is None:
            self._parent = ThreadPoolExecutor(max_workers=1, thread_name_prefix="qusema-sandbox-parent")
        transport = self._parent.submit(self.backend.start_worker, self.env, self.preload, self.limits).result()
        try:
            line = transport.receive_line(STARTUP_TIMEOUT_S)
        except WorkerDied as exc:
            transport.kill()
            raise WorkerStartError(f"the {self.backend.name} worker died at start:\n{exc}") from exc
        if line is None:
            diagnostics = transport.diagnostics()
            transport.kill()
            raise WorkerStartError(f"the {self.backend.name} worker did not start within "
                                   f"{STARTUP_TIMEOUT_S:.0f} s:\n{diagnostics}")
        ready = json.loads(line)
        if ready.get("event") != "ready" or ready.get("protocol") != PROTOCOL_VERSION:
            transport.kill()
            raise WorkerStartError(f"unexpected first message from the worker: {ready!r}")
        self._transport = transport
        self.info = WorkerInfo(ready["python"], ready["pid"], ready["preloaded"],
                               ready["preload_errors"], ready["preload_seconds"])
        return self.info

    @property
    def running(self) -> bool:
        return self._transport is not None

    def run(self, code: str, filename: str = "snippet.py", limits: Limits | None = None,
            warm: bool = True) -> RunResult:
        if self._transport is None:
            self.start()
        limits = limits or self.limits
        nonce = secrets.token_hex(16)
        request = {"op": "run", "id": next(self._ids), "nonce": nonce, "code": code,
                   "filename": filename, "limits": limits.for_worker(self.backend.worker_nproc(limits))}
        started = time.perf_counter()
        try:
            if self._transport.receive_line(0.0) is not None:
                # Between requests the worker says nothing: a line here was forged.
                self._end_worker()
                return self.run(code, filename, limits, warm)
            self._transport.send((json.dumps(request) + "\n").encode())
            line = self._transport.receive_line(limits.timeout_s + HOST_GRACE_S)
        except WorkerDied as exc:
            self._end_worker()
            return RunResult(Status.KILLED, self.backend.name, warm,
                             kill_reason=f"the sandbox died: {str(exc)[-2000:]}",
                             wall_s=time.perf_counter() - started)
        wall = time.perf_counter() - started
        if line is None:
            self._end_worker()
            return RunResult(Status.TIMEOUT, self.backend.name, warm, wall_s=wall,
                             kill_reason="the sandbox did not answer in time and was killed")
        message = _parse(line)
        if message is None or message.get("nonce") != nonce or not isinstance(message.get("result"), dict):
            self._end_worker()
            return RunResult(Status.KILLED, self.backend.name, warm, wall_s=wall,
                             kill_reason=CHANNEL_TAMPERED)
        return RunResult.from_worker(message["result"], self.backend.name, warm, wall)

    def processes(self) -> set[int]:
        return self._transport.processes() if self._transport is not None else set()

    def close(self) -> None:
        self._end_worker()
        parent, self._parent = self._parent, None
        if parent is not None:
            parent.shutdown(wait=False)

    def _end_worker(self) -> None:
        """Stop the worker; the next `run` starts a new one."""
        transport, self._transport = self._transport, None
        if transport is None:
            return
        try:
            transport.send(b'{"op": "shutdown"}\n')
        except WorkerDied:
            pass
        # The worker ends on shutdown; the kill makes sure nothing at all outlives us.
        transport.kill()

    def __enter__(self) -> WorkerClient:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _parse(line: bytes) -> dict | None:
    try:
        message = json.loads(line)
    except ValueError:
        return None
    return message if isinstance(message, dict) else None
