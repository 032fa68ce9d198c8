"""`qusema bench selfcheck | run | table`, registered by qusema/cli.py."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from qusema.bench.dataset import DATASET_PATH, REPO_ROOT, DatasetError, load_dataset
from qusema.bench.runner import ABLATIONS, SETTINGS, SOURCES, BenchConfig, BenchError

RESULTS_DIR = REPO_ROOT / "benchmarks" / "results" / "historical"
WORK_DIR = REPO_ROOT / "benchmarks" / "runs"
SANDBOX = click.Choice(["docker", "bwrap", "process"])

dataset_option = click.option("--dataset", "dataset_path", type=click.Path(exists=True, dir_okay=False, path_type=Path),
                              default=DATASET_PATH, show_default=True, help="The benchmark dataset.")
bugs_option = click.option("--bugs", default=None, metavar="ID,...", help="Only these bugs, e.g. qiskit-14107,pennylane-4842.")
sandbox_option = click.option("--sandbox", "backend", type=SANDBOX, default=None,
                              help="Sandbox backend [default: docker if a daemon answers, else bwrap, else process].")
out_option = click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=RESULTS_DIR,
                          show_default=True, help="Where scores and tables are written.")


def _progress(message: str) -> None:
    click.echo(f"[bench] {message}", err=True)


def _load(dataset_path: Path, bugs: str | None):
    try:
        dataset = load_dataset(dataset_path)
        return dataset, dataset.select(bugs.split(",") if bugs else None)
    except (DatasetError, KeyError) as exc:
        raise click.ClickException(str(exc)) from exc


@click.group("bench")
def bench_group() -> None:
    """Replay the historical silent bugs on their releases and score the auditor."""


@bench_group.command("selfcheck")
@dataset_option
@bugs_option
@sandbox_option
@out_option
def selfcheck(dataset_path: Path, bugs: str | None, backend: str | None, out_dir: Path) -> None:
    """Run each bug's self-check reproducer on its buggy release (must fail with an
    AssertionError) and its first fixed release (must pass), in the sandbox. Proves the
    environments; never shown to the auditor. Exit status 1 if any bug is not as expected."""
    from qusema.bench.selfcheck import run_selfcheck, write_selfcheck

    dataset, selected = _load(dataset_path, bugs)
    results = run_selfcheck(dataset, selected, backend=backend, progress=_progress)
    json_path, md_path = write_selfcheck(results, out_dir)
    for result in results:
        fixed = result.fixed.status if result.fixed else "no fixed release"
        verdict = "ok" if result.ok else f"NOT AS EXPECTED: {result.problem}"
        click.echo(f"{result.bug:16} buggy {result.buggy.status:17} fixed {fixed:17} {verdict}")
    click.echo(f"{sum(r.ok for r in results)}/{len(results)} as expected  ->  {md_path}, {json_path}")
    if not all(r.ok for r in results):
        sys.exit(1)


@bench_group.command("run")
@click.option("--source", type=click.Choice(SOURCES), required=True,
              help="contracts: the offline contract engine; llm: the LLM auditor (needs --llm and a key).")
@click.option("--llm", "llm", metavar="PROVIDER:MODEL", default=None,
              help="With --source llm (required there): the model, e.g. openai:gpt-4o or anthropic:claude-sonnet-4-5; "
                   "key from OPENAI_API_KEY / ANTHROPIC_API_KEY.")
@click.option("--base-url", default=None, metavar="URL",
              help="With --source llm: an OpenAI-compatible or Anthropic endpoint (vLLM, Ollama, OpenRouter, a proxy).")
@click.option("--ablation", type=click.Choice(ABLATIONS), default="none", show_default=True,
              help="With --source llm: no-docs renders units without their documentation; no-verification accepts "
                   "claims without running them. Scored as a row of its own.")
@click.option("--setting", type=click.Choice(SETTINGS), default="unit", show_default=True,
              help="unit: the auditor gets the root-cause contextual unit; file: the whole containing file. "
                   "The contract engine reads no text: it runs the checks whose entry API reaches that unit "
                   "(or any function of that file) in the call graph.")
@click.option("--runs", type=click.IntRange(1, 20), default=3, show_default=True, help="Independent runs (seed = run - 1).")
@bugs_option
@click.option("--time-budget", "time_budget", type=click.FloatRange(0.1, 24 * 60), default=30.0, show_default=True,
              help="Minutes per audit (one audit per bug and run).")
@click.option("--examples", type=click.IntRange(1, 10_000), default=25, show_default=True,
              help="Contracts: generated inputs per (contract, subject) check.")
@click.option("--deepen", type=click.IntRange(0, 4), default=1, show_default=True,
              help="Contracts: times a check that held may be re-checked with 4x the examples, in the time an "
                   "audit's budget leaves (as `qusema audit --deepen`; 0: none). The benchmark's tables were "
                   "measured with 1.")
@click.option("--workers", type=click.IntRange(1, 64), default=min(2, os.cpu_count() or 1), show_default=True)
@click.option("--item-timeout", "item_timeout", type=click.FloatRange(1, 3600), default=120.0, show_default=True,
              help="Contracts: seconds per sandbox call of the audit (raise it on a loaded machine).")
@sandbox_option
@dataset_option
@out_option
@click.option("--work", "work_dir", type=click.Path(file_okay=False, path_type=Path), default=WORK_DIR,
              show_default=True, help="Where the audits themselves are kept (run stores, drafts).")
@click.option("--cache-dir", help="Where downloads, sources and indexes are kept [default: $QUSEMA_CACHE_DIR or ~/.cache/qusema].")
def run(source: str, llm: str | None, base_url: str | None, ablation: str, setting: str, runs: int, bugs: str | None,
        time_budget: float, examples: int, deepen: int, workers: int, item_timeout: float, backend: str | None, dataset_path: Path,
        out_dir: Path, work_dir: Path, cache_dir: str | None) -> None:
    """Audit the buggy release of every selected bug, RUNS times, and score each bug:
    identified (a verified finding in the root-cause segment) and relocated (its reproducer
    fails on the buggy release and passes on the fixed one, both re-run). A finished
    (bug, run) is never redone; an interrupted one resumes."""
    from qusema.bench.runner import run_bench
    from qusema.bench.table import write_table
    from qusema.targets import default_cache_dir

    dataset, selected = _load(dataset_path, bugs)
    try:
        config = BenchConfig(source=source, setting=setting, runs=runs, time_budget_min=time_budget,
                             examples=examples, deepen=deepen, workers=workers, backend=backend, item_timeout_s=item_timeout,
                             out_dir=out_dir, work_dir=work_dir, llm=llm, base_url=base_url, ablation=ablation)
    except BenchError as exc:
        raise click.UsageError(str(exc)) from exc
    if llm is not None:
        _check_model(llm, base_url)
    failure = None
    try:
        scores = run_bench(config, selected,
                           Path(cache_dir).expanduser() if cache_dir else default_cache_dir(), _progress)
    except BenchError as exc:
        if not exc.scores:
            raise click.ClickException(str(exc)) from exc
        scores, failure = exc.scores, exc
    for run_index in range(1, runs + 1):
        mine = [s for s in scores if s.run == run_index]
        click.echo(f"run {run_index}: {sum(s.identified for s in mine)} identified, "
                   f"{sum(s.relocated for s in mine)} relocated of {len(mine)} bugs")
        for s in mine:
            mark = "relocated" if s.relocated else "identified" if s.identified else "-"
            click.echo(f"  {s.bug:16} {mark}")
    md_path, _, _ = write_table(out_dir, dataset)
    click.echo(f"table: {md_path}")
    if failure is not None:
        raise click.ClickException(str(failure))


def _check_model(llm: str, base_url: str | None) -> None:
    """Before any environment is built: a bad spec or a missing key fails here, once, not
    as one failed audit per bug. Building the client sends nothing."""
    from qusema.llm.protocol import AuthenticationFailed
    from qusema.llm.selection import model_from_spec

    try:
        model_from_spec(llm, base_url)
    except ValueError as exc:
        raise click.UsageError(f"--llm: {exc}") from exc
    except AuthenticationFailed as exc:
        raise click.UsageError(f"{exc} (or give --base-url for an endpoint that needs no key)") from exc


@bench_group.command("table")
@dataset_option
@out_option
def table(dataset_path: Path, out_dir: Path) -> None:
    """Write table.md and table.json from the scores under OUT: per-run identified and
    relocated counts, means, cost, and the funnel (the shape of the paper's Tables 3 and 4)."""
    from qusema.bench.table import collect, write_table

    dataset, _ = _load(dataset_path, None)
    collected = collect(out_dir)
    if not collected[0]:
        # An empty table written over a results directory says nothing and could replace one that did.
        raise click.ClickException(f"no scores under {out_dir}: run `qusema bench run --out {out_dir}` first")
    md_path, json_path, _ = write_table(out_dir, dataset, collected)
    click.echo(md_path.read_text())
    click.echo(f"written: {md_path}, {json_path}")
