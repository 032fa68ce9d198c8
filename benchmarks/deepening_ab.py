"""How two checkouts spend an audit's time left: the same audit (same release, laws, seed,
examples, budget) run by each at the same time, side by side on one machine (so both see the
same load), then what each found in its first pass and in its deeper re-checks.

    python benchmarks/deepening_ab.py OLD_TREE NEW_TREE --target qiskit==2.4.1 \\
        --contracts 'qiskit.operation.*,qiskit.query.*' --examples 10 --deepen 3 \\
        --time-budget 20 --workers 1 [--out DIR] [--json-out FILE]

OLD_TREE and NEW_TREE are checkouts (`git worktree add --detach /tmp/old <commit>`); each
runs its own `qusema.cli` with its own code. A finding counts once per (law, API): the unit a
maintainer would read. "Deeper" findings are those whose first violation was a re-check.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from qusema.contracts.bandit import parse_key



def tree_commit(tree: Path) -> str:
    return subprocess.run(["git", "rev-parse", "HEAD"], cwd=tree, capture_output=True, text=True,
                          check=True).stdout.strip()


def start_audit(tree: Path, args: argparse.Namespace, out: Path, log: Path) -> subprocess.Popen:
    command = [sys.executable, "-c", "from qusema.cli import main; main()", "audit", args.target,
               "--contracts", args.contracts, "--examples", str(args.examples), "--deepen", str(args.deepen),
               "--time-budget", str(args.time_budget), "--workers", str(args.workers), "--seed", str(args.seed),
               "--out", str(out)]
    env = {**os.environ, "PYTHONPATH": str(tree)}
    return subprocess.Popen(command, cwd=tree, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT)


def measure(run_dir: Path) -> dict:
    """What one audit did: its summary, and when each (law, API) was first found."""
    summary = json.loads((run_dir / "summary.json").read_text())
    with sqlite3.connect(run_dir / "run.sqlite") as conn:
        (began,) = conn.execute("SELECT min(finished - seconds) FROM work").fetchone()
        work = conn.execute("SELECT item, result, finished FROM work ORDER BY finished").fetchall()
    findings = json.loads((run_dir / "findings.json").read_text())["findings"]
    found_by_item = {}
    for finding in findings:
        hypothesis = finding["hypothesis"]
        found_by_item.setdefault((hypothesis["details"]["found_by"], hypothesis["details"]["subject"]),
                                 set()).add((hypothesis["law_id"], hypothesis["api"]))
    first_found: dict[tuple[str, str], dict] = {}
    deeper_examples = 0
    for item, result, finished in work:
        result = json.loads(result)
        contract, subject, asked = parse_key(item)
        deeper = asked is not None
        deeper_examples += result.get("examples", 0) if deeper else 0
        if result.get("outcome") != "violated":
            continue
        for law, api in sorted(found_by_item.get((contract, subject), ())):
            first_found.setdefault((law, api), {"law": law, "api": api, "deeper": deeper,
                                                "at_s": round(finished - began, 1), "item": item})
    distinct = list(first_found.values())
    return {"summary": {k: summary.get(k) for k in ("items_total", "items_done", "deeper_checks", "examples",
                                                    "examples_per_second", "seconds", "findings", "stop_reason")},
            "deeper_examples": deeper_examples,
            "distinct_found": len(distinct), "distinct_found_deeper": sum(d["deeper"] for d in distinct),
            "found": distinct}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("--target", required=True)
    parser.add_argument("--contracts", default="*")
    parser.add_argument("--examples", type=int, default=10)
    parser.add_argument("--deepen", type=int, default=3)
    parser.add_argument("--time-budget", type=float, default=20.0, help="minutes, as `qusema audit` takes it")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("deepening-ab"))
    parser.add_argument("--json-out", type=Path)
    args = parser.parse_args(argv)
    for tree in (args.old, args.new):
        if not (tree / "qusema" / "cli.py").is_file():
            parser.error(f"{tree} is not a QuSema checkout (no qusema/cli.py)")
    args.out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    runs = {}
    for label, tree in (("old", args.old), ("new", args.new)):
        out = (args.out / label).resolve()
        runs[label] = (tree.resolve(), out, start_audit(tree.resolve(), args, out, args.out / f"{label}.log"))
        print(f"{label}: {tree} at {tree_commit(tree)[:12]}, log {args.out / f'{label}.log'}", file=sys.stderr)
    figures = {}
    for label, (tree, out, process) in runs.items():
        if process.wait() != 0:
            raise SystemExit(f"{label}: the audit failed, see {args.out / f'{label}.log'}")
        (library_dir,) = out.iterdir()
        (run_dir,) = library_dir.iterdir()
        figures[label] = {"tree": str(tree), "commit": tree_commit(tree), "run_dir": str(run_dir), **measure(run_dir)}
    report = {"target": args.target, "contracts": args.contracts, "examples": args.examples, "deepen": args.deepen,
              "time_budget_min": args.time_budget, "workers": args.workers, "seed": args.seed,
              "wall_s": round(time.perf_counter() - started, 1), "runs": figures,
              "only_old": sorted({(d["law"], d["api"]) for d in figures["old"]["found"]}
                                 - {(d["law"], d["api"]) for d in figures["new"]["found"]}),
              "only_new": sorted({(d["law"], d["api"]) for d in figures["new"]["found"]}
                                 - {(d["law"], d["api"]) for d in figures["old"]["found"]})}
    text = json.dumps(report, indent=1)
    if args.json_out:
        args.json_out.parent.mkdir(parents=True, exist_ok=True)
        args.json_out.write_text(text + "\n")
    for label in ("old", "new"):
        run = figures[label]
        print(f"{label} ({run['commit'][:12]}): {run['summary']['items_done']}/{run['summary']['items_total']} checks, "
              f"{run['summary']['deeper_checks']} re-checks ({run['deeper_examples']} examples), "
              f"{run['distinct_found']} (law, API) found, {run['distinct_found_deeper']} of them by a re-check, "
              f"{run['summary']['examples_per_second']} examples/s")
    print(f"only old: {len(report['only_old'])}, only new: {len(report['only_new'])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
