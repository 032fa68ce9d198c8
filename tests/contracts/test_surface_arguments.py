"""How the surface reads a parameter's type (sandbox/surface_arguments.py): the three docstring
styles the libraries use, which type words it fills with its own literals, where a class named in
a type stands (one object, a list of them, or a shape it does not guess), and the equivalent forms
of a literal. Pure functions of text: no library needed."""

import importlib
import inspect
import types

import pytest

from tests.contracts.conftest import SANDBOX_DIR


@pytest.fixture()
def arguments(monkeypatch):
    monkeypatch.syspath_prepend(str(SANDBOX_DIR))
    return importlib.import_module("surface_arguments")


NUMPYDOC = """Do a thing.

Parameters
----------
qubit : int
    Which qubit.
angles : list[float]
    The angles.

Returns
-------
thing : QuantumCircuit
"""

GOOGLE = """Do a thing.

Args:
    other (Pauli): the other one.
    wires (Sequence[int]): the wires.

Returns:
    Pauli: the product.
"""

SPHINX = """Do a thing.

:param int depth: how deep
:type theta: float
"""


def test_the_three_docstring_styles_give_each_parameter_its_type(arguments):
    assert arguments.documented_types(NUMPYDOC) == {"qubit": "int", "angles": "list[float]"}
    assert arguments.documented_types(GOOGLE) == {"other": "Pauli", "wires": "Sequence[int]"}
    assert arguments.documented_types(SPHINX) == {"theta": "float", "depth": "int"}


def test_a_class_in_a_type_is_one_object_a_list_of_them_or_a_shape_not_guessed(arguments):
    place = arguments._item_place
    assert place("Pauli", 0) == "plain"
    assert place("Optional[Union[Pauli, Clifford]]", len("Optional[Union[")) == "plain"
    assert place("Iterable[Bit]", len("Iterable[")) == "sequence"
    assert place("list of Bit", len("list of ")) == "sequence"
    assert place("Mapping[Parameter, float]", len("Mapping[")) is None
    assert place("Iterable[tuple[Operation, Iterable[Qubit]]]", len("Iterable[tuple[")) is None


def test_a_documented_container_wins_over_an_annotation_of_its_items(arguments):
    def text(annotation, documented):
        parameter = inspect.Parameter("basis", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=annotation)
        return arguments.type_text(parameter, {"basis": documented} if documented else {})

    # annotated with the item's type, documented as a container of items: the container
    assert text("Pauli | Clifford", "Iterable[Union[Pauli, Clifford]]") == "Iterable[Union[Pauli, Clifford]]"
    assert text(int, "list of int") == "list of int"
    # otherwise the annotation stands: it is a container itself, or the docs give one item
    assert text("Sequence[int]", "list of int") == "Sequence[int]"
    assert text(int, "int") == "int"
    assert text(int, "") == "int"
    assert text(inspect.Parameter.empty, "Iterable[Bit]") == "Iterable[Bit]"


def test_literals_fill_numbers_and_flat_lists_of_them_only(arguments):
    options = arguments.ArgumentOptions(surface=type("NoClasses", (), {"classes": {}})())

    def fill(name, text):
        parameter = inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD)
        return options.options(parameter, {name: text}, lambda cls: [])

    assert fill("qubit", "int") == [("literal", "0"), ("literal", "1")]  # an index starts at 0
    assert ("literal", "0") not in fill("modulus", "int")  # other integers never 0
    assert fill("angles", "list[float]")[0] == ("literal", "[0.37, 1.19]")
    assert isinstance(fill("matrix", "List[List[float]]"), str)  # a nested shape: not guessed
    assert isinstance(fill("state", "TensorLike"), str)  # an array of a shape only prose gives
    assert isinstance(fill("label", "str"), str)


def test_a_literal_has_its_equivalent_forms(arguments):
    assert arguments.equivalent_forms("0.37", "float") == ["np.float64(0.37)"]
    assert arguments.equivalent_forms("2", "float") == ["np.int64(2)", "2.0"]
    assert arguments.equivalent_forms("2", "int") == ["np.int64(2)"]
    assert arguments.equivalent_forms("[0, 1]", "Sequence[int]") == ["(0, 1)", "np.array([0, 1])"]
    assert arguments.equivalent_forms("True", "bool") == []
    # a list is only offered as a tuple where the docs take a tuple or any sequence
    assert arguments.equivalent_forms("[0, 1]", "list[int]") == []


def test_a_type_that_names_only_tuples_gets_tuples(arguments):
    """`shape (tuple(int))`: a list in its place is another input (a frozen dataclass stores
    what it is given, and compares unequal to the tuple the docs promise)."""
    literals = [v for kind, v in arguments.ArgumentOptions._literals("tuple(int)", "shape")]
    assert literals and all(v.startswith("(") and v.endswith(")") for v in literals), literals
    literals = [v for kind, v in arguments.ArgumentOptions._literals("list or tuple of int", "shape")]
    assert literals and all(v.startswith("[") for v in literals), literals


