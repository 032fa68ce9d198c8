import itertools, numpy as onp
from scipy.linalg import expm
I=onp.eye(2); X=onp.array([[0,1],[1,0]],complex); Y=onp.array([[0,-1j],[1j,0]]); Z=onp.diag([1.,-1]).astype(complex)
P1={'I':I,'X':X,'Y':Y,'Z':Z}; kron=onp.kron
H = -kron(X,I) - kron(I,Z) - kron(Y,X)
def RX(t): return expm(-1j*t/2*X)
def RY(t): return expm(-1j*t/2*Y)
CNOT = onp.array([[1,0,0,0],[0,1,0,0],[0,0,0,1],[0,0,1,0]],complex)
psi = onp.zeros(4,complex); psi[0]=1
psi = kron(RX(0.1),I)@psi; psi = kron(I,RY(0.5))@psi; psi = CNOT@psi; psi = kron(RY(0.6),I)@psi
E = lambda s: float(onp.real(s.conj()@H@s))
words = [a+b for a in "IXYZ" for b in "IXYZ"][1:]
mats = {w: kron(P1[w[0]],P1[w[1]]) for w in words}
om = {w: E(expm(-1j*onp.pi/4*mats[w])@psi) - E(expm(1j*onp.pi/4*mats[w])@psi) for w in words}
nz = [w for w in words if abs(om[w]) > 1e-12]
print("nonzero omegas:", {w: round(om[w],6) for w in nz})
U = {w: expm(-1j*0.1*(-om[w])*mats[w]) for w in nz}
vals = {}
rng = onp.random.default_rng(0)
for perm in (tuple(rng.permutation(nz)) for _ in range(20000)):
    s = psi
    for w in perm: s = U[w]@s
    vals[perm] = E(s)
doc = -1.9937887238935206
best = min(vals, key=lambda p: abs(vals[p]-doc))
print("closest ordering to documented step 1:", best, vals[best], "range over orderings:", min(vals.values()), max(vals.values()))
# also: doubled step (factor 2 in PauliRot convention) or halved
for f in (0.5, 2.0):
    s = psi
    for w in nz: s = expm(-1j*0.1*f*(-om[w])*mats[w])@s
    print("factor", f, E(s))
