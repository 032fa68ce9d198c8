import numpy as np
from qiskit import QuantumCircuit, transpile
from qiskit.circuit import Delay, Measure, Parameter
from qiskit.circuit.library import (LinearFunction, MCXGate, PermutationGate, UnitaryGate,
                                    get_standard_gate_name_mapping)
from qiskit.quantum_info import Operator, random_unitary
from qiskit.transpiler import InstructionProperties, PassManager, Target
gates = get_standard_gate_name_mapping()
dt = 2.2222222222222221e-10
target = Target(num_qubits=2, dt=dt, granularity=1, min_length=1, pulse_alignment=2, acquire_alignment=1)
edges = [[0, 1], [1, 0]]
target.add_instruction(gates['u'], {tuple(q): InstructionProperties(duration=2 * dt, error=0.0001) for q in [[q] for q in range(2)]})
target.add_instruction(gates['cx'], {tuple(q): InstructionProperties(duration=2 * dt, error=0.001) for q in edges})
target.add_instruction(Measure(), {(q,): InstructionProperties(duration=100 * dt, error=1e-2) for q in range(2)})
target.add_instruction(Delay(Parameter('t')), {(q,): None for q in range(2)})
qc = QuantumCircuit(1, 0, global_phase=0.0)
qc.delay(1, 0, unit='dt')
qc.append(get_standard_gate_name_mapping()['h'].base_class(), [0])
from qiskit.transpiler import generate_preset_pass_manager
pm = generate_preset_pass_manager(optimization_level=0, target=target, scheduling_method='alap', seed_transpiler=0)
out = pm.run(qc)

import math

def apply_qiskit_matrix(tensor, matrix, qubits, n):
    """Applies a matrix whose FIRST qubit is the LEAST significant (Qiskit's order) to `qubits`."""
    k = len(qubits)
    if k == 0:
        return tensor * matrix.reshape(())
    axes = [n - 1 - q for q in reversed(qubits)]
    gate = matrix.reshape((2,) * (2 * k))
    moved = np.tensordot(gate, tensor, axes=(list(range(k, 2 * k)), axes))
    return np.moveaxis(moved, list(range(k)), axes)


def circuit_unitary(circuit, matrix_of):
    """The unitary of a measurement-free circuit (Qiskit's little-endian order), global phase included."""
    n = circuit.num_qubits
    index = {bit: i for i, bit in enumerate(circuit.qubits)}
    dim = 2 ** n
    tensor = np.eye(dim, dtype=complex).reshape((2,) * n + (dim,))
    for item in circuit.data:
        if item.operation.name in ("barrier", "delay"):
            continue
        matrix = np.asarray(matrix_of(item.operation), dtype=complex)
        qubits = [index[q] for q in item.qubits]
        tensor = apply_qiskit_matrix(tensor, matrix, qubits, n)
    return np.exp(1j * float(circuit.global_phase)) * tensor.reshape(dim, dim)


def layout_gap(expected, output, out_circuit, up_to_phase=False):
    """max |U' E_initial - E_final U| where E_* place the input qubits where the output
    circuit's documented layout says they start and end, ancillas and idle qubits in |0>;
    with up_to_phase, after aligning one global phase."""
    n = int(round(math.log2(expected.shape[0])))
    width = out_circuit.num_qubits
    layout = out_circuit.layout
    if layout is None:
        initial = final = list(range(n))
    else:
        initial = layout.initial_index_layout(filter_ancillas=True)
        final = layout.final_index_layout(filter_ancillas=True)
    if width < n or output.shape != (2 ** width, 2 ** width):
        return math.inf

    def embedding(positions):
        e = np.zeros((2 ** width, 2 ** n), dtype=complex)
        for x in range(2 ** n):
            e[sum(((x >> i) & 1) << p for i, p in enumerate(positions)), x] = 1
        return e

    actual, wanted = output @ embedding(initial), embedding(final) @ expected
    if up_to_phase:
        overlap = np.vdot(wanted.ravel(), actual.ravel())
        if abs(overlap) > 0:
            wanted = wanted * overlap / abs(overlap)
    return float(np.max(np.abs(actual - wanted)))


