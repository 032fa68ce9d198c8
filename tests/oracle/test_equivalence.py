"""Equivalence routes, the uncertainty vocabulary, and the pytest helpers."""

import json
import math

import numpy as np
import pytest
from click.testing import CliRunner
from qiskit import QuantumCircuit, transpile
from qiskit.circuit.library import QFTGate
from qiskit.quantum_info import Operator, Statevector

from qusema.oracle.assertions import assert_equivalent, assert_inverse_test, assert_swap_test
from qusema.oracle.core import core
from qusema.oracle.equivalence import EquivalenceConfig, check_equivalence
from qusema.oracle.verdict import Verdict


def qft(n):
    qc = QuantumCircuit(n)
    qc.append(QFTGate(n), range(n))
    return qc.decompose(reps=2)


def test_transpiled_qft_is_equal_up_to_global_phase_dense():
    a = qft(5)
    b = transpile(a, basis_gates=["cx", "rz", "sx", "x"], optimization_level=1, seed_transpiler=1)
    result = check_equivalence(a, b)
    assert result.method == "dense_numpy"
    assert result.verdict in (Verdict.EQUAL, Verdict.EQUAL_UP_TO_GLOBAL_PHASE)
    # independent: Qiskit agrees they are equal up to phase
    assert Operator(a).equiv(Operator(b))


def test_not_equal_comes_with_a_counterexample_that_really_separates():
    a = qft(4)
    b = a.copy()
    b.rz(0.3, 2)
    result = check_equivalence(a, b)
    assert result.verdict is Verdict.NOT_EQUAL and result.counterexample is not None
    state = core.counterexample_state(result.counterexample.to_dict(), 4)
    out_a = Statevector(state).evolve(a).data
    out_b = Statevector(state).evolve(b).data
    assert abs(abs(np.vdot(out_a, out_b)) - 1) > 1e-6


def test_phase_only_difference_between_basis_inputs_is_found():
    a = QuantumCircuit(1)
    b = QuantumCircuit(1)
    b.p(0.3, 0)  # not Clifford: the dense route answers
    result = check_equivalence(a, b)
    assert result.verdict is Verdict.NOT_EQUAL
    assert result.counterexample.kind == "superposition"


def test_clifford_route_at_a_width_dense_cannot_reach():
    n = 40
    a = QuantumCircuit(n)
    a.h(0)
    for i in range(1, n):
        a.cx(i - 1, i)
    b = a.copy()
    b.s(5)
    b.sdg(5)
    assert check_equivalence(a, b).verdict is Verdict.EQUAL_UP_TO_GLOBAL_PHASE
    c = a.copy()
    c.rz(math.pi / 2, 7)  # Clifford, but not the identity
    result = check_equivalence(a, c, EquivalenceConfig(simulation_max_qubits=10))
    assert result.method == "stabilizer_tableau" and result.verdict is Verdict.NOT_EQUAL


def test_large_circuit_phase_error_on_a_fresh_qubit_is_not_rounded_to_equal():
    n = 14
    a = QuantumCircuit(n)
    a.h(0)
    for i in range(1, 8):
        a.cx(0, i)
    a.t(0)
    b = a.copy()
    b.p(0.2, n - 1)  # qubit n-1 is still |0> for basis inputs: a phase there hides from them
    config = EquivalenceConfig(dense_max_qubits=10)
    result = check_equivalence(a, b, config)
    assert result.verdict is Verdict.NOT_EQUAL
    without_qcec = check_equivalence(a, b, EquivalenceConfig(dense_max_qubits=10, use_qcec=False))
    assert without_qcec.verdict is Verdict.NOT_EQUAL and without_qcec.counterexample.kind == "product"


def test_unknown_carries_its_reason():
    a = QuantumCircuit(1)
    a.rx(0.1, 0)
    b = QuantumCircuit(1)
    b.append(QFTGate(1), [0])  # no exact matrix in the core for this opaque gate name
    result = check_equivalence(a, b)
    assert result.verdict is Verdict.UNKNOWN and "unsupported" in result.reason
    assert not result.verdict.is_equal(up_to_global_phase=True)
    n = 24
    big = QuantumCircuit(n)
    big.h(range(n))
    big.t(range(n))
    other = big.copy()
    result = check_equivalence(big, other, EquivalenceConfig(use_qcec=False, simulation_max_qubits=20))
    assert result.verdict is Verdict.UNKNOWN and "exceed" in result.reason


