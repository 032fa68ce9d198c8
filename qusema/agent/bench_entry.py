"""`run_bench_audit`: the LLM auditor as `qusema bench run --source llm` calls it (the
`LLMEntryPoint` of qusema/bench/runner.py).

One audit per (bug, run), on the bug's buggy release, given only where to look:

- setting `unit`: the root-cause segment's contextual unit (`--units <segment>`);
- setting `file`: every function and method of the containing file, in file order, each
  audited as its own contextual unit (`--units file:<path>`, see unit_selection.py). The
  auditor sees the whole file, unit by unit, and is not told which unit holds the bug.

The funnel uses the contract row's definitions (`qusema.bench.runner.contract_funnel`), with
the agent's Stage II claims as candidates: its Stage III triggers re-verify a defect already
counted, so they are not candidates of their own. Cost and tokens are summed from the run
store's `exchange` records (cache hits included, at the price table, as the run's own caps
count them)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from qusema.agent.audit_llm import ABLATIONS, AgentConfig, Progress, run_llm_audit
from qusema.bench.runner import BenchFocus, SourceOutcome, contract_funnel
from qusema.llm.protocol import Model
from qusema.store import RunStore

FILE_SETTING_NOTE = ("setting file: every function and method of the root-cause file, each audited as its own "
                     "contextual unit, in file order")


def units_for(focus: BenchFocus) -> str:
    if focus.setting == "unit":
        return focus.segment
    if focus.setting == "file":
        return f"file:{focus.file}"
    raise ValueError(f"unknown setting {focus.setting!r}")


def run_bench_audit(target: str, focus: BenchFocus, *, seed: int, out_root: Path, cache_dir: Path,
                    time_budget_s: float, backend: str | None, progress: Progress, llm: str,
                    base_url: str | None = None, ablation: str = "none", model: Model | None = None,
                    **agent_settings: Any) -> SourceOutcome:
    """Audit `target` with the agent on the focus of one bug and report what the benchmark
    scores. `llm` is PROVIDER:MODEL (key from OPENAI_API_KEY / ANTHROPIC_API_KEY), `base_url`
    any compatible endpoint; `model` replaces both (tests, replays). `time_budget_s` is the
    run's wall-clock cap. Other AgentConfig fields (caps, revisions) pass through."""
    if ablation not in ABLATIONS:
        raise ValueError(f"unknown ablation {ablation!r}; choose one of {', '.join(ABLATIONS)}")
    config = AgentConfig(target=target, llm=llm, units=units_for(focus), ablation=ablation, seed=seed,
                         base_url=base_url, run_seconds=time_budget_s, backend=backend, **agent_settings)
    summary = run_llm_audit(config, out_root, cache_dir, progress, model=model)
    from qusema.audit import collect_findings

    with RunStore(summary.run_dir / "run.sqlite") as store:
        findings = collect_findings(store, summary.run_id)
        verifications = [payload for _, payload in store.records(summary.run_id, "verification")]
        exchanges = [payload for _, payload in store.records(summary.run_id, "exchange")]
        selected = store.records(summary.run_id, "agent_units")
    claims = [v for v in verifications if v.get("stage") == 2]
    funnel = contract_funnel([v["verification"] for v in claims], findings,
                             _public_names(cache_dir, target, [f.hypothesis.api for f in findings]))
    tokens = sum(_tokens(e.get("usage") or {}) for e in exchanges)
    return SourceOutcome(
        run_dir=summary.run_dir, run_id=summary.run_id, findings=findings, funnel=funnel,
        stop_reason=summary.stop_reason, cost_usd=round(sum(e.get("cost_usd", 0.0) for e in exchanges), 8),
        tokens=tokens,
        config={"agent": config.identity(), "base_url": base_url, "ablation": ablation, "seed": seed,
                "time_budget_s": time_budget_s, "units_spec": config.units,
                "units": selected[-1][1]["units"] if selected else [],
                "units_done": summary.done, "outcomes": summary.outcomes,
                "exchanges": len(exchanges), "cache_hits": sum(1 for e in exchanges if e.get("cache_hit")),
                "paid_usd": round(summary.paid_usd, 8), "stage3_triggers_verified": sum(
                    1 for v in verifications if v.get("stage") == 3
                    and v["verification"]["verdict"] == "reproduced"),
                **({"setting_detail": FILE_SETTING_NOTE} if focus.setting == "file" else {})})


def _tokens(usage: dict[str, Any]) -> int:
    return sum(int(usage.get(k) or 0) for k in ("input_tokens", "output_tokens", "cache_read_tokens",
                                                 "cache_write_tokens"))


def _public_names(cache_dir: Path, target: str, apis: list[str]) -> set[str]:
    from qusema.units.index_db import IndexDB
    from qusema.units.index_location import index_path

    path = index_path(cache_dir, target)
    if not path.is_file() or not apis:
        return set()
    with IndexDB(path) as db:
        return {api for api in apis if db.conn.execute(
            "SELECT 1 FROM public_api WHERE public_name=? LIMIT 1", (api,)).fetchone()}
