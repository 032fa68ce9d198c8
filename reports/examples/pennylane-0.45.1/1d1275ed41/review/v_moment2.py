import numpy as onp
import pennylane as qml
from pennylane import numpy as np
# independent: STO-3G 1s contraction coefficients d_i (textbook), primitives normalised once
d = onp.array([0.15432897, 0.53532814, 0.44463454])
aH = onp.array([3.42525091, 0.62391373, 0.16885540])
aLi = onp.array([16.1195750, 2.9362007, 0.7946505])
def orb(al):
    c = d*(2*al/onp.pi)**0.75
    S = sum(ci*cj*(onp.pi/(ai+aj))**1.5 for ai,ci in zip(al,c) for aj,cj in zip(al,c))
    return c/onp.sqrt(S), S
ca, Sa = orb(aH); cb, Sb = orb(aLi)
print("self-overlap of textbook STO-3G contractions (should be ~1):", Sa, Sb)
A = onp.array([0., 0, 0]); B = onp.array([2., 0, 0])
tot = 0.0
for ai, ci in zip(aH, ca):
    for bj, cj in zip(aLi, cb):
        p = ai+bj; P = (ai*A+bj*B)/p
        tot += ci*cj*(onp.pi/p)**1.5*onp.exp(-ai*bj/p*4.0)*P[0]
print("independent <H1s|x|Li1s> (STO-3G, bohr):", tot)
geometry = np.array([[0.0, 0.0, 0.0], [2.0, 0.0, 0.0]], requires_grad=True)
mol = qml.qchem.Molecule(['H', 'Li'], geometry)
m = qml.qchem.moment_integral
print("moment_integral default:", m(mol.basis_set[0], mol.basis_set[1], 1, 0)(mol.r))
print("moment_integral normalize=False:", m(mol.basis_set[0], mol.basis_set[1], 1, 0, normalize=False)(mol.r))
mol2 = qml.qchem.Molecule(['H', 'Li'], geometry, normalize=False)
print("Molecule(normalize=False) + default:", m(mol2.basis_set[0], mol2.basis_set[1], 1, 0)(mol2.r))
print("moment_matrix entry [0,1]:", qml.qchem.moment_matrix(mol.basis_set, 1, 0)(mol.r)[0, 1])
print("overlap default vs matrix:", qml.qchem.overlap_integral(mol.basis_set[0], mol.basis_set[1])(mol.r), qml.qchem.overlap_matrix(mol.basis_set)(mol.r)[0,1])