def outcome_distribution(circuit, matrix_of):
    """Exact probabilities of the classical register (bit i of the index = clbit i) for a
    circuit of unitary ops, measure, reset, barrier and if_else blocks, from |0...0>."""
    n = circuit.num_qubits
    qindex = {bit: i for i, bit in enumerate(circuit.qubits)}
    cindex = {bit: i for i, bit in enumerate(circuit.clbits)}
    start = np.zeros((2,) * n, dtype=complex)
    start[(0,) * n] = 1
    branches = [(start, 0)]

    def run(block, qubits, clbits, branches):
        for item in block.data:
            op = item.operation
            qs = [qubits[block.find_bit(q).index] for q in item.qubits]
            cs = [clbits[block.find_bit(c).index] for c in item.clbits]
            if op.name in ("barrier", "delay"):
                continue
            if op.name in ("measure", "reset"):
                axis = n - 1 - qs[0]
                split = []
                for state, bits in branches:
                    for outcome in (0, 1):
                        projected = np.zeros_like(state)
                        where = [slice(None)] * n
                        where[axis] = outcome
                        projected[tuple(where)] = state[tuple(where)]
                        if np.vdot(projected, projected).real < 1e-14:
                            continue
                        if op.name == "measure":
                            bits = (bits & ~(1 << cs[0])) | (outcome << cs[0])
                            split.append((projected, bits))
                        else:  # reset: move the |1> part to |0>
                            moved = np.zeros_like(state)
                            target = list(where)
                            target[axis] = 0
                            moved[tuple(target)] = projected[tuple(where)]
                            split.append((moved, bits))
                branches = split
            elif op.name == "if_else":
                condition_bit, value = op.condition
                bit = cindex[condition_bit] if block is circuit else clbits[block.find_bit(condition_bit).index]
                true_body, false_body = op.blocks[0], (op.blocks[1] if len(op.blocks) > 1 else None)
                taken, skipped = [], []
                for state, bits in branches:
                    (taken if ((bits >> bit) & 1) == int(value) else skipped).append((state, bits))
                taken = run(true_body, qs, cs, taken)
                if false_body is not None:
                    skipped = run(false_body, qs, cs, skipped)
                branches = taken + skipped
            elif cs or op.name in ("while_loop", "for_loop", "switch_case", "box"):
                raise NotImplementedError(f"no exact semantics here for {op.name}")
            else:
                matrix = np.asarray(matrix_of(op), dtype=complex)
                branches = [(apply_qiskit_matrix(state, matrix, qs, n), bits) for state, bits in branches]
        return branches

    branches = run(circuit, list(range(n)), list(range(circuit.num_clbits)), branches)
    probabilities = np.zeros(2 ** circuit.num_clbits)
    for state, bits in branches:
        probabilities[bits] += np.vdot(state, state).real
    return probabilities


def library_matrix(operation):
    from qiskit.quantum_info import Operator

    return Operator(operation).data


def target_violations(out, target):
    """Operations (recursing into blocks) the target does not support on the physical qubits
    they act on, and multi-qubit operations off the coupling map."""
    found = []
    edges = set(tuple(e) for e in target.build_coupling_map().get_edges()) if target.num_qubits > 1 else set()
    if out.num_qubits > target.num_qubits:
        found.append(("circuit wider than the target", out.num_qubits))

    def visit(block, qubits):
        for item in block.data:
            op = item.operation
            qargs = tuple(qubits[block.find_bit(q).index] for q in item.qubits)
            if op.name == "barrier":
                continue  # a directive, not an instruction the target executes
            if not target.instruction_supported(op.name, qargs):
                found.append(("unsupported", op.name, qargs))
            if len(qargs) == 2 and qargs not in edges:
                found.append(("off the coupling map", op.name, qargs))
            for inner in getattr(op, "blocks", ()):
                visit(inner, qargs)

    visit(out, list(range(out.num_qubits)))
    return found


def timing_violations(out, target):
    """Walk the scheduled circuit (idle time padded with delays) with the target's durations,
    in units of dt: gates must start at multiples of pulse_alignment, measurements at
    multiples of acquire_alignment, delays must be whole non-negative numbers of dt."""
    dt = target.dt
    units = {"dt": None, "s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9, "ps": 1e-12}
    clock = [0] * out.num_qubits
    found = []
    for item in out.data:
        op = item.operation
        qubits = [out.find_bit(q).index for q in item.qubits]
        start = max((clock[q] for q in qubits), default=0)
        if op.name == "barrier":
            duration = 0
        elif op.name == "delay":
            scale = units.get(op.unit)
            duration = float(op.duration) if scale is None else float(op.duration) * scale / dt
            if duration < 0 or abs(duration - round(duration)) > 1e-6:
                found.append(("delay not a whole number of dt", float(op.duration), op.unit, tuple(qubits)))
            duration = round(duration)
        else:
            properties = target[op.name][tuple(qubits)]
            duration = round(properties.duration / dt) if properties is not None and properties.duration else 0
            alignment = target.acquire_alignment if op.name == "measure" else target.pulse_alignment
            if start % alignment:
                found.append((op.name, tuple(qubits), "starts at", start, "dt, not a multiple of", alignment))
        for q in qubits:
            clock[q] = start + duration
    return found


found = target_violations(out, target)
assert not found, f'output does not conform to the target: {found}'
gap = layout_gap(circuit_unitary(qc, library_matrix), circuit_unitary(out, library_matrix), out)
assert gap < 1e-07, f'operator changed: max deviation {gap} after undoing the layout (global phase included)'

def idle_time(circuit, dt):
    """Total duration of the circuit's delays, in units of dt."""
    units = {"dt": None, "s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9, "ps": 1e-12}
    total = 0.0
    for item in circuit.data:
        if item.operation.name == "delay":
            scale = units.get(item.operation.unit)
            total += float(item.operation.duration) * (1 if scale is None else scale / dt)
    return total
late = timing_violations(out, target)
assert not late, f'output breaks the timing constraints: {late}'
kept, asked = idle_time(out, target.dt), idle_time(qc, target.dt)
assert kept >= asked - 1e-6, f'scheduling lost idle time: delays total {kept} dt, the input asked for {asked} dt'
