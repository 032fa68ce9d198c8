"""Stage I, the bridge between the halves: which Rust item a Python dotted name reaches.

The extension modules come from the build configuration (setup.py `RustExtension`, or
`[tool.maturin]`); from each crate's root `#[pymodule]` the registrations recorded by
rust_segments are followed through `add_submodule`-style helpers, `wrap_pymodule!` and
`PyModule::new` submodules, with paths resolved by rust_calls' RustIndex (so `pub use`
re-exports and classes stamped out by `macro_rules!` link like any other).

Exports that no root reaches are reported too: under the class's `#[pyclass(module=..)]`
when it has one, else under `<unreachable:rust::module>.name`.
"""

from __future__ import annotations

import ast
import posixpath
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from qusema.units.records import FileParse, PyO3Export
from qusema.units.rust_calls import Expansion, RustIndex

UNREACHABLE = "<unreachable:{module}>"


# --------------------------------------------------------------------------- build configuration


def find_extension_modules(root: Path) -> dict[str, str]:
    """Cargo.toml path (relative to `root`) -> the Python module it builds, from
    setup.py's `RustExtension("pkg.mod", "path/Cargo.toml")` and pyproject's maturin table."""
    modules: dict[str, str] = {}
    setup = root / "setup.py"
    if setup.is_file():
        modules.update(_setup_py_extensions(setup.read_text(encoding="utf-8", errors="replace")))
    pyproject = root / "pyproject.toml"
    if pyproject.is_file():
        modules.update(_maturin_extension(root, pyproject))
    return modules


def _setup_py_extensions(text: str) -> dict[str, str]:
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return {}
    found = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _called_name(node.func) == "RustExtension":
            target = _argument(node, 0, "target")
            manifest = _argument(node, 1, "path") or "Cargo.toml"
            if target:
                found[_clean_path(manifest)] = target
    return found


def _called_name(function: ast.expr) -> str | None:
    if isinstance(function, ast.Name):
        return function.id
    if isinstance(function, ast.Attribute):
        return function.attr
    return None


def _argument(call: ast.Call, position: int, keyword: str) -> str | None:
    """A string argument given by position or keyword; anything computed is not read."""
    value: ast.expr | None = call.args[position] if len(call.args) > position else None
    for item in call.keywords:
        if item.arg == keyword:
            value = item.value
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return value.value
    return None


def _maturin_extension(root: Path, pyproject: Path) -> dict[str, str]:
    try:
        data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}
    maturin = data.get("tool", {}).get("maturin")
    backend = data.get("build-system", {}).get("build-backend", "")
    if maturin is None and backend != "maturin":
        return {}
    maturin = maturin or {}
    manifest = _clean_path(str(maturin.get("manifest-path", "Cargo.toml")))
    module = maturin.get("module-name") or _cargo_lib_name(root / manifest)
    return {manifest: str(module)} if module else {}


def _cargo_lib_name(manifest: Path) -> str | None:
    try:
        data = tomllib.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    name = data.get("lib", {}).get("name") or data.get("package", {}).get("name")
    return str(name).replace("-", "_") if name else None


def _clean_path(path: str) -> str:
    return posixpath.normpath(path.replace("\\", "/"))


# --------------------------------------------------------------------------- what is exportable


@dataclass
class _Catalog:
    """The raw PyO3 facts of every file, keyed the way registrations reach them."""

    functions: dict[str, dict] = field(default_factory=dict)  # fn qualname -> #[pyfunction]
    classes: dict[str, dict] = field(default_factory=dict)  # canonical type -> #[pyclass]
    methods: dict[str, list[dict]] = field(default_factory=dict)  # canonical type -> #[pymethods] fns
    module_fns: dict[str, dict] = field(default_factory=dict)  # fn qualname -> registrations

    @classmethod
    def build(cls, parses: list[FileParse], index: RustIndex) -> _Catalog:
        catalog = cls()
        templates: dict[str, list[tuple[str, dict]]] = {}
        for parse in parses:
            pyo3 = parse.facts.get("pyo3")
            if parse.language != "rust" or not pyo3:
                continue
            for item in pyo3["functions"]:
                catalog.functions[item["qualname"]] = {**item, "file": parse.file}
            for item in pyo3["module_fns"]:
                catalog.module_fns[item["qualname"]] = {**item, "file": parse.file}
            for kind in ("classes", "method_impls"):
                for item in pyo3[kind]:
                    if "macro" in item:
                        templates.setdefault(item["module"], []).append((kind, {**item, "file": parse.file}))
                    else:
                        catalog._add(kind, {**item, "file": parse.file}, item["module"], index)
        for expansion in index.expansions:
            for kind, item in templates.get(expansion.arm_module, []):
                catalog._add(kind, _stamp(item, expansion), expansion.module, index)
        return catalog

    def _add(self, kind: str, item: dict, module: str, index: RustIndex) -> None:
        if kind == "classes":
            self.classes.setdefault(f"{module}::{item['name']}", item)
        else:
            canonical = index.type_path(module, item["type"])
            methods = [{**m, "file": item["file"]} for m in item["methods"]]
            self.methods.setdefault(canonical, []).extend(methods)


