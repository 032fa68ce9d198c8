"""Issue 3, 'Must show': each misbehaviour is contained, reported with the right status,
and leaves the host clean, on every backend that claims to contain it."""

from __future__ import annotations

import secrets
import socket
import threading
from pathlib import Path

import pytest

from qusema.sandbox import Containment, Limits, Status
from sandbox_checks import (
    assert_next_snippet_unaffected,
    describe,
    host_processes_with,
    settle_processes,
)
from sandbox_checks import HOST_SECRET


# What a confined snippet sees when it tries the network: no route, no resolver.
NETWORK_ERRORS = {"OSError", "ConnectionRefusedError", "TimeoutError", "socket.gaierror",
                  "ConnectionResetError"}


def require_claim(backend, claim: Containment) -> None:
    if claim not in backend.claims():
        pytest.skip(f"sandbox {backend.name} does not claim to contain {claim.value}")


class _Listener:
    """A TCP server on the host's loopback that records whether anyone connected."""

    def __init__(self) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.server.settimeout(0.2)
        self.port = self.server.getsockname()[1]
        self.connected = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.server.accept()
            except (TimeoutError, socket.timeout):
                continue
            self.connected.set()
            conn.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self.server.close()


def test_a_network_host_loopback(backend, box):
    require_claim(backend, Containment.NETWORK)
    listener = _Listener()
    try:
        # The listener is reachable from the host itself, so a failure inside means confinement.
        socket.create_connection(("127.0.0.1", listener.port), timeout=2).close()
        assert listener.connected.wait(2)
        listener.connected.clear()
        result = box.run(f"import socket\nsocket.create_connection(('127.0.0.1', {listener.port}), timeout=3)")
    finally:
        listener.close()
    assert result.status is Status.EXCEPTION, describe(result)
    assert result.exception.type in NETWORK_ERRORS, describe(result)
    assert not listener.connected.is_set()
    assert_next_snippet_unaffected(box)


def test_a_network_outside_address(backend, box):
    require_claim(backend, Containment.NETWORK)
    address = socket.getaddrinfo("pypi.org", 443, socket.AF_INET, socket.SOCK_STREAM)[0][4][0]
    socket.create_connection((address, 443), timeout=10).close()  # the host can
    result = box.run(f"import socket\nsocket.create_connection(({address!r}, 443), timeout=3)")
    assert result.status is Status.EXCEPTION, describe(result)
    assert result.exception.type in NETWORK_ERRORS, describe(result)
    dns = box.run("import socket\nsocket.getaddrinfo('pypi.org', 443)")
    assert dns.status is Status.EXCEPTION, describe(dns)
    assert dns.exception.type in NETWORK_ERRORS, describe(dns)
    assert_next_snippet_unaffected(box)


def test_b_read_outside_the_environment(backend, box):
    require_claim(backend, Containment.HOST_FILES_READ)
    canary_text = "canary-" + secrets.token_hex(8)
    canary = Path.home() / f".qusema-canary-{secrets.token_hex(4)}"
    canary.write_text(canary_text)
    try:
        home = box.run(f"print(open({str(canary)!r}).read())")
        shadow = box.run("print(open('/etc/shadow').read())")
        listing = box.run(f"import os\nprint(os.listdir({str(Path.home())!r}))")
    finally:
        canary.unlink()
    for result in (home, shadow):
        assert result.status is Status.EXCEPTION, describe(result)
        assert result.exception.type in ("FileNotFoundError", "PermissionError"), describe(result)
    assert canary_text not in home.stdout + home.stderr
    # The home may exist as the empty skeleton the binds need, never with its contents.
    assert canary.name not in listing.stdout
    assert_next_snippet_unaffected(box)


def test_c_write_outside_the_work_dir(backend, box, cheap_env):
    require_claim(backend, Containment.HOST_FILES_WRITE)
    token = secrets.token_hex(6)
    site = cheap_env.prefix / "lib" / f"python{cheap_env.python_version.rsplit('.', 1)[0]}" / "site-packages"
    into_env = box.run(f"open({str(site / ('evil_' + token + '.py'))!r}, 'w').write('x')")
    assert into_env.status is Status.EXCEPTION, describe(into_env)
    targets = [Path.home() / f"qusema-escape-{token}", Path("/usr") / f"qusema-escape-{token}",
               Path("/") / f"qusema-escape-{token}", Path("/tmp") / f"qusema-escape-{token}",
               cheap_env.prefix / f"qusema-escape-{token}"]
    attempts = box.run(
        "written = []\n"
        f"for path in {[str(t) for t in targets]!r}:\n"
        "    try:\n"
        "        open(path, 'w').write('escaped')\n"
        "        written.append(path)\n"
        "    except OSError:\n"
        "        pass\n"
        "report('written', written)\n"
    )
    assert attempts.status is Status.OK, describe(attempts)
    # Only the sandbox's private /tmp may take a file, and it must not be the host's.
    assert set(attempts.reports["written"]) <= {f"/tmp/qusema-escape-{token}"}
    for target in targets:
        assert not target.exists(), f"{target} was written on the host"
    assert not (site / f"evil_{token}.py").exists()
    later = box.run(f"import os\nreport('seen', os.path.exists('/tmp/qusema-escape-{token}'))")
    assert later.reports == {"seen": False}, "a file from one snippet reached the next"
    assert_next_snippet_unaffected(box)


