import numpy as onp
import pennylane as qml
from pennylane import numpy as np
symbols  = ['H', 'Li']
geometry = np.array([[0.0, 0.0, 0.0], [2.0, 0.0, 0.0]], requires_grad = True)
mol = qml.qchem.Molecule(symbols, geometry)
args = [mol.r]
pl = qml.qchem.moment_integral(mol.basis_set[0], mol.basis_set[1], 1, 0)(*args)
pl_ov = qml.qchem.overlap_integral(mol.basis_set[0], mol.basis_set[1])(*args)
print("PL moment", pl, "PL overlap", pl_ov)
def prims(bf):
    a = onp.asarray(bf.alpha, float); c = onp.asarray(bf.coeff, float); r = onp.asarray(bf.r, float)
    print(bf.l, a, c, r)
    n = c * (2*a/onp.pi)**0.75
    return a, n, r
def integral(A, B, f):
    (a, ca, ra), (b, cb, rb) = A, B
    tot = 0
    for ai, ci in zip(a, ca):
        for bj, cj in zip(b, cb):
            p = ai + bj; P = (ai*ra + bj*rb)/p
            K = onp.exp(-ai*bj/p*onp.sum((ra-rb)**2))
            tot += ci*cj*K*(onp.pi/p)**1.5 * f(P)
    return tot
A, B = prims(mol.basis_set[0]), prims(mol.basis_set[1])
nA = integral(A, A, lambda P: 1.0); nB = integral(B, B, lambda P: 1.0)
ov = integral(A, B, lambda P: 1.0)/onp.sqrt(nA*nB)
mx = integral(A, B, lambda P: P[0])/onp.sqrt(nA*nB)
print("numpy overlap", ov, "numpy <H1s|x|Li1s>", mx)
