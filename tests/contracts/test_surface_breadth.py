"""The laws that carry the surface into the API the catalog never entered, on the real
releases: constructors called with typed arguments, methods whose parameter types only the
method they override states, every registered synthesis plugin, and the neighbours of every
documented example. Each holds on the release for an entry and catches a defect planted in
that entry (compiled as a file of the library, so the crash triage sees library code)."""

import pytest

from tests.contracts.test_surface import PLANT

pytestmark = pytest.mark.release

CALLS = "qiskit.surface.calls-have-no-internal-error"

# QFTGate(num_qubits) dies of an AttributeError inside the library whatever it is given.
CRASHING_QFT_GATE = PLANT + (
    "import functools\n"
    "from qiskit.circuit.library import QFTGate\n"
    "original = QFTGate.__init__\n"
    "made = plant('def __init__(self, num_qubits, *args, **kwargs):\\n    return None.num_qubits\\n', {})\n"
    "QFTGate.__init__ = functools.wraps(original)(made['__init__'])\n")

# CountOps.run (its `dag` parameter typed only by BasePass.run) dies of a TypeError inside the library.
CRASHING_COUNT_OPS = PLANT + (
    "import functools\n"
    "from qiskit.transpiler.passes import CountOps\n"
    "original = CountOps.run\n"
    "made = plant('def run(self, dag):\\n    return len(dag) + None\\n', {})\n"
    "CountOps.run = functools.wraps(original)(made['run'])\n")

# The full QFT synthesis plugin returns its circuit with a global phase the QFT does not have.
PHASE_SHIFTING_QFT_PLUGIN = (
    "import functools\n"
    "from qiskit.transpiler.passes.synthesis.hls_plugins import QFTSynthesisFull\n"
    "original = QFTSynthesisFull.run\n"
    "@functools.wraps(original)\n"
    "def run(self, high_level_object, *args, **kwargs):\n"
    "    out = original(self, high_level_object, *args, **kwargs)\n"
    "    if out is not None:\n"
    "        out.global_phase += 0.5\n"
    "    return out\n"
    "QFTSynthesisFull.run = run\n")

# QuantumCircuit(n) dies of a TypeError inside the library for 4 qubits, one more than the docs use.
CRASHING_FOUR_QUBIT_CIRCUIT = PLANT + (
    "import functools\n"
    "from qiskit import QuantumCircuit\n"
    "original = QuantumCircuit.__init__\n"
    "made = plant('def __init__(self, *regs, **kwargs):\\n"
    "    if regs == (4,):\\n"
    "        return len(regs) + None\\n"
    "    return original(self, *regs, **kwargs)\\n', {'original': original})\n"
    "QuantumCircuit.__init__ = functools.wraps(original)(made['__init__'])\n")
EXAMPLE = "qiskit.quantum_info.Statevector.from_circuit#doc0"  # builds a QuantumCircuit(3)


# QuantumCircuit.ccx dies of a TypeError inside the library for three different qubits.
CRASHING_CCX = PLANT + (
    "import functools\n"
    "from qiskit import QuantumCircuit\n"
    "original = QuantumCircuit.ccx\n"
    "made = plant('def ccx(self, a, b, c, *args, **kwargs):\\n    return len(a) + None\\n', {})\n"
    "QuantumCircuit.ccx = functools.wraps(original)(made['ccx'])\n")


def test_a_method_of_three_qubits_is_called_with_three_different_ones(qiskit_runtime):
    """Three index parameters need three positions: with two, every call of ccx names a qubit
    twice, the library refuses it, and the entry was never judged."""
    qiskit_runtime.assert_holds(CALLS, "qiskit.QuantumCircuit.ccx", examples=10)
    result = qiskit_runtime.assert_caught(CALLS, "qiskit.QuantumCircuit.ccx", CRASHING_CCX, examples=10)
    assert "TypeError" in result["message"] and "planted.py" in result["message"], result["message"]


