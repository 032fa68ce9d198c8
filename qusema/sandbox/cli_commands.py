"""`qusema env create|list|rm` and `qusema run`, registered by qusema/cli.py."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import click

from qusema.cli_errors import target_failure
from qusema.sandbox.protocol import BackendUnavailable
from qusema.sandbox.records import Limits, Status
from qusema.sandbox.selection import AUTO_ORDER, get_backend
from qusema.sandbox.session import open_sandbox
from qusema.sandbox.worker_client import WorkerStartError
from qusema.targets.environments import (
    EnvironmentChanged,
    EnvironmentStore,
    TargetEnvironment,
    TargetEnvironmentError,
)

SANDBOX_CHOICES = click.Choice(["auto", *AUTO_ORDER])


def _create(store: EnvironmentStore, target: str, companions: tuple[str, ...],
            python: Path | None) -> TargetEnvironment:
    if Path(target).is_dir():
        return store.from_checkout(Path(target))
    if python is not None:
        return store.adopt_interpreter(python, target or None)
    return store.create(target, companions)


def _describe(env: TargetEnvironment) -> str:
    companions = ", ".join(env.companions) if env.companions else "none"
    return (f"{env.key}\n  requirement: {env.requirement}\n  python: {env.python} "
            f"({env.python_version})\n  resolution: {env.resolution}\n  companions: {companions}\n"
            f"  packages: {len(env.packages)} (see {env.root / 'env.json'})")


@click.group("env")
def env_group() -> None:
    """Target environments: one exact release of a library, cached and reused."""


@env_group.command("create")
@click.argument("target")
@click.option("--with", "companions", multiple=True, metavar="REQ",
              help="Extra constraint, e.g. 'numpy<2' (skips automatic period resolution).")
@click.option("--python", "python", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Use this existing interpreter instead of making a virtualenv.")
@click.option("--sandbox", "sandbox", type=SANDBOX_CHOICES, default="auto", show_default=True,
              help="Also prepare this sandbox for the environment (a docker image).")
@click.option("--json", "as_json", is_flag=True, help="Print the environment record as JSON.")
def env_create(target: str, companions: tuple[str, ...], python: Path | None, sandbox: str,
               as_json: bool) -> None:
    """Create the environment for TARGET: NAME==VERSION (e.g. qiskit==1.0.2) or a checkout."""
    store = EnvironmentStore()
    try:
        env = _create(store, target, companions, python)
        get_backend(sandbox).prepare(env)
    except (TargetEnvironmentError, BackendUnavailable, ValueError) as exc:
        raise target_failure(exc) from exc
    click.echo(json.dumps(env.to_json(), indent=1) if as_json else _describe(env))


@env_group.command("list")
@click.option("--json", "as_json", is_flag=True)
def env_list(as_json: bool) -> None:
    """List the cached environments."""
    envs = EnvironmentStore().list()
    if as_json:
        click.echo(json.dumps([e.to_json() for e in envs], indent=1))
        return
    for env in envs:
        click.echo(f"{env.key:<40} {env.requirement:<28} {env.resolution:<20} "
                   f"{len(env.packages)} packages")


@env_group.command("verify")
@click.argument("key_or_requirement", required=False)
def env_verify(key_or_requirement: str | None) -> None:
    """Compare the files of the cached environments (or of one) with what was recorded when
    each was built; exits 1 if any changed. (Every reuse checks the same.)"""
    store = EnvironmentStore()
    envs = [e for e in store.list() if key_or_requirement in (None, e.key, e.requirement)]
    if key_or_requirement is not None and not envs:
        raise click.ClickException(f"no environment {key_or_requirement!r}")
    changed = 0
    for env in envs:
        started = time.perf_counter()
        try:
            verified = store.verify(env)
        except EnvironmentChanged as exc:
            changed += 1
            click.echo(f"CHANGED: {exc}")
            continue
        except TargetEnvironmentError as exc:
            raise click.ClickException(str(exc)) from exc
        if verified.files_digest is None:
            click.echo(f"not checked {env.key}: an adopted interpreter ({env.python}) is the machine's, not qusema's")
            continue
        click.echo(f"ok {env.key}: {verified.requirement}, files as recorded {verified.files_recorded} "
                   f"({time.perf_counter() - started:.2f} s)")
    if changed:
        sys.exit(1)


@env_group.command("rm")
@click.argument("key_or_requirement")
def env_rm(key_or_requirement: str) -> None:
    """Remove the environments with this key or requirement."""
    removed = EnvironmentStore().remove(key_or_requirement)
    if not removed:
        raise click.ClickException(f"no environment {key_or_requirement!r}")
    for key in removed:
        click.echo(f"removed {key}")


@click.command("run")
@click.argument("snippet", type=click.File("r"))
@click.option("--env", "env_spec", required=True,
              help="Target: NAME==VERSION, an environment key, or with --python a label.")
@click.option("--python", "python", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Run under this existing interpreter instead of a made environment.")
@click.option("--sandbox", "sandbox", type=SANDBOX_CHOICES, default="auto", show_default=True)
@click.option("--cold", is_flag=True, help="A fresh sandbox and interpreter, nothing preloaded.")
# Positive ranges: a zero or negative limit would otherwise reach the sandbox as "no limit".
@click.option("--timeout", "timeout", type=click.FloatRange(0, 24 * 3600, min_open=True),
              default=Limits.timeout_s, show_default=True, help="Seconds.")
@click.option("--memory-mb", "memory_mb", type=click.IntRange(1, 2**20), default=Limits.memory_bytes // 2**20,
              show_default=True, help="Memory a snippet may add, in MiB.")
def run_command(snippet, env_spec: str, python: Path | None, sandbox: str, cold: bool,
                timeout: float, memory_mb: int) -> None:
    """Run SNIPPET (a file, or - for stdin) in the sandbox and print its structured result.

    Exits 0 when the snippet's status is ok, 1 otherwise."""
    store = EnvironmentStore()
    limits = Limits(timeout_s=timeout, memory_bytes=memory_mb * 2**20)
    try:
        env = store.get(env_spec) if python is None else None
        if env is None:
            env = _create(store, env_spec, (), python)
        with open_sandbox(env, sandbox, warm=not cold, limits=limits) as box:
            result = box.run(snippet.read(), filename=Path(snippet.name).name)
    except (TargetEnvironmentError, BackendUnavailable, WorkerStartError, ValueError) as exc:
        raise target_failure(exc) from exc
    click.echo(json.dumps(result.to_json(), indent=1))
    sys.exit(0 if result.status is Status.OK else 1)
