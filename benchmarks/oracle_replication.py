"""A small replication of paper 002's study with FAIR budgets (each test its own, Pe = 0.05).

Circuits: random circuits of 1-5 qubits and MQT Bench circuits of at most 5 qubits (INDEP
level), mutated with QGR, QGD, QGI and RGI (one degree, as in paper 002). Expected state =
original circuit on |0...0>. Per mutant with fidelity f < 1:
  Inverse test: N = max(ceil(ln Pe / ln f), 1), stops at the first nonzero readout;
  Swap test:    N = max(ceil(ln Pe / ln((1+f)/2)), 1), stops at the first ancilla 1;
  chi2 / G / MC-chi2 / MC-G: the classical Chernoff budget of the two outcome laws, test at
  alpha = Pe; a mutant whose outcome law equals the original's has no finite budget and
  counts as missed by these tests (it is invisible to any computational-basis statistic).
Budgets above SHOT_CAP are censored (counted as misses, reported). False positives: the
same budget run on the unmutated circuit.

The Inverse and Swap tests are run as circuits: for each mutant the Inverse-test circuit
(mutant, then the original's inverse, all qubits measured) and the Swap-test circuit (mutant
and original on two registers, an ancilla, controlled-SWAPs, Hadamard-measured ancilla, 2n+1
qubits) are built and run shot by shot on the project's numpy simulator (sandbox/oracle_core.py),
stopping at the first failing shot; the false-positive runs use the same circuits built for
the unmutated program. The fidelity f is used only to plan each test's budget, and the run
checks that every built circuit's per-shot miss probability equals f resp. (1+f)/2 (the
largest deviation is reported). The statistical tests draw their counts from the outcome laws
of the program circuits. Writes benchmarks/results/oracle_replication.json.
"""

from __future__ import annotations

import json
import math
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from qusema.oracle.circuits import Circuit  # noqa: E402
from qusema.oracle.core import core  # noqa: E402
from qusema.oracle.mutation import MutationConfig, generate_mutants  # noqa: E402
from qusema.oracle.quantum_tests import (  # noqa: E402
    inverse_test_circuit,
    plan_distribution_shots,
    plan_inverse_shots,
    plan_swap_shots,
    run_test_circuit,
    statistical_p_value,
    swap_test_circuit,
)

PE = 0.05
SHOT_CAP = 10 ** 6
RANDOM_PER_WIDTH = 40
MUTANTS_PER_OPERATOR = 8
TESTS = ("inverse", "swap", "chi2", "g", "mc_chi2", "mc_g")


def random_circuit(n: int, rng: np.random.Generator) -> Circuit:
    ops = []
    for _ in range(int(rng.integers(3, 4 * n + 4))):
        if n > 1 and rng.random() < 0.35:
            a, b = (int(v) for v in rng.permutation(n)[:2])
            ops.append((str(rng.choice(["cx", "cz", "swap"])), (), (a, b)))
        elif rng.random() < 0.5:
            ops.append((str(rng.choice(["h", "x", "s", "t", "sx", "y"])), (), (int(rng.integers(n)),)))
        else:
            ops.append((str(rng.choice(["rx", "ry", "rz"])), (float(rng.uniform(-math.pi, math.pi)),),
                        (int(rng.integers(n)),)))
    return Circuit.from_ops(n, ops)


def mqt_bench_circuits() -> tuple[list[tuple[str, Circuit]], list[str]]:
    from mqt.bench import BenchmarkLevel, get_benchmark
    from mqt.bench.benchmarks import get_available_benchmark_names
    from qiskit import transpile

    out, skipped = [], []
    for name in get_available_benchmark_names():
        for n in range(2, 6):
            try:
                qc = get_benchmark(name, BenchmarkLevel.INDEP, n)
            except Exception as exc:  # noqa: BLE001 - a generator that rejects a size is skipped and listed
                skipped.append(f"{name}-{n}: {type(exc).__name__}")
                continue
            if qc.num_qubits > 5:
                skipped.append(f"{name}-{n}: {qc.num_qubits} qubits")
                continue
            qc = qc.remove_final_measurements(inplace=False)
            qc = transpile(qc, basis_gates=["rx", "ry", "rz", "h", "x", "y", "z", "s", "sdg", "t", "tdg", "sx",
                                            "cx", "cz", "swap", "p", "cp", "u"], optimization_level=0)
            try:
                circuit = Circuit.from_qiskit(qc)
            except core.UnsupportedOperation as exc:
                skipped.append(f"{name}-{n}: {exc}")
                continue
            if circuit.has_measurements():
                skipped.append(f"{name}-{n}: mid-circuit measurement")
                continue
            out.append((f"{name}-{n}", circuit))
    return out, skipped


