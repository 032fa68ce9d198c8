from __future__ import annotations

from collections.abc import Iterator

import pytest

from local_index import LocalIndex


@pytest.fixture
def local_index() -> Iterator[LocalIndex]:
    index = LocalIndex()
    yield index
    index.stop()


@pytest.fixture
def dead_index_url() -> str:
    """An index URL nothing listens on (a stopped server's port): any request fails."""
    stopped = LocalIndex()
    url = stopped.url
    stopped.stop()
    return url
