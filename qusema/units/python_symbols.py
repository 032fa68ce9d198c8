"""A whole-library symbol table for Python: what a name means in a module, what an
attribute means on a module, class or instance, and class hierarchies (C3 MRO over
library classes). Lookups are memoised; cycles (mutual re-exports) end as `unknown`.

Values are small tuples: ("module", name) ("class", qualname) ("function", qualname)
("instance", class qualname) ("method", function qualname, class qualname)
("native", python dotted name) — a name of the library's compiled extension (PyO3) —
("native_instance", class dotted name) ("external", dotted name) ("literal", type name)
("super", class qualname, instance?) ("unknown", reason).
"""

from __future__ import annotations

import builtins
from dataclasses import dataclass, field

Value = tuple

UNKNOWN_CYCLE: Value = ("unknown", "cyclic definition")
_IN_PROGRESS = ("unknown", "in progress")
BUILTIN_NAMES = frozenset(dir(builtins))
MARKER_BASES = frozenset({"abc.ABC", "builtins.object", "typing.Generic", "typing.Protocol",
                          "typing_extensions.Protocol"})
LITERAL_TYPES = frozenset({"str", "bytes", "int", "float", "complex", "bool", "list", "dict", "set", "tuple"})


@dataclass
class ClassInfo:
    qualname: str
    module: str
    local_name: str
    facts: dict


