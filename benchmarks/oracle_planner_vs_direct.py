"""Planner vs direct statevector evaluation of every mutant-test pair, 10-16 qubits.

Direct evaluation = for each mutant, simulate the whole mutant circuit from the input and
compare the test's quantity with the original's (the baseline paper 001 asks for). The planner
must reach the same detected/survived classification on every pair (checked: "equal
decisions"); reported are median wall times over repeats and their ratio. Both use the same
numpy simulator, so the ratio measures analysis, not simulator quality.

Measured side by side: each repeat runs the planner and the direct evaluation back to back
(alternating which goes first), so both see the same machine load; the JSON keeps every time,
the medians, the ratio of medians and the median of the per-repeat ratios. BLAS is pinned to
one thread (set before numpy loads): on a shared two-core machine a multi-threaded BLAS turns
small matrix products into scheduler waits, which would measure the machine, not the method.
Writes benchmarks/results/oracle_planner_vs_direct.json.
"""

from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import json  # noqa: E402
import math  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from qusema.oracle.circuits import Circuit  # noqa: E402
from qusema.oracle.mutation import (  # noqa: E402
    ExpectationTest,
    MutationConfig,
    Outcome,
    analyse,
    evaluate_directly,
    generate_mutants,
)

REPEATS = 3


def layered_circuit(n: int, layers: int, seed: int) -> Circuit:
    """Hardware-efficient-ansatz-like layers: ry/rz on every qubit, then a CNOT ladder."""
    rng = np.random.default_rng(seed)
    ops = []
    for _ in range(layers):
        for q in range(n):
            ops.append(("ry", (float(rng.uniform(-math.pi, math.pi)),), (q,)))
            ops.append(("rz", (float(rng.uniform(-math.pi, math.pi)),), (q,)))
        for q in range(0, n - 1, 2 if _ % 2 == 0 else 1):
            ops.append(("cx", (), (q, q + 1)))
    return Circuit.from_ops(n, ops)


def main() -> None:
    rows = []
    for n in (10, 12, 14, 16):
        circuit = layered_circuit(n, 4, seed=n)
        population = generate_mutants(circuit, MutationConfig(operators=("QGR", "QGD", "QGI", "RGI"),
                                                              max_per_operator=120, seed=n))
        tests = [ExpectationTest("Z0", "0" * n, {"Z0": 1.0}, 0.1),
                 ExpectationTest("Z0Z1", "+" * n, {"Z0 Z1": 1.0}, 0.1)]
        planner_times, direct_times = [], []
        load_before = os.getloadavg()[0]
        for repeat in range(REPEATS):
            for side in (("planner", "direct") if repeat % 2 == 0 else ("direct", "planner")):
                t0 = time.perf_counter()
                if side == "planner":
                    report = analyse(circuit, population, tests)
                    planner_times.append(time.perf_counter() - t0)
                else:
                    direct = evaluate_directly(circuit, population, tests)
                    direct_times.append(time.perf_counter() - t0)
        mismatches, unresolved, evidence = 0, 0, {}
        for m in report.mutants:
            for p in m.pairs:
                key = f"{p.decision.value}/{p.evidence.value}"
                evidence[key] = evidence.get(key, 0) + 1
                if p.outcome is Outcome.UNRESOLVED:
                    unresolved += 1
                elif p.outcome is not direct[(m.mutant.id, p.test)][1]:
                    mismatches += 1
        row = {"qubits": n, "gates": len(circuit.ops), "mutants": len(population.mutants),
               "pairs": len(population.mutants) * len(tests), "planner_median_s": statistics.median(planner_times),
               "direct_median_s": statistics.median(direct_times), "planner_times": planner_times,
               "direct_times": direct_times,
               "speedup": statistics.median(direct_times) / statistics.median(planner_times),
               "speedup_median_of_paired_ratios": statistics.median(d / p for d, p in zip(direct_times, planner_times)),
               "load_average_1min": [load_before, os.getloadavg()[0]],
               "blas_threads": os.environ.get("OPENBLAS_NUM_THREADS"),
               "decision_mismatches": mismatches, "unresolved_pairs": unresolved, "decisions": evidence,
               "score": report.score.to_dict()}
        rows.append(row)
        print(json.dumps({k: v for k, v in row.items() if k not in ("planner_times", "direct_times")}), flush=True)
    path = Path(__file__).resolve().parent / "results" / "oracle_planner_vs_direct.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