def test_assert_equivalent_helper():
    a = QuantumCircuit(1)
    a.s(0)
    b = QuantumCircuit(1)
    b.rz(math.pi / 2, 0)
    assert_equivalent(a, b, up_to_global_phase=True)
    with pytest.raises(AssertionError, match="equal_up_to_global_phase"):
        assert_equivalent(a, b, up_to_global_phase=False)
    c = QuantumCircuit(1)
    c.sdg(0)
    with pytest.raises(AssertionError, match="counterexample"):
        assert_equivalent(a, c)


def test_inverse_and_swap_assertions_plan_their_own_budgets():
    bell = QuantumCircuit(2)
    bell.h(0)
    bell.cx(0, 1)
    ok = assert_inverse_test(bell, Statevector(bell).data, min_infidelity=0.01, error_probability=0.05)
    assert ok.passed and ok.budget.shots == math.ceil(math.log(0.05) / math.log(0.99))
    swap = assert_swap_test(bell, Statevector(bell).data, min_infidelity=0.01, error_probability=0.05)
    assert swap.budget.shots == math.ceil(math.log(0.05) / math.log(0.995))
    wrong = QuantumCircuit(2)
    wrong.h(0)
    with pytest.raises(AssertionError, match="inverse test failed"):
        assert_inverse_test(wrong, Statevector(bell).data)


def test_mutate_cli_json_schema(tmp_path):
    from qusema.oracle.cli_commands import mutate_command

    qasm = tmp_path / "c.qasm"
    qasm.write_text('OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[2];\nh q[0];\ncx q[0],q[1];\nrz(0.3) q[1];\n')
    result = CliRunner().invoke(mutate_command, [str(qasm), "--test", "input=00;observable=Z0 Z1;threshold=0.1",
                                                 "--test", "input=00;distribution=all;threshold=0.05",
                                                 "--operators", "QGR,QGD,RGI", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["schema"] == "qusema.mutate/1"
    assert set(report["score"]) == {"detected", "survived", "unresolved", "population", "lower", "upper"}
    pair = report["mutants"][0]["pairs"][0]
    assert set(pair) == {"test", "decision", "evidence", "outcome", "gap", "gap_interval", "details", "cost"}
    assert report["score"]["population"] == sum(m["weight"] for m in report["mutants"])


@pytest.mark.parametrize("text, expected", [
    (None, "no such file"),  # the path does not exist
    ('OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[2];\nfoo q[0];\n', "'foo' is not defined"),
])
def test_mutate_cli_refuses_a_missing_or_malformed_qasm_file_without_a_traceback(tmp_path, text, expected):
    from qusema.oracle.cli_commands import mutate_command

    qasm = tmp_path / "c.qasm"
    if text is not None:
        qasm.write_text(text)
    result = CliRunner().invoke(mutate_command, [str(qasm), "--test", "input=00;observable=Z0;threshold=0.1"])
    assert result.exit_code == 2, result.output
    assert "Invalid value for SOURCE" in result.output and expected in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_mutate_cli_names_an_undecodable_file_and_the_missing_openqasm3_importer(tmp_path):
    import importlib.util

    from qusema.oracle.cli_commands import mutate_command

    binary = tmp_path / "b.qasm"
    binary.write_bytes(b"\xff\xfe\x00OPENQASM")
    result = CliRunner().invoke(mutate_command, [str(binary), "--test", "input=0;observable=Z0"])
    assert result.exit_code == 2 and "can't decode byte 0xff" in result.output, result.output
    if importlib.util.find_spec("qiskit_qasm3_import") is not None:
        return  # the importer is there: OpenQASM 3 loads (covered by the mutation tests)
    three = tmp_path / "c3.qasm"
    three.write_text("OPENQASM 3.0;\nqubit[1] q;\nh q[0];\n")
    result = CliRunner().invoke(mutate_command, [str(three), "--test", "input=0;observable=Z0"])
    assert result.exit_code == 1 and "qiskit_qasm3_import" in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
