"""The measurement, execution, derivative, conversion and resource laws hold on the real
PennyLane release where it is right, and catch a planted wrong implementation (the library
patched inside the test process): each law can fail."""

import pytest


# Each plant breaks exactly what one law is about, for one subject.
PLANTS = {
    "pennylane.measure.analytic-matches-state": (
        "default.qubit/probs",
        "from pennylane.measurements import ProbabilityMP\n"
        "original = ProbabilityMP.process_state\n"
        "ProbabilityMP.process_state = lambda self, state, wire_order: original(self, state, wire_order)[::-1]"),
    "pennylane.measure.finite-shots-match-distribution": (
        "default.qubit/counts",
        "import pennylane.devices.qubit.sampling as sampling\n"
        "original = sampling.sample_state\n"
        "sampling.sample_state = lambda *a, **k: 1 - original(*a, **k)"),
    "pennylane.measure.mid-circuit-statistics": (
        "default.qubit/deferred",
        "import pennylane as qml\n"
        "original = qml.measure\n"
        "qml.measure = lambda wires, reset=False, postselect=None: original(wires, reset=reset)"),  # ignores postselect
    "pennylane.measure.mid-circuit-shots": (
        "default.qubit/deferred/fill-shots",
        "import pennylane as qml\n"
        "original = qml.measure\n"
        "qml.measure = lambda wires, reset=False, postselect=None: original(wires, reset=reset)"),  # ignores postselect
    "pennylane.exec.devices-agree": (
        "default.qubit~lightning.qubit",
        # default.qubit applies gates by their matrices, lightning by its own kernels
        "from pennylane.operation import Operator\n"
        "original = Operator.matrix\n"
        "Operator.matrix = lambda self, wire_order=None: original(self, wire_order).conj()"),
    "pennylane.exec.seed-reproducible": (
        "default.qubit",
        "from pennylane.devices import DefaultQubit\n"
        "original = DefaultQubit.__init__\n"
        "def unseeded(self, wires=None, shots=None, seed='global', **kwargs):\n"
        "    original(self, wires=wires, shots=shots, seed=None, **kwargs)\n"
        "DefaultQubit.__init__ = unseeded"),
    "pennylane.exec.seeds-independent": (
        "default.qubit",
        "from pennylane.devices import DefaultQubit\n"
        "original = DefaultQubit.__init__\n"
        "def one_seed(self, wires=None, shots=None, seed='global', **kwargs):\n"
        "    original(self, wires=wires, shots=shots, seed=1234, **kwargs)\n"
        "DefaultQubit.__init__ = one_seed"),
    "pennylane.grad.diff-methods-agree": (
        "default.qubit/parameter-shift",
        "import pennylane as qml\n"
        "for gate in (qml.RX, qml.RY, qml.RZ, qml.Rot, qml.PhaseShift, qml.U3, qml.CRX, qml.CRY, qml.CRZ,\n"
        "             qml.ControlledPhaseShift, qml.IsingXX, qml.IsingYY, qml.IsingZZ):\n"
        "    gate.grad_recipe = tuple([[0.5, 1.0, 1.2], [-0.5, 1.0, -1.2]] for _ in range(gate.num_params))"),
    "pennylane.convert.pauli-decompose-reconstructs": (
        "operator",
        "import pennylane as qml\n"
        "original = qml.pauli_decompose\n"
        "qml.pauli_decompose = lambda H, *a, **k: original(H.T, *a, **k)"),  # conjugates: Y terms flip sign
    "pennylane.convert.pauli-arithmetic-matrix": (
        "PauliSentence @ PauliSentence",
        "from pennylane.pauli import PauliSentence\n"
        "original = PauliSentence.__matmul__\n"
        "PauliSentence.__matmul__ = lambda self, other: original(other, self)"),
    "pennylane.convert.openqasm-preserves-operator": (
        "to_openqasm",
        "import sys, pennylane as qml\n"
        "export = sys.modules['pennylane.io.to_openqasm']\n"
        "export.OPENQASM_GATES['RY'] = 'rx'\n"
        "export.OPENQASM_GATES['CNOT'] = 'cz'"),
    "pennylane.convert.tape-roundtrip": (
        "copy",
        "from pennylane.tape import QuantumScript\n"
        "original = QuantumScript.copy\n"
        "def shuffled(self, copy_operations=False, **update):\n"
        "    update.setdefault('operations', list(reversed(self.operations)))\n"
        "    return original(self, copy_operations=copy_operations, **update)\n"
        "QuantumScript.copy = shuffled"),
    "pennylane.measure.process-forms-agree": (
        "counts/process_counts",
        # ignores wire_order: reads the counts keys as if the measured wires came first
        "from pennylane.measurements import CountsMP\n"
        "original = CountsMP.process_counts\n"
        "CountsMP.process_counts = lambda self, counts, wire_order: original(\n"
        "    self, counts, list(self.wires) + [w for w in wire_order if w not in self.wires])"),
    "pennylane.resource.specs-counts": (
        "top",
        "import pennylane.resource.resource as resource\n"
        "original = resource._count_resources\n"
        "resource._count_resources = lambda tape, *a, **k: original(tape.copy(operations=tape.operations[1:]), *a, **k)"),
}

