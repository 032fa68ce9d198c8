import numpy as np
from qiskit import QuantumCircuit
qc = QuantumCircuit(3)
qc.h(range(3))
qc.measure_all()
from qiskit.primitives import StatevectorEstimator
qc.remove_final_measurements()
observables = ['Z' * 3, 'X' * 3, 'I' * 3]
result = StatevectorEstimator(seed=0).run([(qc, observables), (qc, observables)], precision=0.1).result()
first, second = result[0].data.evs.tolist(), result[1].data.evs.tolist()
assert first != second, 'independent executions repeated each other exactly (StatevectorEstimator: pubs in one run)'
