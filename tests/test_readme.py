"""The README's commands are the ones CI and users run."""

import re
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
