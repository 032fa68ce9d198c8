"""The LLM agent (DESIGN: `agent/`): Stage II hypotheses and Stage III triggers proposed by a
model, believed only once the sandbox and the oracle have judged them. See docs/agent.md."""

from qusema.agent.bench_entry import run_bench_audit

__all__ = ["run_bench_audit"]
