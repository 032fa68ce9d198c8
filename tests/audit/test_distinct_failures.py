"""A law broken in two ways on one subject gives two findings, not one: on PennyLane 0.45.0,
givens_decomposition rebuilds a real reflection (determinant -1) as another matrix, and returns
NaN phases for a unitary whose entries to be zeroed already are zero. The first failure found
used to hide the second. (This test once used MultiControlledX.map_wires; a review showed both of
its failures were the documented canonicalisation into CNOT/Toffoli, and the law no longer
reports them.)"""

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.network


def test_each_distinct_failure_of_one_check_is_its_own_finding(tmp_path: Path):
    out = tmp_path / "reports"
    done = subprocess.run([sys.executable, "-m", "qusema.cli", "audit", "pennylane==0.45.0", "--workers", "1",
                           "--out", str(out), "--examples", "25", "--deepen", "0",
                           "--contracts", "pennylane.qchem.givens-decomposition-reconstructs",
                           "--focus", "pennylane.math.decomposition.givens_decomposition"],
                          capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stderr[-3000:]
    (run_dir,) = (out / "pennylane-0.45.0").iterdir()
    with sqlite3.connect(run_dir / "run.sqlite") as conn:
        violated = [item for item, result in conn.execute("SELECT item, result FROM work")
                    if json.loads(result)["outcome"] == "violated"]
    assert violated == ["pennylane.qchem.givens-decomposition-reconstructs::givens_decomposition"]
    findings = json.loads((run_dir / "findings.json").read_text())["findings"]
    messages = [f["hypothesis"]["predicted_behaviour"] for f in findings]
    assert len(messages) == 2, messages
    assert sum("differs from U" in m for m in messages) == 1, messages
    assert sum("is not a diagonal of unit-modulus phases" in m for m in messages) == 1, messages
    for finding in findings:  # each one stands alone: its reproducer fails on the release
        rerun = subprocess.run([sys.executable, "-m", "qusema.cli", "run", "--env", "pennylane==0.45.0", "--cold",
                                "--timeout", "300", "-"], input=finding["hypothesis"]["test_code"],
                               capture_output=True, text=True, timeout=600)
        assert json.loads(rerun.stdout)["status"] == "assertion_failed", finding["id"]
