#!/usr/bin/env bash
# The README's main job, run as a user on a fresh machine runs it: the command of README.md's
# first ```bash block, read from the README here at run time (so the two cannot drift), with only
# its time budget cut to one minute; in a new virtualenv (outside the tree) that gets nothing but
# what the command's own `pip install -e .` installs, no extras. CI's `.[test]` install brings
# numpy, qiskit and more, so only this shows that the front door opens.
# It runs on a copy of this tree (tracked and untracked files, not ignored ones): the audit writes
# its run under ./reports, and a second run with the same settings in the same tree would be refused.
# Fails when the command fails. `--print` prints the command and does nothing else.
set -euo pipefail
cd "$(dirname "$0")/.."

main_job="$(python - <<'EOF'
import re
import sys
from pathlib import Path

blocks = re.findall(r"```bash\n(.*?)```", Path("README.md").read_text(), re.S)
lines = [line.strip() for line in blocks[0].splitlines() if line.strip()] if blocks else []
if len(lines) != 1:
    sys.exit(f"README.md: the first bash block should hold the main job, one command; it holds {lines!r}")
command, budgets = re.subn(r"--time-budget[ =]\S+", "--time-budget 1", lines[0])
if budgets != 1:
    sys.exit(f"README.md: the main job should set --time-budget once (CI cuts it to 1 minute): {lines[0]!r}")
print(command)
EOF
)"
if [ "${1:-}" = "--print" ]; then
    printf '%s\n' "$main_job"
    exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python - "$work/qusema" <<'EOF'
import os
import shutil
import subprocess
import sys

dest = sys.argv[1]
listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                        capture_output=True, check=True).stdout
for name in filter(None, (os.fsdecode(n) for n in listed.split(b"\0"))):
    if os.path.isfile(name) or os.path.islink(name):  # a tracked file deleted in the tree is left out
        os.makedirs(os.path.join(dest, os.path.dirname(name)), exist_ok=True)
        shutil.copy2(name, os.path.join(dest, name), follow_symlinks=False)
EOF
python -m venv "$work/venv"
echo "[ci] README main job in a fresh virtualenv ($work/venv): $main_job" >&2
started=$SECONDS
(
    cd "$work/qusema"
    export VIRTUAL_ENV="$work/venv" PATH="$work/venv/bin:$PATH"
    unset PYTHONPATH PYTHONHOME
    bash -euo pipefail -c "$main_job"
)
echo "[ci] README main job passed in $((SECONDS - started)) s" >&2
