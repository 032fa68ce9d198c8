"""The names-are-labels laws hold on the real release where it is right, catch a planted
implementation that reads meaning into a name (the library patched inside the test process),
and enumerate the consumers the release has."""

import pytest

TEXT = "qiskit.robust.names-are-labels-text"
STANDARD = "qiskit.robust.names-are-labels"

# A "sanitizer" that drops the content of circuits whose name is not a Python identifier when
# turning them into gates: the gate's meaning then depends on its name.
SANITIZING_TO_GATE = (
    "from qiskit import QuantumCircuit\n"
    "_to_gate = QuantumCircuit.to_gate\n"
    "def to_gate(self, *args, **kwargs):\n"
    "    if not self.name.isidentifier():\n"
    "        return _to_gate(QuantumCircuit(self.num_qubits, name=self.name), *args, **kwargs)\n"
    "    return _to_gate(self, *args, **kwargs)\n"
    "QuantumCircuit.to_gate = to_gate\n")

# Gate.inverse that dispatches on the label: a gate labelled like a standard gate is inverted as
# that standard gate, whatever its definition.
LABEL_DISPATCHING_INVERSE = (
    "from qiskit.circuit import Gate\n"
    "from qiskit.circuit.library import get_standard_gate_name_mapping\n"
    "_inverse = Gate.inverse\n"
    "def inverse(self, annotated=False):\n"
    "    standard = get_standard_gate_name_mapping().get(self.label or '')\n"
    "    if standard is not None and standard.num_qubits == self.num_qubits and not standard.params:\n"
    "        return standard.inverse()\n"
    "    return _inverse(self, annotated=annotated)\n"
    "Gate.inverse = inverse\n")


@pytest.mark.parametrize("subject", ["Operator", "Clifford", "Pauli.evolve(frame='s')", "Gate.control",
                                     "qasm2.dumps/loads", "transpile(optimization_level=3)"])
def test_text_names_law_holds_on_the_release(qiskit_runtime, subject):
    result = qiskit_runtime.assert_holds(contract=TEXT, subject=subject, examples=15)
    assert result["examples"] >= 15


@pytest.mark.parametrize("subject", ["Operator", "Statevector", "qpy.dump/load", "Gate.inverse"])
def test_standard_names_law_holds_where_the_release_is_right(qiskit_runtime, subject):
    qiskit_runtime.assert_holds(contract=STANDARD, subject=subject, examples=15)


@pytest.mark.parametrize("subject", ["Gate.inverse", "Gate.control", "Operator"])
def test_text_names_law_catches_a_name_sanitizing_to_gate(qiskit_runtime, subject):
    result = qiskit_runtime.assert_caught(contract=TEXT, subject=subject, patch=SANITIZING_TO_GATE, examples=40)
    assert "from qiskit import QuantumCircuit" in result["reproducer"]
    assert "NEUTRAL = [" in result["reproducer"]


def test_standard_names_law_catches_a_label_dispatching_inverse(qiskit_runtime):
    result = qiskit_runtime.assert_caught(contract=STANDARD, subject="Gate.inverse", patch=LABEL_DISPATCHING_INVERSE,
                                          examples=40)
    assert ".to_gate(label=LABEL).inverse()" in result["reproducer"]


def test_standard_names_law_never_names_a_circuit_like_a_standard_gate(qiskit_runtime):
    """On 2.4.1 a circuit named "x" is controlled as an X gate. Operation.name is documented as
    the unique identifier of an operation type, and the first review of this law judged every
    such finding misuse: the law now gives standard names to labels only, and holds there."""
    qiskit_runtime.assert_holds(contract=STANDARD, subject="QuantumCircuit.control", examples=25)


def test_subjects_are_the_consumers_the_release_has(qiskit_runtime):
    result = qiskit_runtime("import json, contract_runtime as r\n"
                            f"print(json.dumps(r.subjects('qiskit', {TEXT!r})))")
    subjects = set(result["subjects"])
    assert {"Operator", "Statevector", "DensityMatrix", "Clifford", "StabilizerState", "Pauli",
            "Pauli.evolve(frame='h')", "PauliList.evolve(frame='s')", "qasm2.dumps/loads", "qpy.dump/load",
            "Gate.control", "QuantumCircuit.control"} <= subjects
    assert {f"transpile(optimization_level={level})" for level in range(4)} <= subjects
    # SparsePauliOp has no evolve method on this release: the consumer is left out, not failed.
    assert not any(s.startswith("SparsePauliOp.evolve") for s in subjects)
    assert result["apis"]["Pauli.evolve(frame='s')"] == "qiskit.quantum_info.Pauli.evolve"
    assert result["apis"]["transpile(optimization_level=2)"] == "qiskit.transpile"
    assert result["apis"]["qasm2.dumps/loads"] == "qiskit.qasm2.dumps"
    standard = qiskit_runtime("import json, contract_runtime as r\n"
                              f"print(json.dumps(r.subjects('qiskit', {STANDARD!r})['subjects']))")
    assert set(standard) == subjects
