"""Environments are verified before reuse: the files of a real (numpy) environment, built in a
temporary cache, are changed the way a snippet under the process backend could change them,
and every path that reuses it must notice."""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from qusema.cli import main
from qusema.sandbox import unavailable_reason
from qusema.targets.env_files import MANIFEST
from qusema.targets.environments import EnvironmentChanged, EnvironmentNotice, EnvironmentStore, TargetEnvironment
from sandbox_checks import CHEAP_TARGET


@pytest.fixture
def private_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> EnvironmentStore:
    """A cache of its own, so the CLI (which reads QUSEMA_CACHE_DIR) sees the same store."""
    monkeypatch.setenv("QUSEMA_CACHE_DIR", str(tmp_path / "cache"))
    return EnvironmentStore()


def _site(env: TargetEnvironment) -> Path:
    return env.root / "venv" / "lib" / f"python{env.python_version.rsplit('.', 1)[0]}" / "site-packages"


def _record(env: TargetEnvironment) -> dict:
    return json.loads((env.root / "env.json").read_text())


def _sandboxes() -> list[str]:
    # Run as root, process runs snippets as nobody, who cannot enter pytest's private
    # tmp_path (0700): it refuses such environments (tested in test_sandbox_hostile).
    process = ["process"] if os.geteuid() != 0 else []
    return process + (["bwrap"] if unavailable_reason("bwrap") is None else [])


def test_a_changed_environment_is_refused_before_reuse_naming_the_files(private_store, tmp_path):
    store = private_store
    env = store.create(CHEAP_TARGET)
    record = _record(env)
    assert record["files_recorded"] == "at creation" and len(record["files_digest"]) == 64
    assert (env.root / MANIFEST).is_file()
    version = _site(env) / "numpy" / "version.py"
    # Its own copy, not a link into uv's cache: the change below must not reach other environments.
    assert version.stat().st_nlink == 1

    # Real use writes nothing into it: running numpy in each sandbox leaves it reusable.
    runner = CliRunner()
    snippet = tmp_path / "use.py"
    snippet.write_text("import numpy\nreport('sum', int(numpy.arange(10).sum()))\n")
    for sandbox in _sandboxes():
        ran = runner.invoke(main, ["run", "--env", env.key, "--sandbox", sandbox, str(snippet)])
        assert ran.exit_code == 0, ran.output
        assert json.loads(ran.stdout)["reports"] == {"sum": 45}
    assert store.create(CHEAP_TARGET).created_at == env.created_at

    # The change a hostile snippet would make: same size, same mtime, one byte different (a
    # check of sizes and times would pass it), and a .pth file that runs at every start.
    original = version.read_bytes()
    assert b"2.2.6" in original
    before = version.stat()
    version.write_bytes(original.replace(b"2.2.6", b"2.2.7", 1))
    os.utime(version, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert version.stat().st_size == before.st_size
    (_site(env) / "evil.pth").write_text("import os\n")

    rel = version.relative_to(env.root / "venv").as_posix()
    added = (_site(env) / "evil.pth").relative_to(env.root / "venv").as_posix()
    with pytest.raises(EnvironmentChanged) as caught:
        store.create(CHEAP_TARGET)
    message = str(caught.value)
    assert message == (f"environment {env.key} ({CHEAP_TARGET}) changed since it was built: modified {rel}, "
                       f"added {added}; it is not used. Rebuild it: qusema env rm {env.key} "
                       "(the next command that needs it builds it again)")
    with pytest.raises(EnvironmentChanged):
        store.get(env.key)

    # Through the CLI: `run` refuses in one line, `env verify` says CHANGED and exits 1.
    refused = runner.invoke(main, ["run", "--env", env.key, "--sandbox", "process", str(snippet)])
    assert refused.exit_code == 1
    assert refused.stderr == f"Error: {message}\n" and refused.stdout == ""
    verified = runner.invoke(main, ["env", "verify", env.key])
    assert verified.exit_code == 1 and verified.stdout == f"CHANGED: {message}\n"

    # The command the message names, then a reuse: rebuilt with the released files (so the
    # change never reached uv's cache either), and verified again.
    assert runner.invoke(main, ["env", "rm", env.key]).exit_code == 0
    rebuilt = store.create(CHEAP_TARGET)
    assert version.read_bytes() == original and not (_site(rebuilt) / "evil.pth").exists()
    again = runner.invoke(main, ["env", "verify", env.key])
    assert again.exit_code == 0 and again.stdout.startswith(f"ok {env.key}: {CHEAP_TARGET}, files as recorded at creation")


def test_an_environment_built_before_file_records_gets_one_at_its_first_reuse(private_store):
    store = private_store
    env = store.create(CHEAP_TARGET)
    # As a record written before this check existed: no digest and no manifest.
    record = _record(env)
    del record["files_digest"], record["files_recorded"]
    (env.root / "env.json").write_text(json.dumps(record))
    (env.root / MANIFEST).unlink()

    with pytest.warns(EnvironmentNotice, match="recorded now and checked before every later reuse"):
        reused = store.create(CHEAP_TARGET)
    assert reused.created_at == env.created_at  # reused, not rebuilt
    today = dt.datetime.now(dt.timezone.utc).date().isoformat()
    assert _record(env)["files_recorded"] == f"at first reuse {today}"
    assert (env.root / MANIFEST).is_file()

    # From then on it is held to that record.
    gone = _site(env) / "numpy" / "py.typed"
    gone.unlink()
    with pytest.raises(EnvironmentChanged, match=f"removed {gone.relative_to(env.root / 'venv').as_posix()}"):
        store.create(CHEAP_TARGET)


def test_a_changed_manifest_is_reported_as_such(private_store):
    store = private_store
    env = store.create(CHEAP_TARGET)
    (_site(env) / "numpy" / "version.py").write_text("version = 'forged'\n")
    # Whoever changed the file rewrote the manifest too, but not the digest in env.json.
    manifest = json.loads((env.root / MANIFEST).read_text())
    manifest["files"] = manifest["files"][1:]
    (env.root / MANIFEST).write_text(json.dumps(manifest))
    with pytest.raises(EnvironmentChanged, match=r"its file list .*files\.json is missing or was changed too"):
        store.create(CHEAP_TARGET)
