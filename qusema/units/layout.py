"""Decide which folders of a source tree are the library: its top-level Python packages
and its Rust crates. Tests, docs and tooling are never part of it."""

from __future__ import annotations

from pathlib import Path

from qusema.units.files import NON_LIBRARY_DIRS, TreeScope

# Subtrees a release ships but declares experimental and outside its stable API. They are
# left out by default (`--include-experimental` keeps them) and the reason is recorded.
EXPERIMENTAL_SUBTREES: dict[str, tuple[str, str]] = {
    "pennylane": ("pennylane/labs", "PennyLane Labs: 'experimental features' outside the stable API"),
}


class NotALibrary(Exception):
    """The folder holds no Python package and no Rust crate."""


def detect_scope(root: Path, include_experimental: bool = False) -> TreeScope:
    python_roots = tuple(sorted(_python_packages(root)))
    rust_roots = tuple(sorted(_rust_crates(root)))
    if not python_roots and not rust_roots:
        raise NotALibrary(
            f"{root} is not a library: no top-level Python package (a folder with __init__.py, "
            "directly or under src/) and no Rust crate (Cargo.toml) was found"
        )
    excluded: list[str] = []
    reasons: list[str] = []
    if not include_experimental:
        for package in python_roots:
            subtree = EXPERIMENTAL_SUBTREES.get(Path(package).name)
            if subtree and (root / subtree[0]).is_dir():
                excluded.append(subtree[0])
                reasons.append(subtree[1])
    return TreeScope(python_roots, rust_roots, tuple(excluded), tuple(reasons))


def _python_packages(root: Path) -> list[str]:
    found: list[str] = []
    for base in (root, root / "src"):
        if not base.is_dir():
            continue
        for child in base.iterdir():
            if child.is_dir() and not child.is_symlink() and child.name not in NON_LIBRARY_DIRS \
                    and child.name.isidentifier() and (child / "__init__.py").is_file():
                found.append(child.relative_to(root).as_posix())
    return found


def _rust_crates(root: Path) -> list[str]:
    """Folders with a Cargo.toml that declares a package, at the root or up to two levels
    down (`crates/<name>`), outside non-library folders."""
    found: list[str] = []
    candidates = [root, *root.glob("*"), *root.glob("*/*")]
    for folder in candidates:
        if not folder.is_dir() or folder.is_symlink():
            continue
        rel_parts = folder.relative_to(root).parts
        if any(part in NON_LIBRARY_DIRS or part.startswith(".") for part in rel_parts):
            continue
        manifest = folder / "Cargo.toml"
        if manifest.is_file() and "[package]" in manifest.read_text(errors="replace"):
            found.append(folder.relative_to(root).as_posix() if rel_parts else "")
    return found
