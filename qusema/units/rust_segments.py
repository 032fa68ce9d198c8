"""Stage I for Rust: cut one source file into segments and gather the raw facts that call
resolution (rust_calls) and PyO3 linking (pyo3_links) need.

A segment is a `fn` with a body: at module level, in an `impl` or trait, in an inline
`mod`, or in a `macro_rules!` body that parses as Rust items. A `fn` nested in another
`fn` stays part of it. A `fn` longer than PARTITION_LINES is cut into partitions at the
statement boundaries of its body.

Everything here reads one file; nothing looks across files. tree-sitter leaves macro
arguments and `macro_rules!` bodies as flat tokens, so their text is parsed again; the
re-parsed trees keep file offsets through `_Ctx.base`, so every line number and every
piece of text still points into the file as written.
"""

from __future__ import annotations

import hashlib
import os
import tomllib
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import tree_sitter_rust
from tree_sitter import Language, Node, Parser, Query, QueryCursor

from qusema.units.records import DocPiece, FileParse, Segment

RUST = Language(tree_sitter_rust.language())
PARTITION_LINES = 1000
QUERY_FILE = Path(__file__).with_name("queries") / "rust.scm"

COMMENTS = frozenset({"line_comment", "block_comment"})
# Generic types whose first argument is worth keeping in a type chain: pointer-like
# wrappers (a method called on `Box<T>` or `PyRef<T>` may be one of `T`) and the types
# `?` / `.unwrap()` take apart.
WRAPPERS = frozenset(
    {"Box", "Rc", "Arc", "PyRef", "PyRefMut", "Bound", "Py", "Borrowed", "RefCell", "Cell",
     "Option", "Result", "PyResult"}
)
UNWRAP_METHODS = frozenset({"unwrap", "expect", "unwrap_unchecked", "unwrap_or_default"})
# Methods that register something on a Python module object.
REGISTRATION_METHODS = frozenset({"add_class", "add_function", "add_wrapped", "add_submodule", "add"})
TYPE_ITEMS = {
    "struct_item": "struct",
    "enum_item": "enum",
    "union_item": "union",
    "type_item": "alias",
}
# Prefix the text of a macro's token tree so that it parses as an expression; the
# delimiters of the tree make it a tuple, an array or a block.
_REPARSE_PREFIX = b"fn __q(){"
_REPARSE_SUFFIX = b";}"
_BLANK = bytes(b if b == ord("\n") else ord(" ") for b in range(256))


def _load_queries() -> dict[str, Query]:
    """The named queries of rust.scm (sections start with `;; query: NAME`)."""
    sections: dict[str, list[str]] = {}
    current: list[str] = []
    for line in QUERY_FILE.read_text(encoding="utf-8").splitlines():
        if line.startswith(";; query:"):
            current = sections.setdefault(line.split(":", 1)[1].strip(), [])
        else:
            current.append(line)
    return {name: Query(RUST, "\n".join(lines)) for name, lines in sections.items()}


QUERIES = _load_queries()


# --------------------------------------------------------------------------- module paths


def rust_module_path(root: Path, rel_path: str) -> str:
    """The Rust module path of a file: crate name from the nearest Cargo.toml, then the
    path under `src/` (lib.rs/main.rs = crate root, mod.rs = its directory).

    Files outside `src/` (build.rs, tests/, benches/) are crates of their own for cargo;
    they get `crate::<path>` so that their names stay unique and readable."""
    file = (root / rel_path).resolve()
    manifest = _nearest_manifest(file.parent, root.resolve())
    if manifest is None:
        return _module_from_parts(file.parent.name.replace("-", "_"), file.parts[-1:])
    crate = _crate_name(manifest)
    return _module_from_parts(crate, file.relative_to(manifest.parent).parts)


def find_rust_files(root: Path) -> list[str]:
    """Every `.rs` file under `root`, relative and with forward slashes, except cargo's
    build output: a `target/` directory next to a Cargo.toml (a source module may well
    be called `target`, as Qiskit's transpiler's is)."""
    found = []
    # os.walk does not follow directory symlinks, so a link loop cannot trap it.
    for directory, subdirectories, files in os.walk(root):
        here = Path(directory)
        subdirectories[:] = [d for d in subdirectories if not _is_build_dir(here / d)]
        found += [(here / f).relative_to(root).as_posix() for f in files if f.endswith(".rs")]
    return sorted(found)


def _is_build_dir(directory: Path) -> bool:
    return directory.name == "target" and (directory.parent / "Cargo.toml").is_file()


def _nearest_manifest(directory: Path, root: Path) -> Path | None:
    for candidate in (directory, *directory.parents):
        manifest = candidate / "Cargo.toml"
        if manifest.is_file() and "package" in _read_toml(manifest):
            return manifest
        if candidate == root:
            return None
    return None


def _read_toml(path: Path) -> dict:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}


def _crate_name(manifest: Path) -> str:
    # `[lib] name` is what `use` paths spell when it is set; it defaults to the package name.
    data = _read_toml(manifest)
    name = data.get("lib", {}).get("name") or data.get("package", {}).get("name", "")
    return str(name).replace("-", "_")


def _module_from_parts(crate: str, parts: tuple[str, ...]) -> str:
    parts = parts[1:] if parts and parts[0] == "src" else parts
    names = list(parts[:-1])
    stem = Path(parts[-1]).stem if parts else "lib"
    if not (stem == "mod" or (len(parts) == 1 and stem in ("lib", "main"))):
        names.append(stem)
    return "::".join([crate, *names])


# --------------------------------------------------------------------------- text plumbing


@dataclass(frozen=True)
class _Source:
    """The file as written (`orig`) and as parsed (`work`). Inside a `macro_rules!` body
    `work` has `$var` rewritten to `_var`, byte for byte, so offsets agree in both."""

    orig: bytes
    work: bytes
    line_starts: tuple[int, ...]
    lines: tuple[str, ...]

    @classmethod
    def of(cls, source: bytes) -> _Source:
        starts = [0]
        pos = source.find(b"\n")
        while pos != -1:
            starts.append(pos + 1)
            pos = source.find(b"\n", pos + 1)
        text = source.decode("utf-8", errors="replace")
        return cls(source, source, tuple(starts), tuple(text.split("\n")))

    def line(self, offset: int) -> int:
        return bisect_right(self.line_starts, offset)

    def text(self, start: int, end: int) -> str:
        return self.orig[start:end].decode("utf-8", errors="replace")

    def line_text(self, first: int, last: int) -> str:
        return "\n".join(self.lines[first - 1 : last])


@dataclass(frozen=True)
class _Ctx:
    """Where the nodes of one tree live: `base` turns a node's offset in its (maybe
    re-parsed) tree into a file offset; `module` is the Rust module the items are in."""

    src: _Source
    base: int
    module: str
    macro: str | None = None  # set while walking the body of a macro_rules! arm
    arm: int | None = None

    def start(self, node: Node) -> int:
        return self.base + node.start_byte

    def end(self, node: Node) -> int:
        return self.base + node.end_byte

    def text(self, node: Node) -> str:
        return self.src.text(self.start(node), self.end(node))

    def line(self, node: Node) -> int:
        return self.src.line(self.start(node))

    def end_line(self, node: Node) -> int:
        return self.src.line(max(self.start(node), self.end(node) - 1))

    def tag(self) -> dict:
        """Marks facts that come from a macro template, for expansion at invocations."""
        return {} if self.macro is None else {"macro": self.macro, "arm": self.arm}


def _norm(text: str) -> str:
    return " ".join(text.split())


def _squash(text: str) -> str:
    return "".join(text.split())


def _unraw(name: str) -> str:
    return name.removeprefix("r#")