def _stamp(item: dict, expansion: Expansion) -> dict:
    """A template's class or #[pymethods] facts with the invocation's arguments put in."""
    stamped = dict(item)
    for key in ("name", "type", "python_name", "module_arg"):
        if isinstance(item.get(key), str):
            stamped[key] = _unquote(expansion.substitute(item[key]))
    return stamped


def _unquote(text: str) -> str:
    return text[1:-1] if len(text) >= 2 and text[0] == text[-1] == '"' else text


# --------------------------------------------------------------------------- linking


def link_pyo3(
    parses: list[FileParse], extension_modules: dict[str, str], index: RustIndex | None = None
) -> list[PyO3Export]:
    """Every Rust item exported to Python with the dotted name it is reachable as
    (`index`: a RustIndex of the same parses, if one is at hand, to save building it)."""
    index = index if index is not None else RustIndex.build(parses)
    linker = _Linker(index, _Catalog.build(parses, index))
    for manifest, python_module in sorted(extension_modules.items()):
        for root in _roots(parses, linker.catalog, posixpath.dirname(manifest), python_module):
            linker.visit_module(root, python_module)
    linker.add_unreachable()
    return linker.exports


def _roots(parses: list[FileParse], catalog: _Catalog, crate_dir: str, python_module: str) -> list[dict]:
    """The `#[pymodule]` fns at the root of the crate built from `crate_dir`; the one
    named like the extension module's last component wins."""
    prefix = f"{crate_dir}/" if crate_dir not in ("", ".") else ""
    crates = {p.facts["crate"] for p in parses if p.language == "rust" and p.file.startswith(prefix)}
    candidates = [
        m
        for m in catalog.module_fns.values()
        if m["pymodule"] and m["module"] in crates and m["file"].startswith(prefix)
    ]
    named = [m for m in candidates if m["python_name"] == python_module.rsplit(".", 1)[-1]]
    return named or candidates


