"""A workload that exercises much of PennyLane's public API, for the call-trace check."""

import pennylane as qml
from pennylane import numpy as pnp

dev = qml.device("default.qubit", wires=3)


@qml.qnode(dev)
def circuit(x, y):
    qml.Hadamard(0)
    qml.CNOT([0, 1])
    qml.RX(x, wires=1)
    qml.RY(y, wires=2)
    qml.CRZ(0.3, wires=[1, 2])
    qml.Toffoli(wires=[0, 1, 2])
    return qml.expval(qml.PauliZ(0) @ qml.PauliZ(1))


x = pnp.array(0.4, requires_grad=True)
y = pnp.array(0.2, requires_grad=True)
circuit(x, y)
qml.grad(circuit)(x, y)
qml.draw(circuit)(x, y)
qml.matrix(circuit, wire_order=[0, 1, 2])(x, y)
qml.specs(circuit)(x, y)

shots_dev = qml.device("default.qubit", wires=2, shots=100, seed=3)


@qml.qnode(shots_dev)
def sampler():
    qml.Hadamard(0)
    qml.CNOT([0, 1])
    return qml.counts(), qml.probs(wires=[0])


sampler()
H = qml.Hamiltonian([0.5, -0.2], [qml.PauliX(0) @ qml.PauliX(1), qml.PauliZ(0)])
qml.matrix(H)
H.simplify()
qml.eigvals(H)
qml.is_commuting(qml.PauliX(0), qml.PauliZ(0))
op = qml.adjoint(qml.RX(0.3, wires=0))
op.matrix(); op.decomposition()
qml.ctrl(qml.RY(0.1, wires=1), control=0).matrix()
qml.pow(qml.S(0), 3).matrix()
qml.prod(qml.PauliX(0), qml.PauliY(1)).matrix()
qml.sum(qml.PauliX(0), qml.PauliY(0)).matrix()
qml.s_prod(2.0, qml.PauliZ(0)).matrix()
qml.QubitUnitary(qml.matrix(qml.Hadamard(0)), wires=0).decomposition()
tape = qml.tape.QuantumScript([qml.RX(0.2, 0), qml.CNOT([0, 1])], [qml.expval(qml.PauliZ(1))])
(tape_out,), _ = qml.transforms.cancel_inverses(tape)
qml.transforms.merge_rotations(tape)
qml.transforms.commute_controlled(tape)
qml.execute([tape], dev)
qml.pauli.pauli_decompose(qml.matrix(H))
qml.math.fidelity(qml.math.dm_from_state_vector([1, 0]), qml.math.dm_from_state_vector([0, 1]))
qml.BasisState(pnp.array([1, 0]), wires=[0, 1]).decomposition()
qml.QFT(wires=[0, 1, 2]).decomposition()
qml.StronglyEntanglingLayers.shape(n_layers=1, n_wires=2)
