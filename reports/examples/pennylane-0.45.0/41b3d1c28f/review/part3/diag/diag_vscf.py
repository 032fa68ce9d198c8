import numpy as np, pennylane as qml
rng = np.random.default_rng(0)
for n in [2, 3, 4]:
    m = 2
    h1 = np.zeros((n, m, m))
    for i in range(n): h1[i] = np.diag([0.5, 1.5]) * (1 + 0.1*i) + 0.01
    d1 = rng.uniform(-1, 1, (3, n, m, m)); d1 = (d1 + d1.transpose(0,1,3,2))/2
    try:
        h, d = qml.qchem.vscf_integrals([h1], [d1])
        print(n, 'modes: h', h[0].shape, 'd', d[0].shape)
    except Exception as e:
        print(n, 'modes: ERR', type(e).__name__, e)