@dataclass
class _Linker:
    index: RustIndex
    catalog: _Catalog
    exports: list[PyO3Export] = field(default_factory=list)
    _seen: set[tuple[str, str, str]] = field(default_factory=set)
    _visited: set[tuple[str, str]] = field(default_factory=set)
    _reached: set[str] = field(default_factory=set)  # fn qualnames and class types exported

    def _export(self, python_name: str, rust: str, kind: str, file: str, line: int) -> None:
        key = (python_name, rust, kind)
        if key not in self._seen:
            self._seen.add(key)
            self.exports.append(PyO3Export(python_name, rust, kind, file, line))  # type: ignore[arg-type]

    def visit_module(self, module_fn: dict, python_name: str) -> None:
        if (module_fn["qualname"], python_name) in self._visited:
            return
        self._visited.add((module_fn["qualname"], python_name))
        self._export(python_name, module_fn["qualname"], "module", module_fn["file"], module_fn["line"])
        variables = {module_fn["module_var"]: python_name}
        for registration in module_fn["registrations"]:
            if registration["kind"] == "new_module" and registration.get("var") and registration.get("name"):
                variables[registration["var"]] = f"{python_name}.{registration['name']}"
        for registration in module_fn["registrations"]:
            receiver = registration.get("recv") or registration.get("var")
            target_module = variables.get(receiver, python_name)
            self._register(module_fn, registration, target_module)

    def _register(self, module_fn: dict, registration: dict, python_module: str) -> None:
        kind = registration["kind"]
        module = module_fn["module"]
        if kind == "class":
            found = self.index.resolve_path(module, registration["target"].split("::"))
            if found is not None and found.kind == "type":
                self._class(found.target, python_module)
        elif kind == "function":
            found = self.index.resolve_path(module, registration["target"].split("::"))
            if found is not None and found.kind == "fn":
                self._function(found.target, python_module)
        elif kind in ("submodule", "wrapped_module", "module_call"):
            self._submodule(module, registration, python_module)
        elif kind == "helper_call" and self._builds_submodule(module, registration["helper"]):
            self._submodule(module, {**registration, "kind": "submodule"}, python_module)

    def _builds_submodule(self, module: str, helper: str) -> bool:
        """Whether a helper fn makes a module, fills it through a parameter and attaches
        it: what Qiskit's `add_submodule(m, constructor, name)` does."""
        found = self.index.resolve_path(module, helper.split("::"))
        fact = self.catalog.module_fns.get(found.target) if found is not None and found.kind == "fn" else None
        kinds = {r["kind"] for r in (fact or {}).get("registrations", [])}
        return {"new_module", "attach"} <= kinds

    def _submodule(self, module: str, registration: dict, python_module: str) -> None:
        path = registration.get("constructor") or registration.get("target") or ""
        found = self.index.resolve_path(module, path.split("::"))
        if found is None or found.kind != "fn" or found.target not in self.catalog.module_fns:
            return
        constructor = self.catalog.module_fns[found.target]
        if registration["kind"] == "submodule":
            python_module = f"{python_module}.{registration['name']}"
        elif registration["kind"] == "wrapped_module":
            python_module = f"{python_module}.{constructor['python_name']}"
        self.visit_module(constructor, python_module)

    def _function(self, qualname: str, python_module: str) -> None:
        fact = self.catalog.functions.get(qualname)
        name = fact["python_name"] if fact else qualname.rsplit("::", 1)[-1]
        file, line = (fact["file"], fact["line"]) if fact else self._where(qualname)
        self._reached.add(qualname)
        self._export(f"{python_module}.{name}", qualname, "function", file, line)

    def _where(self, qualname: str) -> tuple[str, int]:
        facts = self.index.fn_facts.get(qualname, {})
        return facts.get("file", ""), 0

    def _class(self, type_path: str, python_module: str) -> None:
        fact = self.catalog.classes.get(type_path)
        name = fact["python_name"] if fact else type_path.rsplit("::", 1)[-1]
        file, line = (fact["file"], fact["line"]) if fact else ("", 0)
        self._reached.add(type_path)
        self._class_members(type_path, f"{python_module}.{name}", fact, file, line)

    def _class_members(
        self, type_path: str, python_name: str, fact: dict | None, file: str, line: int
    ) -> None:
        """The class, its `#[pymethods]` and its `#[pyo3(get, set)]` fields."""
        self._export(python_name, type_path, "class", file, line)
        for method in self.catalog.methods.get(type_path, []):
            name = f"{python_name}.{method['python_name']}"
            self._export(name, method["qualname"], method["kind"], method["file"], method["line"])
        for exposed in (fact or {}).get("fields", []):
            name = f"{python_name}.{exposed['python_name']}"
            for kind, wanted in (("getter", exposed["get"]), ("setter", exposed["set"])):
                if wanted:
                    self._export(name, type_path, kind, file, exposed["line"])

    def add_unreachable(self) -> None:
        """Exports no root module reaches: named by `#[pyclass(module=..)]` when given."""
        for qualname, fact in sorted(self.catalog.functions.items()):
            if qualname not in self._reached:
                name = f"{UNREACHABLE.format(module=fact['module'])}.{fact['python_name']}"
                self._export(name, qualname, "function", fact["file"], fact["line"])
        for type_path, fact in sorted(self.catalog.classes.items()):
            if type_path not in self._reached:
                where = fact["module_arg"] or UNREACHABLE.format(module=type_path.rsplit("::", 1)[0])
                name = f"{where}.{fact['python_name']}"
                self._class_members(type_path, name, fact, fact["file"], fact["line"])
        for type_path in sorted(set(self.catalog.methods) - set(self.catalog.classes) - self._reached):
            where = UNREACHABLE.format(module=type_path.rsplit("::", 1)[0])
            self._class_members(type_path, f"{where}.{type_path.rsplit('::', 1)[-1]}", None, "", 0)
