"""Resolution of real releases from pypi.org (deselect with ``-m "not network"``)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from qusema.targets import VersionNotFound, resolve_source

pytestmark = pytest.mark.network
PYPI = "https://pypi.org/simple"


def test_qiskit_sdist_includes_the_rust_crates(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    started = time.perf_counter()
    tree = resolve_source("qiskit==2.4.1", cache, index_url=PYPI)
    print(f"qiskit==2.4.1 resolved in {time.perf_counter() - started:.1f}s")

    assert (tree.origin, tree.name, tree.version) == ("sdist", "qiskit", "2.4.1")
    assert tree.root.name == "qiskit-2.4.1"
    assert (tree.root / "crates").is_dir()
    assert any((tree.root / "crates").glob("*/Cargo.toml"))
    assert (tree.root / "qiskit" / "__init__.py").is_file()
    assert tree.archive == cache / "archives" / "qiskit-2.4.1.tar.gz"

    # The second call is served by the cache even with the index unreachable.
    again = resolve_source("qiskit==2.4.1", cache, index_url="http://127.0.0.1:9/simple")
    assert again == tree


def test_pennylane_has_no_sdist_and_resolves_to_its_wheel(tmp_path: Path) -> None:
    started = time.perf_counter()
    tree = resolve_source("pennylane==0.45.0", tmp_path / "cache", index_url=PYPI)
    print(f"pennylane==0.45.0 resolved in {time.perf_counter() - started:.1f}s")

    assert (tree.origin, tree.name, tree.version) == ("wheel", "pennylane", "0.45.0")
    assert tree.archive is not None and tree.archive.name == "pennylane-0.45.0-py3-none-any.whl"
    assert (tree.root / "pennylane" / "__init__.py").is_file()
    assert tree.notes == ()


def test_nonexistent_release_is_refused_with_neighbours(tmp_path: Path) -> None:
    with pytest.raises(VersionNotFound) as caught:
        resolve_source("qiskit==0.0.999", tmp_path / "cache", index_url=PYPI)

    message = str(caught.value)
    assert "qiskit has no release 0.0.999" in message
    assert caught.value.closest, message
    assert all(v in message for v in caught.value.closest)
    assert not (tmp_path / "cache" / "sources").exists()
