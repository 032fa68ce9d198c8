from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def qfix_root() -> Path:
    """A small library: Python package `qfix` plus Rust crates with PyO3 bindings."""
    return FIXTURES / "qfix"


# Fixtures that need a real library release (a cached target environment, built from the
# package index on a fresh machine): a test that asks for one is in the `release` tier, so
# `-m "not release"` stays the fast tier without each test file having to say so.
# Tests marked `network` build environments from the package index too.
RELEASE_FIXTURES = frozenset({"qiskit_runtime", "pennylane_runtime", "qiskit_release", "pennylane_release",
                              "old_qiskit_runtime"})


def pytest_collection_modifyitems(config, items):
    for item in items:
        if RELEASE_FIXTURES.intersection(getattr(item, "fixturenames", ())) or item.get_closest_marker("network"):
            item.add_marker(pytest.mark.release)
