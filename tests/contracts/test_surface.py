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
