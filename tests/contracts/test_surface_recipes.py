"""How the surface builds the objects its laws check (sandbox/surface_explorer.py recipes) and
what a check says it exercised: a doctest line's shown value is a specimen, a composed
constructor tries its arguments' next choices until one builds, PennyLane's operators get their
wires and its templates the tensors their `shape` declares, a public function with nothing to
fill is called, and a documented example names the library calls its own lines made."""

import importlib

import pytest

from tests.contracts.conftest import SANDBOX_DIR


@pytest.fixture()
def explorer(monkeypatch):
    monkeypatch.syspath_prepend(str(SANDBOX_DIR))
    return importlib.import_module("surface_explorer")


def test_a_doctest_lines_shown_value_is_bound_to_a_name(explorer):
    program = ("from x import Q\n"
               "Q.identity(100)\n"          # shown by the doctest: bound
               "print(3)\n"                 # printed, not shown: left alone
               "a = 1; a.b()\n"             # two statements on a line: left alone
               "circuit\n"                  # a bare name: left alone
               "foo(\n  1,\n  2)\n"         # over several lines: bound at its first
               "value1 = 3\n")              # a name the program binds itself is not reused
    assert explorer._values_named(program) == (
        "from x import Q\n"
        "value2 = Q.identity(100)\n"
        "print(3)\n"
        "a = 1; a.b()\n"
        "circuit\n"
        "value3 = foo(\n  1,\n  2)\n"
        "value1 = 3\n")
    assert explorer._values_named("not python (\n") == "not python (\n"


def test_a_program_gets_the_definitions_another_block_of_its_docstring_makes(explorer):
    """ResourceOperator's docs define `class QFT(qre.ResourceOperator)` in a code block and
    use `QFT(num_wires=3)` in their doctest: run alone, the doctest imported the library's QFT."""
    defining = "class QFT:\n    def __init__(self, num_wires):\n        self.n = num_wires\n"
    using = "op = QFT(num_wires=3)\n"
    unrelated = "x = 1\n"
    assert explorer._with_other_blocks_definitions([using, defining, unrelated]) == [defining + using, defining, unrelated]
    # Prod's docs define `circuit` twice, in two blocks: which one its doctest means is lost
    twice = "def circuit(weights):\n    return weights[0]\n"
    assert explorer._with_other_blocks_definitions(["circuit(1.2)\n", defining.replace("QFT", "circuit"), twice])[0] == \
        "circuit(1.2)\n"


def test_a_program_gets_the_block_that_assigns_a_name_it_uses(explorer):
    """A template's docs build `dev = qml.device(...)` in one code block and use `dev` in the
    next: run alone, the second failed with a NameError."""
    device = "dev = qml.device('default.qubit')\n"
    using = "@qml.qnode(dev)\ndef circuit():\n    return qml.state()\n"
    assert explorer._with_other_blocks_definitions([device, using])[1] == device + using
    # a comparison is no assignment, and a name two blocks assign is left undefined
    assert explorer._with_other_blocks_definitions(["dev == 1\n", using])[1] == using
    assert explorer._with_other_blocks_definitions([device, device.replace("default", "mixed"), using])[2] == using


def test_a_docstring_that_needs_a_missing_package_gives_no_program(explorer):
    assert explorer._names_a_missing_package("Loads circuits with the Qusema-Nonexistent plugin.")
    assert explorer._names_a_missing_package("Run `pip install qusema-nonexistent-package` first.")
    assert not explorer._names_a_missing_package("Run `pip install pytest` first.")  # installed here
    assert not explorer._names_a_missing_package("A rotation about the X axis.")


def test_an_attribute_error_for_the_name_asked_is_a_delegation_not_a_crash(explorer):
    """SymbolicOp.basis returns self.base.basis: on a base without one, "'MyOp' object has no
    attribute 'basis'" says the attribute is not there. Another attribute missing is a crash."""
    class Member:
        name = "basis"
    assert explorer._delegated_to_what_lacks_it(AttributeError("'MyOp' object has no attribute 'basis'"), Member)
    assert not explorer._delegated_to_what_lacks_it(AttributeError("'SProd' object has no attribute '_ndim_params'"),
                                                    Member)


pytestmark_release = pytest.mark.release


@pytestmark_release
def test_a_class_whose_docs_only_show_its_objects_gets_specimens(qiskit_runtime):
    """PhasedQubitSparsePauli's doctests show `QubitSparsePauli.identity(100)` and the like
    without assigning them: each shown value is a specimen, so its members are called."""
    result = qiskit_runtime.assert_holds("qiskit.surface.no-internal-error",
                                         "qiskit.quantum_info.PhasedQubitSparsePauli.to_pauli", examples=3)
    assert result["examples"] >= 1


@pytestmark_release
def test_a_composed_constructor_takes_the_next_argument_when_the_first_does_not_build(qiskit_runtime):
    """Kraus(data) was given a documented circuit that measures, which a channel refuses; the
    constructor now tries the next circuit, instruction or operator a recipe builds."""
    qiskit_runtime.assert_holds("qiskit.surface.no-internal-error", "qiskit.quantum_info.Kraus.adjoint", examples=3)


@pytestmark_release
def test_an_operator_without_its_own_constructor_gets_its_wires(pennylane_runtime):
    """qml.S inherits Operator.__init__(*params, wires=None): built bare it refuses, with wires
    it is an object whose methods the calls law calls."""
    pennylane_runtime.assert_holds("pennylane.surface.calls-have-no-internal-error", "pennylane.S.pow", examples=3)


