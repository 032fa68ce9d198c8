"""An environment built from a library checkout: cached by commit, refused when the
checkout has uncommitted changes, and what runs in the sandbox is the committed code."""

import subprocess
from pathlib import Path

import pytest

from qusema.sandbox import open_sandbox, Status
from qusema.targets.environments import EnvironmentStore, TargetEnvironmentError

pytestmark = pytest.mark.network  # the build backend (setuptools) comes from the package index


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                   env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
                        "GIT_COMMITTER_EMAIL": "t@t", "PATH": "/usr/bin:/bin"})


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    repo = tmp_path / "tinyq"
    (repo / "tinyq").mkdir(parents=True)
    (repo / "pyproject.toml").write_text('[build-system]\nrequires = ["setuptools>=61"]\n'
                                         'build-backend = "setuptools.build_meta"\n\n'
                                         '[project]\nname = "tinyq"\nversion = "0.1"\n')
    (repo / "tinyq" / "__init__.py").write_text("PHASE = 1\n")
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "first")
    return repo


def test_checkout_environment_is_cached_by_commit_and_runs_the_committed_code(checkout: Path, tmp_path: Path):
    store = EnvironmentStore(root=tmp_path / "envs")
    first = store.from_checkout(checkout)
    assert first.checkout_commit and first.source == "checkout"
    assert store.from_checkout(checkout).key == first.key  # reused, not rebuilt
    with open_sandbox(first) as box:
        result = box.run("import tinyq\nreport('phase', tinyq.PHASE)")
    assert result.status == Status.OK and result.reports["phase"] == 1

    (checkout / "tinyq" / "__init__.py").write_text("PHASE = 2\n")
    with pytest.raises(TargetEnvironmentError, match="uncommitted changes"):
        store.from_checkout(checkout)
    git(checkout, "commit", "-q", "-am", "second")
    second = store.from_checkout(checkout)
    assert second.key != first.key
    with open_sandbox(second) as box:
        assert box.run("import tinyq\nreport('phase', tinyq.PHASE)").reports["phase"] == 2
