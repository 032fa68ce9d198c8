"""Objects the documentation builds without naming them (sandbox/surface_explorer.py
`Surface.produced`): a documented program's namespace is read one query deep, and a PennyLane
QNode's tape is recorded, so a class no program binds to a name still gets specimens; a
private singleton subclass is still its public class; and the unsafe-program filter no longer
drops programs for words that merely contain `mpl` or `time`."""

import importlib
import json

import pytest

from tests.contracts.conftest import SANDBOX_DIR
from tests.contracts.test_surface import PLANT

PL_PLANT = PLANT.replace("import functools, linecache, qiskit\n", "import functools, linecache, pennylane as qiskit\n")


@pytest.fixture()
def explorer(monkeypatch):
    monkeypatch.syspath_prepend(str(SANDBOX_DIR))
    return importlib.import_module("surface_explorer")


def test_the_unsafe_program_filter_matches_words_not_fragments(explorer):
    # words a harmless program is full of: 'sample', 'complex', 'template', 'Amplitude' hold
    # 'mpl'; a parameter named `time` is no clock
    for harmless in ("qml.AmplitudeEmbedding(f, wires=[0])", "z = complex(1, 2)", "counts = sampler.run([qc])",
                     "qml.TrotterProduct(H, time=2.4)", "circuit = qasm2.loads(program)"):
        assert not explorer.UNSAFE_RECIPE.search(harmless), harmless
    for unsafe in ('qc.draw("mpl")', "import time", "time.sleep(1)", "from time import sleep", "qpy.load(f)",
                   "qc.draw(output='mpl')"):
        assert explorer.UNSAFE_RECIPE.search(unsafe), unsafe


def test_a_call_of_a_private_helper_is_dropped_from_a_documented_program(explorer):
    program = ("from qiskit.circuit.library import AND\n"
               "from qiskit.circuit.library.helper import _generate_circuit_library_visualization\n"
               "circuit = AND(5)\n"
               "_generate_circuit_library_visualization(\n    circuit)\n"
               "circuit.h(0)\n"
               "x.__init__(1)\n")
    assert explorer._without_doc_machinery(program) == (
        "from qiskit.circuit.library import AND\n"
        "from qiskit.circuit.library.helper import _generate_circuit_library_visualization\n"
        "circuit = AND(5)\n"
        "circuit.h(0)\n"
        "x.__init__(1)\n")


def test_a_statement_that_only_draws_is_dropped_with_its_unused_plotting_import(explorer):
    """`circuit.draw("mpl")` and `plt.show()` are pictures for the rendered page: without them the
    program builds the same objects and no longer plots, so the filter keeps it. A plotting
    module a kept line uses keeps its import, and that program stays unsafe."""
    program = ("import matplotlib.pyplot as plt\n"
               "from qiskit import QuantumCircuit\n"
               "qc = QuantumCircuit(2)\n"
               "qc.h(0)\n"
               "qc.draw(\"mpl\")\n"
               "plt.show()\n"
               "job = run(qc)\n")
    kept = explorer._without_doc_machinery(program)
    assert kept == "from qiskit import QuantumCircuit\nqc = QuantumCircuit(2)\nqc.h(0)\njob = run(qc)\n"
    assert not explorer.UNSAFE_RECIPE.search(kept)
    plotting = "import matplotlib.pyplot as plt\nfig, ax = plt.subplots()\nqc.draw('mpl', ax=ax)\n"
    assert explorer.UNSAFE_RECIPE.search(explorer._without_doc_machinery(plotting))
    # a plotting function's picture is a drawing too
    assert explorer._without_doc_machinery("counts = job.result()\nplot_histogram(counts)\n") == \
        "counts = job.result()\n"
    # a drawer function's picture and an object's drawing left unkept: their renderers
    # (matplotlib, pillow) are optional, and a program failing on them built its objects for nothing
    timeline = ("from qiskit.visualization import timeline_drawer\n"
                "circ_dd = pm.run(circ)\n"
                "timeline_drawer(circ_dd, target=target)\n"
                "target.build_coupling_map().draw()\n")
    assert explorer._without_doc_machinery(timeline) == "circ_dd = pm.run(circ)\n"
    # an assignment keeps what it draws: a figure a later line may use
    assert explorer._without_doc_machinery("fig = qc.draw('mpl')\n") == "fig = qc.draw('mpl')\n"


