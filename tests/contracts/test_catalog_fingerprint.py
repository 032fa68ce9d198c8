"""The law-code digest that keys resumed runs and kept subject lists changes with any code
a library's families run, including another library's family module they import, and with
nothing else."""

import shutil
from pathlib import Path

from qusema.contracts.engine import catalog_fingerprint

SANDBOX = Path(__file__).resolve().parents[2] / "sandbox"


def test_a_change_to_an_imported_family_of_another_library_changes_the_digest(tmp_path, monkeypatch):
    copy = tmp_path / "sandbox"
    shutil.copytree(SANDBOX, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setenv("QUSEMA_SANDBOX_DIR", str(copy))
    before = catalog_fingerprint("pennylane")
    assert catalog_fingerprint("pennylane") == before  # a digest, not a clock
    # pennylane_doc_examples imports DocExampleLaw from this module
    assert "from contracts.qiskit_doc_examples import" in (copy / "contracts" / "pennylane_doc_examples.py").read_text()
    imported = copy / "contracts" / "qiskit_doc_examples.py"
    imported.write_text(imported.read_text() + "\n# changed\n")
    assert catalog_fingerprint("pennylane") != before


def test_a_family_of_another_library_that_no_family_imports_leaves_the_digest(tmp_path, monkeypatch):
    copy = tmp_path / "sandbox"
    shutil.copytree(SANDBOX, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setenv("QUSEMA_SANDBOX_DIR", str(copy))
    before = {library: catalog_fingerprint(library) for library in ("qiskit", "pennylane")}
    unimported = copy / "contracts" / "qiskit_stabilizer.py"
    assert "qiskit_stabilizer" not in "".join(p.read_text() for p in (copy / "contracts").glob("pennylane_*.py"))
    unimported.write_text(unimported.read_text() + "\n# changed\n")
    assert catalog_fingerprint("pennylane") == before["pennylane"]
    assert catalog_fingerprint("qiskit") != before["qiskit"]


def test_a_change_to_the_shared_oracle_changes_every_librarys_digest(tmp_path, monkeypatch):
    copy = tmp_path / "sandbox"
    shutil.copytree(SANDBOX, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setenv("QUSEMA_SANDBOX_DIR", str(copy))
    before = {library: catalog_fingerprint(library) for library in ("qiskit", "pennylane")}
    shared = copy / "oracle_core.py"
    shared.write_text(shared.read_text() + "\n# changed\n")
    assert all(catalog_fingerprint(library) != digest for library, digest in before.items())
