"""A worker reached through the stdin/stdout pipes of a local process (bwrap, process)."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from qusema.sandbox.cgroups import SandboxCgroup
from qusema.sandbox.protocol import WorkerDied

STDERR_TAIL_BYTES = 64 * 1024


class PipeTransport:
    def __init__(self, argv: list[str], env: dict[str, str], cwd: Path,
                 cgroup: SandboxCgroup | None, on_close: Callable[[], None] | None = None,
                 preexec: Callable[[], None] | None = None) -> None:
        """`preexec` runs in the child before exec (default: joining `cgroup`)."""
        self._cgroup = cgroup
        self._on_close = on_close
        # stderr goes to a file, not a pipe: nobody may be reading it when a library floods it.
        self._stderr = tempfile.TemporaryFile()
        self._process = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr,
            env=env, cwd=cwd, start_new_session=True,
            preexec_fn=preexec or (cgroup.enter if cgroup is not None else None),
        )
        self._stdout_fd = self._process.stdout.fileno()
        os.set_blocking(self._stdout_fd, False)
        self._buffer = b""
        self._closed = False
        self._lock = threading.Lock()

    @property
    def pid(self) -> int:
        return self._process.pid

    def send(self, data: bytes) -> None:
        try:
            self._process.stdin.write(data)
            self._process.stdin.flush()
        except BrokenPipeError as exc:
            raise WorkerDied(self.diagnostics()) from exc

    def receive_line(self, timeout: float) -> bytes | None:
        deadline = time.monotonic() + timeout
        polled = False  # a timeout of 0 still looks once: "is anything there now?"
        while b"\n" not in self._buffer:
            remaining = max(0.0, deadline - time.monotonic())
            if remaining == 0 and polled:
                return None
            polled = True
            readable, _, _ = select.select([self._stdout_fd], [], [], remaining)
            if not readable:
                continue
            try:
                chunk = os.read(self._stdout_fd, 1 << 20)
            except BlockingIOError:
                continue
            if not chunk:
                raise WorkerDied(self.diagnostics())
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return line

    def diagnostics(self) -> str:
        self._stderr.seek(0, os.SEEK_END)
        size = self._stderr.tell()
        self._stderr.seek(max(0, size - STDERR_TAIL_BYTES))
        return self._stderr.read().decode("utf-8", errors="replace")

    def processes(self) -> set[int]:
        if self._cgroup is not None:
            return self._cgroup.pids()
        return _descendants(self._process.pid) | {self._process.pid}

    def kill(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
        try:
            os.killpg(self._process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        if self._cgroup is not None:
            # A process that left the session (setsid) is still in the cgroup.
            self._cgroup.kill_all()
        self._process.wait()
        for stream in (self._process.stdin, self._process.stdout):
            try:
                stream.close()
            except BrokenPipeError:
                pass
        self._stderr.close()
        if self._cgroup is not None:
            self._cgroup.remove()
        if self._on_close is not None:
            self._on_close()


def _descendants(root: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat[stat.rfind(")") + 2:].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
    found: set[int] = set()
    frontier = [root]
    while frontier:
        for child in children.get(frontier.pop(), []):
            if child not in found:
                found.add(child)
                frontier.append(child)
    return found
