"""The conversion, result-processing and execution laws hold on the real release where it is
right, and catch a planted wrong implementation (the library patched inside the test process):
each law can fail, and its reproducer fails with it."""

import pytest


# contract -> (a subject the law is right for on qiskit 2.4.1, a patch breaking exactly that law)
PLANTS = {
    "qiskit.convert.roundtrip-preserves-operator": (
        "dag", ("import qiskit.converters as c\norig = c.dag_to_circuit\n"
               "def dropped_phase(dag, *a, **k):\n    out = orig(dag, *a, **k)\n    out.global_phase = 0\n    return out\n"
               "c.dag_to_circuit = dropped_phase")),
    "qiskit.convert.roundtrip-preserves-circuit-data": (
        "qpy", ("from qiskit import qpy\norig = qpy.load\n"
               "def renamed(*a, **k):\n    out = orig(*a, **k)\n    for c in out:\n        c.name = c.name + '_loaded'\n    return out\n"
               "qpy.load = renamed")),
    "qiskit.convert.roundtrip-owns-metadata": (
        "copy", ("from qiskit import QuantumCircuit\norig = QuantumCircuit.copy\n"
                "def shared(self, name=None):\n    out = orig(self, name)\n    out.metadata = self.metadata\n    return out\n"
                "QuantumCircuit.copy = shared")),
    "qiskit.convert.pauli-forms-agree": (
        "SparsePauliOp.to_matrix", ("import numpy as np\nfrom qiskit.quantum_info import SparsePauliOp\n"
                                   "orig = SparsePauliOp.to_matrix\n"
                                   "SparsePauliOp.to_matrix = lambda self, sparse=False, force_serial=False: np.conj(orig(self))")),
    "qiskit.convert.clifford-forms-agree": (
        "Clifford.to_circuit", ("from qiskit.quantum_info import Clifford\norig = Clifford.to_circuit\n"
                               "def extra_s(self):\n    out = orig(self)\n    out.s(0)\n    return out\n"
                               "Clifford.to_circuit = extra_s")),
    "qiskit.convert.pauli-evolve-is-conjugation": (
        "Pauli.evolve(QuantumCircuit)", ("from qiskit.quantum_info import Pauli\norig = Pauli.evolve\n"
                                        "def flipped(self, other, qargs=None, frame='h'):\n"
                                        "    return orig(self, other, qargs=qargs, frame='s' if frame == 'h' else 'h')\n"
                                        "Pauli.evolve = flipped")),
    "qiskit.convert.state-forms-agree": (
        "Statevector.from_label", ("from qiskit.quantum_info import Statevector\norig = Statevector.from_label\n"
                                  "Statevector.from_label = staticmethod(lambda label: orig(label[::-1]))")),
    "qiskit.result.marginals-agree-with-counting": (
        "marginal_distribution", ("import qiskit.result as results\norig = results.marginal_distribution\n"
                                 "results.marginal_distribution = lambda counts, indices=None, format_marginal=False: "
                                 "orig(counts, sorted(indices), format_marginal)")),
    "qiskit.result.sampled-expectation-agrees": (
        "SparsePauliOp", ("import qiskit.result as results\nfrom qiskit.quantum_info import SparsePauliOp\n"
                         "orig = results.sampled_expectation_value\n"
                         "results.sampled_expectation_value = lambda dist, oper: orig(dist, SparsePauliOp(oper.paulis))")),
    "qiskit.result.bitarray-agrees-with-bits": (
        "slice_bits", ("from qiskit.primitives import BitArray\norig = BitArray.slice_bits\n"
                      "BitArray.slice_bits = lambda self, indices: orig(self, [self.num_bits - 1 - i for i in indices])")),
    "qiskit.result.state-probabilities-agree": (
        "Statevector.probabilities", ("from qiskit.quantum_info import Statevector\norig = Statevector.probabilities\n"
                                     "Statevector.probabilities = lambda self, qargs=None, decimals=None: "
                                     "orig(self, qargs[::-1] if qargs else qargs, decimals)")),
    "qiskit.result.information-measures-agree": (
        "purity", ("import numpy as np\nfrom qiskit.quantum_info import DensityMatrix\n"
                  "DensityMatrix.purity = lambda self: np.trace(self.data)")),
    "qiskit.exec.samples-follow-born-rule": (
        "StatevectorSampler", ("from qiskit.quantum_info import Statevector\norig = Statevector.sample_memory\n"
                              "Statevector.sample_memory = lambda self, shots, qargs=None: "
                              "orig(Statevector.from_label('+' * self.num_qubits), shots, qargs)")),
    "qiskit.exec.estimator-matches-expectation": (
        "SparsePauliOp", ("from qiskit.quantum_info import Statevector\norig = Statevector.expectation_value\n"
                         "Statevector.expectation_value = lambda self, oper, qargs=None: orig(self, oper, qargs) + 0.01")),
    "qiskit.exec.seeded-runs-reproducible": (
        "StatevectorSampler", ("from qiskit.primitives import StatevectorSampler\norig = StatevectorSampler.__init__\n"
                              "def unseeded(self, *, default_shots=1024, seed=None):\n"
                              "    orig(self, default_shots=default_shots, seed=None)\n"
                              "StatevectorSampler.__init__ = unseeded")),
    "qiskit.exec.independent-executions-differ": (
        "BasicSimulator: different seeds",
        ("from qiskit.providers.basic_provider import BasicSimulator\norig = BasicSimulator.run\n"
        "def fixed_seed(self, run_input, **options):\n    options['seed_simulator'] = 1\n    return orig(self, run_input, **options)\n"
        "BasicSimulator.run = fixed_seed")),
    "qiskit.exec.sampler-pub-forms-agree": (
        "(circuit,)", ("from qiskit.primitives.containers.sampler_pub import SamplerPub\norig = SamplerPub.coerce\n"
                      "def one_more_shot(pub, shots=None):\n"
                      "    if isinstance(pub, tuple) and len(pub) == 1 and shots:\n        shots += 1\n"
                      "    return orig(pub, shots)\n"
                      "SamplerPub.coerce = staticmethod(one_more_shot)")),
    "qiskit.exec.estimator-pub-forms-agree": (
        "(circuit, [observable])", ("from qiskit.primitives.containers.estimator_pub import EstimatorPub\n"
                                   "orig = EstimatorPub.coerce\n"
                                   "def doubled(pub, precision=None):\n"
                                   "    if isinstance(pub, tuple) and isinstance(pub[1], list):\n"
                                   "        pub = (pub[0], [2 * o for o in pub[1]]) + tuple(pub[2:])\n"
                                   "    return orig(pub, precision)\n"
                                   "EstimatorPub.coerce = staticmethod(doubled)")),
}


