import numpy as np
import pennylane as qml

dev = qml.device('lightning.qubit')

@qml.qnode(dev, mcm_method='tree-traversal')
def circuit():
    qml.RY(0.0, wires=[0])
    m0 = qml.measure(0)
    return qml.probs(wires=[0]), qml.probs(op=[m0])

final, joint = circuit()
# expected: branch-by-branch numpy simulation of the measurements (Born rule, collapse,
# reset, qml.cond), conditioned on the postselected outcomes
expected_final = np.array([1.0, 0.0])
expected_joint = np.array([1.0, 0.0])
assert np.asarray(final).shape == expected_final.shape and np.max(np.abs(final - expected_final)) < 1e-07, (final, expected_final)
assert np.asarray(joint).shape == expected_joint.shape and np.max(np.abs(joint - expected_joint)) < 1e-07, (joint, expected_joint)
