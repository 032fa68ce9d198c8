"""The API-surface laws (sandbox/surface_explorer.py) on the real Qiskit release: each oracle
stays quiet on members that behave, and catches a defect planted in the library (a plant is
compiled under the library's own directory, so the crash triage sees it as library code, as it
would see a real defect), with a standalone reproducer that fails."""

import pytest

pytestmark = pytest.mark.release

# A plant compiled as if it were a file of the library: the triage judges where an error is raised.
PLANT = ("import functools, linecache, qiskit\n"
         "PLANT_FILE = qiskit.__file__.replace('__init__.py', 'planted.py')\n"
         "def plant(source, names):\n"
         "    # its lines, as a library file's are on disk (mtime None: kept by linecache.checkcache)\n"
         "    linecache.cache[PLANT_FILE] = (len(source), None, source.splitlines(True), PLANT_FILE)\n"
         "    namespace = dict(names)\n"
         "    exec(compile(source, PLANT_FILE, 'exec'), namespace)\n"
         "    return namespace\n")

# Pauli.to_matrix dies of an IndexError inside the library on every Pauli.
CRASHING_TO_MATRIX = PLANT + (
    "from qiskit.quantum_info import Pauli\n"
    "original = Pauli.to_matrix\n"
    "made = plant('def to_matrix(self, sparse=False):\\n    return [][len(self)]\\n', {})\n"
    "Pauli.to_matrix = functools.wraps(original)(made['to_matrix'])\n")

# The same error, raised on purpose by a raise statement of the library: a refusal, not a crash.
REFUSING_TO_MATRIX = PLANT + (
    "from qiskit.quantum_info import Pauli\n"
    "original = Pauli.to_matrix\n"
    "made = plant('def to_matrix(self, sparse=False):\\n    raise IndexError(\"no matrix for you\")\\n', {})\n"
    "Pauli.to_matrix = functools.wraps(original)(made['to_matrix'])\n")

# Pauli.to_label turns the Pauli it is asked about into another (multiplies its phase by -i).
MUTATING_TO_LABEL = (
    "import functools\n"
    "from qiskit.quantum_info import Pauli\n"
    "original = Pauli.to_label\n"
    "@functools.wraps(original)\n"
    "def to_label(self):\n"
    "    label = original(self)\n"
    "    self.phase = (self.phase + 1) % 4\n"
    "    return label\n"
    "Pauli.to_label = to_label\n")

# Pauli hashes by identity while it compares by value.
IDENTITY_HASH = ("from qiskit.quantum_info import Pauli\n"
                 "Pauli.__hash__ = lambda self: id(self)\n")

MEMBER = "qiskit.quantum_info.Pauli.to_matrix"


def test_no_internal_error_holds_on_the_release_and_catches_a_planted_crash(qiskit_runtime):
    law = "qiskit.surface.no-internal-error"
    qiskit_runtime.assert_holds(law, MEMBER, examples=10)
    result = qiskit_runtime.assert_caught(law, MEMBER, CRASHING_TO_MATRIX, examples=10)
    assert "IndexError" in result["message"] and "planted.py" in result["message"], result["message"]


def test_a_raise_statement_of_the_library_is_its_refusal_not_a_crash(qiskit_runtime):
    result = qiskit_runtime.check_law("qiskit.surface.no-internal-error", MEMBER, REFUSING_TO_MATRIX, examples=10)
    assert result["outcome"] == "raised", result  # every input refused: checked nothing, found nothing


def test_queries_are_pure_catches_a_query_that_changes_its_object(qiskit_runtime):
    law = "qiskit.surface.queries-are-pure"
    qiskit_runtime.assert_holds(law, "qiskit.quantum_info.Pauli.to_label", examples=10)
    result = qiskit_runtime.assert_caught(law, "qiskit.quantum_info.Pauli.to_label", MUTATING_TO_LABEL, examples=10)
    assert "changed the object" in result["message"], result["message"]


def test_copies_are_equal_catches_equal_objects_that_hash_apart(qiskit_runtime):
    law = "qiskit.surface.copies-are-equal"
    qiskit_runtime.assert_holds(law, "qiskit.quantum_info.Pauli", examples=10)
    result = qiskit_runtime.assert_caught(law, "qiskit.quantum_info.Pauli", IDENTITY_HASH, examples=10)
    assert "hash differently" in result["message"] or "hashes differently" in result["message"], result["message"]