def _is_camel(name: str) -> bool:
    return name[:1].isupper()


# --------------------------------------------------------------------------- per-file state


def _empty_facts(module: str) -> dict:
    return {
        "crate": module.split("::")[0],
        "module": module,
        "module_docs": [],
        "modules": [],
        "uses": [],
        "types": [],
        "impls": [],
        "traits": [],
        "fns": {},
        "macros": [],
        "macro_calls": [],
        "macro_stats": {"arms": 0, "arms_with_errors": 0, "items_skipped": 0, "fns": 0},
        "oversized_partitions": [],
        "pyo3": {"functions": [], "classes": [], "method_impls": [], "module_fns": []},
    }


@dataclass
class _FileState:
    rel_path: str
    parser: Parser
    facts: dict
    segments: list[Segment] = field(default_factory=list)
    qualnames: set[str] = field(default_factory=set)

    def unique(self, qualname: str, line: int) -> str:
        # `#[cfg(...)]` alternatives define the same fn twice; the line tells them apart.
        if qualname in self.qualnames:
            qualname = f"{qualname}@L{line}"
        self.qualnames.add(qualname)
        return qualname


@dataclass(frozen=True)
class _Owner:
    """The impl or trait a fn is in."""

    prefix: str  # qualname prefix of its fns: `m::Type` or `m::<Type as Trait>`
    qualname: str  # `m::Type`
    trait: str | None
    self_ref: dict  # how resolution finds `Self`: {"impl": i} or {"trait": i}
    generics: tuple[str, ...] = ()  # type parameters of the impl


@dataclass(frozen=True)
class _FnInfo:
    name: str
    entry: str  # qualname of the segment a call to this fn lands in
    line: int
    attrs: dict[str, dict]


@dataclass
class _BodyScan:
    calls: list[dict] = field(default_factory=list)
    locals: dict[str, list[list]] = field(default_factory=dict)  # name -> [[line, expression]]
    params: list[str] = field(default_factory=list)
    local_names: set[str] = field(default_factory=set)
    registrations: list[dict] = field(default_factory=list)
    returns: list[str] = field(default_factory=list)
    generics: list[str] = field(default_factory=list)
    module_calls: list[dict] = field(default_factory=list)


# --------------------------------------------------------------------------- entry point


class RustSyntaxProblem(Exception):
    """The file is not Rust this grammar accepts. tree-sitter parses it anyway, around ERROR
    nodes, and an item cut by one is dropped or misread without a word: such a file is skipped
    with this reason instead (as a Python file with a syntax error is)."""


def parse_rust_file(rel_path: str, source: bytes, module_path: str) -> FileParse:
    """Segments and resolution facts of one Rust file (`module_path` from rust_module_path);
    RustSyntaxProblem if it does not parse."""
    parser = Parser(RUST)
    tree = parser.parse(source)
    if tree.root_node.has_error:
        raise RustSyntaxProblem(_first_syntax_error(tree.root_node))
    state = _FileState(rel_path, parser, _empty_facts(module_path))
    _walk_items(state, _Ctx(_Source.of(source), 0, module_path), tree.root_node)
    return FileParse(
        file=rel_path,
        language="rust",
        content_hash=hashlib.sha256(source).hexdigest(),
        loc=_code_lines(source, tree.root_node),
        segments=state.segments,
        facts=state.facts,
    )


def _first_syntax_error(root: Node) -> str:
    """Where the first ERROR or missing node is, as `line L, column C: ...`."""
    node = root
    while True:
        if node.type == "ERROR" or node.is_missing:
            break
        child = next((c for c in node.children if c.has_error), None)
        if child is None:
            break
        node = child
    row, column = node.start_point
    if node.is_missing:
        return f"line {row + 1}, column {column + 1}: missing {node.type!r}"
    text = (node.text or b"").decode("utf-8", "replace").split("\n", 1)[0][:40]
    return f"line {row + 1}, column {column + 1}: cannot parse {text!r}"


def _code_lines(source: bytes, root: Node) -> int:
    """Lines with code once comments are blanked out: what cloc counts as code."""
    buffer = bytearray(source)
    for node in QueryCursor(QUERIES["comments"]).captures(root).get("comment", []):
        buffer[node.start_byte : node.end_byte] = bytes(
            buffer[node.start_byte : node.end_byte]
        ).translate(_BLANK)
    return sum(1 for line in buffer.split(b"\n") if line.strip())


# --------------------------------------------------------------------------- items


def _items_with_attributes(container: Node) -> Iterator[tuple[Node, list[Node]]]:
    """Each item of a module, impl or trait body with the outer attributes and doc
    comments written before it. Plain comments in between do not detach them."""
    pending: list[Node] = []
    for child in container.named_children:
        if child.type == "attribute_item" or _doc_marker(child) == "outer":
            pending.append(child)
        elif child.type in COMMENTS or child.type == "inner_attribute_item":
            yield child, []
        else:
            yield child, pending
            pending = []


def _doc_marker(node: Node) -> str | None:
    if node.type not in COMMENTS:
        return None
    if node.child_by_field_name("outer") is not None:
        return "outer"
    if node.child_by_field_name("inner") is not None:
        return "inner"
    return None


def _walk_items(state: _FileState, ctx: _Ctx, container: Node) -> None:
    for node, attached in _items_with_attributes(container):
        if ctx.macro is not None and node.has_error:
            # A template item that does not parse with placeholders: skipped, but counted.
            state.facts["macro_stats"]["items_skipped"] += 1
            continue
        handler = _ITEM_HANDLERS.get(node.type)
        if handler is not None:
            handler(state, ctx, node, attached)
        elif node.type in TYPE_ITEMS:
            _type_item(state, ctx, node, attached)


def _module_doc(state: _FileState, ctx: _Ctx, node: Node, attached: list[Node]) -> None:
    if node.type == "inner_attribute_item":
        text = _doc_attribute_text(ctx, node)
        piece = None if text is None else DocPiece("rust #[doc]", _origin(state, ctx, node), text)
    elif _doc_marker(node) == "inner":
        piece = DocPiece("rust ///", _origin(state, ctx, node), _doc_comment_text(ctx, node))
    else:
        return
    if piece is None:
        return
    docs = state.facts["module_docs"]
    if docs and _continues_line_doc(docs[-1], ctx, node, piece):
        docs[-1]["text"] += "\n" + piece.text
        docs[-1]["end_line"] = ctx.line(node)
        return
    docs.append({"module": ctx.module, **asdict(piece), "end_line": ctx.end_line(node)})


def _continues_line_doc(previous: dict, ctx: _Ctx, node: Node, piece: DocPiece) -> bool:
    return (
        node.type == "line_comment"
        and previous["source"] == piece.source
        and previous["module"] == ctx.module
        and previous["end_line"] == ctx.line(node) - 1
    )


def _origin(state: _FileState, ctx: _Ctx, node: Node) -> str:
    return f"{state.rel_path}:{ctx.line(node)}"


def _module_fn(state: _FileState, ctx: _Ctx, node: Node, attached: list[Node]) -> None:
    info = _function(state, ctx, node, attached, None)
    if info is None or "pyfunction" not in info.attrs:
        return
    explicit = info.attrs.get("pyo3", {}).get("name") or info.attrs["pyfunction"].get("name")
    state.facts["pyo3"]["functions"].append(
        {
            "name": info.name,
            "python_name": explicit if isinstance(explicit, str) else _unraw(info.name),
            "qualname": info.entry,
            "module": ctx.module,
            "line": info.line,
            **ctx.tag(),
        }
    )


