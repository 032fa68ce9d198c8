"""Click pieces for the agent: the `replay` command, and the `--llm` options of `qusema
audit` as a decorator plus the function that turns them into an AgentConfig."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from qusema.agent.audit_llm import AgentConfig


def llm_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Adds --llm, --base-url, --units, --llm-concurrency, --revisions, --unit-cost, --run-cost."""
    options = [
        click.option("--llm", "llm", metavar="PROVIDER:MODEL", default=None,
                     help="Also audit with the LLM agent, e.g. openai:gpt-4o or anthropic:claude-sonnet-4-5 "
                          "(key from OPENAI_API_KEY / ANTHROPIC_API_KEY)."),
        click.option("--base-url", default=None, help="OpenAI-compatible or Anthropic endpoint (vLLM, Ollama, "
                                                      "OpenRouter, a LiteLLM proxy…)."),
        click.option("--units", "units", default="top:5", show_default=True,
                     help="Units for the agent: names or unique suffixes, file:PATH, top:N by call-graph "
                          "centrality; comma-separated."),
        click.option("--llm-concurrency", type=click.IntRange(1, 16), default=2, show_default=True,
                     help="Units worked at once (halved after a rate-limited wave)."),
        click.option("--revisions", type=click.IntRange(0, 10), default=2, show_default=True,
                     help="Revisions of a hypothesis or trigger the sandbox did not confirm."),
        click.option("--unit-cost", type=click.FloatRange(0), default=0.5, show_default=True,
                     help="USD per unit at the price table; the unit stops there."),
        click.option("--run-cost", type=click.FloatRange(0), default=5.0, show_default=True,
                     help="USD for the whole agent run; the run stops there (resumable)."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def agent_config(target: str, llm: str | None, base_url: str | None, units: str, llm_concurrency: int,
                 revisions: int, unit_cost: float, run_cost: float, backend: str | None = None) -> AgentConfig | None:
    """The agent's configuration from the options, or None without --llm."""
    if llm is None:
        if base_url is not None:
            raise click.UsageError("--base-url needs --llm")
        return None
    return AgentConfig(target=target, llm=llm, units=units, revisions=revisions, unit_cost_usd=unit_cost,
                       run_cost_usd=run_cost, base_url=base_url, concurrency=llm_concurrency, backend=backend)


@click.command("replay")
@click.argument("run_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--no-rerun", is_flag=True, help="Serve sandbox runs from the record without executing them again.")
@click.option("--sandbox", "backend", type=click.Choice(["docker", "bwrap", "process"]), default=None)
@click.option("--cache-dir", default=None, help="Where sources and indexes are kept.")
def replay_command(run_dir: Path, no_rerun: bool, backend: str | None, cache_dir: str | None) -> None:
    """Re-execute the agent run in RUN_DIR with its recorded model answers and no network;
    exit 1 unless its findings come out byte for byte the same."""
    from qusema.agent.replay import replay_run
    from qusema.targets import default_cache_dir

    if not (run_dir / "run.sqlite").is_file():
        raise click.ClickException(f"{run_dir} is not a run directory (no run.sqlite)")
    cache = Path(cache_dir).expanduser() if cache_dir else default_cache_dir()
    report = replay_run(run_dir, cache, lambda m: click.echo(f"[qusema] {m}", err=True),
                        rerun_sandbox=not no_rerun, backend=backend)
    for name, same in report.identical.items():
        click.echo(f"{name}: {'identical' if same else 'DIFFERS'}")
    click.echo(f"replay in {report.replay_dir} ({report.stop_reason}; "
               f"{report.sandbox_runs_rechecked} sandbox runs re-executed and matched)")
    if not report.ok:
        raise SystemExit(1)