def test_each_alternative_of_a_union_is_filled_on_its_own(arguments):
    options = arguments.ArgumentOptions(surface=type("NoClasses", (), {"classes": {}})())
    parameter = inspect.Parameter("qubit", inspect.Parameter.POSITIONAL_OR_KEYWORD)
    union = "Union[Qubit, QuantumRegister, int, slice, Sequence[Union[Qubit, int]]]"
    assert options.options(parameter, {"qubit": union}, lambda cls: []) == [("literal", "0"), ("literal", "1")]
    # a sequence of that union (`control_qubits: Sequence[QubitSpecifier]`): lists of positions
    controls = inspect.Parameter("control_qubits", inspect.Parameter.POSITIONAL_OR_KEYWORD)
    assert options.options(controls, {"control_qubits": f"Sequence[{union}]"}, lambda cls: []) == \
        [("literal", "[0, 1]"), ("literal", "[0]")]
    # but a list of tensors (an array-like alias among the items) is no list of numbers
    operators = inspect.Parameter("ops", inspect.Parameter.POSITIONAL_OR_KEYWORD)
    tensors = "list[PauliSentence | int | float | bool | complex | numpy.ndarray | Operator]"
    assert options.options(operators, {"ops": tensors}, lambda cls: []).startswith("parameter 'ops': no way")
    assert arguments._alternatives("int | None") == ["int", "None"]
    assert arguments._alternatives("float or complex") == ["float", "complex"]
    assert arguments._alternatives("Optional[Union[int, list[int]]]") == ["int", "list[int]"]


def test_an_array_like_alias_gets_no_scalar_guesses(arguments):
    """PennyLane's TensorLike resolves to int | float | bool | complex | ... | ndarray: a state
    or a matrix, whose shape only the prose gives. A scalar there is a guess, not an input;
    `float | ndarray` (an angle, or a batch of them) still gets its angles."""
    def options(annotation):
        def f(x):
            return x
        f.__annotations__["x"] = annotation
        (parameter,) = inspect.signature(f).parameters.values()
        no_classes = types.SimpleNamespace(classes={})  # a surface of no library classes: literals only
        return arguments.ArgumentOptions(no_classes).options(parameter, {}, lambda cls: [], f)

    alias = "Union[int, float, bool, complex, bytes, list, tuple, numpy.ndarray, numpy.generic]"
    assert isinstance(options(alias), str)
    assert [kind for kind, _ in options("float | numpy.ndarray")] == ["literal", "literal"]


def test_a_language_less_block_of_reprs_is_output_not_a_program(monkeypatch):
    """A docstring's `.. code-block::` with no language right after a printing example shows
    what it printed; run as code it fails (its names are reprs), and that is no finding."""
    monkeypatch.syspath_prepend(str(SANDBOX_DIR))
    explorer = importlib.import_module("surface_explorer")
    doc = ("Example.\n\n"
           ".. code-block::\n\n"
           "    Controlled(Adjoint(S(0)), control_wires=[1])\n"
           "    X(0)\n\n"
           ".. code-block::\n\n"
           "    op = qml.X(0)\n"
           "    print(op)\n\n"
           ".. code-block:: python\n\n"
           "    Adjoint(S(0))\n")
    blocks = explorer._code_blocks(doc)
    assert blocks == ["op = qml.X(0)\nprint(op)\n", "Adjoint(S(0))\n"]  # a block said to be Python stays


def test_a_parameters_prose_can_fix_the_number_of_qubits(arguments):
    google = "Decompose.\n\nArgs:\n    gate: Two-qubit gate to be used in the KAK decomposition.\n    fidelity: a number.\n"
    described = arguments.documented_descriptions(google)
    assert arguments.documented_qubit_count(described["gate"]) == 2
    assert arguments.documented_qubit_count(described["fidelity"]) is None
    numpydoc = "Parameters\n----------\nop : Operator\n    A single-qubit operator,\n    acting alone.\n"
    assert arguments.documented_qubit_count(arguments.documented_descriptions(numpydoc)["op"]) == 1
    # two different sizes in one prose fix none
    assert arguments.documented_qubit_count("a single-qubit or two-qubit gate") is None


@pytest.fixture()
def calls(monkeypatch):
    monkeypatch.syspath_prepend(str(SANDBOX_DIR))
    return importlib.import_module("surface_calls")


