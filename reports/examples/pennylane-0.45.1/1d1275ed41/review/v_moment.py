import numpy as onp
import pennylane as qml
from pennylane import numpy as np
from pennylane.qchem import moment_integral
symbols  = ['H', 'Li']
geometry = np.array([[0.0, 0.0, 0.0], [2.0, 0.0, 0.0]], requires_grad = True)
mol = qml.qchem.Molecule(symbols, geometry)
args = [mol.r]
pl = moment_integral(mol.basis_set[0], mol.basis_set[1], 1, 0)(*args)
print("PennyLane:", pl)
print("unit", mol.unit, "coords", mol.coordinates)
a, b = mol.basis_set[0], mol.basis_set[1]
print("a", a.l, a.params[0], a.params[1], a.r); print("b", b.l, b.params[0], b.params[1], b.r)
# independent: normalized s-type contracted gaussians, x-moment = sum c_i c_j N_i N_j (pi/p)^1.5 exp(-mu R^2) P_x
def norm_s(al): return (2*al/onp.pi)**0.75
def contracted(al, c):
    c = c*norm_s(al)
    S = sum(ci*cj*(onp.pi/(ai+aj))**1.5 for ai,ci in zip(al,c) for aj,cj in zip(al,c))
    return c/onp.sqrt(S)
al, ca = onp.array(a.params[0]), contracted(onp.array(a.params[0]), onp.array(a.params[1]))
be, cb = onp.array(b.params[0]), contracted(onp.array(b.params[0]), onp.array(b.params[1]))
A, B = onp.array(a.r, dtype=float), onp.array(b.r, dtype=float)
tot = 0.0; ov = 0.0
for ai, ci in zip(al, ca):
    for bj, cj in zip(be, cb):
        p = ai + bj; mu = ai*bj/p; P = (ai*A + bj*B)/p
        s = ci*cj*(onp.pi/p)**1.5*onp.exp(-mu*onp.sum((A-B)**2))
        ov += s; tot += s*P[0]
print("independent overlap:", ov, "x-moment <a|x|b>:", tot)
# grid cross-check along x (y,z integrated analytically is already above); brute 3D grid coarse
x = onp.linspace(-6, 8, 281); y = onp.linspace(-6, 6, 241)
X, Y, Z = onp.meshgrid(x, y, y, indexing="ij")
def phi(al, c, C): return sum(ci*onp.exp(-ai*((X-C[0])**2+(Y-C[1])**2+(Z-C[2])**2)) for ai, ci in zip(al, c))
dv = (x[1]-x[0])*(y[1]-y[0])**2
fa, fb = phi(al, ca, A), phi(be, cb, B)
print("grid overlap:", (fa*fb).sum()*dv, "grid x-moment:", (fa*X*fb).sum()*dv)
print("normalize=False:", moment_integral(a, b, 1, 0, normalize=False)(*args))
