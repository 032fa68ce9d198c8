"""What preparing the API surface costs the warm worker with its recipes probed in forked
children (`Surface.isolated_builds`, what the sandbox does) against running them in the
preparing process itself, side by side, alternating round by round; and how many OS threads
each way leaves in the process that then forks a child per check (more than one is the hazard
the isolation removes: a child forked beside a thread pool can hang on a lock).

    python benchmarks/surface_prepare_isolation.py [--library qiskit==2.4.1] [--rounds 5]

Each measurement is a fresh interpreter of the release's environment (made on first use), so
nothing one way computed is reused by the other. Prints a JSON line per measurement, then the
medians and the median of the per-round ratios isolated/inline.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
from pathlib import Path

from qusema.audit import AUDIT_TOOLS
from qusema.targets.environments import EnvironmentStore

SANDBOX = Path(__file__).resolve().parents[1] / "sandbox"
PROGRAM = """
import contextlib, importlib, json, os, sys, time
sys.path[:0] = [{sandbox!r}, {contracts!r}]
module = importlib.import_module({module!r})
started = time.perf_counter()
with (module.SURFACE.isolated_builds() if {isolated!r} else contextlib.nullcontext()):
    module.SURFACE.prepare()
    module.CALLS.prepare()
print(json.dumps({{"seconds": time.perf_counter() - started,
                  "threads": len(os.listdir(f"/proc/{{os.getpid()}}/task")),
                  "subjects": len(module.CALLS.subjects())}}))
"""


def measure(python: Path, module: str, isolated: bool) -> dict:
    code = PROGRAM.format(sandbox=str(SANDBOX), contracts=str(SANDBOX / "contracts"), module=module,
                          isolated=isolated)
    done = subprocess.run([str(python), "-W", "ignore", "-c", code], capture_output=True, text=True, timeout=900)
    if done.returncode != 0:
        raise SystemExit(f"preparing failed ({'isolated' if isolated else 'inline'}):\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--library", default="qiskit==2.4.1", help="LIB==VERSION (qiskit or pennylane)")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    library = args.library.split("==")[0]
    if library not in ("qiskit", "pennylane"):
        parser.error("--library must be qiskit==VERSION or pennylane==VERSION")
    python = EnvironmentStore().create(args.library, tools=AUDIT_TOOLS).python
    module = f"{library}_surface"
    runs: dict[bool, list[dict]] = {True: [], False: []}
    for round_ in range(args.rounds):
        for isolated in ((True, False) if round_ % 2 == 0 else (False, True)):
            figure = measure(python, module, isolated)
            runs[isolated].append(figure)
            print(json.dumps({"round": round_, "isolated": isolated, **figure}), flush=True)
    ratios = [a["seconds"] / b["seconds"] for a, b in zip(runs[True], runs[False])]
    print(json.dumps({
        "library": args.library, "rounds": args.rounds,
        "median_seconds_isolated": round(statistics.median(r["seconds"] for r in runs[True]), 2),
        "median_seconds_inline": round(statistics.median(r["seconds"] for r in runs[False]), 2),
        "median_ratio_isolated_over_inline": round(statistics.median(ratios), 2),
        "threads_isolated": sorted({r["threads"] for r in runs[True]}),
        "threads_inline": sorted({r["threads"] for r in runs[False]}),
        "same_subjects": {r["subjects"] for r in runs[True]} == {r["subjects"] for r in runs[False]},
    }))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