# Subjects where the release is right, to show the law holds. to_openqasm is not here: the
# release violates that law on every route (an empty circuit exports no qubit register, see
# test_the_release_shows_violations).
HOLDS_ON = {contract: subject for contract, (subject, _) in PLANTS.items()
            if contract != "pennylane.convert.openqasm-preserves-operator"}


@pytest.mark.parametrize("contract", sorted(HOLDS_ON))
def test_law_holds_on_the_release_for_a_subject_it_is_right_for(pennylane_runtime, contract):
    pennylane_runtime.assert_holds(contract=contract, subject=HOLDS_ON[contract], examples=12)


@pytest.mark.parametrize("contract", sorted(PLANTS))
def test_law_catches_a_planted_wrong_implementation(pennylane_runtime, contract):
    subject, patch = PLANTS[contract]
    result = pennylane_runtime.assert_caught(contract=contract, subject=subject, patch=patch, examples=25)
    assert "import pennylane as qml" in result["reproducer"]  # public API only
    assert "contract" not in result["reproducer"] and "oracle_core" not in result["reproducer"]  # standalone


def test_subjects_come_from_the_live_library(pennylane_runtime):
    result = pennylane_runtime(
        "import json, warnings\nwarnings.filterwarnings('ignore')\nimport contract_runtime as r\n"
        "print(json.dumps({c: r.subjects('pennylane', c)['subjects'] for c in "
        "['pennylane.measure.analytic-matches-state', 'pennylane.grad.diff-methods-agree', "
        "'pennylane.convert.openqasm-preserves-operator']}))")
    analytic = set(result["pennylane.measure.analytic-matches-state"])
    assert {"default.qubit/expval", "default.qubit/state", "default.mixed/vn_entropy", "lightning.qubit/probs"} <= analytic
    gradients = set(result["pennylane.grad.diff-methods-agree"])
    assert {"default.qubit/parameter-shift", "default.qubit/backprop", "lightning.qubit/adjoint"} <= gradients
    assert "lightning.qubit/backprop" not in gradients  # lightning refuses backprop: not a subject
    # from_qasm needs pennylane-qiskit, absent from this environment: not a subject here
    assert result["pennylane.convert.openqasm-preserves-operator"] == ["to_openqasm", "to_openqasm(precision)"]


@pytest.mark.parametrize("contract, subject", [
    ("pennylane.measure.mid-circuit-statistics", "default.qubit/tree-traversal"),  # probs(wires) comes back a scalar
    ("pennylane.convert.openqasm-preserves-operator", "to_openqasm"),  # empty circuit: no qreg at all
    # VnEntropyMP.process_state passes wire labels as positions: wire_order is ignored
    ("pennylane.measure.process-forms-agree", "vn_entropy/process_state"),
    # SampleMP.process_counts flattens one wire's samples to (shots,); process_samples gives (shots, 1)
    ("pennylane.measure.process-forms-agree", "sample/process_counts"),
])
def test_the_release_shows_violations(pennylane_runtime, contract, subject):
    """Violations the real release shows (kept: the laws are right, see the family report);
    their reproducers fail on the release."""
    result = pennylane_runtime.check_law(patch="", contract=contract, subject=subject, examples=25)
    assert result["outcome"] == "violated", result
    assert result["reproducer_fails"], result["reproducer"]