def _impl(state: _FileState, ctx: _Ctx, node: Node, attached: list[Node]) -> None:
    type_node = node.child_by_field_name("type")
    trait_node = node.child_by_field_name("trait")
    body = node.child_by_field_name("body")
    if type_node is None or body is None:
        return
    base = _type_path(ctx, type_node)
    trait = _trait_text(ctx, trait_node) if trait_node is not None else None
    owner_q = f"{ctx.module}::{base.split('::')[-1]}"
    prefix = owner_q if trait is None else f"{ctx.module}::<{_norm(ctx.text(type_node))} as {trait}>"
    index = len(state.facts["impls"])
    entry = {
        "module": ctx.module,
        "type": base,
        "trait": trait,
        "trait_path": _type_path(ctx, trait_node) if trait_node is not None else None,
        "file": state.rel_path,
        "line": ctx.line(node),
        "methods": [],
        **ctx.tag(),
    }
    state.facts["impls"].append(entry)
    owner = _Owner(prefix, owner_q, trait, {"impl": index}, _type_parameters(ctx, node))
    infos = _member_fns(state, ctx, body, owner)
    entry["methods"] = [{"name": i.name, "qualname": i.entry, "line": i.line} for i in infos]
    if "pymethods" in _attribute_map(ctx, attached):
        state.facts["pyo3"]["method_impls"].append(
            {
                "type": base,
                "module": ctx.module,
                "line": ctx.line(node),
                "methods": [_py_method(i) for i in infos],
                **ctx.tag(),
            }
        )


def _member_fns(state: _FileState, ctx: _Ctx, body: Node, owner: _Owner) -> list[_FnInfo]:
    infos = []
    for child, attached in _items_with_attributes(body):
        if child.type == "function_item":
            info = _function(state, ctx, child, attached, owner)
            if info is not None:
                infos.append(info)
    return infos


def _trait(state: _FileState, ctx: _Ctx, node: Node, attached: list[Node]) -> None:
    name = ctx.text(node.child_by_field_name("name"))
    body = node.child_by_field_name("body")
    index = len(state.facts["traits"])
    entry = {"name": name, "module": ctx.module, "line": ctx.line(node), "methods": [], **ctx.tag()}
    state.facts["traits"].append(entry)
    if body is None:
        return
    qualname = f"{ctx.module}::{name}"
    owner = _Owner(qualname, qualname, None, {"trait": index})
    defaults = {i.name: i.entry for i in _member_fns(state, ctx, body, owner)}
    declared = [
        ctx.text(c.child_by_field_name("name"))
        for c in body.named_children
        if c.type == "function_signature_item"
    ]
    entry["methods"] = [{"name": n, "qualname": q} for n, q in defaults.items()] + [
        {"name": n, "qualname": None} for n in declared
    ]


def _mod(state: _FileState, ctx: _Ctx, node: Node, attached: list[Node]) -> None:
    name = ctx.text(node.child_by_field_name("name"))
    body = node.child_by_field_name("body")
    module = f"{ctx.module}::{name}"
    state.facts["modules"].append({"path": module, "line": ctx.line(node), "inline": body is not None})
    if body is not None:
        _walk_items(state, replace(ctx, module=module), body)


def _type_item(state: _FileState, ctx: _Ctx, node: Node, attached: list[Node]) -> None:
    name = ctx.text(node.child_by_field_name("name"))
    attrs = _attribute_map(ctx, attached)
    _, docs = _attributes(state, ctx, attached)
    entry = {
        "kind": TYPE_ITEMS[node.type],
        "name": name,
        "module": ctx.module,
        "line": ctx.line(node),
        "derives": sorted(k.split("::")[-1] for k in attrs.get("derive", {})),
        "fields": {},
        "docs": [asdict(d) for d in docs],
        **ctx.tag(),
    }
    if node.type == "type_item":
        target = node.child_by_field_name("type")
        entry["target"] = _type_chain(ctx, target) if target is not None else []
    fields = _fields(ctx, node.child_by_field_name("body"))
    entry["fields"] = {f["name"]: f["chain"] for f in fields}
    state.facts["types"].append(entry)
    if "pyclass" in attrs:
        state.facts["pyo3"]["classes"].append(_py_class(ctx, node, name, attrs["pyclass"], fields))


def _fields(ctx: _Ctx, body: Node | None) -> list[dict]:
    if body is None or body.type != "field_declaration_list":
        return []
    fields = []
    for child, attached in _items_with_attributes(body):
        if child.type != "field_declaration":
            continue
        type_node = child.child_by_field_name("type")
        fields.append(
            {
                "name": ctx.text(child.child_by_field_name("name")),
                "chain": _type_chain(ctx, type_node) if type_node is not None else [],
                "pyo3": _attribute_map(ctx, attached).get("pyo3", {}),
                "line": ctx.line(child),
            }
        )
    return fields


def _py_class(ctx: _Ctx, node: Node, name: str, args: dict, fields: list[dict]) -> dict:
    exposed = []
    for f in fields:
        get = bool(f["pyo3"].get("get") or args.get("get_all"))
        set_ = bool(f["pyo3"].get("set") or args.get("set_all"))
        if get or set_:
            explicit = f["pyo3"].get("name")
            exposed.append(
                {
                    "name": f["name"],
                    "python_name": explicit if isinstance(explicit, str) else _unraw(f["name"]),
                    "get": get,
                    "set": set_,
                    "line": f["line"],
                }
            )
    python_name = args.get("name")
    module_arg = args.get("module")
    return {
        "name": name,
        "python_name": python_name if isinstance(python_name, str) else _unraw(name),
        "module_arg": module_arg if isinstance(module_arg, str) else None,
        "module": ctx.module,
        "line": ctx.line(node),
        "fields": exposed,
        **ctx.tag(),
    }


def _py_method(info: _FnInfo) -> dict:
    """How pyo3 exposes one fn of a `#[pymethods]` impl."""
    attrs = info.attrs
    name = _unraw(info.name)
    kind, python_name = "method", name
    if "new" in attrs:
        kind, python_name = "constructor", "__new__"
    elif "getter" in attrs or "setter" in attrs:
        kind = "getter" if "getter" in attrs else "setter"
        explicit = next(iter(attrs[kind]), None)
        if explicit:
            # `#[getter(name)]` and `#[getter("name")]` name the same Python attribute
            explicit = explicit.removeprefix('"').removesuffix('"')
        python_name = explicit or name.removeprefix("get_" if kind == "getter" else "set_")
    elif "classattr" in attrs:
        # A class attribute is read like a property, which is the nearest export kind.
        kind = "getter"
    explicit = attrs.get("pyo3", {}).get("name")
    if isinstance(explicit, str) and kind != "constructor":
        python_name = explicit
    flavour = next((f for f in ("staticmethod", "classmethod", "classattr") if f in attrs), None)
    return {
        "name": info.name,
        "python_name": python_name,
        "kind": kind,
        "flavour": flavour,
        "qualname": info.entry,
        "line": info.line,
    }


# --------------------------------------------------------------------------- use declarations


def _use(state: _FileState, ctx: _Ctx, node: Node, attached: list[Node]) -> None:
    argument = node.child_by_field_name("argument")
    if argument is None:
        return
    public = any(c.type == "visibility_modifier" for c in node.named_children)
    for path, alias, glob in _use_tree(ctx, argument, []):
        state.facts["uses"].append(
            {
                "module": ctx.module,
                "path": "::".join(path),
                "alias": alias,
                "glob": glob,
                "pub": public,
                "line": ctx.line(node),
            }
        )


