"""What is installed in a target environment, file by file, and what changed since.

An environment is built once and reused by every later run, on every backend; a run that
managed to write into it (a snippet under the process backend, a `pip install` by hand)
would change what every later run audits. So the files of the venv are recorded when it is
built (`files.json` beside `env.json`, whose digest goes into `env.json`) and compared before
each reuse. Contents are hashed, not sizes and times: a writer can put an mtime back, and
hashing a qiskit environment (5,600 files, 260 MB) takes about 0.3 s once it is in the page
cache (docs/sandbox.md has the measurements).
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

MANIFEST = "files.json"
MANIFEST_FORMAT = 1
# hashlib releases the GIL while hashing, so threads overlap reading and hashing; more than
# a few gain nothing on the machines measured (2 cores: 0.57 s with 1 thread, 0.37 s with 2 or 4).
HASH_THREADS = min(4, os.cpu_count() or 1)


@dataclass(frozen=True)
class InstalledFile:
    path: str  # relative to the venv, forward slashes
    kind: str  # "file" | "link" | "other" (a fifo or socket has no content, but must not appear)
    size: int
    sha256: str  # of the content; of the link's target text for a link; "" for "other"


@dataclass(frozen=True)
class FileChanges:
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    modified: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.added or self.removed or self.modified)

    def describe(self, limit: int = 3) -> str:
        """One line naming the first few changed files, e.g. 'modified lib/.../x.py, added y.pth'."""
        named = ([f"modified {p}" for p in self.modified] + [f"added {p}" for p in self.added]
                 + [f"removed {p}" for p in self.removed])
        more = len(named) - limit
        return ", ".join(named[:limit]) + (f" and {more} more" if more > 0 else "")


@dataclass(frozen=True)
class FileManifest:
    files: tuple[InstalledFile, ...]

    @property
    def digest(self) -> str:
        return hashlib.sha256(self._canonical().encode()).hexdigest()

    def _canonical(self) -> str:
        return json.dumps([[f.path, f.kind, f.size, f.sha256] for f in self.files], separators=(",", ":"))

    def changes_since(self, recorded: FileManifest) -> FileChanges:
        now = {f.path: f for f in self.files}
        then = {f.path: f for f in recorded.files}
        return FileChanges(
            added=tuple(sorted(now.keys() - then.keys())),
            removed=tuple(sorted(then.keys() - now.keys())),
            modified=tuple(sorted(p for p in now.keys() & then.keys() if now[p] != then[p])),
        )

    def write(self, path: Path) -> None:
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps({"format": MANIFEST_FORMAT, "files": json.loads(self._canonical())}) + "\n")
        tmp.replace(path)

    @classmethod
    def read(cls, path: Path) -> FileManifest | None:
        """The manifest at `path`, or None when it is missing or not one (then nothing can be named)."""
        try:
            payload = json.loads(path.read_text())
            return cls(tuple(InstalledFile(*row) for row in payload["files"]))
        except (OSError, ValueError, KeyError, TypeError):
            return None


def scan(root: Path) -> FileManifest:
    """Every file, link and special file under `root` (links are not followed: the venv's
    python links to the base interpreter, which belongs to the machine, not the environment)."""
    found: list[tuple[str, str]] = []  # (relative path, absolute path)
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames.sort()
        # os.walk lists a link to a directory among dirnames and does not enter it; it is an
        # entry of the environment all the same.
        for name in [*filenames, *(d for d in dirnames if os.path.islink(os.path.join(dirpath, d)))]:
            full = os.path.join(dirpath, name)
            found.append((Path(full).relative_to(root).as_posix(), full))
    found.sort()
    with ThreadPoolExecutor(HASH_THREADS) as pool:
        described = pool.map(lambda item: _describe(*item), found)
        return FileManifest(tuple(f for f in described if f is not None))


def _describe(rel: str, full: str) -> InstalledFile | None:
    try:
        return _describe_existing(rel, full)
    except FileNotFoundError:  # removed while we walked: it is then missing from the manifest
        return None


def _describe_existing(rel: str, full: str) -> InstalledFile:
    info = os.lstat(full)
    if stat.S_ISLNK(info.st_mode):
        target = os.readlink(full)
        return InstalledFile(rel, "link", len(target), hashlib.sha256(target.encode()).hexdigest())
    if not stat.S_ISREG(info.st_mode):
        return InstalledFile(rel, "other", 0, "")
    with open(full, "rb") as stream:
        return InstalledFile(rel, "file", info.st_size, hashlib.file_digest(stream, "sha256").hexdigest())