def run_dataset(circuits: list[tuple[str, Circuit]], rng: np.random.Generator) -> dict:
    stats = {t: {"eligible": 0, "detected": 0, "censored": 0, "undetectable": 0, "false_positives": 0,
                 "fp_runs": 0, "shots_all": [], "shots_detected": [], "budgets": []} for t in TESTS}
    mutants_total, equivalent_for_input = 0, 0
    built = {"inverse": 0, "swap": 0}
    deviation = {"inverse": 0.0, "swap": 0.0}
    for label, circuit in circuits:
        n = circuit.num_qubits
        expected = core.statevector(circuit.ops, n)
        p_expected = np.abs(expected) ** 2
        # The unmutated program's own test circuits: the false-positive runs.
        correct = {"inverse": inverse_test_circuit(circuit, circuit), "swap": swap_test_circuit(circuit, circuit)}
        for test, tc in correct.items():
            built[test] += 1
            deviation[test] = max(deviation[test], abs(tc.per_shot_miss() - 1.0))
        population = generate_mutants(circuit, MutationConfig(operators=("QGR", "QGD", "QGI", "RGI"),
                                                               max_per_operator=MUTANTS_PER_OPERATOR,
                                                               seed=int(rng.integers(1 << 30))))
        for mutant in population.mutants:
            mutants_total += 1
            program = mutant.mutation.apply(circuit)
            actual = core.statevector(program.ops, n)
            f = core.fidelity(actual, expected)
            if f >= 1 - 1e-12:
                equivalent_for_input += 1  # same state for this input: no state test can see it
                continue
            p_actual = np.abs(actual) ** 2
            faulty = {"inverse": inverse_test_circuit(program, circuit), "swap": swap_test_circuit(program, circuit)}
            for test, tc in faulty.items():
                built[test] += 1
                planned_miss = f if test == "inverse" else (1 + f) / 2
                deviation[test] = max(deviation[test], abs(tc.per_shot_miss() - planned_miss))
            for test in TESTS:
                s = stats[test]
                s["eligible"] += 1
                if test == "inverse":
                    budget = plan_inverse_shots(f, PE)
                elif test == "swap":
                    budget = plan_swap_shots(f, PE)
                else:
                    budget = plan_distribution_shots(p_expected, p_actual, PE, test)
                if budget.shots is None:
                    s["undetectable"] += 1
                    continue
                if budget.shots > SHOT_CAP:
                    s["censored"] += 1
                    continue
                s["budgets"].append(budget.shots)
                if test in ("inverse", "swap"):
                    run = run_test_circuit(faulty[test], budget, rng)
                    detected, used = not run.passed, run.shots
                    fp = not run_test_circuit(correct[test], budget, rng).passed
                else:
                    counts = rng.multinomial(budget.shots, p_actual / p_actual.sum())
                    detected = statistical_p_value(counts, p_expected, test, rng, 200) < PE
                    used = budget.shots
                    null = rng.multinomial(budget.shots, p_expected / p_expected.sum())
                    fp = statistical_p_value(null, p_expected, test, rng, 200) < PE
                s["fp_runs"] += 1
                s["false_positives"] += int(fp)
                s["shots_all"].append(used)
                if detected:
                    s["detected"] += 1
                    s["shots_detected"].append(used)
    table = {}
    for test, s in stats.items():
        table[test] = {"eligible_mutants": s["eligible"], "detected": s["detected"],
                       "recall": s["detected"] / s["eligible"] if s["eligible"] else None,
                       "recall_among_finite_budgets": (s["detected"] / (s["eligible"] - s["undetectable"] - s["censored"])
                                                       if s["eligible"] - s["undetectable"] - s["censored"] else None),
                       "undetectable_by_this_test": s["undetectable"], "censored_above_cap": s["censored"],
                       "false_positives": s["false_positives"], "false_positive_runs": s["fp_runs"],
                       "median_shots_detected": statistics.median(s["shots_detected"]) if s["shots_detected"] else None,
                       "median_shots_all_runs": statistics.median(s["shots_all"]) if s["shots_all"] else None,
                       "median_planned_budget": statistics.median(s["budgets"]) if s["budgets"] else None}
    return {"circuits": len(circuits), "mutants": mutants_total, "same_state_for_input": equivalent_for_input,
            "test_circuits_built": built,
            "max_deviation_per_shot_miss_vs_planned": deviation,
            "tests": table}


def main() -> None:
    rng = np.random.default_rng(2025)
    t0 = time.perf_counter()
    random_circuits = [(f"random-{n}-{i}", random_circuit(n, rng)) for n in range(1, 6) for i in range(RANDOM_PER_WIDTH)]
    bench, skipped = mqt_bench_circuits()
    out = {"error_probability": PE, "shot_cap": SHOT_CAP, "budgets": "each test its own (QCB / classical Chernoff)",
           "inverse_and_swap": "built test circuits run shot by shot on the qusema numpy core simulator",
           "random_circuits": run_dataset(random_circuits, rng),
           "mqt_bench": run_dataset(bench, rng), "mqt_bench_circuits": [label for label, _ in bench],
           "mqt_bench_skipped": skipped, "seconds": None}
    out["seconds"] = time.perf_counter() - t0
    path = Path(__file__).resolve().parent / "results" / "oracle_replication.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(out, indent=2))
    for name in ("random_circuits", "mqt_bench"):
        d = out[name]
        print(f"{name}: {d['circuits']} circuits, {d['mutants']} mutants, {d['same_state_for_input']} same-state, "
              f"test circuits {d['test_circuits_built']}, max |miss - planned| {d['max_deviation_per_shot_miss_vs_planned']}")
        for test, row in d["tests"].items():
            print(f"  {test:8} recall={row['recall']:.3f} fp={row['false_positives']}/{row['false_positive_runs']} "
                  f"median shots(detected)={row['median_shots_detected']} undetectable={row['undetectable_by_this_test']} "
                  f"censored={row['censored_above_cap']}")
    print(f"{len(bench)} MQT Bench circuits, {len(skipped)} skipped; {out['seconds']:.1f} s")


if __name__ == "__main__":
    main()
