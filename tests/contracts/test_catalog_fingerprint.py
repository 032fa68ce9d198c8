"""The law-code digest that keys resumed runs and kept subject lists changes with any code
a family runs, including another library's family module it imports."""

import shutil
from pathlib import Path

from qusema.contracts.engine import catalog_fingerprint

SANDBOX = Path(__file__).resolve().parents[2] / "sandbox"


def test_a_change_to_an_imported_family_of_another_library_changes_the_digest(tmp_path, monkeypatch):
    copy = tmp_path / "sandbox"
    shutil.copytree(SANDBOX, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setenv("QUSEMA_SANDBOX_DIR", str(copy))
    before = catalog_fingerprint()
    assert catalog_fingerprint() == before  # a digest, not a clock
    # pennylane_doc_examples imports DocExampleLaw from this module
    assert "from contracts.qiskit_doc_examples import" in (copy / "contracts" / "pennylane_doc_examples.py").read_text()
    imported = copy / "contracts" / "qiskit_doc_examples.py"
    imported.write_text(imported.read_text() + "\n# changed\n")
    assert catalog_fingerprint() != before