def test_a_program_that_leaves_parts_out_with_an_ellipsis_is_a_sketch(explorer):
    assert explorer._elides("executor = create_executor(...)\nexecutor('submit', f)\n")
    assert explorer._elides("run(circuit, shots=...)\n")
    assert explorer._elides("config = ...\n")
    # a stub's body and numpy's ellipsis index are code
    assert not explorer._elides("def f(x):\n    ...\ny = f(1)\n")
    assert not explorer._elides("import numpy as np\nx = np.ones((2, 2))[..., 0]\n")


def test_a_specimen_path_is_an_expression_over_the_programs_namespace(explorer):
    namespace = {"ops": [1, 2], "text": "abc", "__builtins__": __builtins__}
    assert explorer.take(namespace, "ops") == [1, 2]
    assert explorer.take(namespace, "ops[1]") == 2
    assert explorer.take(namespace, "text.upper()[0]") == "A"


pytestmark_release = pytest.mark.release


@pytestmark_release
def test_a_class_only_built_inline_gets_specimens_from_what_programs_leave(qiskit_runtime):
    """No Qiskit example binds a `Unary` or a `DAGOpNode` to a name; `expr.bit_not(...)` leaves
    one, and `dag.op_nodes()` answers a list of the other."""
    for member in ("qiskit.circuit.classical.expr.Unary.operand", "qiskit.dagcircuit.DAGOpNode.qargs",
                   "qiskit.circuit.CircuitInstruction.qubits"):
        result = qiskit_runtime.assert_holds("qiskit.surface.no-internal-error", member, examples=3)
        assert result["examples"] >= 1, result


@pytestmark_release
def test_a_documented_program_that_draws_builds_its_objects_once_the_drawing_is_dropped(qiskit_runtime):
    """StatevectorSampler's example imports matplotlib and never uses it; it is the only
    program that holds a PrimitiveJob (`job = sampler.run([pub], shots=256)`): its methods are
    checked once the unused plotting import is gone."""
    result = qiskit_runtime.assert_holds("qiskit.surface.no-internal-error", "qiskit.primitives.PrimitiveJob.done",
                                         examples=2)
    assert result["examples"] >= 1, result


@pytestmark_release
def test_a_singleton_gate_is_an_object_of_its_public_class(qiskit_runtime):
    """CXGate() is a private `_SingletonCXGate`: still a CXGate to the copy law's `exact`."""
    qiskit_runtime.assert_holds("qiskit.surface.copies-are-equal", "qiskit.circuit.library.CXGate", examples=2)


@pytestmark_release
def test_a_qnodes_tape_is_recorded_as_the_program_calls_it(pennylane_runtime):
    found = pennylane_runtime(
        "import json\nfrom contracts import pennylane_surface as m\nimport pennylane as qml\n"
        "program = ('@qml.qnode(dev)\\ndef circuit(f=None):\\n    qml.RX(f, 0)\\n    return qml.state()\\n'\n"
        "           'value = circuit(f=0.5)\\nprint(circuit(0.25))\\n')\n"
        "dev = qml.device('default.qubit', wires=1)\n"
        "@qml.qnode(dev)\n"
        "def circuit(f=None):\n"
        "    qml.RX(f, 0)\n"
        "    return qml.state()\n"
        "@qml.qnode(dev)\n"
        "def bare():\n"
        "    return qml.state()\n"
        "print(json.dumps([m.recorded_by('circuit', circuit, program), m.recorded_by('bare', bare, ''),\n"
        "                  m.recorded_by('x', 3, program)]))\n")
    assert found == [["qp.workflow.construct_tape(circuit)(f=0.5)", "qp.workflow.construct_tape(circuit)(0.25)"],
                     ["qp.workflow.construct_tape(bare)()"], []]


# QSVT.resource_params dies of an IndexError inside the library.
CRASHING_QSVT_RESOURCE_PARAMS = PL_PLANT + (
    "from pennylane import QSVT\n"
    "original = QSVT.resource_params\n"
    "made = plant('def resource_params(self):\\n    return [][len(self.wires)]\\n', {})\n"
    "QSVT.resource_params = property(functools.wraps(original.fget)(made['resource_params']))\n")


@pytestmark_release
def test_an_operator_the_docs_build_only_inside_a_qnode_is_checked_through_its_tape(pennylane_runtime):
    """QSVT's documentation builds it only inside QNodes (`def circuit(): qml.QSVT(...)`):
    its specimens are operations of the recorded tapes, and a crash of one of its members is
    caught there, with a reproducer that records the tape the same way."""
    law, member = "pennylane.surface.no-internal-error", "pennylane.QSVT.resource_params"
    pennylane_runtime.assert_holds(law, member, examples=3)
    result = pennylane_runtime.assert_caught(law, member, CRASHING_QSVT_RESOURCE_PARAMS, examples=3)
    assert "construct_tape" in result["reproducer"], result["reproducer"]
    assert "IndexError" in result["message"], result["message"]
    json.dumps(result)  # a result a run store can keep


