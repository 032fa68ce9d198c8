"""A run's identity names the law code it ran: resuming must never mix verdicts of two
versions of a law."""

import shutil
from pathlib import Path

from qusema.audit import AuditConfig, run_id_for

SANDBOX = Path(__file__).resolve().parents[2] / "sandbox"


def _copy_sandbox(tmp_path: Path) -> Path:
    copy = tmp_path / "sandbox"
    shutil.copytree(SANDBOX, copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def test_changing_a_law_of_the_library_makes_another_run(tmp_path, monkeypatch):
    copy = _copy_sandbox(tmp_path)
    monkeypatch.setenv("QUSEMA_SANDBOX_DIR", str(copy))
    config = AuditConfig(target="qiskit==2.6.2", time_budget_s=60)
    before = run_id_for(config)
    assert run_id_for(AuditConfig(target="qiskit==2.6.2", time_budget_s=600)) == before  # the budget is not identity
    family = copy / "contracts" / "qiskit_operations.py"
    family.write_text(family.read_text() + "\n# a changed law\n")
    assert run_id_for(AuditConfig(target="qiskit==2.6.2", time_budget_s=60)) != before


def test_another_librarys_laws_do_not_change_the_run(tmp_path, monkeypatch):
    copy = _copy_sandbox(tmp_path)
    monkeypatch.setenv("QUSEMA_SANDBOX_DIR", str(copy))
    before = run_id_for(AuditConfig(target="qiskit==2.6.2"))
    family = copy / "contracts" / "pennylane_operations.py"
    family.write_text(family.read_text() + "\n# a changed PennyLane law\n")
    assert run_id_for(AuditConfig(target="qiskit==2.6.2")) == before
