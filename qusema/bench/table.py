"""`qusema bench table`: the benchmark's results in the shape of the paper's tables.

- Table 3 (effectiveness and cost): per row (source, setting), identified defects and
  relocated bugs in each run, their means over runs, cost in USD and tokens.
- Table 4 (funnel): candidates -> verified defects -> API triggers -> final reports, mean
  per run.
- Per bug: which run identified (I) or relocated (R) it, so every count can be traced to
  the score file that holds its evidence. A `*` marks a score whose root cause coverage
  alone could not single out: it was tied with other segments and the tie went to the unit
  under audit (`qusema.verify.localize`). Such a score rests on the version flip more than on
  the localization, and the table counts them apart.

Read from the score and audit records `qusema bench run` wrote; written as markdown and
JSON beside them."""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from qusema.bench.dataset import Dataset
from qusema.verify.localize import TIE_TO_FOCUS

FUNNEL = ("candidates", "verified_defects", "api_triggers", "final_reports")
FUNNEL_TITLES = {"candidates": "Candidates", "verified_defects": "Verified defects",
                 "api_triggers": "API triggers", "final_reports": "Final reports"}
PUBLISHED = (  # relocated bugs, mean of three runs, as the benchmark issue quotes them
    ("QuSema (Opus 5)", "16.00", "—"),
    ("QuSema (DeepSeek-V4.1-Flash)", "15.67", "$162.27 for three runs"),
    ("Claude Code", "14.67", "—"),
    ("Codex", "13.33", "—"),
)
_ROW = re.compile(r"^(contracts|llm)-(unit|file)(?:-(no-docs|no-verification))?$")
_RUN = re.compile(r"^run-(\d+)$")


@dataclass
class RunCounts:
    run: int
    bugs_scored: int
    identified: int
    relocated: int
    cost_usd: float
    tokens: int
    funnel: dict[str, int]
    audits: int
    stopped_early: int  # audits that ended on their time budget, not complete
    relocated_by_tie: int = 0  # relocated, but every matching root cause was a tie given to the focus
    failed: int = 0  # audits that raised (no score; `bench run` retries them)


@dataclass
class Row:
    source: str
    setting: str
    runs: list[RunCounts] = field(default_factory=list)
    note: str = ""
    ablation: str = "none"

    @property
    def label(self) -> str:
        return f"{self.source}-{self.setting}" + ("" if self.ablation == "none" else f"-{self.ablation}")

    @property
    def setting_cell(self) -> str:
        return self.setting + ("" if self.ablation == "none" else f", {self.ablation}")

    def mean(self, name: str) -> float:
        values = [getattr(r, name) for r in self.runs]
        return sum(values) / len(values) if values else 0.0

    def mean_funnel(self, stage: str) -> float:
        values = [r.funnel.get(stage, 0) for r in self.runs]
        return sum(values) / len(values) if values else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "setting": self.setting, "ablation": self.ablation, "note": self.note,
                "runs": [asdict(r) for r in self.runs],
                "mean": {"identified": self.mean("identified"), "relocated": self.mean("relocated"),
                         "cost_usd": self.mean("cost_usd"), "tokens": self.mean("tokens"),
                         **{stage: self.mean_funnel(stage) for stage in FUNNEL}},
                "total_cost_usd": sum(r.cost_usd for r in self.runs),
                "total_tokens": sum(r.tokens for r in self.runs)}


