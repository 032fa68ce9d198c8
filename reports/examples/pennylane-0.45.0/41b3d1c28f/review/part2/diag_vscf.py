import numpy as np, pennylane as qml
rng = np.random.default_rng(1)
for n in (2, 3, 4):
    m = 2
    h1 = np.array([np.diag([0.5, 1.5]) * (i + 1) for i in range(n)])
    d1 = rng.uniform(-1, 1, (3, n, m, m)); d1 = (d1 + d1.transpose(0, 1, 3, 2)) / 2
    try:
        h, d = qml.qchem.vscf_integrals([h1], [d1])
        print(n, "h", h[0].shape, "d in", d1.shape, "d out", d[0].shape)
    except Exception as e:
        print(n, "raised", type(e).__name__, e)
