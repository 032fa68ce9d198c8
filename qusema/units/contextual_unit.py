"""The contextual unit: a segment, the documentation that constrains it (each piece with
its origin), and its call relations — as JSON, and as text for a model within a token
budget."""

from __future__ import annotations

import ast
import textwrap
from dataclasses import asdict, dataclass, field

from qusema.units.index_db import IndexDB
from qusema.units.records import CallSite, DocPiece, PyO3Export, Reference, Segment

# A model-agnostic estimate: about four characters per token for code and English prose.
CHARS_PER_TOKEN = 4
DEFAULT_TOKEN_BUDGET = 6000


@dataclass
class ContextualUnit:
    segment: Segment
    docs: list[DocPiece]
    docs_searched: list[str]  # where documentation was looked for, said when none was found
    callers: list[CallSite]
    callees: list[CallSite]
    references: list[Reference]
    pyo3: list[PyO3Export]
    public_names: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {
            "segment": self.segment.to_dict(),
            "docs": [asdict(d) for d in self.docs],
            "docs_searched": self.docs_searched,
            "callers": [c.to_dict() for c in self.callers],
            "callees": [c.to_dict() for c in self.callees],
            "references": [asdict(r) for r in self.references],
            "pyo3": [asdict(e) for e in self.pyo3],
            "public_names": self.public_names,
        }

    def render(self, token_budget: int = DEFAULT_TOKEN_BUDGET, docs: bool = True) -> str:
        """Text for a model: header and source first, then documentation, then relations;
        whatever does not fit is cut with a marker saying how much was left out. With
        `docs=False` the documentation section is left out altogether (the agent's no-docs
        ablation): not "none found", which would be a claim about the library."""
        budget = _Budget(token_budget * CHARS_PER_TOKEN)
        seg = self.segment
        header = [f"# {seg.qualname}", f"{seg.language} {seg.kind} at {seg.file}:{seg.start_line}-{seg.end_line}"]
        if self.public_names:
            header.append("public API: " + ", ".join(self.public_names[:5]))
        if self.pyo3:
            header.append("exported to Python as: " + ", ".join(e.python_name for e in self.pyo3))
        budget.add("\n".join(header))
        if seg.context:
            budget.add("## definitions from outside this partition\n" + seg.context, share=0.15)
        source = seg.source if docs or seg.language != "python" else strip_docstring(seg.source)
        budget.add("## source\n" + source, share=0.6)
        if docs and self.docs:
            for piece in self.docs:
                budget.add(f"## documentation: {piece.source} ({piece.origin})\n{piece.text}", share=0.5)
        elif docs:
            budget.add("## documentation\nnone found (searched: " + ", ".join(self.docs_searched) + ")")
        budget.add(_relations("callers", [f"{c.caller} (line {c.line}, via {c.via})" for c in self.callers]), share=0.5)
        budget.add(_relations("callees", [_callee_line(c) for c in self.callees]), share=0.5)
        budget.add(_relations("references", [f"{r.kind} {r.target} (line {r.line})" for r in self.references]),
                   share=0.5)
        return budget.text()