def collect(results_dir: Path) -> tuple[list[Row], dict[str, dict[str, list[str]]]]:
    """Rows from the records, and per bug, per row, the mark of each run (R, I or -)."""
    rows: list[Row] = []
    marks: dict[str, dict[str, list[str]]] = {}
    for row_dir in sorted(p for p in results_dir.iterdir() if p.is_dir() and _ROW.match(p.name)) \
            if results_dir.is_dir() else []:
        source, setting, ablation = _ROW.match(row_dir.name).groups()
        row = Row(source, setting, ablation=ablation or "none")
        run_dirs = sorted((p for p in row_dir.iterdir() if p.is_dir() and _RUN.match(p.name)),
                          key=lambda p: int(_RUN.match(p.name).group(1)))
        for run_dir in run_dirs:
            run = int(_RUN.match(run_dir.name).group(1))
            scores = [json.loads(p.read_text()) for p in sorted(run_dir.glob("*.json"))
                      if not p.name.startswith("audit-")]
            # An audit that failed leaves `audit-<bug>.error.json` and no score (the next
            # `bench run` retries it): it is counted apart, never read as an audit record.
            audits = [json.loads(p.read_text()) for p in sorted(run_dir.glob("audit-*.json"))
                      if not p.name.endswith(".error.json")]
            failed = len(list(run_dir.glob("audit-*.error.json")))
            if not scores:
                continue
            funnel = {stage: sum(a["funnel"].get(stage, 0) for a in audits) for stage in FUNNEL}
            row.runs.append(RunCounts(
                run=run, bugs_scored=len(scores), identified=sum(s["identified"] for s in scores),
                relocated=sum(s["relocated"] for s in scores), relocated_by_tie=sum(
                    bool(s["relocated"]) and _by_focus_tie(s) for s in scores), cost_usd=sum(a.get("cost_usd", 0.0) for a in audits),
                tokens=sum(a.get("tokens", 0) for a in audits), funnel=funnel, audits=len(audits),
                stopped_early=sum(1 for a in audits if a.get("stop_reason") != "complete"), failed=failed))
            notes = {a.get("setting_note", "") for a in audits} - {""}
            row.note = "; ".join(sorted(notes))
            for s in scores:
                mark = ("R" if s["relocated"] else "I" if s["identified"] else "-") + (
                    "*" if s["identified"] and _by_focus_tie(s) else "")
                runs_marks = marks.setdefault(s["bug"], {}).setdefault(row.label, [])
                runs_marks.extend(["?"] * (run - 1 - len(runs_marks)))
                runs_marks.append(mark)
        if row.runs:
            rows.append(row)
    return rows, marks


def _by_focus_tie(score: dict) -> bool:
    """Whether every finding that matched the root-cause segment got there by a tie broken
    toward the unit under audit."""
    matching = score.get("matching", [])
    return bool(matching) and all(TIE_TO_FOCUS in ((m.get("root_cause") or {}).get("method") or "")
                                  for m in matching)


