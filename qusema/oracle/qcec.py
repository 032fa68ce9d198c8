"""mqt.qcec as one route of the equivalence oracle, its answers mapped onto our vocabulary.

`probably_equivalent` and `no_information` map to `unknown`: they are not proofs.
"""

from __future__ import annotations

from dataclasses import dataclass

from qusema.oracle.circuits import Circuit
from qusema.oracle.verdict import Verdict

_MAP = {
    "equivalent": Verdict.EQUAL,
    "equivalent_up_to_global_phase": Verdict.EQUAL_UP_TO_GLOBAL_PHASE,
    "not_equivalent": Verdict.NOT_EQUAL,
}


@dataclass(frozen=True)
class QcecOutcome:
    verdict: Verdict
    raw: str


def run_qcec(a: Circuit, b: Circuit, timeout_s: float) -> QcecOutcome:
    from mqt import qcec

    result = qcec.verify(_strip(a).to_qiskit(), _strip(b).to_qiskit(), timeout=timeout_s)
    raw = str(result.equivalence).split(".")[-1]
    return QcecOutcome(_MAP.get(raw, Verdict.UNKNOWN), raw)


def _strip(c: Circuit) -> Circuit:
    return Circuit(c.num_qubits, c.unitary_ops)
