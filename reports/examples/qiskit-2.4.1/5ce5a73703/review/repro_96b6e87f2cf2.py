import numpy as np
from qiskit import QuantumCircuit
qc = QuantumCircuit(3)
qc.h(range(3))
qc.measure_all()
from qiskit.primitives import StatevectorSampler
result = StatevectorSampler(seed=0).run([qc, qc], shots=64).result()
first, second = result[0].data.meas.get_bitstrings(), result[1].data.meas.get_bitstrings()
assert first != second, 'independent executions repeated each other exactly (StatevectorSampler: pubs in one run)'
