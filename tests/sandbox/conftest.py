"""Real target environments and real sandboxes; nothing here is mocked.

Environments live in the normal cache ($QUSEMA_CACHE_DIR or ~/.cache/qusema), so a second
run reuses them. A backend is skipped only when it cannot run on this machine, with the
reason the backend itself gives.
"""

from __future__ import annotations

import os
import subprocess
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from qusema.sandbox import BACKENDS, WarmSandbox, get_backend, unavailable_reason
from qusema.sandbox.process_backend import ProcessSandboxWarning
from qusema.targets.environments import EnvironmentStore, TargetEnvironment
from sandbox_checks import CHEAP_TARGET, HOST_SECRET, QISKIT_TARGET, TEST_LIMITS, env_for

# A secret of the host that must never reach a snippet; set before any sandbox starts.
os.environ["QUSEMA_TEST_API_KEY"] = HOST_SECRET


@pytest.fixture(scope="session")
def store() -> EnvironmentStore:
    return EnvironmentStore()


@pytest.fixture(scope="session")
def cheap_env(store: EnvironmentStore) -> TargetEnvironment:
    return store.create(CHEAP_TARGET)


@pytest.fixture(scope="session")
def qiskit_env(store: EnvironmentStore) -> TargetEnvironment:
    return store.create(QISKIT_TARGET)


def make_backend(name: str):
    reason = unavailable_reason(name)
    if reason is not None:
        pytest.skip(f"sandbox {name} unavailable here: {reason}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ProcessSandboxWarning)
        return get_backend(name)


@pytest.fixture(scope="module", params=sorted(BACKENDS))
def backend(request):
    return make_backend(request.param)


# Run as root, the process backend runs snippets as user nobody, who cannot read an
# environment under /root: its cheap environment is made from the system Python in a
# folder everyone can read (kept between runs like the cache).
READABLE_ENVS = Path("/var/tmp/qusema-test-envs")
SYSTEM_PYTHON = Path("/usr/bin/python3.11")


@pytest.fixture(scope="session")
def readable_cheap_env(store: EnvironmentStore) -> TargetEnvironment:
    if not SYSTEM_PYTHON.exists():
        pytest.skip(f"no system Python at {SYSTEM_PYTHON} for an environment user nobody can read")
    venv = READABLE_ENVS / f"{CHEAP_TARGET.replace('==', '-')}-system-python"
    python = venv / "bin" / "python"
    if not python.exists():
        READABLE_ENVS.mkdir(parents=True, exist_ok=True)
        READABLE_ENVS.chmod(0o755)
        subprocess.run(["uv", "venv", "--quiet", "-p", str(SYSTEM_PYTHON), str(venv)], check=True)
        subprocess.run(["uv", "pip", "install", "--quiet", "-p", str(python), CHEAP_TARGET], check=True)
    return store.adopt_interpreter(python, CHEAP_TARGET)


@pytest.fixture(scope="module")
def box(backend, request) -> Iterator[WarmSandbox]:
    env = env_for(backend, request)
    backend.prepare(env)
    sandbox = WarmSandbox(backend, env, preload=["numpy"], limits=TEST_LIMITS)
    sandbox.start()
    yield sandbox
    sandbox.close()