@dataclass
class SymbolTable:
    modules: dict[str, dict]  # module name -> python facts
    top_packages: frozenset[str]
    classes: dict[str, ClassInfo] = field(default_factory=dict)
    functions: dict[str, dict] = field(default_factory=dict)  # qualname -> facts (+ "module")
    _globals_memo: dict[tuple[str, str], Value] = field(default_factory=dict)
    _mro_memo: dict[str, list[str]] = field(default_factory=dict)
    _bases_memo: dict[str, list[Value]] = field(default_factory=dict)
    subclasses: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def build(cls, modules: dict[str, dict]) -> "SymbolTable":
        table = cls(modules, frozenset(m.split(".")[0] for m in modules))
        for module, facts in modules.items():
            prefix = f"{module}." if module else ""
            for local_name, class_facts in facts["classes"].items():
                qualname = prefix + local_name
                table.classes[qualname] = ClassInfo(qualname, module, local_name, class_facts)
            for local_name, function_facts in facts["functions"].items():
                table.functions[prefix + local_name] = {**function_facts, "module": module}
        for qualname in table.classes:
            for base in table.bases(qualname):
                if base[0] == "class":
                    table.subclasses.setdefault(base[1], []).append(qualname)
        return table

    # -- names in modules ----------------------------------------------------------------
    def in_library(self, dotted: str) -> bool:
        return dotted.split(".")[0] in self.top_packages

    def global_name(self, module: str, name: str) -> Value:
        key = (module, name)
        memo = self._globals_memo.get(key)
        if memo is not None:
            return UNKNOWN_CYCLE if memo is _IN_PROGRESS else memo
        self._globals_memo[key] = _IN_PROGRESS
        value = self._compute_global(module, name)
        self._globals_memo[key] = value
        return value

    def _compute_global(self, module: str, name: str) -> Value:
        facts = self.modules.get(module)
        if facts is None:
            return ("unknown", f"module {module} not in the index")
        entry = facts["globals"].get(name)
        prefix = f"{module}." if module else ""
        if entry is not None:
            kind = entry["value"][0]
            if kind in ("class", "function"):
                return (kind, prefix + entry["value"][1])
        imported = self._imported_name(module, facts, name)
        if imported is not None and imported[0] != "unknown":
            return imported
        if entry is not None:
            value = self.evaluate(entry.get("annotation") or entry["value"], module)
            if entry.get("annotation") and value[0] == "class":
                return ("instance", value[1])
            if value[0] != "unknown":
                return value
        submodule = f"{module}.{name}"
        if submodule in self.modules:
            return ("module", submodule)
        star = self._star_imports(module, facts, name)
        if star is not None:
            return star
        if imported is not None:
            return imported
        if name in BUILTIN_NAMES:
            return ("external", f"builtins.{name}")
        return ("unknown", f"name {name!r} not defined in {module}")

    def _imported_name(self, module: str, facts: dict, name: str) -> Value | None:
        found: Value | None = None
        submodule: Value | None = None
        for imp in facts["imports"]:
            if imp["kind"] == "import":
                bound = imp["alias"] or imp["module"].split(".")[0]
                if bound != name:
                    continue
                target = imp["module"] if imp["alias"] else imp["module"].split(".")[0]
                found = self.module_value(target)
            else:
                if imp["name"] == "*" or (imp["alias"] or imp["name"]) != name:
                    continue
                source = self.absolute_module(module, facts["is_package"], imp["module"], imp.get("level", 0))
                if source == module:
                    # `from . import _native` in a package's own __init__: the package does
                    # not have the name yet, so Python imports the submodule (a compiled one
                    # too). Asked of the package itself it would be a cycle; a name the
                    # package binds itself or imports from elsewhere goes first.
                    if imp["name"] not in facts["globals"]:
                        submodule = self.module_value(f"{source}.{imp['name']}")
                    continue
                found = self.member_of_module(source, imp["name"])
            if found[0] != "unknown":
                return found
        return submodule or found

    def _star_imports(self, module: str, facts: dict, name: str) -> Value | None:
        for imp in facts["imports"]:
            if imp["kind"] != "from" or imp["name"] != "*":
                continue
            source = self.absolute_module(module, facts["is_package"], imp["module"], imp.get("level", 0))
            source_facts = self.modules.get(source)
            if source_facts is None:
                continue
            exported = source_facts["all"]
            if exported is not None and name not in exported:
                continue
            value = self.global_name(source, name)
            # the builtin fallback is the source module's own last resort, not a name it has
            if value[0] != "unknown" and value != ("external", f"builtins.{name}"):
                return value
        return None

    def absolute_module(self, module: str, is_package: bool, target: str, level: int) -> str:
        if not level:
            return target
        parts = module.split(".") if module else []
        base = parts if is_package else parts[:-1]
        if level > 1:
            base = base[: len(base) - (level - 1)]
        return ".".join([*base, target] if target else base)

    def module_value(self, dotted: str) -> Value:
        if dotted in self.modules:
            return ("module", dotted)
        if self.in_library(dotted):
            # a library name with no Python file behind it: the compiled extension
            return ("native", dotted)
        return ("external", dotted)

    def member_of_module(self, module: str, name: str) -> Value:
        if module in self.modules:
            return self.global_name(module, name)
        base = self.module_value(module)
        return (base[0], f"{module}.{name}") if base[0] in ("native", "external") else base

    # -- classes -------------------------------------------------------------------------
    def bases(self, qualname: str) -> list[Value]:
        memo = self._bases_memo.get(qualname)
        if memo is None:
            info = self.classes[qualname]
            memo = [self.evaluate_base(b, info) for b in info.facts["bases"]]
            self._bases_memo[qualname] = memo
        return memo

    def evaluate_base(self, base_term: list, info: ClassInfo) -> Value:
        if base_term[0] == "subscript":  # Generic[T], SomeBase[int]
            base_term = base_term[1]
        value = self.evaluate(base_term, info.module, enclosing_class=info.facts.get("owner"))
        return value

    def mro(self, qualname: str) -> list[str]:
        """Library classes in method resolution order (C3; external bases end the chain)."""
        memo = self._mro_memo.get(qualname)
        if memo is not None:
            return memo
        self._mro_memo[qualname] = [qualname]  # cycle guard
        parent_mros = [self.mro(b[1]) for b in self.bases(qualname) if b[0] == "class" and b[1] in self.classes]
        result = [qualname, *_c3_merge([list(m) for m in parent_mros] + [[m[0] for m in parent_mros]])]
        self._mro_memo[qualname] = result
        return result

    def foreign_bases(self, qualname: str) -> list[Value]:
        """External and native bases anywhere up the hierarchy that can supply attributes
        (marker bases such as ABC or Generic supply none)."""
        found: list[Value] = []
        for cls in self.mro(qualname):
            found.extend(b for b in self.bases(cls) if b[0] in ("external", "native") and b[1] not in MARKER_BASES)
        return found

    def class_member(self, qualname: str, name: str, start_after: str | None = None) -> tuple[str, str] | None:
        """(kind, qualname) of a method or nested class found along the MRO."""
        order = self.mro(qualname)
        if start_after is not None and start_after in order:
            order = order[order.index(start_after) + 1 :]
        for cls in order:
            info = self.classes[cls]
            if name in info.facts["methods"]:
                return ("method", f"{cls}.{name}")
            nested = f"{info.local_name}.{name}"
            if nested in self.modules[info.module]["classes"]:
                return ("class", f"{info.module}.{nested}" if info.module else nested)
        return None

    def class_attribute_terms(self, qualname: str, name: str) -> list[tuple[list, str, str | None]]:
        """Typing evidence for attribute `name`: (entry, defining class, method) along the MRO."""
        found: list[tuple[list, str, str | None]] = []
        for cls in self.mro(qualname):
            for entry in self.classes[cls].facts["attrs"].get(name, []):
                found.append((entry, cls, entry[2] if entry[0] == "self" else None))
        return found

    # -- expressions in module scope -------------------------------------------------------
    def evaluate(self, expr: list, module: str, enclosing_class: str | None = None) -> Value:
        kind = expr[0]
        if kind == "name":
            if enclosing_class:
                nested = f"{enclosing_class}.{expr[1]}"
                if nested in self.modules.get(module, {}).get("classes", {}):
                    return ("class", f"{module}.{nested}")
            return self.global_name(module, expr[1])
        if kind == "attr":
            return self.attribute(self.evaluate(expr[1], module, enclosing_class), expr[2])
        if kind == "class":
            return ("class", f"{module}.{expr[1]}" if module else expr[1])
        if kind == "function":
            return ("function", f"{module}.{expr[1]}" if module else expr[1])
        if kind in LITERAL_TYPES:
            return ("literal", kind)
        if kind == "call":
            return self.call_result(self.evaluate(expr[1], module, enclosing_class))
        if kind == "subscript":
            return self.annotation_value(expr, module)
        if kind == "union":
            return self.union(self.evaluate(e, module, enclosing_class) for e in expr[1:])
        return ("unknown", "expression not typed")

    def annotation_value(self, expr: list, module: str) -> Value:
        """Optional[X], Union[X, None], list[...] and friends."""
        if expr[0] != "subscript":
            return self.evaluate(expr, module)
        head = expr[1]
        head_name = head[-1] if head[0] in ("name", "attr") else ""
        if head_name in ("Optional", "Union", "Annotated", "Type", "type", "ClassVar", "Final"):
            inner = expr[2]
            alternatives = inner[1:] if inner[0] == "tuple_of" else [inner]
            if head_name == "Annotated":
                alternatives = alternatives[:1]
            values = [self.evaluate(c, module) for c in alternatives]
            if head_name in ("Type", "type"):
                return self.union(values)
            return self.union(("instance", v[1]) if v[0] == "class" else v for v in values)
        if head_name.lower() in ("list", "dict", "set", "tuple", "sequence", "iterable", "mapping", "frozenset"):
            return ("literal", head_name.lower() if head_name.lower() in LITERAL_TYPES else "list")
        return self.evaluate(head, module)

    @staticmethod
    def union(values) -> Value:
        """A value that may be any of several typed alternatives (`X | Y`, `Union[X, Y]`,
        `a or b`); attribute lookups try each in turn."""
        known: list[Value] = []
        last: Value = ("unknown", "no alternative typed")
        for value in values:
            if value[0] == "union":
                known.extend(v for v in value[1:] if v not in known)
            elif value[0] != "unknown" and value != ("external", "builtins.None") and value not in known:
                known.append(value)
            else:
                last = value
        if not known:
            return last
        return known[0] if len(known) == 1 else ("union", *known)

    @staticmethod
    def first_known(values) -> Value:
        last: Value = ("unknown", "no alternative typed")
        for value in values:
            if value[0] not in ("unknown",) and value != ("external", "builtins.None"):
                return value
            last = value
        return last

    # -- attributes and calls ---------------------------------------------------------------
    def attribute(self, value: Value, name: str) -> Value:
        kind = value[0]
        if kind == "union":
            found = [self.attribute(alternative, name) for alternative in value[1:]]
            library = [f for f in found if f[0] not in ("unknown", "external")]
            return library[0] if library else self.first_known(found)
        if kind == "module":
            return self.global_name(value[1], name)
        if kind in ("native", "external"):
            return (kind, f"{value[1]}.{name}")
        if kind == "native_instance":
            return ("native", f"{value[1]}.{name}")
        if kind == "literal":
            return ("external", f"builtins.{value[1]}.{name}")
        if kind == "class":
            return self._class_attribute(value[1], name, instance=False)
        if kind == "instance":
            return self._class_attribute(value[1], name, instance=True)
        if kind == "super":
            member = self.class_member(value[1], name, start_after=value[1])
            if member is not None:
                return ("method", member[1], value[1]) if member[0] == "method" else member
            for foreign in self.foreign_bases(value[1]):
                return (foreign[0], f"{foreign[1]}.{name}")
            return ("unknown", f"super() of {value[1]} has no {name}")
        return ("unknown", f"attribute {name!r} of an untyped value")

    def _class_attribute(self, qualname: str, name: str, instance: bool) -> Value:
        member = self.class_member(qualname, name)
        if member is not None:
            kind, target = member
            if kind == "class":
                return ("class", target)
            function = self.functions.get(target, {})
            decorators = function.get("decorators", [])
            if instance and any(d in ("property", "cached_property", "functools.cached_property") or
                                d.endswith(".getter") for d in decorators):
                return self.returned(target, qualname)
            return ("method", target, qualname)
        evidence = self.class_attribute_terms(qualname, name)
        for entry, defining_class, method in evidence:
            value = self._attribute_entry_value(entry, defining_class, method)
            if value[0] != "unknown":
                return value
        if evidence:
            # the library itself assigns this attribute: a foreign base does not define it
            return ("unknown", f"{qualname}.{name} is assigned but its type is not inferred")
        for foreign in self.foreign_bases(qualname):
            kind = "native" if foreign[0] == "native" else "external"
            return (kind, f"{foreign[1]}.{name}")
        return ("unknown", f"{qualname} has no attribute {name!r} that the index can type")

    def _attribute_entry_value(self, entry: list, defining_class: str, method: str | None) -> Value:
        info = self.classes[defining_class]
        if entry[0] == "ann":
            value = self.annotation_value(entry[1], info.module)
            return ("instance", value[1]) if value[0] == "class" else value
        if entry[0] == "self" and method is not None:
            scope = self.functions.get(f"{defining_class}.{method}")
            if scope is not None and entry[1][0] == "name" and entry[1][1] in scope["params"]:
                return self.param_value(scope, entry[1][1])
            if scope is not None and entry[1][0] == "call":
                return self.call_result(self.evaluate(entry[1][1], info.module, info.facts.get("owner")))
        if entry[0] == "value" and entry[1][0] == "call":
            return self.call_result(self.evaluate(entry[1][1], info.module, info.facts.get("owner")))
        if entry[0] in ("self", "value") and entry[1][0] in LITERAL_TYPES:
            return ("literal", entry[1][0])
        return ("unknown", "attribute value not typed")

    def param_value(self, function: dict, name: str) -> Value:
        annotation = function["params"].get(name, ["?"])
        if annotation[0] in ("?", "default"):
            inherited = self._inherited_param_annotation(function, name)
            if inherited is not None:
                return inherited
        if annotation[0] == "default":
            default = annotation[1]
            return ("literal", default[0]) if default[0] in LITERAL_TYPES else ("unknown", "untyped parameter")
        value = self.annotation_value(annotation, function["module"])
        if value[0] == "class":
            return ("instance", value[1])
        if value[0] == "external":
            return ("external", value[1])
        return value

    def _inherited_param_annotation(self, function: dict, name: str) -> Value | None:
        """An override that leaves a parameter unannotated accepts what the method it
        overrides declares (transpiler passes' `run(self, dag)` under `BasePass.run`)."""
        if not function.get("owner"):
            return None
        module = function["module"]
        owner = f"{module}.{function['owner']}" if module else function["owner"]
        if owner not in self.classes:
            return None
        for base in self.mro(owner)[1:]:
            base_function = self.functions.get(f"{base}.{function['name']}")
            if base_function is None:
                continue
            annotation = base_function["params"].get(name, ["?"])
            if annotation[0] not in ("?", "default"):
                value = self.annotation_value(annotation, base_function["module"])
                return ("instance", value[1]) if value[0] == "class" else value
        return None

    def returned(self, function_qualname: str, receiver_class: str | None = None) -> Value:
        function = self.functions.get(function_qualname)
        if function is None:
            return ("unknown", "no such function")
        annotation = function["returns"]
        if annotation[0] == "name" and annotation[1] == "Self" and receiver_class:
            return ("instance", receiver_class)
        value = self.annotation_value(annotation, function["module"])
        if value[0] == "class":
            return ("instance", value[1])
        return value

    def call_result(self, callee: Value) -> Value:
        kind = callee[0]
        if kind == "union":
            return self.union(self.call_result(alternative) for alternative in callee[1:])
        if kind == "class":
            return ("instance", callee[1])
        if kind == "function":
            return self.returned(callee[1])
        if kind == "method":
            return self.returned(callee[1], callee[2])
        if kind == "native":
            return ("native_instance", callee[1])
        if kind == "external" and callee[1].startswith("builtins."):
            name = callee[1].split(".", 1)[1]
            return ("literal", name) if name in LITERAL_TYPES else ("unknown", f"result of {callee[1]}")
        return ("unknown", "result of an untyped call")


def _c3_merge(sequences: list[list[str]]) -> list[str]:
    result: list[str] = []
    sequences = [s for s in sequences if s]
    while sequences:
        for sequence in sequences:
            head = sequence[0]
            if not any(head in s[1:] for s in sequences):
                break
        else:  # inconsistent hierarchy: fall back to depth-first order, no crash
            head = sequences[0][0]
        result.append(head)
        sequences = [[c for c in s if c != head] for s in sequences]
        sequences = [s for s in sequences if s]
    return result
