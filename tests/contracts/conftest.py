"""Contracts run under a real release's Python (a cached target environment with the audit
tools beside it), in a child process with sandbox/ on the path, as the sandbox runs them (the
child is forked from a server that imported the library once: see fork_server.py)."""

import functools
import json
import subprocess
import tempfile
import weakref
from pathlib import Path

import pytest

from qusema.audit import AUDIT_TOOLS
from qusema.targets.environments import EnvironmentStore

SANDBOX_DIR = Path(__file__).resolve().parents[2] / "sandbox"
FORK_SERVER = Path(__file__).resolve().parent / "fork_server.py"


# Run one law on one subject (after `patch`, which may plant a wrong implementation), and
# when it is violated, exec the reproducer in the same (patched) process: does it fail?
LAW_CHECK = """
import json, warnings
warnings.filterwarnings("ignore")
import contract_runtime as r
{searches}{patch}
result = r.check({library!r}, {contract!r}, {subject!r}, {examples}, 0)
if result["outcome"] == "violated":
    try:
        exec(result["reproducer"], {{"__name__": "__main__"}})
        result["reproducer_fails"] = False
    except AssertionError:
        result["reproducer_fails"] = True
print(json.dumps(result, default=str))
"""


# What a standalone reproducer must not mention: the law's own code.
LAW_CODE = ("contract_runtime", "oracle_core", "qusema", "from contracts")


class RuntimeRunner:
    """Runs snippets under the target's Python. They run in children forked from one server
    process per runner (fork_server.py) that has imported the library once: a fresh interpreter
    per snippet spent most of the contract tests' time importing PennyLane."""

    def __init__(self, python: Path, library: str) -> None:
        self.python = python
        self.library = library
        self._server: subprocess.Popen | None = None

    def check_law(self, contract: str, subject: str, patch: str = "", examples: int = 15,
                  other_failures: bool = True) -> dict:
        """`other_failures=False` skips the searches for further distinct failures after the first
        (tests/contracts/test_runtime.py tests those): a plant test asks only whether the law
        catches the plant, and those searches were most of its time."""
        searches = "" if other_failures else "r.MORE_FAILURE_SEARCHES = 0\n"
        return self(LAW_CHECK.format(library=self.library, patch=patch, contract=contract, subject=subject,
                                     examples=examples, searches=searches))

    def assert_holds(self, contract: str, subject: str, examples: int = 15, patch: str = "") -> dict:
        """Check the law on the (possibly patched) release and assert it held over at least one example."""
        result = self.check_law(contract=contract, subject=subject, patch=patch, examples=examples)
        assert result["outcome"] == "holds", result
        assert result["examples"] >= 1, result
        return result

    def assert_caught(self, contract: str, subject: str, patch: str, examples: int = 25,
                      other_failures: bool = False) -> dict:
        """Check the law with `patch` planted and assert it was violated, with a standalone reproducer
        (no law code, the library under test imported through its public API) that fails."""
        result = self.check_law(contract=contract, subject=subject, patch=patch, examples=examples,
                                other_failures=other_failures)
        assert result["outcome"] == "violated", result
        reproducer = result["reproducer"]
        assert result["reproducer_fails"], reproducer
        for law_code in LAW_CODE:
            assert law_code not in reproducer, f"{law_code!r} in the reproducer:\n{reproducer}"
        imports = [line for line in reproducer.splitlines() if line.lstrip().startswith(("import ", "from "))]
        assert any(self.library in line for line in imports), f"{self.library} not imported:\n{reproducer}"
        return result

    def __call__(self, code: str, timeout: float = 600) -> dict:
        """Run `code` (which must end by printing one JSON line) under the target's Python."""
        with tempfile.TemporaryDirectory() as scratch:
            stdout, stderr = Path(scratch) / "stdout", Path(scratch) / "stderr"
            reply = self._request({"code": code, "stdout": str(stdout), "stderr": str(stderr), "timeout": timeout})
            if reply.get("timeout"):
                raise subprocess.TimeoutExpired(["fork_server", "-c", code[:200]], timeout)
            output, errors = stdout.read_text(), stderr.read_text()
        assert reply["returncode"] == 0, errors[-3000:]
        return json.loads(output.strip().splitlines()[-1])

    def _request(self, request: dict) -> dict:
        if self._server is None or self._server.poll() is not None:
            self._server = subprocess.Popen(
                [str(self.python), "-W", "ignore", str(FORK_SERVER), self.library], cwd=SANDBOX_DIR,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                env={"PYTHONPATH": str(SANDBOX_DIR), "PATH": "/usr/bin:/bin"})
            weakref.finalize(self, self._server.stdin.close)  # end of input ends the server
        self._server.stdin.write(json.dumps(request) + "\n")
        self._server.stdin.flush()
        line = self._server.stdout.readline()
        assert line, f"the fork server under {self.python} exited with {self._server.wait()}"
        return json.loads(line)


def _runner(spec: str) -> RuntimeRunner:
    return RuntimeRunner(EnvironmentStore().create(spec, tools=AUDIT_TOOLS).python, spec.split("==")[0])


@pytest.fixture(scope="session")
def qiskit_runtime() -> RuntimeRunner:
    return _runner("qiskit==2.4.1")


@pytest.fixture(scope="session")
def old_qiskit_runtime() -> RuntimeRunner:
    """qiskit 1.0.2: Python DAGCircuit, sort_key default key, no reverse argument, no
    SparseObservable, generate_preset_pass_manager only in qiskit.transpiler.preset_passmanagers."""
    return _runner("qiskit==1.0.2")


@pytest.fixture(scope="session")
def qiskit_release():
    """A runner for a given Qiskit release, built once per session: a law that is violated on
    one release must hold on the release that fixed it."""
    return functools.cache(_runner)


@pytest.fixture(scope="session")
def pennylane_runtime() -> RuntimeRunner:
    return _runner("pennylane==0.45.0")


@pytest.fixture(scope="session")
def pennylane_release():
    """A runner for a given PennyLane release, built once per session: a law's subjects must
    not vanish on the older releases an audit targets."""
    return functools.cache(_runner)
