"""Our equivalence check vs mqt.qcec vs Qiskit Operator.equiv on QFT-10 and QFT-20 against
their transpiled copies (basis cx, rz, sx, x; no coupling map, so no layout permutation).
Operator.equiv is dense: it is skipped at 20 qubits (a 2^20 x 2^20 matrix is 16 TiB).
Writes benchmarks/results/oracle_equivalence.json.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from qiskit import QuantumCircuit, transpile  # noqa: E402
from qiskit.circuit.library import QFTGate  # noqa: E402
from qiskit.quantum_info import Operator  # noqa: E402

from qusema.oracle.equivalence import EquivalenceConfig, check_equivalence  # noqa: E402


def qft(n: int) -> QuantumCircuit:
    qc = QuantumCircuit(n)
    qc.append(QFTGate(n), range(n))
    return qc.decompose(reps=2)


def timed(fn, repeats):
    times, value = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        value = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), times, value


def main() -> None:
    from mqt import qcec

    rows = []
    for n in (10, 20):
        a = qft(n)
        b = transpile(a, basis_gates=["cx", "rz", "sx", "x"], optimization_level=1, seed_transpiler=7)
        ours_t, ours_all, ours = timed(lambda: check_equivalence(a, b), 3)
        qcec_t, qcec_all, q = timed(lambda: qcec.verify(a, b), 3)
        row = {"circuit": f"QFT-{n}", "gates": [len(a.data), len(b.data)],
               "ours": {"median_s": ours_t, "times": ours_all, "verdict": ours.verdict.value, "method": ours.method},
               "mqt_qcec": {"median_s": qcec_t, "times": qcec_all, "verdict": str(q.equivalence).split(".")[-1]}}
        if n <= 12:
            dense_t, dense_all, dense = timed(lambda: check_equivalence(a, b, EquivalenceConfig(dense_max_qubits=12)), 3)
            row["ours_forced_dense"] = {"median_s": dense_t, "times": dense_all, "verdict": dense.verdict.value,
                                        "method": dense.method}
            op_t, op_all, eq = timed(lambda: Operator(a).equiv(Operator(b)), 3)
            row["qiskit_operator_equiv"] = {"median_s": op_t, "times": op_all, "verdict": bool(eq)}
            row["ratio_operator_over_ours"] = op_t / ours_t
        else:
            row["qiskit_operator_equiv"] = {"skipped": "dense 2^20 x 2^20 operator does not fit in memory"}
        row["ratio_ours_over_qcec"] = ours_t / qcec_t
        rows.append(row)
        print(json.dumps(row, indent=2))
    path = Path(__file__).resolve().parent / "results" / "oracle_equivalence.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
