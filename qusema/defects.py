"""The records every hypothesis source shares (DESIGN principle 2): a Hypothesis, how it was
verified, the Defect a reproduced hypothesis becomes, and the Finding a user reads.

The contract catalog and the LLM agent both emit `Hypothesis`; verification, triggering
and reporting never ask who wrote it (`origin` is kept for the record only)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from enum import Enum
from typing import Any, Literal

FINDINGS_SCHEMA_VERSION = "1.1"  # 1.1: each finding says its class
# What kind of wrong a finding shows: a value the law rejects, an internal error on valid
# input, or a difference from an earlier release that no oracle settles.
FINDING_CLASSES = ("silent wrong result", "crash", "regression candidate")

Origin = Literal["contract", "llm"]


@dataclass(frozen=True)
class Hypothesis:
    """A claim that a unit misbehaves on a valid input, with the test that would show it.

    `test_code` is a standalone Python program over the library's public API: it ends
    with `assert` statements that hold exactly when the library behaves as the violated
    constraint demands. It runs in the sandbox; an AssertionError reproduces the defect.
    """

    library: str
    version: str
    unit: str  # qualified name of the segment the hypothesis is about (best guess)
    api: str  # the public entry point the test goes through
    law_id: str  # e.g. "operation.inverse-is-adjoint"
    violated_constraint: str  # the law in words
    constraint_source: str  # "quantum semantics" | "documentation: <where>"
    triggering_input: str  # the input, as a person would write it
    predicted_behaviour: str  # what goes wrong
    test_code: str
    origin: Origin
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def id(self) -> str:
        """Content address: the same claim with the same test is the same hypothesis."""
        payload = json.dumps([self.library, self.version, self.law_id, self.api, self.test_code])
        return hashlib.sha256(payload.encode()).hexdigest()[:16]

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, **asdict(self)}


class Verdict(str, Enum):
    REPRODUCED = "reproduced"  # the test's assertion fails on the audited release
    REFUTED = "refuted"  # the test passes: the library behaves as the law demands
    INCONCLUSIVE = "inconclusive"  # the test crashed, timed out, or could not run
    INADEQUATE = "inadequate"  # the assertion could not fail: evidence of nothing


@dataclass(frozen=True)
class Verification:
    hypothesis_id: str
    verdict: Verdict
    status: str  # the sandbox status of the run
    message: str  # assertion message or exception, as observed
    duration_s: float
    backend: str
    adequacy: float | None = None  # share of relevant mutants the check detects, when measured

    def to_dict(self) -> dict[str, Any]:
        record = asdict(self)
        record["verdict"] = self.verdict.value
        return record


Classification = Literal["bug", "potential bug", "not bug"]


@dataclass(frozen=True)
class RootCause:
    segment: str  # qualified name in the Stage I index
    file: str
    start_line: int
    end_line: int
    score: float  # suspiciousness (Ochiai) from coverage of failing vs passing runs
    method: str  # how it was localized


@dataclass
class Finding:
    """A verified defect, located and qualified, ready to become an issue draft."""

    hypothesis: Hypothesis
    verification: Verification
    classification: Classification
    classification_reason: str
    root_cause: RootCause | None
    environment: list[str]  # the resolved package set the reproducer ran against
    other_releases: dict[str, str] = field(default_factory=dict)  # "qiskit==2.6.1" -> "still present" | "fixed there"
    duplicates: list[str] = field(default_factory=list)  # ids of hypotheses folded into this one

    @property
    def dedupe_key(self) -> tuple[str, ...]:
        """What makes two findings one defect: the law, the entry API, the root-cause segment
        and, when the law's check said which of its assertions failed, that assertion. One
        segment can hold two defects a law tells apart (a copy that drops one argument and
        resets another), and a release can fix one and not the other."""
        key = (self.hypothesis.law_id, self.hypothesis.api, self.root_cause.segment if self.root_cause else "?")
        assertion = self.hypothesis.details.get("assertion")
        return (*key, assertion) if assertion else key

    @property
    def id(self) -> str:
        return hashlib.sha256("|".join(self.dedupe_key).encode()).hexdigest()[:12]

    @property
    def finding_class(self) -> str:
        """One of FINDING_CLASSES: as the hypothesis' source said, else by its law (findings
        recorded before sources said it: a panic is a crash, anything else a wrong value)."""
        said = self.hypothesis.details.get("finding_class")
        if said in FINDING_CLASSES:
            return said
        return "crash" if self.hypothesis.law_id.endswith(".robust.no-panic") else "silent wrong result"

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "class": self.finding_class,
            "classification": self.classification,
            "classification_reason": self.classification_reason,
            "hypothesis": self.hypothesis.to_dict(),
            "verification": self.verification.to_dict(),
            "root_cause": asdict(self.root_cause) if self.root_cause else None,
            "environment": self.environment,
            "other_releases": self.other_releases,
            "duplicates": self.duplicates,
        }