def test_process_forms_are_subjects_only_where_the_release_offers_them(pennylane_runtime):
    result = pennylane_runtime(
        "import json, warnings\nwarnings.filterwarnings('ignore')\nimport contract_runtime as r\n"
        "print(json.dumps(r.subjects('pennylane', 'pennylane.measure.process-forms-agree')))")
    subjects = set(result["subjects"])
    assert {"counts/process_counts", "probs/process_samples", "expval/process_density_matrix",
            "state/process_state", "mutual_info/process_state"} <= subjects
    assert "state/process_density_matrix" not in subjects  # StateMP documents it as not supported
    assert "counts/process_state" not in subjects  # counts is sample-based only
    assert result["apis"]["counts/process_counts"] == "qml.measurements.CountsMP.process_counts"


# The shot laws run on every release in its own idiom for finite shots: qml.device(..., shots=N)
# before qml.set_shots (0.40), @functools.partial(qml.set_shots, shots=N) where set_shots needs
# the QNode (0.42), @qml.set_shots(shots=N) from 0.43 (the release fixture above).
SHOT_LAWS = ["pennylane.measure.finite-shots-match-distribution", "pennylane.exec.seed-reproducible",
             "pennylane.exec.seeds-independent"]
IDIOMS = {"pennylane==0.40.0": "qml.device('default.qubit', wires=", "pennylane==0.42.3": "@functools.partial(qml.set_shots"}


@pytest.fixture(scope="module", params=sorted(IDIOMS))
def older_runtime(request, pennylane_runtime):
    from qusema.audit import AUDIT_TOOLS
    from qusema.targets.environments import EnvironmentStore

    runner = type(pennylane_runtime)(EnvironmentStore().create(request.param, tools=AUDIT_TOOLS).python, "pennylane")
    runner.spec = request.param
    return runner


# What `subjects` says, for each law of a list: the code a release's runner prints as JSON.
SUBJECTS_OF_LAWS = """
import json, warnings
warnings.filterwarnings("ignore")
import contract_runtime as r
print(json.dumps({c: r.subjects("pennylane", c) for c in %r}))
"""


def test_shot_laws_have_subjects_on_releases_before_the_set_shots_decorator(older_runtime):
    subjects = older_runtime(SUBJECTS_OF_LAWS % SHOT_LAWS)
    for law in SHOT_LAWS:
        assert "default.qubit" in " ".join(subjects[law]["subjects"]), (law, subjects[law])
    shots = subjects["pennylane.measure.finite-shots-match-distribution"]
    assert {"default.qubit/counts", "default.qubit/sample", "default.qubit/expval"} <= set(shots["subjects"])
    with_set_shots = older_runtime.spec == "pennylane==0.42.3"
    assert shots["apis"]["default.qubit/counts"].endswith("with qml.set_shots" if with_set_shots else "with device shots")


def test_shot_laws_hold_on_older_releases_and_catch_a_wrong_sampler_in_their_idiom(older_runtime):
    # one wire's qml.sample() is a flat (shots,) array before 0.43, which documents (shots, 1) only from then
    older_runtime.assert_holds(contract=SHOT_LAWS[0], subject="default.qubit/sample", examples=12)
    older_runtime.assert_holds(contract=SHOT_LAWS[1], subject="default.qubit", examples=8)
    subject, patch = PLANTS[SHOT_LAWS[0]]
    result = older_runtime.assert_caught(contract=SHOT_LAWS[0], subject=subject, patch=patch, examples=25)
    assert IDIOMS[older_runtime.spec] in result["reproducer"], result["reproducer"]