@pytestmark_release
def test_a_documented_program_gets_what_its_docs_take_for_granted(pennylane_runtime):
    """Three ways a PennyLane example failed on its first line, not on the library: a trainable
    array (`np.array(x, requires_grad=True)` is pennylane.numpy's), `pnp`, and a `dev` another
    code block of the same docstring assigns."""
    for example in ("pennylane.qchem.overlap_matrix#doc0", "pennylane.vn_entropy#doc0", "pennylane.IQPEmbedding#doc1"):
        pennylane_runtime.assert_holds("pennylane.surface.examples-run", example, examples=1)
    code = pennylane_runtime("import json\nfrom contracts import pennylane_surface as m\n"
                             "print(json.dumps(m.SURFACE.recipes['pennylane.qchem.overlap_matrix#doc0'].code))")
    assert "from pennylane import numpy as np\n" in code, code


# -- from the review of the first audit with these specimens (qiskit 2.4.1, run 9a8fc536c4) ---------
@pytestmark_release
def test_a_generic_head_is_no_class_of_the_argument(qiskit_runtime):
    """Target.add_instruction's `instruction (Union[Instruction, Type[Instruction]])` got a
    classical-expression `Type` (qiskit.circuit.classical.types.Type) from the word `Type`."""
    plan = qiskit_runtime("import json\nfrom contracts import qiskit_surface as m\n"
                          "print(json.dumps(repr(m.CALLS.plan('qiskit.transpiler.Target.add_instruction'))))")
    assert "classical.types" not in plan and "types.greater" not in plan, plan


@pytestmark_release
def test_a_method_handing_on_a_property_the_object_leaves_none_is_no_crash(qiskit_runtime):
    """Target.seconds_to_dt on a documented target without a `dt` ("None if not set") fails with
    a NoneType TypeError: an absent configuration, not a defect of the call."""
    qiskit_runtime.assert_holds("qiskit.surface.calls-have-no-internal-error", "qiskit.transpiler.Target.seconds_to_dt",
                                examples=6)


@pytestmark_release
def test_an_operation_that_takes_its_synthesis_as_a_parameter_is_held_to_its_definition(qiskit_runtime):
    """PauliEvolutionGate's default synthesis is a single Lie-Trotter step: the documented
    evolution of non-commuting terms is approximate by design, no plugin defect. A plugin of an
    operation with a fixed definition is still held to the matrix (a real 2.4.1 defect)."""
    law = "qiskit.transform.synthesis-plugin-implements-operation"
    assert qiskit_runtime.check_law(contract=law, subject="PauliEvolution.default", patch="",
                                    examples=6)["outcome"] != "violated"
    assert qiskit_runtime.check_law(contract=law, subject="ModularAdder.ripple_v95", patch="",
                                    examples=6)["outcome"] == "violated"


@pytestmark_release
def test_a_part_of_one_object_is_no_argument_of_another_objects_method(qiskit_runtime):
    """`dag.op_nodes()[0]` is a DAGOpNode specimen (a receiver of its own members), but a node
    of one DAG given to another DAG's `ancestors` made Rust panic on an index past the other
    graph's size: seven such 'findings' in a complete audit, none a defect of valid input."""
    plan = qiskit_runtime("import json\nfrom contracts import qiskit_surface as m\n"
                          "print(json.dumps(m.CALLS.plan('qiskit.dagcircuit.DAGCircuit.ancestors')))")
    assert "only parts of other objects" in plan, plan
    qiskit_runtime.assert_holds("qiskit.surface.no-internal-error", "qiskit.dagcircuit.DAGOpNode.qargs", examples=2)


# -- from the review of the PennyLane audit at 9075348 (run 333b543bf1) --------------------------------
def test_a_number_of_things_named_n_is_a_count_not_an_index(monkeypatch):
    monkeypatch.syspath_prepend(str(SANDBOX_DIR))
    arguments = importlib.import_module("surface_arguments")
    assert arguments.is_count("n_block_wires")  # MPS.get_n_blocks(wires, n_block_wires): 0 divided by
    assert arguments.is_count("num_wires") and not arguments.is_count("wire")


