"""The PennyLane Pauli grouping / Pauli utility laws hold on the real release for subjects they are
right for, and catch a planted wrong implementation (the library patched inside the test process):
each law can fail, and its reproducer fails with it."""

import pytest

IMPORTS = "import numpy as np\nimport pennylane as qml\nfrom pennylane.pauli import PauliSentence, PauliWord\n"

GROUPING = "pennylane.pauli.grouping-partitions-by-the-relation"
DIAGONAL = "pennylane.pauli.qwc-rotations-diagonalize"
UTILITIES = "pennylane.pauli.word-utilities-match-kronecker"
ARITHMETIC = "pennylane.pauli.pauli-arithmetic-matches-matrices"

HOLDS = [(GROUPING, "group_observables:anticommuting:dsatur"), (GROUPING, "compute_partition_indices:qwc:rlf"),
         (GROUPING, "PauliGroupingStrategy.partition_observables:commuting:lf"),
         (GROUPING, "Hamiltonian.compute_grouping:qwc:gis"), (GROUPING, "Hamiltonian(grouping_type):commuting:rlf"),
         (DIAGONAL, "diagonalize_qwc_pauli_words"), (DIAGONAL, "diagonalize_qwc_groupings"),
         (DIAGONAL, "optimize_measurements:qwc:lf"),
         (UTILITIES, "pauli_word_to_matrix"), (UTILITIES, "pauli_to_binary"), (UTILITIES, "is_qwc"),
         (UTILITIES, "binary_to_pauli"),
         (ARITHMETIC, "PauliSentence.to_mat"), (ARITHMETIC, "PauliSentence.commutator"),
         (ARITHMETIC, "PauliWord.__matmul__")]

# Each plant breaks exactly what one law is about, for one subject the law is right for.
PLANTS = {
    # a colouring that merges the last two groups: members no longer satisfy the relation
    "merged-groups": (GROUPING, "group_observables:qwc:lf", (
        "_orig = qml.pauli.PauliGroupingStrategy.partition_observables\n"
        "def _merged(self):\n"
        "    groups = _orig(self)\n"
        "    return groups[:-2] + [groups[-2] + groups[-1]] if len(groups) > 1 else groups\n"
        "qml.pauli.PauliGroupingStrategy.partition_observables = _merged\n")),
    # grouping indices that forget the last term of the Hamiltonian
    "lost-term": (GROUPING, "Hamiltonian.compute_grouping:anticommuting:lf", (
        "_orig = qml.pauli.compute_partition_indices\n"
        "def _lossy(observables, grouping_type='qwc', method='lf'):\n"
        "    return _orig(observables[:-1], grouping_type=grouping_type, method=method) if len(observables) > 1 "
        "else _orig(observables, grouping_type=grouping_type, method=method)\n"
        "qml.pauli.compute_partition_indices = _lossy\n")),
    # a post-rotation about Y by the wrong sign: X is measured as -X
    "rotation-sign": (DIAGONAL, "diagonalize_qwc_pauli_words", (
        "_orig = qml.pauli.diagonalize_qwc_pauli_words\n"
        "def _flipped(group):\n"
        "    rotations, diagonal = _orig(group)\n"
        "    return [qml.RY(-op.data[0], wires=op.wires) if op.name == 'RY' else op for op in rotations], diagonal\n"
        "qml.pauli.diagonalize_qwc_pauli_words = _flipped\n")),
    # a matrix built on the word's own wires, ignoring the wire map
    "ignores-wire-map": (UTILITIES, "pauli_word_to_matrix", (
        "qml.pauli.pauli_word_to_matrix = lambda word, wire_map=None: qml.matrix(word)\n")),
    # to_mat reading the wire order backwards
    "reversed-order": (ARITHMETIC, "PauliSentence.to_mat", (
        "_orig = PauliSentence.to_mat\n"
        "PauliSentence.to_mat = lambda self, wire_order=None, format='dense', buffer_size=None: "
        "_orig(self, wire_order=list(wire_order)[::-1], format=format)\n")),
    # the commutator with its sign flipped: BA - AB
    "commutator-sign": (ARITHMETIC, "PauliWord.commutator", (
        "_orig = PauliWord.commutator\n"
        "PauliWord.commutator = lambda self, other: -1.0 * _orig(self, other)\n")),
}


