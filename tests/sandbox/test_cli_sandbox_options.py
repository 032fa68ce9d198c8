"""`qusema run` as a user meets it: limits that are checked, and the sandbox choice told as a
one-line notice rather than a Python warning with its source line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from qusema.cli import main
from qusema.sandbox import unavailable_reason

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def snippet(tmp_path: Path) -> Path:
    path = tmp_path / "snippet.py"
    path.write_text("import numpy\nreport('v', numpy.__version__)\n")
    return path


@pytest.mark.parametrize(("option", "value", "said"), [
    ("--timeout", "-5", "Invalid value for '--timeout': -5.0 is not in the range 0<x<=86400."),
    ("--timeout", "0", "Invalid value for '--timeout': 0.0 is not in the range 0<x<=86400."),
    ("--memory-mb", "0", "Invalid value for '--memory-mb': 0 is not in the range 1<=x<=1048576."),
    ("--memory-mb", "-512", "Invalid value for '--memory-mb': -512 is not in the range 1<=x<=1048576."),
])
def test_a_limit_that_is_no_limit_is_refused(cheap_env, snippet: Path, option: str, value: str, said: str):
    result = CliRunner().invoke(main, ["run", "--env", cheap_env.key, option, value, str(snippet)])
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == f"Error: {said}"
    assert result.stdout == ""  # refused before any sandbox ran


def test_a_small_memory_limit_is_applied(cheap_env, tmp_path: Path):
    sandbox = "bwrap" if unavailable_reason("bwrap") is None else "process"
    hungry = tmp_path / "hungry.py"
    hungry.write_text("block = bytearray(512 * 2**20)\nreport('got', len(block))\n")
    result = CliRunner().invoke(main, ["run", "--env", cheap_env.key, "--sandbox", sandbox,
                                       "--memory-mb", "64", str(hungry)])
    assert result.exit_code == 1, result.output
    assert json.loads(result.stdout)["status"] == "memory_exceeded"


def _qusema(*args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "qusema.cli", *args], cwd=REPO, env={**os.environ, **env},
                          capture_output=True, text=True, timeout=300)


def test_the_automatic_choice_is_a_one_line_notice(cheap_env, snippet: Path, tmp_path: Path):
    reason = unavailable_reason("bwrap")
    if reason is not None:
        pytest.skip(f"needs bwrap to fall back on: {reason}")
    # No docker daemon answers at this address, so the automatic choice passes docker over.
    done = _qusema("run", "--env", cheap_env.key, str(snippet), DOCKER_HOST=f"unix://{tmp_path}/no-docker.sock")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["backend"] == "bwrap"
    (line,) = done.stderr.splitlines()
    assert line.startswith("notice: using sandbox 'bwrap' (docker: no docker daemon answers: "), line
    assert line.endswith(")")


def test_the_process_sandbox_warning_is_a_notice(cheap_env, tmp_path: Path):
    done = _qusema("env", "create", "--python", str(cheap_env.python), "--sandbox", "process", "numpy",
                   QUSEMA_CACHE_DIR=str(tmp_path / "cache"))
    lines = done.stderr.splitlines()
    assert lines and lines[0].startswith("notice: sandbox 'process' "), done.stderr
    assert "confines neither the network nor the file system" in lines[0]
    # Nothing of Python's warning format: no file:line, no category, no source line.
    assert all(line.startswith(("notice: ", "Error: ")) for line in lines), done.stderr
    assert "Warning" not in done.stderr and ".py:" not in done.stderr