@pytest.mark.parametrize("contract", sorted(PLANTS))
def test_law_holds_on_the_release_for_a_subject_it_is_right_for(qiskit_runtime, contract):
    subject, _ = PLANTS[contract]
    qiskit_runtime.assert_holds(contract=contract, subject=subject, examples=15)


@pytest.mark.parametrize("contract", sorted(PLANTS))
def test_law_catches_a_planted_wrong_implementation(qiskit_runtime, contract):
    subject, patch = PLANTS[contract]
    # 60 draws: a plant shows only on some inputs (a reversed qargs, on a state whose marginal is
    # not symmetric); at 15 and seed 0, the reversed-qargs plant went unseen
    result = qiskit_runtime.check_law(patch=patch, contract=contract, subject=subject, examples=60)
    assert result["outcome"] == "violated", result
    assert result["reproducer_fails"], result["reproducer"]
    assert "from qiskit" in result["reproducer"]
    assert "import contract_runtime" not in result["reproducer"] and "import oracle_core" not in result["reproducer"]


def test_round_trips_are_stated_for_every_exported_gate_class(qiskit_runtime):
    result = qiskit_runtime("import json, contract_runtime as r\n"
                            "print(json.dumps(r.subjects('qiskit', 'qiskit.convert.roundtrip-preserves-operator')['subjects']))")
    for gate in ("HGate", "RZGate", "CXGate", "UGate", "MCXGate", "QFTGate"):
        assert f"qpy:{gate}" in result and f"qasm2:{gate}" in result
    assert {"dag", "instruction", "gate", "copy", "deepcopy"} <= set(result)
    # qasm3.loads needs the optional importer, absent from the audited environment
    assert not any(s.startswith("qasm3:") for s in result)


def test_marginal_memory_law_reports_the_release_behaviour_it_sees(qiskit_runtime):
    """A law may be violated on the release itself: that is a finding, with a reproducer that
    fails standalone (marginal_memory reads every hex sample with the first sample's width)."""
    result = qiskit_runtime.check_law(patch="", contract="qiskit.result.marginals-agree-with-counting",
                                         subject="marginal_memory")
    assert result["outcome"] == "violated", result
    assert result["reproducer_fails"]