@pytest.mark.parametrize(("contract", "subject"), HOLDS)
def test_law_holds_on_the_release_for_a_subject_it_is_right_for(pennylane_runtime, contract, subject):
    pennylane_runtime.assert_holds(contract=contract, subject=subject, examples=15)


@pytest.mark.parametrize("plant", sorted(PLANTS))
def test_law_catches_a_planted_wrong_implementation(pennylane_runtime, plant):
    contract, subject, patch = PLANTS[plant]
    result = pennylane_runtime.assert_caught(contract=contract, subject=subject, patch=IMPORTS + patch, examples=30)
    reproducer = result["reproducer"]
    assert "import pennylane as qml" in reproducer
    assert "contract" not in reproducer and "hypothesis" not in reproducer  # public API only
    assert "def kron(" in reproducer  # the expected matrices are built independently


def test_reproducer_of_a_merged_group_names_the_broken_relation(pennylane_runtime):
    contract, subject, patch = PLANTS["merged-groups"]
    result = pennylane_runtime.check_law(patch=IMPORTS + patch, contract=contract, subject=subject, examples=30)
    assert "grouped together but are not qwc" in result["message"], result["message"]


SUBJECTS = """
import json, contract_runtime as r
print(json.dumps({{c: r.subjects("pennylane", c)["subjects"] for c in {contracts!r}}}))
"""


def test_subjects_are_the_functions_and_options_of_the_release(pennylane_runtime):
    found = pennylane_runtime(SUBJECTS.format(contracts=[GROUPING, DIAGONAL, UTILITIES, ARITHMETIC]))
    grouping = set(found[GROUPING])
    # every documented grouping type and colouring method, for every grouping entry point
    entries = {s.split(":")[0] for s in grouping}
    assert entries == {"group_observables", "compute_partition_indices", "PauliGroupingStrategy.partition_observables",
                       "Hamiltonian.compute_grouping", "Hamiltonian(grouping_type)"}
    assert {s.split(":")[1] for s in grouping} == {"qwc", "commuting", "anticommuting"}
    assert {s.split(":")[2] for s in grouping} == {"lf", "rlf", "dsatur", "gis"}
    assert len(grouping) == 5 * 3 * 4
    # optimize_measurements implements only qwc measurement reduction
    assert {s for s in found[DIAGONAL] if s.startswith("optimize_measurements")} == {
        f"optimize_measurements:qwc:{m}" for m in ("lf", "rlf", "dsatur", "gis")}
    assert set(found[UTILITIES]) == {"pauli_word_to_matrix", "string_to_pauli_word", "pauli_word_to_string",
                                     "pauli_to_binary", "observables_to_binary_matrix", "binary_to_pauli",
                                     "are_identical_pauli_words", "is_pauli_word", "are_pauli_words_qwc", "is_qwc"}
    assert {"PauliWord.commutator", "PauliSentence.__matmul__", "PauliWord.commutes_with"} <= set(found[ARITHMETIC])


DOCUMENTED = """
import json
import contract_runtime as r
from contracts import pennylane_pauli_grouping as g
doc = '''
    Args:
        observables (list): words
        method (str): can be ``'lf'`` (Largest First) or ``'rlf'`` (Recursive Largest First)
        grouping_type (str): can be ``'qwc'`` or ``'commuting'``

    Returns:
        list: groups, ``'gis'`` is not in an argument entry
'''
def f():
    pass
f.__doc__ = doc
print(json.dumps({"methods": g._documented(f, "method", g.METHODS),
                  "types": g._documented(f, "grouping_type", g.GROUPING_TYPES)}))
"""


def test_options_are_read_from_the_argument_entry_of_the_docstring(pennylane_runtime):
    # an older release documents only 'lf' and 'rlf': only those become subjects
    found = pennylane_runtime(DOCUMENTED)
    assert found == {"methods": ["lf", "rlf"], "types": ["qwc", "commuting"]}