def test_arguments_refused_by_a_signature_check_are_a_refusal(explorer):
    """Subroutine.operator binds its arguments to the user's function with inspect.Signature:
    "missing a required argument" is the library's check of the caller's arguments."""
    import linecache
    from pathlib import Path

    package = Path(explorer.__file__).parent / "qusema_fake_library"
    source = "import inspect\ndef call(f):\n    return inspect.signature(f).bind()\n"
    linecache.cache[str(package / "core.py")] = (len(source), None, source.splitlines(True), str(package / "core.py"))
    namespace = {}
    exec(compile(source, str(package / "core.py"), "exec"), namespace)

    def user(x):
        return x
    try:
        namespace["call"](user)
    except TypeError as exc:
        assert explorer.internal_error(exc, "qusema_fake_library") is None
    else:
        raise AssertionError("inspect.Signature.bind accepted a missing argument")
    try:
        exec(compile("def broken():\n    return [][1]\nbroken()\n", str(package / "core.py"), "exec"), {})
    except IndexError as exc:  # an IndexError of the library's own line is still a crash
        assert explorer.internal_error(exc, "qusema_fake_library") is not None


@pytestmark_release
def test_a_documented_example_whose_library_reads_its_source_runs(pennylane_runtime):
    """Subroutine's docs decorate a function that autograph converts by reading its source: run
    from a string the library could not read it (InaccessibleSourceCodeError)."""
    pennylane_runtime.assert_holds("pennylane.surface.examples-run", "pennylane.templates.Subroutine#doc10", examples=1)


@pytestmark_release
def test_a_map_that_returns_the_canonical_class_is_judged_by_its_matrix(pennylane_runtime):
    """MultiControlledX on two controls, mapped, comes back a Toffoli (PennyLane's canonical
    form) with Toffoli's hyperparameters; the real defect of a map that keeps a hyperparameter's
    old wires (GroverOperator's work_wires) is still caught."""
    law = "pennylane.operation.map-wires-maps-hyperparameters"
    pennylane_runtime.assert_holds(law, "MultiControlledX", examples=10)
    assert pennylane_runtime.check_law(contract=law, subject="GroverOperator", patch="",
                                       examples=10)["outcome"] == "violated"



# VF2Layout.run dies inside the library, but only once the pass was given a coupling map:
# without one it refuses with its own TranspilerError, as the release does.
CRASHING_CONFIGURED_VF2_LAYOUT = PLANT + (
    "from qiskit.transpiler.passes import VF2Layout\n"
    "from qiskit.transpiler.exceptions import TranspilerError\n"
    "original = VF2Layout.run\n"
    "made = plant('def run(self, dag):\\n'\n"
    "             '    if self.coupling_map is None and self.target is None:\\n'\n"
    "             '        raise TranspilerError(\"coupling_map or target must be specified.\")\\n'\n"
    "             '    return len(dag.qubits).bit_size\\n', {'TranspilerError': TranspilerError})\n"
    "VF2Layout.run = functools.wraps(original)(made['run'])\n")


@pytestmark_release
def test_a_pass_built_bare_is_also_built_with_what_configures_it(qiskit_runtime):
    """VF2Layout() holds no coupling map, and its `run` refuses every call on it; the surface
    also builds VF2Layout(coupling_map=<a CouplingMap a recipe builds>), so `run` is called
    on a configured pass and a crash only a configured pass reaches is caught."""
    law = "qiskit.surface.calls-have-no-internal-error"
    qiskit_runtime.assert_holds(law, "qiskit.transpiler.passes.VF2Layout.run", examples=5)
    result = qiskit_runtime.assert_caught(law, "qiskit.transpiler.passes.VF2Layout.run",
                                          CRASHING_CONFIGURED_VF2_LAYOUT, examples=10)
    assert "AttributeError" in result["message"] and "coupling_map" in result["reproducer"], result


@pytestmark_release
def test_a_configured_constructor_that_leaves_its_object_empty_gives_no_receiver(pennylane_runtime):
    """CompilePipeline(cotransform_cache=...) is configured through one optional parameter but
    holds no transform: like a bare object it is no receiver, and popping from it (list.pop on
    an empty list) is no crash finding; the documented pipelines, which hold transforms, are."""
    # With the recipes' time to spare: when they overrun BUILD_BUDGET_S (the full suite's load;
    # reproduced alone with a budget of 1 s) the specimens fall back to values the documentation
    # produces, among them an empty pipeline (construct_execution_config's circuit.transform_program),
    # and pop on it is reported. That fallback is a known weakness of a loaded audit (docs/surface.md,
    # "What it does not do yet"); this test is about which receivers a full build gives.
    result = pennylane_runtime.check_law("pennylane.surface.no-internal-error", "pennylane.CompilePipeline.pop",
                                         examples=10, patch="import surface_explorer\n"
                                                             "surface_explorer.BUILD_BUDGET_S = 60.0\n")
    assert result["outcome"] == "holds" and result["examples"] >= 1, result