def strip_docstring(source: str) -> str:
    """The source without the docstring of its outermost definition (a Python docstring is
    documentation inside the source). Source that does not parse on its own — a partition of
    a long segment — is returned unchanged."""
    try:
        tree = ast.parse(textwrap.dedent(source))
    except SyntaxError:
        return source
    if not tree.body or not isinstance(tree.body[0], (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return source
    body = tree.body[0].body
    first = body[0] if body else None
    if not (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str)) or first.end_lineno is None:
        return source
    # a stored segment's lines are joined by "\n" alone; splitlines would also break at a form
    # feed inside a line and shift every line after it against the parse's numbering
    lines = [line + "\n" for line in source.split("\n")]
    lines[-1] = lines[-1][:-1]
    if len(body) == 1:  # the body would be empty: keep it valid
        indent = lines[first.lineno - 1][: len(lines[first.lineno - 1]) - len(lines[first.lineno - 1].lstrip())]
        return "".join(lines[: first.lineno - 1] + [indent + "...\n"] + lines[first.end_lineno:])
    return "".join(lines[: first.lineno - 1] + lines[first.end_lineno:])


def _callee_line(call: CallSite) -> str:
    if call.status == "resolved":
        return f"line {call.line}: {call.callee_text} -> {call.target}"
    if call.status == "external":
        return f"line {call.line}: {call.callee_text} -> external {call.external}"
    return f"line {call.line}: {call.callee_text} -> unresolved ({call.reason})"


def _relations(title: str, lines: list[str]) -> str:
    return f"## {title}\n" + ("\n".join(lines) if lines else "none")


class _Budget:
    def __init__(self, chars: int) -> None:
        self.left = chars
        self.parts: list[str] = []

    def add(self, text: str, share: float = 1.0) -> None:
        """Add text, using at most `share` of what is left."""
        allowance = int(self.left * share)
        if len(text) > allowance:
            # the marker counts against the allowance too; a part with no room for it is left out
            marker = f"\n[... {len(text)} characters cut to fit the token budget]"
            keep = allowance - len(marker)
            if keep <= 0:
                return
            text = text[:keep] + marker.replace(str(len(text)), str(len(text) - keep), 1)
        if not text:
            return
        self.parts.append(text)
        self.left -= len(text) + 2  # the blank line that joins parts

    def text(self) -> str:
        return "\n\n".join(self.parts) + "\n"


def build_unit(db: IndexDB, qualname: str) -> ContextualUnit:
    segment = db.segment(qualname)
    if segment is None:
        raise KeyError(qualname)
    docs, searched = gather_docs(db, segment)
    return ContextualUnit(
        segment=segment,
        docs=docs,
        docs_searched=searched,
        callers=db.calls_to(qualname),
        callees=db.calls_from(qualname),
        references=db.references_from(qualname),
        pyo3=db.pyo3_for_rust(qualname),
        public_names=db.public_names(qualname),
    )


def gather_docs(db: IndexDB, segment: Segment) -> tuple[list[DocPiece], list[str]]:
    docs = list(segment.docs)
    searched = ["the definition itself"]
    if segment.language == "python" and segment.owner:
        docs.extend(_class_docs(db, segment, searched))
    if segment.language == "rust":
        searched.append("the Python interface that calls it")
        docs.extend(_python_interface_docs(db, segment))
    return docs, searched


def _class_docs(db: IndexDB, segment: Segment, searched: list[str]) -> list[DocPiece]:
    info = db.class_info(segment.owner or "")
    if info is None:
        return []
    class_doc, mro = info
    searched.extend(["class docstring", "__init__ docstring", "base classes"])
    pieces: list[DocPiece] = []
    if class_doc:
        pieces.append(DocPiece("class docstring", segment.owner or "", class_doc))
    if segment.name != "__init__":
        init = db.segment(f"{segment.owner}.__init__")
        pieces.extend(DocPiece("__init__ docstring", d.origin, d.text) for d in (init.docs if init else ()))
    for base in mro[1:]:
        overridden = db.segment(f"{base}.{segment.name}")
        if overridden is not None:
            pieces.extend(DocPiece("base class method docstring", d.origin, d.text) for d in overridden.docs)
        base_info = db.class_info(base)
        if base_info and base_info[0]:
            pieces.append(DocPiece("base class docstring", base, base_info[0]))
    return pieces


def _python_interface_docs(db: IndexDB, segment: Segment) -> list[DocPiece]:
    pieces: list[DocPiece] = []
    for call in db.calls_to(segment.qualname):
        if call.via != "pyo3":
            continue
        caller = db.segment(call.caller)
        if caller is None:
            continue
        pieces.extend(DocPiece("python interface docstring", d.origin, d.text) for d in caller.docs)
        if caller.owner:
            info = db.class_info(caller.owner)
            if info and info[0]:
                pieces.append(DocPiece("python interface class docstring", caller.owner, info[0]))
    # one caller per distinct docstring is enough
    unique: dict[tuple[str, str], DocPiece] = {}
    for piece in pieces:
        unique.setdefault((piece.origin, piece.text), piece)
    return list(unique.values())
