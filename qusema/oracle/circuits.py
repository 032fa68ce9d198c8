"""A plain, immutable circuit: the operation tuples the numeric core simulates.

Qiskit's QuantumCircuit is the IR users hand us; this is the form the oracle computes on,
so that mutation and planning never depend on Qiskit internals and a circuit hashes by value.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable

from qusema.oracle.core import core

if TYPE_CHECKING:
    from qiskit import QuantumCircuit

Op = tuple[str, tuple[float, ...], tuple[int, ...]]
NON_UNITARY = frozenset({"measure", "reset"})
IGNORED = frozenset({"barrier", "delay"})


@dataclass(frozen=True)
class Circuit:
    num_qubits: int
    ops: tuple[Op, ...]

    @classmethod
    def from_ops(cls, num_qubits: int, ops: Iterable[Op]) -> "Circuit":
        return cls(num_qubits, tuple((str(n), tuple(float(p) for p in ps), tuple(int(q) for q in qs))
                                     for n, ps, qs in ops))

    @classmethod
    def from_qiskit(cls, circuit: "QuantumCircuit") -> "Circuit":
        n, ops = core.ops_from_circuit(circuit)
        return cls.from_ops(n, [op for op in ops if op[0] not in IGNORED])

    @classmethod
    def from_qasm(cls, path: Path) -> "Circuit":
        from qiskit import qasm2, qasm3

        text = Path(path).read_text()
        circuit = qasm3.loads(text) if text.lstrip().startswith("OPENQASM 3") else qasm2.loads(
            text, custom_instructions=qasm2.LEGACY_CUSTOM_INSTRUCTIONS)
        return cls.from_qiskit(circuit)

    def to_qiskit(self) -> "QuantumCircuit":
        from qiskit import QuantumCircuit
        from qiskit.circuit.library import get_standard_gate_name_mapping

        gates = get_standard_gate_name_mapping()
        aliases = {"cnot": "cx", "toffoli": "ccx", "fredkin": "cswap", "i": "id", "phase": "p"}
        measured = sum(1 for name, _, _ in self.ops if name == "measure")
        qc = QuantumCircuit(self.num_qubits, measured)
        clbit = 0
        for name, params, qubits in self.ops:
            if name == "measure":
                qc.measure(qubits[0], clbit)
                clbit += 1
                continue
            if name == "unitary":
                from qiskit.circuit.library import UnitaryGate

                # Ours: first qubit most significant; Qiskit: first qarg least significant.
                qc.append(UnitaryGate(core.gate_matrix(name, params)), list(reversed(qubits)))
                continue
            gate = gates[aliases.get(name, name)]
            qc.append(gate.base_class(*params) if params else gate, list(qubits))
        return qc

    @property
    def unitary_ops(self) -> tuple[Op, ...]:
        return tuple(op for op in self.ops if op[0] not in NON_UNITARY)

    def has_measurements(self) -> bool:
        return any(op[0] in NON_UNITARY for op in self.ops)

    def mid_circuit_measurements(self) -> list[int]:
        """Positions of measurements followed by a later gate on the same qubit."""
        positions = []
        for i, (name, _, qubits) in enumerate(self.ops):
            if name in NON_UNITARY and any(set(qubits) & set(later[2]) and later[0] not in NON_UNITARY
                                           for later in self.ops[i + 1:]):
                positions.append(i)
        return positions

    def is_clifford(self) -> bool:
        from qusema.oracle.mutation.pauli import is_clifford_op

        return all(is_clifford_op(op) for op in self.unitary_ops)


def as_circuit(value: Any) -> Circuit:
    """Accepts a Circuit, a Qiskit QuantumCircuit, or a path to an OpenQASM file."""
    if isinstance(value, Circuit):
        return value
    if isinstance(value, (str, Path)):
        return Circuit.from_qasm(Path(value))
    return Circuit.from_qiskit(value)
