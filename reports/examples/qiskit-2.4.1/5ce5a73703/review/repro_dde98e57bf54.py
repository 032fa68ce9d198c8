from qiskit.result import Counts, ProbDistribution, marginal_counts, marginal_distribution, marginal_memory
memory = ['0x0', '0x10']
call = 'marginal_memory(memory, [0])'
expected = ['0', '0']
actual = marginal_memory(memory, [0])
assert list(actual) == expected, f'{call} gives {list(actual)}, expected {expected}'
