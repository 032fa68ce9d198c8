from qiskit.synthesis import adder_ripple_v95
from qiskit.quantum_info import Statevector

label = "adder_ripple_v95(2, kind='fixed')"
obj = adder_ripple_v95(2, kind='fixed')

# registers in qubit order, little-endian integers: a: 2 qubit(s), b: 2 qubit(s), ancilla: 1 qubit(s)
cases = [  # (basis input, input, expected basis outputs, expected)
    (5, 'a=1, b=1', [9], 'a=1, b=2'),
]
for index, given, expected, want in cases:
    out = Statevector.from_int(index, 2 ** obj.num_qubits).evolve(obj)
    p = sum(out.probabilities()[e] for e in expected)
    assert p > 1 - 1e-6, f'{label} on {given} should give {want} (ancillas 0), probability {p}'
