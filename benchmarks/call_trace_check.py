"""Check static call resolution against what really runs (an oracle independent of the
resolver): execute a workload under the target release with a profiling hook, record every
call from library code into library code (caller file:line -> callee function) and every
call from library code into compiled functions, then ask the index what it resolved at that
call site.

    python benchmarks/call_trace_check.py --python /path/to/venv/bin/python --package qiskit \
        --target qiskit==2.4.1 --workload benchmarks/workloads/qiskit_workload.py

The index must exist (`qusema index qiskit==2.4.1`) and the environment must hold the same
release. Results: per category counts over distinct traced edges, and the share resolved.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import tempfile
from collections import Counter
from pathlib import Path

from qusema.targets import default_cache_dir
from qusema.units.index_db import IndexDB
from qusema.units.index_location import index_path
from qusema.units.segment_locator import SegmentLocator

# Runs under the target's Python; standard library only.
_TRACER = r"""
import json, os, runpy, sys
package, workload, out = sys.argv[1], sys.argv[2], sys.argv[3]
module = __import__(package)
base = os.path.dirname(os.path.dirname(os.path.abspath(module.__file__))) + os.sep
prefix = base + package + os.sep
GENERATOR_FLAGS = 0x20 | 0x80 | 0x200
edges, native = {}, {}

def rel(path):
    return path[len(base):].replace(os.sep, "/")

def hook(frame, event, arg):
    if event == "call":
        code = frame.f_code
        back = frame.f_back
        if back is None or not code.co_filename.startswith(prefix) or code.co_flags & GENERATOR_FLAGS:
            return
        if not back.f_code.co_filename.startswith(prefix):
            return
        key = (rel(back.f_code.co_filename), back.f_lineno, rel(code.co_filename), code.co_firstlineno)
        edges[key] = edges.get(key, 0) + 1
    elif event == "c_call" and frame.f_code.co_filename.startswith(prefix):
        owner = getattr(arg, "__self__", None)
        if owner is None or isinstance(owner, type(sys)):
            where = getattr(owner, "__name__", "") or getattr(arg, "__module__", "") or ""
        else:
            kind = owner if isinstance(owner, type) else type(owner)
            where = f"{kind.__module__}.{kind.__qualname__}"
        if not where.startswith(package + "."):
            return
        key = (rel(frame.f_code.co_filename), frame.f_lineno, f"{where}.{arg.__name__}")
        native[key] = native.get(key, 0) + 1

sys.setprofile(hook)
try:
    runpy.run_path(workload, run_name="__main__")
finally:
    sys.setprofile(None)
json.dump({"edges": [list(k) + [v] for k, v in edges.items()],
           "native": [list(k) + [v] for k, v in native.items()]}, open(out, "w"))
"""


def _qualname(span: tuple[int, int, str] | None) -> str | None:
    return span[2] if span else None


def classify(db: IndexDB, locator: SegmentLocator, trace: dict) -> dict:
    edge_outcomes: Counter[str] = Counter()
    examples: dict[str, list[str]] = {}
    mro_cache: dict[str, list[str]] = {}
    for caller_file, line, callee_file, callee_line, _count in trace["edges"]:
        caller = _qualname(locator.at(caller_file, line))
        callee = _qualname(locator.at(callee_file, callee_line))
        if caller is None or callee is None or caller == callee:
            edge_outcomes["outside segments or recursion"] += 1
            continue
        sites = [c for c in db.calls_from(caller) if c.line == line]
        outcome = _outcome(db, sites, callee, mro_cache)
        edge_outcomes[outcome] += 1
        examples.setdefault(outcome, [])
        if len(examples[outcome]) < 8:
            examples[outcome].append(f"{caller}:{line} -> {callee}")
    native_outcomes: Counter[str] = Counter()
    for caller_file, line, python_name, _count in trace["native"]:
        caller = _qualname(locator.at(caller_file, line))
        sites = [c for c in db.calls_from(caller) if c.line == line] if caller else []
        linked = [c for c in sites if c.via == "pyo3" and c.status == "resolved"]
        tail = ".".join(python_name.split(".")[-2:])
        ok = any(tail in e.python_name for c in linked for e in db.pyo3_for_rust(c.target))
        native_outcomes["linked to the Rust function" if ok else
                        "call site linked elsewhere" if linked else
                        "no PyO3 call site at that line" if not sites else "not linked"] += 1
    explicit = sum(v for k, v in edge_outcomes.items() if k not in ("implicit call (no call site names it)",
                                                                    "outside segments or recursion"))
    good = edge_outcomes["resolved to the executed function"] + edge_outcomes["resolved to the base-class method it overrides"]
    return {
        "traced_edges": sum(edge_outcomes.values()),
        "edges": dict(edge_outcomes.most_common()),
        "share_resolved_of_explicit_call_sites": round(good / explicit, 4) if explicit else None,
        "native_calls": dict(native_outcomes.most_common()),
        "examples": examples,
    }


def _names_callee(site_text: str, callee: str) -> bool:
    """Whether a call site spells a call of `callee`: its last name is the function's name,
    or, for a constructor, the class's name (or a super() call)."""
    spelled = site_text.rsplit(".", 1)[-1].split("(")[0]
    owner, _, function = callee.rpartition(".")
    function = function.split("@")[0]
    if function in ("__init__", "__new__"):
        return spelled == owner.rsplit(".", 1)[-1] or "super()" in site_text or spelled == function
    return spelled == function


def _outcome(db: IndexDB, sites, callee: str, mro_cache: dict[str, list[str]]) -> str:
    """Classify one traced edge against the call sites the index holds at that line. Edges
    that no call site spells (properties, operators, metaclass __call__, numpy calling
    __array__) are implicit calls, outside what static call resolution is about."""
    sites = [c for c in sites if _names_callee(c.callee_text, callee)]
    if not sites:
        return "implicit call (no call site names it)"
    if any(c.target == callee for c in sites):
        return "resolved to the executed function"
    callee_owner, _, method = callee.rpartition(".")
    mro = mro_cache.get(callee_owner)
    if mro is None:
        info = db.class_info(callee_owner)
        mro = mro_cache[callee_owner] = info[1] if info else []
    if any(c.target and c.target.rpartition(".")[0] in mro and c.target.endswith("." + method) for c in sites):
        return "resolved to the base-class method it overrides"
    if any(callee in c.candidates for c in sites):
        return "unresolved, executed function among candidates"
    if any(c.status == "unresolved" for c in sites):
        return "unresolved"
    if any(c.status == "external" for c in sites):
        return "labelled external"
    return "resolved to another segment"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--python", required=True, help="interpreter of an environment with the release")
    parser.add_argument("--package", required=True)
    parser.add_argument("--target", required=True, help="the indexed target, e.g. qiskit==2.4.1")
    parser.add_argument("--workload", required=True, type=Path)
    parser.add_argument("--cache-dir", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "trace.json"
        subprocess.run([args.python, "-W", "ignore", "-c", _TRACER, args.package, str(args.workload.resolve()),
                        str(out)], check=True)
        trace = json.loads(out.read_text())
    with IndexDB(index_path(args.cache_dir or default_cache_dir(), args.target)) as db:
        result = classify(db, SegmentLocator(db), trace)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