EXPECTATION = "qiskit.result.sampled-expectation-agrees"


def test_sampled_expectation_of_complex_coefficients_is_the_complex_sum(qiskit_release):
    # By linearity the expectation of sum c_i P_i is sum c_i <P_i>, complex when the c_i are.
    # 2.4.1 returns the real part alone; 2.6.2 returns the complex value (and documents it).
    old = qiskit_release("qiskit==2.4.1").check_law(patch="", contract=EXPECTATION,
                                                    subject="SparsePauliOp(complex)", examples=25)
    assert old["outcome"] == "violated", old
    assert old["reproducer_fails"], old["reproducer"]
    assert "expected = complex(" in old["reproducer"]  # the failing input's expectation is complex
    qiskit_release("qiskit==2.6.2").assert_holds(contract=EXPECTATION, subject="SparsePauliOp(complex)",
                                                 examples=25)


EVOLVE = "qiskit.convert.pauli-evolve-is-conjugation"


def test_evolution_is_stated_for_every_pauli_type_class_and_form_of_other(qiskit_runtime):
    result = qiskit_runtime(f"import json, contract_runtime as r\nprint(json.dumps(r.subjects('qiskit', {EVOLVE!r})))")
    assert result["reason"] is None
    for owner in ("Pauli", "PauliList"):
        for form in ("Gate", "QuantumCircuit", "Clifford", "Pauli"):
            assert f"{owner}.evolve({form})" in result["subjects"]
    # SparseObservable.evolve documents evolution by a single Pauli only
    assert [s for s in result["subjects"] if s.startswith("SparseObservable")] == ["SparseObservable.evolve(Pauli)"]
    assert result["apis"]["PauliList.evolve(Clifford)"] == "qiskit.quantum_info.PauliList.evolve"


@pytest.mark.parametrize("subject", ["PauliList.evolve(Clifford)", "SparseObservable.evolve(Pauli)"])
def test_evolution_law_holds_on_other_classes(qiskit_runtime, subject):
    qiskit_runtime.assert_holds(contract=EVOLVE, subject=subject, examples=40)


@pytest.mark.parametrize("subject, patch", [
    # qargs applied in reverse order: right whenever the placement is symmetric, wrong otherwise
    ("PauliList.evolve(Clifford)",
     "from qiskit.quantum_info import PauliList\norig = PauliList.evolve\n"
     "PauliList.evolve = lambda self, other, qargs=None, frame='h': "
     "orig(self, other, qargs=None if qargs is None else list(qargs)[::-1], frame=frame)"),
    # evolution by a Pauli that leaves the observable as it is (wrong wherever they anticommute)
    ("SparseObservable.evolve(Pauli)",
     "from qiskit.quantum_info import SparseObservable\n"
     "SparseObservable.evolve = lambda self, other, qargs=None: self.copy()"),
])
def test_evolution_law_catches_qargs_and_conjugation_mistakes(qiskit_runtime, subject, patch):
    qiskit_runtime.assert_caught(contract=EVOLVE, subject=subject, patch=patch, examples=60)


def test_forms_built_on_a_class_the_release_lacks_are_not_subjects(qiskit_runtime):
    # Releases before 1.3 have no SparseObservable: its forms are left out and the programs
    # of the other forms do not import it (they used to raise ImportError on every input).
    result = qiskit_runtime(
        "import json, contract_runtime as r\n"
        "import qiskit.quantum_info as qi\n"
        "law = 'qiskit.convert.pauli-forms-agree'\n"
        "full = r.subjects('qiskit', law)['subjects']\n"
        "del qi.SparseObservable\n"
        "older = r.subjects('qiskit', law)['subjects']\n"
        "check = r.check('qiskit', law, 'SparsePauliOp.from_list', 5, 0)\n"
        "print(json.dumps({'full': full, 'older': older, 'outcome': check['outcome']}))")
    assert {"SparseObservable.from_list", "SparseObservable.from_sparse_pauli_op"} <= set(result["full"])
    assert set(result["full"]) - set(result["older"]) == {"SparseObservable.from_list",
                                                          "SparseObservable.from_sparse_pauli_op"}
    assert result["outcome"] == "holds"
