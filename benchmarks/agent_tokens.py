"""Tokens per unit for the agent's prompts as rendered on the 20 historical root-cause units,
and what a unit costs at two published price points (qusema/llm/prices.json).

For each bug: the Stage I index of its buggy release, its root-cause segment, and
- the Stage II opening (system + user, the unit rendered at the agent's token budget),
- the Stage III opening (the defect, with a placeholder of the Stage II reproducer's size,
  and the documentation of every public API the reverse chain reaches),
- the tool schemas, sent with every request.

Tokens: tiktoken's o200k_base when it and its data file are available; otherwise
characters / 4 (the estimate Stage I's renderer budgets with), and the output says which.
Cost per unit, "minimal path": the two opening requests (each with the tool schemas) plus
an assumed 800 output tokens per answer. Tool calls and revisions resend the conversation,
so a real unit costs a multiple of this; the per-unit cap (--unit-cost) bounds it.

    python benchmarks/agent_tokens.py [--out benchmarks/results/agent_tokens.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from dataclasses import asdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from qusema.agent.stage2 import Stage2Answer
from qusema.agent.stage3 import TriggerClaim, candidates_for
from qusema.agent.tools import agent_toolbox
from qusema.llm.pricing import PriceTable
from qusema.llm.protocol import Usage
from qusema.llm.templates import Prompts
from qusema.targets.environments import cache_dir
from qusema.units.contextual_unit import build_unit

HISTORICAL = Path("/work/shared/benchmarks/historical.json")
PRICE_POINTS = ("openai:gpt-4o", "anthropic:claude-sonnet-4-5")
OUTPUT_TOKENS_PER_ANSWER = 800
TOKEN_BUDGET = 4000
PLACEHOLDER_TEST = "x = 1  # a reproducer of typical size\n" * 20


def counter():
    try:
        import tiktoken

        encoding = tiktoken.get_encoding("o200k_base")
        return (lambda text: len(encoding.encode(text))), "tiktoken o200k_base"
    except Exception as exc:  # no package, or its data file cannot be fetched offline
        return (lambda text: (len(text) + 3) // 4), f"chars/4 estimate (tiktoken unavailable: {type(exc).__name__})"


class _NoSandbox:
    def run(self, code, filename="snippet.py", limits=None):
        raise RuntimeError("not used: only the tool schemas are measured")

    def close(self):
        pass


def _segment(db, bug) -> str | None:
    # Nested functions are not segments of their own: their enclosing function is the unit.
    name = bug["root_cause_segment"].split(" (")[0].split(".<locals>.")[0].replace("::", ".")
    matches = db.find_segments(name)
    in_file = [m for m in matches if (s := db.segment(m)) is not None and s.file == bug["root_cause_file"]]
    chosen = in_file or matches
    return chosen[0] if chosen else None


def measure() -> dict:
    from qusema.agent.stage2 import UnitContext
    from qusema.audit import _ensure_index

    count, method = counter()
    prompts = Prompts()
    prices = PriceTable.load()
    bugs = json.loads(HISTORICAL.read_text())["bugs"]
    rows = []
    for bug in bugs:
        target = f"{bug['library']}=={bug['buggy_version']}"
        db = _ensure_index(target, cache_dir(), lambda m: None)
        unit = _segment(db, bug)
        if unit is None:
            rows.append({"bug": bug["id"], "target": target, "unit": None, "error": "root-cause segment not indexed"})
            continue
        library, version = bug["library"], bug["buggy_version"]
        stage2 = prompts.messages("agent/stage2.j2", library=library, version=version, unit_name=unit,
                                  unit_text=build_unit(db, unit).render(TOKEN_BUDGET), max_revisions=2,
                                  answer_schema=Stage2Answer)
        ctx = UnitContext(library, version, db, _NoSandbox(), None, prompts, lambda *a: None)  # type: ignore[arg-type]
        candidates = candidates_for(ctx, unit, unit)
        defect = {"unit": unit, "violated_constraint": "x" * 120, "constraint_source": "quantum semantics",
                  "triggering_input": "x" * 80, "predicted_behaviour": "x" * 160, "test_code": PLACEHOLDER_TEST}
        stage3 = prompts.messages("agent/stage3.j2", library=library, version=version, defect=defect,
                                  message="x" * 200, candidates=[c.to_prompt() for c in candidates],
                                  max_revisions=2, answer_schema=TriggerClaim)
        tools = json.dumps([s.to_openai() for s in agent_toolbox(db, _NoSandbox()).specs])  # type: ignore[arg-type]
        s2, s3, t = (sum(count(m.content) for m in stage2), sum(count(m.content) for m in stage3), count(tools))
        row = {"bug": bug["id"], "target": target, "unit": unit, "stage2_opening": s2, "stage3_opening": s3,
               "tool_schemas": t, "public_candidates": len(candidates),
               "minimal_path_input": s2 + s3 + 2 * t}
        for spec in PRICE_POINTS:
            usage = Usage(input_tokens=row["minimal_path_input"], output_tokens=2 * OUTPUT_TOKENS_PER_ANSWER)
            row[f"usd_{spec}"] = round(prices.cost(spec, usage).usd, 5)
        rows.append(row)
        db.close()
    measured = [r for r in rows if r.get("unit")]

    def stats(key: str) -> dict:
        values = [r[key] for r in measured]
        return {"median": statistics.median(values), "max": max(values)}

    return {"tokenizer": method, "token_budget_of_unit": TOKEN_BUDGET,
            "output_tokens_per_answer_assumed": OUTPUT_TOKENS_PER_ANSWER, "units_measured": len(measured),
            "stage2_opening": stats("stage2_opening"), "stage3_opening": stats("stage3_opening"),
            "tool_schemas": stats("tool_schemas"), "minimal_path_input": stats("minimal_path_input"),
            **{f"usd_per_unit_minimal_path_{spec}": stats(f"usd_{spec}") for spec in PRICE_POINTS},
            "prices_usd_per_million": {spec: asdict(prices.lookup(spec)) for spec in PRICE_POINTS},
            "units": rows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "agent_tokens.json")
    args = parser.parse_args()
    result = measure()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps({k: v for k, v in result.items() if k != "units"}, indent=2))


if __name__ == "__main__":
    main()