# QuantumCircuit.mcx dies of a TypeError inside the library for any controls it is given.
CRASHING_MCX = PLANT + (
    "import functools\n"
    "from qiskit import QuantumCircuit\n"
    "original = QuantumCircuit.mcx\n"
    "made = plant('def mcx(self, control_qubits, target_qubit, *args, **kwargs):\\n"
    "    return len(control_qubits) + None\\n', {})\n"
    "QuantumCircuit.mcx = functools.wraps(original)(made['mcx'])\n")


def test_a_sequence_of_qubits_given_as_objects_or_positions_gets_positions(qiskit_runtime):
    """mcx(control_qubits: Sequence[QubitSpecifier], target_qubit): the controls were only ever
    registers of other circuits (refused); a list of positions beside a different target is a
    call the release answers, and a crash on it is caught."""
    qiskit_runtime.assert_holds(CALLS, "qiskit.QuantumCircuit.mcx", examples=10)
    result = qiskit_runtime.assert_caught(CALLS, "qiskit.QuantumCircuit.mcx", CRASHING_MCX, examples=10)
    assert "TypeError" in result["message"] and "planted.py" in result["message"], result["message"]


def test_a_constructor_is_called_with_typed_arguments_and_its_crash_is_caught(qiskit_runtime):
    qiskit_runtime.assert_holds(CALLS, "qiskit.circuit.library.QFTGate", examples=5)
    result = qiskit_runtime.assert_caught(CALLS, "qiskit.circuit.library.QFTGate", CRASHING_QFT_GATE, examples=5)
    assert "AttributeError" in result["message"] and "planted.py" in result["message"], result["message"]
    assert "QFTGate(2)" in result["reproducer"] or "QFTGate(" in result["reproducer"], result["reproducer"]


def test_a_pass_run_takes_the_parameter_types_of_the_method_it_overrides(qiskit_runtime):
    """CountOps.run(dag) has neither annotation nor docstring type for `dag`; BasePass.run
    types it DAGCircuit, and CountOps() (all defaults configure it) is a receiver."""
    qiskit_runtime.assert_holds(CALLS, "qiskit.transpiler.passes.CountOps.run", examples=5)
    result = qiskit_runtime.assert_caught(CALLS, "qiskit.transpiler.passes.CountOps.run", CRASHING_COUNT_OPS,
                                          examples=5)
    assert "TypeError" in result["message"] and "planted.py" in result["message"], result["message"]


def test_every_registered_synthesis_plugin_is_held_to_its_operation(qiskit_runtime):
    law = "qiskit.transform.synthesis-plugin-implements-operation"
    subjects = set(qiskit_runtime("import json, contract_runtime as r\n"
                                  f"print(json.dumps(r.subjects('qiskit', {law!r})))")["subjects"])
    # the pairing is the release's own registry against op.name: no list names a plugin here
    assert {"qft.full", "qft.line", "clifford.ag", "mcx.noaux_v24"} <= subjects, sorted(subjects)
    qiskit_runtime.assert_holds(law, "qft.full", examples=5)
    result = qiskit_runtime.assert_caught(law, "qft.full", PHASE_SHIFTING_QFT_PLUGIN, examples=5)
    assert "does not implement" in result["message"], result["message"]


def test_a_documented_example_with_one_number_changed_is_checked_for_crashes(qiskit_runtime):
    law = "qiskit.surface.perturbed-examples-run"
    qiskit_runtime.assert_holds(law, EXAMPLE, examples=10)
    result = qiskit_runtime.assert_caught(law, EXAMPLE, CRASHING_FOUR_QUBIT_CIRCUIT, examples=25)
    assert "changed to 4" in result["message"] and "TypeError" in result["message"], result["message"]


def test_an_operators_scalar_parameters_come_from_its_documented_types(pennylane_runtime):
    """Displacement(a, phi, wires): no documented example builds one and `a` is no angle's
    name, but its docstring types both parameters float: the configured constructor fills
    them, and the operator's members are exercised."""
    # What is tested is which recipe fills the parameters, not how fast: under the full suite's
    # load (-n auto) the recipes of one check overran the 8 s an audit gives them, and the check
    # "raised" (no instance built in time), though it holds in 12 s alone.
    result = pennylane_runtime.assert_holds("pennylane.surface.no-internal-error", "pennylane.Displacement.label",
                                            examples=3, patch="import surface_explorer\n"
                                                              "surface_explorer.BUILD_BUDGET_S = 60.0\n")
    assert result["examples"] >= 1, result


