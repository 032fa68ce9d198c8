# reference.qubit: <0| X |0> = 0, with X given as a Hermitian matrix; the device measures the
# Hermitian's eigenvalues on the computational-basis probabilities without its diagonalizing gates.
import numpy as np
import pennylane as qp

dev = qp.device("reference.qubit", wires=1)


@qp.qnode(dev)
def circuit():
    return qp.expval(qp.Hermitian(np.array([[0, 1], [1, 0]]), wires=0))


value = circuit()
assert abs(value) < 1e-9, f"<0|X|0> = 0, reference.qubit gives {value}"
