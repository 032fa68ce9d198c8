"""Quantum unit tests of paper 002, each with its OWN shot budget.

Statevector test (exact, no shots); Inverse test (run the program, undo the expected state's
preparation, pass iff every shot reads all zeros); Swap test (pass iff the ancilla always
reads 0); chi-square, G and exact-multinomial goodness-of-fit tests and their Monte-Carlo
variants on computational-basis counts.

Budgets come from the Quantum Chernoff Bound for a declared fault size: the Inverse test
misses per shot with probability f (fidelity of actual and expected pure states), the Swap
test with (1+f)/2, so each gets N = max(ceil(ln Pe / ln sigma11), 1) for its own sigma11 -
never a budget derived from another test (the review's objection to paper 002's protocol).
Distribution tests get the classical Chernoff budget of the two outcome laws they compare.

Outcomes are computed with the project's numpy simulator; shots are drawn from the exact
outcome law with a seeded generator, so a run is reproducible.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from qusema.oracle.core import core

STATISTICAL_TESTS = ("chi2", "g", "multinomial", "mc_chi2", "mc_g", "mc_multinomial")


@dataclass(frozen=True)
class ShotBudget:
    test: str
    shots: int | None  # None: no finite budget reaches the target (per-shot miss probability 1)
    target_error: float
    per_shot_miss: float | None = None
    chernoff_coefficient: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"test": self.test, "shots": self.shots, "target_error": self.target_error,
                "per_shot_miss": self.per_shot_miss, "chernoff_coefficient": self.chernoff_coefficient}


@dataclass(frozen=True)
class TestOutcome:
    """passed=False means the fault was detected. error_probability bounds the chance that
    this outcome is wrong for a fault of the planned size (0 for one-sided tests that fail)."""

    test: str
    passed: bool
    shots: int
    budget: ShotBudget | None
    error_probability: float
    p_value: float | None = None
    details: dict[str, Any] = field(default_factory=dict)


def plan_shots(sigma11: float, error_probability: float, test: str) -> ShotBudget:
    if sigma11 >= 1:
        return ShotBudget(test, None, error_probability, sigma11, sigma11)
    return ShotBudget(test, core.shots_for_error(error_probability, sigma11), error_probability, sigma11, sigma11)


def plan_inverse_shots(fidelity: float, error_probability: float) -> ShotBudget:
    return plan_shots(core.inverse_test_miss_probability(fidelity), error_probability, "inverse")


def plan_swap_shots(fidelity: float, error_probability: float) -> ShotBudget:
    return plan_shots(core.swap_test_miss_probability(fidelity), error_probability, "swap")


def plan_distribution_shots(expected: np.ndarray, alternative: np.ndarray, error_probability: float,
                            test: str = "distribution") -> ShotBudget:
    """Classical Chernoff budget for telling the expected law from an alternative one."""
    coefficient = core.chernoff_coefficient_classical(np.asarray(expected), np.asarray(alternative))
    if coefficient >= 1 - 1e-15:
        return ShotBudget(test, None, error_probability, None, coefficient)
    return ShotBudget(test, core.shots_for_error(error_probability, coefficient), error_probability, None, coefficient)


# ---------------------------------------------------------------------------------------------

def statevector_test(actual: np.ndarray, expected: np.ndarray, atol: float = 1e-9,
                     up_to_global_phase: bool = True) -> TestOutcome:
    cmp = core.compare_states(actual, expected, atol)
    ok = cmp["verdict"] == core.EQUAL or (up_to_global_phase and cmp["verdict"] == core.EQUAL_UP_TO_GLOBAL_PHASE)
    return TestOutcome("statevector", bool(ok), 0, None, 0.0, details=cmp)


def inverse_test(actual: np.ndarray, expected: np.ndarray, budget: ShotBudget, rng: np.random.Generator) -> TestOutcome:
    """Each shot reads all zeros with probability |<expected|actual>|^2; stops at the first
    shot that does not (a certain detection on noiseless hardware)."""
    return _one_sided("inverse", core.inverse_test_miss_probability(core.fidelity(actual, expected)), budget, rng)


def swap_test(actual: np.ndarray, expected: np.ndarray, budget: ShotBudget, rng: np.random.Generator) -> TestOutcome:
    """Each shot leaves the ancilla at 0 with probability (1 + f) / 2."""
    return _one_sided("swap", core.swap_test_miss_probability(core.fidelity(actual, expected)), budget, rng)


def _one_sided(name: str, miss: float, budget: ShotBudget, rng: np.random.Generator) -> TestOutcome:
    if budget.shots is None:
        raise ValueError(f"{name} test has no finite budget for this fault size")
    detected, used = core.sample_until_failure(min(1.0, miss), budget.shots, rng)
    # A failing shot is impossible for a correct program (noiseless), so detection is certain;
    # a pass is wrong with probability at most the target for a fault of the planned size.
    return TestOutcome(name, not detected, used, budget, 0.0 if detected else budget.target_error,
                       details={"per_shot_miss": miss})


def distribution_test(actual_probs: np.ndarray, expected_probs: np.ndarray, kind: str, budget: ShotBudget,
                      rng: np.random.Generator, alpha: float = 0.05, repetitions: int = 1000) -> TestOutcome:
    """Samples `budget.shots` outcomes from the actual law and tests them against the expected."""
    if budget.shots is None:
        raise ValueError(f"{kind} test has no finite budget for this fault size")
    probs = np.clip(np.asarray(actual_probs, dtype=float), 0, None)
    counts = rng.multinomial(budget.shots, probs / probs.sum())
    p_value = statistical_p_value(counts, expected_probs, kind, rng, repetitions)
    return TestOutcome(kind, p_value >= alpha, budget.shots, budget, alpha, p_value)


def statistical_p_value(counts: np.ndarray, expected_probs: np.ndarray, kind: str, rng: np.random.Generator,
                        repetitions: int = 1000) -> float:
    if kind == "chi2":
        return core.chi_square_test(counts, expected_probs)
    if kind == "g":
        return core.g_test(counts, expected_probs)
    if kind == "multinomial":
        return core.multinomial_exact_test(counts, expected_probs)
    if kind.startswith("mc_"):
        return core.monte_carlo_test(counts, expected_probs, kind[3:], rng, repetitions)
    raise ValueError(f"unknown statistical test {kind!r}; choose from {STATISTICAL_TESTS}")


def swap_ratio_exceeds_two(fidelity: float, error_probability: float) -> bool:
    """Whether the Swap test's own budget is more than twice the Inverse test's (it is for
    every f < 1, because ((1+f)/2)^2 > f)."""
    inv = math.log(error_probability) / math.log(fidelity)
    swap = math.log(error_probability) / math.log((1 + fidelity) / 2)
    return swap > 2 * inv
