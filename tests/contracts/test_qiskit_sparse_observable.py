"""The SparseObservable algebra laws hold on the real release (qiskit 2.4.1) for every subject, catch
planted wrong implementations (the class's methods patched inside the test process) with reproducers
that fail too, and their subjects are the methods the live class has (none before Qiskit 1.3)."""

import pytest


CONSTRUCT = "qiskit.sparse-observable.constructors-give-the-matrix"
ALGEBRA = "qiskit.sparse-observable.algebra-is-matrix-algebra"
KEEP = "qiskit.sparse-observable.structure-methods-keep-the-matrix"
VIEWS = "qiskit.sparse-observable.views-agree-with-the-terms"
PRINTED = "qiskit.sparse-observable.printed-terms-are-the-terms"

# A representative subject of each kind per law (the full lists are checked by hand on 1.3.2, 2.2.0,
# 2.4.1 and 2.6.0; the suite runs on 2 cores).
HOLDS = [(CONSTRUCT, "from_sparse_list"), (CONSTRUCT, "from_pauli"), (CONSTRUCT, "SparseObservable(data)"),
         (CONSTRUCT, "to_sparse_list round trip"), (ALGEBRA, "compose(qargs)"), (ALGEBRA, "conjugate"),
         (ALGEBRA, "transpose"), (ALGEBRA, "expand"), (ALGEBRA, "-="), (KEEP, "simplify(tol)"),
         (KEEP, "as_paulis"), (KEEP, "apply_layout(list, num_qubits)"),
         (KEEP, "apply_layout(TranspileLayout)"), (KEEP, "=="), (VIEWS, "raw arrays"),
         (VIEWS, "iteration/indexing"), (VIEWS, "pauli_bases"), (PRINTED, "repr")]

SO = "from qiskit.quantum_info import SparseObservable\n"

# (law, subject, plant): each plant breaks one documented promise.
PLANTS = {
    # the transpose taken as the adjoint: Y is not negated, r/l not swapped, coefficients conjugated
    "transpose is the adjoint": (ALGEBRA, "transpose", SO + "SparseObservable.transpose = SparseObservable.adjoint"),
    # compose's multiplication order reversed (front ignored)
    "compose order reversed": (
        ALGEBRA, "compose", SO + "_orig = SparseObservable.compose\n"
        "SparseObservable.compose = lambda self, other, qargs=None, front=False: "
        "_orig(self, other, qargs=qargs, front=not front)"),
    # the user's tolerance ignored by simplify
    "simplify ignores tol": (
        KEEP, "simplify(tol)", SO + "_orig = SparseObservable.simplify\n"
        "SparseObservable.simplify = lambda self, tol=1e-8: _orig(self)"),
    # from_sparse_list pairing letters with qubits in sorted order instead of zipping them
    "from_sparse_list mis-zips": (
        CONSTRUCT, "from_sparse_list", SO + "_orig = SparseObservable.from_sparse_list\n"
        "SparseObservable.from_sparse_list = staticmethod(lambda iter, num_qubits: _orig("
        "[(''.join(sorted(l)), sorted(q), c) for l, q, c in iter], num_qubits))"),
    # to_sparse_list conjugating the coefficients
    "to_sparse_list conjugates": (
        VIEWS, "to_sparse_list", SO + "_orig = SparseObservable.to_sparse_list\n"
        "SparseObservable.to_sparse_list = lambda self: [(l, q, complex(c).conjugate()) for l, q, c in _orig(self)]"),
    # apply_layout applying the inverse permutation
    "apply_layout inverts": (
        KEEP, "apply_layout(list)", SO + "_orig = SparseObservable.apply_layout\n"
        "def _inverse(self, layout, num_qubits=None):\n"
        "    inverse = [layout.index(k) for k in range(len(layout))] if layout is not None else None\n"
        "    return _orig(self, inverse, num_qubits)\n"
        "SparseObservable.apply_layout = _inverse"),
}


@pytest.mark.parametrize(("law", "subject"), HOLDS)
def test_law_holds_on_the_release(qiskit_runtime, law, subject):
    qiskit_runtime.assert_holds(contract=law, subject=subject, examples=15)


@pytest.mark.parametrize("plant", sorted(PLANTS))
def test_law_catches_a_planted_wrong_implementation(qiskit_runtime, plant):
    law, subject, patch = PLANTS[plant]
    # 150 draws: an ignored tolerance shows only on a like-term sum between 1e-8 and the drawn tol
    # (at 40 and 80, seed 0 drew none)
    result = qiskit_runtime.assert_caught(contract=law, subject=subject, patch=patch, examples=150)
    assert "SparseObservable" in result["reproducer"]


SUBJECTS = """
import json, warnings
warnings.filterwarnings("ignore")
import contract_runtime as r
print(json.dumps({law: r.subjects("qiskit", law) for law in %r}))
"""


def test_subjects_are_what_the_live_class_has(qiskit_runtime):
    found = qiskit_runtime(SUBJECTS % [CONSTRUCT, ALGEBRA, KEEP, VIEWS, PRINTED])
    assert {"from_label", "from_terms", "identity", "zero", "to_sparse_list round trip"} <= set(
        found[CONSTRUCT]["subjects"])
    assert "to_matrix" not in found[CONSTRUCT]["subjects"]  # SparseObservable.to_matrix is younger than 2.4
    assert {"compose(front=True)", "tensor", "^", "adjoint", "/="} <= set(found[ALGEBRA]["subjects"])
    assert {"simplify", "as_paulis", "apply_layout(None, num_qubits)"} <= set(found[KEEP]["subjects"])
    assert {"Term.bit_labels", "Term.pauli_base", "to_sparse_list"} <= set(found[VIEWS]["subjects"])


def test_no_subjects_before_qiskit_1_3(old_qiskit_runtime):
    found = old_qiskit_runtime(SUBJECTS % [CONSTRUCT, ALGEBRA, KEEP, VIEWS, PRINTED])
    for law, answer in found.items():
        assert answer["subjects"] == [], law
        assert "SparseObservable" in answer["reason"], answer
