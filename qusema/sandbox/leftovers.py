"""What a sandbox leaves on the host, named after the process that made it, and the sweep
that removes what dead processes left (after `kill -9` of an audit nothing else would).

Work folders are `/tmp/qusema-<kind>-<pid>-<random>` and cgroups `qusema-<pid>-<random>`;
every new sandbox first removes those whose process no longer exists (a pid that was
reused only delays that). Listing a few names costs far less than starting a sandbox.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

OWNED_NAME = re.compile(r"^qusema-(?:[a-z]+-)?(\d+)-[0-9a-z_]+$")


def owned_work_folder(kind: str) -> Path:
    """A new private folder under the system temp dir, named after this process."""
    sweep_work_folders(Path(tempfile.gettempdir()))
    return Path(tempfile.mkdtemp(prefix=f"qusema-{kind}-{os.getpid()}-"))


def owned_cgroup_name(random_part: str) -> str:
    return f"qusema-{os.getpid()}-{random_part}"


def owner_of(name: str) -> int | None:
    """The pid a leftover's name records, or None for names of another shape."""
    match = OWNED_NAME.match(name)
    return int(match.group(1)) if match else None


def owner_is_dead(name: str) -> bool:
    pid = owner_of(name)
    return pid is not None and pid_is_dead(pid)


def pid_is_dead(pid: int) -> bool:
    return not Path(f"/proc/{pid}").exists()


def sweep_work_folders(parent: Path) -> list[Path]:
    removed = []
    for entry in parent.glob("qusema-*"):
        if entry.is_dir() and not entry.is_symlink() and owner_is_dead(entry.name):
            shutil.rmtree(entry, ignore_errors=True)
            removed.append(entry)
    return removed
