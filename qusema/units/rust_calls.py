"""Stage I for Rust, across files: resolve the call sites that rust_segments recorded to
the segments they reach, the way rustc's name resolution would as far as it can be done
without types: `use` declarations (aliases, globs, `pub use` re-exports), `crate::`,
`super::`, `self::`, `Self`, impl blocks (also those stamped out by `macro_rules!`), and
method calls whose receiver type is written down (`self`, a typed local, `T::new(..)`).

What cannot be resolved is kept, with the reason, never guessed: a method name defined on
several library types with an unknown receiver stays unresolved (marked as evidence that
the call aims into the library); a method name defined on exactly one is resolved and says
so (via="unique-name")."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Literal

from qusema.units.records import CallSite, FileParse

STD_CRATES = frozenset({"std", "core", "alloc"})
# Names in scope in every module without a `use` (the std prelude and primitive types).
PRELUDE = frozenset(
    "Vec String Box Option Result Some None Ok Err ToString ToOwned Iterator IntoIterator "
    "DoubleEndedIterator ExactSizeIterator Extend FromIterator Default Clone Copy Send Sync "
    "Sized Drop Fn FnMut FnOnce From Into TryFrom TryInto AsRef AsMut PartialEq Eq PartialOrd "
    "Ord drop char bool str u8 u16 u32 u64 u128 usize i8 i16 i32 i64 i128 isize f32 f64".split()
)
STD_MACROS = frozenset(
    "vec format print println eprint eprintln write writeln panic assert assert_eq assert_ne "
    "debug_assert debug_assert_eq debug_assert_ne unreachable unimplemented todo matches "
    "concat stringify include include_str include_bytes env option_env cfg line column file "
    "module_path dbg format_args compile_error thread_local addr_of addr_of_mut".split()
)
PYO3_MACROS = frozenset(
    "wrap_pyfunction wrap_pymodule intern py_run create_exception import_exception pyo3".split()
)
# Methods of std and pyo3 types so common that a library method of the same name says
# nothing about which one an untyped receiver reaches.
COMMON_METHODS = frozenset(
    """iter iter_mut into_iter len is_empty push pop insert remove get get_mut contains
    contains_key clear extend append truncate reserve with_capacity capacity map map_err
    and_then or_else filter filter_map flat_map fold for_each collect count sum product
    zip enumerate rev skip take chain cloned copied any all find position max min max_by
    min_by sort sort_by sort_unstable sort_unstable_by dedup retain drain keys values
    values_mut entry or_insert or_insert_with or_default unwrap expect unwrap_or
    unwrap_or_else unwrap_or_default ok ok_or ok_or_else is_some is_none is_ok is_err as_ref
    as_mut as_slice as_str to_vec to_string to_owned clone borrow borrow_mut into from
    try_into try_from eq ne cmp partial_cmp hash fmt default next last first split join
    starts_with ends_with trim chars bytes lines parse abs sqrt powi powf exp ln sin cos
    conj norm re im swap take replace new build index as_ptr view view_mut dot shape ndim
    extract bind py call call1 call_method call_method1 getattr setattr downcast
    into_pyobject into_py to_object add add_class add_function set_item get_item""".split()
)
# Method names only pyo3's types have: an untyped receiver of one is a Python object.
PYO3_METHODS = frozenset(
    """extract bind bind_borrowed py call call0 call1 call_method call_method0 call_method1
    getattr setattr hasattr downcast downcast_into downcast_bound into_pyobject into_bound
    into_any into_py_any into_bound_py_any unbind clone_ref get_type is_instance is_truthy
    repr add_class add_function add_wrapped add_submodule set_item get_item del_item new_err
    restore qualname import cast cast_into try_iter""".split()
)
# Methods `#[derive(..)]` writes: a call to one is a call into generated code.
DERIVED_METHODS = {
    "Clone": ("clone", "clone_from"),
    "Default": ("default",),
    "Debug": ("fmt",),
    "PartialEq": ("eq", "ne"),
    "Hash": ("hash",),
    "PartialOrd": ("partial_cmp", "lt", "le", "gt", "ge"),
    "Ord": ("cmp", "max", "min", "clamp"),
    "IntoPyObject": ("into_pyobject",),
    "FromPyObject": ("extract", "extract_bound"),
}
# Item macros of other crates that define a type named by their second argument.
TYPE_DEFINING_MACROS = {
    "create_exception": "pyo3",
    "import_exception": "pyo3",
    "import_exception_bound": "pyo3",
}
UNWRAPPABLE = frozenset({"Option", "Result", "PyResult"})
# Wrappers whose methods and whose content's methods are both callable on them.
DEREF_WRAPPERS = frozenset(
    {"Box", "Rc", "Arc", "PyRef", "PyRefMut", "Bound", "Py", "Borrowed", "RefCell", "Cell"}
)
_METAVARIABLE = re.compile(r"\$[A-Za-z_][A-Za-z0-9_]*")

ResolvedKind = Literal["fn", "type", "trait", "module", "external", "trait_method", "ambiguous"]


@dataclass(frozen=True)
class Resolved:
    """What a path names: a segment (fn), a type, trait or module of the library, something
    outside it (external: target is the crate), or several candidates (ambiguous)."""

    kind: ResolvedKind
    target: str
    via: str = "path"
    candidates: tuple[str, ...] = ()


@dataclass(frozen=True)
class Expansion:
    """One item-level invocation of a library `macro_rules!`, matched to one of its arms."""

    module: str  # where the invocation is: the module the expanded items live in
    arm_module: str  # the pseudo-module of the template (`crate::m::name!`)
    bindings: dict[str, str]
    file: str
    line: int

    def substitute(self, text: str) -> str:
        return _METAVARIABLE.sub(lambda m: self.bindings.get(m.group(0), m.group(0)), text)


@dataclass(frozen=True)
class _Method:
    qualname: str
    inherent: bool
    trait: str | None  # canonical path of the trait of a trait impl


@dataclass
class RustIndex:
    """Names of the whole library, the way name resolution needs them. Build with
    `RustIndex.build(parses)`; lookups are memoised on the instance."""

    crates: set[str] = field(default_factory=set)
    modules: set[str] = field(default_factory=set)
    items: dict[str, dict[str, Resolved]] = field(default_factory=dict)
    imports: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    globs: dict[str, list[list[str]]] = field(default_factory=dict)
    methods: dict[str, dict[str, list[_Method]]] = field(default_factory=dict)
    traits_of: dict[str, set[str]] = field(default_factory=dict)
    trait_methods: dict[str, dict[str, str | None]] = field(default_factory=dict)
    fields: dict[str, tuple[str, dict[str, list[str]]]] = field(default_factory=dict)
    type_aliases: dict[str, tuple[str, list[str]]] = field(default_factory=dict)
    derives: dict[str, set[str]] = field(default_factory=dict)
    method_names: dict[str, set[str]] = field(default_factory=dict)
    fn_names: set[str] = field(default_factory=set)
    declared_methods: set[str] = field(default_factory=set)  # methods library traits declare
    macros: dict[str, list[dict]] = field(default_factory=dict)
    expansions: list[Expansion] = field(default_factory=list)
    fn_facts: dict[str, dict] = field(default_factory=dict)
    template_types: dict[str, list[dict]] = field(default_factory=dict)
    impl_types: dict[tuple[str, int], str] = field(default_factory=dict)
    trait_paths: dict[tuple[str, int], str] = field(default_factory=dict)
    _cache: dict[tuple[str, str], Resolved | None] = field(default_factory=dict)
    _active: set[tuple[str, str]] = field(default_factory=set)
    _external_globs: dict[str, list[str]] = field(default_factory=dict)

    # ------------------------------------------------------------------ building

    @classmethod
    def build(cls, parses: list[FileParse]) -> RustIndex:
        index = cls()
        rust = [p for p in parses if p.language == "rust"]
        for parse in rust:
            index._add_names(parse)
        for parse in rust:
            index._add_expansions(parse)
        pending = [(p.file, i, m, m["module"]) for p in rust for i, m in enumerate(p.facts["impls"])]
        pending += index._instance_impls(rust)
        for file, number, impl, module in pending:
            index._add_impl(file, number, impl, module)
        for parse in rust:
            index._add_traits(parse)
        index._cache.clear()
        index._external_globs.clear()
        return index

    def _add_names(self, parse: FileParse) -> None:
        facts = parse.facts
        self.crates.add(facts["crate"])
        self._add_module(facts["module"])
        for module in facts["modules"]:
            self._add_module(module["path"])
        for segment in parse.segments:
            self.fn_names.add(segment.name)
            fn = self.fn_facts[segment.qualname] = {**facts["fns"][segment.qualname], "file": parse.file}
            # A call to a partitioned fn enters at its first partition.
            entry = segment.kind != "partition" or segment.qualname.endswith("#p1")
            if segment.owner is None and entry:
                self._define(fn["module"], segment.name, Resolved("fn", segment.qualname, "scope"))
        for item in facts["types"]:
            self._add_type(item, item["module"], item["name"], item["fields"], item.get("target"))
            if "macro" in item:
                self.template_types.setdefault(item["module"], []).append(item)
        for number, trait in enumerate(facts["traits"]):
            path = f"{trait['module']}::{trait['name']}"
            self._add_module(trait["module"])
            self._define(trait["module"], trait["name"], Resolved("trait", path, "scope"))
            self.trait_paths[(parse.file, number)] = path
        for use in facts["uses"]:
            segments = use["path"].split("::")
            if use["glob"]:
                self.globs.setdefault(use["module"], []).append(segments)
            else:
                self.imports.setdefault(use["module"], {})[use["alias"] or segments[-1]] = segments
        for macro in facts["macros"]:
            definition = {**macro, "crate": facts["crate"], "file": parse.file}
            self.macros.setdefault(macro["name"], []).append(definition)
            for arm in macro["arms"]:
                self._add_module(arm["module"])

    def _add_module(self, path: str) -> None:
        if path in self.modules:
            return
        self.modules.add(path)
        if "::" in path:
            parent, name = path.rsplit("::", 1)
            self._add_module(parent)
            self._define(parent, name, Resolved("module", path, "scope"))

    def _define(self, module: str, name: str, resolved: Resolved) -> None:
        self.items.setdefault(module, {}).setdefault(name, resolved)

    def _add_type(self, item: dict, module: str, name: str, fields: dict, target: list[str] | None) -> None:
        path = f"{module}::{name}"
        self._define(module, name, Resolved("type", path, "scope"))
        self.fields[path] = (module, fields)
        self.derives.setdefault(path, set()).update(item.get("derives", []))
        if target:
            self.type_aliases[path] = (module, target)

    def _add_expansions(self, parse: FileParse) -> None:
        for call in parse.facts["macro_calls"]:
            if "macro" in call:
                continue  # an invocation inside a template: would need a second expansion
            if call["name"] in TYPE_DEFINING_MACROS and len(call["args"]) >= 2:
                crate = TYPE_DEFINING_MACROS[call["name"]]
                self._define(call["module"], call["args"][1], Resolved("external", crate, "macro"))
            expansion = self._expand(call, parse)
            if expansion is None:
                continue
            self.expansions.append(expansion)
            for item in self.template_types.get(expansion.arm_module, []):
                name = expansion.substitute(item["name"])
                if name.isidentifier():
                    fields = {k: [expansion.substitute(t) for t in v] for k, v in item["fields"].items()}
                    self._add_type(item, expansion.module, name, fields, item.get("target"))
            for qualname, facts in self.fn_facts.items():
                if facts["module"] == expansion.arm_module and facts["self"] is None:
                    name = expansion.substitute(qualname.rsplit("::", 1)[-1])
                    if name.isidentifier():
                        self._define(expansion.module, name, Resolved("fn", qualname, "scope"))

    def _expand(self, call: dict, parse: FileParse) -> Expansion | None:
        definition = self._macro_definition(call["name"], parse.facts["crate"], call["module"])
        if definition is None:
            return None
        for arm in definition["arms"]:
            bindings = bind_macro_arguments(arm["params"], call["args"])
            if bindings is not None:
                return Expansion(call["module"], arm["module"], bindings, parse.file, call["line"])
        return None

    def _macro_definition(self, name: str, crate: str, module: str) -> dict | None:
        definitions = self.macros.get(name, [])
        same_crate = [d for d in definitions if d["crate"] == crate]
        same_crate.sort(key=lambda d: d["module"] != module)
        exported = [d for d in definitions if d["exported"]]
        return (same_crate or exported or [None])[0]

    def _instance_impls(self, parses: list[FileParse]) -> list[tuple[str, int, dict, str]]:
        """The impls of each expansion, with metavariables replaced by the arguments."""
        templates: dict[str, list[dict]] = {}
        for parse in parses:
            for impl in parse.facts["impls"]:
                if "macro" in impl:
                    templates.setdefault(impl["module"], []).append(impl)
        instances = []
        for expansion in self.expansions:
            for impl in templates.get(expansion.arm_module, []):
                stamped = {
                    **impl,
                    "type": expansion.substitute(impl["type"]),
                    "trait_path": expansion.substitute(impl["trait_path"]) if impl["trait_path"] else None,
                }
                instances.append((expansion.file, -1, stamped, expansion.module))
        return instances

    def _add_impl(self, file: str, number: int, impl: dict, module: str) -> None:
        canonical = self.type_path(module, impl["type"])
        if number >= 0:
            self.impl_types[(file, number)] = canonical
        trait = None
        if impl["trait_path"]:
            found = self.resolve_path(module, impl["trait_path"].split("::"))
            trait = found.target if found is not None else impl["trait_path"]
            self.traits_of.setdefault(canonical, set()).add(trait)
        table = self.methods.setdefault(canonical, {})
        for method in impl["methods"]:
            table.setdefault(method["name"], []).append(_Method(method["qualname"], trait is None, trait))
            self.method_names.setdefault(method["name"], set()).add(method["qualname"])

    def _add_traits(self, parse: FileParse) -> None:
        for number, trait in enumerate(parse.facts["traits"]):
            table = self.trait_methods.setdefault(self.trait_paths[(parse.file, number)], {})
            for method in trait["methods"]:
                table[method["name"]] = method["qualname"]
                self.declared_methods.add(method["name"])
                if method["qualname"] is not None:
                    self.method_names.setdefault(method["name"], set()).add(method["qualname"])

    def defines(self, name: str) -> bool:
        """Whether the library has a fn or a trait method of this name: evidence that an
        unresolved call by that name may aim into it."""
        return name in self.fn_names or name in self.declared_methods

    def self_type_of(self, qualname: str) -> str | None:
        """The canonical type `Self` means in a segment (None outside impls)."""
        facts = self.fn_facts.get(qualname)
        ref = (facts or {}).get("self") or {}
        return self.impl_types.get((facts["file"], ref["impl"])) if "impl" in ref else None

    def self_trait_of(self, qualname: str) -> str | None:
        facts = self.fn_facts.get(qualname)
        ref = (facts or {}).get("self") or {}
        return self.trait_paths.get((facts["file"], ref["trait"])) if "trait" in ref else None

    # ------------------------------------------------------------------ name resolution

    def type_path(self, module: str, path: str) -> str:
        """Canonical path of a type named in `module`; unresolvable names stay local."""
        found = self.resolve_path(module, path.split("::"))
        if found is not None and found.kind in ("type", "trait", "external"):
            return found.target if found.kind != "external" else path
        return f"{module}::{path.split('::')[-1]}"

    def resolve_path(
        self, module: str, segments: list[str], self_type: str | None = None, path_head: bool | None = None
    ) -> Resolved | None:
        """What `a::b::c` written in `module` names (`path_head`: the first segment is
        followed by more, as in a glob import `a::*`, even when the list ends there)."""
        head, rest = segments[0], segments[1:]
        if head == "" and rest:
            current = self._crate_root(rest[0])
            rest = rest[1:]
        elif head == "crate":
            current = Resolved("module", module.split("::")[0], "path")
        elif head in ("self", "super"):
            current, rest = self._relative(module, segments)
        elif head == "Self":
            current = Resolved("type", self_type, "self") if self_type else None
        else:
            current = self.scope(module, head, path_head=bool(rest) if path_head is None else path_head)
        for segment in rest:
            if current is None:
                return None
            current = self.member(current, segment)
        return current

    def _crate_root(self, name: str) -> Resolved:
        return Resolved("module", name, "path") if name in self.crates else Resolved("external", name, "path")

    def _relative(self, module: str, segments: list[str]) -> tuple[Resolved | None, list[str]]:
        current = _real_module(module)
        rest = segments
        if rest[0] == "self":
            rest = rest[1:]
        while rest and rest[0] == "super":
            if "::" not in current:
                return None, []
            current = current.rsplit("::", 1)[0]
            rest = rest[1:]
        return Resolved("module", current, "path"), rest

    def scope(self, module: str, name: str, path_head: bool = False) -> Resolved | None:
        """A name as the first segment of a path, or alone, in `module`."""
        found = self.lookup(module, name)
        if found is not None:
            return found
        if name in self.crates:
            return Resolved("module", name, "path")
        if name in PRELUDE or name in STD_CRATES:
            return Resolved("external", "std", "prelude")
        if path_head and name[:1].islower():
            return Resolved("external", name, "path")  # an extern crate named by its path
        crates = [] if path_head else self.external_globs(module)
        if crates:
            # Not defined in the library, so it comes in through `use pyo3::prelude::*` & co.
            return Resolved("external", "|".join(crates), "glob")
        return None

    def lookup(self, module: str, name: str) -> Resolved | None:
        """An item visible by `name` in `module`: defined there, imported, or glob-imported."""
        key = (module, name)
        if key in self._cache:
            return self._cache[key]
        if key in self._active:
            return None  # glob cycles (`a` uses `b::*`, `b` uses `a::*`) end here
        self._active.add(key)
        found = self.items.get(module, {}).get(name)
        if found is None and name in self.imports.get(module, {}):
            target = self.resolve_path(module, self.imports[module][name])
            found = replace(target, via="import") if target is not None else None
        if found is None:
            found = self._glob_lookup(module, name)
        if found is None and _real_module(module) != module:
            # A template's body sees the names of the module the macro is defined in.
            found = self.lookup(module.rsplit("::", 1)[0], name)
        self._active.discard(key)
        self._cache[key] = found
        return found

    def _glob_lookup(self, module: str, name: str) -> Resolved | None:
        for glob in self.globs.get(module, []):
            source = self.resolve_path(module, glob, path_head=True) if glob else None
            if source is not None and source.kind == "module":
                found = self.lookup(source.target, name)
                if found is not None:
                    return replace(found, via="import")
        return None

    def external_globs(self, module: str) -> list[str]:
        """Crates outside the library that `module` glob-imports (`use pyo3::prelude::*`)."""
        real = _real_module(module)
        if real not in self._external_globs:
            crates = set()
            for glob in self.globs.get(real, []):
                source = self.resolve_path(real, glob, path_head=True) if glob else None
                if source is not None and source.kind == "external":
                    crates.add(source.target)
            self._external_globs[real] = sorted(crates)
        return self._external_globs[real]

    def member(self, current: Resolved, name: str) -> Resolved | None:
        """What `name` is inside a module, type (a method), trait or external crate."""
        if current.kind == "module":
            found = self.lookup(current.target, name)
            if found is None and f"{current.target}::{name}" in self.modules:
                found = Resolved("module", f"{current.target}::{name}")
            return replace(found, via=current.via) if found is not None else None
        if current.kind == "type":
            found = self.method(current.target, name)
            return replace(found, via=current.via if found.via == "path" else found.via) if found else None
        if current.kind == "trait":
            methods = self.trait_methods.get(current.target, {})
            if name not in methods:
                return None
            default = methods[name]
            if default is None:
                return Resolved("trait_method", f"{current.target}::{name}", current.via)
            return Resolved("fn", default, "trait-default")
        if current.kind == "external":
            return current
        return None

    def method(self, type_path: str, name: str, trait: str | None = None, depth: int = 0) -> Resolved | None:
        """A method of a library type: inherent impls first (as rustc), then trait impls,
        then default bodies of traits the type implements, then what derives generate."""
        candidates = self.methods.get(type_path, {}).get(name, [])
        if trait is not None:
            candidates = [m for m in candidates if m.trait == trait]
        inherent = [m for m in candidates if m.inherent]
        if inherent or len(candidates) == 1:
            return Resolved("fn", (inherent or candidates)[0].qualname, "path")
        if candidates:
            return Resolved("ambiguous", name, "path", tuple(m.qualname for m in candidates))
        for implemented in sorted(self.traits_of.get(type_path, ())):
            default = self.trait_methods.get(implemented, {}).get(name)
            if default is not None and trait in (None, implemented):
                return Resolved("fn", default, "trait-default")
        if type_path in self.type_aliases and depth < 8:
            module, chain = self.type_aliases[type_path]
            target = self.resolve_path(module, chain[0].split("::"))
            if target is not None and target.kind == "type":
                return self.method(target.target, name, trait, depth + 1)
        if any(name in DERIVED_METHODS.get(d, ()) for d in self.derives.get(type_path, ())):
            return Resolved("external", "derive", "derive")
        return None


def bind_macro_arguments(params: list[dict], args: list[str]) -> dict[str, str] | None:
    """Match an invocation's comma-separated arguments against an arm's matcher; only
    flat matchers (`$a:ident, $b:expr, literal`) are attempted."""
    if any("repeat" in p for p in params) or len(params) != len(args):
        return None
    bindings = {}
    for param, arg in zip(params, args):
        if "bind" in param:
            bindings[param["bind"]] = arg
        elif "".join(param["literal"].split()) != "".join(arg.split()):
            return None
    return bindings


def _real_module(module: str) -> str:
    """The module a macro template's pseudo-module (`crate::m::name!`) sits in."""
    while "!" in module.rsplit("::", 1)[-1]:
        module = module.rsplit("::", 1)[0]
    return module


