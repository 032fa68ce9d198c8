"""qiskit-11393: sampled_expectation_value drops the imaginary part of complex coefficients.

Counts {0: 30, 1: 10} give <Z> = (30 - 10) / 40 = 0.5, so for the operator (0.5 + 0.5j) Z
the sampled expectation value is linear in the coefficient: 0.25 + 0.25j."""
from qiskit.quantum_info import SparsePauliOp
from qiskit.result import sampled_expectation_value

counts = {"0": 30, "1": 10}
assert abs(sampled_expectation_value(counts, SparsePauliOp(["Z"], [1.0])) - 0.5) < 1e-12
value = sampled_expectation_value(counts, SparsePauliOp(["Z"], [0.5 + 0.5j]))
assert abs(value - (0.25 + 0.25j)) < 1e-12, f"sampled_expectation_value = {value}, expected 0.25+0.25j"
