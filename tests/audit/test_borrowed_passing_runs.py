"""A subject that fails on every input leaves its localization no passing run: every line
the failure ran ties at the top score. On PennyLane 0.45.0 a Hamiltonian with like terms
hashes unlike the equal one with the terms combined, for every coefficient drawn; the
audit then compares the failure with the hash law's other subjects."""

import json
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.network


def test_a_subject_failing_everywhere_is_localized_against_the_laws_other_subjects(tmp_path: Path):
    out = tmp_path / "reports"
    done = subprocess.run([sys.executable, "-m", "qusema.cli", "audit", "pennylane==0.45.0", "--workers", "1",
                           "--out", str(out), "--deepen", "0", "--contracts", "pennylane.robust.hash-agrees-with-eq",
                           "--focus", "pennylane.ops.op_math.linear_combination.LinearCombination.__init__"],
                          capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stderr[-3000:]
    (run_dir,) = (out / "pennylane-0.45.0").iterdir()
    findings = json.loads((run_dir / "findings.json").read_text())["findings"]
    like_terms = [f for f in findings if f["hypothesis"]["details"]["subject"] == "hamiltonian-like-terms"]
    assert like_terms, [f["hypothesis"]["details"]["subject"] for f in findings]
    method = like_terms[0]["root_cause"]["method"]
    counts = re.search(r"(\d+) failing and (\d+) passing runs", method)
    lent = re.search(r"(\d+) passing run\(s\) lent by the law's other subjects \(([^)]*)\)", method)
    assert counts and lent, method
    # Every passing run is a lent one (the subject has none of its own), and each counted
    # passing run passed when traced.
    assert int(counts.group(2)) == int(lent.group(1)) >= 1, method
    # The lenders are subjects on which the law held in this very run.
    with sqlite3.connect(run_dir / "run.sqlite") as conn:
        held = {json.loads(result)["subject"] for _, result in conn.execute("SELECT item, result FROM work")
                if json.loads(result)["outcome"] == "holds"}
    assert set(lent.group(2).split(", ")) <= held, (lent.group(2), held)
    # Without lending every line the failure ran tied (74 segments on this release).
    tied = re.search(r"(\d+) segments tied", method)
    assert tied is None or int(tied.group(1)) < 30, method
