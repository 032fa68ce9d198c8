import numpy as np
import pennylane as qml
def rebuild(phases, rots, N):
    R = np.diag(np.asarray(phases)).astype(complex)
    for t,(i,j) in rots:
        F = np.eye(N, dtype=complex); F[np.ix_([i,j],[i,j])] = np.asarray(t); R = R @ F
    return R
# docstring example, complex: convention check
U = np.array([[ 0.73678+0.27511j, -0.5095 +0.10704j, -0.06847+0.32515j],
              [-0.21271+0.34938j, -0.38853+0.36497j,  0.61467-0.41317j],
              [ 0.41356-0.20765j, -0.00651-0.66689j,  0.32839-0.48293j]])
p, r = qml.qchem.givens_decomposition(U)
print("doc complex err", np.abs(rebuild(p, r, 3) - U).max())
rng = np.random.default_rng(1)
for N in [2,3,4,5]:
    for det in [1,-1]:
        errs=[]
        for _ in range(20):
            Q = np.linalg.qr(rng.normal(size=(N,N)))[0]
            if np.sign(np.linalg.det(Q)) != det: Q[:,0] *= -1
            p, r = qml.qchem.givens_decomposition(Q)
            errs.append(np.abs(rebuild(p, r, N) - Q).max())
        print(N, det, "max err real", max(errs), "phases", np.round(np.asarray(p),3))
        # same matrix as complex dtype
        p, r = qml.qchem.givens_decomposition(Q.astype(complex))
        print("   as complex err", np.abs(rebuild(p, r, N) - Q).max())
U = np.array([[-0.19264633241404083, -0.9812682561906395], [-0.9812682561906395, 0.19264633241404108]])
p, r = qml.qchem.givens_decomposition(U)
print("finding", p, r)