PL_PLANT = PLANT.replace("import functools, linecache, qiskit\n", "import functools, linecache, pennylane as qiskit\n")

# estimator QFT.resource_decomp dies of a TypeError inside the library when called as its own
# entry (the documentation's qre.estimate, which builds the specimens, still gets the resources).
CRASHING_RESOURCE_DECOMP = PL_PLANT + (
    "import inspect\n"
    "import pennylane.estimator as qre\n"
    "original = qre.QFT.resource_decomp.__func__\n"
    "made = plant('def resource_decomp(cls, num_wires):\\n"
    "    if not any(f.function == \"estimate\" for f in inspect.stack()):\\n"
    "        return num_wires + None\\n"
    "    return original(cls, num_wires)\\n', {'original': original, 'inspect': inspect})\n"
    "qre.QFT.resource_decomp = classmethod(functools.wraps(original)(made['resource_decomp']))\n")


def test_a_class_method_takes_the_mapping_its_instances_hold(pennylane_runtime):
    """QFT.resource_decomp(num_wires) documents the parameters QFT instances hold in
    `resource_params`: it is called as QFT.resource_decomp(**qft.resource_params), with the
    instance its documentation builds, not with guesses."""
    law = "pennylane.surface.calls-have-no-internal-error"
    subject = "pennylane.estimator.QFT.resource_decomp"
    pennylane_runtime.assert_holds(law, subject, examples=3)
    result = pennylane_runtime.assert_caught(law, subject, CRASHING_RESOURCE_DECOMP, examples=3)
    assert "resource_params" in result["message"] and "TypeError" in result["message"], result["message"]


# CheckMap.run dies of an AttributeError inside the library.
CRASHING_CHECK_MAP = PLANT + (
    "import functools\n"
    "from qiskit.transpiler.passes import CheckMap\n"
    "original = CheckMap.run\n"
    "made = plant('def run(self, dag):\\n    return dag.no_such_thing\\n', {})\n"
    "CheckMap.run = functools.wraps(original)(made['run'])\n")


def test_a_class_that_takes_a_library_object_is_built_with_one_an_alternative_constructor_makes(qiskit_runtime):
    """CheckMap(coupling_map) takes a CouplingMap, whose plain constructor builds an empty one
    and whose from_line(num_qubits) builds a real one: CheckMap's recipe builds the map that way
    first, and CheckMap.run gets a receiver."""
    recipe = qiskit_runtime("import json\nfrom contracts import qiskit_surface as m\n"
                            "print(json.dumps(m.SURFACE.recipes['qiskit.transpiler.passes.CheckMap#new'].code))")
    assert "CouplingMap.from_" in recipe and "CheckMap(coupling_map=" in recipe, recipe
    qiskit_runtime.assert_holds(CALLS, "qiskit.transpiler.passes.CheckMap.run", examples=3)
    result = qiskit_runtime.assert_caught(CALLS, "qiskit.transpiler.passes.CheckMap.run", CRASHING_CHECK_MAP,
                                          examples=3)
    assert "AttributeError" in result["message"] and "planted.py" in result["message"], result["message"]


def test_an_argument_comes_from_the_callables_own_documentation_when_it_builds_one(pennylane_runtime):
    """PauliVSpace's docs build its generators as a list of operators (`ops = [qp.X(0), ...]`);
    a PauliSentence borrowed from another docstring (complex coefficients, against the space's
    documented dtype=float) is no longer what it is called with."""
    plan = pennylane_runtime("import json\nfrom contracts import pennylane_surface as m\n"
                             "receivers, options = m.CALLS.plan('pennylane.pauli.PauliVSpace')\n"
                             "print(json.dumps([value for _, found in options for _, value in found]))")
    assert plan and all(recipe.startswith("pennylane.pauli.PauliVSpace") for recipe, _ in plan), plan
    assert any(variable.startswith("ops[") for _, variable in plan), plan
    pennylane_runtime.assert_holds("pennylane.surface.calls-have-no-internal-error", "pennylane.pauli.PauliVSpace",
                                   examples=4)