def test_mid_circuit_shots_law_finds_tree_traversal_sampling_wires_out_of_order_on_0_42(pennylane_runtime):
    """pennylane 0.42.3, mcm_method='tree-traversal' with shots: qml.sample(wires=[1, 0]) gives
    some shots' bits in the other wire order (fixed in 0.43): a final state the circuit cannot
    reach, or one the circuit reaches at a frequency far from its probability (which of the two
    the search meets first differed between runs: the full suite on a loaded 2-core machine met
    the second). The law draws such circuits within 100 examples."""
    from qusema.audit import AUDIT_TOOLS
    from qusema.targets.environments import EnvironmentStore

    runner = type(pennylane_runtime)(EnvironmentStore().create("pennylane==0.42.3", tools=AUDIT_TOOLS).python,
                                     "pennylane")
    result = runner.check_law(contract="pennylane.measure.mid-circuit-shots", subject="default.qubit/tree-traversal/hw-like",
                              examples=100)
    assert result["outcome"] == "violated", result
    assert "which has probability 0" in result["message"] or "has frequency" in result["message"], result
    assert result["reproducer_fails"], result["reproducer"]
    assert "@functools.partial(qml.set_shots" in result["reproducer"]


# qml.X / qml.Y / qml.Z are aliases only from 0.34 on: laws that wrote observables with them had
# no expval / var / observable subjects at all on 0.33, and said nothing about it.
def test_observable_measurements_have_subjects_on_0_33_and_a_law_without_any_says_why(pennylane_release):
    runner = pennylane_release("pennylane==0.33.1")
    laws = ["pennylane.measure.analytic-matches-state", "pennylane.measure.finite-shots-match-distribution",
            "pennylane.measure.mid-circuit-shots"]
    found = runner(SUBJECTS_OF_LAWS % laws)
    assert {"default.qubit/expval", "default.qubit/var", "default.qubit/probs(op)"} \
        <= set(found[laws[0]]["subjects"])
    assert {"default.qubit/expval", "default.qubit/var", "default.qubit/counts(op)", "default.qubit/sample(op)"} \
        <= set(found[laws[1]]["subjects"])
    # mcm_method does not exist on 0.33: no subject, and the audit is told so
    assert found[laws[2]]["subjects"] == [] and "no subject" in found[laws[2]]["reason"]
    runner.assert_holds(contract=laws[0], subject="default.qubit/expval", examples=15)
    result = runner.assert_caught(contract=laws[0], subject="default.qubit/expval", examples=25, patch=(
        "from pennylane.measurements import ExpectationMP\n"
        "original = ExpectationMP.process_state\n"
        "ExpectationMP.process_state = lambda self, state, wire_order: -original(self, state, wire_order)\n"))
    assert "qml.X(" not in result["reproducer"] and "qml.Z(" not in result["reproducer"], result["reproducer"]


def test_process_forms_take_a_refused_observable_as_out_of_domain_on_0_33(pennylane_release):
    # `c * word` builds a legacy qml.Hamiltonian on 0.33, which has no eigenvalues: process_samples
    # refuses it with EigvalsUndefinedError, loudly -- not a silent wrong answer
    runner = pennylane_release("pennylane==0.33.1")
    runner.assert_holds(contract="pennylane.measure.process-forms-agree", subject="expval/process_samples", examples=40)


def test_specs_law_runs_on_0_42_in_its_spelling_and_catches_a_plant(pennylane_release):
    # 0.42's qml.specs returns a dict whose "resources" count gates in `gate_types`
    runner = pennylane_release("pennylane==0.42.3")
    contract = "pennylane.resource.specs-counts"
    found = runner(SUBJECTS_OF_LAWS % [contract])[contract]
    assert {"top", "user", "gradient", "device"} <= set(found["subjects"]), found
    runner.assert_holds(contract=contract, subject="user", examples=15)
    subject, patch = PLANTS[contract]
    result = runner.assert_caught(contract=contract, subject="user", patch=patch, examples=15)
    assert '["resources"]' in result["reproducer"] and "gate_types" in result["reproducer"]
