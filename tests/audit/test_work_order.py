"""The order an audit checks its (law, subject) items in: laws interleaved, so a budget that
ends early has checked every law on some subjects."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from qusema.audit import interleave_laws
from qusema.contracts.engine import WorkItem


def test_laws_take_turns_each_in_its_own_subject_order():
    items = [WorkItem("big", s) for s in ("b1", "b2", "b3", "b4")] + [WorkItem("small", "s1")] + [
        WorkItem("mid", s) for s in ("m1", "m2")]
    order = [(i.contract, i.subject) for i in interleave_laws(items)]
    assert order == [("big", "b1"), ("small", "s1"), ("mid", "m1"), ("big", "b2"), ("mid", "m2"),
                     ("big", "b3"), ("big", "b4")]
    assert interleave_laws([]) == []


@pytest.mark.network
@pytest.mark.release
def test_a_real_audit_checks_a_second_law_before_finishing_the_first(tmp_path: Path):
    # property-predicates has dozens of subjects on qiskit 2.4.1; in catalog order an audit
    # checked all of them before the other law's first.
    done = subprocess.run([sys.executable, "-m", "qusema.cli", "audit", "qiskit==2.4.1", "--workers", "1", "--verbose",
                           "--out", str(tmp_path / "reports"), "--examples", "1", "--deepen", "0",
                           "--time-budget", "2",
                           "--contracts", "qiskit.query.property-predicates,qiskit.operation.inverse-is-adjoint"],
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    checked = re.findall(r"\] \[\d+/(\d+)\] (\S+) ", done.stderr)
    laws = [law for _, law in checked]
    assert len(laws) >= 2 and int(checked[0][0]) > 20, done.stderr[-2000:]  # many checks in all
    assert laws[:2] in (["qiskit.query.property-predicates", "qiskit.operation.inverse-is-adjoint"],
                        ["qiskit.operation.inverse-is-adjoint", "qiskit.query.property-predicates"]), laws[:4]


class _RecordingEngine:
    """Stands in for the sandbox: records what a check is asked with (the audit's choice of
    seed is what is tested, not the sandbox)."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, int, int]] = []

    def check(self, item: WorkItem, examples: int, seed: int, time_limit_s: float | None = None) -> dict:
        self.asked.append((item.key, examples, seed))
        return {"outcome": "holds", "examples": examples}


def test_a_deeper_check_is_sent_with_its_own_seed_and_a_first_check_with_the_audits():
    from qusema.audit import AuditConfig, _AuditContext, _process_item

    ctx = _AuditContext(AuditConfig(target="qiskit==2.4.1", seed=7, examples=25), None, None, {}, "run")
    engine = _RecordingEngine()
    first, deeper = WorkItem("law", "s"), WorkItem("law", "s", examples=100)
    _process_item(ctx, engine, first)
    _process_item(ctx, engine, deeper, time_limit_s=30.0)
    assert engine.asked[0] == (first.key, 25, 7)
    key, examples, seed = engine.asked[1]
    assert (key, examples) == (deeper.key, 100) and seed not in (7, 0)
    assert seed == deeper.seed(7)
