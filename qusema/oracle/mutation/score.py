"""Decisions, evidence and the mutation-score interval (paper 001, Sec. 2.5, 3.1).

Execution status (`Decision`) and the reason it is justified (`Evidence`) are recorded
separately. The score is an interval: survivors and unresolved mutants stay in the
denominator, and unresolved ones may go either way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from typing import Any


class Decision(str, Enum):
    SKIP_CERTIFIED_ZERO = "skip_certified_zero"      # exact zero effect: not run, survives
    SKIP_BELOW_THRESHOLD = "skip_below_threshold"    # certified below threshold: not run, survives
    PREDICTED_DETECTED = "predicted_detected"        # certified at/above threshold: not run, detected
    EXECUTE = "execute"                              # analysis could not decide: run (simulated)
    UNRESOLVED = "unresolved"                        # neither decided nor runnable within limits


class Evidence(str, Enum):
    SEMANTIC_EQUIVALENCE = "semantic_equivalence"
    LIGHT_CONE = "light_cone"
    OBSERVABLE_COMMUTATION = "observable_commutation"
    STATE_COMMUTATION = "state_commutation"
    ANGLE_BOUND = "angle_bound"
    ROTATION_CLOSED_FORM = "rotation_closed_form"
    REPLACEMENT_AXIS_ANGLE = "replacement_axis_angle"
    PAULI_PROPAGATION = "pauli_propagation"
    PERTURBATIVE_INTERVAL = "perturbative_interval"
    INTERFACE_CHANGE = "interface_change"
    EXECUTED_STATEVECTOR = "executed_statevector"
    EXECUTED_DENSITY = "executed_density"
    NONE = "none"


class Outcome(str, Enum):
    DETECTED = "detected"
    SURVIVED = "survived"
    UNRESOLVED = "unresolved"
    EQUIVALENT = "equivalent"


DECISION_OUTCOME = {
    Decision.SKIP_CERTIFIED_ZERO: Outcome.SURVIVED,
    Decision.SKIP_BELOW_THRESHOLD: Outcome.SURVIVED,
    Decision.PREDICTED_DETECTED: Outcome.DETECTED,
    Decision.UNRESOLVED: Outcome.UNRESOLVED,
}


@dataclass(frozen=True)
class ScoreInterval:
    detected: int
    survived: int
    unresolved: int

    @property
    def population(self) -> int:
        return self.detected + self.survived + self.unresolved

    @property
    def lower(self) -> Fraction:
        return Fraction(self.detected, self.population) if self.population else Fraction(0)

    @property
    def upper(self) -> Fraction:
        return Fraction(self.detected + self.unresolved, self.population) if self.population else Fraction(0)

    def to_dict(self) -> dict[str, Any]:
        return {"detected": self.detected, "survived": self.survived, "unresolved": self.unresolved,
                "population": self.population, "lower": float(self.lower), "upper": float(self.upper)}


@dataclass(frozen=True)
class PairResult:
    mutant_id: str
    test: str
    decision: Decision
    evidence: Evidence
    outcome: Outcome
    gap: float | None = None
    gap_interval: tuple[float, float] | None = None
    details: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0
    simulated_gates: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"test": self.test, "decision": self.decision.value, "evidence": self.evidence.value,
                "outcome": self.outcome.value, "gap": self.gap,
                "gap_interval": list(self.gap_interval) if self.gap_interval else None,
                "details": self.details, "cost": {"seconds": self.seconds, "simulated_gates": self.simulated_gates,
                                                   "shots": 0}}


def combine(outcomes: list[Outcome]) -> Outcome:
    """A suite detects a mutant if any test does; otherwise any unresolved test leaves it unresolved."""
    if Outcome.DETECTED in outcomes:
        return Outcome.DETECTED
    if Outcome.UNRESOLVED in outcomes:
        return Outcome.UNRESOLVED
    return Outcome.SURVIVED


def score_interval(weighted: list[tuple[Outcome, int]]) -> ScoreInterval:
    """Weighted outcomes of the non-equivalent population; equivalent mutants are not in it."""
    totals = {o: 0 for o in Outcome}
    for outcome, weight in weighted:
        totals[outcome] += weight
    return ScoreInterval(totals[Outcome.DETECTED], totals[Outcome.SURVIVED], totals[Outcome.UNRESOLVED])
