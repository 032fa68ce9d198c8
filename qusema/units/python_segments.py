"""Stage I for Python: segments (module functions and class methods, nested functions kept
inside their enclosing function) and the facts call resolution needs, in one `ast` pass.

Facts are JSON-serialisable so they can be cached by content hash. Expressions that type
inference will need are kept as small nested lists ("expression terms"):
``["name", "x"]``, ``["attr", term, "y"]``, ``["call", term]``, ``["super"]``,
``["subscript", term]``, ``["str"]`` and friends for literals, ``["?"]`` for anything else.
"""

from __future__ import annotations

import ast
import re
import warnings
from dataclasses import dataclass, replace

from qusema.units.records import DocPiece, FileParse, Segment

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef
Term = list  # an expression term, see module docstring

_LITERAL_TERMS: dict[type, str] = {
    str: "str", bytes: "bytes", int: "int", float: "float", complex: "complex", bool: "bool",
}


class PythonSyntaxProblem(Exception):
    """The file is not Python 3 source this interpreter can parse (e.g. Python 2 syntax)."""


def module_name_for(rel_path: str) -> tuple[str, bool]:
    """``qiskit/circuit/__init__.py`` -> (``qiskit.circuit``, True)."""
    parts = rel_path[:-3].split("/")
    for prefix in ("src", "lib"):
        if len(parts) > 1 and parts[0] == prefix:
            parts = parts[1:]
    is_package = parts[-1] == "__init__"
    if is_package:
        parts = parts[:-1]
    return ".".join(parts), is_package


def parse_python_file(rel_path: str, data: bytes, content_hash: str) -> FileParse:
    module, is_package = module_name_for(rel_path)
    text = data.decode("utf-8")
    try:
        with warnings.catch_warnings():
            # invalid escape sequences in old code are warnings, not our business
            warnings.simplefilter("ignore", SyntaxWarning)
            tree = ast.parse(text, filename=rel_path)
    except SyntaxError as exc:
        raise PythonSyntaxProblem(f"line {exc.lineno}: {exc.msg}") from exc
    except (ValueError, RecursionError) as exc:  # null bytes, absurdly deep nesting
        raise PythonSyntaxProblem(str(exc)) from exc
    lines = source_lines(text)
    extractor = _ModuleExtractor(module, rel_path, lines)
    extractor.visit_body(tree.body, owner=None)
    facts = {
        "module": module,
        "is_package": is_package,
        "docstring": ast.get_docstring(tree) or "",
        "imports": extractor.imports,
        "all": _literal_all(tree),
        "globals": extractor.globals,
        "classes": extractor.classes,
        "functions": extractor.functions,
    }
    return FileParse(
        file=rel_path,
        language="python",
        content_hash=content_hash,
        loc=python_loc(lines, extractor.docstring_lines),
        segments=extractor.segments,
        facts=facts,
    )


_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def source_lines(text: str) -> list[str]:
    """The lines of Python source as the tokenizer numbers them. `str.splitlines` also breaks
    at form feeds, vertical tabs, \\x1c-\\x1e, \\x85 and \\u2028/\\u2029, which Python source
    may hold inside a line; after one, every stored line would be shifted against the line
    numbers of `ast`, of tracebacks and of coverage."""
    lines = _LINE_BREAK.split(text)
    if lines and lines[-1] == "":  # a final line break ends the last line, it does not start one
        lines.pop()
    return lines


def python_loc(lines: list[str], docstring_lines: set[int]) -> int:
    """Lines of code as cloc counts them: no blank lines, no comment lines, and docstrings
    count as comments."""
    return sum(
        1
        for number, line in enumerate(lines, start=1)
        if number not in docstring_lines and (stripped := line.strip()) and not stripped.startswith("#")
    )


