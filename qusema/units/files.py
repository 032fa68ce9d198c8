"""Which files of a source tree are library source, and which are passed over (and why).

Discovery never raises on bad input: a file that cannot be read as source is recorded as a
`SkippedFile` with its reason, so `qusema stats` can list it.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path

from qusema.units.records import Language, SkippedFile

# Generated tables and vendored blobs are not code a person wrote against a contract; above
# this size a "source" file is refused rather than parsed (a 10 MB file would dominate time).
MAX_SOURCE_BYTES = 2_000_000

# Folders that hold tests, docs, build output or tooling, never the library itself.
NON_LIBRARY_DIRS = frozenset(
    {
        "test", "tests", "testing_utils", "doc", "docs", "examples", "tools", "benchmarks",
        "build", "dist", "target", ".git", ".tox", ".venv", "venv", "node_modules",
        "__pycache__", "releasenotes", ".github",
    }
)

# Inside a package or crate everything ships, tests subpackages included (they are modules
# users import, e.g. a device test suite); only caches and build output are pruned there.
PRUNED_INSIDE_ROOTS = frozenset({"__pycache__", "node_modules"})

LANGUAGE_BY_SUFFIX: dict[str, Language] = {".py": "python", ".rs": "rust"}


@dataclass(frozen=True)
class SourceFile:
    rel_path: str  # forward slashes, relative to the tree root
    language: Language
    data: bytes
    content_hash: str


@dataclass
class Discovery:
    files: list[SourceFile] = field(default_factory=list)
    skipped: list[SkippedFile] = field(default_factory=list)


@dataclass(frozen=True)
class TreeScope:
    """Which parts of a tree count as the library: package folders for Python, crate
    folders for Rust, minus experimental subtrees that the release marks as such."""

    python_roots: tuple[str, ...]
    rust_roots: tuple[str, ...]
    excluded: tuple[str, ...] = ()  # rel paths of subtrees left out, each explained in `reasons`
    reasons: tuple[str, ...] = ()

    def may_contain(self, rel_dir: str) -> bool:
        """Whether a folder is, is inside, or leads to one of the roots."""
        return any(
            r == "" or rel_dir == r or rel_dir.startswith(r + "/") or r.startswith(rel_dir + "/")
            for r in (*self.python_roots, *self.rust_roots)
        )

    def admits(self, rel_path: str, language: Language) -> bool:
        roots = self.python_roots if language == "python" else self.rust_roots
        if not any(rel_path == r or rel_path.startswith(r + "/") or r == "" for r in roots):
            return False
        return not any(rel_path.startswith(e + "/") for e in self.excluded)


def content_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def discover(root: Path, scope: TreeScope) -> Discovery:
    """Walk `root` without following directory symlinks (so loops cannot trap us) and read
    each candidate source file once."""
    found = Discovery()
    root = root.resolve()
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        here = Path(dirpath)
        rel_here = here.relative_to(root).as_posix()
        dirnames[:] = sorted(
            d for d in dirnames
            if d not in PRUNED_INSIDE_ROOTS and not d.startswith(".") and not _is_cargo_build_dir(here / d)
            and scope.may_contain(d if rel_here == "." else f"{rel_here}/{d}")
        )
        for skipped_link in [d for d in dirnames if (here / d).is_symlink()]:
            dirnames.remove(skipped_link)
            rel = (here / skipped_link).relative_to(root).as_posix()
            found.skipped.append(SkippedFile(rel, "symbolic link to a directory: not followed"))
        for name in sorted(filenames):
            language = LANGUAGE_BY_SUFFIX.get(Path(name).suffix)
            if language is None:
                continue
            path = here / name
            rel = path.relative_to(root).as_posix()
            if not scope.admits(rel, language):
                continue
            outcome = _read_source(path, rel, language, root, scope)
            if isinstance(outcome, SkippedFile):
                found.skipped.append(outcome)
            else:
                found.files.append(outcome)
    return found


def _is_cargo_build_dir(folder: Path) -> bool:
    """Cargo's output folder sits beside a Cargo.toml; a module folder `src/target/` does not."""
    return folder.name == "target" and ((folder.parent / "Cargo.toml").is_file() or (folder / "CACHEDIR.TAG").is_file())


def _skipped_link(path: Path, rel: str, root: Path, scope: TreeScope) -> SkippedFile:
    """A link to a file is never read through: the real file is read where it lives, if that
    is in the library; the reason says which, so nothing reads as indexed that is not."""
    target = Path(os.path.realpath(path))
    if not target.exists():
        return SkippedFile(rel, "broken or looping symbolic link")
    if not target.is_relative_to(root):
        return SkippedFile(rel, f"symbolic link to {target}, outside the indexed tree: not indexed")
    target_rel = target.relative_to(root).as_posix()
    language = LANGUAGE_BY_SUFFIX.get(target.suffix)
    hidden = any(part.startswith(".") or part in PRUNED_INSIDE_ROOTS for part in target_rel.split("/")[:-1])
    if language is None or hidden or not scope.admits(target_rel, language):
        return SkippedFile(rel, f"symbolic link to {target_rel}, which is not library source: not indexed")
    return SkippedFile(rel, f"symbolic link to {target_rel}: the real file is indexed where it lives")


def _read_source(path: Path, rel: str, language: Language, root: Path, scope: TreeScope) -> SourceFile | SkippedFile:
    if path.is_symlink():
        return _skipped_link(path, rel, root, scope)
    try:
        size = path.stat().st_size
    except OSError as exc:
        return SkippedFile(rel, f"cannot stat: {exc.strerror}")
    if size > MAX_SOURCE_BYTES:
        return SkippedFile(rel, f"too large for a source file: {size} bytes > {MAX_SOURCE_BYTES}")
    try:
        data = path.read_bytes()
    except OSError as exc:
        return SkippedFile(rel, f"cannot read: {exc.strerror}")
    if not data.strip():
        return SkippedFile(rel, "empty file: no code")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return SkippedFile(rel, f"not UTF-8 text (byte {exc.start}: {exc.reason})")
    return SourceFile(rel, language, data, content_hash(data))
