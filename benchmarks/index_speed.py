"""Benchmark: cold index of a release, and warm re-index after (a) touching one file and
(b) editing one function body — wall time and peak memory, medians of several runs.

Each measurement runs `qusema index` in a fresh subprocess on a private copy of the
release's source tree, so runs are independent and the library's own cache is untouched.
Peak memory is the maximum RSS of the indexing process plus the largest parse worker
(an upper bound on the peak of the whole process tree).

    python benchmarks/index_speed.py qiskit==2.4.1 pennylane==0.45.0 --runs 5
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from qusema.targets import default_cache_dir, resolve_source

_MEASURE = """
import json, resource, sys, time
from pathlib import Path
from qusema.units.index_db import IndexDB
from qusema.units.indexer import build_index, parser_tag
from qusema.units.layout import detect_scope
root, db_path, workers = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
start = time.perf_counter()
with IndexDB(db_path, parser_tag()) as db:
    run = build_index(root, db, detect_scope(root), workers=workers)
wall = time.perf_counter() - start
own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"wall": wall, "own_kb": own, "children_kb": children, "parsed": run.parsed,
                  "resolved_files": run.resolved_files, "up_to_date": run.up_to_date, "phases": run.phases}))
"""


def measure(root: Path, db_path: Path, workers: int) -> dict:
    out = subprocess.run([sys.executable, "-c", _MEASURE, str(root), str(db_path), str(workers)],
                         check=True, capture_output=True, text=True)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    result["peak_mb"] = (result["own_kb"] + result["children_kb"]) / 1024
    return result


def edit_function_body(root: Path) -> Path:
    """Add a statement at the end of the body of one function in a mid-sized Python file:
    the file's bytes change, its interface (names, signatures) does not."""
    candidates = sorted(p for p in root.rglob("*.py") if 2_000 < p.stat().st_size < 20_000)
    for target in candidates[len(candidates) // 2:]:
        tree = ast.parse(target.read_text())
        functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.body]
        if not functions:
            continue
        function = functions[-1]
        last = function.body[-1]
        indent = " " * last.col_offset
        lines = target.read_text().splitlines()
        lines.insert(last.end_lineno, f"{indent}_benchmark_marker = 1")
        target.write_text("\n".join(lines) + "\n")
        ast.parse(target.read_text())  # the edit must leave valid Python
        return target
    raise RuntimeError("no function to edit")


def bench(spec: str, runs: int, workers: int, cache: Path) -> dict:
    source = resolve_source(spec, cache)
    rows: dict[str, list[dict]] = {"cold": [], "warm_touch": [], "warm_edit": []}
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="qusema-bench-") as tmp:
            tree = Path(tmp) / "tree"
            shutil.copytree(source.root, tree, symlinks=True)
            db_path = Path(tmp) / "index.sqlite"
            rows["cold"].append(measure(tree, db_path, workers))
            touched = next(tree.rglob("*.py"))
            os.utime(touched, (time.time(), time.time()))
            rows["warm_touch"].append(measure(tree, db_path, workers))
            edit_function_body(tree)
            rows["warm_edit"].append(measure(tree, db_path, workers))
    summary = {}
    for name, results in rows.items():
        summary[name] = {
            "median_wall_s": round(statistics.median(r["wall"] for r in results), 3),
            "median_peak_mb": round(statistics.median(r["peak_mb"] for r in results), 1),
            "walls": [round(r["wall"], 3) for r in results],
            "files_parsed": [r["parsed"] for r in results],
            "files_resolved": [r["resolved_files"] for r in results],
            "phases_of_first": results[0]["phases"],
        }
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("targets", nargs="*", default=["qiskit==2.4.1", "pennylane==0.45.0"])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--cache-dir", type=Path, default=None)
    args = parser.parse_args()
    cache = args.cache_dir or default_cache_dir()
    # The machines are shared: the load says how far these medians are from a quiet run.
    report = {"machine": {"cpus": os.cpu_count(), "python": sys.version.split()[0],
                          "load_average_at_start": os.getloadavg()}, "runs": args.runs,
              "workers": args.workers, "results": {}}
    for spec in args.targets:
        report["results"][spec] = bench(spec, args.runs, args.workers, cache)
        print(json.dumps({spec: report["results"][spec]}, indent=2), flush=True)
    report["machine"]["load_average_at_end"] = os.getloadavg()
    out = Path(__file__).parent / "results" / "index_speed.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"written {out}")


if __name__ == "__main__":
    main()
