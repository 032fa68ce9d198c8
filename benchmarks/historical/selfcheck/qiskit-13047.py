"""qiskit-13047: StatevectorSampler(seed=<int>) reseeds every pub with the same integer,
so the pubs of one run() call get identical samples instead of independent ones.

Two pubs of the same circuit (one qubit in |+>, 64 shots each) in one run: independent
sampling makes identical 64-shot sequences a 2**-64 event; a seed makes the run
reproducible, not the pubs copies of each other."""
from qiskit import QuantumCircuit
from qiskit.primitives import StatevectorSampler

qc = QuantumCircuit(1)
qc.h(0)
qc.measure_all()
sampler = StatevectorSampler(seed=1234)
result = sampler.run([qc, qc], shots=64).result()
first = result[0].data.meas.get_bitstrings()
second = result[1].data.meas.get_bitstrings()
assert 0 < first.count("1") < 64  # it samples at all
assert first != second, "the two pubs of one run() produced identical samples"
