import numpy as np, pennylane as qml
rng = np.random.default_rng(0)
for n in [2, 4]:
    m = 2
    h1 = np.zeros((n, m, m))
    for i in range(n):
        a = rng.uniform(-1, 1, (m, m))*0.1; h1[i] = (a+a.T)/2 + np.diag([0.5, 1.5])
    d1 = np.stack([np.stack([(lambda a: (a+a.T)/2)(rng.uniform(-1,1,(m,m))) for i in range(n)]) for _ in range(3)])
    print("n", n, "d1 in", d1.shape)
    try:
        h, d = qml.qchem.vscf_integrals([h1], [d1])
        print("  h out", h[0].shape, "d out", d[0].shape)
    except Exception as e:
        print("  raised", type(e).__name__, e)