def test_an_override_takes_the_parameter_types_of_the_method_it_overrides(calls):
    class Base:
        def run(self, dag: "DAGCircuit", depth: int = 1):  # noqa: F821 (a name only the text holds)
            """Run.\n\nArgs:\n    dag: the dag.\n    depth (int): how deep.\n"""

    class Pass(Base):
        def run(self, dag, depth=1):
            """Run this pass on `dag`."""

    target = calls.CallTarget("lib.Pass.run", Pass, "run", "method", Pass.run)
    assert target.doc_types() == {"dag": "DAGCircuit", "depth": "int"}
    own = calls.CallTarget("lib.Base.run", Base, "run", "method", Base.run)
    assert own.doc_types()["depth"] == "int"


def test_three_index_parameters_are_offered_three_positions(calls):
    """ccx(control_qubit1, control_qubit2, target_qubit) takes three different qubits: with the
    first two positions only, every call names one twice and is set aside."""
    def parameter(name):
        return inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    index = [("literal", "0"), ("literal", "1")]
    widened = calls._room_for_distinct_indices(
        [(parameter("control_qubit1"), index), (parameter("control_qubit2"), index), (parameter("target_qubit"), index),
         (parameter("theta"), [("literal", "0.37")])])
    assert [sorted(v for _, v in found) for _, found in widened] == [["0", "1", "2"]] * 3 + [["0.37"]]
    # a list of two positions beside one more: three positions for the single one
    beside_a_list = calls._room_for_distinct_indices(
        [(parameter("controls"), [("literal", "[0, 1]"), ("literal", "[0]")]), (parameter("target"), index)])
    assert sorted(v for _, v in beside_a_list[1][1]) == ["0", "1", "2"]
    # two index parameters keep their two positions; counts are no positions
    two = calls._room_for_distinct_indices([(parameter("control"), index), (parameter("target"), index),
                                            (parameter("num_qubits"), [("literal", "2")])])
    assert [len(found) for _, found in two] == [2, 2, 1]


def test_a_metaclass_that_forwards_everything_does_not_hide_the_constructor(monkeypatch):
    monkeypatch.syspath_prepend(str(SANDBOX_DIR))
    explorer = importlib.import_module("surface_explorer")

    class Meta(type):
        def __call__(cls, *args, **kwargs):
            return super().__call__(*args, **kwargs)

    class Pass(metaclass=Meta):
        def __init__(self, coupling_map, recurse=True):
            self.coupling_map, self.recurse = coupling_map, recurse

    assert list(explorer.constructor_signature(Pass).parameters) == ["coupling_map", "recurse"]
    # defaults that configure build a real object; an empty default leaves a blueprint
    assert explorer._configures(True) and explorer._configures("cx") and explorer._configures(3)
    assert not any(explorer._configures(v) for v in (None, 0, (), "", []))


def test_the_neighbours_of_an_example_change_one_library_argument_at_a_time(monkeypatch):
    monkeypatch.syspath_prepend(str(SANDBOX_DIR))
    perturbation = importlib.import_module("surface_perturbation")
    program = ("import numpy as np\n"
               "from qiskit.circuit.library import QFTGate\n"
               "qc = QuantumCircuit(3)\n"
               "qc.rx(0.5, 1)\n"
               "gate = QFTGate(4)\n"
               "xs = np.linspace(0, 1, 5)\n"
               "for i in range(2):\n"
               "    print(i)\n")
    neighbours = perturbation.ExampleNeighbours(program, "qiskit", (), prelude="from qiskit import QuantumCircuit\n")
    sites = [(s.callee, s.entry, s.node.value) for s in neighbours.sites]
    # library calls, calls on objects the program holds; never numpy's or builtins'
    assert sites == [("QuantumCircuit", "qiskit.QuantumCircuit", 3), ("qc.rx", None, 0.5), ("qc.rx", None, 1),
                     ("QFTGate", "qiskit.circuit.library.QFTGate", 4)]
    assert [s.values() for s in neighbours.sites] == [["4", "2"], ["0.86", "-0.5"], ["2"], ["5", "3"]]
    changed = neighbours.changed(3, "5")
    assert "QFTGate(5)" in changed and "QuantumCircuit(3)" in changed and "np.linspace(0, 1, 5)" in changed
    assert neighbours.changed(0, "2").count("QuantumCircuit(2)") == 1 and "QFTGate(4)" in neighbours.changed(0, "2")


def test_a_neighbour_keeps_the_distinct_ints_of_a_statement_distinct(monkeypatch):
    """`Z(0) @ Z(1)` changed to `Z(1) @ Z(1)` is one wire twice, another operator (a product
    over shared wires, complex-typed): not a neighbour of the documented input."""
    monkeypatch.syspath_prepend(str(SANDBOX_DIR))
    perturbation = importlib.import_module("surface_perturbation")
    neighbours = perturbation.ExampleNeighbours("H = qml.Z(0) @ qml.Z(1)\nqml.RX(0.5, wires=0)\n", "pennylane",
                                                ("qml",))
    # Z(0) has no neighbour (1 is taken), Z(1) becomes Z(2); the next statement is its own
    assert [(s.node.value, s.values()) for s in neighbours.sites] == [(1, ["2"]), (0.5, ["0.86", "-0.5"]), (0, ["1"])]


