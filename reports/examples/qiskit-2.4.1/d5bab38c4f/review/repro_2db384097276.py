from qiskit.quantum_info import Pauli, SparsePauliOp, SparseObservable
from qiskit.result import Counts, ProbDistribution, QuasiDistribution, sampled_expectation_value
distribution = {'0': 1}
observable = SparsePauliOp.from_list([('I', 0.5j)])
expected = complex(0.0, 0.5)  # sum over outcomes of weight x eigenvalue, by hand
actual = sampled_expectation_value(distribution, observable)
assert abs(complex(actual) - expected) < 1e-9, f'sampled_expectation_value gives {actual}, expected {expected}'
