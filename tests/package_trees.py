"""Small source trees written and indexed by Stage I, for tests that need a library of their
own (tests/ is on sys.path through its conftest)."""

from pathlib import Path

from qusema.units.index_db import IndexDB
from qusema.units.indexer import build_index, parser_tag
from qusema.units.layout import detect_scope


def write_package(tree: Path, files: dict[str, str]) -> Path:
    """A source tree at `tree` holding `files` (paths relative to it) and a pyproject naming
    it, as Stage I indexes a checkout."""
    for relative, text in files.items():
        (tree / relative).parent.mkdir(parents=True, exist_ok=True)
        (tree / relative).write_text(text)
    (tree / "pyproject.toml").write_text(f"[project]\nname = '{tree.name}'\nversion = '0.1'\n")
    return tree


def index_tree(tree: Path, db_path: Path) -> IndexDB:
    """The Stage I index of the tree, built in one worker."""
    db = IndexDB(db_path, parser_tag())
    build_index(tree, db, detect_scope(tree), workers=1)
    return db
