"""Statuses, warm-worker isolation, cold runs, the host's guard, and a real qiskit."""

from __future__ import annotations

import os
import signal
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from qusema.sandbox import ColdSandbox, Limits, Status, WarmSandbox
from qusema.sandbox.protocol import BackendUnavailable
from sandbox_checks import assert_next_snippet_unaffected, describe
from sandbox_checks import TEST_LIMITS, env_for


@pytest.mark.parametrize("code, status, exception_type", [
    ("report('x', 1)", Status.OK, None),
    ("assert 1 + 1 == 3, 'arithmetic'", Status.ASSERTION_FAILED, "AssertionError"),
    ("def f():\n    raise ValueError('bad input')\nf()", Status.EXCEPTION, "ValueError"),
    ("import time\ntime.sleep(60)", Status.TIMEOUT, None),
    ("x = bytearray(10 * 2**30)", Status.MEMORY_EXCEEDED, "MemoryError"),
    ("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)", Status.KILLED, None),
])
def test_every_status_is_reachable(box, code, status, exception_type):
    result = box.run(code, filename="case.py", limits=Limits(timeout_s=2.0, memory_bytes=1024**3))
    assert result.status is status, describe(result)
    assert (result.exception.type if result.exception else None) == exception_type
    if status is Status.KILLED:
        assert result.kill_reason == "signal SIGKILL"


def test_exception_carries_message_and_snippet_traceback(box):
    result = box.run("def f():\n    raise ValueError('bad input')\nf()", filename="case.py")
    assert result.exception.message == "bad input"
    assert 'File "case.py", line 2, in f' in result.exception.traceback
    assert "raise ValueError('bad input')" in result.exception.traceback
    assert "snippet_runner" not in result.exception.traceback


def test_reports_stdout_and_stderr_are_kept_apart(box):
    result = box.run(
        "import sys, numpy\nprint('to stdout')\nprint('to stderr', file=sys.stderr)\n"
        "report('complex', 1 - 2j)\nreport('array', numpy.array([[0, 1], [1, 0]]))\n"
        "report('nan', float('nan'))\n")
    assert result.status is Status.OK, describe(result)
    assert result.stdout == "to stdout\n"
    assert result.stderr == "to stderr\n"
    assert result.reports == {
        "complex": {"complex": [1.0, -2.0]},
        "array": {"ndarray": [[0, 1], [1, 0]], "dtype": "int64", "shape": [2, 2]},
        "nan": {"float": "nan"},
    }


def test_a_snippet_cannot_forge_a_result_by_printing(box):
    forged = '{"event": "result", "result": {"status": "ok", "reports": {"forged": 1}}}'
    result = box.run(f"print({forged!r})\nraise RuntimeError('real outcome')")
    assert result.status is Status.EXCEPTION
    assert "forged" not in result.reports
    assert result.stdout == forged + "\n"


def test_warm_worker_isolates_snippets(box):
    first = box.run(
        "import os, sys, numpy, json, builtins\n"
        "numpy.LEAKED = 1\njson.dumps = None\nbuiltins.LEAKED = 1\nos.environ['LEAKED'] = '1'\n"
        "sys.path.append('/leaked')\nopen('/tmp/leaked', 'w').write('x') if os.path.isdir('/tmp') else None\n"
        "LEAKED_GLOBAL = 1\nreport('pid', os.getpid())\n")
    assert first.status is Status.OK, describe(first)
    second = box.run(
        "import os, sys, numpy, json, builtins\n"
        "report('numpy', hasattr(numpy, 'LEAKED'))\nreport('json', json.dumps is None)\n"
        "report('builtins', hasattr(builtins, 'LEAKED'))\nreport('environ', 'LEAKED' in os.environ)\n"
        "report('path', '/leaked' in sys.path)\nreport('global', 'LEAKED_GLOBAL' in globals())\n"
        "report('pid', os.getpid())\n")
    assert second.status is Status.OK, describe(second)
    pid = second.reports.pop("pid")
    assert pid != first.reports["pid"]  # a fresh fork per snippet
    assert set(second.reports.values()) == {False}, second.reports
    third = box.run("import os\nreport('file', os.path.exists('/tmp/leaked'))")
    if box.backend.name != "process":  # the process backend's /tmp is the host's
        assert third.reports == {"file": False}


