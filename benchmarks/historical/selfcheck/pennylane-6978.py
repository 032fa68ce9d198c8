"""pennylane-6978: qml.poly_to_angles modifies the caller's coefficient list (it pops the
trailing zeros off the list it was given).

A trailing zero coefficient does not change the polynomial: the angles must be those of
the trimmed polynomial, and the caller's list must be left as it was."""
import numpy as np
import pennylane as qml

trimmed = [0, 1.0, 0, -1 / 2, 0, 1 / 3]
poly = trimmed + [0.0, 0.0]
before = list(poly)
angles = qml.poly_to_angles(poly, "QSVT")
assert np.allclose(angles, qml.poly_to_angles(list(trimmed), "QSVT"))
assert poly == before, f"poly_to_angles changed its input from {before} to {poly}"