def _use_tree(ctx: _Ctx, node: Node, prefix: list[str]) -> Iterator[tuple[list[str], str | None, bool]]:
    """Flatten a use tree into (path, alias, glob) triples; alias None means the last name."""
    kind = node.type
    if kind == "use_as_clause":
        path = prefix + _split_path(ctx.text(node.child_by_field_name("path")))
        yield path, ctx.text(node.child_by_field_name("alias")), False
    elif kind == "use_wildcard":
        inner = [c for c in node.named_children]
        path = prefix + (_split_path(ctx.text(inner[0])) if inner else [])
        yield path, None, True
    elif kind == "scoped_use_list":
        path_node = node.child_by_field_name("path")
        base = prefix + (_split_path(ctx.text(path_node)) if path_node is not None else [])
        yield from _use_tree(ctx, node.child_by_field_name("list"), base)
    elif kind == "use_list":
        for child in node.named_children:
            yield from _use_tree(ctx, child, prefix)
    elif kind == "self" and prefix:
        yield prefix, prefix[-1], False
    elif kind not in COMMENTS:
        yield prefix + _split_path(ctx.text(node)), None, False


def _split_path(text: str) -> list[str]:
    # A leading `::` (extern crate) survives as an empty first segment.
    return _squash(text).split("::")


# --------------------------------------------------------------------------- attributes and docs


def _attributes(
    state: _FileState, ctx: _Ctx, attached: list[Node]
) -> tuple[tuple[str, ...], tuple[DocPiece, ...]]:
    """Attributes as written, and the documentation among them (comments and #[doc])."""
    decorators: list[str] = []
    docs: list[DocPiece] = []
    last_line_doc = -2
    for node in attached:
        if node.type == "attribute_item":
            decorators.append(ctx.text(node))
            text = _doc_attribute_text(ctx, node)
            if text is not None:
                docs.append(DocPiece("rust #[doc]", _origin(state, ctx, node), text))
            continue
        text = _doc_comment_text(ctx, node)
        if node.type == "line_comment" and last_line_doc == ctx.line(node) - 1 and docs:
            docs[-1] = replace(docs[-1], text=docs[-1].text + "\n" + text)
        else:
            docs.append(DocPiece("rust ///", _origin(state, ctx, node), text))
        last_line_doc = ctx.line(node) if node.type == "line_comment" else -2
    return tuple(decorators), tuple(docs)


def _doc_comment_text(ctx: _Ctx, node: Node) -> str:
    doc = node.child_by_field_name("doc")
    text = ctx.text(doc) if doc is not None else ""
    if node.type == "line_comment":
        text = text.rstrip("\n")
        return text[1:] if text.startswith(" ") else text
    lines = [line.strip() for line in text.strip().splitlines()]
    return "\n".join(line[1:].lstrip() if line.startswith("*") else line for line in lines)


def _doc_attribute_text(ctx: _Ctx, node: Node) -> str | None:
    attribute = next((c for c in node.named_children if c.type == "attribute"), None)
    if attribute is None or not attribute.named_children:
        return None
    if ctx.text(attribute.named_children[0]) != "doc":
        return None
    value = attribute.child_by_field_name("value")
    if value is None:
        return None  # `#[doc(hidden)]` and friends carry no text
    if value.type == "string_literal":
        return ctx.text(value)[1:-1].replace('\\"', '"').replace("\\n", "\n")
    if value.type == "raw_string_literal":
        return ctx.text(value).lstrip("r#").removeprefix('"').rstrip("#").removesuffix('"')
    return ctx.text(value)  # e.g. `concat!(...)`: kept as written


def _attribute_map(ctx: _Ctx, attached: list[Node]) -> dict[str, dict]:
    """Attribute name (last path segment) -> its arguments; repeated attributes merge."""
    result: dict[str, dict] = {}
    for node in attached:
        if node.type != "attribute_item":
            continue
        attribute = next((c for c in node.named_children if c.type == "attribute"), None)
        if attribute is None or not attribute.named_children:
            continue
        name = _squash(ctx.text(attribute.named_children[0])).split("::")[-1]
        arguments = attribute.child_by_field_name("arguments")
        parsed = _attribute_arguments(ctx, arguments) if arguments is not None else {}
        result.setdefault(name, {}).update(parsed)
    return result


def _attribute_arguments(ctx: _Ctx, tree: Node) -> dict[str, str | bool]:
    """`(get, name = "x")` -> {"get": True, "name": "x"}; string values lose their quotes."""
    parsed: dict[str, str | bool] = {}
    for group in _token_groups(tree):
        eq = next((i for i, n in enumerate(group) if n.type == "="), None)
        if eq is None:
            parsed[_squash(_group_text(ctx, group))] = True
            continue
        if eq == 0 or eq == len(group) - 1:
            continue
        key = _squash(_group_text(ctx, group[:eq]))
        value = _group_text(ctx, group[eq + 1 :]).strip()
        if len(value) >= 2 and value[0] == value[-1] == '"':
            value = value[1:-1]
        parsed[key] = value
    return parsed


def _token_groups(tree: Node) -> list[list[Node]]:
    """The comma-separated groups of a token tree, delimiters dropped."""
    groups: list[list[Node]] = [[]]
    for child in tree.children[1:-1]:
        if child.type == ",":
            groups.append([])
        elif child.type not in COMMENTS:
            groups[-1].append(child)
    return [g for g in groups if g]


def _group_text(ctx: _Ctx, group: list[Node]) -> str:
    return ctx.src.text(ctx.start(group[0]), ctx.end(group[-1]))


# --------------------------------------------------------------------------- types


def _type_path(ctx: _Ctx, node: Node) -> str:
    """The path of a type without generics or references: `&'a foo::Bar<T>` -> `foo::Bar`."""
    chain = _type_chain(ctx, node)
    return chain[0] if chain else _squash(ctx.text(node))


def _type_chain(ctx: _Ctx, node: Node) -> list[str]:
    """Type paths a value of this type may have methods from, outermost first:
    `&PyRef<'_, Foo>` -> ["PyRef", "Foo"]."""
    kind = node.type
    if kind in ("reference_type", "pointer_type"):
        inner = node.child_by_field_name("type")
        return _type_chain(ctx, inner) if inner is not None else []
    if kind == "generic_type":
        base = _path_text(ctx, node.child_by_field_name("type"))
        arguments = node.child_by_field_name("type_arguments")
        children = arguments.named_children if arguments is not None else []
        inner = [c for c in children if c.type not in ("lifetime", *COMMENTS)]
        if base.split("::")[-1] in WRAPPERS and inner:
            return [base, *_type_chain(ctx, inner[0])]
        return [base]
    if kind in ("type_identifier", "scoped_type_identifier", "primitive_type", "metavariable", "identifier"):
        return [_path_text(ctx, node)]
    return []


def _path_text(ctx: _Ctx, node: Node | None) -> str:
    return "::".join(_path_segments(ctx, node)) if node is not None else ""


def _path_segments(ctx: _Ctx, node: Node) -> list[str]:
    """Segments of a path with turbofish generics dropped; `<T as Tr>` stays one segment."""
    kind = node.type
    if kind in ("scoped_identifier", "scoped_type_identifier"):
        path = node.child_by_field_name("path")
        name = node.child_by_field_name("name")
        head = _path_segments(ctx, path) if path is not None else [""]
        return head + ([ctx.text(name)] if name is not None else [])
    if kind == "generic_type":
        inner = node.child_by_field_name("type")
        return _path_segments(ctx, inner) if inner is not None else [_squash(ctx.text(node))]
    if kind == "bracketed_type":
        return [_norm(ctx.text(node))]
    return [_squash(ctx.text(node))]


def _type_parameters(ctx: _Ctx, node: Node) -> tuple[str, ...]:
    parameters = node.child_by_field_name("type_parameters")
    if parameters is None:
        return ()
    names = [p.child_by_field_name("name") for p in parameters.named_children if p.type == "type_parameter"]
    return tuple(ctx.text(n) for n in names if n is not None)


