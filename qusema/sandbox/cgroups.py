"""A cgroup per sandbox: a hard cap on processes and memory, and a way to kill them all.

Used by the bwrap and process backends (docker makes its own). Works with cgroup v1
(as on these machines) and with a delegated cgroup v2 subtree. Groups are nested under
the caller's own cgroup so the sandbox stays inside whatever already limits the caller.
Where no writable cgroup exists (not root), `SandboxCgroup.create` returns None and
the backends fall back to rlimits and say so in their claims.
"""

from __future__ import annotations

import os
import signal
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from qusema.sandbox.leftovers import owned_cgroup_name, owner_is_dead

CGROUP_ROOT = Path("/sys/fs/cgroup")


def _own_path(controller: str) -> str | None:
    """This process's cgroup path for a v1 controller ('' key for v2)."""
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        if controller in controllers.split(","):
            return path
    return None


@dataclass
class SandboxCgroup:
    dirs: list[Path]  # one per hierarchy (v1) or a single one (v2)
    procs_files: list[Path]

    @classmethod
    def create(cls, pids_max: int, memory_bytes: int) -> SandboxCgroup | None:
        name = owned_cgroup_name(uuid.uuid4().hex[:12])
        cls.sweep_dead_runs()
        try:
            if (CGROUP_ROOT / "cgroup.controllers").is_file():
                return cls._create_v2(name, pids_max, memory_bytes)
            return cls._create_v1(name, pids_max, memory_bytes)
        except (PermissionError, FileNotFoundError, OSError):
            return None

    @classmethod
    def _create_v1(cls, name: str, pids_max: int, memory_bytes: int) -> SandboxCgroup | None:
        dirs: list[Path] = []
        try:
            for controller, settings in (
                ("pids", {"pids.max": str(pids_max)}),
                ("memory", {"memory.limit_in_bytes": str(memory_bytes)}),
            ):
                own = _own_path(controller)
                base = CGROUP_ROOT / controller
                if own is None or not base.is_dir():
                    raise FileNotFoundError(controller)
                group = base / own.lstrip("/") / name
                group.mkdir()
                dirs.append(group)
                for file, value in settings.items():
                    (group / file).write_text(value)
        except OSError:
            cls(dirs, [d / "cgroup.procs" for d in dirs]).remove()
            raise
        return cls(dirs, [d / "cgroup.procs" for d in dirs])

    @classmethod
    def _create_v2(cls, name: str, pids_max: int, memory_bytes: int) -> SandboxCgroup | None:
        own = _own_path("") or "/"
        group = CGROUP_ROOT / own.lstrip("/") / name
        group.mkdir()
        try:
            (group / "pids.max").write_text(str(pids_max))
            (group / "memory.max").write_text(str(memory_bytes))
        except OSError:
            group.rmdir()
            raise
        return cls([group], [group / "cgroup.procs"])

    @classmethod
    def sweep_dead_runs(cls) -> None:
        """Kills and removes the groups dead runs left beside this process's own."""
        try:
            if (CGROUP_ROOT / "cgroup.controllers").is_file():
                parents = [CGROUP_ROOT / (_own_path("") or "/").lstrip("/")]
            else:
                parents = [CGROUP_ROOT / c / (_own_path(c) or "/").lstrip("/") for c in ("pids", "memory")]
        except OSError:
            return
        for parent in parents:
            _sweep_dead_siblings(parent)

    @classmethod
    def available(cls) -> bool:
        probe = cls.create(pids_max=16, memory_bytes=64 * 1024**2)
        if probe is None:
            return False
        probe.remove()
        return True

    def enter(self) -> None:
        """Moves the calling process in; meant for Popen's preexec_fn, so children follow."""
        pid = str(os.getpid()).encode()
        for procs in self.procs_files:
            fd = os.open(procs, os.O_WRONLY)
            try:
                os.write(fd, pid)
            finally:
                os.close(fd)

    def pids(self) -> set[int]:
        found: set[int] = set()
        for procs in self.procs_files:
            try:
                found |= {int(p) for p in procs.read_text().split()}
            except FileNotFoundError:
                continue
        return found

    def kill_all(self, timeout: float = 10.0) -> int:
        """SIGKILLs every process in the group until none is left; returns how many."""
        kill_file = self.dirs[0] / "cgroup.kill"
        killed: set[int] = set()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            left = self.pids()
            if not left:
                return len(killed)
            killed |= left
            if kill_file.exists():
                kill_file.write_text("1")
            else:
                # The pids cap bounds a fork bomb, so repeating this converges.
                for pid in left:
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
            time.sleep(0.01)
        raise TimeoutError(f"processes survive in {self.dirs[0]}: {sorted(self.pids())}")

    def remove(self) -> None:
        for group in self.dirs:
            for _ in range(100):
                try:
                    group.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    # Busy until the last killed process has been reaped by its parent.
                    time.sleep(0.01)


def _sweep_dead_siblings(parent: Path) -> None:
    """Kills and removes the groups of audits that died without cleaning up (kill -9)."""
    if not parent.is_dir():
        return
    for group in parent.glob("qusema-*"):
        if group.is_dir() and owner_is_dead(group.name):
            leftover = SandboxCgroup([group], [group / "cgroup.procs"])
            try:
                leftover.kill_all(timeout=2.0)
            except OSError:  # processes that survive (TimeoutError), or not ours to kill: left
                continue
            leftover.remove()
