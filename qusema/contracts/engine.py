"""Talks to the contract runtime inside the sandbox: the catalog, each contract's subjects,
and one (contract, subject) check at a time."""

from __future__ import annotations

import ast
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from qusema.sandbox import Limits, RunResult, Sandbox, Status
from qusema.sandbox.launch import sandbox_source_dir


@dataclass(frozen=True)
class ContractInfo:
    id: str
    family: str
    law: str
    source: str
    validity: str
    kind: str = "silent wrong result"  # or "crash": what class of finding a violation is


@dataclass(frozen=True)
class Subjects:
    """What a law applies to on a release: its subjects, each one's entry API, or the
    reason it applies to nothing."""

    names: list[str]
    apis: dict[str, str | None]
    reason: str | None


DEEPER = " @examples="


@dataclass(frozen=True)
class WorkItem:
    contract: str
    subject: str
    examples: int | None = None  # None: the audit's --examples; set for a deeper re-check

    @property
    def key(self) -> str:
        base = f"{self.contract}::{self.subject}"
        return base if self.examples is None else f"{base}{DEEPER}{self.examples}"

    def seed(self, audit_seed: int) -> int:
        """The seed this check draws its inputs from. A first check uses the audit's seed. A
        deeper re-check gets its own, derived from the audit's seed and its example count:
        with the audit's seed, hypothesis would draw the inputs of the round before first
        (the same random stream), so a quarter of a 4x round would re-check inputs that
        already held, and an unlucky stream stays unlucky in every round."""
        if self.examples is None:
            return audit_seed
        digest = hashlib.sha256(f"{audit_seed}{DEEPER}{self.examples}".encode()).digest()
        return int.from_bytes(digest[:4], "big")


def catalog_fingerprint(library: str) -> str:
    """A digest of the code that states and checks one library's laws: the runtime, the
    shared oracle, the library's contract families and every sandbox module they import
    (pennylane_doc_examples builds on qiskit_doc_examples). A run done with other law code
    is another run: resuming it must not mix verdicts of two versions of a law. Another
    library's laws that these do not import are not part of it, so adding a PennyLane law
    does not restart a Qiskit audit."""
    root = sandbox_source_dir()
    roots = [root / "contract_runtime.py", root / "oracle_core.py",
             *sorted((root / "contracts").glob(f"{library}_*.py"))]
    digest = hashlib.sha256()
    for path in sorted(_with_local_imports(root, roots)):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


def _with_local_imports(root: Path, files: list[Path]) -> set[Path]:
    """`files` and, transitively, the sandbox modules they import (at any depth in the
    module, as families import lazily inside functions too)."""
    seen: set[Path] = set()
    pending = list(files)
    while pending:
        path = pending.pop()
        if path in seen or not path.is_file():
            continue
        seen.add(path)
        for node in ast.walk(ast.parse(path.read_bytes(), filename=str(path))):
            names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                     else [node.module] if isinstance(node, ast.ImportFrom) and node.module and not node.level
                     else [])
            pending.extend(root.joinpath(*name.split(".")).with_suffix(".py") for name in names)
    return seen


def contract_modules(library: str) -> list[str]:
    """The runtime and the library's contract families, as the warm worker should preload them."""
    families = sorted(f"contracts.{path.stem}" for path in (sandbox_source_dir() / "contracts").glob(f"{library}_*.py"))
    return ["contract_runtime", *families]


class SandboxCallFailed(Exception):
    """The runtime itself did not answer (the snippet crashed, timed out, was killed)."""

    def __init__(self, what: str, result: RunResult) -> None:
        detail = result.exception.message if result.exception else (result.kill_reason or result.stderr[-500:])
        super().__init__(f"{what}: {result.status.value}: {detail}")
        self.result = result


class ContractEngine:
    def __init__(self, sandbox: Sandbox, library: str, limits: Limits | None = None) -> None:
        self.sandbox = sandbox
        self.library = library
        self.limits = limits

    def _call(self, what: str, expression: str, limits: Limits | None = None) -> Any:
        code = f"import contract_runtime\nreport('value', {expression})\n"
        result = self.sandbox.run(code, filename=f"{what}.py", limits=limits or self.limits)
        if result.status != Status.OK or "value" not in result.reports:
            raise SandboxCallFailed(what, result)
        return result.reports["value"]

    def catalog(self) -> list[ContractInfo]:
        return [ContractInfo(**c) for c in self._call("catalog", f"contract_runtime.catalog({self.library!r})")]

    def subjects(self, contract_id: str) -> Subjects:
        """The subjects, or none and the reason the law does not apply to this release
        (including the enumeration itself failing in the sandbox)."""
        try:
            answer = self._call("subjects", f"contract_runtime.subjects({self.library!r}, {contract_id!r})")
        except SandboxCallFailed as failed:
            return Subjects([], {}, f"listing subjects failed: {failed}")
        return Subjects(answer["subjects"], answer.get("apis", {}), answer["reason"])

    def unavailable_families(self) -> dict[str, str]:
        return self._call("families", f"contract_runtime.unavailable_families({self.library!r})")

    def check(self, item: WorkItem, examples: int, seed: int, limits: Limits | None = None,
              time_limit_s: float | None = None) -> dict[str, Any]:
        """The runtime's result; a run that did not answer becomes an `error` outcome. With
        `time_limit_s` the runtime stops checking new inputs after that long."""
        values: list[Any] = [self.library, item.contract, item.subject, examples, seed]
        if time_limit_s is not None:
            values.append(round(time_limit_s, 1))
        arguments = ", ".join(json.dumps(a) for a in values)
        try:
            return self._call("check", f"contract_runtime.check({arguments})", limits)
        except SandboxCallFailed as failed:
            return {"contract": item.contract, "subject": item.subject, "outcome": "error",
                    "error": {"type": failed.result.status.value, "message": str(failed)}, "examples": 0,
                    "seconds": failed.result.duration_s}

    def trace(self, code: str, package: str) -> dict[str, Any]:
        return self._call("trace", f"contract_runtime.trace_lines({code!r}, {package!r})")
