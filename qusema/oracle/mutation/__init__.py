"""Planner-backed mutation analysis of quantum circuits (paper 001)."""

from qusema.oracle.mutation.mutants import Mutant, Mutation, PrunedMutant
from qusema.oracle.mutation.operators import MutantPopulation, MutationConfig, generate_mutants, prune_and_group
from qusema.oracle.mutation.planner import MutationReport, PlannerConfig, analyse, evaluate_directly
from qusema.oracle.mutation.score import Decision, Evidence, Outcome, ScoreInterval
from qusema.oracle.mutation.specs import DistributionTest, ExpectationTest

__all__ = ["Decision", "DistributionTest", "Evidence", "ExpectationTest", "Mutant", "MutantPopulation", "Mutation",
           "MutationConfig", "MutationReport", "Outcome", "PlannerConfig", "PrunedMutant", "ScoreInterval",
           "analyse", "evaluate_directly", "generate_mutants", "prune_and_group"]
