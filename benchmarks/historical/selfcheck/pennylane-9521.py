"""pennylane-9521: qml.qchem.vscf_integrals takes the number of vibrational modes of the
dipole from the wrong axis (the 3 Cartesian components), so for a molecule with other
than 3 modes the rotated dipole covers the wrong number of modes.

Documented shapes: h_integrals[0] is (n, m, m), d_integrals[0] is (3, n, ...). With n = 4
modes the rotated 1-mode dipole must cover 4 modes, like the rotated Hamiltonian does."""
import numpy as np
import pennylane as qml

n_modes, n_modals = 4, 3
rng = np.random.default_rng(7)
h1 = rng.normal(size=(n_modes, n_modals, n_modals))
h1 = (h1 + h1.transpose(0, 2, 1)) / 2 + np.diag(np.arange(1.0, n_modals + 1))[None]
d1 = rng.normal(size=(3, n_modes, n_modals, n_modals))
d1 = (d1 + d1.transpose(0, 1, 3, 2)) / 2

h_rot, d_rot = qml.qchem.vscf_integrals([h1], d_integrals=[d1], modals=[n_modals] * n_modes)
assert np.shape(h_rot[0])[0] == n_modes
assert np.shape(d_rot[0])[:2] == (3, n_modes), (
    f"rotated dipole has shape {np.shape(d_rot[0])}: it covers {np.shape(d_rot[0])[1]} modes, expected {n_modes}")
