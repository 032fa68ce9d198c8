"""The LLM agent (DESIGN: `agent/`): Stage II hypotheses and Stage III triggers proposed by a
model, believed only once the sandbox and the oracle have judged them. See docs/agent.md."""