def _literal_all(tree: ast.Module) -> list[str] | None:
    """`__all__` when it is written as literals (assignments and `+=` of string lists);
    None when it is absent or computed (`a.__all__ + b.__all__`, a function's result), since
    what it holds then is only known at import time."""
    names: list[str] | None = None
    for node in tree.body:
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        if not any(_binds_all(t) for t in targets):
            continue
        value = node.value
        literal = isinstance(value, (ast.List, ast.Tuple)) and all(
            isinstance(e, ast.Constant) and isinstance(e.value, str) for e in value.elts)
        if not literal or not any(isinstance(t, ast.Name) for t in targets):
            return None
        names = (names or []) if isinstance(node, ast.AugAssign) else []
        names.extend(e.value for e in value.elts)
    return names


def _binds_all(target: ast.expr) -> bool:
    if isinstance(target, ast.Name):
        return target.id == "__all__"
    if isinstance(target, (ast.Tuple, ast.List)):
        return any(_binds_all(e) for e in target.elts)
    return False


def term(node: ast.AST | None) -> Term:
    """An expression as a term type inference can walk."""
    if node is None:
        return ["?"]
    if isinstance(node, ast.Name):
        return ["name", node.id]
    if isinstance(node, ast.Attribute):
        return ["attr", term(node.value), node.attr]
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Name) and node.func.id == "super":
            return ["super"]
        return ["call", term(node.func)]
    if isinstance(node, ast.Subscript):
        if isinstance(node.slice, ast.Tuple):  # Union[A, B], dict[str, int]
            return ["subscript", term(node.value), ["tuple_of", *(term(e) for e in node.slice.elts[:8])]]
        return ["subscript", term(node.value), term(node.slice)]
    if isinstance(node, ast.Constant):
        kind = _LITERAL_TERMS.get(type(node.value))
        return [kind] if kind else ["?"]
    if isinstance(node, (ast.List, ast.ListComp)):
        return ["list"]
    if isinstance(node, (ast.Dict, ast.DictComp)):
        return ["dict"]
    if isinstance(node, (ast.Set, ast.SetComp)):
        return ["set"]
    if isinstance(node, ast.Tuple):
        return ["tuple"]
    if isinstance(node, ast.JoinedStr):
        return ["str"]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return ["union", term(node.left), term(node.right)]
    if isinstance(node, ast.IfExp):
        return ["union", term(node.body), term(node.orelse)]
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
        return ["union", *(term(v) for v in node.values)]
    return ["?"]


