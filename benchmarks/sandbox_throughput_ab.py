"""Two checkouts' sandbox throughput side by side: sandbox_throughput.py of each, alternated
round by round (the order flips every round), then per-round ratios new/old and their median.

    python benchmarks/sandbox_throughput_ab.py OLD_TREE NEW_TREE [--rounds 5] [--warm-runs 200]
        [--backends bwrap,docker] [--out DIR]

OLD_TREE and NEW_TREE are checkouts (git worktree add /tmp/old <commit>); each runs its own
benchmarks/sandbox_throughput.py with its own code. The machine is noisy, so only ratios of
runs made minutes apart are compared, never figures of different days.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

METRICS = ("warm_per_s", "warm_sustained_per_s", "overhead_ms", "warm_inside_ms")


def run_one(tree: Path, out: Path, warm_runs: int, backends: str) -> dict:
    done = subprocess.run([sys.executable, "benchmarks/sandbox_throughput.py", "--warm-runs", str(warm_runs),
                           "--cold-runs", "2", "--backends", backends, "--json-out", str(out)],
                          cwd=tree, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{tree}: sandbox_throughput.py failed:\n{done.stderr[-2000:]}")
    return {f["backend"]: f for f in json.loads(out.read_text())["figures"]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--warm-runs", type=int, default=200)
    parser.add_argument("--backends", default="bwrap,docker")
    parser.add_argument("--out", type=Path, default=Path("sandbox-ab"))
    args = parser.parse_args(argv)
    for tree in (args.old, args.new):
        if not (tree / "benchmarks" / "sandbox_throughput.py").is_file():
            parser.error(f"{tree} is not a QuSema checkout (no benchmarks/sandbox_throughput.py)")
    args.out.mkdir(parents=True, exist_ok=True)
    runs: dict[str, list[dict]] = {"old": [], "new": []}
    for number in range(1, args.rounds + 1):
        order = [("old", args.old), ("new", args.new)]
        for label, tree in order if number % 2 else reversed(order):
            print(f"round {number}/{args.rounds}: {label} ({tree})", file=sys.stderr, flush=True)
            runs[label].append(run_one(tree.resolve(), (args.out / f"{number}-{label}.json").resolve(),
                                       args.warm_runs, args.backends))
    summary = {}
    for backend in args.backends.split(","):
        if not all(backend in r for r in runs["old"] + runs["new"]):
            print(f"{backend}: skipped by one of the trees")
            continue
        for metric in METRICS:
            old = [r[backend][metric] for r in runs["old"]]
            new = [r[backend][metric] for r in runs["new"]]
            ratio = statistics.median(n / o for o, n in zip(old, new))
            summary[f"{backend}.{metric}"] = {"old": old, "new": new, "median_ratio_new_over_old": ratio}
            print(f"{backend:<7}{metric:<22} old median {statistics.median(old):7.1f}  "
                  f"new median {statistics.median(new):7.1f}  new/old per round, median {ratio:.3f}")
    (args.out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
