"""pennylane-9361: qml.estimator.estimate of a symbolic operator (Adjoint) ignores the base
decomposition set in the ResourceConfig and uses the built-in one.

The documented default adjoint resources are "the adjoint of each gate in the resource
decomposition of the operator". With BasisRotation's decomposition configured as two
Hadamards (self-adjoint), Adjoint(BasisRotation) must cost two Hadamards too."""
import pennylane.estimator as qre


def two_hadamards(dim):
    return [qre.GateCount(qre.resource_rep(qre.Hadamard), 2)]


config = qre.ResourceConfig()
config.set_decomp(qre.BasisRotation, two_hadamards)
op = qre.BasisRotation(3)

base = dict(qre.estimate(op, config=config).gate_counts)
assert base == {"Hadamard": 2}, base
adjoint = dict(qre.estimate(qre.Adjoint(op), config=config).gate_counts)
assert adjoint == {"Hadamard": 2}, f"Adjoint(BasisRotation) used the built-in decomposition: {adjoint}"
