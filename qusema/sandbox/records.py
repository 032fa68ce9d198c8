"""What a sandbox run is asked to respect and what it reports back."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import Enum
from typing import Any


class Status(str, Enum):
    OK = "ok"
    ASSERTION_FAILED = "assertion_failed"
    EXCEPTION = "exception"
    TIMEOUT = "timeout"
    MEMORY_EXCEEDED = "memory_exceeded"
    KILLED = "killed"


class Containment(str, Enum):
    """The misbehaviours a backend may claim to contain (issue 3, 'Must show')."""

    NETWORK = "network"  # (a) outside address and the host's loopback
    HOST_FILES_READ = "host_files_read"  # (b) home, /etc/shadow
    HOST_FILES_WRITE = "host_files_write"  # (c) anything outside the work dir
    FORK_BOMB = "fork_bomb"  # (d)
    MEMORY = "memory"  # (e)
    INFINITE_LOOP = "infinite_loop"  # (f)
    OUTPUT_FLOOD = "output_flood"  # (g)
    HOST_SECRETS = "host_secrets"  # (h) the host's environment variables
    BACKGROUND_PROCESS = "background_process"  # (i)


@dataclass(frozen=True)
class Limits:
    timeout_s: float = 30.0
    memory_bytes: int = 2 * 1024**3  # address space a snippet may add
    pids: int = 256
    cpus: float = 1.0
    file_bytes: int = 256 * 1024**2
    capture_bytes: int = 64 * 1024  # stdout/stderr kept per stream
    max_output_bytes: int = 16 * 1024**2  # past this much output the snippet is killed
    tmpfs_bytes: int = 512 * 1024**2
    threads: int = 1  # BLAS/OpenMP/rayon threads: deterministic and fair on small machines
    # Room for the worker itself (an imported qiskit) on top of the snippet's budget,
    # in the container or cgroup that holds both.
    worker_overhead_bytes: int = 1024**3

    def for_worker(self, nproc: int | None = None) -> dict[str, Any]:
        return {
            "timeout_s": self.timeout_s,
            "memory_bytes": self.memory_bytes,
            "file_bytes": self.file_bytes,
            "capture_bytes": self.capture_bytes,
            "max_output_bytes": self.max_output_bytes,
            "nproc": nproc,
        }

    def sandbox_memory_bytes(self) -> int:
        return self.memory_bytes + self.worker_overhead_bytes


@dataclass(frozen=True)
class ExceptionInfo:
    type: str
    message: str
    traceback: str


@dataclass
class RunResult:
    status: Status
    backend: str
    warm: bool
    exception: ExceptionInfo | None = None
    stdout: str = ""
    stderr: str = ""
    stdout_bytes: int = 0
    stderr_bytes: int = 0
    duration_s: float = 0.0  # fork to exit, measured inside the sandbox
    wall_s: float = 0.0  # request to answer, measured by the host
    reports: dict[str, Any] = field(default_factory=dict)
    kill_reason: str | None = None
    leftover_processes: int = 0

    @classmethod
    def from_worker(cls, raw: dict[str, Any], backend: str, warm: bool, wall_s: float) -> RunResult:
        exc = raw.get("exception")
        return cls(
            status=Status(raw["status"]),
            backend=backend,
            warm=warm,
            exception=ExceptionInfo(exc["type"], exc["message"], exc["traceback"]) if exc else None,
            stdout=raw.get("stdout", ""),
            stderr=raw.get("stderr", ""),
            stdout_bytes=raw.get("stdout_bytes", 0),
            stderr_bytes=raw.get("stderr_bytes", 0),
            duration_s=raw.get("duration_s", 0.0),
            wall_s=wall_s,
            reports=raw.get("reports", {}),
            kill_reason=raw.get("kill_reason"),
            leftover_processes=raw.get("leftover_processes", 0),
        )

    def to_json(self) -> dict[str, Any]:
        record = asdict(self)
        record["status"] = self.status.value
        return record
