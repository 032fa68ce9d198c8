"""The circuit-algebra law holds on the real release where it is right, and catches a planted
wrong implementation of a QuantumCircuit method (the library patched inside the test process)."""

import pytest

LAW = "qiskit.circuit.methods-agree-with-operator-algebra"

# Each plant breaks exactly what one (method, variant) subject is about.
PLANTS = {
    "compose[front]": (
        "from qiskit import QuantumCircuit\n"
        "_compose = QuantumCircuit.compose\n"
        "def compose(self, other, qubits=None, clbits=None, front=False, *args, **kwargs):\n"
        "    return _compose(self, other, qubits, clbits, False, *args, **kwargs)  # front ignored\n"
        "QuantumCircuit.compose = compose"),
    "tensor": (
        "from qiskit import QuantumCircuit\n"
        "_tensor = QuantumCircuit.tensor\n"
        "QuantumCircuit.tensor = lambda self, other, inplace=False: _tensor(other, self, inplace)  # order swapped"),
    "inverse": (
        "from qiskit import QuantumCircuit\n"
        "_inverse = QuantumCircuit.inverse\n"
        "def inverse(self, *args, **kwargs):\n"
        "    result = _inverse(self, *args, **kwargs)\n"
        "    result.global_phase = self.global_phase  # phase not negated\n"
        "    return result\n"
        "QuantumCircuit.inverse = inverse"),
    "control": (
        "from qiskit import QuantumCircuit\n"
        "_control = QuantumCircuit.control\n"
        "def control(self, num_ctrl_qubits=1, label=None, ctrl_state=None, *args, **kwargs):\n"
        "    return _control(self, num_ctrl_qubits, label, None, *args, **kwargs)  # ctrl_state ignored\n"
        "QuantumCircuit.control = control"),
    "reverse_bits": (
        "from qiskit import QuantumCircuit\n"
        "QuantumCircuit.reverse_bits = lambda self: self.copy()  # wires not flipped"),
    "reverse_ops": (
        "from qiskit import QuantumCircuit\n"
        "QuantumCircuit.reverse_ops = lambda self: self.inverse()  # reversal taken for the adjoint"),
    "power[non-positive]": (
        "from qiskit import QuantumCircuit\n"
        "_power = QuantumCircuit.power\n"
        "QuantumCircuit.power = lambda self, power, *args, **kwargs: _power(self, abs(power), *args, **kwargs)"),
    "assign_parameters[sequence]": (
        "from qiskit import QuantumCircuit\n"
        "_assign = QuantumCircuit.assign_parameters\n"
        "def assign(self, parameters, *args, **kwargs):\n"
        "    if isinstance(parameters, list):\n"
        "        parameters = parameters[::-1]  # bound in the wrong order\n"
        "    return _assign(self, parameters, *args, **kwargs)\n"
        "QuantumCircuit.assign_parameters = assign"),
}


@pytest.mark.parametrize("subject", sorted(PLANTS))
def test_law_holds_on_the_release(qiskit_runtime, subject):
    result = qiskit_runtime.assert_holds(contract=LAW, subject=subject, examples=15)
    assert result["api"].startswith("qiskit.circuit.QuantumCircuit.")


@pytest.mark.parametrize("subject", sorted(PLANTS))
def test_law_catches_a_planted_wrong_method(qiskit_runtime, subject):
    result = qiskit_runtime.assert_caught(contract=LAW, subject=subject, patch=PLANTS[subject], examples=40)
    assert "from qiskit import" in result["reproducer"]
    assert "from qiskit.quantum_info import Operator" in result["reproducer"]


def test_subjects_are_the_method_variants_the_release_has(qiskit_runtime):
    result = qiskit_runtime("import json, contract_runtime as r\n"
                            f"print(json.dumps(r.subjects('qiskit', {LAW!r})))")
    subjects = set(result["subjects"])
    # qiskit 2.4.1 has power(annotated=), repeat(insert_barriers=) and inverse(annotated=)
    assert {"compose", "compose[front]", "compose[qubits]", "tensor", "inverse", "inverse[annotated]",
            "power[repeat-path]", "power[non-positive]", "power[annotated]", "repeat", "repeat[insert_barriers]",
            "control", "control[annotated]", "reverse_bits", "reverse_ops", "decompose", "to_gate",
            "to_instruction", "copy_empty_like", "assign_parameters[sequence]", "global_phase"} <= subjects
    assert result["apis"]["compose[front]"] == "qiskit.circuit.QuantumCircuit.compose"
    assert result["apis"]["power[annotated]"] == "qiskit.circuit.QuantumCircuit.power"


def test_embedding_helper_agrees_with_qiskit_little_endian_order(qiskit_runtime):
    """The numpy embedding the expected operators are built with puts a gate's qubit i on
    qubits[i], as Operator.compose(qargs=...) and QuantumCircuit.append do."""
    code = (
        "import json, numpy as np\n"
        "from contracts.qiskit_circuit_algebra import HELPERS\n"
        "namespace = {'np': np}\n"
        "exec(HELPERS, namespace)\n"
        "from qiskit import QuantumCircuit\n"
        "from qiskit.circuit.library import CXGate, CCXGate, RZXGate\n"
        "from qiskit.quantum_info import Operator\n"
        "worst = 0.0\n"
        "for gate, qubits in [(CXGate(), [2, 0]), (CCXGate(), [3, 1, 0]), (RZXGate(0.7), [1, 3]), (RZXGate(0.7), [3, 1])]:\n"
        "    qc = QuantumCircuit(4)\n"
        "    qc.append(gate, qubits)\n"
        "    got = namespace['embed'](Operator(gate).data, qubits, 4)\n"
        "    worst = max(worst, float(np.max(np.abs(got - Operator(qc).data))))\n"
        "print(json.dumps(worst))\n")
    assert qiskit_runtime(code) < 1e-12
