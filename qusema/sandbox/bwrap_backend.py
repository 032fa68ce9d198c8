"""bubblewrap: private network, pid, ipc, uts and user namespaces; only the target
environment, the system's /usr and the runner are visible, all read-only; /tmp is a
private size-capped tmpfs. A cgroup caps processes and memory where one can be made."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

from qusema.sandbox.cgroups import SandboxCgroup
from qusema.sandbox.launch import WORKER_SCRIPT, clean_environment, sandbox_source_dir, worker_arguments
from qusema.sandbox.leftovers import owned_work_folder
from qusema.sandbox.pipe_transport import PipeTransport
from qusema.sandbox.protocol import Transport
from qusema.sandbox.records import Containment, Limits
from qusema.targets.environments import TargetEnvironment

RUNNER_MOUNT = "/qusema-sandbox"
SANDBOX_UID = 10001
# Merged-/usr systems have these as symlinks; others as directories.
SYSTEM_TOP_DIRS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
SYSTEM_FILES = ("/etc/ld.so.cache", "/etc/localtime")


class BwrapBackend:
    name = "bwrap"

    def __init__(self, executable: str | None = None) -> None:
        self.executable = executable or shutil.which("bwrap")

    def unavailable_reason(self) -> str | None:
        if self.executable is None:
            return "bubblewrap (bwrap) is not installed"
        probe = subprocess.run(
            [self.executable, "--unshare-all", "--ro-bind", "/", "/", "--proc", "/proc",
             "--dev", "/dev", "true"], capture_output=True, text=True,
        )
        if probe.returncode != 0:
            return f"bwrap cannot create namespaces here: {probe.stderr.strip()}"
        return None

    def claims(self) -> frozenset[Containment]:
        claimed = set(Containment)
        if not (SandboxCgroup.available() or os.geteuid() != 0):
            # Root without cgroups: RLIMIT_NPROC does not bind root, nothing caps forks.
            claimed.discard(Containment.FORK_BOMB)
        return frozenset(claimed)

    def prepare(self, env: TargetEnvironment) -> None:
        return None

    def worker_nproc(self, limits: Limits) -> int | None:
        return None if SandboxCgroup.available() else limits.pids

    def command(self, env: TargetEnvironment, preload: Sequence[str], limits: Limits) -> list[str]:
        # The private /tmp comes first: binds made after it (an environment or runner that
        # lives under /tmp, e.g. with QUSEMA_CACHE_DIR=/tmp/...) stay visible on top of it.
        argv = [self.executable, "--unshare-all", "--uid", str(SANDBOX_UID),
                "--gid", str(SANDBOX_UID), "--hostname", "sandbox", "--die-with-parent",
                "--new-session", "--cap-drop", "ALL",
                "--size", str(limits.tmpfs_bytes), "--tmpfs", "/tmp",
                "--ro-bind", "/usr", "/usr"]
        for top in SYSTEM_TOP_DIRS:
            path = Path(top)
            if path.is_symlink():
                argv += ["--symlink", os.readlink(path), top]
            elif path.is_dir():
                argv += ["--ro-bind", top, top]
        for file in SYSTEM_FILES:
            argv += ["--ro-bind-try", file, file]
        for tree in _environment_trees(env):
            argv += ["--ro-bind", str(tree), str(tree)]
        argv += ["--ro-bind", str(sandbox_source_dir()), RUNNER_MOUNT,
                 "--proc", "/proc", "--dev", "/dev",
                 "--size", str(64 * 1024**2), "--tmpfs", "/dev/shm",
                 "--remount-ro", "/", "--chdir", "/tmp", "--",
                 str(env.python), "-B", "-s", f"{RUNNER_MOUNT}/{WORKER_SCRIPT}",
                 *worker_arguments("/tmp/work", ["/tmp", "/dev/shm"], preload, pid_namespace=True)]
        return argv

    def start_worker(self, env: TargetEnvironment, preload: Sequence[str],
                     limits: Limits) -> Transport:
        cwd = owned_work_folder("bwrap")
        cgroup = SandboxCgroup.create(limits.pids, limits.sandbox_memory_bytes())
        return PipeTransport(
            self.command(env, preload, limits),
            clean_environment(limits, "/tmp", [str(env.python.parent)]), cwd, cgroup,
            on_close=lambda: shutil.rmtree(cwd, ignore_errors=True),
        )


def _environment_trees(env: TargetEnvironment) -> list[Path]:
    """The directories the target's interpreter needs, outside /usr, without nesting."""
    trees = {env.prefix, env.base_prefix, env.python.parent, env.python.resolve().parent.parent}
    needed = sorted(t for t in trees if not _is_within(t, Path("/usr")))
    return [t for t in needed if not any(_is_within(t, o) and t != o for o in needed)]


def _is_within(path: Path, parent: Path) -> bool:
    return path == parent or parent in path.parents
