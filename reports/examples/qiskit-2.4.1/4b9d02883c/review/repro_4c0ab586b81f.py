from qiskit.circuit.library import MultiplierGate
from qiskit.quantum_info import Statevector

label = 'MultiplierGate(1, num_result_qubits=1)'
obj = MultiplierGate(1, num_result_qubits=1)
assert obj.definition.num_qubits == obj.num_qubits, f'gate on {obj.num_qubits} qubits, definition on {obj.definition.num_qubits}'
# registers in qubit order, little-endian integers: a: 1 qubit(s), b: 1 qubit(s), out: 1 qubit(s), ancilla: 0 qubit(s)
cases = [  # (basis input, input, expected basis outputs, expected)
    (0, 'a=0, b=0', [0], 'a=0, b=0, out=0'),
]
for index, given, expected, want in cases:
    out = Statevector.from_int(index, 2 ** obj.num_qubits).evolve(obj)
    p = sum(out.probabilities()[e] for e in expected)
    assert p > 1 - 1e-6, f'{label} on {given} should give {want} (ancillas 0), probability {p}'
