"""`qiskit.transform.stage-plugins-*` (sandbox/contracts/qiskit_stage_plugins.py): transpile and
generate_preset_pass_manager with any installed stage plugin chosen (layout_method, routing_method,
translation_method, ...) still compile correctly. Subjects come from the release's own plugin
registry; a broken plugin is caught with a failing reproducer; the real release is quiet."""

import pytest

OPERATOR = "qiskit.transform.stage-plugins-preserve-operator"
DISTRIBUTION = "qiskit.transform.stage-plugins-preserve-outcome-distribution"

# The 'lookahead' routing plugin drops the last two-qubit gate of what it routes.
LOOKAHEAD_ROUTING_DROPS_A_GATE = (
    "from qiskit.transpiler.passes import LookaheadSwap\n"
    "original = LookaheadSwap.run\n"
    "def run(self, dag):\n"
    "    out = original(self, dag)\n"
    "    pairs = [n for n in out.op_nodes() if len(n.qargs) == 2 and n.op.name != 'swap']\n"
    "    if pairs:\n"
    "        out.remove_op_node(pairs[-1])\n"
    "    return out\n"
    "LookaheadSwap.run = run\n")

# The 'dense' layout plugin's output loses its global phase.
DENSE_LAYOUT_LOSES_PHASE = (
    "from qiskit.transpiler.passes import DenseLayout\n"
    "original = DenseLayout.run\n"
    "def run(self, dag):\n"
    "    out = original(self, dag)\n"
    "    dag.global_phase = dag.global_phase + 0.5\n"
    "    return out\n"
    "DenseLayout.run = run\n")


@pytest.mark.release
def test_subjects_are_every_installed_stage_plugin_but_default_at_every_level(qiskit_runtime):
    found = qiskit_runtime("import json\nfrom contracts import qiskit_stage_plugins as m\n"
                           "print(json.dumps(m.CONTRACTS[0].subjects()))")
    assert "transpile@0|routing_method=basic" in found
    assert "generate_preset_pass_manager@3|layout_method=sabre" in found
    assert "transpile@2|translation_method=synthesis" in found
    assert not any(s.endswith("=default") for s in found), found
    assert not any("scheduling_method" in s for s in found), found  # durations: qiskit_targets' law
    # each setting at the four levels, through both entries
    assert len(found) % 8 == 0 and len({s.split("|")[1] for s in found}) == len(found) // 8


@pytest.mark.release
# (routing_method='basic' is not among them: on 2.4.1 it changes the global phase of circuits that have one)
@pytest.mark.parametrize("subject", ["transpile@1|routing_method=lookahead", "generate_preset_pass_manager@3|layout_method=dense",
                                     "transpile@2|translation_method=synthesis"])
def test_the_release_is_quiet(qiskit_runtime, subject):
    qiskit_runtime.assert_holds(OPERATOR, subject, examples=30)


@pytest.mark.release
def test_the_release_is_quiet_on_measured_circuits(qiskit_runtime):
    qiskit_runtime.assert_holds(DISTRIBUTION, "transpile@1|routing_method=sabre", examples=30)


@pytest.mark.release
def test_a_routing_plugin_that_drops_a_gate_is_caught(qiskit_runtime):
    result = qiskit_runtime.assert_caught(OPERATOR, "transpile@1|routing_method=lookahead",
                                          LOOKAHEAD_ROUTING_DROPS_A_GATE, examples=60)
    assert "routing_method='lookahead'" in result["reproducer"], result["reproducer"][-2000:]


@pytest.mark.release
def test_a_layout_plugin_that_shifts_the_phase_is_caught_and_not_blamed_on_the_default(qiskit_runtime):
    result = qiskit_runtime.assert_caught(OPERATOR, "generate_preset_pass_manager@0|layout_method=dense",
                                          DENSE_LAYOUT_LOSES_PHASE, examples=60)
    assert "layout_method='dense'" in result["reproducer"]
    # the compile law checks the default plugins: level 0's is the trivial layout, never the planted one
    qiskit_runtime.assert_holds("qiskit.transform.compile-preserves-operator-on-target",
                                "generate_preset_pass_manager@0", examples=30, patch=DENSE_LAYOUT_LOSES_PHASE)