def test_d_fork_bomb(backend, box):
    require_claim(backend, Containment.FORK_BOMB)
    before = box.processes()
    result = box.run("import os\nwhile True:\n    os.fork()\n", limits=Limits(timeout_s=10.0, pids=128))
    # The pids cap makes fork fail; the first child to see it reports, the rest are killed.
    assert result.status in (Status.EXCEPTION, Status.TIMEOUT), describe(result)
    if result.status is Status.EXCEPTION:
        assert result.exception.type == "BlockingIOError", describe(result)
    assert result.leftover_processes > 0
    assert settle_processes(box, before) == before
    assert_next_snippet_unaffected(box)


def test_e_allocate_10_gb(backend, box):
    require_claim(backend, Containment.MEMORY)
    for code in ("x = bytearray(10 * 2**30)",
                 "import numpy\nx = numpy.ones(10 * 2**30 // 8)"):
        result = box.run(code)
        assert result.status is Status.MEMORY_EXCEEDED, describe(result)
    assert_next_snippet_unaffected(box)


def test_f_loop_forever(backend, box):
    require_claim(backend, Containment.INFINITE_LOOP)
    result = box.run("while True:\n    pass\n", limits=Limits(timeout_s=2.0))
    assert result.status is Status.TIMEOUT, describe(result)
    assert 2.0 <= result.duration_s < 5.0
    assert result.wall_s < 8.0
    assert_next_snippet_unaffected(box)


def test_g_print_1_gb(backend, box):
    require_claim(backend, Containment.OUTPUT_FLOOD)
    result = box.run("import sys\nchunk = 'x' * 2**20\nfor _ in range(1024):\n    sys.stdout.write(chunk)\n")
    assert result.status is Status.KILLED, describe(result)
    assert result.kill_reason == "output_limit"
    assert result.stdout_bytes < 2**30  # stopped long before the gigabyte
    assert "[qusema: output truncated" in result.stdout
    assert len(result.stdout) < 17 * 1024  # 16 KiB kept, plus the marker
    assert result.wall_s < 10.0
    assert_next_snippet_unaffected(box)


def test_h_environment_has_no_host_secrets(backend, box):
    result = box.run("import os\nreport('env', dict(os.environ))")
    assert result.status is Status.OK, describe(result)
    env = result.reports["env"]
    assert HOST_SECRET not in repr(env)
    assert not [k for k in env if any(w in k.upper() for w in ("KEY", "TOKEN", "SECRET", "PASSWORD"))]
    assert set(env) - {"PWD", "HOSTNAME"} <= {
        "PATH", "HOME", "TMPDIR", "USER", "LANG", "LC_ALL", "PYTHONDONTWRITEBYTECODE",
        "PYTHONNOUSERSITE", "PYTHONUNBUFFERED", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS",
        "MKL_NUM_THREADS", "RAYON_NUM_THREADS", "MPLBACKEND"}


def test_h_no_process_environment_readable(backend, box):
    require_claim(backend, Containment.HOST_SECRETS)
    result = box.run(
        "import os\nfound = []\n"
        "for pid in os.listdir('/proc'):\n"
        "    try:\n"
        "        found.append(open('/proc/%s/environ' % pid, 'rb').read().decode(errors='replace'))\n"
        "    except OSError:\n"
        "        pass\n"
        "report('environs', found)\n"
    )
    assert result.status is Status.OK, describe(result)
    assert HOST_SECRET not in repr(result.reports)


def test_i_background_process(backend, box):
    require_claim(backend, Containment.BACKGROUND_PROCESS)
    token = str(10**6 + secrets.randbelow(10**6))
    before = box.processes()
    result = box.run(
        "import os, subprocess, time\n"
        f"subprocess.Popen(['sleep', '{token}'], start_new_session=True)\n"
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    if os.fork() == 0:\n"
        f"        os.execv('/bin/sleep', ['sleep', '{token}'])\n"
        "    os._exit(0)\n"
        "time.sleep(0.2)\n"
        "report('started', True)\n"
    )
    assert result.status is Status.OK, describe(result)
    assert result.leftover_processes >= 2
    assert settle_processes(box, before) == before
    assert host_processes_with(token) == []
    assert_next_snippet_unaffected(box)


def test_process_backend_warns_that_it_confines_less():
    from qusema.sandbox.process_backend import ProcessBackend, ProcessSandboxWarning

    with pytest.warns(ProcessSandboxWarning):
        backend = ProcessBackend()
    assert Containment.NETWORK not in backend.claims()
    assert Containment.HOST_FILES_WRITE not in backend.claims()
