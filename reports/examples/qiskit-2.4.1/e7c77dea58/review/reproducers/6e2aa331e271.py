# qiskit.circuit.library.ModularAdderGate, built by its constructor
import numpy as np
import qiskit
from qiskit import QuantumCircuit
from qiskit.circuit.library import ModularAdderGate
obj = ModularAdderGate(num_state_qubits=2)
op = obj
import numpy as np
from qiskit.converters import dag_to_circuit
from qiskit.dagcircuit import DAGCircuit
from qiskit.quantum_info import Operator
from qiskit.transpiler.passes.synthesis.plugin import HighLevelSynthesisPluginManager
plugin = HighLevelSynthesisPluginManager().method('ModularAdder', 'ripple_v95')
out = plugin.run(op, coupling_map=None, target=None, qubits=list(range(op.num_qubits)), **{'num_clean_ancillas': 2})
out = dag_to_circuit(out) if isinstance(out, DAGCircuit) else out
assert out is not None, 'the plugin declined this input (no verdict)'
import math
PHASELESS_OPERATIONS = ('clifford',)

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


def has_phaseless_operation(*circuits):
    def names(block):
        for item in block.data:
            yield item.operation.name
            for inner in getattr(item.operation, "blocks", ()):
                yield from names(inner)
    return any(name in PHASELESS_OPERATIONS for circuit in circuits for name in names(circuit))

def synthesis_gap(out, expected, up_to_phase, matrix_of):
    """max deviation between the circuit and `expected` on the inputs whose extra (ancilla)
    qubits are |0>, requiring ancillas back in |0>; optionally up to one global phase."""
    actual = circuit_unitary(out, matrix_of)
    n = int(round(math.log2(expected.shape[0])))
    if actual.shape[0] < expected.shape[0]:
        return math.inf
    restricted = actual[:, : 2 ** n]
    target = np.zeros_like(restricted)
    target[: 2 ** n, :] = expected
    if up_to_phase:
        overlap = np.vdot(target.ravel(), restricted.ravel())
        if abs(overlap) > 0:
            target = target * overlap / abs(overlap)
    return float(np.max(np.abs(restricted - target)))
gap = synthesis_gap(out, np.asarray(Operator(op).data, dtype=complex), False, library_matrix)
assert gap < 1e-07, f'plugin ModularAdder.ripple_v95 does not implement the operation: max deviation {gap}'