# LinearPauliRotations.slope dies inside the library, once the circuit has qubits.
CRASHING_SIZED_SLOPE = PLANT + (
    "from qiskit.circuit.library import LinearPauliRotations\n"
    "original = LinearPauliRotations.slope\n"
    "made = plant('def slope(self):\\n'\n"
    "             '    return self.num_state_qubits + None if self.num_state_qubits else 0\\n', {})\n"
    "LinearPauliRotations.slope = property(made['slope'], original.fset)\n")


@pytestmark_release
def test_a_blueprint_built_bare_is_also_built_with_a_size(qiskit_runtime):
    """LinearPauliRotations() leaves `num_state_qubits` None: a blueprint of no qubits, no
    receiver. The surface also builds LinearPauliRotations(num_state_qubits=2), its first
    optional count, so its properties are asked of a circuit that has qubits."""
    law = "qiskit.surface.no-internal-error"
    qiskit_runtime.assert_holds(law, "qiskit.circuit.library.LinearPauliRotations.slope", examples=3)
    result = qiskit_runtime.assert_caught(law, "qiskit.circuit.library.LinearPauliRotations.slope",
                                          CRASHING_SIZED_SLOPE, examples=5)
    assert "TypeError" in result["message"] and "num_state_qubits" in result["reproducer"], result


@pytestmark_release
def test_a_modules_page_is_a_documented_program_too(qiskit_runtime):
    """The docstring of `qiskit.providers.fake_provider` (a page of the API reference) runs a
    circuit on a fake backend: the only documented program that holds a BasicProviderJob, so
    the job's members are checked."""
    result = qiskit_runtime.assert_holds("qiskit.surface.no-internal-error",
                                         "qiskit.providers.basic_provider.BasicProviderJob.status", examples=2)
    assert result["examples"] >= 1, result


@pytestmark_release
def test_a_method_that_answers_nothing_and_changes_its_object_is_a_command_not_a_query(qiskit_runtime):
    """CouplingMap.make_symmetric's summary begins with "Convert", a verb of asking, but it
    answers None and adds the reverse edges to the map: on a directed map (the docs build
    some) it changes its object, which is what it is for."""
    result = qiskit_runtime.check_law("qiskit.surface.queries-are-pure", "qiskit.transpiler.CouplingMap.make_symmetric",
                                      examples=30)
    assert result["outcome"] != "violated", result


@pytestmark_release
def test_a_modules_page_comes_after_the_programs_of_the_objects_themselves(qiskit_runtime):
    """A class's specimens are the first few recipes that build it: the module pages
    `qiskit.transpiler` and `qiskit.circuit.library` (tours that build a CX or a controlled gate
    among much else, in short programs) fill in after the programs that document those objects
    themselves, and do not push them out."""
    order = qiskit_runtime(
        "import json\nfrom contracts import qiskit_surface as m\nfrom qiskit.circuit import ControlledGate\n"
        "print(json.dumps([r.id for r in m.SURFACE.recipes_for(ControlledGate) if r.documented]))\n")
    pages = [k for k, recipe in enumerate(order) if "#moduledoc" in recipe]
    others = [k for k, recipe in enumerate(order) if "#moduledoc" not in recipe]
    assert pages and others and min(pages) > max(others), order


@pytestmark_release
def test_a_sketch_on_a_modules_page_is_no_documented_program(pennylane_runtime):
    """`pennylane.concurrency`'s page sketches `executor = create_executor(...)`: run, the
    Ellipsis reaches the library as a backend's name. (Its other block, which does not parse,
    never runs.)"""
    runnable = ("import ast, json\nfrom contracts import pennylane_surface as m\n"
                "def parses(code):\n    try:\n        return bool(ast.parse(code))\n    except SyntaxError:\n"
                "        return False\n"
                "print(json.dumps([r.id for r in m.SURFACE.recipes.values() if WORD in r.code and parses(r.code)]))\n")
    sketches = pennylane_runtime(runnable.replace("WORD", "'create_executor(...)'"))
    assert sketches == [], sketches
