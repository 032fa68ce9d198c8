"""Snippets per second against qiskit 2.4.1 on every available sandbox backend, warm vs cold.

    python benchmarks/sandbox_throughput.py [--warm-runs 200] [--cold-runs 8] [--json-out F]

One worker, one snippet at a time, so the figures are per core. For each backend:
  overhead  median wall time of an empty snippet, warm: fork + channel + clean-up
  warm      median wall time of a small qiskit snippet with qiskit imported once
  cold      median wall time of the same snippet in a fresh sandbox and interpreter
All backends are measured in the same run, one after the other, on the same environment.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import warnings
from dataclasses import asdict, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from qusema.sandbox import BACKENDS, ColdSandbox, Limits, Status, WarmSandbox  # noqa: E402
from qusema.sandbox.protocol import BackendUnavailable  # noqa: E402
from qusema.sandbox.selection import get_backend, unavailable_reason  # noqa: E402
from qusema.targets.environments import EnvironmentStore  # noqa: E402

TARGET = "qiskit==2.4.1"
EMPTY = "pass\n"
QISKIT_SNIPPET = (
    "import qiskit\n"
    "from qiskit.quantum_info import Statevector\n"
    "qc = qiskit.QuantumCircuit(3)\n"
    "qc.h(0); qc.cx(0, 1); qc.cx(1, 2)\n"
    "report('p000', Statevector(qc).probabilities_dict()['000'])\n"
)


@dataclass
class BackendFigures:
    backend: str
    overhead_ms: float
    warm_ms: float
    warm_inside_ms: float
    warm_per_s: float
    warm_sustained_per_s: float
    cold_ms: float
    cold_per_s: float
    worker_start_s: float


def _timed(box, code: str, runs: int) -> tuple[list[float], list[float], float]:
    walls, insides = [], []
    started = time.perf_counter()
    for _ in range(runs):
        result = box.run(code)
        if result.status is not Status.OK:
            raise RuntimeError(f"benchmark snippet failed: {result}")
        walls.append(result.wall_s)
        insides.append(result.duration_s)
    return walls, insides, time.perf_counter() - started


def measure(name: str, env, warm_runs: int, cold_runs: int) -> BackendFigures:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        backend = get_backend(name)
    backend.prepare(env)  # image build etc. is not part of the figures
    limits = Limits(timeout_s=60.0)
    with WarmSandbox(backend, env, limits=limits) as box:
        started = time.perf_counter()
        box.start()
        worker_start = time.perf_counter() - started
        _timed(box, QISKIT_SNIPPET, 5)  # first-use caches inside the library
        empty, _, _ = _timed(box, EMPTY, warm_runs)
        warm, inside, total = _timed(box, QISKIT_SNIPPET, warm_runs)
    cold_box = ColdSandbox(backend, env, limits=limits)
    cold, _, _ = _timed(cold_box, QISKIT_SNIPPET, cold_runs)
    median = statistics.median
    return BackendFigures(
        backend=name,
        overhead_ms=1000 * median(empty),
        warm_ms=1000 * median(warm),
        warm_inside_ms=1000 * median(inside),
        warm_per_s=1 / median(warm),
        warm_sustained_per_s=warm_runs / total,
        cold_ms=1000 * median(cold),
        cold_per_s=1 / median(cold),
        worker_start_s=worker_start,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--warm-runs", type=int, default=200)
    parser.add_argument("--cold-runs", type=int, default=8)
    parser.add_argument("--backends", default=",".join(sorted(BACKENDS)))
    parser.add_argument("--json-out", type=Path)
    args = parser.parse_args(argv)

    env = EnvironmentStore().create(TARGET)
    figures, skipped = [], {}
    for name in args.backends.split(","):
        reason = unavailable_reason(name)
        if reason is not None:
            skipped[name] = reason
            continue
        try:
            figures.append(measure(name, env, args.warm_runs, args.cold_runs))
        except BackendUnavailable as refused:  # process run as root with /root environments
            skipped[name] = str(refused)

    print(f"target {TARGET}; {args.warm_runs} warm and {args.cold_runs} cold runs per backend; medians")
    print(f"{'backend':<9}{'overhead':>10}{'warm':>10}{'(inside)':>10}{'warm/s':>9}"
          f"{'sustained/s':>13}{'cold':>10}{'cold/s':>8}{'worker start':>14}")
    for f in figures:
        print(f"{f.backend:<9}{f.overhead_ms:>8.1f}ms{f.warm_ms:>8.1f}ms{f.warm_inside_ms:>8.1f}ms"
              f"{f.warm_per_s:>9.1f}{f.warm_sustained_per_s:>13.1f}{f.cold_ms:>8.0f}ms"
              f"{f.cold_per_s:>8.2f}{f.worker_start_s:>13.2f}s")
    for name, reason in skipped.items():
        print(f"{name:<9}skipped: {reason}")
    if args.json_out:
        args.json_out.write_text(json.dumps({
            "target": TARGET, "warm_runs": args.warm_runs, "cold_runs": args.cold_runs,
            "figures": [asdict(f) for f in figures], "skipped": skipped,
        }, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
