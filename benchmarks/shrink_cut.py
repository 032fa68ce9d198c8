"""Time of a violated check, before and after a change to the law runtime (side by side).

A violated check shrinks its failure for at most `SHRINK_BUDGET_S`. This measures what a
violated check costs with the runtime of two commits: each case runs under both at the same
time (one per core, so both see the same machine load), `--repeats` times, in the audit
environment of the case's release (the environment the CLI builds).

    python benchmarks/shrink_cut.py --before 2395091 --after WORKTREE --repeats 3

Prints, per case, the wall seconds of each run, their medians and the ratio before/after,
and the outcome and example count of each (so a faster run that found nothing shows).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import tarfile
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

from qusema.audit import AUDIT_TOOLS
from qusema.targets.environments import EnvironmentStore

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Case:
    name: str
    spec: str
    law: str
    subject: str
    examples: int
    patch: str = ""


CASES = [
    # a real defect of the release (the covariance block of metric_tensor): what an audit meets
    Case("metric_tensor on pennylane 0.45.0 (release defect)", "pennylane==0.45.0",
         "pennylane.geometry.metric-tensor-is-fubini-study", "metric_tensor", 25),
    # a planted sign error: large circuits fail from the first draw, so shrinking is long
    Case("adjoint_metric_tensor, off-diagonal signs flipped", "pennylane==0.45.0",
         "pennylane.geometry.metric-tensor-is-fubini-study", "adjoint_metric_tensor", 30,
         "import numpy as np\nimport pennylane as qml\n_orig = qml.adjoint_metric_tensor\n"
         "def adjoint_metric_tensor(tape, *a, **k):\n    inner = _orig(tape, *a, **k)\n"
         "    def run(*x, **kw):\n        m = np.asarray(inner(*x, **kw), dtype=float)\n"
         "        return 2 * np.diag(np.diag(m)) - m\n    return run\n"
         "qml.adjoint_metric_tensor = adjoint_metric_tensor\n"),
    # a planted off-by-one in QuantumCircuit.depth: small inputs, shrinking is quick
    Case("QuantumCircuit.depth, one too many", "qiskit==2.4.1", "qiskit.structure.metrics-count-instructions",
         "QuantumCircuit.depth", 40,
         "from qiskit import QuantumCircuit\noriginal = QuantumCircuit.depth\n"
         "QuantumCircuit.depth = lambda self, *a, **k: original(self, *a, **k) + (len(self.data) > 2)\n"),
]

SNIPPET = """
import json, time, warnings
warnings.filterwarnings("ignore")
import contract_runtime as r
{patch}
started = time.perf_counter()
result = r.check({library!r}, {law!r}, {subject!r}, {examples}, 0)
print(json.dumps({{"seconds": time.perf_counter() - started, "outcome": result["outcome"],
                  "examples": result["examples"], "shrink_cut": result.get("shrink_cut")}}))
"""


def sandbox_of(revision: str, into: Path) -> Path:
    """The sandbox/ directory of a commit (or of a work tree, given as a path)."""
    if Path(revision).is_dir():
        return Path(revision) / "sandbox"
    archive = subprocess.run(["git", "archive", revision, "sandbox"], cwd=ROOT, check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into / "sandbox"


def run(python: Path, sandbox: Path, case: Case) -> dict:
    code = SNIPPET.format(patch=case.patch, library=case.spec.split("==")[0], law=case.law, subject=case.subject,
                          examples=case.examples)
    done = subprocess.run([str(python), "-W", "ignore", "-c", code], cwd=sandbox, capture_output=True, text=True,
                          env={"PYTHONPATH": str(sandbox), "PATH": "/usr/bin:/bin"}, timeout=3600)
    if done.returncode != 0:
        raise RuntimeError(f"{case.name}: {done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", required=True, help="commit (or work tree path) of the runtime before")
    parser.add_argument("--after", default=str(ROOT), help="commit or work tree path after (default: this tree)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cases", default=",".join(str(i) for i in range(len(CASES))),
                        help="comma-separated case numbers (default: all)")
    args = parser.parse_args()
    store = EnvironmentStore()
    with tempfile.TemporaryDirectory() as scratch:
        sandboxes = {"before": sandbox_of(args.before, Path(scratch) / "before"),
                     "after": sandbox_of(args.after, Path(scratch) / "after")}
        for index in (int(i) for i in args.cases.split(",")):
            case = CASES[index]
            python = store.create(case.spec, tools=AUDIT_TOOLS).python
            runs: dict[str, list[dict]] = {"before": [], "after": []}
            for _ in range(args.repeats):
                with ThreadPoolExecutor(max_workers=2) as pool:
                    futures = {label: pool.submit(run, python, path, case) for label, path in sandboxes.items()}
                    for label, future in futures.items():
                        runs[label].append(future.result())
            medians = {label: statistics.median(r["seconds"] for r in rs) for label, rs in runs.items()}
            print(f"{case.name} ({case.spec}, {case.examples} examples)")
            for label, rs in runs.items():
                print(f"  {label:6}: " + ", ".join(f"{r['seconds']:.1f} s ({r['outcome']}, {r['examples']} ex)"
                                                 for r in rs) + f"; median {medians[label]:.1f} s")
            print(f"  ratio before/after: {medians['before'] / medians['after']:.2f}", flush=True)


if __name__ == "__main__":
    main()