# --------------------------------------------------------------------------- call sites


def resolve_rust_calls(parses: list[FileParse]) -> list[CallSite]:
    """Every Rust call site recorded by rust_segments, resolved to a segment qualname
    where possible, else marked external (with the crate) or unresolved (with why)."""
    return resolve_with_index(RustIndex.build(parses))


def resolve_with_index(index: RustIndex) -> list[CallSite]:
    sites = []
    for qualname, facts in index.fn_facts.items():
        caller = _Caller.of(index, qualname, facts)
        for call in facts["calls"]:
            site = caller.resolve(call)
            if site is not None:
                sites.append(site)
    return sites


@dataclass(frozen=True)
class _Caller:
    """One segment's point of view: its module, `Self`, its locals, its own calls (an
    expression may be the result of one of them)."""

    index: RustIndex
    qualname: str
    facts: dict
    self_type: str | None
    self_trait: str | None
    calls_at: dict[str, dict]
    memo: dict[str, CallSite | None] = field(default_factory=dict)

    @classmethod
    def of(cls, index: RustIndex, qualname: str, facts: dict) -> _Caller:
        calls_at = {c["at"]: c for c in facts["calls"] if "at" in c}
        self_type, self_trait = index.self_type_of(qualname), index.self_trait_of(qualname)
        return cls(index, qualname, facts, self_type, self_trait, calls_at)

    @property
    def module(self) -> str:
        return self.facts["module"]

    def resolve(self, call: dict) -> CallSite | None:
        key = call.get("at") or f"{call['line']}:{call['callee']}:{call['shape']}"
        if key not in self.memo:
            self.memo[key] = None  # an expression cannot be its own receiver; stops cycles
            self.memo[key] = self._resolve(call)
        return self.memo[key]

    def _resolve(self, call: dict) -> CallSite | None:
        shape = call["shape"]
        if shape == "plain":
            return self._plain(call)
        if shape in ("path", "reference"):
            site = self._path(call)
            if shape == "path" or site is None:
                return site
            if site.status == "unresolved":
                return None  # a path argument that names no fn is just a value
            return replace(site, via="reference") if site.status == "resolved" else site
        if shape == "method":
            return self._method(call)
        if shape == "macro":
            return self._macro(call)
        return self._site(call, "unresolved", reason="callee is a computed expression")

    def _site(self, call: dict, status: str, **values) -> CallSite:
        return CallSite(
            caller=self.qualname, line=call["line"], callee_text=call["callee"], status=status, **values
        )

    def _local(self, call: dict) -> CallSite:
        # A nested fn, closure or local macro: its code is part of this very segment.
        return self._site(call, "resolved", target=self.qualname, via="local")

    def _plain(self, call: dict) -> CallSite | None:
        name = call["name"]
        if name in self.facts["local_names"]:
            return self._local(call)
        if name in self.facts["locals"]:
            return self._site(call, "unresolved", reason="calls a local variable or parameter")
        return self._outcome(call, self.index.scope(self.module, name), name)

    def _path(self, call: dict) -> CallSite | None:
        name = call["name"]
        if "qself" in call:
            found = self._qualified(call)
        else:
            segments = call["path"].split("::")
            found = self.index.resolve_path(self.module, segments, self.self_type)
            if found is None and segments[0] == "Self" and self.self_trait:
                found = self.index.member(Resolved("trait", self.self_trait, "self"), name)
            if found is None:
                return self._unfound_path(call, segments)
        return self._outcome(call, found, name)

    def _qualified(self, call: dict) -> Resolved | None:
        """`<T as Trait>::f` and `<T>::f`."""
        owner = self.index.resolve_path(self.module, call["qself"].split("::"), self.self_type)
        trait = None
        if call.get("as_trait"):
            trait = self.index.resolve_path(self.module, call["as_trait"].split("::"), self.self_type)
        if owner is not None and owner.kind == "type":
            wanted = trait.target if trait is not None and trait.kind == "trait" else None
            found = self.index.method(owner.target, call["name"], wanted)
            if found is not None:
                return found
        if trait is not None and trait.kind == "trait":
            return self.index.member(trait, call["name"])
        if trait is not None and trait.kind == "external":
            return trait
        return owner if owner is not None and owner.kind == "external" else None

    def _unfound_path(self, call: dict, segments: list[str]) -> CallSite:
        evidence = self.index.defines(call["name"])
        if segments[0] in self.facts["generics"]:
            reason = f"called through the type parameter `{segments[0]}`: the implementing type is unknown"
            return self._site(call, "unresolved", reason=reason, in_library_evidence=evidence)
        if self.index.scope(self.module, segments[0], path_head=True) is None:
            crates = self.index.external_globs(self.module)
            if crates:
                return self._site(call, "external", external="|".join(crates), via="glob")
        prefix = None
        if len(segments) > 1:
            prefix = self.index.resolve_path(self.module, segments[:-1], self.self_type)
        if prefix is not None and prefix.kind == "type":
            reason = f"no method `{segments[-1]}` found on `{prefix.target}`"
            reason += " (external trait or generated code)"
            return self._site(call, "unresolved", reason=reason, in_library_evidence=True)
        reason = f"path `{call['path']}` not found"
        return self._site(call, "unresolved", reason=reason, in_library_evidence=evidence)

    def _outcome(self, call: dict, found: Resolved | None, name: str) -> CallSite | None:
        if found is None:
            crates = self.index.external_globs(self.module)
            if crates:
                return self._site(call, "external", external="|".join(crates), via="glob")
            evidence = self.index.defines(name)
            reason = f"`{name}` not found in scope"
            return self._site(call, "unresolved", reason=reason, in_library_evidence=evidence)
        if found.kind == "fn":
            return self._site(call, "resolved", target=found.target, via=found.via)
        if found.kind == "external":
            return self._site(call, "external", external=found.target, via=found.via)
        if found.kind == "ambiguous":
            reason = f"`{name}` is implemented several times: {', '.join(found.candidates)}"
            return self._site(call, "unresolved", reason=reason, in_library_evidence=True)
        if found.kind == "trait_method":
            reason = f"`{found.target}` has no default body; the implementing type is unknown"
            return self._site(call, "unresolved", reason=reason, in_library_evidence=True)
        return None  # a type, trait or module called like a fn: a constructor, not code

    def _method(self, call: dict) -> CallSite | None:
        name = call["name"]
        receiver = call.get("receiver")
        if receiver is not None and "self" in receiver and self.self_trait is not None:
            found = self.index.member(Resolved("trait", self.self_trait, "self"), name)
            if found is not None:
                return self._outcome(call, found, name)
        types = self._receiver_types(receiver, 0, call["line"])
        via = "self" if receiver is not None and "self" in receiver else "type-inference"
        for candidate in types:
            if candidate.kind != "type":
                continue
            found = self.index.method(candidate.target, name)
            if found is not None:
                keep = found.kind != "fn" or found.via == "trait-default"
                return self._outcome(call, found if keep else replace(found, via=via), name)
        outside = next((t for t in types if t.kind == "external"), None)
        if outside is not None:
            return self._site(call, "external", external=outside.target, via=via)
        return self._by_name(call, name)

    def _binding(self, name: str, line: int) -> dict | None:
        """The binding of a local name in force at `line`: the last one before it (in
        `let x = x.f();` the receiver is the earlier `x`), else one on the line itself."""
        bindings = self.facts["locals"].get(name, [])
        earlier = [value for at, value in bindings if at < line]
        same_line = [value for at, value in bindings if at == line]
        return (earlier or same_line or [None])[-1]

    def _receiver_types(self, expression: dict | None, depth: int, line: int) -> list[Resolved]:
        """Types a receiver expression may have, outermost first; [] when unknown."""
        if expression is None or depth > 8:
            return []
        unwrap = expression.get("unwrap", 0)
        if "self" in expression:
            return [Resolved("type", self.self_type, "self")] if self.self_type else []
        if "var" in expression:
            local = self._binding(expression["var"], line)
            if local is None:
                return []
            bound = {**local, "unwrap": local.get("unwrap", 0) + unwrap}
            return self._receiver_types(bound, depth + 1, line)
        if "chain" in expression:
            return self._chain_types(self.module, expression["chain"], unwrap, self.self_type)
        if "field" in expression:
            return self._field_types(expression, unwrap, depth, line)
        if "call" in expression:
            return self._returned_types(expression["call"], unwrap)
        return []

    def _field_types(self, expression: dict, unwrap: int, depth: int, line: int) -> list[Resolved]:
        for owner in self._receiver_types(expression["of"], depth + 1, line):
            if owner.kind == "type" and owner.target in self.index.fields:
                module, fields = self.index.fields[owner.target]
                if expression["field"] in fields:
                    return self._chain_types(module, fields[expression["field"]], unwrap, owner.target)
        return []

    def _returned_types(self, at: str, unwrap: int) -> list[Resolved]:
        call = self.calls_at.get(at)
        site = self.resolve(call) if call is not None else None
        if site is None:
            return []
        if site.status == "external":
            return [Resolved("external", site.external or "unknown", "type-inference")]
        callee = self.index.fn_facts.get(site.target or "") if site.status == "resolved" else None
        if callee is None or site.target == self.qualname:
            return []
        callee_self = self.index.self_type_of(site.target)
        return self._chain_types(callee["module"], callee["returns"], unwrap, callee_self)

    def _chain_types(
        self, module: str, chain: list[str], unwrap: int, self_type: str | None
    ) -> list[Resolved]:
        """`Option<Box<Foo>>` with one unwrap -> [Box, Foo]; without -> [Option]."""
        i = 0
        while i < len(chain) - 1 and chain[i].split("::")[-1] in UNWRAPPABLE and unwrap > 0:
            i, unwrap = i + 1, unwrap - 1
        if not chain:
            return []
        paths = [chain[i]]
        while chain[i].split("::")[-1] in DEREF_WRAPPERS and i + 1 < len(chain):
            i += 1
            paths.append(chain[i])
        found = [self.index.resolve_path(module, p.split("::"), self_type) for p in paths if p]
        return [f for f in found if f is not None and f.kind in ("type", "external")]

    def _by_name(self, call: dict, name: str) -> CallSite:
        """Receiver type unknown: only the method name is left to go on."""
        candidates = self.index.method_names.get(name, set())
        if len(candidates) == 1 and name not in COMMON_METHODS:
            return self._site(call, "resolved", target=next(iter(candidates)), via="unique-name")
        if candidates and name in COMMON_METHODS:
            # `x.clone()`, `x.len()`: a library method of that name proves nothing.
            reason = (
                f"receiver type unknown; `{name}` is a common std/pyo3 method name"
                f" (also on {len(candidates)} library types)"
            )
            return self._site(call, "unresolved", reason=reason)
        if candidates:
            reason = f"receiver type unknown; `{name}` is defined on {len(candidates)} library types"
            return self._site(call, "unresolved", reason=reason, in_library_evidence=True)
        if name in self.index.declared_methods and name not in COMMON_METHODS:
            reason = f"receiver type unknown; `{name}` is declared by a library trait"
            return self._site(call, "unresolved", reason=reason, in_library_evidence=True)
        crate = "pyo3" if name in PYO3_METHODS else "std" if name in COMMON_METHODS else "unknown"
        return self._site(call, "external", external=crate, via="not-in-library")

    def _macro(self, call: dict) -> CallSite:
        name, path = call["name"], call["path"]
        if name + "!" in self.facts["local_names"]:
            return self._local(call)
        head = path.split("::")[0] if "::" in path else None
        library_heads = ("crate", "$crate", "self", "super", *self.index.crates)
        if head is not None and head not in library_heads:
            return self._site(call, "external", external=head or path.split("::")[1], via="path")
        if name in self.index.macros:
            reason = f"expands the library's macro_rules! `{name}`, which has no segment of its own"
            return self._site(call, "unresolved", reason=reason, in_library_evidence=True)
        if name in STD_MACROS:
            return self._site(call, "external", external="std", via="prelude")
        imported = self.index.imports.get(_real_module(self.module), {}).get(name)
        crate = imported[0] if imported else "pyo3" if name in PYO3_MACROS else "unknown"
        return self._site(call, "external", external=crate, via="import" if imported else "not-in-library")
