"""Target environments: exact releases, cached, recorded, period companions, clear failures."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from qusema.sandbox.cli_commands import env_group, run_command
from qusema.targets.environments import (
    SMOKE_REVISION,
    EnvironmentChanged,
    EnvironmentNotice,
    EnvironmentStore,
    ReleaseNotFound,
    ResolutionError,
    TargetEnvironment,
)
from sandbox_checks import CHEAP_TARGET


def test_exact_release_is_installed_recorded_and_reused(store, cheap_env):
    assert cheap_env.requirement == CHEAP_TARGET
    assert "numpy==2.2.6" in cheap_env.packages
    record = json.loads((cheap_env.root / "env.json").read_text())
    assert record["packages"] == cheap_env.packages
    started = time.monotonic()
    again = store.create(CHEAP_TARGET)
    assert again.key == cheap_env.key and again.created_at == cheap_env.created_at
    assert time.monotonic() - started < 2.0  # reused, not rebuilt


@pytest.mark.network
def test_resolution_failure_quotes_the_resolver(tmp_path):
    # The release exists; the request cannot be met: that is the resolver's to explain.
    store = EnvironmentStore(tmp_path / "envs")
    with pytest.raises(ResolutionError) as caught:
        store.create("numpy==2.2.6", companions=["numpy==2.2.5"])
    message = str(caught.value)
    assert "numpy==2.2.6" in message
    assert caught.value.resolver_message.strip() in message
    assert "2.2.5" in caught.value.resolver_message  # uv's words, not ours
    assert "environment at:" not in message  # not the venv that was removed with the failure
    assert list((tmp_path / "envs").iterdir()) == []  # nothing half-built, no lock file


@pytest.mark.network
def test_a_release_the_index_does_not_have_is_one_line_with_the_closest(tmp_path):
    store = EnvironmentStore(tmp_path / "envs")
    with pytest.raises(ReleaseNotFound) as caught:
        store.create("numpy==2.2.99")
    assert str(caught.value) == ("numpy has no release 2.2.99 on https://pypi.org/simple; "
                                 "closest available: 2.2.4, 2.2.5, 2.2.6, 2.3.0, 2.3.1, 2.3.2")
    assert list((tmp_path / "envs").iterdir()) == []


@pytest.mark.network
def test_old_release_gets_period_companions(store):
    env = store.create("pennylane==0.38.0")
    assert env.resolution.startswith("as-of 2024-09")
    assert env.current_companions_failure  # why today's companions were not kept
    numpy = next(p for p in env.packages if p.startswith("numpy=="))
    assert int(numpy.split("==")[1].split(".")[0]) < 2
    assert numpy in env.companions


@pytest.mark.network
def test_a_plugin_that_no_longer_loads_beside_the_release_brings_period_companions(store):
    # pennylane 0.42.3 asks for pennylane-lightning>=0.42 with no upper bound; the newest
    # lightning imports a name 0.42.3 does not have, so lightning.qubit would not load, and
    # default.qubit alone (the library's own smoke check) would not notice.
    env = store.create("pennylane==0.42.3")
    assert env.resolution.startswith("as-of")
    assert "lightning.qubit" in env.current_companions_failure
    loaded = subprocess.run([env.python, "-c", "import pennylane as qml\n"
                             "assert qml.device('lightning.qubit', wires=1).name"],
                            capture_output=True, text=True, timeout=300)
    assert loaded.returncode == 0, loaded.stderr


def _install_stale_plugin(env) -> Path:
    """Registers, as a real installed distribution, a plugin of the library whose module is gone."""
    site = subprocess.run([env.python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    info = Path(site) / "numpy_stale_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: numpy-stale-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[numpy.plugins]\nstale = numpy_stale_plugin_gone:Device\n")
    return info


def _mark_built_before_plugin_checks(env) -> None:
    """As a record of that time: no smoke revision, and no record of its files either (those
    came later), so the plugin installed here reads as the environment's own."""
    record = env.root / "env.json"
    data = json.loads(record.read_text())
    data["smoke_revision"] = 0
    data.pop("files_digest", None)
    data.pop("files_recorded", None)
    record.write_text(json.dumps(data))
    (env.root / "files.json").unlink(missing_ok=True)


def test_an_environment_built_before_plugin_checks_is_checked_again_before_reuse(tmp_path):
    store = EnvironmentStore(tmp_path / "envs")
    env = store.create(CHEAP_TARGET)
    assert env.smoke_revision == SMOKE_REVISION

    # sound: reused as it is, and recorded as checked
    _mark_built_before_plugin_checks(env)
    with pytest.warns(EnvironmentNotice):  # its files are recorded now, and it says so
        again = store.create(CHEAP_TARGET)
    assert again.created_at == env.created_at
    assert json.loads((env.root / "env.json").read_text())["smoke_revision"] == SMOKE_REVISION

    # a plugin that no longer loads: rebuilt, so the stale plugin is gone
    stale = _install_stale_plugin(env)
    _mark_built_before_plugin_checks(env)
    rebuilt = store.create(CHEAP_TARGET)
    assert not stale.exists()
    assert rebuilt.smoke_revision == SMOKE_REVISION and "numpy==2.2.6" in rebuilt.packages


def test_a_record_with_fields_this_version_does_not_know_is_still_read(cheap_env):
    record = json.loads((cheap_env.root / "env.json").read_text())
    record["field_of_a_newer_qusema"] = 1
    read = TargetEnvironment.from_json(record)
    assert read.key == cheap_env.key and read.packages == cheap_env.packages


def test_existing_interpreter_is_adopted(tmp_path, cheap_env):
    store = EnvironmentStore(tmp_path / "envs")
    env = store.adopt_interpreter(cheap_env.python, "numpy")
    assert env.source == "existing-interpreter"
    assert env.python == cheap_env.python.absolute()
    assert "numpy==2.2.6" in env.packages


def test_cli_env_list_run_and_rm(tmp_path, monkeypatch, cheap_env):
    monkeypatch.setenv("QUSEMA_CACHE_DIR", str(tmp_path))
    runner = CliRunner()
    # Run as root, the process backend refuses an environment under /root (user nobody
    # cannot read it), so the check runs where this machine can.
    sandbox = "bwrap" if _bwrap() else "process"
    created = runner.invoke(env_group, ["create", "--python", str(cheap_env.python),
                                        "--sandbox", sandbox, "--json", "numpy"])
    assert created.exit_code == 0, created.output
    key = json.loads(created.output)["key"]
    listed = runner.invoke(env_group, ["list"])
    assert key in listed.output
    snippet = tmp_path / "snippet.py"
    snippet.write_text("import numpy\nreport('v', numpy.__version__)\nassert numpy.pi < 3\n")
    ran = runner.invoke(run_command, ["--env", key, "--sandbox", sandbox,
                                      str(snippet)])
    assert ran.exit_code == 1, ran.output  # the snippet's assertion fails
    result = json.loads(ran.output)
    assert result["status"] == "assertion_failed"
    assert result["reports"] == {"v": "2.2.6"}
    removed = runner.invoke(env_group, ["rm", key])
    assert removed.exit_code == 0 and key in removed.output
    assert key not in runner.invoke(env_group, ["list"]).output


def _bwrap() -> bool:
    from qusema.sandbox import unavailable_reason

    return unavailable_reason("bwrap") is None
