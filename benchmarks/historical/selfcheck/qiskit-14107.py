"""qiskit-14107: SparsePauliOp.is_unitary(atol, rtol) ignores the tolerances it is given.

O = I + 1e-4 X. O O^dagger = (1 + 1e-8) I + 2e-4 X, which is the identity up to an
absolute tolerance of 1e-3; asked with atol=1e-3, is_unitary must answer True."""
from qiskit.quantum_info import SparsePauliOp

op = SparsePauliOp(["I", "X"], coeffs=[1.0, 1e-4])
# Sanity: with the default (tight) tolerance the operator is not unitary.
assert not op.is_unitary()
assert op.is_unitary(atol=1e-3, rtol=0.0), "is_unitary ignored atol=1e-3"
