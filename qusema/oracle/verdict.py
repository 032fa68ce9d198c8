"""The oracle's results vocabulary: answers that admit uncertainty.

Modelled on mqt-qcec's criteria, with one rule that matters more than the names: `unknown`
always carries the reason (size, time, unsupported operation) and is never rounded to "equal".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any


class Verdict(str, Enum):
    EQUAL = "equal"
    EQUAL_UP_TO_GLOBAL_PHASE = "equal_up_to_global_phase"
    NOT_EQUAL = "not_equal"
    UNKNOWN = "unknown"

    def is_equal(self, up_to_global_phase: bool) -> bool:
        """True only for a proven equality; `unknown` is never equal."""
        if self is Verdict.EQUAL:
            return True
        return up_to_global_phase and self is Verdict.EQUAL_UP_TO_GLOBAL_PHASE


@dataclass(frozen=True)
class Counterexample:
    """An input on which the two sides differ, as a state vector description.

    kind: "basis" (one basis index), "superposition" (equal superposition of the indices),
    "product" (one single-qubit state per qubit, qubit 0 first, as amplitude pairs).
    """

    kind: str
    indices: tuple[int, ...] = ()
    product: tuple[tuple[complex, complex], ...] = ()
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.indices:
            out["indices"] = list(self.indices)
        if self.product:
            out["product"] = [[[a.real, a.imag], [b.real, b.imag]] for a, b in self.product]
        if self.note:
            out["note"] = self.note
        return out


@dataclass(frozen=True)
class EquivalenceResult:
    verdict: Verdict
    method: str
    counterexample: Counterexample | None = None
    reason: str = ""
    global_phase: float | None = None
    details: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"verdict": self.verdict.value, "method": self.method,
                "counterexample": self.counterexample.to_dict() if self.counterexample else None,
                "reason": self.reason, "global_phase": self.global_phase, "details": self.details}