def test_warm_worker_preloaded_numpy_once(box):
    info = box.worker.info
    assert info.preloaded == ["numpy"]
    assert info.preload_errors == {}


def test_cold_run_gives_the_same_record(backend, request):
    cheap_env = env_for(backend, request)
    cold = ColdSandbox(backend, cheap_env, limits=TEST_LIMITS)
    result = cold.run("import sys, numpy\nreport('v', numpy.__version__)\nassert False, 'cold'")
    assert result.status is Status.ASSERTION_FAILED, describe(result)
    assert result.warm is False
    assert result.reports == {"v": "2.2.6"}


def test_host_kills_a_sandbox_that_stops_answering(backend, request):
    cheap_env = env_for(backend, request)
    sandbox = WarmSandbox(backend, cheap_env, preload=[], limits=Limits(timeout_s=1.0))
    try:
        sandbox.start()
        worker_processes = sandbox.processes()
        # A stopped worker stands for any wedged sandbox: only the host's guard can end it.
        # (From inside, a docker worker cannot even be stopped: it is its namespace's init.)
        for pid in worker_processes:
            os.kill(pid, signal.SIGSTOP)
        result = sandbox.run("report('never', True)")
        assert result.status is Status.TIMEOUT, describe(result)
        assert "did not answer" in result.kill_reason
        assert not sandbox.worker.running
        for pid in worker_processes:
            assert not _alive(pid), f"pid {pid} survived the kill"
        assert_next_snippet_unaffected(sandbox)  # started again transparently
    finally:
        sandbox.close()


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[1][0] != "Z"
    except FileNotFoundError:
        return False


def test_real_qiskit_in_every_backend(backend, qiskit_env):
    try:
        backend.prepare(qiskit_env)
    except BackendUnavailable as refused:
        pytest.skip(f"sandbox {backend.name} refuses this environment: {refused}")
    with WarmSandbox(backend, qiskit_env, limits=TEST_LIMITS) as sandbox:
        sandbox.start()
        assert sandbox.worker.info.preloaded[0] == "qiskit"
        assert sandbox.worker.info.preload_errors == {}
        result = sandbox.run(
            "import qiskit\nfrom qiskit.quantum_info import Statevector\n"
            "qc = qiskit.QuantumCircuit(2)\nqc.h(0)\nqc.cx(0, 1)\n"
            "report('version', qiskit.__version__)\n"
            "report('probabilities', Statevector(qc).probabilities_dict())\n"
            "t = qiskit.transpile(qc, basis_gates=['rz', 'sx', 'cx'], optimization_level=3)\n"
            "report('ops', sorted(t.count_ops()))\n")
    assert result.status is Status.OK, describe(result)
    assert result.reports["version"] == "2.4.1"
    probabilities = result.reports["probabilities"]
    assert set(probabilities) == {"00", "11"}
    assert all(abs(p - 0.5) < 1e-12 for p in probabilities.values())
    assert set(result.reports["ops"]) <= {"rz", "sx", "cx"}


def test_a_worker_started_by_a_thread_outlives_that_thread(backend, request):
    cheap_env = env_for(backend, request)
    # An audit's checks run on pool threads, and a worker is started (or restarted) by the
    # first of them to use it. bwrap's --die-with-parent is a parent-death signal, which
    # Linux sends when the *thread* that started the process ends: the pool closing
    # between the check round and the deepened round killed that worker while idle, and
    # the next check was lost as "the sandbox died".
    sandbox = WarmSandbox(backend, cheap_env, preload=[], limits=TEST_LIMITS)
    try:
        with ThreadPoolExecutor(max_workers=1) as pool:
            first = pool.submit(sandbox.run, "report('x', 1)").result()
        assert first.status is Status.OK, describe(first)
        time.sleep(0.5)  # the signal is delivered as the thread exits
        second = sandbox.run("report('x', 2)")
        assert second.status is Status.OK, describe(second)
        assert second.reports == {"x": 2}
    finally:
        sandbox.close()