def _trait_text(ctx: _Ctx, node: Node) -> str:
    """A trait as it appears in a qualname: last path segment with its generic arguments."""
    if node.type == "generic_type":
        arguments = node.child_by_field_name("type_arguments")
        base = _path_segments(ctx, node.child_by_field_name("type"))[-1]
        return base + (_norm(ctx.text(arguments)) if arguments is not None else "")
    return _path_segments(ctx, node)[-1]


# --------------------------------------------------------------------------- functions


def _function(
    state: _FileState, ctx: _Ctx, node: Node, attached: list[Node], owner: _Owner | None
) -> _FnInfo | None:
    body = node.child_by_field_name("body")
    name_node = node.child_by_field_name("name")
    if body is None or name_node is None:
        return None
    name = ctx.text(name_node)
    decorators, docs = _attributes(state, ctx, attached)
    attrs = _attribute_map(ctx, attached)
    start = min([ctx.line(a) for a in attached if a.type == "attribute_item"] + [ctx.line(node)])
    end = ctx.end_line(node)
    qualname = state.unique(f"{owner.prefix if owner else ctx.module}::{name}", ctx.line(node))
    scan = _scan_function(state, ctx, node, name_node)
    returns = node.child_by_field_name("return_type")
    scan.returns = _type_chain(ctx, returns) if returns is not None else []
    scan.generics = sorted(set(_type_parameters(ctx, node)) | set(owner.generics if owner else ()))
    template = Segment(
        qualname=qualname,
        language="rust",
        kind="method" if owner else "function",
        name=name,
        file=state.rel_path,
        start_line=start,
        end_line=end,
        signature=ctx.src.text(ctx.start(node), ctx.start(body)).rstrip(),
        source=ctx.src.line_text(start, end),
        decorators=decorators,
        owner=owner.qualname if owner else None,
        trait=owner.trait if owner else None,
        docs=docs,
    )
    segments = [template]
    if end - start + 1 > PARTITION_LINES:
        segments = _partitions(state, ctx, body, template) or segments
    for segment in segments:
        _add_segment(state, ctx, segment, scan, owner)
    if ctx.macro is not None:
        state.facts["macro_stats"]["fns"] += 1
    entry = segments[0].qualname
    if "pymodule" in attrs or scan.registrations:
        _record_module_fn(state, ctx, node, name, entry, attrs, scan)
    return _FnInfo(name, entry, ctx.line(node), attrs)


def _add_segment(
    state: _FileState, ctx: _Ctx, segment: Segment, scan: _BodyScan, owner: _Owner | None
) -> None:
    state.segments.append(segment)
    state.facts["fns"][segment.qualname] = {
        "module": ctx.module,
        "self": owner.self_ref if owner else None,
        "locals": scan.locals,
        "params": scan.params,
        "returns": scan.returns,
        "generics": scan.generics,
        "local_names": sorted(scan.local_names),
        "calls": [c for c in scan.calls if segment.start_line <= c["line"] <= segment.end_line],
    }


def _record_module_fn(
    state: _FileState, ctx: _Ctx, node: Node, name: str, entry: str, attrs: dict, scan: _BodyScan
) -> None:
    explicit = attrs.get("pyo3", {}).get("name") or attrs.get("pymodule", {}).get("name")
    new_vars = {r["var"] for r in scan.registrations if r["kind"] == "new_module" and r.get("var")}
    state.facts["pyo3"]["module_fns"].append(
        {
            "name": name,
            "qualname": entry,
            "module": ctx.module,
            "line": ctx.line(node),
            "pymodule": "pymodule" in attrs,
            "python_name": explicit if isinstance(explicit, str) else _unraw(name),
            "module_var": _module_parameter(scan),
            "registrations": scan.registrations
            + [c for c in scan.module_calls if c["kind"] == "helper_call" or c["var"] in new_vars],
            **ctx.tag(),
        }
    )


def _module_parameter(scan: _BodyScan) -> str | None:
    """The parameter that is the module being filled (`m: &Bound<PyModule>`), not `py`."""
    for name in scan.params:
        for _, value in scan.locals.get(name, []):
            if value and any(p.split("::")[-1] == "PyModule" for p in value.get("chain", [])):
                return name
    return scan.params[0] if scan.params else None


# --------------------------------------------------------------------------- partitions


def _partitions(state: _FileState, ctx: _Ctx, body: Node, whole: Segment) -> list[Segment]:
    """Cut an over-long fn at the statement boundaries of its body into pieces of at most
    PARTITION_LINES lines. Each piece keeps the signature and docs, and as `context` the
    local definitions from outside it that it names."""
    statements = [c for c in body.named_children if c.type not in COMMENTS]
    units = [unit for statement in statements for unit in _units(ctx, statement)]
    ranges = _balanced_ranges(units, whole.start_line, whole.end_line)
    if len(ranges) < 2:
        return []
    for first, last in ranges:
        if last - first + 1 > PARTITION_LINES:
            # Not even nested statements or match arms cut it small enough: it stays whole.
            state.facts["oversized_partitions"].append({"qualname": whole.qualname, "lines": [first, last]})
    definitions = _local_definitions(ctx, statements)
    parts = []
    for k, (first, last) in enumerate(ranges, start=1):
        used = _names_used(ctx, body, first, last)
        parts.append(
            replace(
                whole,
                qualname=f"{whole.qualname}#p{k}",
                kind="partition",
                start_line=first,
                end_line=last,
                source=ctx.src.line_text(first, last),
                context=_partition_context(definitions, used, first, last),
            )
        )
    return parts


# Nodes whose children are a sequence of statements, arms or elements: where a statement
# too long for one partition can still be cut.
_SEQUENCES = frozenset(
    {"block", "match_block", "declaration_list", "arguments", "array_expression", "field_initializer_list"}
)


def _units(ctx: _Ctx, node: Node) -> list[tuple[int, int]]:
    """Line ranges a partition boundary may fall between: the statement itself, or, if it
    alone is too long, the statements / arms of the widest sequence nested in it."""
    first, last = ctx.line(node), ctx.end_line(node)
    inner = _widest_sequence(node) if last - first + 1 > PARTITION_LINES else None
    if inner is None:
        return [(first, last)]
    units = [u for child in inner.named_children if child.type not in COMMENTS for u in _units(ctx, child)]
    units[0] = (first, units[0][1])
    units[-1] = (units[-1][0], last)
    return units


def _widest_sequence(node: Node) -> Node | None:
    while True:
        children = [c for c in node.named_children if c.type not in COMMENTS]
        if not children:
            return None
        node = max(children, key=lambda c: c.end_point.row - c.start_point.row)
        if node.type in _SEQUENCES and sum(c.type not in COMMENTS for c in node.named_children) >= 2:
            return node


def _balanced_ranges(units: list[tuple[int, int]], start: int, end: int) -> list[tuple[int, int]]:
    """As few partitions as the limit allows, then the smallest cap that keeps that
    number: no 1,000-line piece followed by a 50-line runt."""
    count = len(_pack(units, start, end, PARTITION_LINES))
    low, high = 1, PARTITION_LINES
    while low < high:
        middle = (low + high) // 2
        if len(_pack(units, start, end, middle)) <= count:
            high = middle
        else:
            low = middle + 1
    return _pack(units, start, end, low)


def _pack(units: list[tuple[int, int]], start: int, end: int, cap: int) -> list[tuple[int, int]]:
    ranges: list[tuple[int, int]] = []
    first, last = start, None
    for i, (_, unit_end) in enumerate(units):
        # The closing brace belongs with the last unit.
        unit_end = end if i == len(units) - 1 else unit_end
        if last is not None and unit_end - first + 1 > cap:
            ranges.append((first, last))
            first = last + 1
        last = unit_end
    ranges.append((first, end))
    return ranges


