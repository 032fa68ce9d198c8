"""Resolve every Python call site to a segment: through import bindings (relative imports,
re-exports, aliases), `self.` / `cls.` / `super()` through the MRO of library classes,
types inferred from constructor assignments, annotations and return annotations, and
PyO3 exports for names of the compiled extension. What stays unresolved keeps its reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from qusema.units.python_symbols import LITERAL_TYPES, SymbolTable, Value
from qusema.units.records import CallSite, Reference

# Method names of builtin containers and scalars: an untyped `x.append(...)` is as likely a
# list as a library class, so a unique library method of that name proves nothing.
BUILTIN_METHOD_NAMES = frozenset(
    name
    for kind in (list, dict, set, frozenset, str, bytes, tuple, int, float, complex, object)
    for name in dir(kind)
)

MAX_CANDIDATES = 12
_LIBRARY_KINDS = ("function", "method", "class", "instance", "native", "native_instance", "nested")


@dataclass(frozen=True)
class NativeTarget:
    rust_qualname: str
    kind: str


@dataclass
class _Scope:
    """Names visible inside one function: parameters, locals, `self`/`cls`, nested defs."""

    qualname: str
    facts: dict
    owner: str | None
    self_name: str | None
    self_is_class: bool
    evaluating: set[str] = field(default_factory=set)


class PythonCallResolver:
    def __init__(self, table: SymbolTable, segments: set[str], native: dict[str, list[NativeTarget]]) -> None:
        self.table = table
        self.segments = segments
        self.native = native
        self.function_names = frozenset(q.rsplit(".", 1)[-1] for q in segments)
        self.methods_by_name: dict[str, list[str]] = {}
        for qualname, facts in table.functions.items():
            if facts["owner"]:
                self.methods_by_name.setdefault(facts["name"], []).append(qualname)
        for python_name, targets in native.items():
            # methods that exist only in Rust are library methods too
            for target in targets:
                if target.kind in ("method", "getter"):
                    self.methods_by_name.setdefault(python_name.rsplit(".", 1)[-1], []).append(target.rust_qualname)

    # -- per function ---------------------------------------------------------------------
    def resolve_function(self, qualname: str) -> tuple[list[CallSite], list[Reference]]:
        facts = self.table.functions[qualname]
        scope = self._scope(qualname, facts)
        calls = [self._resolve_call(scope, call) for call in facts["calls"]]
        return calls, self._references(scope)

    def _scope(self, qualname: str, facts: dict) -> _Scope:
        owner = f"{facts['module']}.{facts['owner']}" if facts["owner"] and facts["module"] else facts["owner"]
        decorators = facts["decorators"]
        params = list(facts["params"])
        self_name = None
        if owner and params and "staticmethod" not in decorators:
            self_name = params[0]
        return _Scope(qualname, facts, owner, self_name, "classmethod" in decorators or facts["name"] == "__new__")

    # -- expressions with locals ------------------------------------------------------------
    def value(self, scope: _Scope, expr: list) -> Value:
        kind = expr[0]
        if kind == "name":
            return self._name(scope, expr[1])
        if kind == "attr":
            return self.table.attribute(self.value(scope, expr[1]), expr[2])
        if kind == "super":
            return ("super", scope.owner) if scope.owner else ("unknown", "super() outside a class")
        if kind == "call":
            callee = self.value(scope, expr[1])
            if callee[0] == "nested":
                return ("unknown", "result of a nested function")
            return self.table.call_result(callee)
        if kind == "union":
            return self.table.union(self.value(scope, e) for e in expr[1:])
        if kind == "enter":  # `with x as y`: y is usually x itself
            return self.value(scope, expr[1])
        if kind in LITERAL_TYPES:
            return ("literal", kind)
        if kind == "subscript":
            return ("unknown", "item of a container")
        return ("unknown", "expression not typed")

    def _name(self, scope: _Scope, name: str) -> Value:
        facts = scope.facts
        if name == scope.self_name and scope.owner in self.table.classes:
            return ("class", scope.owner) if scope.self_is_class else ("instance", scope.owner)
        if name in facts["nested"]:
            return ("nested", scope.qualname)
        if name in facts["locals"] and name not in scope.evaluating:
            scope.evaluating.add(name)
            try:
                found = self.table.union(self.value(scope, t) for t in facts["locals"][name])
            finally:
                scope.evaluating.discard(name)
            if found[0] != "unknown":
                return found
            if name not in facts["params"]:
                return found
        if name in facts["params"]:
            return self.table.param_value(facts, name)
        if name in facts["locals"]:
            return ("unknown", f"local {name!r} not typed")
        return self.table.global_name(facts["module"], name)

    # -- calls ----------------------------------------------------------------------------------
    def _resolve_call(self, scope: _Scope, call: dict) -> CallSite:
        func = call["func"]
        callee = self.value(scope, func)
        if callee[0] == "union":  # the first alternative that lands in the library
            callee = next((v for v in callee[1:] if v[0] in _LIBRARY_KINDS), callee[1])
        base = dict(caller=scope.qualname, line=call["line"], callee_text=call["text"])
        kind = callee[0]
        if kind == "nested":
            return CallSite(**base, status="resolved", target=scope.qualname, via="nested function")
        if kind in ("function", "method"):
            return self._to_segment(base, callee[1], via=self._via(func))
        if kind == "class":
            return self._constructor(base, callee[1])
        if kind == "instance":
            member = self.table.class_member(callee[1], "__call__")
            if member is not None:
                return self._to_segment(base, member[1], via="__call__")
            return CallSite(**base, status="unresolved", reason=f"instance of {callee[1]} called without __call__",
                            in_library_evidence=True)
        if kind in ("native", "native_instance"):
            return self._native_call(base, callee[1])
        if kind == "external":
            return CallSite(**base, status="external", external=callee[1], via=self._via(func))
        if kind == "literal":
            return CallSite(**base, status="external", external=f"builtins.{callee[1]}")
        if kind == "super":
            return CallSite(**base, status="external", external="builtins.super")
        return self._fallback(base, func, callee)

    def _via(self, func: list) -> str:
        if func[0] == "name":
            return "name"
        root = func
        while root[0] in ("attr", "call", "subscript"):
            root = root[1]
        if root[0] == "super":
            return "super"
        return "attribute"

    def _to_segment(self, base: dict, qualname: str, via: str) -> CallSite:
        if qualname in self.segments:
            return CallSite(**base, status="resolved", target=qualname, via=via)
        return CallSite(**base, status="unresolved", reason=f"{qualname} is not a segment", in_library_evidence=True)

    def _constructor(self, base: dict, class_qualname: str) -> CallSite:
        for method in ("__init__", "__new__"):
            member = self.table.class_member(class_qualname, method)
            if member is not None:
                return self._to_segment(base, member[1], via="constructor")
        for foreign in self.table.foreign_bases(class_qualname):
            if foreign[0] == "native":
                return self._native_call(base, foreign[1])
            return CallSite(**base, status="external", external=f"{foreign[1]}.__init__", via="constructor")
        return CallSite(**base, status="external", external="builtins.object.__init__",
                        reason=f"{class_qualname} has no constructor code", via="constructor")

    def _native_call(self, base: dict, dotted: str) -> CallSite:
        dotted = self._native_member_of_class(dotted)
        value_of = self._compiled_value_prefix(dotted)
        if value_of is not None:
            # `dag.qregs.values()`: a method of what a compiled getter returned (a dict here),
            # not a compiled function itself
            return CallSite(**base, status="unresolved", reason=f"call on the value of compiled {value_of}",
                            in_library_evidence=False, via="compiled value")
        targets = self.native.get(dotted, [])
        constructors = self.native.get(f"{dotted}.__new__", []) + self.native.get(f"{dotted}.__init__", [])
        chosen = next((t for t in targets if t.kind not in ("class", "module")), None)
        if chosen is None and constructors:
            chosen = constructors[0]
        if chosen is None and targets:
            # a class exported without a #[new]: calling it cannot construct from Python
            return CallSite(**base, status="unresolved", reason=f"native class {dotted} has no constructor",
                            in_library_evidence=True, via="pyo3")
        if chosen is None:
            return CallSite(**base, status="unresolved", reason=f"compiled name {dotted} not linked to Rust",
                            in_library_evidence=True, via="pyo3")
        return CallSite(**base, status="resolved", target=chosen.rust_qualname, via="pyo3")

    def _compiled_value_prefix(self, dotted: str) -> str | None:
        """The getter or method whose *result* the dotted name reaches into, if any."""
        parts = dotted.split(".")
        for end in range(len(parts) - 1, 1, -1):
            prefix = ".".join(parts[:end])
            if any(t.kind in ("getter", "method", "function") for t in self.native.get(prefix, [])):
                return prefix
        return None

    def _native_member_of_class(self, dotted: str) -> str:
        """`Enum.VARIANT.method` on a compiled class: the method is the class's."""
        if dotted in self.native:
            return dotted
        head, _, method = dotted.rpartition(".")
        owner = head.rpartition(".")[0]
        while owner and f"{owner}.{method}" not in self.native:
            owner = owner.rpartition(".")[0]
        return f"{owner}.{method}" if owner else dotted

    def _fallback(self, base: dict, func: list, callee: Value) -> CallSite:
        reason = callee[1] if len(callee) > 1 else "untyped"
        if func[0] != "attr":
            name = func[1] if func[0] == "name" else None
            evidence = bool(name and name in self.function_names)
            return CallSite(**base, status="unresolved", reason=reason, in_library_evidence=evidence)
        method = func[2]
        candidates = self.methods_by_name.get(method, [])
        if not candidates:
            return CallSite(**base, status="unresolved", reason=reason, in_library_evidence=False)
        if method in BUILTIN_METHOD_NAMES:
            return CallSite(**base, status="unresolved", reason=f"{reason}; {method!r} is also a builtin method",
                            in_library_evidence=False, candidates=tuple(candidates[:MAX_CANDIDATES]))
        if len(candidates) == 1:
            return self._to_segment(base, candidates[0], via="unique method name")
        return CallSite(**base, status="unresolved", reason=f"{reason}; {len(candidates)} library methods named {method!r}",
                        in_library_evidence=True, candidates=tuple(candidates[:MAX_CANDIDATES]))

    # -- references -------------------------------------------------------------------------------
    def _references(self, scope: _Scope) -> list[Reference]:
        facts = scope.facts
        module_globals = self.table.modules[facts["module"]]["globals"]
        seen: set[str] = set()
        refs: list[Reference] = []
        for name, line in facts["names"]:
            if name in seen or name in facts["params"] or name in facts["locals"]:
                continue
            seen.add(name)
            entry = module_globals.get(name)
            if entry is not None and entry["value"][0] not in ("class", "function"):
                refs.append(Reference(scope.qualname, "constant", f"{facts['module']}.{name}", line))
                continue
            value = self.table.global_name(facts["module"], name)
            if value[0] == "class":
                refs.append(Reference(scope.qualname, "class", value[1], line))
        return refs