@pytestmark_release
def test_a_template_gets_the_tensors_its_shape_declares(pennylane_runtime):
    pennylane_runtime.assert_holds("pennylane.surface.no-internal-error",
                                   "pennylane.StronglyEntanglingLayers.resource_params", examples=3)
    result = pennylane_runtime("import json, contract_runtime as r, contracts.pennylane_surface as s\n"
                               "import pennylane as qml\n"
                               "print(json.dumps(s.SURFACE.recipes['pennylane.CVNeuralNetLayers#new'].code))")
    # eleven tensors, each of the shape CVNeuralNetLayers.shape(1, 2) lists in its place
    assert "r=np.linspace(0.37, 1.19, 2).reshape((1, 2))" in result and "wires=[0, 1]" in result, result


@pytestmark_release
def test_a_public_function_with_nothing_to_fill_is_called(qiskit_runtime):
    qiskit_runtime.assert_holds("qiskit.surface.calls-have-no-internal-error", "qiskit.circuit.library.clifford_2_1",
                                examples=2)


@pytestmark_release
def test_a_documented_example_names_the_library_calls_its_own_lines_made(qiskit_runtime):
    result = qiskit_runtime.assert_holds("qiskit.surface.examples-run", "qiskit.QuantumCircuit.global_phase#doc0",
                                         examples=1)
    entered = set(result["entered"])
    assert {"qiskit.circuit.quantumcircuit.QuantumCircuit.h",
            "qiskit.circuit.quantumcircuit.QuantumCircuit.__init__"} <= entered, entered
    # the library's own calls beneath them are not the example's
    assert not any("._" in name.rsplit(".", 1)[0] or name.rsplit(".", 1)[1].startswith("_") and
                   not name.endswith("__") for name in entered), entered


@pytestmark_release
def test_a_static_method_takes_a_parameter_named_as_a_property_from_an_instance(pennylane_runtime):
    """CPhaseShift00.compute_decomposition(phi, wires) given one guessed wire was refused
    ("wrong number of wires") on every input; its instances' `wires` are what it takes."""
    pennylane_runtime.assert_holds("pennylane.surface.calls-have-no-internal-error",
                                   "pennylane.CPhaseShift00.compute_decomposition", examples=3)


@pytestmark_release
def test_a_method_that_only_forwards_takes_the_signature_it_overrides(qiskit_runtime):
    """BlueprintCircuit.depth(*args, **kwargs) builds the circuit, then asks
    QuantumCircuit.depth(filter_function=None): a member callable with no arguments."""
    qiskit_runtime.assert_holds("qiskit.surface.no-internal-error", "qiskit.circuit.library.BlueprintCircuit.depth",
                                examples=3)


SYMBOLS = """
import json, numpy as np
from qiskit.circuit import ParameterVector
from qiskit.quantum_info import SparsePauliOp
from surface_explorer import symbolic_where_numbers_needed, too_large_to_densify
symbolic = SparsePauliOp(["II", "XZ"], np.array(ParameterVector("a", 2)))
numeric = SparsePauliOp(["II", "XZ"], [0.5, 0.5])
try:
    symbolic.chop()
except TypeError as exc:
    error = exc
print(json.dumps({
    "symbolic": symbolic_where_numbers_needed(error, [symbolic]),
    "numeric": symbolic_where_numbers_needed(error, [numeric]),
    "other error": symbolic_where_numbers_needed(TypeError("'NoneType' object is not subscriptable"), [symbolic]),
    "large": too_large_to_densify(ValueError("too many qubits"), SparsePauliOp("I" * 30)),
    "small": too_large_to_densify(ValueError("too many qubits"), numeric),
}))
"""


@pytestmark_release
def test_an_error_about_unbound_symbols_or_a_dense_size_limit_is_no_crash(qiskit_runtime):
    """The SparsePauliOp docs build one with Parameter coefficients; chop() compares them with a
    tolerance, and a channel needs numbers: the TypeError naming the symbols is a template asked
    for numbers. A 100-qubit operator's to_matrix refusal is a memory limit. Neither is a defect,
    and neither rule sets aside an error that is not of its kind."""
    qiskit_runtime.assert_holds("qiskit.surface.no-internal-error", "qiskit.quantum_info.SparsePauliOp.chop",
                                examples=5)
    # the round trip through a dense operator of the same object: the same template
    qiskit_runtime.assert_holds("qiskit.surface.round-trips", "qiskit.quantum_info.SparsePauliOp.to_operator",
                                examples=5)
    assert qiskit_runtime(SYMBOLS) == {"symbolic": True, "numeric": False, "other error": False,
                                       "large": True, "small": False}


@pytestmark_release
def test_wires_defaulted_to_none_are_filled_only_where_the_class_counts_its_wires(pennylane_runtime):
    """An operator declares `num_wires`; a measurement process's `wires=None` means "all wires"
    and MutualInfoMP(wires=[0]) is no documented measurement (it takes two groups)."""
    result = pennylane_runtime("import json, contracts.pennylane_surface as s\n"
                               "r = s.SURFACE.recipes\n"
                               "print(json.dumps({k: r[k].code if k in r else None for k in "
                               "('pennylane.S#new', 'pennylane.measurements.MutualInfoMP#new')}))")
    assert "S(wires=[0])" in result["pennylane.S#new"], result
    assert "wires=" not in (result["pennylane.measurements.MutualInfoMP#new"] or ""), result
