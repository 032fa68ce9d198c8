"""Real target environments and real sandboxes; nothing here is mocked.

Environments live in the normal cache ($QUSEMA_CACHE_DIR or ~/.cache/qusema), so a second
run reuses them. A backend is skipped only when it cannot run on this machine, with the
reason the backend itself gives.
"""

from __future__ import annotations

import os
import secrets
import warnings
from collections.abc import Iterator

import pytest

from qusema.sandbox import BACKENDS, Limits, WarmSandbox, get_backend, unavailable_reason
from qusema.sandbox.process_backend import ProcessSandboxWarning
from qusema.targets.environments import EnvironmentStore, TargetEnvironment

# Cheap environment for containment: numpy only (the runner may use it for reports).
CHEAP_TARGET = "numpy==2.2.6"
QISKIT_TARGET = "qiskit==2.4.1"
# A secret of the host that must never reach a snippet; set before any sandbox starts.
HOST_SECRET = "qusema-test-secret-" + secrets.token_hex(8)
os.environ["QUSEMA_TEST_API_KEY"] = HOST_SECRET

TEST_LIMITS = Limits(timeout_s=10.0, memory_bytes=1024**3, pids=128,
                     max_output_bytes=8 * 1024**2, capture_bytes=16 * 1024)


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


@pytest.fixture(scope="module")
def box(backend, cheap_env) -> Iterator[WarmSandbox]:
    backend.prepare(cheap_env)
    sandbox = WarmSandbox(backend, cheap_env, preload=["numpy"], limits=TEST_LIMITS)
    sandbox.start()
    yield sandbox
    sandbox.close()
