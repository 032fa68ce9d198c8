import numpy as np
from qiskit import QuantumCircuit
qc = QuantumCircuit(3)
qc.h(range(3))
qc.measure_all()
from qiskit.circuit import Parameter
from qiskit.primitives import StatevectorSampler
t = Parameter('t')
qc.remove_final_measurements()
qc.rz(t, 0)
qc.measure_all()
data = StatevectorSampler(seed=0).run([(qc, [[0.0], [0.0]])], shots=64).result()[0].data.meas
first, second = data.get_bitstrings(0), data.get_bitstrings(1)
assert first != second, 'independent executions repeated each other exactly (StatevectorSampler: points of a parameter sweep)'
