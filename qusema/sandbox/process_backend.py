"""The weakest backend: a plain child process with limits, for machines with nothing else.

It limits time, memory, output and processes, passes none of the host's environment and
kills everything the snippet started. It does NOT confine the network or the file system:
a snippet can connect anywhere and write wherever its user may (its own /tmp files, and
/dev/shm, stay unless swept). It says so with a warning when used.

Started as root it never runs snippets as root: the worker and every snippet run as the
unprivileged user `nobody`, so they cannot read root's files (/etc/shadow, the environment
folder's neighbours), the host's /proc/<pid>/environ, ptrace the host, move out of the
sandbox cgroup, or change the target environment (owned by root). That needs the target
environment and the runner to be readable by `nobody`; where they are not (an environment
under /root), the backend refuses with one line instead of running as root.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path

from qusema.notices import Notice
from qusema.sandbox.cgroups import SandboxCgroup
from qusema.sandbox.launch import WORKER_SCRIPT, clean_environment, sandbox_source_dir, worker_arguments
from qusema.sandbox.leftovers import owned_work_folder
from qusema.sandbox.pipe_transport import PipeTransport
from qusema.sandbox.protocol import BackendUnavailable, Transport
from qusema.sandbox.records import Containment, Limits
from qusema.targets.environments import TargetEnvironment

UNPRIVILEGED_USER = "nobody"
SETUP_HINT = "install bubblewrap (`bash .ci/setup-sandbox.sh`, or apt-get install bubblewrap)"


class ProcessSandboxWarning(Notice):
    """The process backend runs generated code without network or file-system confinement."""


class ProcessBackend:
    name = "process"

    def __init__(self) -> None:
        self._runs_as = _unprivileged_ids() if os.geteuid() == 0 else None
        self._usable: dict[str, str | None] = {}  # environment key -> refusal (None: usable)
        user = f"as user {UNPRIVILEGED_USER}" if self._runs_as else "as the current user"
        warnings.warn(
            f"sandbox 'process' runs snippets {user} with limits on time, memory, output and "
            "processes, but confines neither the network nor the file system (writes to /tmp "
            f"and /dev/shm, reads of world-readable files); for untrusted code {SETUP_HINT}",
            ProcessSandboxWarning, stacklevel=2,
        )

    @staticmethod
    def unavailable_reason() -> str | None:
        return None

    def claims(self) -> frozenset[Containment]:
        claimed = {Containment.MEMORY, Containment.INFINITE_LOOP, Containment.OUTPUT_FLOOD,
                   Containment.BACKGROUND_PROCESS}
        if self._runs_as is not None:
            # Another user: host secrets in /proc, root's home and /etc/shadow are out of
            # reach (world-readable files are not; docs/sandbox.md says so).
            claimed |= {Containment.HOST_SECRETS, Containment.HOST_FILES_READ}
        if SandboxCgroup.available() or os.geteuid() != 0:
            # A cgroup caps forks; without one RLIMIT_NPROC does, which binds non-root only.
            claimed.add(Containment.FORK_BOMB)
        return frozenset(claimed)

    def prepare(self, env: TargetEnvironment) -> None:
        if self._runs_as is None:
            return
        if env.key not in self._usable:
            self._usable[env.key] = self._refusal(env)
        refusal = self._usable[env.key]
        if refusal is not None:
            raise BackendUnavailable(refusal)

    def _refusal(self, env: TargetEnvironment) -> str | None:
        """Why user nobody cannot run this environment's worker, or None if it can."""
        probe = "import argparse, json" + (f"; import {env.import_name}" if env.import_name else "")
        with tempfile.TemporaryDirectory(prefix="qusema-probe-") as home:
            os.chown(home, *self._runs_as)
            for argv in ([str(env.python), "-B", "-s", "-c", probe],
                         [str(env.python), "-B", "-s", str(sandbox_source_dir() / WORKER_SCRIPT), "--help"]):
                try:
                    done = subprocess.run(argv, capture_output=True, text=True, timeout=300, cwd=home,
                                          env=clean_environment(_PROBE_LIMITS, home, [str(env.python.parent)]),
                                          preexec_fn=_drop_to(*self._runs_as))
                except OSError as exc:
                    return self._refusal_line(f"{exc.strerror}: {exc.filename}")
                except subprocess.TimeoutExpired:
                    return self._refusal_line("the probe did not finish in 300 s")
                if done.returncode != 0:
                    lines = (done.stderr or done.stdout).strip().splitlines() or [f"exit code {done.returncode}"]
                    return self._refusal_line(lines[-1])
        return None

    @staticmethod
    def _refusal_line(why: str) -> str:
        return (f"run as root, sandbox 'process' runs snippets as user {UNPRIVILEGED_USER}, who cannot "
                f"use this environment ({why}); {SETUP_HINT}, or keep environments and their Python "
                "where others can read them (QUSEMA_CACHE_DIR, a system Python)")

    def start_worker(self, env: TargetEnvironment, preload: Sequence[str],
                     limits: Limits) -> Transport:
        self.prepare(env)
        home = owned_work_folder("process")
        cgroup = SandboxCgroup.create(limits.pids, limits.sandbox_memory_bytes())
        steps: list[Callable[[], None]] = [cgroup.enter] if cgroup is not None else []
        sweep: list[str] = []
        if self._runs_as is not None:
            os.chown(home, *self._runs_as)
            # Joins the cgroup while still root, then gives root up for good before exec.
            steps.append(_drop_to(*self._runs_as))
            # /dev/shm is shared with the host here; what the sandbox user made there goes.
            sweep.append("/dev/shm")
        # HOME, TMPDIR and the work root are one folder, emptied after every snippet, so
        # nothing a snippet writes there reaches the next one.
        argv = [str(env.python), "-B", "-s", str(sandbox_source_dir() / WORKER_SCRIPT),
                # No pid namespace here: the worker finds leftovers as its descendants.
                *worker_arguments(str(home / "work"), [str(home)], preload, pid_namespace=False,
                                  sweep_own_files=sweep)]
        return PipeTransport(
            argv, clean_environment(limits, str(home), [str(env.python.parent)]), home, cgroup,
            on_close=lambda: shutil.rmtree(home, ignore_errors=True), preexec=_sequence(steps),
        )

    def worker_nproc(self, limits: Limits) -> int | None:
        # RLIMIT_NPROC counts every process of the user; it is the cap only without a cgroup.
        return None if SandboxCgroup.available() else limits.pids


_PROBE_LIMITS = Limits()


def _unprivileged_ids() -> tuple[int, int]:
    try:
        entry = pwd.getpwnam(UNPRIVILEGED_USER)
        return entry.pw_uid, entry.pw_gid
    except KeyError:
        return 65534, 65534


def _drop_to(uid: int, gid: int) -> Callable[[], None]:
    def drop() -> None:
        os.setgroups([])
        os.setgid(gid)
        os.setuid(uid)
    return drop


def _sequence(steps: list[Callable[[], None]]) -> Callable[[], None] | None:
    if not steps:
        return None

    def run_all() -> None:
        for step in steps:
            step()
    return run_all