# The full QFT synthesis plugin dies of a TypeError inside the library.
CRASHING_QFT_PLUGIN = PLANT + (
    "import functools\n"
    "from qiskit.transpiler.passes.synthesis.hls_plugins import QFTSynthesisFull\n"
    "original = QFTSynthesisFull.run\n"
    "made = plant('def run(self, high_level_object, *args, **options):\\n"
    "    return high_level_object.num_qubits + None\\n', {})\n"
    "QFTSynthesisFull.run = functools.wraps(original)(made['run'])\n")


def test_a_synthesis_plugin_that_crashes_is_a_crash_finding(qiskit_runtime):
    law = "qiskit.transform.synthesis-plugin-runs"
    qiskit_runtime.assert_holds(law, "qft.full", examples=3)
    result = qiskit_runtime.assert_caught(law, "qft.full", CRASHING_QFT_PLUGIN, examples=3)
    assert "TypeError" in result["message"] and "planted.py" in result["message"], result["message"]


def test_a_plugin_that_needs_auxiliary_qubits_is_given_those_its_documentation_offers(qiskit_runtime):
    """mcx.1_clean_b95 declines without an auxiliary qubit; its docstring lists the option
    num_clean_ancillas, and given it, the plugin's circuit is judged (on ancillas from |0>)."""
    result = qiskit_runtime.assert_holds("qiskit.transform.synthesis-plugin-implements-operation",
                                         "mcx.1_clean_b95", examples=6)
    assert result["examples"] >= 1, result


# CommutativeCancellation.run dies of a TypeError inside the library (not of an attribute its
# defaults left None), and only in the default configuration (no basis, no target): caught only
# if the bare pass is a receiver, since a configured constructor (a documented Target) comes first.
CRASHING_COMMUTATIVE_CANCELLATION = PLANT + (
    "import functools\n"
    "from qiskit.transpiler.passes import CommutativeCancellation\n"
    "original = CommutativeCancellation.run\n"
    "made = plant('def run(self, dag):\\n    if self.basis:\\n        return original(self, dag)\\n"
    "    return len(dag.op_nodes()) + \"\"\\n', {'original': original})\n"
    "CommutativeCancellation.run = functools.wraps(original)(made['run'])\n")

# The same run, dying of the target its defaults left None: a configuration the engine did not
# give (CommutativeCancellation() has no target), not a defect.
UNCONFIGURED_COMMUTATIVE_CANCELLATION = PLANT + (
    "import functools\n"
    "from qiskit.transpiler.passes import CommutativeCancellation\n"
    "original = CommutativeCancellation.run\n"
    "made = plant('def run(self, dag):\\n    self.target = None\\n    return self.target.num_qubits\\n', {})\n"
    "CommutativeCancellation.run = functools.wraps(original)(made['run'])\n")


def test_a_pass_built_bare_is_a_receiver_and_its_crash_is_caught(qiskit_runtime):
    """CommutativeCancellation(basis_gates=None, target=None) is no configured constructor (its
    defaults leave things unset), yet what it builds is not empty: its run(dag) is checked."""
    subject = "qiskit.transpiler.passes.CommutativeCancellation.run"
    qiskit_runtime.assert_holds(CALLS, subject, examples=5)
    result = qiskit_runtime.assert_caught(CALLS, subject, CRASHING_COMMUTATIVE_CANCELLATION, examples=5)
    assert "TypeError" in result["message"] and "planted.py" in result["message"], result["message"]
    assert "CommutativeCancellation()" in result["reproducer"], result["reproducer"]


