"""Bad input never crashes the index: each bad file is skipped with a clear reason that
`qusema stats` lists, and bad targets are refused with a message."""

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from qusema.cli import main


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture
def messy_library(tmp_path: Path) -> Path:
    root = tmp_path / "messy"
    pkg = root / "messy"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("from .good import twice\n")
    (pkg / "good.py").write_text("def twice(x):\n    return helper(x) * 2\n\n\ndef helper(x):\n    return x\n")
    (pkg / "latin1.py").write_bytes("# caf\xe9\ndef f():\n    return 'caf\xe9'\n".encode("latin-1"))
    (pkg / "py2.py").write_text("def f():\n    print 'old'\n")
    (pkg / "broken.py").write_text("def f(:\n    pass\n")
    (pkg / "empty.py").write_text("")
    (pkg / "generated.py").write_text("TABLE = [\n" + "    0,\n" * 1_500_000 + "]\n")  # ~10 MB
    (pkg / "loop").symlink_to(pkg, target_is_directory=True)
    (pkg / "self_link.py").symlink_to(pkg / "self_link.py")
    return root


def test_bad_files_are_skipped_with_reasons(messy_library: Path, tmp_path: Path):
    assert (messy_library / "messy" / "generated.py").stat().st_size > 10_000_000
    cache = str(tmp_path / "cache")
    result = run("index", str(messy_library), "--cache-dir", cache, "--quiet")
    assert result.exit_code == 0, result.output
    stats = json.loads(run("stats", "--cache-dir", cache, "--json").output)
    assert stats["target"] == str(messy_library)  # the figures say which index they are of
    reasons = {s["file"]: s["reason"] for s in stats["skipped"]}
    assert "not UTF-8" in reasons["messy/latin1.py"]
    assert "not Python 3 source" in reasons["messy/py2.py"]
    assert "not Python 3 source" in reasons["messy/broken.py"]
    assert "empty" in reasons["messy/empty.py"]
    assert "too large" in reasons["messy/generated.py"]
    assert "symbolic link to a directory" in reasons["messy/loop"]
    assert "link" in reasons["messy/self_link.py"]
    assert stats["languages"]["python"]["segments"] == 2  # twice and helper, nothing else
    callees = json.loads(run("callees", "messy.good.twice", "--cache-dir", cache, "--json").output)
    assert callees["callees"][0]["target"] == "messy.good.helper"


def test_a_folder_that_is_not_a_library_is_refused(tmp_path: Path):
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "readme.txt").write_text("hello")
    result = run("index", str(tmp_path / "notes"), "--cache-dir", str(tmp_path / "cache"))
    assert result.exit_code != 0
    assert "not a library" in result.output.lower() or "not a library" in str(result.exception).lower()


def test_a_missing_path_or_bad_pin_is_refused(tmp_path: Path):
    result = run("index", str(tmp_path / "nowhere"), "--cache-dir", str(tmp_path / "cache"))
    assert result.exit_code != 0
    result = run("index", "qiskit>=1.0", "--cache-dir", str(tmp_path / "cache"))
    assert result.exit_code != 0 and "==" in result.output


@pytest.mark.network
def test_a_release_that_does_not_exist_is_refused(tmp_path: Path):
    result = run("index", "qiskit==0.0.999", "--cache-dir", str(tmp_path / "cache"))
    assert result.exit_code != 0
    assert "0.0.999" in result.output


def test_commands_before_any_index_say_what_to_do(tmp_path: Path):
    result = run("stats", "--cache-dir", str(tmp_path / "empty-cache"))
    assert result.exit_code != 0 and "qusema index" in result.output


def test_no_stray_files_written_into_the_library(messy_library: Path, tmp_path: Path):
    before = sorted(os.listdir(messy_library))
    run("index", str(messy_library), "--cache-dir", str(tmp_path / "cache"), "--quiet")
    assert sorted(os.listdir(messy_library)) == before


def test_cargo_build_output_is_pruned_but_a_target_module_is_not(tmp_path: Path):
    from qusema.units.files import TreeScope, discover

    crate = tmp_path / "crates" / "core"
    (crate / "src" / "target").mkdir(parents=True)
    (crate / "Cargo.toml").write_text('[package]\nname = "core"\n')
    (crate / "src" / "lib.rs").write_text("pub mod target;\n")
    (crate / "src" / "target" / "mod.rs").write_text("pub fn f() {}\n")
    (crate / "target" / "debug").mkdir(parents=True)
    (crate / "target" / "debug" / "build.rs").write_text("fn generated() {}\n")
    found = discover(tmp_path, TreeScope(python_roots=(), rust_roots=("crates/core",)))
    assert sorted(f.rel_path for f in found.files) == ["crates/core/src/lib.rs", "crates/core/src/target/mod.rs"]


@pytest.fixture
def library_with_bad_rust_and_outside_link(tmp_path: Path) -> Path:
    root = tmp_path / "lib"
    crate = root / "crates" / "core"
    (crate / "src").mkdir(parents=True)
    (crate / "Cargo.toml").write_text('[package]\nname = "core"\n')
    (crate / "src" / "lib.rs").write_text("pub fn fine() -> u32 {\n    1\n}\n")
    # The first fn is whole, the second cut: tree-sitter would still yield `whole` from it.
    (crate / "src" / "broken.rs").write_text("pub fn whole() -> u32 { 2 }\n\npub fn cut(x: u32 -> u32 {\n    x\n}\n")
    pkg = root / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("def inside():\n    return 1\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "secret.py").write_text("def outside():\n    return 2\n")
    (pkg / "linked.py").symlink_to(elsewhere / "secret.py")
    (pkg / "alias.py").symlink_to(pkg / "__init__.py")
    return root


def test_unparsable_rust_and_a_link_out_of_the_tree_are_skipped_with_reasons(
        library_with_bad_rust_and_outside_link: Path, tmp_path: Path):
    cache = str(tmp_path / "cache")
    indexed = run("index", str(library_with_bad_rust_and_outside_link), "--cache-dir", cache, "--json", "--quiet")
    assert indexed.exit_code == 0, indexed.output
    assert json.loads(indexed.output)["run"]["skipped"] == 3  # broken.rs, linked.py, alias.py
    stats = json.loads(run("stats", "--cache-dir", cache, "--json").output)
    reasons = {s["file"]: s["reason"] for s in stats["skipped"]}
    assert reasons["crates/core/src/broken.rs"] == (
        "not Rust source this parser accepts (line 3, column 18: missing ')')")
    outside = str((tmp_path / "elsewhere" / "secret.py").resolve())
    assert reasons["pkg/linked.py"] == f"symbolic link to {outside}, outside the indexed tree: not indexed"
    assert reasons["pkg/alias.py"] == "symbolic link to pkg/__init__.py: the real file is indexed where it lives"
    # Nothing of the broken file nor of the file outside is in the index.
    assert stats["languages"]["rust"]["segments"] == 1  # `fine`; not `whole`, from the skipped file
    assert stats["languages"]["python"]["segments"] == 1  # `inside`; `outside` is not indexed
    listed = run("stats", "--cache-dir", cache)
    assert "crates/core/src/broken.rs: not Rust source" in listed.output