def annotation_term(node: ast.AST | None) -> Term:
    """Annotations may be strings (forward references)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            return annotation_term(ast.parse(node.value, mode="eval").body)
        except SyntaxError:
            return ["?"]
    return term(node)


@dataclass
class _FunctionFacts:
    """What is gathered inside one segment, nested functions and lambdas included."""

    params: dict
    locals: dict
    calls: list
    names: list  # global names read (for class and constant references)
    nested: list


class _ModuleExtractor:
    def __init__(self, module: str, rel_path: str, lines: list[str]) -> None:
        self.module = module
        self.rel_path = rel_path
        self.lines = lines
        self.segments: list[Segment] = []
        self.imports: list[dict] = []
        self.globals: dict[str, dict] = {}
        self.classes: dict[str, dict] = {}
        self.functions: dict[str, dict] = {}
        self.docstring_lines: set[int] = set()

    def note_string_statement(self, node: ast.stmt) -> None:
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            self.docstring_lines.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))

    # -- module and class bodies -------------------------------------------------------
    def visit_body(self, body: list[ast.stmt], owner: str | None) -> None:
        for node in body:
            self.note_string_statement(node)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.add_function(node, owner)
            elif isinstance(node, ast.ClassDef):
                self.add_class(node, owner)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                self.add_import(node, conditional=False)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)) and owner is None:
                self.add_global(node)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)) and owner is not None:
                self.add_class_attribute(node, owner)
            elif isinstance(node, (ast.If, ast.Try, ast.With, ast.For, ast.While, ast.AsyncWith, ast.AsyncFor)):
                # definitions under `if TYPE_CHECKING`, `try: import x except ...` etc.
                for field_name in ("body", "orelse", "finalbody"):
                    self.visit_body(getattr(node, field_name, None) or [], owner)
                for handler in getattr(node, "handlers", None) or []:
                    self.visit_body(handler.body, owner)
            elif isinstance(node, ast.Match):
                for case in node.cases:
                    self.visit_body(case.body, owner)

    def add_import(self, node: ast.Import | ast.ImportFrom, conditional: bool) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                self.imports.append({"kind": "import", "module": alias.name, "alias": alias.asname, "line": node.lineno})
        else:
            for alias in node.names:
                self.imports.append(
                    {
                        "kind": "from",
                        "module": node.module or "",
                        "level": node.level,
                        "name": alias.name,
                        "alias": alias.asname,
                        "line": node.lineno,
                    }
                )

    def add_global(self, node: ast.Assign | ast.AnnAssign) -> None:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            if isinstance(target, ast.Name):
                entry = {"value": term(node.value), "line": node.lineno}
                if isinstance(node, ast.AnnAssign):
                    entry["annotation"] = annotation_term(node.annotation)
                self.globals[target.id] = entry

    def add_class_attribute(self, node: ast.Assign | ast.AnnAssign, owner: str) -> None:
        cls = self.classes[owner]
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            if isinstance(target, ast.Name):
                if isinstance(node, ast.AnnAssign):
                    cls["attrs"].setdefault(target.id, []).append(["ann", annotation_term(node.annotation)])
                if node.value is not None:
                    cls["attrs"].setdefault(target.id, []).append(["value", term(node.value)])

    def add_class(self, node: ast.ClassDef, owner: str | None) -> None:
        local_name = f"{owner}.{node.name}" if owner else node.name
        self.classes[local_name] = {
            "name": node.name,
            "bases": [term(b) for b in node.bases],
            "metaclass": next((term(k.value) for k in node.keywords if k.arg == "metaclass"), None),
            "decorators": [ast.unparse(d) for d in node.decorator_list],
            "doc": ast.get_docstring(node) or "",
            "line": node.lineno,
            "end_line": node.end_lineno,
            "methods": [],
            "attrs": {},  # name -> list of ["ann"|"value"|"self", term]
            "owner": owner,
        }
        if owner is None:
            self.globals.setdefault(node.name, {"value": ["class", local_name], "line": node.lineno})
        self.visit_body(node.body, owner=local_name)

    # -- functions ---------------------------------------------------------------------
    def add_function(self, node: FunctionNode, owner: str | None) -> None:
        local_name = f"{owner}.{node.name}" if owner else node.name
        if local_name in self.functions:
            # A later definition rebinds the name (overload stubs, then the implementation;
            # property getter, then setter; if/else variants): the last one keeps the plain
            # name, earlier ones become `name@line`. Both stay segments.
            self._rename_earlier_definition(local_name)
        qualname = f"{self.module}.{local_name}" if self.module else local_name
        start = min([d.lineno for d in node.decorator_list] + [node.lineno])
        end = node.end_lineno or node.lineno
        body_start = node.body[0].lineno if node.body else end
        signature = "\n".join(self.lines[node.lineno - 1 : max(node.lineno, body_start - 1)]).strip()
        if body_start == node.lineno:  # one-line def: the signature is the part before the body
            signature = self.lines[node.lineno - 1].split(":", 1)[0].strip() if ":" in self.lines[node.lineno - 1] else signature
        doc = ast.get_docstring(node)
        decorators = tuple(ast.unparse(d) for d in node.decorator_list)
        self.segments.append(
            Segment(
                qualname=qualname,
                language="python",
                kind="method" if owner else "function",
                name=node.name,
                file=self.rel_path,
                start_line=start,
                end_line=end,
                signature=signature,
                source="\n".join(self.lines[start - 1 : end]),
                decorators=decorators,
                owner=f"{self.module}.{owner}" if owner else None,
                docs=(DocPiece("docstring", qualname, doc),) if doc else (),
            )
        )
        if owner:
            self.classes[owner]["methods"].append(node.name)
        else:
            self.globals.setdefault(node.name, {"value": ["function", local_name], "line": node.lineno})
        facts = self._function_facts(node, owner)
        self.functions[local_name] = {
            "owner": owner,
            "name": node.name,
            "decorators": list(decorators),
            "params": facts.params,
            "returns": annotation_term(node.returns),
            "locals": facts.locals,
            "calls": facts.calls,
            "names": facts.names,
            "nested": facts.nested,
            "line": node.lineno,
        }

    def _rename_earlier_definition(self, local_name: str) -> None:
        facts = self.functions.pop(local_name)
        renamed = f"{local_name}@{facts['line']}"
        self.functions[renamed] = facts
        old_qualname = f"{self.module}.{local_name}" if self.module else local_name
        for index, segment in enumerate(self.segments):
            if segment.qualname == old_qualname:
                self.segments[index] = replace(segment, qualname=f"{self.module}.{renamed}" if self.module else renamed)

    def _function_facts(self, node: FunctionNode, owner: str | None) -> _FunctionFacts:
        """One walk over the body: calls, local types, names read, nested definitions, and
        for methods the `self.x = ...` assignments that type attribute x."""
        params: dict[str, list] = {}
        arguments = node.args
        ordered = arguments.posonlyargs + arguments.args + arguments.kwonlyargs
        for index, arg in enumerate(ordered):
            params[arg.arg] = annotation_term(arg.annotation) if arg.annotation else ["?"]
        defaults = arguments.defaults
        for arg, default in zip((arguments.posonlyargs + arguments.args)[-len(defaults) :] if defaults else [], defaults):
            if params.get(arg.arg) == ["?"]:
                params[arg.arg] = ["default", term(default)]
        if arguments.vararg:
            params[arguments.vararg.arg] = ["tuple"]
        if arguments.kwarg:
            params[arguments.kwarg.arg] = ["dict"]
        local_types: dict[str, list] = {}
        calls: list[dict] = []
        names: list[list] = []
        nested: list[str] = []
        self_name = node.args.args[0].arg if owner and node.args.args else None
        attrs = self.classes[owner]["attrs"] if owner else {}
        for sub in _walk_body(node):
            if isinstance(sub, ast.Expr):
                self.note_string_statement(sub)
            elif isinstance(sub, ast.Call):
                calls.append({"line": sub.lineno, "text": _callee_text(sub.func), "func": term(sub.func)})
            elif isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                nested.append(sub.name)
            elif isinstance(sub, ast.Assign):
                for target in sub.targets:
                    _bind_targets(target, sub.value, local_types)
                    if self_name and _is_self_attribute(target, self_name):
                        attrs.setdefault(target.attr, []).append(["self", term(sub.value), node.name])
            elif isinstance(sub, ast.AnnAssign):
                if isinstance(sub.target, ast.Name):
                    local_types.setdefault(sub.target.id, []).append(annotation_term(sub.annotation))
                elif self_name and _is_self_attribute(sub.target, self_name):
                    attrs.setdefault(sub.target.attr, []).append(["ann", annotation_term(sub.annotation)])
                    if sub.value is not None:
                        attrs[sub.target.attr].append(["self", term(sub.value), node.name])
            elif isinstance(sub, (ast.With, ast.AsyncWith)):
                for item in sub.items:
                    if isinstance(item.optional_vars, ast.Name):
                        local_types.setdefault(item.optional_vars.id, []).append(["enter", term(item.context_expr)])
            elif isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load):
                names.append([sub.id, sub.lineno])
        return _FunctionFacts(params, local_types, calls, names, nested)


def _is_self_attribute(target: ast.expr, self_name: str) -> bool:
    return isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == self_name


def _bind_targets(target: ast.expr, value: ast.expr, local_types: dict[str, list]) -> None:
    if isinstance(target, ast.Name):
        local_types.setdefault(target.id, []).append(term(value))
    elif isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, (ast.Tuple, ast.List)):
        for sub_target, sub_value in zip(target.elts, value.elts):
            _bind_targets(sub_target, sub_value, local_types)


def _walk_body(node: FunctionNode):
    """Every node of a function body (nested functions included: they belong to the
    segment), but not its decorators or default values."""
    stack: list[ast.AST] = list(reversed(node.body))
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(list(ast.iter_child_nodes(current))))


def _callee_text(func: ast.expr) -> str:
    try:
        text = ast.unparse(func)
    except (ValueError, RecursionError):
        return "?"
    return text if len(text) <= 120 else text[:117] + "..."
