"""The README's commands are the ones CI and users run."""

import re
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def readme_commands() -> list[str]:
    blocks = re.findall(r"```bash\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    return [line.strip() for block in blocks for line in block.splitlines() if line.strip()]


def test_ci_runs_the_readme_test_command():
    test_command = next(c for c in readme_commands() if "pytest" in c)
    ci_lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    assert test_command in ci_lines


def test_readme_main_job_uses_commands_that_exist():
    from click.testing import CliRunner

    from qusema.cli import main

    main_job = next(c for c in readme_commands() if "qusema " in c and "pytest" not in c)
    for part in main_job.split("&&"):
        words = part.split()
        if words[0] != "qusema":
            continue
        result = CliRunner().invoke(main, [words[1], "--help"])
        assert result.exit_code == 0, result.output


def _ci_main_job(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", str(root / ".ci" / "readme-main-job.sh"), "--print"], capture_output=True,
                          text=True, timeout=60)


def test_ci_runs_the_readme_main_job_first_in_a_fresh_virtualenv():
    ci_lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    setup = next(i for i, line in enumerate(ci_lines) if "setup-sandbox.sh" in line)
    main_job = ci_lines.index("bash .ci/readme-main-job.sh")
    tests = next(i for i, line in enumerate(ci_lines) if "pytest" in line)
    assert setup < main_job < tests  # the sandbox first, then the front door, failing fast

    # a new virtualenv, and nothing installed into it but by the README's own command
    code = [line for line in (ROOT / ".ci" / "readme-main-job.sh").read_text().splitlines()
            if not line.lstrip().startswith("#")]
    assert any('python -m venv "$work/venv"' in line for line in code)
    assert not any(re.search(r"\bpip3?\b", line) for line in code)

    readme_main_job = readme_commands()[0]
    printed = _ci_main_job(ROOT)
    assert printed.returncode == 0, printed.stderr
    assert readme_main_job.startswith("pip install -e . && qusema audit ")
    assert "--time-budget 10" in readme_main_job
    assert printed.stdout.strip() == readme_main_job.replace("--time-budget 10", "--time-budget 1")


def test_ci_main_job_is_read_from_the_readme_at_run_time(tmp_path):
    (tmp_path / ".ci").mkdir()
    shutil.copy(ROOT / ".ci" / "readme-main-job.sh", tmp_path / ".ci")
    (tmp_path / "README.md").write_text("# X\n\n```bash\npip install -e . && qusema audit pennylane==0.45.1 "
                                        "--time-budget 25 --workers 1\n```\n\n```bash\npython -m pytest\n```\n")
    printed = _ci_main_job(tmp_path)
    assert printed.returncode == 0, printed.stderr
    assert printed.stdout.strip() == "pip install -e . && qusema audit pennylane==0.45.1 --time-budget 1 --workers 1"

    # no budget in the README's main job: CI refuses rather than run an audit of the default length
    (tmp_path / "README.md").write_text("```bash\npip install -e . && qusema audit qiskit==2.4.1\n```\n")
    refused = _ci_main_job(tmp_path)
    assert refused.returncode != 0 and "--time-budget" in refused.stderr
