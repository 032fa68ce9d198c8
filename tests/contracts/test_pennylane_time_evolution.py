"""The PennyLane time-evolution laws hold on the real release, catch planted wrong implementations (the
library patched inside the test process) with a failing standalone reproducer, find the release's own
defect, and their subjects are what the live library exports."""

import pytest

EXACT = "pennylane.evolution.exact-is-expm"
ORDER = "pennylane.evolution.product-formula-order"
BOUND = "pennylane.evolution.trotter-error-bound"


@pytest.mark.parametrize("law, subject", [(EXACT, "exp"), (EXACT, "exp(real coeff)"), (EXACT, "evolve"),
                                          (EXACT, "Evolution"), (EXACT, "Exp"), (ORDER, "TrotterProduct2"),
                                          (ORDER, "ApproxTimeEvolution")])
def test_laws_hold_on_the_release(pennylane_runtime, law, subject):
    pennylane_runtime.assert_holds(contract=law, subject=subject, examples=10)


# qml.evolve with the sign of the time flipped: e^{+itH}
EVOLVE_FLIPPED = """
import pennylane as qml
qml.evolve = lambda op, coeff=1: qml.ops.Evolution(op, -coeff)
"""

# Exp.matrix conjugated: exp(-itH)^* = exp(+itH^*)
EXP_CONJUGATED = """
import numpy as np
import pennylane as qml
_orig = qml.ops.Exp.matrix
qml.ops.Exp.matrix = lambda self, wire_order=None: np.conj(_orig(self, wire_order=wire_order))
"""

# TrotterProduct of order 2 silently built as order 1
TROTTER_FIRST_ORDER = """
import pennylane as qml
_T = qml.TrotterProduct
def TrotterProduct(hamiltonian, time, n=1, order=1, **kwargs):
    return _T(hamiltonian, time, n=n, order=1, **kwargs)
TrotterProduct.__doc__ = _T.__doc__
qml.TrotterProduct = TrotterProduct
"""

PLANTS = [(EXACT, "evolve", EVOLVE_FLIPPED), (EXACT, "Exp", EXP_CONJUGATED),
          (ORDER, "TrotterProduct2", TROTTER_FIRST_ORDER)]


@pytest.mark.parametrize("law, subject, patch", PLANTS, ids=[p[1] for p in PLANTS])
def test_laws_catch_planted_wrong_implementations(pennylane_runtime, law, subject, patch):
    result = pennylane_runtime.assert_caught(contract=law, subject=subject, patch=patch, examples=30)
    assert "expm(" in result["reproducer"]


def test_law_finds_the_negative_one_norm_bound(pennylane_runtime):
    # TrotterProduct.error(method="one-norm-bound") is negative for a negative time (odd power of t)
    result = pennylane_runtime.assert_caught(contract=BOUND, subject="one-norm-bound", patch="", examples=30)
    assert "t = -" in result["reproducer"]


SUBJECTS = """
import json, contract_runtime as r
print(json.dumps([r.subjects("pennylane", law)["subjects"] for law in %r]))
"""


def test_subjects_follow_the_live_library(pennylane_runtime):
    exact, formulas, bounds = pennylane_runtime(SUBJECTS % ([EXACT, ORDER, BOUND],))
    assert exact == ["exp", "exp(real coeff)", "evolve", "Evolution", "Exp"]
    assert formulas == ["TrotterProduct1", "TrotterProduct2", "TrotterProduct4", "ApproxTimeEvolution"]
    assert bounds == ["one-norm-bound"]
