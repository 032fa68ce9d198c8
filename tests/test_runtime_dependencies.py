"""What `pip install -e .` alone installs is enough to run QuSema.

The README's first command is `pip install -e . && qusema audit ...`, with no extras; CI installs
`.[test]`, which brings numpy, qiskit and more, so a module that imports something missing from
`[project] dependencies` passes every other test and fails for every user at once. Here a brand-new
virtualenv gets the project with no extras, and every module of the `qusema` package must import
in it, and the `qusema` command must start.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = [pytest.mark.network, pytest.mark.release]

# Modules that are the library API of the optional `oracle` extra and that no command imports:
# module -> the one top-level module it may miss (which must come from that extra).
ORACLE_EXTRA_ONLY = {"qusema.oracle.stabilizer": "stim"}

IMPORT_EVERY_MODULE = r"""
import importlib, json, pkgutil, sys, traceback

failures = {}

def reason(exc):
    missing = getattr(exc, "name", None) if isinstance(exc, ModuleNotFoundError) else None
    return {"error": "".join(traceback.format_exception_only(type(exc), exc)).strip(), "missing": missing}

def package_failed(name):
    failures[name] = reason(sys.exc_info()[1])

import qusema
names = [m.name for m in pkgutil.walk_packages(qusema.__path__, "qusema.", onerror=package_failed)]
for name in ["qusema", *names]:
    try:
        importlib.import_module(name)
    except BaseException as exc:
        failures.setdefault(name, reason(exc))
print(json.dumps({"modules": ["qusema", *names], "failures": failures, "qusema_file": qusema.__file__}))
"""


def _clean_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


@pytest.fixture(scope="module")
def fresh_venv(tmp_path_factory) -> Path:
    """A new virtualenv with `pip install -e <repo>` and nothing else."""
    venv = tmp_path_factory.mktemp("fresh-venv") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, env=_clean_env(), timeout=300)
    install = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "-e", str(ROOT)],
                             capture_output=True, text=True, env=_clean_env(), timeout=900)
    assert install.returncode == 0, f"pip install -e {ROOT} failed:\n{install.stdout}\n{install.stderr}"
    return venv


def _oracle_extra_modules() -> set[str]:
    """Top-level import names the `oracle` extra provides (distribution names, normalized)."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    names = set()
    for requirement in extras["oracle"]:
        name = requirement.split(";")[0]
        for sep in "=<>!~[ ":
            name = name.split(sep)[0]
        names.add(name.strip().lower().replace("-", "_"))
    return names


def test_every_qusema_module_imports_with_the_runtime_dependencies_alone(fresh_venv, tmp_path):
    script = tmp_path / "import_every_module.py"
    script.write_text(IMPORT_EVERY_MODULE)
    # run outside the checkout, so nothing is importable from the working directory
    run = subprocess.run([str(fresh_venv / "bin" / "python"), str(script)], capture_output=True, text=True,
                         cwd=tmp_path, env=_clean_env(), timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    result = json.loads(run.stdout.strip().splitlines()[-1])
    assert Path(result["qusema_file"]).resolve().is_relative_to(ROOT / "qusema")
    assert len(result["modules"]) > 50, result["modules"]  # the walk did find the package's modules

    oracle_extra = _oracle_extra_modules()
    for module, missing in ORACLE_EXTRA_ONLY.items():
        assert missing in oracle_extra, f"{module} may miss {missing} only if the oracle extra provides it"
    failures = {name: why for name, why in result["failures"].items()
                if ORACLE_EXTRA_ONLY.get(name) is None or why["missing"] != ORACLE_EXTRA_ONLY[name]}
    assert not failures, (
        "modules of qusema that do not import after `pip install -e .` with no extras "
        "(add what they import to [project] dependencies in pyproject.toml):\n"
        + "\n".join(f"  {name}: {why['error']}" for name, why in sorted(failures.items())))


def test_the_qusema_command_starts(fresh_venv, tmp_path):
    run = subprocess.run([str(fresh_venv / "bin" / "qusema"), "--help"], capture_output=True, text=True,
                         cwd=tmp_path, env=_clean_env(), timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Usage:" in run.stdout