def render(rows: list[Row], marks: dict[str, dict[str, list[str]]], dataset: Dataset) -> tuple[str, dict[str, Any]]:
    total = len(dataset.bugs)
    max_runs = max((len(r.runs) for r in rows), default=0)
    lines = ["# Historical benchmark: identified defects and relocated bugs", "",
             f"{total} maintainer-confirmed silent bugs ({sum(b.library == 'qiskit' for b in dataset.bugs)} Qiskit, "
             f"{sum(b.library == 'pennylane' for b in dataset.bugs)} PennyLane). A defect is *identified* when a "
             "verified finding's root cause is the bug's root-cause segment; a bug is *relocated* when, in addition, "
             "the finding's API-level reproducer fails on the buggy release and passes on the first fixed release "
             "(where one exists), both re-run by the scorer. Each cell is identified / relocated.", "",
             "## Effectiveness and cost (Table 3 shape)", ""]
    header = ["Auditor", "Setting", *[f"Run {i}" for i in range(1, max_runs + 1)],
              "Mean identified", "Mean relocated", "Cost (USD)", "Tokens"]
    lines += ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for row in rows:
        cells = [f"{r.identified} / {r.relocated}" + (f" ({r.bugs_scored}/{total} bugs)" if r.bugs_scored != total
                                                      else "") for r in row.runs]
        cells += ["—"] * (max_runs - len(row.runs))
        total_cost = sum(r.cost_usd for r in row.runs)
        total_tokens = sum(r.tokens for r in row.runs)
        lines.append("| " + " | ".join([row.source, row.setting_cell, *cells, f"{row.mean('identified'):.2f}",
                                        f"{row.mean('relocated'):.2f}", f"{total_cost:.2f}",
                                        f"{total_tokens}"]) + " |")
    lines += ["", ("Cost and tokens are totals over the runs shown (the contract engine uses no model: 0); "
                   "for the LLM, summed from each audit's recorded exchanges at the price table.")]
    for row in rows:
        if row.note:
            lines.append(f"- **{row.label}**: {row.note}.")
        by_tie = [r.relocated_by_tie for r in row.runs]
        if any(by_tie):
            lines.append(f"- **{row.label}**: of the relocated bugs, {', '.join(map(str, by_tie))} (per run) were "
                         "located among segments coverage tied at the top score, the tie going to the unit under "
                         "audit (`*` below); such a score rests on the version flip more than on the localization. "
                         "Records whose method names the segment the closest-to-the-API rule would have chosen "
                         "are those the tie-break changed; older records do not say.")
        early = sum(r.stopped_early for r in row.runs)
        if early:
            what = ("stopped on their time budget before checking every (contract, subject)"
                    if row.source == "contracts" else
                    "stopped before every unit was done (a time, cost or step cap; stop_reason says which)")
            lines.append(f"- **{row.label}**: {early} audit(s) {what}; see the audit records.")
        failed = [r.failed for r in row.runs]
        if any(failed):
            lines.append(f"- **{row.label}**: {sum(failed)} audit(s) failed and are unscored (per run: "
                         f"{', '.join(map(str, failed))}); `audit-<bug>.error.json` says why, and the next "
                         "`bench run` retries them.")
    lines += ["", "Published reference (relocated bugs, mean of three runs, as quoted in the benchmark issue; "
              "not produced here):", ""]
    lines += [f"- {name}: {value}" + (f" ({cost})" if cost != "—" else "") for name, value, cost in PUBLISHED]
    lines += ["", "## Funnel (Table 4 shape), mean per run", "",
              "| Auditor | Setting | " + " | ".join(FUNNEL_TITLES[s] for s in FUNNEL) + " |",
              "|" + "---|" * (2 + len(FUNNEL))]
    for row in rows:
        lines.append("| " + " | ".join([row.source, row.setting_cell,
                                        *[f"{row.mean_funnel(s):.2f}" for s in FUNNEL]]) + " |")
    lines += ["", "Candidates: hypotheses emitted and verified; verified defects: reproduced by their standalone "
              "test; API triggers: deduplicated findings whose reproducer enters through a documented public API; "
              "final reports: findings qualified as `bug`.", "", "## Per bug", "",
              "R relocated, I identified only, - neither, ? not scored; one mark per run. `*`: the root "
              "cause was one of several segments coverage could not tell apart, and the tie went to the unit "
              "under audit.", ""]
    labels = [row.label for row in rows]
    lines += ["| bug | API | " + " | ".join(labels) + " |", "|" + "---|" * (2 + len(labels))]
    for bug in dataset.bugs:
        cells = [" ".join(marks.get(bug.id, {}).get(label, [])) or "?" for label in labels]
        lines.append(f"| {bug.id} | `{bug.api}` | " + " | ".join(cells) + " |")
    lines.append("")
    payload = {"bugs": total, "rows": [r.to_dict() for r in rows], "per_bug": marks,
               "published_reference": [{"auditor": n, "relocated_mean": float(v), "cost": c} for n, v, c in PUBLISHED]}
    return "\n".join(lines), payload


def write_table(results_dir: Path, dataset: Dataset,
                collected: tuple[list[Row], dict[str, dict[str, list[str]]]] | None = None
                ) -> tuple[Path, Path, list[Row]]:
    """table.md and table.json from `collect(results_dir)` (or what a caller already collected)."""
    rows, marks = collected if collected is not None else collect(results_dir)
    markdown, payload = render(rows, marks, dataset)
    results_dir.mkdir(parents=True, exist_ok=True)
    md_path, json_path = results_dir / "table.md", results_dir / "table.json"
    md_path.write_text(markdown)
    json_path.write_text(json.dumps(payload, indent=1) + "\n")
    return md_path, json_path, rows
