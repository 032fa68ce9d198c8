"""Records of Stage I: what a segment, a call site, a piece of documentation and a
PyO3 export *are*. Every segmenter (Python, Rust) and every later stage speaks these."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Literal

Language = Literal["python", "rust"]

# Segment kinds: a module-level function, a method of a class (Python) or of an impl
# block (Rust), or one partition of an over-long Rust function.
SegmentKind = Literal["function", "method", "partition"]


@dataclass(frozen=True)
class DocPiece:
    """One piece of documentation that constrains a unit, and where it came from."""

    source: str  # e.g. "docstring", "class docstring", "__init__ docstring", "rust ///", "python interface"
    origin: str  # qualified name or file:line the text was taken from
    text: str


@dataclass(frozen=True)
class Segment:
    """A function or method: the smallest piece of code a hypothesis is about.

    Python qualnames are dotted module paths (``qiskit.circuit.quantumcircuit.QuantumCircuit.append``).
    Rust qualnames are crate paths (``qiskit_circuit::dag_circuit::DAGCircuit::topological_op_nodes``);
    a method of a trait impl is ``crate::module::<Type as Trait>::name``; a partition of a
    long function appends ``#p<k>`` (k from 1).
    """

    qualname: str
    language: Language
    kind: SegmentKind
    name: str
    file: str  # path relative to the source root, with forward slashes
    start_line: int  # 1-based, first line of decorators / attributes included
    end_line: int  # inclusive
    signature: str
    source: str
    decorators: tuple[str, ...] = ()  # Python decorators or Rust attributes, as written
    owner: str | None = None  # enclosing class (Python) or impl type (Rust), qualified
    trait: str | None = None  # Rust: the trait of a trait impl
    docs: tuple[DocPiece, ...] = ()  # documentation found at the definition itself
    # Rust partitions: the local definitions from outside the partition that it uses.
    context: str = ""

    @property
    def line_count(self) -> int:
        return self.end_line - self.start_line + 1

    def to_dict(self) -> dict:
        return asdict(self)


CallStatus = Literal["resolved", "external", "unresolved"]


@dataclass(frozen=True)
class CallSite:
    """A call in a segment's body. ``target`` is a segment qualname when resolved inside the
    library; ``external`` names what it resolved to outside the library (``numpy.dot``);
    otherwise ``reason`` says why it could not be resolved."""

    caller: str
    line: int
    callee_text: str  # the callee expression as written, e.g. "self._append" or "Type::method"
    status: CallStatus
    target: str | None = None
    external: str | None = None
    reason: str | None = None
    via: str = "direct"  # how it was resolved: import, self, super, type-inference, pyo3, path, ...
    in_library_evidence: bool = False  # unresolved but known to aim inside the library
    candidates: tuple[str, ...] = ()  # possible targets when the receiver's type is unknown

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class Reference:
    """A non-call reference from a segment: a class it names, or a same-file constant or
    table it reads."""

    source: str  # segment qualname
    kind: Literal["class", "constant"]
    target: str  # qualified name of the class / constant
    line: int


@dataclass(frozen=True)
class PyO3Export:
    """A Rust item exported to Python, with the Python dotted name it is reachable as."""

    python_name: str  # e.g. "qiskit._accelerate.commutation_checker.CommutationChecker.commute"
    rust_qualname: str  # the Rust segment (fn) or struct qualname behind it
    kind: Literal["function", "class", "method", "constructor", "getter", "setter", "module"]
    file: str
    line: int


@dataclass(frozen=True)
class SkippedFile:
    """A file the index passed over, and why: never a crash."""

    file: str
    reason: str


@dataclass
class FileParse:
    """What one source file yields. Cached in the index by content hash."""

    file: str
    language: Language
    content_hash: str
    loc: int  # lines of code: no blank lines, no comments (docstrings count as comments)
    segments: list[Segment] = field(default_factory=list)
    # Raw material for resolution, language specific, JSON-serialisable.
    facts: dict = field(default_factory=dict)
