"""The harness self-check for real on one cheap bug: its reproducer fails on the buggy
release and passes on the fixed one, run in the sandbox. (The full self-check over all 20
bugs is `qusema bench selfcheck`, not a test.)"""

import pytest

from qusema.bench.dataset import load_dataset
from qusema.bench.selfcheck import run_selfcheck
from qusema.sandbox import unavailable_reason

pytestmark = pytest.mark.network


def test_is_unitary_tolerance_bug_is_present_on_2_2_0_and_gone_on_2_2_1():
    dataset = load_dataset()
    bug = dataset.bug("qiskit-14107")
    # bwrap mounts the cached environment; docker would first build an image per release.
    backend = "bwrap" if unavailable_reason("bwrap") is None else "process"
    (result,) = run_selfcheck(dataset, [bug], backend=backend)
    assert result.buggy.release == "qiskit==2.2.0" and result.fixed.release == "qiskit==2.2.1"
    assert result.buggy.status == "assertion_failed", result.buggy.message
    assert "atol" in result.buggy.message
    assert result.fixed.status == "ok", result.fixed.message
    assert result.ok
    assert any(p.startswith("qiskit==2.2.0") for p in result.buggy.packages)
    assert any(p.startswith("qiskit==2.2.1") for p in result.fixed.packages)
