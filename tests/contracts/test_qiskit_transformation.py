"""The transformation laws hold on the real release where it is right, and catch a planted
wrong implementation (the library patched inside the test process): each law can fail."""

import pytest


# Each plant breaks exactly what one law is about, for one subject: (subject, patch, public import).
PLANTS = {
    # a pass that drops the global phase
    "qiskit.transform.pass-preserves-operator": (
        "RemoveBarriers",
        "from qiskit.transpiler.passes import RemoveBarriers\n"
        "_run = RemoveBarriers.run\n"
        "def _dropping_phase(self, dag):\n"
        "    dag = _run(self, dag)\n"
        "    dag.global_phase = 0\n"
        "    return dag\n"
        "RemoveBarriers.run = _dropping_phase",
        "from qiskit.transpiler import passes"),
    # a pass that drops every reset
    "qiskit.transform.pass-preserves-outcome-distribution": (
        "RemoveResetInZeroState",
        "from qiskit.transpiler.passes import RemoveResetInZeroState\n"
        "def _dropping_resets(self, dag):\n"
        "    for node in list(dag.op_nodes()):\n"
        "        if node.op.name == 'reset':\n"
        "            dag.remove_op_node(node)\n"
        "    return dag\n"
        "RemoveResetInZeroState.run = _dropping_resets",
        "from qiskit.transpiler import passes"),
    # a compiler that drops the circuit's global phase from its output
    "qiskit.transform.compile-preserves-operator-on-target": (
        "transpile@1",
        "from qiskit.transpiler.passmanager import PassManager\n"
        "_backend = PassManager._passmanager_backend\n"
        "def _phaseless(self, *args, **kwargs):\n"
        "    out = _backend(self, *args, **kwargs)\n"
        "    out.global_phase = 0\n"
        "    return out\n"
        "PassManager._passmanager_backend = _phaseless",
        "from qiskit import transpile"),
    # a compiler whose output measures into the wrong classical bit
    "qiskit.transform.compile-preserves-outcome-distribution": (
        "generate_preset_pass_manager@0",
        "from qiskit.transpiler.passmanager import PassManager\n"
        "_backend = PassManager._passmanager_backend\n"
        "def _swapped_clbits(self, *args, **kwargs):\n"
        "    out = _backend(self, *args, **kwargs)\n"
        "    for i, item in enumerate(out.data):\n"
        "        if item.operation.name == 'measure' and out.num_clbits > 1:\n"
        "            out.data[i] = item.replace(clbits=(out.clbits[(out.find_bit(item.clbits[0]).index + 1) % out.num_clbits],))\n"
        "    return out\n"
        "PassManager._passmanager_backend = _swapped_clbits",
        "from qiskit.transpiler import generate_preset_pass_manager"),
    # a synthesis that loses the global phase of the matrix
    "qiskit.transform.synthesis-implements-input": (
        "qs_decomposition",
        "import qiskit.synthesis\n"
        "_qsd = qiskit.synthesis.qs_decomposition\n"
        "def _phaseless(mat, *args, **kwargs):\n"
        "    circuit = _qsd(mat, *args, **kwargs)\n"
        "    circuit.global_phase = 0\n"
        "    return circuit\n"
        "qiskit.synthesis.qs_decomposition = _phaseless",
        "from qiskit.synthesis import qs_decomposition"),
}

# A subject each law is right for on the release (HighLevelSynthesis and UnitarySynthesis
# are named by the family's brief; the others are the planted subjects).
HOLDS = [
    ("qiskit.transform.pass-preserves-operator", "RemoveBarriers"),
    ("qiskit.transform.pass-preserves-operator", "HighLevelSynthesis"),
    ("qiskit.transform.pass-preserves-operator", "UnitarySynthesis"),
    ("qiskit.transform.pass-preserves-operator", "SabreSwap"),
    ("qiskit.transform.pass-preserves-operator", "ApplyLayout"),
    ("qiskit.transform.pass-preserves-outcome-distribution", "RemoveResetInZeroState"),
    ("qiskit.transform.compile-preserves-operator-on-target", "transpile@1"),
    ("qiskit.transform.compile-preserves-outcome-distribution", "generate_preset_pass_manager@0"),
    ("qiskit.transform.synthesis-implements-input", "qs_decomposition"),
    ("qiskit.transform.synthesis-implements-input", "synth_cz_depth_line_mr"),
]


