"""The weakest backend: a plain child process with limits, for machines with nothing else.

It limits time, memory, output and processes, scrubs the environment and kills everything
the snippet started; it does NOT confine the network or the file system, and a snippet can
read other processes' environments in /proc. It says so with a warning when used.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import warnings
from collections.abc import Sequence
from pathlib import Path

from qusema.sandbox.cgroups import SandboxCgroup
from qusema.sandbox.launch import WORKER_SCRIPT, clean_environment, sandbox_source_dir, worker_arguments
from qusema.sandbox.pipe_transport import PipeTransport
from qusema.sandbox.protocol import Transport
from qusema.sandbox.records import Containment, Limits
from qusema.targets.environments import TargetEnvironment


class ProcessSandboxWarning(UserWarning):
    """The process backend runs generated code without network or file-system confinement."""


class ProcessBackend:
    name = "process"

    def __init__(self) -> None:
        warnings.warn(
            "sandbox 'process' confines neither the network nor the file system; "
            "install bubblewrap or docker for untrusted code",
            ProcessSandboxWarning, stacklevel=2,
        )

    @staticmethod
    def unavailable_reason() -> str | None:
        return None

    def claims(self) -> frozenset[Containment]:
        claimed = {Containment.MEMORY, Containment.INFINITE_LOOP, Containment.OUTPUT_FLOOD,
                   Containment.BACKGROUND_PROCESS}
        if _can_cap_processes():
            claimed.add(Containment.FORK_BOMB)
        return frozenset(claimed)

    def prepare(self, env: TargetEnvironment) -> None:
        return None

    def start_worker(self, env: TargetEnvironment, preload: Sequence[str],
                     limits: Limits) -> Transport:
        home = Path(tempfile.mkdtemp(prefix="qusema-process-"))
        scratch = home / "tmp"
        scratch.mkdir()
        cgroup = SandboxCgroup.create(limits.pids, limits.sandbox_memory_bytes())
        argv = [str(env.python), "-B", "-s", str(sandbox_source_dir() / WORKER_SCRIPT),
                # No pid namespace here: the worker finds leftovers as its descendants.
                *worker_arguments(str(home / "work"), [str(scratch)], preload, pid_namespace=False)]
        return PipeTransport(
            argv, clean_environment(limits, str(scratch), [str(env.python.parent)]), home, cgroup,
            on_close=lambda: shutil.rmtree(home, ignore_errors=True),
        )

    def worker_nproc(self, limits: Limits) -> int | None:
        # RLIMIT_NPROC counts every process of the user; it is the cap only without a cgroup.
        return None if SandboxCgroup.available() else limits.pids


def _can_cap_processes() -> bool:
    return SandboxCgroup.available() or os.geteuid() != 0
