"""Test augmentation with the Helstrom observable (paper 001, Sec. 4.3).

For a fixed input, O* = sgn(Delta tau) (Delta tau = mutant output state minus original) attains
the largest gap of any observable with norm <= 1, namely ||Delta tau||_1; if Delta tau = 0 no
observable can expose the mutant. Tests built this way are derived from the mutants they
expose, so adequacy must be measured on held-out mutants: `augment` splits the population
before building anything and scores only the held-out part.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from qusema.oracle.circuits import Circuit
from qusema.oracle.core import core
from qusema.oracle.mutation.mutants import Mutant
from qusema.oracle.mutation.planner import _simulate_with_measurements
from qusema.oracle.mutation.score import Outcome, ScoreInterval, score_interval
from qusema.oracle.mutation.specs import input_state


@dataclass(frozen=True)
class HelstromTest:
    """A dense observable test, marked as derived from a mutant (never an unbiased test)."""

    name: str
    input: str | np.ndarray
    observable: np.ndarray
    threshold: float
    derived_from: str
    gap: float  # ||Delta tau||_1 for the mutant it was built from
    test_derived: bool = True


def output_density(circuit: Circuit, start: np.ndarray) -> np.ndarray:
    branches = _simulate_with_measurements(circuit, start)
    return sum(np.outer(b, b.conj()) for b in branches)


def helstrom_observable(delta: np.ndarray) -> tuple[np.ndarray, float]:
    """(sgn(delta), ||delta||_1) for a Hermitian state difference."""
    vals, vecs = np.linalg.eigh((delta + delta.conj().T) / 2)
    signs = np.sign(vals)
    return (vecs * signs) @ vecs.conj().T, float(np.sum(np.abs(vals)))


def helstrom_test(circuit: Circuit, mutant: Mutant, input_spec: str | np.ndarray, threshold: float) -> HelstromTest:
    n = circuit.num_qubits
    start = input_state(input_spec, n)
    delta = output_density(mutant.mutation.apply(circuit), start) - output_density(circuit, start)
    observable, gap = helstrom_observable(delta)
    return HelstromTest(f"helstrom[{mutant.id}]", input_spec, observable, threshold, mutant.id, gap)


def dense_gap(circuit: Circuit, mutant: Mutant, test: HelstromTest) -> float:
    start = input_state(test.input, circuit.num_qubits)
    delta = output_density(mutant.mutation.apply(circuit), start) - output_density(circuit, start)
    return float(np.real(np.trace(test.observable @ delta)))


@dataclass(frozen=True)
class AugmentationResult:
    tests: list[HelstromTest]
    training: list[str]
    held_out: list[str]
    held_out_score: ScoreInterval  # the only adequacy number to report for augmented tests


def augment(circuit: Circuit, survivors: list[Mutant], all_mutants: list[Mutant], input_spec: str | np.ndarray,
            threshold: float, holdout_fraction: float = 0.5, seed: int = 0) -> AugmentationResult:
    """Builds Helstrom tests from a training share of the survivors and scores them on the
    held-out mutants (exact dense gaps, small circuits only)."""
    if circuit.num_qubits > 10:
        raise ValueError("Helstrom augmentation needs dense output states: at most 10 qubits")
    rng = random.Random(seed)
    ids = sorted(m.id for m in all_mutants)
    rng.shuffle(ids)
    cut = int(round(len(ids) * (1 - holdout_fraction)))
    training, held_out = set(ids[:cut]), set(ids[cut:])
    tests = [helstrom_test(circuit, m, input_spec, threshold) for m in survivors if m.id in training]
    tests = [t for t in tests if t.gap > 0]
    weighted = []
    for m in all_mutants:
        if m.id not in held_out:
            continue
        detected = any(abs(dense_gap(circuit, m, t)) >= threshold for t in tests)
        weighted.append((Outcome.DETECTED if detected else Outcome.SURVIVED, m.weight))
    return AugmentationResult(tests, sorted(training), sorted(held_out), score_interval(weighted))