# Pauli.tensor dies of an AttributeError inside the library whatever it is given.
CRASHING_TENSOR = PLANT + (
    "from qiskit.quantum_info import Pauli\n"
    "original = Pauli.tensor\n"
    "made = plant('def tensor(self, other):\\n    return None.shape\\n', {})\n"
    "Pauli.tensor = functools.wraps(original)(made['tensor'])\n")

# The same call dies of an IndexError: with values the docs do not give, an index out of an
# unstated range is no evidence, so the law sets it aside.
INDEXING_TENSOR = PLANT + (
    "from qiskit.quantum_info import Pauli\n"
    "original = Pauli.tensor\n"
    "made = plant('def tensor(self, other):\\n    return [][3]\\n', {})\n"
    "Pauli.tensor = functools.wraps(original)(made['tensor'])\n")

# Operator.power answers another power when the exponent is a numpy number.
NUMPY_BLIND_POWER = (
    "import functools\n"
    "from qiskit.quantum_info import Operator\n"
    "original = Operator.power\n"
    "@functools.wraps(original)\n"
    "def power(self, n, *args, **kwargs):\n"
    "    return original(self, n if type(n) in (int, float) else n + 1, *args, **kwargs)\n"
    "Operator.power = power\n")


def test_calls_with_typed_arguments_hold_on_the_release_and_catch_a_planted_crash(qiskit_runtime):
    law = "qiskit.surface.calls-have-no-internal-error"
    qiskit_runtime.assert_holds(law, "qiskit.quantum_info.Pauli.tensor", examples=10)
    result = qiskit_runtime.assert_caught(law, "qiskit.quantum_info.Pauli.tensor", CRASHING_TENSOR, examples=10)
    assert "AttributeError" in result["message"] and "planted.py" in result["message"], result["message"]
    assert "from the documentation of" in result["message"], result["message"]  # a documented object


def test_an_index_error_on_guessed_values_is_no_crash_finding(qiskit_runtime):
    result = qiskit_runtime.check_law("qiskit.surface.calls-have-no-internal-error", "qiskit.quantum_info.Pauli.tensor",
                                      INDEXING_TENSOR, examples=10)
    assert result["outcome"] == "raised", result


def test_equal_inputs_agree_catches_an_answer_that_depends_on_the_number_type(qiskit_runtime):
    law = "qiskit.surface.equal-inputs-agree"
    qiskit_runtime.assert_holds(law, "qiskit.quantum_info.Operator.power", examples=10)
    result = qiskit_runtime.assert_caught(law, "qiskit.quantum_info.Operator.power", NUMPY_BLIND_POWER, examples=10)
    assert "np." in result["message"], result["message"]


def test_methods_of_classes_a_reference_page_exports_are_subjects(qiskit_runtime):
    """qiskit.circuit.library is two levels down but its package docstring is a page of the
    API reference: the gates it exports are documented API, and their methods are called."""
    qiskit_runtime.assert_holds("qiskit.surface.calls-have-no-internal-error", "qiskit.circuit.library.RXGate.power",
                                examples=5)


def test_a_compiled_class_is_built_by_its_docstring_examples_that_leave_the_import_out(qiskit_runtime):
    """SparseObservable's examples (a Rust class's docstring) call SparseObservable.from_list
    without importing it: the recipe adds the import, and the class's laws get specimens."""
    result = qiskit_runtime.assert_holds("qiskit.surface.copies-are-equal", "qiskit.quantum_info.SparseObservable",
                                         examples=5)
    assert result["examples"] >= 1, result


def test_a_class_is_built_by_its_own_documentation_when_that_calls_a_factory(pennylane_runtime):
    """Exp's documentation builds it with qml.exp and never writes `Exp`: its own examples
    still count as recipes for it, so its members are exercised."""
    pennylane_runtime.assert_holds("pennylane.surface.no-internal-error", "pennylane.ops.op_math.Exp.matrix",
                                   examples=3)


def test_the_crash_law_on_members_takes_only_classes_of_the_documented_namespaces(qiskit_runtime):
    """An internal helper's methods (template matching's MatchingScenariosList, which no
    documented namespace re-exports) run only in states the library prepares: popping one
    freshly built and empty was the first complete audit's one rejected surface finding."""
    result = qiskit_runtime("import json, contract_runtime as r\n"
                            "print(json.dumps(r.subjects('qiskit', 'qiskit.surface.no-internal-error')))")
    subjects = set(result["subjects"])
    assert "qiskit.quantum_info.Pauli.to_matrix" in subjects
    assert not any(".template_matching." in s for s in subjects), sorted(s for s in subjects if "template" in s)
