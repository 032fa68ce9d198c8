"""Issue 30: a snippet attacks the machinery that judges it. Each attack is tried for real on
every backend this machine has; the verdicts of the attacking snippet and of the snippets
after it must stay their own."""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from qusema.sandbox import Status, WarmSandbox
from qusema.sandbox.cgroups import CGROUP_ROOT, SandboxCgroup
from qusema.sandbox.pipe_transport import _descendants
from sandbox_checks import TEST_LIMITS, assert_next_snippet_unaffected, describe, env_for

# Writes a forged "ok" result into every pipe the worker (its parent) holds open for
# writing, then fails for real. Reaching the channel is what must be impossible.
FORGE = textwrap.dedent("""
    import json, os
    line = (json.dumps({"event": "result", "nonce": None, "result": {
        "status": "ok", "exception": None, "reports": {"forged": True}}}) + "\\n").encode()
    parent, reached = os.getppid(), []
    try:
        fds = os.listdir("/proc/%d/fd" % parent)
    except OSError:
        fds = []
    for fd in fds:
        try:
            w = os.open("/proc/%d/fd/%s" % (parent, fd), os.O_WRONLY | os.O_NONBLOCK)
            os.write(w, line)
            reached.append(fd)
        except OSError:
            pass
    print("reached", reached)
    assert False, "the real verdict"
""")

PTRACE = textwrap.dedent("""
    import ctypes, os
    libc = ctypes.CDLL(None, use_errno=True)
    PTRACE_ATTACH, PTRACE_DETACH = 16, 17
    parent = os.getppid()
    attached = libc.ptrace(PTRACE_ATTACH, parent, None, None) == 0
    if attached:
        libc.ptrace(PTRACE_DETACH, parent, None, None)
    try:
        open("/proc/%d/mem" % parent, "rb").close()
        mem = True
    except OSError:
        mem = False
    report("attached", attached)
    report("mem", mem)
""")


def test_a_forged_result_line_never_becomes_a_verdict(backend, box):
    forged = box.run(FORGE)
    # Contained: the snippet reaches nothing and fails with its own assertion. Were the
    # channel reachable, the nonce check would make the run inconclusive (killed).
    assert forged.status in (Status.ASSERTION_FAILED, Status.KILLED), describe(forged)
    assert forged.reports.get("forged") is None
    if forged.status is Status.ASSERTION_FAILED:
        assert "reached []" in forged.stdout, describe(forged)
    # Later snippets get their own verdicts: a pass is a pass, a failure a failure.
    passing = box.run("report('mine', 1)")
    failing = box.run("assert False, 'second'")
    assert passing.status is Status.OK and passing.reports == {"mine": 1}, describe(passing)
    assert failing.status is Status.ASSERTION_FAILED, describe(failing)
    assert failing.exception.message == "second"


def test_b_a_snippet_cannot_ptrace_or_read_its_worker(backend, box):
    result = box.run(PTRACE)
    assert result.status is Status.OK, describe(result)
    assert result.reports == {"attached": False, "mem": False}
    assert_next_snippet_unaffected(box)


def test_c_a_snippet_cannot_leave_its_cgroup(backend, box):
    # Every place a process could move itself to: the hierarchy roots the host sees.
    targets = [str(CGROUP_ROOT / "cgroup.procs"), str(CGROUP_ROOT / "pids" / "cgroup.procs"),
               str(CGROUP_ROOT / "memory" / "cgroup.procs")]
    result = box.run(
        "import os\nmoved = []\n"
        f"for path in {targets!r}:\n"
        "    try:\n"
        "        with open(path, 'w') as f:\n"
        "            f.write(str(os.getpid()))\n"
        "        moved.append(path)\n"
        "    except OSError:\n"
        "        pass\n"
        "report('moved', moved)\n")
    assert result.status is Status.OK, describe(result)
    assert result.reports == {"moved": []}
    assert_next_snippet_unaffected(box)


def test_d_the_target_environment_is_read_only(backend, box):
    env = box.worker.env
    site = env.prefix / "lib" / f"python{env.python_version.rsplit('.', 1)[0]}" / "site-packages"
    token = secrets.token_hex(6)
    planted = site / f"qusema_planted_{token}.py"
    numpy_init = site / "numpy" / "__init__.py"
    before = numpy_init.read_bytes()
    result = box.run(
        # Opening the library's own file for append is the proof of writability; nothing
        # is written to it, so a regression fails this test without poisoning the shared
        # environment (whose files the package cache may hard-link).
        "import os\nchanged = []\n"
        f"for path, mode in (({str(planted)!r}, 'w'), ({str(numpy_init)!r}, 'a')):\n"
        "    try:\n"
        "        with open(path, mode) as f:\n"
        "            f.write('' if mode == 'a' else '# planted')\n"
        "        changed.append(path)\n"
        "    except OSError:\n"
        "        pass\n"
        "report('changed', changed)\n")
    assert result.status is Status.OK, describe(result)
    assert result.reports == {"changed": []}
    assert not planted.exists()
    assert numpy_init.read_bytes() == before
    assert_next_snippet_unaffected(box)