@dataclass(frozen=True)
class _LocalDefinition:
    names: frozenset[str]
    line: int
    end_line: int
    text: str
    hoisted: bool  # a nested fn is visible before its definition; a `let` is not


def _local_definitions(ctx: _Ctx, statements: list[Node]) -> list[_LocalDefinition]:
    definitions = []
    for statement in statements:
        if statement.type == "let_declaration":
            pattern = statement.child_by_field_name("pattern")
            names = _pattern_names(ctx, pattern) if pattern is not None else set()
            hoisted = False
        elif statement.type in ("function_item", "const_item", "static_item"):
            names = {ctx.text(statement.child_by_field_name("name"))}
            hoisted = True
        else:
            continue
        definitions.append(
            _LocalDefinition(
                frozenset(names), ctx.line(statement), ctx.end_line(statement), ctx.text(statement), hoisted
            )
        )
    return definitions


def _pattern_names(ctx: _Ctx, pattern: Node) -> set[str]:
    return {ctx.text(n) for n in QueryCursor(QUERIES["identifiers"]).captures(pattern).get("id", [])}


def _names_used(ctx: _Ctx, body: Node, first: int, last: int) -> set[str]:
    cursor = QueryCursor(QUERIES["identifiers"])
    starts = ctx.src.line_starts
    low = starts[first - 1] - ctx.base
    high = (starts[last] if last < len(starts) else len(ctx.src.orig)) - ctx.base
    cursor.set_byte_range(max(low, 0), max(high, 0))
    return {ctx.text(n) for n in cursor.captures(body).get("id", [])}


def _partition_context(definitions: list[_LocalDefinition], used: set[str], first: int, last: int) -> str:
    chosen: dict[str, _LocalDefinition] = {}
    for definition in definitions:
        outside = definition.end_line < first or (definition.hoisted and definition.line > last)
        if not outside:
            continue
        for name in definition.names & used:
            # Later `let`s shadow earlier ones; only those before the partition are visible.
            if definition.hoisted or definition.line < first:
                chosen[name] = definition
    ordered = sorted(set(chosen.values()), key=lambda d: d.line)
    return "\n".join(d.text for d in ordered)


# --------------------------------------------------------------------------- bodies: calls and locals


def _scan_function(state: _FileState, ctx: _Ctx, node: Node, name_node: Node) -> _BodyScan:
    scan = _BodyScan()
    _scan(state, ctx, node, scan, calls_only=False, skip=name_node)
    return scan


def _scan(
    state: _FileState,
    ctx: _Ctx,
    node: Node,
    scan: _BodyScan,
    calls_only: bool,
    skip: Node | None = None,
    bounds: tuple[int, int] | None = None,
) -> None:
    """Run the body query over `node` and record what it finds; `calls_only` for token
    trees parsed again, whose `let`s and parameters are not the fn's."""
    for _, captures in QueryCursor(QUERIES["body"]).matches(node):
        if bounds is not None and not _within(ctx, captures, bounds):
            continue  # error recovery can make nodes that reach into the re-parse wrapper
        if "call" in captures:
            _call(ctx, captures["call"][0], captures["call.function"][0], scan, calls_only)
        elif "macro" in captures:
            _macro_site(state, ctx, captures["macro"][0], captures["macro.name"][0], scan)
        elif "reference" in captures:
            _reference(ctx, captures["reference"][0], scan)
        elif calls_only:
            continue
        elif "let" in captures:
            _let(ctx, captures, scan)
        elif "param.name" in captures:
            name_node = captures["param.name"][0]
            chain = _type_chain(ctx, captures["param.type"][0])
            _local(scan, ctx.text(name_node), ctx.line(name_node), {"chain": chain})
            scan.params.append(ctx.text(captures["param.name"][0]))
        elif "local.fn" in captures and captures["local.fn"][0] != skip:
            scan.local_names.add(ctx.text(captures["local.fn"][0]))
        elif "local.macro" in captures:
            scan.local_names.add(ctx.text(captures["local.macro"][0]) + "!")


def _within(ctx: _Ctx, captures: dict, bounds: tuple[int, int]) -> bool:
    node = next(iter(captures.values()))[0]
    return not node.has_error and bounds[0] <= ctx.start(node) and ctx.end(node) <= bounds[1]


def _local(scan: _BodyScan, name: str, line: int, value: dict | None) -> None:
    # Every binding is kept with its line: a later `let` shadows an earlier one only for
    # the code after it.
    scan.locals.setdefault(name, []).append([line, value])


def _let(ctx: _Ctx, captures: dict, scan: _BodyScan) -> None:
    name = ctx.text(captures["let.name"][0])
    value = captures.get("let.value", [None])[0]
    if value is not None and value.type == "closure_expression":
        scan.local_names.add(name)
    line = ctx.line(captures["let"][0])
    if "let.type" in captures:
        _local(scan, name, line, {"chain": _type_chain(ctx, captures["let.type"][0])})
    else:
        _local(scan, name, line, _expression(ctx, value) if value is not None else None)


# Expressions whose value is their last child's: `&x`, `(x)`, `unsafe { x }`, `{ ..; x }`.
_TRANSPARENT_EXPRESSIONS = frozenset(
    {"reference_expression", "parenthesized_expression", "unsafe_block", "block"}
)


def _expression(ctx: _Ctx, node: Node) -> dict | None:
    """What type inference can use of an expression, as JSON: `self`, a local name, a
    field of something, the result of a recorded call (by its offsets), or a written
    type; `unwrap` counts the `?` / `.unwrap()` / `.expect(..)` applied to it."""
    unwrap = 0
    while True:
        if node.type in _TRANSPARENT_EXPRESSIONS and node.named_children:
            node = node.named_children[-1]
        elif node.type == "try_expression" and node.named_children:
            node, unwrap = node.named_children[0], unwrap + 1
        elif node.type == "call_expression" and _unwrap_call(ctx, node) is not None:
            node, unwrap = _unwrap_call(ctx, node), unwrap + 1
        else:
            break
    if node.type == "self":
        return {"self": True}
    if node.type == "identifier":
        name = ctx.text(node)
        if _is_camel(name) and not name.isupper():
            return {"chain": [name], "unwrap": 0}  # a unit struct used as a value
        return {"var": name, "unwrap": unwrap}
    if node.type == "field_expression":
        value, name = node.child_by_field_name("value"), node.child_by_field_name("field")
        inner = _expression(ctx, value) if value is not None else None
        if inner is None or name is None:
            return None
        return {"field": ctx.text(name), "of": inner, "unwrap": unwrap}
    if node.type == "call_expression":
        return {"call": _offsets(ctx, node), "unwrap": unwrap}
    if node.type == "struct_expression":
        name = node.child_by_field_name("name")
        return {"chain": [_path_text(ctx, name)], "unwrap": 0} if name is not None else None
    if node.type == "scoped_identifier":
        # `Enum::Variant.method()`: the receiver is of the enum's type.
        segments = _path_segments(ctx, node)
        if len(segments) >= 2 and _is_camel(segments[-2]):
            return {"chain": ["::".join(segments[:-1])], "unwrap": 0}
        return None
    return _LITERAL_TYPES.get(node.type)


# A literal's type only matters to tell a library method from a primitive's.
_LITERAL_TYPES = {
    "integer_literal": {"chain": ["i64"], "unwrap": 0},
    "float_literal": {"chain": ["f64"], "unwrap": 0},
    "string_literal": {"chain": ["str"], "unwrap": 0},
    "boolean_literal": {"chain": ["bool"], "unwrap": 0},
}


