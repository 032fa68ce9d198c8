"""A release or a library the package index does not have, asked for by any command: one
line naming the closest releases, exit status 2, and nothing left in the environments folder.

The index is a real one on 127.0.0.1 (local_index.py) that both uv, which builds
environments, and qusema's own index client are pointed at.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from local_index import LocalIndex, make_wheel

REPO = Path(__file__).resolve().parents[2]
RELEASES = ("1.0", "1.1", "2.0")


def _wheel(directory: Path, version: str) -> Path:
    dist = f"qfake-{version}.dist-info"
    return make_wheel(directory, f"qfake-{version}-py3-none-any.whl", {
        "qfake/__init__.py": f"VERSION = {version!r}\n",
        f"{dist}/METADATA": f"Metadata-Version: 2.1\nName: qfake\nVersion: {version}\n",
        f"{dist}/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        f"{dist}/RECORD": "",
    })


@pytest.fixture
def qfake_index(local_index: LocalIndex, tmp_path: Path) -> LocalIndex:
    for version in RELEASES:
        local_index.publish("qfake", _wheel(tmp_path, version))
    return local_index


def _qusema(index: LocalIndex, cache: Path, *args: str) -> subprocess.CompletedProcess:
    # The real command line, as a user runs it: a fresh process, its stderr as a terminal shows it.
    env = dict(os.environ, QUSEMA_CACHE_DIR=str(cache), QUSEMA_INDEX_URL=index.url, UV_DEFAULT_INDEX=index.url)
    env.pop("UV_INDEX_URL", None)
    return subprocess.run([sys.executable, "-m", "qusema.cli", *args], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300)


COMMANDS = {
    "env create": ("env", "create"),
    "run --env": ("run", "--env"),
    "audit": ("audit",),
}


def _argv(command: str, target: str, tmp_path: Path) -> list[str]:
    snippet = tmp_path / "snippet.py"
    snippet.write_text("print('never runs')\n")
    tail = {"run --env": [target, str(snippet)], "audit": [target, "--out", str(tmp_path / "reports")]}
    return [*COMMANDS[command], *tail.get(command, [target])]


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_an_unknown_release_is_one_line_with_the_closest(qfake_index: LocalIndex, tmp_path: Path, command: str):
    cache = tmp_path / "cache"
    done = _qusema(qfake_index, cache, *_argv(command, "qfake==1.5", tmp_path))
    assert done.returncode == 2, done.stderr
    assert done.stderr == f"Error: qfake has no release 1.5 on {qfake_index.url}; closest available: 1.0, 1.1, 2.0\n"
    assert done.stdout == ""
    assert list((cache / "envs").iterdir()) == []  # no venv, no .lock file
    assert not (tmp_path / "reports").exists()  # the audit left no run behind either


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_an_unknown_library_is_one_line(qfake_index: LocalIndex, tmp_path: Path, command: str):
    cache = tmp_path / "cache"
    done = _qusema(qfake_index, cache, *_argv(command, "notalib==1.0", tmp_path))
    assert done.returncode == 2, done.stderr
    assert done.stderr == f"Error: no project named 'notalib' on the package index {qfake_index.url}\n"
    assert list((cache / "envs").iterdir()) == []


def test_index_says_the_same_with_the_same_status(qfake_index: LocalIndex, tmp_path: Path):
    done = _qusema(qfake_index, tmp_path / "cache", "index", "qfake==1.5", "--quiet")
    assert done.returncode == 2
    assert done.stderr == f"Error: qfake has no release 1.5 on {qfake_index.url}; closest available: 1.0, 1.1, 2.0\n"
