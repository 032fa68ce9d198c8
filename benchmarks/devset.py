"""The development set: audits of release N re-run on release N+1, scored by what the
maintainers fixed (issue 28, part 5).

For each consecutive pair N -> N+1 this runs, as a user would,

    qusema audit LIB==N --diff-against LIB==N+1 --time-budget B --deepen 0 --out benchmarks/runs/devset --resume

and reads the run's findings.json: a finding whose reproducer fails on N (it is a finding)
and passes on N+1 ("fixed there") is a *flip*, a defect the next release fixed, confirmed by
the maintainers' own change with no human judging it. Beside each pair it counts the fix
notes of N+1 in ../shared/devset/ (the libraries' release notes up to Qiskit 2.3.x and
PennyLane 0.44.x only) and how many of them name an entry of N's public API (a first bound
on what a public-API check could observe; notes on messages, warnings or speed name none).

    python benchmarks/devset.py --pairs qiskit==2.3.0:2.3.1,pennylane==0.43.0:0.44.0 --time-budget 8
    python benchmarks/devset.py --table        # results/devset/table.md from the runs so far

Results: benchmarks/results/devset/pairs.json (one record per pair, appended as each ends, so
nothing is lost when a later pair fails) and table.md.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "devset"
RUNS = ROOT / "benchmarks" / "runs" / "devset"
DEVSET = ROOT.parent / "shared" / "devset"
# the release notes' own cross-references: :class:`.QuantumCircuit`, ``qml.adjoint``, `transpile`
NAMED = re.compile(r"`+(?:~|\.)?([A-Za-z_][\w.]*)(?:\(\))?`+")


@dataclass
class PairResult:
    library: str
    release: str
    fixed_in: str
    run: str
    seconds: float
    checks: str
    findings: int
    flips: int
    still_present: int
    inconclusive: int
    fix_notes: int
    notes_naming_public_api: int
    flipped: list[str]


def fix_notes(library: str, fixed_in: str) -> list[str]:
    notes = json.loads((DEVSET / f"{library}-fixes.json").read_text())
    return [n["text"] for n in notes if n["fixed_in"] == fixed_in]


def public_names(library: str, release: str) -> set[str]:
    """Every dotted tail of every public entry of `release` (qiskit.circuit.QuantumCircuit.compose
    gives compose, QuantumCircuit.compose, circuit.QuantumCircuit.compose, ...), from the
    `qusema surface` listing."""
    listing = subprocess.run(["qusema", "surface", f"{library}=={release}", "--json"], check=True,
                             capture_output=True, text=True, cwd=ROOT)
    entries = [e["entry"].split("#")[0] for e in json.loads(listing.stdout)["listing"]]
    return dotted_tails(entries)


def dotted_tails(entries: list[str]) -> set[str]:
    tails = set()
    for entry in entries:
        parts = entry.split(".")
        tails.update(".".join(parts[i:]) for i in range(len(parts)))
    return tails


def naming_public_api(notes: list[str], tails: set[str]) -> int:
    """How many notes cross-reference a public entry (`qml.` and `qp.` read as pennylane.)."""
    def named(reference: str) -> bool:
        head, _, rest = reference.partition(".")
        return reference in tails or (head in ("qml", "qp") and (rest in tails or f"pennylane.{rest}" in tails))
    return sum(1 for text in notes if any(named(m) for m in NAMED.findall(text)))


def run_pair(library: str, release: str, fixed_in: str, budget: float) -> PairResult:
    started = time.perf_counter()
    command = ["qusema", "audit", f"{library}=={release}", "--diff-against", f"{library}=={fixed_in}",
               "--time-budget", str(budget), "--deepen", "0", "--out", str(RUNS),
               "--resume"]  # continues a pair's run that an earlier try began (or begins it)
    print("$", " ".join(command), flush=True)
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    run_dir = _newest_run(RUNS / f"{library}-{release}")
    findings = json.loads((run_dir / "findings.json").read_text())["findings"]
    summary = json.loads((run_dir / "summary.json").read_text())
    verdicts = [f.get("other_releases", {}).get(f"{library}=={fixed_in}", "") for f in findings]
    flipped = [f"{f['hypothesis']['law_id']} on {f['hypothesis']['api']}"
               for f, v in zip(findings, verdicts) if v == "fixed there"]
    notes = fix_notes(library, fixed_in)
    return PairResult(
        library=library, release=release, fixed_in=fixed_in, run=str(run_dir.relative_to(ROOT)),
        seconds=round(time.perf_counter() - started, 1),
        checks=f"{summary['items_done']} of {summary['items_total']}",
        findings=len(findings), flips=len(flipped),
        still_present=sum(v == "still present" for v in verdicts),
        inconclusive=sum(v.startswith("inconclusive") for v in verdicts),
        fix_notes=len(notes), notes_naming_public_api=naming_public_api(notes, public_names(library, release)),
        flipped=flipped)


def _newest_run(library_dir: Path) -> Path:
    runs = [p for p in library_dir.iterdir() if (p / "findings.json").exists()]
    if not runs:
        raise RuntimeError(f"no finished run under {library_dir}")
    return max(runs, key=lambda p: (p / "findings.json").stat().st_mtime)


def write_table(records: list[dict]) -> Path:
    lines = ["# Development set: findings on release N that release N+1 fixed", "",
             "`python benchmarks/devset.py --pairs ...` (see its docstring). A flip: the finding's reproducer "
             "fails on N and passes on N+1.", "",
             "| library | N → N+1 | checks | findings | flips | still present | inconclusive | fix notes of N+1 "
             "| naming a public entry | time |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in records:
        lines.append(f"| {r['library']} | {r['release']} → {r['fixed_in']} | {r['checks']} | {r['findings']} | "
                     f"{r['flips']} | {r['still_present']} | {r['inconclusive']} | {r['fix_notes']} | "
                     f"{r['notes_naming_public_api']} | {r['seconds']:.0f} s |")
    flips = [f"- {r['library']} {r['release']} → {r['fixed_in']}: {f}" for r in records for f in r["flipped"]]
    lines += ["", "## Flips", ""] + (flips or ["(none)"])
    path = RESULTS / "table.md"
    path.write_text("\n".join(lines) + "\n")
    return path


def _pairs(text: str) -> list[tuple[str, str, str]]:
    pairs = []
    for item in filter(None, (part.strip() for part in text.split(","))):
        match = re.fullmatch(r"(qiskit|pennylane)==([\w.]+):([\w.]+)", item)
        if not match:
            raise argparse.ArgumentTypeError(f"{item!r}: want LIB==N:N+1, e.g. qiskit==2.3.0:2.3.1")
        pairs.append(match.groups())
    return pairs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=_pairs, default=[], help="LIB==N:N+1, comma-separated")
    parser.add_argument("--time-budget", type=float, default=8.0, help="minutes per audit of N")
    parser.add_argument("--table", action="store_true", help="only rewrite table.md from pairs.json")
    args = parser.parse_args(argv)
    RESULTS.mkdir(parents=True, exist_ok=True)
    store = RESULTS / "pairs.json"
    records = json.loads(store.read_text()) if store.exists() else []
    for library, release, fixed_in in args.pairs:
        try:
            result = run_pair(library, release, fixed_in, args.time_budget)
        except RuntimeError as exc:
            print(exc, file=sys.stderr)
            continue
        records = [r for r in records if (r["library"], r["release"], r["fixed_in"]) != (library, release, fixed_in)]
        records.append(asdict(result))
        store.write_text(json.dumps(records, indent=1) + "\n")  # after each pair: a later failure loses nothing
        print(f"{library} {release} -> {fixed_in}: {result.findings} findings, {result.flips} flips", flush=True)
    print(write_table(records))
    return 0


if __name__ == "__main__":
    sys.exit(main())