def _unwrap_call(ctx: _Ctx, node: Node) -> Node | None:
    function = node.child_by_field_name("function")
    if function is None or function.type != "field_expression":
        return None
    name = function.child_by_field_name("field")
    if name is None or ctx.text(name) not in UNWRAP_METHODS:
        return None
    return function.child_by_field_name("value")


def _offsets(ctx: _Ctx, node: Node) -> str:
    """A call's identity within its file, for an expression to point at it."""
    return f"{ctx.start(node)}-{ctx.end(node)}"


def _call(ctx: _Ctx, call: Node, function: Node, scan: _BodyScan, calls_only: bool) -> None:
    turbofish = None
    if function.type == "generic_function":
        turbofish = function.child_by_field_name("type_arguments")
        function = function.child_by_field_name("function") or function
    site = _call_site(ctx, call, function)
    if site is None:
        return
    scan.calls.append(site)
    if not calls_only:
        _registration(ctx, call, site, turbofish, scan)


def _site(shape: str, name: str, callee: str, line: int, **more: object) -> dict:
    """A call site as facts record it (JSON): `at` (file offsets of the call) lets an
    expression elsewhere in the fn say "the value this call returned"."""
    return {"shape": shape, "name": name, "callee": callee, "line": line, **more}


def _call_site(ctx: _Ctx, call: Node, function: Node) -> dict | None:
    kind = function.type
    if kind == "identifier":
        name = ctx.text(function)
        if _is_camel(name):
            return None  # `Foo(x)` builds a tuple struct or variant: not a call of code
        return _site("plain", name, name, ctx.line(call), at=_offsets(ctx, call))
    if kind == "scoped_identifier":
        segments = _path_segments(ctx, function)
        if _is_camel(segments[-1]) or segments[-1] == "":
            return None
        callee = _squash(ctx.text(function))
        site = _site("path", segments[-1], callee, ctx.line(call), at=_offsets(ctx, call))
        return {**site, "path": "::".join(segments), **_qualified_self(ctx, function)}
    if kind == "field_expression":
        name_node = function.child_by_field_name("field")
        receiver = function.child_by_field_name("value")
        if name_node is None or receiver is None:
            return None
        name = ctx.text(name_node)
        callee = f"{_short(ctx.text(receiver))}.{name}"
        # The method's own line, not the receiver's: chains span many lines.
        return _site("method", name, callee, ctx.line(name_node), at=_offsets(ctx, call),
                     receiver=_expression(ctx, receiver))
    return _site("dynamic", "", _short(ctx.text(function)), ctx.line(call))


def _short(text: str) -> str:
    text = _norm(text)
    return text if len(text) <= 60 else "(…)"


def _qualified_self(ctx: _Ctx, function: Node) -> dict:
    """`<T as Trait>::f` -> {"qself": "T", "as_trait": "Trait"}."""
    path = function.child_by_field_name("path")
    if path is None or path.type != "bracketed_type":
        return {}
    qualified = next((c for c in path.named_children if c.type == "qualified_type"), None)
    if qualified is None:
        inner = path.named_children
        return {"qself": _type_path(ctx, inner[0])} if inner else {}
    type_node = qualified.child_by_field_name("type")
    alias = qualified.child_by_field_name("alias")
    return {
        "qself": _type_path(ctx, type_node) if type_node is not None else "",
        "as_trait": _type_path(ctx, alias) if alias is not None else "",
    }


def _reference(ctx: _Ctx, node: Node, scan: _BodyScan) -> None:
    segments = _path_segments(ctx, node)
    if segments[-1] and not _is_camel(segments[-1]) and not segments[-1].isupper():
        site = _site("reference", segments[-1], _squash(ctx.text(node)), ctx.line(node))
        scan.calls.append({**site, "path": "::".join(segments), **_qualified_self(ctx, node)})


def _macro_site(state: _FileState, ctx: _Ctx, node: Node, name_node: Node, scan: _BodyScan) -> None:
    path = _squash(ctx.text(name_node))
    scan.calls.append({**_site("macro", path.split("::")[-1], path + "!", ctx.line(node)), "path": path})
    tree = next((c for c in reversed(node.named_children) if c.type == "token_tree"), None)
    if tree is not None and any(c.type == "token_tree" for c in tree.named_children):
        _scan_token_tree(state, ctx, tree, scan)


def _scan_token_tree(state: _FileState, ctx: _Ctx, tree: Node, scan: _BodyScan) -> None:
    """Macro arguments are flat tokens to tree-sitter; most macros (format!, assert!,
    vec!, write!) take expressions, so the token tree is parsed again as one."""
    start, end = ctx.start(tree), ctx.end(tree)
    reparsed = state.parser.parse(_REPARSE_PREFIX + ctx.src.work[start:end] + _REPARSE_SUFFIX)
    inner = _Ctx(ctx.src, start - len(_REPARSE_PREFIX), ctx.module, ctx.macro, ctx.arm)
    _scan(state, inner, reparsed.root_node, scan, calls_only=True, bounds=(start, end))


# --------------------------------------------------------------------------- PyO3 registrations


def _registration(ctx: _Ctx, call: Node, site: dict, turbofish: Node | None, scan: _BodyScan) -> None:
    """Raw PyO3 module registrations: what `m.add_class::<T>()`, `m.add_function(
    wrap_pyfunction!(f, m)?)`, `add_submodule(m, path::f, "name")` and friends add."""
    if site["shape"] == "method" and site["name"] in REGISTRATION_METHODS:
        found = _method_registration(ctx, site, turbofish, _call_arguments(call))
        if found is not None:
            receiver = site["receiver"] or {}
            scan.registrations.append({**found, "recv": receiver.get("var"), "line": site["line"]})
    elif site["shape"] in ("plain", "path"):
        _function_registration(ctx, call, site, scan)


def _function_registration(ctx: _Ctx, call: Node, site: dict, scan: _BodyScan) -> None:
    """`PyModule::new(py, "name")`, a helper `add_submodule(m, path::f, "name")`, and
    `f(&sub)` filling a module made here (kept aside until `sub` is known to be one)."""
    arguments = _call_arguments(call)
    strings = [_string_value(ctx, a) for a in arguments if a.type == "string_literal"]
    line = site["line"]
    if site["name"] in ("new", "new_bound") and site.get("path", "").split("::")[-2:-1] == ["PyModule"]:
        name = strings[0] if strings else None
        variable = _let_name(ctx, call)
        scan.registrations.append({"kind": "new_module", "name": name, "var": variable, "line": line})
    elif strings and len(arguments) >= 2 and _path_arguments(ctx, arguments[1:]):
        # `helper(m, path::to::fill, "name")`: a submodule if the helper builds one, which
        # its name says (`add_submodule`) or, for pyo3_links to check, its body does.
        kind = "submodule" if "submodule" in site["name"] else "helper_call"
        entry = {"kind": kind, "name": strings[0], "constructor": _path_arguments(ctx, arguments[1:])[0],
                 "helper": site.get("path", site["name"]), "line": line}
        (scan.registrations if kind == "submodule" else scan.module_calls).append(entry)
    elif arguments and _unwrap_reference(arguments[0]).type == "identifier":
        variable = ctx.text(_unwrap_reference(arguments[0]))
        callee = site.get("path", site["name"])
        entry = {"kind": "module_call", "var": variable, "constructor": callee, "line": line}
        scan.module_calls.append(entry)


def _path_arguments(ctx: _Ctx, arguments: list[Node]) -> list[str]:
    return [_path_text(ctx, a) for a in arguments if a.type in ("identifier", "scoped_identifier")]