def test_a_member_is_not_asked_of_an_object_whose_capability_predicate_denies_it(monkeypatch):
    monkeypatch.syspath_prepend(str(SANDBOX_DIR))
    explorer = importlib.import_module("surface_explorer")

    class Gaussian:
        supports_heisenberg = True
        has_matrix = False

    class NonGaussian(Gaussian):
        supports_heisenberg = False

    assert explorer.capability_denied(NonGaussian(), "heisenberg_obs") == "supports_heisenberg"
    assert explorer.capability_denied(Gaussian(), "heisenberg_obs") is None
    assert explorer.capability_denied(Gaussian(), "matrix") == "has_matrix"
    assert explorer.capability_denied(Gaussian(), "compute_eigvals") is None  # no predicate speaks of it
    # the predicate is a question of its own, whatever it answers
    assert explorer.capability_denied(NonGaussian(), "supports_heisenberg") is None
    assert explorer.capability_denied(NonGaussian(), "supports_heisenberg_by_wire") is None


def test_an_array_class_of_the_library_is_a_shape_not_an_object_to_borrow(arguments):
    import numpy as np

    class Tensor(np.ndarray):
        pass

    assert arguments._is_array_class(Tensor) and not arguments._is_array_class(int)


def test_objects_that_print_alike_but_for_numpys_scalar_repr_are_the_same_answer(monkeypatch):
    """Two gates on fresh symbols of one name are unequal and print alike; one built with
    np.float64(0.37) prints `np.float64(0.37)` where the other prints 0.37: the same answer."""
    monkeypatch.syspath_prepend(str(SANDBOX_DIR))
    explorer = importlib.import_module("surface_explorer")

    class Printed:
        def __init__(self, text):
            self.text = text

        def __eq__(self, other):
            return False  # fresh symbols: never equal

        __hash__ = None

        def __str__(self):
            return self.text

    assert explorer.same(Printed("r(a, 0.37)"), Printed("r(a, np.float64(0.37))"), plain=True)
    assert not explorer.same(Printed("r(a, 0.37)"), Printed("r(a, np.float64(0.38))"), plain=True)


def test_an_array_like_alias_named_as_an_angle_takes_reals(arguments):
    """RX.compute_matrix(theta: TensorLike): a parameter named as an angle takes the alias's
    own scalar kind, a real; a one-letter name (qml.math's `x`, any tensor) still gets nothing."""
    alias = "Union[int, float, bool, complex, bytes, list, tuple, numpy.ndarray, numpy.generic]"

    def options(name):
        namespace: dict = {}
        exec(f"def f({name}):\n    return {name}\n", namespace)
        f = namespace["f"]
        f.__annotations__[name] = alias
        (parameter,) = inspect.signature(f).parameters.values()
        no_classes = types.SimpleNamespace(classes={})
        return arguments.ArgumentOptions(no_classes).options(parameter, {}, lambda cls: [], f)

    for angle in ("theta", "phi", "rotation_angle"):
        found = options(angle)
        assert not isinstance(found, str) and found and all(kind == "literal" for kind, _ in found), (angle, found)
        assert all(float(value) != 0 for _, value in found)
    for other in ("x", "state", "matrix"):
        assert isinstance(options(other), str), other


def test_a_plural_name_typed_as_one_number_takes_a_sequence_of_them(arguments):
    """`coeffs (Union[float, callable])` documents each coefficient: ParametrizedHamiltonian
    was given 0.37 for its coefficients. Singulars ending in s (`eps`, `bias`) stay numbers."""
    assert [v for _, v in arguments.ArgumentOptions._literals("float", "coeffs")] == ["[0.37, 1.19]", "[0.37]"]
    assert [v for _, v in arguments.ArgumentOptions._literals("float", "eps")] == ["0.37", "1.19"]
    assert [v for _, v in arguments.ArgumentOptions._literals("float", "bias")] == ["0.37", "1.19"]


def test_numpy_scalars_inside_a_mapping_are_the_numbers_they_hold(monkeypatch):
    """`required_register_sizes(2, 2, np.int64(2))` echoes the np.int64 back inside a dict:
    {'wires': np.int64(2)} is the answer {'wires': 2}; {'wires': 3} is not."""
    monkeypatch.syspath_prepend(str(SANDBOX_DIR))
    calls = importlib.import_module("surface_calls")
    np = pytest.importorskip("numpy")
    assert calls.same_value({"wires": 2, "work": [1]}, {"wires": np.int64(2), "work": [np.int64(1)]})
    assert not calls.same_value({"wires": 2}, {"wires": np.int64(3)})
