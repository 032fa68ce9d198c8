"""The documented-examples laws (Qiskit and PennyLane) hold on the real release for examples whose
documented output is right, catch a planted wrong implementation (the library patched inside the
test process, keeping its docstring), and their standalone reproducers fail with it; subjects are
the docstring examples with an expected output that run on the release and print the documented
skeleton, and nothing else."""

import pytest

QISKIT_LAW = "qiskit.docs.examples-give-documented-output"
PENNYLANE_LAW = "pennylane.docs.examples-give-documented-output"

# Statevector.evolve with a wrong global phase: Operator's docstring example prints i|1>, not |1>.
QISKIT_WRONG_PHASE = (
    "from qiskit.quantum_info import Statevector\n"
    "original = Statevector.evolve\n"
    "def evolve(self, other, qargs=None):\n"
    "    out = original(self, other, qargs=qargs)\n"
    "    return Statevector(1j * out.data, dims=out.dims())\n"
    "Statevector.evolve = evolve\n")

# A plant keeps the function's docstring (functools.wraps): the docstring is the subject.
PENNYLANE_FIDELITY_AMPLITUDE = (
    "import functools\n"
    "import pennylane.math as pm\n"
    "original = pm.fidelity_statevector\n"
    "@functools.wraps(original)\n"
    "def planted(*args, **kwargs):\n"
    "    return pm.sqrt(original(*args, **kwargs))  # |<a|b>| instead of |<a|b>|^2\n"
    "pm.fidelity_statevector = planted\n")

PENNYLANE_IGNORES_WIRE_ORDER = (
    "import functools\n"
    "import pennylane.math as pm\n"
    "original = pm.expand_matrix\n"
    "@functools.wraps(original)\n"
    "def planted(mat, wires, wire_order=None, sparse_format='csr'):\n"
    "    return original(mat, wires, wire_order=sorted(wire_order) if wire_order else wire_order)\n"
    "pm.expand_matrix = planted\n")


@pytest.mark.parametrize("subject", ["qiskit.quantum_info.Operator#5", "qiskit.quantum_info.Operator#8",
                                     "qiskit.circuit.library.zz_feature_map#5"])
def test_qiskit_law_holds_for_examples_whose_documented_output_is_right(qiskit_runtime, subject):
    result = qiskit_runtime.assert_holds(contract=QISKIT_LAW, subject=subject, examples=5)
    assert result["api"] == subject.split("#")[0]
    assert result["validity"] == "documented example"  # a mismatch is a potential bug: stale docs or code


@pytest.mark.parametrize("subject", ["pennylane.math.fidelity_statevector#2", "pennylane.math.expand_matrix#3",
                                     "pennylane.matrix#1"])
def test_pennylane_law_holds_for_examples_whose_documented_output_is_right(pennylane_runtime, subject):
    result = pennylane_runtime.assert_holds(contract=PENNYLANE_LAW, subject=subject, examples=5)
    assert result["api"] == subject.split("#")[0]


def test_qiskit_law_catches_a_wrong_global_phase(qiskit_runtime):
    result = qiskit_runtime.assert_caught(contract=QISKIT_LAW, subject="qiskit.quantum_info.Operator#5",
                                          patch=QISKIT_WRONG_PHASE, examples=5)
    assert "documented:" in result["message"] and "actual:" in result["message"], result["message"]
    assert "from qiskit.quantum_info import Operator" in result["reproducer"]
    assert "DOCUMENTED_NUMBERS = [" in result["reproducer"]  # the documented numbers are written down


@pytest.mark.parametrize("subject, patch", [
    ("pennylane.math.fidelity_statevector#2", PENNYLANE_FIDELITY_AMPLITUDE),
    ("pennylane.math.expand_matrix#3", PENNYLANE_IGNORES_WIRE_ORDER),
])
def test_pennylane_law_catches_a_planted_wrong_implementation(pennylane_runtime, subject, patch):
    result = pennylane_runtime.assert_caught(contract=PENNYLANE_LAW, subject=subject, patch=patch, examples=5)
    assert "prints numbers other than its documentation shows" in result["message"], result["message"]
    assert "import pennylane as qml" in result["reproducer"]