def _method_registration(
    ctx: _Ctx, site: dict, turbofish: Node | None, arguments: list[Node]
) -> dict | None:
    name = site["name"]
    if name == "add_class" and turbofish is not None and turbofish.named_children:
        return {"kind": "class", "target": _type_path(ctx, turbofish.named_children[0])}
    if name in ("add_function", "add_wrapped") and arguments:
        wrapped = _wrap_macro(ctx, arguments[0])
        if wrapped is not None:
            return wrapped
    if name == "add_submodule" and arguments:
        first = _unwrap_reference(arguments[0])
        if first.type == "identifier":
            return {"kind": "attach", "var": ctx.text(first)}
    if name == "add" and arguments and arguments[0].type == "string_literal":
        return {"kind": "attribute", "name": _string_value(ctx, arguments[0])}
    return None


def _wrap_macro(ctx: _Ctx, argument: Node) -> dict | None:
    node = _unwrap_reference(argument)
    while node.type == "try_expression" and node.named_children:
        node = node.named_children[0]
    if node.type != "macro_invocation":
        return None
    macro = _squash(ctx.text(node.child_by_field_name("macro"))).split("::")[-1]
    tree = next((c for c in node.named_children if c.type == "token_tree"), None)
    groups = _token_groups(tree) if tree is not None else []
    if macro not in ("wrap_pyfunction", "wrap_pymodule") or not groups:
        return None
    kind = "function" if macro == "wrap_pyfunction" else "wrapped_module"
    return {"kind": kind, "target": _squash(_group_text(ctx, groups[0]))}


def _call_arguments(call: Node) -> list[Node]:
    arguments = call.child_by_field_name("arguments")
    if arguments is None:
        return []
    return [a for a in arguments.named_children if a.type not in COMMENTS and a.type != "attribute_item"]


def _unwrap_reference(node: Node) -> Node:
    while node.type == "reference_expression" and node.named_children:
        node = node.named_children[-1]
    return node


def _string_value(ctx: _Ctx, node: Node) -> str:
    return ctx.text(node)[1:-1]


def _let_name(ctx: _Ctx, node: Node) -> str | None:
    parent = node.parent
    while parent is not None and parent.type in ("try_expression", "call_expression", "field_expression"):
        parent = parent.parent
    if parent is not None and parent.type == "let_declaration":
        pattern = parent.child_by_field_name("pattern")
        if pattern is not None and pattern.type == "identifier":
            return ctx.text(pattern)
    return None


# --------------------------------------------------------------------------- macro_rules!


def _macro_definition(state: _FileState, ctx: _Ctx, node: Node, attached: list[Node]) -> None:
    name = ctx.text(node.child_by_field_name("name"))
    arms = []
    rules = [c for c in node.named_children if c.type == "macro_rule"]
    for index, rule in enumerate(rules):
        left = rule.child_by_field_name("left")
        right = rule.child_by_field_name("right")
        module = f"{ctx.module}::{name}!" + (f"arm{index + 1}" if index else "")
        arms.append({"params": _macro_params(ctx, left) if left is not None else [], "module": module})
        # Templates inside templates would need two expansions; they are left alone.
        if right is not None and ctx.macro is None:
            _template_items(state, ctx, right, module, name, index)
    state.facts["macros"].append(
        {
            "name": name,
            "module": ctx.module,
            "line": ctx.line(node),
            "exported": "macro_export" in _attribute_map(ctx, attached),
            "arms": arms,
        }
    )


_OPTIONAL_SEPARATORS = frozenset({"$(,)?", "$(,)*", "$(;)?", "$(;)*"})


def _macro_params(ctx: _Ctx, pattern: Node) -> list[dict]:
    """The matcher of an arm as comma-separated parts: a binding `$x:ident`, a literal
    token sequence, or a repetition (which expansion does not attempt)."""
    params = []
    for group in _token_groups(pattern):
        # An optional trailing separator, `$(,)?`, takes no argument.
        group = [n for n in group if _squash(ctx.text(n)) not in _OPTIONAL_SEPARATORS]
        if not group:
            continue
        if len(group) == 1 and group[0].type == "token_binding_pattern":
            name = group[0].child_by_field_name("name")
            fragment = group[0].child_by_field_name("type")
            params.append({"bind": ctx.text(name), "fragment": ctx.text(fragment) if fragment else ""})
        elif any(n.type == "token_repetition_pattern" for n in group):
            params.append({"repeat": _norm(_group_text(ctx, group))})
        else:
            params.append({"literal": _norm(_group_text(ctx, group))})
    return params


def _template_items(state: _FileState, ctx: _Ctx, right: Node, module: str, name: str, arm: int) -> None:
    """Parse a macro arm's body as Rust items, with `$var` standing in as `_var`."""
    start, end = ctx.start(right) + 1, ctx.end(right) - 1
    if end <= start:
        return
    work = bytearray(ctx.src.work)
    work[start:end] = _placeholders(bytes(work[start:end]))
    source = replace(ctx.src, work=bytes(work))
    tree = state.parser.parse(source.work[start:end])
    stats = state.facts["macro_stats"]
    stats["arms"] += 1
    stats["arms_with_errors"] += int(tree.root_node.has_error)
    _walk_items(state, _Ctx(source, start, module, name, arm), tree.root_node)


def _placeholders(body: bytes) -> bytes:
    """`$x` -> `_x`, and `$( .. ),*` -> `   ..    `: the same length, so offsets hold."""
    out = bytearray(body)
    i = out.find(b"$")
    while i != -1:
        if out[i + 1 : i + 2] == b"(":
            _blank_repetition(out, i)
        elif out[i + 1 : i + 2].isalnum() or out[i + 1 : i + 2] == b"_":
            out[i] = ord("_")
        i = out.find(b"$", i + 1)
    return bytes(out)


def _blank_repetition(out: bytearray, dollar: int) -> None:
    close = _matching_paren(out, dollar + 1)
    if close is None:
        return
    after = close + 1
    operator = next((k for k in (after, after + 1) if out[k : k + 1] in (b"*", b"+", b"?")), None)
    if operator is None:
        return
    out[dollar : dollar + 2] = b"  "
    out[close : operator + 1] = b" " * (operator + 1 - close)


def _matching_paren(text: bytearray, open_at: int) -> int | None:
    depth, i, n = 0, open_at, len(text)
    while i < n:
        c = text[i]
        if c == ord('"'):
            i = _string_end(text, i)
        elif c == ord("("):
            depth += 1
        elif c == ord(")"):
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return None


def _string_end(text: bytearray, quote: int) -> int:
    i = quote + 1
    while i < len(text) and text[i] != ord('"'):
        i += 2 if text[i] == ord("\\") else 1
    return i


def _macro_invocation_item(state: _FileState, ctx: _Ctx, node: Node, attached: list[Node]) -> None:
    """An item-level `name!(args)`: recorded so templates can be expanded there."""
    if node.type == "expression_statement":
        node = next((c for c in node.named_children if c.type == "macro_invocation"), None)
        if node is None:
            return
    tree = next((c for c in reversed(node.named_children) if c.type == "token_tree"), None)
    state.facts["macro_calls"].append(
        {
            "name": _squash(ctx.text(node.child_by_field_name("macro"))).split("::")[-1],
            "module": ctx.module,
            "line": ctx.line(node),
            "args": [_norm(_group_text(ctx, g)) for g in _token_groups(tree)] if tree is not None else [],
            **ctx.tag(),
        }
    )


_ITEM_HANDLERS = {
    "function_item": _module_fn,
    "impl_item": _impl,
    "trait_item": _trait,
    "mod_item": _mod,
    "use_declaration": _use,
    "macro_definition": _macro_definition,
    "macro_invocation": _macro_invocation_item,
    "expression_statement": _macro_invocation_item,
    "line_comment": _module_doc,
    "block_comment": _module_doc,
    "inner_attribute_item": _module_doc,
}
