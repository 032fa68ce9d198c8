"""The law tests' runner: every snippet starts from the freshly imported release, as a new
interpreter would, though all of them fork from one server (fork_server.py)."""

import subprocess

import pytest

PLANT = ("import json\nfrom qiskit import QuantumCircuit\n"
         "QuantumCircuit.depth = lambda self, *a, **k: -1\n"
         "print(json.dumps(QuantumCircuit(1).depth()))")
DEPTH = "import json\nfrom qiskit import QuantumCircuit\nprint(json.dumps(QuantumCircuit(1).depth()))"


def test_a_patch_planted_by_one_snippet_does_not_reach_the_next(qiskit_runtime):
    assert qiskit_runtime(PLANT) == -1
    assert qiskit_runtime(DEPTH) == 0


def test_a_snippet_past_its_timeout_is_killed_and_the_next_one_runs(qiskit_runtime):
    with pytest.raises(subprocess.TimeoutExpired):
        qiskit_runtime("import time\ntime.sleep(60)", timeout=1)
    assert qiskit_runtime(DEPTH) == 0


def test_a_failing_snippet_reports_its_traceback(qiskit_runtime):
    with pytest.raises(AssertionError, match="ZeroDivisionError"):
        qiskit_runtime("1 / 0")
    with pytest.raises(AssertionError):
        qiskit_runtime("import sys\nsys.exit(3)")
