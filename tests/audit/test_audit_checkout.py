"""`qusema audit ./a-checkout`: a git checkout of the library is built at its commit and
audited like a release, with the run named by the commit."""

import configparser
import json
import shutil
import sqlite3
import subprocess
import sys
from email.parser import Parser
from pathlib import Path

import pytest

from qusema.targets import default_cache_dir, resolve_source

pytestmark = pytest.mark.network


def _git(checkout: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(checkout), "-c", "user.name=t", "-c", "user.email=t@t", *args],
                          capture_output=True, text=True, check=True)
    return done.stdout.strip()


def _pennylane_checkout(root: Path) -> Path:
    """PennyLane 0.45.0's package as a source tree with a pyproject (its dependencies and
    device entry points as the release declares them), committed to git: what a
    maintainer's checkout is, built from the release's own files."""
    tree = resolve_source("pennylane==0.45.0", default_cache_dir()).root
    (metadata,) = tree.glob("pennylane-*.dist-info/METADATA")
    requires = [r for r in Parser().parsestr(metadata.read_text()).get_all("Requires-Dist") or [] if "extra ==" not in r]
    plugins = configparser.ConfigParser(delimiters=("=",))
    plugins.optionxform = str  # device names are case-sensitive
    plugins.read_string(next(tree.glob("pennylane-*.dist-info/entry_points.txt")).read_text())
    devices = "".join(f'"{name}" = "{target}"\n' for name, target in plugins["pennylane.plugins"].items())
    checkout = root / "a-checkout"
    shutil.copytree(tree / "pennylane", checkout / "pennylane")
    (checkout / "pyproject.toml").write_text(
        '[build-system]\nrequires = ["setuptools>=61"]\nbuild-backend = "setuptools.build_meta"\n\n'
        '[project]\nname = "pennylane"\nversion = "0.45.0"\ndependencies = ' + json.dumps(requires) + "\n\n"
        '[project.entry-points."pennylane.plugins"]\n' + devices + "\n"
        '[tool.setuptools.packages.find]\ninclude = ["pennylane*"]\n\n'
        '[tool.setuptools.package-data]\n"*" = ["*"]\n')
    _git(checkout, "init", "-q")
    _git(checkout, "add", "-A")
    _git(checkout, "commit", "-q", "-m", "pennylane 0.45.0 as a checkout")
    return checkout


def test_a_checkout_is_built_at_its_commit_and_audited(tmp_path: Path):
    checkout = _pennylane_checkout(tmp_path)
    commit = _git(checkout, "rev-parse", "HEAD")
    out = tmp_path / "reports"
    done = subprocess.run([sys.executable, "-m", "qusema.cli", "audit", str(checkout), "--out", str(out),
                           "--contracts", "pennylane.exec.seed-reproducible", "--examples", "3",
                           "--workers", "1", "--deepen", "0"], capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stderr[-3000:]
    (run_dir,) = (out / f"pennylane-checkout-{commit[:12]}").iterdir()
    assert json.loads((run_dir / "findings.json").read_text())["findings"] is not None
    with sqlite3.connect(run_dir / "run.sqlite") as conn:
        (identity,) = conn.execute("SELECT config FROM runs").fetchone()
        done_items = conn.execute("SELECT count(*) FROM work").fetchone()[0]
        (environment,) = conn.execute("SELECT payload FROM records WHERE kind='environment'").fetchone()
    assert json.loads(identity)["commit"] == commit
    assert done_items == 3  # default.qubit, default.mixed, lightning.qubit: devices found by entry point
    assert any(p.startswith("pennylane @ file://") or p.startswith("pennylane==0.45.0")
               for p in json.loads(environment)["packages"]), json.loads(environment)["packages"][:5]

    # A new commit is a new build and a new run; the old run is untouched.
    (checkout / "pennylane" / "NOTE.txt").write_text("changed\n")
    _git(checkout, "add", "-A")
    _git(checkout, "commit", "-q", "-m", "a change")
    again = subprocess.run([sys.executable, "-m", "qusema.cli", "audit", str(checkout), "--out", str(out),
                            "--contracts", "pennylane.exec.seed-reproducible", "--examples", "3",
                            "--workers", "1", "--time-budget", "0.1"], capture_output=True, text=True, timeout=1800)
    assert again.returncode == 0, again.stderr[-3000:]
    assert (out / f"pennylane-checkout-{_git(checkout, 'rev-parse', 'HEAD')[:12]}").is_dir()


def test_a_directory_that_is_not_a_checkout_is_refused_clearly(tmp_path: Path):
    done = subprocess.run([sys.executable, "-m", "qusema.cli", "audit", str(tmp_path / "missing")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "neither an exact release pin" in done.stderr
