"""Stage I on the Rust half of a real Qiskit source tree: size, speed, resolution, PyO3.

    python benchmarks/rust_stage1_report.py /path/to/qiskit-2.4.1

Not part of the test suite (CI has no Qiskit tree); the numbers it prints are the ones
reported for Stage I on Rust.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

from qusema.units.pyo3_links import find_extension_modules, link_pyo3
from qusema.units.records import CallSite, FileParse, PyO3Export
from qusema.units.rust_calls import COMMON_METHODS, RustIndex, resolve_with_index
from qusema.units.rust_segments import find_rust_files, parse_rust_file, rust_module_path

SHOWN_PREFIXES = (
    "qiskit._accelerate.sampled_exp_val.",
    "qiskit._accelerate.commutation_checker.CommutationChecker.",
)


def parse_all(root: Path, crates_dir: str) -> tuple[list[FileParse], float]:
    files = [f"{crates_dir}/{f}" for f in find_rust_files(root / crates_dir)]
    sources = [(f, (root / f).read_bytes(), rust_module_path(root, f)) for f in files]
    started = time.process_time()  # CPU time of this one process: "on one core"
    parses = [parse_rust_file(f, data, module) for f, data, module in sources]
    return parses, time.process_time() - started


def report_segments(parses: list[FileParse], seconds: float) -> None:
    segments = [s for p in parses for s in p.segments]
    sizes = [s.line_count for s in segments]
    stats = Counter()
    for parse in parses:
        stats.update(parse.facts["macro_stats"])
    print(f"Rust files            {len(parses)}")
    print(f"Rust LoC (code)       {sum(p.loc for p in parses)}")
    print(f"parse time (CPU)      {seconds:.2f} s")
    print(f"segments              {len(segments)}  {dict(Counter(s.kind for s in segments))}")
    print(f"segment lines         min {min(sizes)}  max {max(sizes)}")
    print(f"macro_rules! arms     {stats['arms']} parsed, {stats['arms_with_errors']} with errors, "
          f"{stats['items_skipped']} items skipped, {stats['fns']} fns kept as segments")


def report_calls(calls: list[CallSite]) -> None:
    status = Counter(c.status for c in calls)
    resolved = status["resolved"]
    evidence = sum(1 for c in calls if c.status == "unresolved" and c.in_library_evidence)
    # The stricter reading: any unresolved call whose name the library also defines,
    # including `x.clone()` / `x.len()` with an unknown receiver.
    by_name = sum(1 for c in calls if c.status == "unresolved" and (c.in_library_evidence or _common(c)))
    print(f"call sites            {len(calls)}  {dict(status)}")
    vias = Counter(c.via for c in calls if c.status == "resolved")
    print(f"resolved via          {dict(vias.most_common())}")
    share = resolved / max(resolved + evidence, 1)
    print(f"resolved share        {share:.1%} of resolved + unresolved-with-evidence ({resolved} / {resolved + evidence})")
    strict = resolved / max(resolved + by_name, 1)
    print(f"  stricter            {strict:.1%} counting common std method names on unknown receivers"
          f" as evidence ({resolved} / {resolved + by_name})")


def _common(call: CallSite) -> bool:
    return call.callee_text.rsplit(".", 1)[-1] in COMMON_METHODS and "library types" in (call.reason or "")


def report_exports(exports: list[PyO3Export]) -> None:
    reachable = [e for e in exports if not e.python_name.startswith("<")]
    print(f"PyO3 exports          {len(exports)}  {dict(Counter(e.kind for e in exports))}")
    print(f"  unreachable         {len(exports) - len(reachable)} (no root module registers them)")
    for prefix in SHOWN_PREFIXES:
        print(f"\n{prefix}*")
        for export in exports:
            if export.python_name.startswith(prefix):
                where = f"{export.file}:{export.line}"
                print(f"  {export.python_name:<75} {export.kind:<12} {export.rust_qualname}  ({where})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path, help="Qiskit source root (the sdist or a checkout)")
    parser.add_argument("--crates", default="crates", help="folder of the Rust crates, relative to root")
    args = parser.parse_args(argv)
    parses, seconds = parse_all(args.root, args.crates)
    report_segments(parses, seconds)
    started = time.process_time()
    index = RustIndex.build(parses)
    calls = resolve_with_index(index)
    print(f"resolution time (CPU) {time.process_time() - started:.2f} s")
    report_calls(calls)
    report_exports(link_pyo3(parses, find_extension_modules(args.root), index))
    return 0


if __name__ == "__main__":
    sys.exit(main())