def test_qiskit_subjects_are_runnable_documented_examples(qiskit_runtime):
    result = qiskit_runtime("import json, contract_runtime as r\n"
                            f"print(json.dumps(r.subjects('qiskit', {QISKIT_LAW!r})))")
    subjects = set(result["subjects"])
    assert {"qiskit.quantum_info.Operator#5", "qiskit.circuit.library.zz_feature_map#5"} <= subjects
    assert all(result["apis"][s] == s.rsplit("#", 1)[0] for s in subjects)
    # Operator's first examples only build things (no expected output): not subjects
    assert "qiskit.quantum_info.Operator#0" not in subjects
    # PauliList.group_commuting's example #2 prints its groups in another order on this release:
    # another text, not other numbers, so out of the law's domain
    assert "qiskit.quantum_info.PauliList.group_commuting#2" not in subjects
    assert "qiskit.quantum_info.PauliList.group_commuting#3" in subjects


def test_pennylane_subjects_are_runnable_documented_examples(pennylane_runtime):
    result = pennylane_runtime("import json, contract_runtime as r\n"
                               f"print(json.dumps(r.subjects('pennylane', {PENNYLANE_LAW!r})))")
    subjects = set(result["subjects"])
    assert {"pennylane.math.fidelity_statevector#2", "pennylane.math.expand_matrix#3", "pennylane.matrix#1"} <= subjects
    assert len(subjects) >= 300
    assert all(result["apis"][s] == s.rsplit("#", 1)[0] for s in subjects)
    assert not any(".labs." in s or ".data." in s for s in subjects)
    # np.allclose in qml.math.allclose's docs is numpy's own example: no PennyLane API, not a subject
    assert not any(s.startswith("pennylane.math.allclose#") for s in subjects)


def test_comparison_judges_numbers_only(pennylane_runtime):
    # wrappers, commas, np.float64(...) and requires_grad do not matter; a sign or phase does;
    # the printed precision bounds the tolerance
    code = (
        "import json\nfrom contracts.qiskit_doc_examples import normalise, skeleton, documented_numbers, mismatches\n"
        "same = skeleton(normalise('tensor([0.5, 1.], requires_grad=True)', True)) == "
        "skeleton(normalise('array([0.5 1. ])'))\n"
        "reformatted = skeleton(normalise('[X(0), Z(1)]', True)) == skeleton(normalise('X(0) + Z(1)'))\n"
        "checks = {\n"
        "  'wrapper': mismatches(documented_numbers('tensor([0.5, 1.], requires_grad=True)'), 'array([0.5 1. ])'),\n"
        "  'float64': mismatches(documented_numbers('(np.float64(1.0), np.float64(0.58))'), '(1.0, 0.58)'),\n"
        "  'phase': mismatches(documented_numbers('array([0.+0.j, 1.+0.j])'), 'array([0.+0.j, 0.+1.j])'),\n"
        "  'sign': mismatches(documented_numbers('RZ(0.615, wires=[1])'), 'RZ(-0.615, wires=[1])'),\n"
        "  'rounding': mismatches(documented_numbers('0.9905158'), '0.99051581356'),\n"
        "  'beyond': mismatches(documented_numbers('0.9905158'), '0.9905258'),\n"
        "  'noise': mismatches(documented_numbers('(-0.32+2.1e-17j) * I(0) + 0.79 * Z(0)'), '(-0.32+0j) * I(0) + 0.79 * Z(0)'),\n"
        "  'noise_alone': mismatches(documented_numbers('-2.220446049250313e-17'), '0.0'),\n"
        "  'small_alone': mismatches(documented_numbers('3.0e-05'), '0.0'),\n"
        "}\n"
        "print(json.dumps({'same': same, 'reformatted': reformatted, 'bad': {k: len(v) for k, v in checks.items()}}))")
    result = pennylane_runtime(code)
    assert result["same"] and not result["reformatted"]
    assert result["bad"] == {"wrapper": 0, "float64": 0, "phase": 1, "sign": 1, "rounding": 0, "beyond": 1,
                             "noise": 0, "noise_alone": 0, "small_alone": 1}
