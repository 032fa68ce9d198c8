"""Contracts run under a real release's Python (a cached target environment with the audit
tools beside it), in a subprocess with sandbox/ on the path, as the sandbox runs them."""

import json
import subprocess
from pathlib import Path

import pytest

from qusema.audit import AUDIT_TOOLS
from qusema.targets.environments import EnvironmentStore

SANDBOX_DIR = Path(__file__).resolve().parents[2] / "sandbox"


# Run one law on one subject (after `patch`, which may plant a wrong implementation), and
# when it is violated, exec the reproducer in the same (patched) process: does it fail?
LAW_CHECK = """
import json, warnings
warnings.filterwarnings("ignore")
import contract_runtime as r
{patch}
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
    def __init__(self, python: Path, library: str) -> None:
        self.python = python
        self.library = library

    def check_law(self, contract: str, subject: str, patch: str = "", examples: int = 15) -> dict:
        return self(LAW_CHECK.format(library=self.library, patch=patch, contract=contract, subject=subject,
                                     examples=examples))

    def assert_holds(self, contract: str, subject: str, examples: int = 15, patch: str = "") -> dict:
        """Check the law on the (possibly patched) release and assert it held over at least one example."""
        result = self.check_law(contract=contract, subject=subject, patch=patch, examples=examples)
        assert result["outcome"] == "holds", result
        assert result["examples"] >= 1, result
        return result

    def assert_caught(self, contract: str, subject: str, patch: str, examples: int = 25) -> dict:
        """Check the law with `patch` planted and assert it was violated, with a standalone reproducer
        (no law code, the library under test imported through its public API) that fails."""
        result = self.check_law(contract=contract, subject=subject, patch=patch, examples=examples)
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
        done = subprocess.run([str(self.python), "-W", "ignore", "-c", code], cwd=SANDBOX_DIR, capture_output=True,
                              text=True, timeout=timeout, env={"PYTHONPATH": str(SANDBOX_DIR), "PATH": "/usr/bin:/bin"})
        assert done.returncode == 0, done.stderr[-3000:]
        return json.loads(done.stdout.strip().splitlines()[-1])


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
def pennylane_runtime() -> RuntimeRunner:
    return _runner("pennylane==0.45.0")


@pytest.fixture(scope="session")
def pennylane_release():
    """A runner for a given PennyLane release, built once per session: a law's subjects must
    not vanish on the older releases an audit targets."""
    runners: dict[str, RuntimeRunner] = {}

    def runner(spec: str) -> RuntimeRunner:
        if spec not in runners:
            runners[spec] = _runner(spec)
        return runners[spec]

    return runner
