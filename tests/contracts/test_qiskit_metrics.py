"""The metrics-on-every-instruction-kind law holds on the real release where it is right,
catches planted wrong implementations (the library patched inside the test process), and its
subjects and circuits follow what the release has."""

import pytest

LAW = "qiskit.structure.metrics-on-every-instruction-kind"

# Each plant breaks one metric for one instruction kind, the way a real bug would.
PLANTS = {
    # reset misclassified as a directive: size() (default filter) stops counting it
    "QuantumCircuit.size": "from qiskit.circuit import Reset\nReset._directive = True",
    # the classical part forgotten: measure no longer joins a qubit to its clbit
    "QuantumCircuit.num_connected_components": (
        "from qiskit import QuantumCircuit\n"
        "_orig = QuantumCircuit.num_connected_components\n"
        "QuantumCircuit.num_connected_components = lambda self, unitary_only=False: _orig(self, unitary_only=True)"),
    # a depth that only sees the qubits: conditions and measurements do not order instructions
    "QuantumCircuit.depth": (
        "from qiskit import QuantumCircuit\n"
        "def _qubit_depth(self, filter_function=lambda i: not getattr(i.operation, '_directive', False)):\n"
        "    level = {q: 0 for q in self.qubits}\n"
        "    for i in self.data:\n"
        "        if i.qubits:\n"
        "            here = max(level[q] for q in i.qubits) + bool(filter_function(i))\n"
        "            for q in i.qubits:\n"
        "                level[q] = here\n"
        "    return max(level.values(), default=0)\n"
        "QuantumCircuit.depth = _qubit_depth"),
}


@pytest.mark.parametrize("subject", ["QuantumCircuit.depth", "QuantumCircuit.size", "QuantumCircuit.num_connected_components",
                                     "DAGCircuit.count_ops", "DAGCircuit.depth(recurse)"])
def test_law_holds_on_the_release(qiskit_runtime, subject):
    result = qiskit_runtime.assert_holds(LAW, subject, examples=25)
    assert result["examples"] >= 25
    assert "refused" not in result, result  # every drawn circuit was built and measured


@pytest.mark.parametrize("subject", sorted(PLANTS))
def test_law_catches_a_planted_wrong_metric(qiskit_runtime, subject):
    result = qiskit_runtime.assert_caught(LAW, subject, patch=PLANTS[subject], examples=100)
    assert "from qiskit import QuantumCircuit" in result["reproducer"]  # public API only
    assert "contracts" not in result["reproducer"]


def test_subjects_follow_the_release(qiskit_runtime):
    subjects = qiskit_runtime("import json, contract_runtime as r\n"
                              f"print(json.dumps(r.subjects('qiskit', {LAW!r})))")
    names = set(subjects["subjects"])
    assert {"QuantumCircuit.depth", "QuantumCircuit.depth(filter_function)", "QuantumCircuit.size(filter_function)",
            "QuantumCircuit.num_unitary_factors", "DAGCircuit.count_ops", "DAGCircuit.longest_path",
            "DAGCircuit.depth(recurse)"} <= names
    assert len(names) == 18
    assert subjects["apis"]["DAGCircuit.depth(recurse)"] == "qiskit.dagcircuit.DAGCircuit.depth"
    assert subjects["apis"]["QuantumCircuit.size(filter_function)"] == "qiskit.QuantumCircuit.size"


def test_circuits_hold_every_instruction_kind_the_release_has(qiskit_runtime):
    """2.4.1 has no c_if and calls depth 'not well defined' with control flow: no control flow
    for depth, every other kind (control flow, Store, variables) for size."""
    kinds = qiskit_runtime(
        "import json\n"
        "from hypothesis import given, settings, HealthCheck\n"
        "from contracts import qiskit_metrics as m\n"
        "seen = {}\n"
        "for subject in ('QuantumCircuit.size', 'QuantumCircuit.depth'):\n"
        "    found = seen.setdefault(subject, set())\n"
        "    @settings(max_examples=300, database=None, suppress_health_check=list(HealthCheck))\n"
        "    @given(m._strategy(subject))\n"
        "    def draw(circuit):\n"
        "        found.update(op[0] for op in circuit[3])\n"
        "        m.build(circuit)\n"
        "    draw()\n"
        "print(json.dumps({s: sorted(k) for s, k in seen.items()}))")
    assert set(kinds["QuantumCircuit.size"]) == {"gate", "global_phase", "barrier", "delay", "reset", "measure",
                                                 "kraus", "if", "while", "for", "switch", "store"}
    assert not {"if", "while", "for", "switch"} & set(kinds["QuantumCircuit.depth"])
    assert {"store", "measure", "global_phase"} <= set(kinds["QuantumCircuit.depth"])


def test_every_subjects_reproducer_runs_and_passes_where_the_law_holds(qiskit_runtime):
    """A reproducer is a standalone program for every subject (filters quote strings)."""
    outcomes = qiskit_runtime(
        "import json, warnings\n"
        "warnings.filterwarnings('ignore')\n"
        "from hypothesis import given, settings, HealthCheck\n"
        "import contract_runtime as r\n"
        "from contracts import qiskit_metrics as m\n"
        "outcomes = {}\n"
        f"for subject in r.subjects('qiskit', {LAW!r})['subjects']:\n"
        "    @settings(max_examples=3, database=None, suppress_health_check=list(HealthCheck))\n"
        "    @given(m._strategy(subject))\n"
        "    def run(circuit):\n"
        "        exec(m._reproduce(subject, circuit), {'__name__': '__main__'})\n"
        "    try:\n"
        "        run()\n"
        "        outcomes[subject] = 'passes'\n"
        "    except BaseException as exc:\n"
        "        outcomes[subject] = type(exc).__name__\n"
        "print(json.dumps(outcomes))")
    assert len(outcomes) == 18
    assert set(outcomes.values()) == {"passes"}, outcomes
