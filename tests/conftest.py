from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def qfix_root() -> Path:
    """A small library: Python package `qfix` plus Rust crates with PyO3 bindings."""
    return FIXTURES / "qfix"
