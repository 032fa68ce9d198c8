"""The `qusema` command line."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from qusema.agent.cli_commands import agent_config, llm_options, replay_command
from qusema.bench.cli_commands import bench_group
from qusema.cli_errors import BadTarget, target_failure
from qusema.notices import NoticeGroup
from qusema.oracle.cli_commands import mutate_command
from qusema.progress_display import AuditProgress
from qusema.sandbox.cli_commands import env_group, run_command
from qusema.contracts.surface_command import surface_command
from qusema.targets import TargetError, default_cache_dir, resolve_source
from qusema.units.call_graph import chains_to_public
from qusema.units.contextual_unit import DEFAULT_TOKEN_BUDGET, build_unit
from qusema.units.index_db import IndexDB
from qusema.units.index_location import index_path, last_target, remember_last
from qusema.units.indexer import build_index, parser_tag
from qusema.units.layout import NotALibrary, detect_scope
from qusema.units.stats import index_stats

CACHE_HELP = "Where downloads, sources and indexes are kept [default: $QUSEMA_CACHE_DIR or ~/.cache/qusema]."


def _cache_dir(value: str | None) -> Path:
    return Path(value).expanduser() if value else default_cache_dir()


def _echo_json(payload: object) -> None:
    click.echo(json.dumps(payload, indent=2, default=str))


@click.group(cls=NoticeGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="qusema")
def main() -> None:
    """QuSema finds silent bugs in quantum libraries (Qiskit, PennyLane): documented APIs
    that return wrong results on valid input without raising.

    Stage I: `qusema index TARGET` splits a library's Python and Rust source into
    contextual units (function + documentation + call relations, PyO3 links included);
    `unit`, `callers`, `callees` and `stats` read that index.

    TARGET is a library checkout (a path) or an exact release pin such as qiskit==2.4.1,
    whose source (sdist, else wheel) is downloaded from the package index and cached.
    """


@main.command()
@click.argument("target")
@click.option("--cache-dir", help=CACHE_HELP)
@click.option("--include-experimental", is_flag=True,
              help="Also index subtrees the release declares experimental (e.g. pennylane/labs).")
@click.option("--workers", type=click.IntRange(1, 64), default=min(2, os.cpu_count() or 1), show_default=True,
              help="Processes used to parse files.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--quiet", "-q", is_flag=True, help="No progress messages.")
def index(target: str, cache_dir: str | None, include_experimental: bool, workers: int, as_json: bool,
          quiet: bool) -> None:
    """Index TARGET (a checkout path or name==version): segments, call relations, docs,
    PyO3 links and the public API map, in SQLite. Re-indexing re-parses only changed files."""
    cache = _cache_dir(cache_dir)

    def progress(message: str) -> None:
        if not quiet:
            click.echo(f"[qusema] {message}", err=True)

    try:
        progress(f"resolving {target}")
        tree = resolve_source(target, cache)
        scope = detect_scope(tree.root, include_experimental=include_experimental)
    except (TargetError, NotALibrary) as exc:
        raise target_failure(exc) from exc
    for note in tree.notes:
        progress(note)
    spec = str(tree.root) if tree.origin == "checkout" else target
    db_path = index_path(cache, spec)
    with IndexDB(db_path, parser_tag()) as db:
        db.set_meta(target=target, name=tree.name, version=tree.version, origin=tree.origin,
                    archive_sha256=tree.archive_sha256)
        run = build_index(tree.root, db, scope, workers=workers, progress=progress)
        stats = index_stats(db)
    remember_last(cache, spec)
    if as_json:
        _echo_json({"index": str(db_path), "run": run.__dict__, "stats": stats.to_dict()})
        return
    state = "up to date" if run.up_to_date else f"{run.parsed} parsed, {run.reused} from cache"
    click.echo(f"indexed {target} ({tree.origin}) in {run.seconds:.2f} s: {run.files} files, {state}")
    _print_stats(stats)
    click.echo(f"index: {db_path}")


def _open_index(target: str | None, cache_dir: str | None) -> IndexDB:
    cache = _cache_dir(cache_dir)
    spec = target or last_target(cache)
    if spec is None:
        raise click.ClickException("no index yet: run `qusema index TARGET` first, or pass --target")
    if Path(spec).expanduser().exists():
        spec = str(Path(spec).expanduser().resolve())
    path = index_path(cache, spec)
    if not path.is_file():
        raise click.ClickException(f"{spec} has not been indexed: run `qusema index {spec}` first")
    db = IndexDB(path)
    if not db.meta().get("complete"):
        db.close()
        raise click.ClickException(f"the index of {spec} is incomplete (interrupted?): run `qusema index {spec}` again")
    return db


def _resolve_name(db: IndexDB, name: str) -> str:
    matches = db.find_segments(name)
    if not matches:
        raise click.ClickException(f"no segment named {name!r} in the index (try a qualified name, "
                                   "e.g. qiskit.circuit.commutation_checker.CommutationChecker.commute)")
    if len(matches) > 1:
        listing = "\n  ".join(matches[:20])
        raise click.ClickException(f"{name!r} is ambiguous; {len(matches)} segments match:\n  {listing}")
    return matches[0]


target_option = click.option("--target", "-t", help="The indexed target [default: the last one indexed].")
cache_option = click.option("--cache-dir", help=CACHE_HELP)
json_option = click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")


@main.command()
@click.argument("name")
@target_option
@cache_option
@click.option("--budget", type=click.IntRange(200, 1_000_000), default=DEFAULT_TOKEN_BUDGET, show_default=True,
              help="Token budget of the text rendering.")
@json_option
def unit(name: str, target: str | None, cache_dir: str | None, budget: int, as_json: bool) -> None:
    """Show the contextual unit of NAME (a qualified name or a unique suffix such as
    CommutationChecker.commute): source, documentation with its origins, call relations."""
    with _open_index(target, cache_dir) as db:
        built = build_unit(db, _resolve_name(db, name))
        click.echo(json.dumps(built.to_dict(), indent=2) if as_json else built.render(budget), nl=not as_json)


@main.command()
@click.argument("name")
@target_option
@cache_option
@click.option("--to-public", is_flag=True, help="Follow callers transitively to documented public APIs.")
@click.option("--max-depth", type=click.IntRange(1, 50), default=10, show_default=True)
@click.option("--candidates", is_flag=True,
              help="With --to-public, also follow calls whose receiver type is unknown (over-approximation).")
@json_option
def callers(name: str, target: str | None, cache_dir: str | None, to_public: bool, max_depth: int,
            candidates: bool, as_json: bool) -> None:
    """Who calls NAME. With --to-public: the reverse chains to public APIs that reach it."""
    with _open_index(target, cache_dir) as db:
        qualname = _resolve_name(db, name)
        if to_public:
            chains = chains_to_public(db, qualname, max_depth=max_depth, use_candidates=candidates)
            if as_json:
                _echo_json({"segment": qualname, "chains": [c.__dict__ for c in chains]})
                return
            if not chains:
                click.echo(f"no public API reaches {qualname} within {max_depth} calls")
            for chain in chains:
                click.echo(" <- ".join(chain.chain))
                click.echo(f"   public as: {', '.join(chain.public_names)}")
            return
        sites = db.calls_to(qualname)
        if as_json:
            _echo_json({"segment": qualname, "callers": [c.to_dict() for c in sites]})
            return
        click.echo(f"{len(sites)} call sites call {qualname}")
        for site in sites:
            click.echo(f"  {site.caller}  line {site.line}  ({site.via})")


@main.command()
@click.argument("name")
@target_option
@cache_option
@json_option
def callees(name: str, target: str | None, cache_dir: str | None, as_json: bool) -> None:
    """What NAME calls: each call site, resolved to a segment, external, or unresolved with why."""
    with _open_index(target, cache_dir) as db:
        qualname = _resolve_name(db, name)
        sites = db.calls_from(qualname)
        if as_json:
            _echo_json({"segment": qualname, "callees": [c.to_dict() for c in sites]})
            return
        click.echo(f"{len(sites)} call sites in {qualname}")
        for site in sites:
            where = {"resolved": site.target, "external": f"external {site.external}",
                     "unresolved": f"unresolved: {site.reason}"}[site.status]
            click.echo(f"  line {site.line}: {site.callee_text} -> {where}")


@main.command()
@target_option
@cache_option
@json_option
def stats(target: str | None, cache_dir: str | None, as_json: bool) -> None:
    """Figures of an index: LoC, segments and their sizes, call resolution, PyO3 links,
    public API entries, and every file that was skipped, with the reason."""
    with _open_index(target, cache_dir) as db:
        figures = index_stats(db, target or last_target(_cache_dir(cache_dir)))
    if as_json:
        _echo_json(figures.to_dict())
        return
    _print_stats(figures, list_skipped=True)


def _print_stats(figures, list_skipped: bool = False) -> None:
    for language, lang in figures.languages.items():
        click.echo(f"{language}: {lang.files} files, {lang.loc} LoC, {lang.segments} segments "
                   f"({lang.min_lines}-{lang.max_lines} lines)")
    for language, res in figures.resolution.items():
        share = f"{res.share:.1%}" if res.share is not None else "n/a"
        click.echo(f"{language} calls: {res.call_sites} sites, {res.external} external; in-library "
                   f"{res.resolved} resolved / {res.resolved + res.unresolved_in_library} = {share}")
    click.echo(f"PyO3: {figures.pyo3_exports} exports; Python call sites into compiled code linked: "
               f"{figures.pyo3_call_sites_linked}/{figures.pyo3_call_sites}")
    click.echo(f"public API entries: {figures.public_api_entries}")
    for excluded in figures.excluded:
        click.echo(f"excluded {excluded['subtree']}: {excluded['reason']}")
    click.echo(f"skipped files: {len(figures.skipped)}")
    if list_skipped:
        for skipped in figures.skipped:
            click.echo(f"  {skipped['file']}: {skipped['reason']}")


@main.command()
@click.argument("target")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("reports"),
              show_default=True, help="Where runs are written: OUT/<library>-<version>/<run id>/.")
@click.option("--examples", type=click.IntRange(1, 10_000), default=25, show_default=True,
              help="Generated inputs per (contract, subject) check.")
@click.option("--time-budget", type=click.FloatRange(0.1, 24 * 60), default=30.0, show_default=True,
              help="Minutes; no new check starts after this (the run can be resumed). Laws take turns "
                   "(every law's first subject, then every law's second, ...), so a short budget reaches every law; "
                   "with --focus, the checks closest to the focus come first.")
@click.option("--contracts", "patterns", multiple=True, default=("*",), show_default=True,
              help="Glob patterns over contract ids, comma-separated or repeated, e.g. 'qiskit.operation.*'.")
@click.option("--item-timeout", "item_timeout", type=click.FloatRange(1, 3600), default=120.0, show_default=True,
              help="Seconds per sandbox call (one check, its verification); raise it on a loaded machine.")
@click.option("--focus", "focus", multiple=True, metavar="UNIT|file:PATH",
              help="Only checks whose entry API reaches these units in the call graph (names or unique suffixes, "
                   "file:PATH for every function of a file; comma-separated or repeated). Default: the whole release.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--deepen", type=click.IntRange(0, 4), default=3, show_default=True,
              help="Once every check is done and time is left: how many times a check that held may be re-checked, "
                   "each time with 4x the examples of its last check and fresh random inputs (0: never). A bandit "
                   "chooses the order, one check at a time: the re-check expected to find the most violations per "
                   "second (cheap examples, a law that has found some) first, until the time budget ends.")
@click.option("--workers", type=click.IntRange(1, 64), default=min(2, os.cpu_count() or 1), show_default=True,
              help="Sandboxes checking in parallel.")
@click.option("--sandbox", "backend", type=click.Choice(["docker", "bwrap", "process"]), default=None,
              help="Sandbox backend [default: docker if a daemon answers, else bwrap, else process].")
@click.option("--resume", is_flag=True, help="Continue the run with the same settings where it stopped.")
@click.option("--verbose", "-v", is_flag=True, help="A line per check instead of the progress bar.")
@click.option("--reference", "reference", default=None, metavar="LIB==VERSION|auto",
              help="Regression oracle: run the documented examples on this earlier release too and check every "
                   "answer that changed (auto: the newest release of the previous minor series). Each difference "
                   "that reproduces is a 'regression candidate' (a potential bug).")
@click.option("--diff-against", "diff_against", multiple=True, metavar="LIB==VERSION",
              help="Re-run every finding's reproducer on this release too: 'still present' or 'fixed there'.")
@llm_options
@cache_option
def audit(target: str, out_dir: Path, examples: int, time_budget: float, patterns: tuple[str, ...],
          item_timeout: float, focus: tuple[str, ...], seed: int, deepen: int, workers: int,
          backend: str | None, resume: bool, verbose: bool, reference: str | None, diff_against: tuple[str, ...],
          llm: str | None,
          base_url: str | None,
          units: str, llm_concurrency: int, revisions: int, unit_cost: float, run_cost: float,
          cache_dir: str | None) -> None:
    """Audit TARGET (an exact release pin, e.g. qiskit==2.4.1, or a git checkout of the
    library, built at its HEAD commit) with the offline contract engine: quantum-semantic
    laws checked on generated inputs in the sandbox; every violation is re-run as a
    standalone reproducer, localized to a source segment and qualified.
    Writes findings.json, findings.sarif and issue drafts (drafts/*.md)."""
    from qusema.audit import AuditConfig, AuditError, run_audit, run_id_for
    from qusema.targets.environments import TargetEnvironmentError

    if "==" not in target:
        target = _checkout_target(target)
    if reference is not None:
        reference = _reference(target, reference)
    config = AuditConfig(target=target, examples=examples, seed=seed, contracts=_comma_list(patterns),
                         time_budget_s=time_budget * 60, workers=workers, backend=backend,
                         item_timeout_s=item_timeout, diff_against=tuple(diff_against), focus=_comma_list(focus),
                         deepen=deepen, reference=reference)
    agent = None
    agent_settings = agent_config(target, llm, base_url, units, llm_concurrency, revisions, unit_cost, run_cost,
                                  backend)
    if agent_settings is not None:
        from qusema.agent.audit_llm import AgentPass
        from qusema.llm.selection import model_from_spec

        agent = AgentPass(agent_settings, model_from_spec(agent_settings.llm, agent_settings.base_url))
    run_dir = out_dir / f"{config.library}-{config.version}" / run_id_for(config, agent)
    if (run_dir / "run.sqlite").exists() and not resume:
        raise click.ClickException(f"{run_dir} holds a run with these settings: pass --resume to continue it, "
                                   "or change --out / --seed")
    progress = AuditProgress(verbose=verbose, budget_s=time_budget * 60)
    try:
        summary = run_audit(config, out_dir, _cache_dir(cache_dir), progress, agent=agent)
    except (AuditError, TargetEnvironmentError) as exc:
        raise target_failure(exc) from exc
    finally:
        progress.close()
    click.echo(f"{summary.contracts} contracts, {summary.subjects} subjects, "
               f"{summary.items_done}/{summary.items_total} checks, {summary.examples} examples in {summary.seconds} s "
               f"({summary.examples_per_second} per second; {summary.stop_reason})"
               + (f", then {summary.deeper_checks} re-checked with more examples"
                  if summary.deeper_checks else ""))
    click.echo("outcomes: " + ", ".join(f"{k} {v}" for k, v in sorted(summary.outcomes.items())))
    click.echo(f"units covered: {summary.entry_units} entered by checks, {summary.units_reached} of "
               f"{summary.units_total} functions and methods reachable from them in the call graph; "
               f"{summary.public_entries_exercised} of {summary.public_entries_total} public entries exercised")
    by_class = ", ".join(f"{n} {kind}" for kind, n in sorted(summary.findings_by_class.items()))
    click.echo(f"findings: {summary.findings}{f' ({by_class})' if by_class else ''} in {summary.drafts} drafts  ->  "
               f"{summary.run_dir}")


def _reference(target: str, reference: str) -> str:
    """--reference as LIB==VER, or a clear refusal."""
    from qusema.contracts.regression import NoReference, parse_reference

    if "==" not in target:
        raise click.ClickException("--reference needs an exact release as TARGET (e.g. qiskit==2.4.1)")
    library, _, version = target.partition("==")
    try:
        return parse_reference(library.strip().lower(), version.strip(), reference)
    except (NoReference, TargetError) as exc:
        raise click.ClickException(str(exc)) from exc


def _comma_list(values: tuple[str, ...]) -> tuple[str, ...]:
    """A repeatable option whose values may also be comma-separated, flattened."""
    return tuple(v.strip() for group in values for v in group.split(",") if v.strip())


def _checkout_target(target: str) -> str:
    """A checkout to audit, as its absolute path; a clear refusal for anything else."""
    from qusema.targets.environments import TargetEnvironmentError, checkout_commit
    from qusema.targets.source import inspect_checkout

    path = Path(target).expanduser()
    if not path.exists():
        raise BadTarget(f"{target!r} is neither an exact release pin (e.g. qiskit==2.4.1) "
                        "nor a checkout directory")
    try:
        inspect_checkout(path)
        checkout_commit(path)
    except (TargetError, NotALibrary, TargetEnvironmentError) as exc:
        raise click.ClickException(str(exc)) from exc
    return str(path.resolve())


@main.command()
@click.argument("run_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
def report(run_dir: Path) -> None:
    """Regenerate findings.json, findings.sarif and the issue drafts of a finished run."""
    from qusema.audit import collect_findings, write_reports
    from qusema.store import RunStore

    store_path = run_dir / "run.sqlite"
    if not store_path.is_file():
        raise click.ClickException(f"{run_dir} is not a run directory (no run.sqlite)")
    with RunStore(store_path) as store:
        (run,) = store.runs()
        findings = collect_findings(store, run.run_id)
        environment = store.records(run.run_id, "environment")
    python_version = environment[-1][1]["python"] if environment else "?"
    drafts = write_reports(run_dir, findings, python_version)
    click.echo(f"{len(findings)} findings in {drafts} drafts written to {run_dir}")


main.add_command(replay_command)  # qusema replay RUN_DIR
main.add_command(bench_group)  # qusema bench selfcheck | run | table
main.add_command(mutate_command)  # qusema mutate circuit.qasm|module:function --test ...
main.add_command(env_group)  # qusema env create | list | verify | rm
main.add_command(run_command)  # qusema run --env qiskit==2.4.1 snippet.py
main.add_command(surface_command)  # qusema surface qiskit==2.4.1


if __name__ == "__main__":
    sys.exit(main())
