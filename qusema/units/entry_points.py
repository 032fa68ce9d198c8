"""The plugins a distribution declares as entry points (`[qiskit.unitary_synthesis]
default = qiskit...unitary_synthesis:DefaultUnitarySynthesis`, `[pennylane.plugins]
default.qubit = pennylane.devices:DefaultQubit`).

A plugin is called through a loader (stevedore, importlib.metadata) that names only the
group: no static resolver links `plugin.run(...)` to the class that runs. Knowing the groups
lets the call graph say that a segment loading group G reaches the methods of G's classes.

Read from the metadata a source tree carries: `*.egg-info/entry_points.txt` (sdists),
`*.dist-info/entry_points.txt` (wheels), else `[project.entry-points.*]` in pyproject.toml."""

from __future__ import annotations

import configparser
import tomllib
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class EntryPoint:
    group: str
    name: str
    target: str  # dotted path of the object, "module.Attr" ("module:Attr" in the metadata)


def declared_entry_points(root: Path) -> list[EntryPoint]:
    """Every entry point the source tree at `root` declares; [] when it carries no metadata."""
    metadata = [path for pattern in ("*.egg-info/entry_points.txt", "*.dist-info/entry_points.txt")
                for path in sorted(root.glob(pattern))]
    if metadata:  # one distribution per tree: the first metadata directory is its own
        return _from_ini(metadata[0].read_text(encoding="utf-8", errors="replace"))
    pyproject = root / "pyproject.toml"
    if pyproject.is_file():
        try:
            project = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("project", {})
        except tomllib.TOMLDecodeError:
            return []
        return [EntryPoint(group, name, _dotted(value))
                for group, entries in project.get("entry-points", {}).items()
                for name, value in entries.items() if isinstance(value, str)]
    return []


def _from_ini(text: str) -> list[EntryPoint]:
    parser = configparser.ConfigParser(delimiters=("=",), interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # names are case-sensitive
    try:
        parser.read_string(text)
    except configparser.Error:
        return []
    return [EntryPoint(group, name, _dotted(value))
            for group in parser.sections() for name, value in parser.items(group)]


def _dotted(value: str) -> str:
    # "module:Attr [extra]" -> "module.Attr"
    return value.split("[", 1)[0].strip().replace(":", ".")