def test_a_bare_object_asked_for_what_its_defaults_left_unset_is_no_finding(qiskit_runtime):
    result = qiskit_runtime.check_law(contract=CALLS, subject="qiskit.transpiler.passes.CommutativeCancellation.run",
                                      patch=UNCONFIGURED_COMMUTATIVE_CANCELLATION, examples=5)
    assert result["outcome"] != "violated", result


SPECIMENS = ("import json\n"
             "from contracts.qiskit_surface import SURFACE as S\n"
             "from qiskit.transpiler import Layout\n"
             "from qiskit.transpiler.passes import CommutativeCancellation\n"
             "from qiskit.circuit.library import UCRXGate\n"
             "from qiskit.circuit import AnnotatedOperation\n"
             "names = {cls.__name__: d for cls, d in S.classes.items()}\n"
             "print(json.dumps({\n"
             "  'pass': S.specimens(CommutativeCancellation, usable=True),\n"
             "  'pass_trusted': S.specimens(CommutativeCancellation, trusted=True),\n"
             "  'layout': S.specimens(Layout, usable=True),\n"
             "  'layout_any': S.specimens(Layout),\n"
             "  'ucrx': S.specimens(UCRXGate, trusted=True),\n"
             "  'annotated': S.specimens(AnnotatedOperation, trusted=True),\n"
             "  'sampler': names.get('StatevectorSampler'), 'qasm3': names.get('Exporter')}))\n")


def test_receivers_built_bare_are_kept_only_when_they_hold_something(qiskit_runtime):
    found = qiskit_runtime(SPECIMENS)
    bare_pass = ["qiskit.transpiler.passes.CommutativeCancellation#new", "obj"]
    assert bare_pass in found["pass"] and bare_pass not in found["pass_trusted"], found
    # Layout() holds no qubits: built (any specimen) but never a receiver of the crash laws
    bare_layout = ["qiskit.transpiler.Layout#new", "obj"]
    assert bare_layout in found["layout_any"] and bare_layout not in found["layout"], found


def test_constructors_take_plain_values_and_subclasses_of_a_base_parameter(qiskit_runtime):
    """UCRXGate(angle_list) takes a list of floats; AnnotatedOperation(base_op: Operation,
    modifiers: Modifier | list) takes a public subclass of each base: neither had a recipe."""
    found = qiskit_runtime(SPECIMENS)
    assert ["qiskit.circuit.library.UCRXGate#new", "obj"] in found["ucrx"], found
    assert ["qiskit.circuit.AnnotatedOperation#new", "obj"] in found["annotated"], found


def test_the_surface_reaches_public_subpackages_that_importing_the_library_does_not_load(qiskit_runtime):
    found = qiskit_runtime(SPECIMENS)
    assert found["sampler"] == "qiskit.primitives.StatevectorSampler", found
    assert found["qasm3"] == "qiskit.qasm3.Exporter", found


def test_an_array_like_alias_gives_a_constructor_no_library_object(pennylane_runtime):
    """SProd(scalar: TensorLike, base): TensorLike's union names pennylane.typing.InterfaceTensor,
    a marker of array types; a composed constructor took `InterfaceTensor()` as the scalar, and
    every SProd member then failed on it (four false crash findings in run 28fdb1ca28)."""
    found = pennylane_runtime("import json\nfrom contracts.pennylane_surface import SURFACE as S\n"
                              "print(json.dumps(sorted(k for k, r in S.recipes.items()\n"
                              "                        if k.endswith('#new') and 'InterfaceTensor()\\n_argument' in r.code)))")
    assert found == [], found


def test_a_crash_on_a_documented_none_default_is_still_found(qiskit_runtime):
    """PiecewisePolynomialPauliRotationsGate(num_state_qubits) dies of `breakpoints.copy()` on its
    default None, documented as "Defaults to [0]": a default the docs give, not a placeholder a
    configuration fills (the None-default rule of the call laws must not set it aside)."""
    result = qiskit_runtime.check_law(CALLS, "qiskit.circuit.library.PiecewisePolynomialPauliRotationsGate",
                                      examples=5, other_failures=False)
    assert result["outcome"] == "violated", result
    assert "AttributeError" in result["message"] and "copy" in result["message"], result["message"]
