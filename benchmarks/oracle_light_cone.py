"""Structural backward light cones on a 4,096-qubit circuit of 100,000+ gates.

Paper 001 stored cones through 4,096 qubits at 676 MiB; target here: under 1 s and under
100 MiB. The cone family for every circuit position is one entry time per qubit, so a
membership query for any mutation site is O(support). Reports medians over repeats and the
tracemalloc peak of the cone computation (the circuit's own gate list is input, measured
separately). Writes benchmarks/results/oracle_light_cone.json.
"""

from __future__ import annotations

import json
import resource
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from qusema.oracle.mutation.light_cone import BackwardLightCone  # noqa: E402

QUBITS, GATES, REPEATS = 4096, 100_000, 5


def circuit_supports(seed: int = 0) -> list[tuple[int, ...]]:
    """Brickwork-like random circuit: half one-qubit, half nearest-or-random two-qubit gates."""
    rng = np.random.default_rng(seed)
    out: list[tuple[int, ...]] = []
    for _ in range(GATES):
        a = int(rng.integers(QUBITS))
        if rng.random() < 0.5:
            out.append((a,))
        else:
            b = (a + int(rng.choice([1, -1, int(rng.integers(1, QUBITS))]))) % QUBITS
            out.append((a, b))
    return out


def main() -> None:
    tracemalloc.start()
    supports = circuit_supports()
    input_bytes = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    results = {}
    for label, observed in (("Z0", [0]), ("Z on 64 qubits", list(range(0, 4096, 64)))):
        times, peaks = [], []
        for _ in range(REPEATS):
            tracemalloc.start()
            t0 = time.perf_counter()
            cone = BackwardLightCone.from_supports(supports, QUBITS, observed)
            # every mutation site of the circuit queried once (replacement/deletion sites)
            inside = sum(cone.membership(supports))
            times.append(time.perf_counter() - t0)
            peaks.append(tracemalloc.get_traced_memory()[1])
            tracemalloc.stop()
        results[label] = {"median_seconds": statistics.median(times), "times": times,
                          "peak_mib": max(peaks) / 2 ** 20, "cone_bytes": cone.nbytes(),
                          "gates_in_cone": int(inside), "qubits_in_full_cone": int(len(cone.qubits_at(0)))}
    out = {"qubits": QUBITS, "gates": GATES, "repeats": REPEATS, "input_gate_list_mib": input_bytes / 2 ** 20,
           "process_max_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
           "paper_001_reference": "stored cones through 4,096 qubits at 676.0 MiB", "results": results}
    path = Path(__file__).resolve().parent / "results" / "oracle_light_cone.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(out, indent=2))
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
