"""``resolve_source`` on a path, and the default cache location."""

from __future__ import annotations

from pathlib import Path

import pytest

from qusema.targets import PathNotALibrary, default_cache_dir, resolve_source


def write(path: Path, text: str = "") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_checkout_with_pyproject(tmp_path: Path) -> None:
    checkout = tmp_path / "work-copy"
    write(checkout / "pyproject.toml", '[project]\nname = "My_Lib"\nversion = "3.1.0"\n')
    write(checkout / "my_lib" / "__init__.py")

    tree = resolve_source(str(checkout), tmp_path / "cache")

    assert tree.root == checkout.resolve()
    assert (tree.name, tree.version, tree.origin) == ("my-lib", "3.1.0", "checkout")
    assert (tree.archive, tree.archive_sha256) == (None, None)
    assert not (tmp_path / "cache").exists()  # a checkout is used in place


def test_src_layout_and_dynamic_version_fall_back_to_pkg_info(tmp_path: Path) -> None:
    checkout = tmp_path / "qiskit-2.4.1"
    write(checkout / "pyproject.toml", '[project]\nname = "qiskit"\ndynamic = ["version"]\n')
    write(checkout / "setup.cfg", "[metadata]\nversion = attr: qiskit.__version__\n")
    write(checkout / "PKG-INFO", "Metadata-Version: 2.1\nName: qiskit\nVersion: 2.4.1\n")
    write(checkout / "src" / "qiskit" / "__init__.py")

    tree = resolve_source(str(checkout), tmp_path / "cache")

    assert (tree.name, tree.version) == ("qiskit", "2.4.1")


def test_setup_cfg_literal_version(tmp_path: Path) -> None:
    checkout = tmp_path / "x"
    write(checkout / "setup.cfg", "[metadata]\nname = PennyLane\nversion = 0.45.0\n")
    write(checkout / "pennylane" / "__init__.py")

    tree = resolve_source(str(checkout), tmp_path / "cache")

    assert (tree.name, tree.version) == ("pennylane", "0.45.0")


def test_rust_only_checkout(tmp_path: Path) -> None:
    checkout = tmp_path / "crate"
    write(checkout / "Cargo.toml", '[package]\nname = "qiskit-accelerate"\nversion = "2.4.1"\n')
    write(checkout / "src" / "lib.rs", "pub fn f() {}\n")

    tree = resolve_source(str(checkout), tmp_path / "cache")

    assert (tree.name, tree.version, tree.origin) == ("qiskit-accelerate", "2.4.1", "checkout")


def test_cargo_workspace_without_package_uses_folder_name(tmp_path: Path) -> None:
    checkout = tmp_path / "Some_Checkout"
    write(checkout / "Cargo.toml", '[workspace]\nmembers = ["crates/*"]\n')

    tree = resolve_source(str(checkout), tmp_path / "cache")

    assert (tree.name, tree.version) == ("some-checkout", None)
    assert any("folder name" in note for note in tree.notes)


def test_broken_pyproject_is_noted_not_fatal(tmp_path: Path) -> None:
    checkout = tmp_path / "lib"
    write(checkout / "pyproject.toml", "[project\nname = ")
    write(checkout / "lib" / "__init__.py")

    tree = resolve_source(str(checkout), tmp_path / "cache")

    assert tree.name == "lib"
    assert any("pyproject.toml" in note for note in tree.notes)


def test_directory_without_a_library_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    write(folder / "README.md", "# hi\n")
    write(folder / "a" / "b" / "c" / "__init__.py")  # too deep to count

    with pytest.raises(PathNotALibrary) as caught:
        resolve_source(str(folder), tmp_path / "cache")

    message = str(caught.value)
    assert str(folder.resolve()) in message
    assert "__init__.py" in message and "Cargo.toml" in message


def test_file_is_refused(tmp_path: Path) -> None:
    file = tmp_path / "setup.py"
    write(file, "")
    with pytest.raises(PathNotALibrary) as caught:
        resolve_source(str(file), tmp_path / "cache")
    assert "not a directory" in str(caught.value)


@pytest.mark.parametrize("spec", ["./no-such-dir", "/no/such/dir", "~/no-such-dir-qusema", "a/b"])
def test_missing_path_is_refused_as_a_path(tmp_path: Path, spec: str) -> None:
    with pytest.raises(PathNotALibrary) as caught:
        resolve_source(spec, tmp_path / "cache")
    assert "no such file or directory" in str(caught.value)


def test_default_cache_dir_precedence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("QUSEMA_CACHE_DIR", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    assert default_cache_dir() == tmp_path / "home" / ".cache" / "qusema"

    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")
    assert default_cache_dir() == tmp_path / "home" / ".cache" / "qusema"

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_cache_dir() == tmp_path / "xdg" / "qusema"

    monkeypatch.setenv("QUSEMA_CACHE_DIR", str(tmp_path / "mine"))
    assert default_cache_dir() == tmp_path / "mine"
