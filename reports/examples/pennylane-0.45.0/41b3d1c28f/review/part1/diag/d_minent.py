import numpy as np, pennylane as qml
r0 = np.diag([1.0, 0, 0, 0]).astype(complex)   # |00>: min entropy 0
r1 = np.diag([0.5, 0, 0, 0.5]).astype(complex)  # classically correlated: min entropy ln 2 on wire 0
batch = np.stack([r0, r1])
print("batched min_entropy", qml.math.min_entropy(batch, indices=[0]))
print("single", qml.math.min_entropy(r0, indices=[0]), qml.math.min_entropy(r1, indices=[0]))
print("batched vn_entropy", qml.math.vn_entropy(batch, indices=[0]))
print("batch of 1", np.shape(qml.math.min_entropy(batch[:1], indices=[0])), np.shape(qml.math.vn_entropy(batch[:1], indices=[0])))
