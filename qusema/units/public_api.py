"""The documented entry points Stage III walks toward: public names reachable from the
`__all__` of public modules, and the names listed in API reference directives
(`.. autosummary::` under `.. currentmodule::`) in module docstrings and in the tree's docs.

A public class contributes its constructor and its public methods (inherited ones
included: they are called through the public class)."""

from __future__ import annotations

import re
from pathlib import Path

from qusema.units.python_symbols import SymbolTable, Value
from qusema.units.records import FileParse, PyO3Export

_CURRENTMODULE = re.compile(r"^\s*\.\.\s+(?:py:)?currentmodule::\s*(\S+)\s*$")
_AUTOSUMMARY = re.compile(r"^(\s*)\.\.\s+autosummary::\s*$")
# `.. autofunction:: name` and friends document one object each
_AUTO_OBJECT = re.compile(r"^\s*\.\.\s+(?:py:)?auto(?:function|class|method|data|attribute)::\s*~?([\w.]+)\s*$")
_PUBLIC_DUNDERS = ("__init__", "__call__", "__new__")


def public_api_rows(table: SymbolTable, exports: list[PyO3Export], segments: set[str],
                    docs_dir: Path | None = None) -> list[tuple[str, str, str]]:
    """(public dotted name, segment qualname, where it was declared) rows."""
    native = _native_members(exports)
    rows: set[tuple[str, str, str]] = set()
    declared: list[tuple[str, str, str]] = []  # (module, name, source)
    for module, facts in table.modules.items():
        if any(part.startswith("_") for part in module.split(".")):
            continue
        if facts["all"] is not None:
            for name in facts["all"]:
                declared.append((module, name, f"{module}.__all__"))
        elif facts["is_package"]:
            # No __all__: by Python's convention a package exports its public names, the
            # ones it imports (re-exports, star-imports included) as well as its own.
            for name in _public_names(table, module):
                declared.append((module, name, f"{module} (public name, no __all__)"))
        for current, name in autosummary_entries(facts["docstring"], module):
            declared.append((current, name, f"autosummary in {module}"))
    for rst in sorted(docs_dir.rglob("*.rst")) if docs_dir and docs_dir.is_dir() else []:
        for current, name in autosummary_entries(rst.read_text(errors="replace"), ""):
            declared.append((current, name, f"autosummary in {rst.name}"))
    for module, name, source in declared:
        value = _lookup(table, module, name)
        public_name = f"{module}.{name}" if module else name
        for suffix, qualname in _entry_points(table, value, native):
            if qualname in segments:
                rows.add((public_name + suffix, qualname, source))
    return sorted(rows)


def _public_names(table: SymbolTable, module: str, seen: frozenset[str] = frozenset()) -> list[str]:
    """What `from module import *` would bind: `__all__`, else every public global and
    imported name, following star-imports."""
    facts = table.modules.get(module)
    if facts is None or module in seen:
        return []
    if facts["all"] is not None:
        return list(facts["all"])
    names = {n for n in facts["globals"] if not n.startswith("_")}
    for imp in facts["imports"]:
        if imp["kind"] == "import":
            bound = imp["alias"] or imp["module"].split(".")[0]
            names.add(bound)
        elif imp["name"] == "*":
            source = table.absolute_module(module, facts["is_package"], imp["module"], imp.get("level", 0))
            names.update(_public_names(table, source, seen | {module}))
        else:
            names.add(imp["alias"] or imp["name"])
    return sorted(n for n in names if not n.startswith("_"))


def autosummary_entries(text: str, default_module: str) -> list[tuple[str, str]]:
    """Names listed in `.. autosummary::` blocks or named by `.. autofunction::`-style
    directives, with the module they are relative to."""
    entries: list[tuple[str, str]] = []
    current = default_module
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        module_match = _CURRENTMODULE.match(line)
        if module_match:
            current = module_match.group(1)
        single = _AUTO_OBJECT.match(line)
        if single:
            entries.append((current, single.group(1)))
        block = _AUTOSUMMARY.match(line)
        index += 1
        if not block:
            continue
        indent = len(block.group(1))
        while index < len(lines):
            entry = lines[index]
            stripped = entry.strip()
            if stripped and len(entry) - len(entry.lstrip()) <= indent:
                break
            if stripped and not stripped.startswith(":") and not stripped.startswith(".."):
                entries.append((current, stripped.lstrip("~")))
            index += 1
    return entries


def _lookup(table: SymbolTable, module: str, dotted: str) -> Value:
    head, *rest = dotted.split(".")
    value = table.global_name(module, head) if module in table.modules else table.module_value(f"{module}.{head}")
    for part in rest:
        value = table.attribute(value, part)
    return value


def _entry_points(table: SymbolTable, value: Value, native: dict[str, list[tuple[str, str]]]) -> list[tuple[str, str]]:
    """(suffix after the public name, segment qualname) for one declared public object."""
    kind = value[0]
    if kind in ("function", "method"):
        return [("", value[1])]
    if kind == "class":
        return _class_entry_points(table, value[1])
    if kind == "native":
        return [(suffix, rust) for suffix, rust in native.get(value[1], [])]
    return []


def _class_entry_points(table: SymbolTable, qualname: str) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    seen: set[str] = set()
    for cls in table.mro(qualname):
        for method in table.classes[cls].facts["methods"]:
            if method in seen or (method.startswith("_") and method not in _PUBLIC_DUNDERS):
                continue
            seen.add(method)
            suffix = "" if method in _PUBLIC_DUNDERS[:1] else f".{method}"
            found.append((suffix, f"{cls}.{method}"))
    return found


def _native_members(exports: list[PyO3Export]) -> dict[str, list[tuple[str, str]]]:
    """Python name of a compiled function or class -> (suffix, Rust qualname) entry points."""
    members: dict[str, list[tuple[str, str]]] = {}
    for export in exports:
        if export.kind in ("function", "constructor"):
            owner = export.python_name if export.kind == "function" else export.python_name.rsplit(".", 1)[0]
            members.setdefault(export.python_name if export.kind == "function" else owner, []).append(
                ("", export.rust_qualname))
        elif export.kind in ("method", "getter", "setter"):
            owner, member = export.python_name.rsplit(".", 1)
            if not member.startswith("_") or member in _PUBLIC_DUNDERS:
                members.setdefault(owner, []).append((f".{member}", export.rust_qualname))
    return members
