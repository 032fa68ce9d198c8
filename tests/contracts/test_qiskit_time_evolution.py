"""The Qiskit time-evolution laws hold on the real release, catch planted wrong implementations (the
library patched inside the test process) with a failing standalone reproducer, and their subjects are
what the live qiskit.synthesis exports."""

import pytest

EXACT = "qiskit.evolution.exact-is-expm"
ORDER = "qiskit.evolution.product-formula-order"


@pytest.mark.parametrize("law, subject", [(EXACT, "MatrixExponential"), (EXACT, "default"),
                                          (ORDER, "LieTrotter"), (ORDER, "SuzukiTrotter2"),
                                          (ORDER, "SuzukiTrotter4"), (ORDER, "QDrift")])
def test_laws_hold_on_the_release(qiskit_runtime, law, subject):
    qiskit_runtime.assert_holds(contract=law, subject=subject, examples=20)


# the time's sign flipped inside MatrixExponential: e^{+itH}
FLIP_MATRIX_EXPONENTIAL = """
import qiskit.synthesis as _s
_orig = _s.MatrixExponential.synthesize
def synthesize(self, evolution):
    from qiskit.circuit.library import PauliEvolutionGate
    flipped = PauliEvolutionGate(evolution.operator, time=-evolution.time)
    return _orig(self, flipped)
_s.MatrixExponential.synthesize = synthesize
"""

# SuzukiTrotter(order=2) silently built as order 1 (LieTrotter): converges, but at the wrong order
SUZUKI_AS_LIE = """
import qiskit.synthesis as _s
_orig = _s.SuzukiTrotter.synthesize
def synthesize(self, evolution):
    if self.order == 2:
        return _s.LieTrotter(reps=self.reps).synthesize(evolution)
    return _orig(self, evolution)
_s.SuzukiTrotter.synthesize = synthesize
"""

# LieTrotter ignoring reps (always one step): the error no longer shrinks
LIE_IGNORES_REPS = """
import qiskit.synthesis as _s
_orig = _s.LieTrotter.__init__
def __init__(self, reps=1, *args, **kwargs):
    _orig(self, 1, *args, **kwargs)
_s.LieTrotter.__init__ = __init__
"""

# QDrift dropping the sign of a negative coefficient
QDRIFT_ABS = """
import qiskit.synthesis as _s
from qiskit.quantum_info import SparsePauliOp
_orig = _s.QDrift.synthesize
def synthesize(self, evolution):
    from qiskit.circuit.library import PauliEvolutionGate
    op = evolution.operator
    op = SparsePauliOp(op.paulis, abs(op.coeffs)) if isinstance(op, SparsePauliOp) else op
    return _orig(self, PauliEvolutionGate(op, time=evolution.time))
_s.QDrift.synthesize = synthesize
"""

PLANTS = [(EXACT, "MatrixExponential", FLIP_MATRIX_EXPONENTIAL), (ORDER, "SuzukiTrotter2", SUZUKI_AS_LIE),
          (ORDER, "LieTrotter", LIE_IGNORES_REPS), (ORDER, "QDrift", QDRIFT_ABS)]


@pytest.mark.parametrize("law, subject, patch", PLANTS, ids=[p[1] for p in PLANTS])
def test_laws_catch_planted_wrong_implementations(qiskit_runtime, law, subject, patch):
    result = qiskit_runtime.assert_caught(contract=law, subject=subject, patch=patch, examples=40)
    assert "PauliEvolutionGate(" in result["reproducer"] and "expm(" in result["reproducer"]


SUBJECTS = """
import json, contract_runtime as r
print(json.dumps([r.subjects("qiskit", %r)["subjects"], r.subjects("qiskit", %r)["subjects"]]))
"""


def test_subjects_follow_the_live_library(qiskit_runtime):
    exact, formulas = qiskit_runtime(SUBJECTS % (EXACT, ORDER))
    assert exact == ["MatrixExponential", "default"]
    assert formulas == ["LieTrotter", "SuzukiTrotter2", "SuzukiTrotter4", "QDrift"]
