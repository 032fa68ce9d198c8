# d purity / dp of a Bell pair under two bit flips: backprop and finite differences give -2.048,
# parameter-shift answers 0 without an error.
import numpy as np
import pennylane as qp
from pennylane import numpy as pnp

dev = qp.device("default.mixed", wires=2)


def circuit(p):
    qp.Hadamard(wires=0)
    qp.CNOT(wires=[0, 1])
    qp.BitFlip(p, wires=0)
    qp.BitFlip(p, wires=1)
    return qp.purity(wires=[0, 1])


p = pnp.array(0.1, requires_grad=True)
numeric = qp.grad(qp.QNode(circuit, dev, diff_method="finite-diff"))(p)
shifted = qp.grad(qp.QNode(circuit, dev, diff_method="parameter-shift"))(p)
assert np.isclose(numeric, shifted, atol=1e-4), f"finite-diff gives {numeric}, parameter-shift {shifted}"