def test_e_shared_memory_files_do_not_outlive_the_snippet(backend, box):
    name = f"qusema-shm-{secrets.token_hex(6)}"
    made = box.run(f"open('/dev/shm/{name}', 'w').write('x')\nreport('made', True)")
    assert made.status is Status.OK, describe(made)
    later = box.run(f"import os\nreport('seen', os.path.exists('/dev/shm/{name}'))")
    assert later.reports == {"seen": False}, "a /dev/shm file of one snippet reached the next"
    assert not Path(f"/dev/shm/{name}").exists(), "a /dev/shm file reached the host"


def _dead_pid() -> int:
    finished = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                              capture_output=True, text=True, check=True)
    return int(finished.stdout)


def test_f_leftovers_of_a_dead_run_are_swept(backend, request, tmp_path):
    dead = _dead_pid()
    folder = Path("/tmp") / f"qusema-{backend.name}-{dead}-leftover"
    folder.mkdir()
    (folder / "work").mkdir()
    stray = None
    group = None
    if SandboxCgroup.available():
        # A dead run's cgroup with a process still in it (what kill -9 of an audit leaves).
        token = str(10**6 + secrets.randbelow(10**6))
        probe = SandboxCgroup.create(pids_max=16, memory_bytes=64 * 1024**2)
        group = probe.dirs[0].parent / f"qusema-{dead}-leftover"
        probe.remove()
        group.mkdir()
        stray = subprocess.Popen(["sleep", token], start_new_session=True,
                                 preexec_fn=SandboxCgroup([group], [group / "cgroup.procs"]).enter)
    env = env_for(backend, request)
    backend.prepare(env)
    with WarmSandbox(backend, env, preload=[], limits=TEST_LIMITS) as sandbox:
        assert_next_snippet_unaffected(sandbox)
    assert not folder.exists(), "a dead run's work folder was not swept"
    if stray is not None:
        assert stray.wait(timeout=10) == -signal.SIGKILL
        assert not group.exists(), "a dead run's cgroup was not swept"


HOST = textwrap.dedent("""
    import sys, warnings
    warnings.simplefilter("ignore")
    from qusema.sandbox import WarmSandbox, Limits, get_backend
    from qusema.targets.environments import EnvironmentStore
    env = EnvironmentStore().adopt_interpreter(sys.argv[2], "numpy==2.2.6") if sys.argv[2] != "-" \\
        else EnvironmentStore().create("numpy==2.2.6")
    backend = get_backend(sys.argv[1])
    backend.prepare(env)
    box = WarmSandbox(backend, env, preload=[], limits=Limits(timeout_s=120))
    box.start()
    print("started", flush=True)
    box.run("import time\\ntime.sleep(%s)" % sys.argv[3])
""")


def test_g_kill_9_of_the_host_ends_the_worker_and_the_snippet(backend, request, tmp_path):
    if backend.name == "docker":
        pytest.skip("docker containers outlive their client by design; the daemon holds them")
    env = env_for(backend, request)
    token = "300"
    script = tmp_path / "host.py"
    script.write_text(HOST)
    adopted = str(env.python) if env.source == "existing-interpreter" else "-"
    repository = Path(__file__).resolve().parents[2]
    host = subprocess.Popen([sys.executable, str(script), backend.name, adopted, token],
                            stdout=subprocess.PIPE, text=True, cwd=repository,
                            env={**os.environ, "PYTHONPATH": str(repository)})
    try:
        assert host.stdout.readline().strip() == "started"
        time.sleep(1.5)  # the snippet is running its sleep now
        workers = _processes_under(host.pid)
        # The worker (and bwrap's init) and the snippet's own process at least.
        assert len(workers) >= 2, workers
    finally:
        host.kill()
        host.wait()
    deadline = time.monotonic() + 10
    while [p for p in workers if _alive(p)] and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [p for p in workers if _alive(p)] == [], "sandbox processes outlived kill -9 of the host"


def _processes_under(root: int) -> set[int]:
    return _descendants(root)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[1][0] != "Z"
    except FileNotFoundError:
        return False
