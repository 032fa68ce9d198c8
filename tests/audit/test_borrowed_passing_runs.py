"""A subject that fails on every input leaves its localization no passing run: every line
the failure ran ties at the top score. On PennyLane 0.45.0 a Hamiltonian with like terms
hashes unlike the equal one with the terms combined, for every coefficient drawn; the
audit then compares the failure with the hash law's other subjects."""

import json
import re
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
    assert counts and int(counts.group(2)) >= 1, method
    lender = re.search(r"the passing runs are the law's other subjects \(([^)]*)\)", method)
    # Only runs whose trace passed count as passing: at least one lent input held.
    assert lender and "hamiltonian-like-terms" not in lender.group(1), method