@pytest.mark.parametrize("contract, subject", HOLDS)
def test_law_holds_on_the_release_for_a_subject_it_is_right_for(qiskit_runtime, contract, subject):
    qiskit_runtime.assert_holds(contract=contract, subject=subject, examples=10)


@pytest.mark.parametrize("contract", sorted(PLANTS))
def test_law_catches_a_planted_wrong_implementation(qiskit_runtime, contract):
    subject, patch, public_import = PLANTS[contract]
    result = qiskit_runtime.assert_caught(contract=contract, subject=subject, patch=patch, examples=25)
    assert public_import in result["reproducer"]  # public API only


def test_subjects_are_the_families_the_library_exposes(qiskit_runtime):
    result = qiskit_runtime(
        "import json, contract_runtime as r\n"
        "print(json.dumps({c: r.subjects('qiskit', c)['subjects'] for c in ("
        "'qiskit.transform.pass-preserves-operator', 'qiskit.transform.synthesis-implements-input',"
        "'qiskit.transform.compile-preserves-operator-on-target')}))")
    passes = set(result["qiskit.transform.pass-preserves-operator"])
    assert {"HighLevelSynthesis", "UnitarySynthesis", "BasisTranslator", "SabreSwap", "ElidePermutations",
            "Optimize1qGatesDecomposition", "ConsolidateBlocks"} <= passes
    assert "SolovayKitaev" not in passes  # documented as approximate
    assert "FilterOpNodes" not in passes  # needs a predicate: not generically constructible
    assert {"synth_clifford_full", "synth_permutation_acg", "qs_decomposition"} <= \
        set(result["qiskit.transform.synthesis-implements-input"])
    assert len(result["qiskit.transform.compile-preserves-operator-on-target"]) == 8


COMPILER_LAWS = ["qiskit.transform.compile-preserves-operator-on-target",
                 "qiskit.transform.compile-preserves-outcome-distribution"]


@pytest.mark.parametrize("contract", COMPILER_LAWS)
@pytest.mark.parametrize("subject", ["transpile@0", "generate_preset_pass_manager@1"])
def test_compiler_laws_run_on_a_release_that_documents_the_pass_manager_elsewhere(old_qiskit_runtime, contract,
                                                                                  subject):
    # qiskit 1.0 documents generate_preset_pass_manager in qiskit.transpiler.preset_passmanagers
    # only: a program importing it from qiskit.transpiler raised on every input there, so
    # neither compiler was ever checked on a 1.x release before 1.3.
    result = old_qiskit_runtime.check_law(contract, subject, examples=3)
    assert result["outcome"] in ("holds", "violated"), result
    assert result["examples"] >= 1, result
    if subject.startswith("generate_preset_pass_manager"):
        assert result["api"] == "qiskit.transpiler.preset_passmanagers.generate_preset_pass_manager", result


def test_pass_laws_list_and_check_passes_on_qiskit_1_0(old_qiskit_runtime):
    # qiskit 1.0's base pass class mentions node_start_time (it carries a schedule across
    # any pass), and SessionEquivalenceLibrary is not in qiskit.circuit there: either one
    # left both pass laws with no subject at all on 1.0.2.
    listed = old_qiskit_runtime("import json, contract_runtime as r\n"
                                "print(json.dumps(r.subjects('qiskit', 'qiskit.transform.pass-preserves-operator')))")
    assert {"RemoveBarriers", "UnitarySynthesis", "BasisTranslator"} <= set(listed["subjects"]), listed
    assert not {"ALAPSchedule", "ASAPSchedule"} & set(listed["subjects"])  # they consume a schedule
    old_qiskit_runtime.assert_holds("qiskit.transform.pass-preserves-operator", "UnitarySynthesis", examples=5)
