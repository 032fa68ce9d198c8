import numpy as np, pennylane as qp
freqs = np.array([0.01885397])
grid, weights = np.polynomial.hermite.hermgauss(9)
pes_onemode = [[0.05235573, 0.03093067, 0.01501878, 0.00420778, 0.0,
                0.00584504, 0.02881817, 0.08483433, 0.22025702]]
for label, data in [("list", pes_onemode), ("ndarray", np.array(pes_onemode))]:
    for loc in (True, False):
        pes = qp.qchem.VibrationalPES(freqs=freqs, grid=grid, gauss_weights=weights, pes_data=[data], localized=loc)
        try:
            h = qp.qchem.taylor_hamiltonian(pes)
            print(label, "localized", loc, "OK", len(h))
        except Exception as e:
            print(label, "localized", loc, "FAIL", type(e).__name__, e)
