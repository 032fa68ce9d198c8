"""Exact local algebra of one mutation: its relative unitary and what it reduces to.

R = (inserted ops)(removed ops)^dagger on the union of their qubits acts on the original
circuit's state right after the removed ops (`Mutation.site`). Every decision about a unitary
mutation starts from R: a scalar R is a global-phase-only change; its canonical angle bounds any
gap; a one-qubit R has an effective axis and angle; an R equal (up to phase) to
cos(a/2) I - i sin(a/2) P for a Pauli string P is a fixed-axis rotation with closed forms.

Zero tests use a validated rounding bound: float64 products of a few small unitaries carry an
error below `rounding_bound(...)`, so a deviation under it is an exact zero of the underlying
algebra, whereas anything above it is treated as a real effect however small.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from qusema.oracle.core import core
from qusema.oracle.mutation.mutants import Mutation
from qusema.oracle.mutation.pauli import local_pauli_matrix, pauli_decomposition

EPS = np.finfo(float).eps


def rounding_bound(operations: int, dim: int) -> float:
    """Worst-case float64 error of composing `operations` unitaries of dimension `dim`
    (a standard forward-error bound, with a safety factor of 8)."""
    return 8.0 * EPS * max(1, operations) * dim * dim


def embed(matrix: np.ndarray, qubits: tuple[int, ...], support: tuple[int, ...]) -> np.ndarray:
    """`matrix` (on `qubits`, first most significant) as a matrix on `support` (same order)."""
    k = len(support)
    tensor = np.eye(2 ** k, dtype=complex).reshape((2,) * k + (2 ** k,))
    positions = [support.index(q) for q in qubits]
    # apply_matrix maps qubit q to axis n-1-q; convert support positions to that convention.
    tensor = core.apply_matrix(tensor, matrix, [k - 1 - p for p in positions], k)
    return tensor.reshape(2 ** k, 2 ** k)


def relative_unitary(mutation: Mutation) -> tuple[np.ndarray, tuple[int, ...]]:
    support = mutation.support
    dim = 2 ** len(support)
    removed = np.eye(dim, dtype=complex)
    for name, params, qubits in mutation.removed:
        removed = embed(core.gate_matrix(name, params), qubits, support) @ removed
    inserted = np.eye(dim, dtype=complex)
    for name, params, qubits in mutation.inserted:
        inserted = embed(core.gate_matrix(name, params), qubits, support) @ inserted
    return inserted @ removed.conj().T, support


def is_scalar_unitary(matrix: np.ndarray, operations: int) -> bool:
    """Whether a unitary is c*I, within the validated rounding bound of its construction."""
    dim = matrix.shape[0]
    c = matrix[0, 0]
    return bool(np.max(np.abs(matrix - c * np.eye(dim))) <= rounding_bound(operations, dim) and abs(abs(c) - 1) <= rounding_bound(operations, dim))


def canonical_angle(matrix: np.ndarray) -> float:
    """The width of the smallest arc holding all eigenphases: the rotation angle of R once its
    global phase is removed (|eta| for exp(-i eta A / 2) with A^2 = I and |eta| <= pi)."""
    phases = np.sort(np.mod(np.angle(np.linalg.eigvals(matrix)), 2 * math.pi))
    if phases.size == 1:
        return 0.0
    gaps = np.diff(np.concatenate([phases, [phases[0] + 2 * math.pi]]))
    return float(2 * math.pi - np.max(gaps))


def angle_gap_bound(angle: float, observable_range: float) -> float:
    """Largest |gap| any input can show for a relative unitary of this canonical angle:
    range * sin(angle / 2) (paper 001, B.7), capped at the full range."""
    if angle >= math.pi:
        return observable_range
    return observable_range * math.sin(angle / 2)


def undetectable_angle(threshold: float, observable_range: float) -> float:
    """Canonical angles strictly below this cannot reach the threshold: 2 arcsin(gamma / R)."""
    ratio = threshold / observable_range
    return math.pi if ratio >= 1 else 2 * math.asin(ratio)


@dataclass(frozen=True)
class FixedAxisRotation:
    """R = e^{i phase} (cos(angle/2) I - i sin(angle/2) A) with A = sum_k axis[k] P_k, A^2 = I."""

    axis: dict[str, float]  # local Pauli label (support order) -> real coefficient
    angle: float
    global_phase: float
    kind: str  # "pauli_rotation" (A one Pauli string) | "one_qubit_axis" (A = n . sigma)

    def axis_matrix(self) -> np.ndarray:
        return sum(c * local_pauli_matrix(label) for label, c in self.axis.items())


def fixed_axis_form(matrix: np.ndarray, operations: int) -> FixedAxisRotation | None:
    """Reduces R to an effective axis and angle when R is a one-qubit unitary (any axis) or a
    rotation about a single Pauli string; None otherwise."""
    dim = matrix.shape[0]
    tol = math.sqrt(rounding_bound(operations, dim))
    det_phase = np.angle(np.linalg.det(matrix)) / dim
    special = matrix * np.exp(-1j * det_phase)  # det 1, so for one qubit SU(2)
    coeffs = pauli_decomposition(special, cutoff=1e-15)
    identity = "I" * int(round(math.log2(dim)))
    c0 = coeffs.pop(identity, 0)
    if not coeffs:
        return None
    if dim == 2:
        # SU(2): c0 = cos(a/2) real, c_k = -i sin(a/2) n_k with n real.
        vec = np.array([-coeffs.get(p, 0) / 1j for p in "XYZ"])
        if np.max(np.abs(vec.imag)) > tol or abs(c0.imag) > tol:
            return None
        s = float(np.linalg.norm(vec.real))
        angle = 2 * math.atan2(s, float(c0.real))
        axis = {p: float(v / s) for p, v in zip("XYZ", vec.real) if abs(v) > 0}
        kind = "pauli_rotation" if len(axis) == 1 else "one_qubit_axis"
        return FixedAxisRotation(axis, angle, float(det_phase), kind)
    if len(coeffs) != 1:
        return None
    (label, c1), = coeffs.items()
    # Up to a phase, R = cos(a/2) I - i sin(a/2) P: c0 and i*c1 share one phase.
    phase = c0 / abs(c0) if abs(c0) > tol else (1j * c1) / abs(c1)
    cos_half, sin_half = c0 / phase, (1j * c1) / phase
    if abs(cos_half.imag) > tol or abs(sin_half.imag) > tol:
        return None
    angle = 2 * math.atan2(float(sin_half.real), float(cos_half.real))
    return FixedAxisRotation({label: 1.0}, angle, float(det_phase + np.angle(phase)), "pauli_rotation")


def rotation_coefficients(a_m: float, b_m: float) -> dict[str, float]:
    """Gap(eta) = a_m (1 - cos eta) + b_m sin eta: the largest |gap| and the nonzero zero."""
    return {"a_m": a_m, "b_m": b_m, "max_response": abs(a_m) + math.hypot(a_m, b_m),
            "second_zero": math.fmod(2 * math.atan2(-b_m, a_m) + 2 * math.pi, 2 * math.pi)}


def rotation_gap(a_m: float, b_m: float, eta: float) -> float:
    return a_m * (1 - math.cos(eta)) + b_m * math.sin(eta)
