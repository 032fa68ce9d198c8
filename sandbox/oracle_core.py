"""The numeric core of QuSema's quantum oracle: what is quantumly true, in numpy.

This file runs in two places: inside the sandbox under the *target's* Python (3.8+, next to
whatever library release is being audited) and in QuSema's own environment through
`qusema.oracle.core`. It therefore imports only the standard library and numpy, and never
qusema or qiskit: judging a library with itself alone proves nothing (DESIGN.md, principle 4),
so the simulator below is an independent implementation of the standard gates.

Contents, each a small primitive with exact semantics:

- gate matrices of the standard gate set and a dense state/unitary simulator over plain
  operation tuples ``(name, params, qubits)`` (qubit 0 is the least significant bit of a
  basis index, Qiskit's convention, so results compare directly with Qiskit's);
- phase-aware comparison of states and unitaries with a counterexample input;
- fidelity and trace distance;
- Pauli-string expectation values;
- Quantum Chernoff Bound shot planning (paper 002, Eq. 8) and the per-shot miss
  probabilities of the Inverse and Swap tests;
- goodness-of-fit tests (chi-square, G, exact multinomial) and their Monte-Carlo variants.
"""

from __future__ import annotations

import cmath
import itertools
import math
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

import numpy as np

CORE_VERSION = 1

EQUAL = "equal"
EQUAL_UP_TO_GLOBAL_PHASE = "equal_up_to_global_phase"
NOT_EQUAL = "not_equal"
UNKNOWN = "unknown"

DEFAULT_ATOL = 1e-9

Op = Tuple[str, Tuple[float, ...], Tuple[int, ...]]


class UnsupportedOperation(ValueError):
    """An operation this simulator has no exact matrix for (the caller reports `unknown`)."""


# ---------------------------------------------------------------------------------------------
# Gate matrices. Multi-qubit matrices are written with the gate's FIRST argument as the most
# significant bit (textbook order: control first); `apply_matrix` maps that onto the register.

_I2 = np.eye(2, dtype=complex)
_X = np.array([[0, 1], [1, 0]], dtype=complex)
_Y = np.array([[0, -1j], [1j, 0]], dtype=complex)
_Z = np.array([[1, 0], [0, -1]], dtype=complex)
_H = np.array([[1, 1], [1, -1]], dtype=complex) / math.sqrt(2)
_S = np.array([[1, 0], [0, 1j]], dtype=complex)
_T = np.array([[1, 0], [0, cmath.exp(1j * math.pi / 4)]], dtype=complex)
_SX = np.array([[1 + 1j, 1 - 1j], [1 - 1j, 1 + 1j]], dtype=complex) / 2
PAULI_MATRICES = {"I": _I2, "X": _X, "Y": _Y, "Z": _Z}


def _rx(t: float) -> np.ndarray:
    c, s = math.cos(t / 2), math.sin(t / 2)
    return np.array([[c, -1j * s], [-1j * s, c]], dtype=complex)


def _ry(t: float) -> np.ndarray:
    c, s = math.cos(t / 2), math.sin(t / 2)
    return np.array([[c, -s], [s, c]], dtype=complex)


def _rz(t: float) -> np.ndarray:
    return np.array([[cmath.exp(-0.5j * t), 0], [0, cmath.exp(0.5j * t)]], dtype=complex)


def _p(lam: float) -> np.ndarray:
    return np.array([[1, 0], [0, cmath.exp(1j * lam)]], dtype=complex)


def _u(theta: float, phi: float, lam: float) -> np.ndarray:
    c, s = math.cos(theta / 2), math.sin(theta / 2)
    return np.array([[c, -cmath.exp(1j * lam) * s],
                     [cmath.exp(1j * phi) * s, cmath.exp(1j * (phi + lam)) * c]], dtype=complex)


def _r(theta: float, phi: float) -> np.ndarray:
    axis = math.cos(phi) * _X + math.sin(phi) * _Y
    return math.cos(theta / 2) * _I2 - 1j * math.sin(theta / 2) * axis


def controlled(u: np.ndarray, n_controls: int = 1) -> np.ndarray:
    """The gate applying `u` when every control (the leading arguments) is |1>."""
    d = u.shape[0]
    full = np.eye(d * 2 ** n_controls, dtype=complex)
    full[-d:, -d:] = u
    return full


def _pauli_rotation(label: str, t: float) -> np.ndarray:
    """exp(-i t/2 P) for a Pauli string P given in argument order (first = most significant)."""
    p = np.array([[1]], dtype=complex)
    for ch in label:
        p = np.kron(p, PAULI_MATRICES[ch])
    return math.cos(t / 2) * np.eye(p.shape[0]) - 1j * math.sin(t / 2) * p


_SWAP = np.array([[1, 0, 0, 0], [0, 0, 1, 0], [0, 1, 0, 0], [0, 0, 0, 1]], dtype=complex)
_ISWAP = np.array([[1, 0, 0, 0], [0, 0, 1j, 0], [0, 1j, 0, 0], [0, 0, 0, 1]], dtype=complex)
# DCX is CX(0,1) followed by CX(1,0), in argument order.
_DCX = np.array([[1, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1], [0, 1, 0, 0]], dtype=complex)
# Qiskit's ECR in argument order (first argument = most significant here).
_ECR = np.array([[0, 0, 1, 1j], [0, 0, 1j, 1], [1, -1j, 0, 0], [-1j, 1, 0, 0]], dtype=complex) / math.sqrt(2)

_FIXED: Dict[str, np.ndarray] = {
    "id": _I2, "i": _I2, "x": _X, "y": _Y, "z": _Z, "h": _H, "s": _S, "sdg": _S.conj().T,
    "t": _T, "tdg": _T.conj().T, "sx": _SX, "sxdg": _SX.conj().T,
    "cx": controlled(_X), "cnot": controlled(_X), "cy": controlled(_Y), "cz": controlled(_Z),
    "ch": controlled(_H), "cs": controlled(_S), "csdg": controlled(_S.conj().T),
    "csx": controlled(_SX), "swap": _SWAP, "iswap": _ISWAP, "dcx": _DCX, "ecr": _ECR,
    "ccx": controlled(_X, 2), "toffoli": controlled(_X, 2), "ccz": controlled(_Z, 2),
    "cswap": controlled(_SWAP), "fredkin": controlled(_SWAP),
}
_PARAMETRIC = {
    "rx": (1, _rx), "ry": (1, _ry), "rz": (1, _rz), "p": (1, _p), "u1": (1, _p),
    "phase": (1, _p), "u": (3, _u), "u3": (3, _u),
    "u2": (2, lambda phi, lam: _u(math.pi / 2, phi, lam)), "r": (2, _r),
    "crx": (1, lambda t: controlled(_rx(t))), "cry": (1, lambda t: controlled(_ry(t))),
    "crz": (1, lambda t: controlled(_rz(t))), "cp": (1, lambda t: controlled(_p(t))),
    "cu1": (1, lambda t: controlled(_p(t))),
    "cu3": (3, lambda a, b, c: controlled(_u(a, b, c))),
    "cu": (4, lambda a, b, c, g: controlled(cmath.exp(1j * g) * _u(a, b, c))),
    "rxx": (1, lambda t: _pauli_rotation("XX", t)), "ryy": (1, lambda t: _pauli_rotation("YY", t)),
    "rzz": (1, lambda t: _pauli_rotation("ZZ", t)),
    # Qiskit's RZX(theta) on (q0, q1) is exp(-i theta/2 X(q1) Z(q0)): Z on the first argument.
    "rzx": (1, lambda t: _pauli_rotation("ZX", t)),
}
STANDARD_GATES = frozenset(_FIXED) | frozenset(_PARAMETRIC)
GATE_ARITY = {name: int(round(math.log2(m.shape[0]))) for name, m in _FIXED.items()}
GATE_ARITY.update({name: int(round(math.log2(f(*([0.3] * k)).shape[0]))) for name, (k, f) in _PARAMETRIC.items()})


def gate_matrix(name: str, params: Sequence[float] = ()) -> np.ndarray:
    """The exact matrix of a standard gate, first argument most significant.

    Also ``"unitary"``: an explicit matrix carried in the params as interleaved real and
    imaginary parts, row-major (see `unitary_op`). Test circuits use it for the preparation
    of a state that is given as a vector rather than as a circuit."""
    if name == "unitary":
        values = np.asarray(params, dtype=float)
        dim = int(round(math.sqrt(values.size / 2)))
        if dim < 2 or 2 * dim * dim != values.size or dim & (dim - 1):
            raise UnsupportedOperation(f"unitary params of length {values.size} are no 2^k x 2^k matrix")
        return (values[0::2] + 1j * values[1::2]).reshape(dim, dim)
    if name in _FIXED:
        if params:
            raise UnsupportedOperation(f"{name} takes no parameters, got {list(params)}")
        return _FIXED[name].copy()
    if name in _PARAMETRIC:
        count, build = _PARAMETRIC[name]
        if len(params) != count:
            raise UnsupportedOperation(f"{name} takes {count} parameters, got {len(params)}")
        return build(*[float(v) for v in params])
    raise UnsupportedOperation(f"no exact matrix for operation {name!r}")


# ---------------------------------------------------------------------------------------------
# Dense simulation. A register of n qubits is a tensor of shape (2,)*n (+ a trailing batch axis
# for unitaries or many states at once); axis n-1-q belongs to qubit q so that a C-order
# flattening gives Qiskit's little-endian basis index.

def apply_matrix(tensor: np.ndarray, matrix: np.ndarray, qubits: Sequence[int], n: int) -> np.ndarray:
    """Applies `matrix` (first qubit most significant) to `qubits` of a register tensor."""
    k = len(qubits)
    if len(set(qubits)) != k:
        raise ValueError(f"repeated qubit in {list(qubits)}")
    axes = [n - 1 - q for q in qubits]
    gate = matrix.reshape((2,) * (2 * k))
    moved = np.tensordot(gate, tensor, axes=(list(range(k, 2 * k)), axes))
    return np.moveaxis(moved, list(range(k)), axes)


def apply_ops(tensor: np.ndarray, ops: Iterable[Op], n: int) -> np.ndarray:
    for name, params, qubits in ops:
        if name in ("barrier", "measure", "delay"):
            # Measurements and barriers are not unitary steps; callers that care about
            # measurements (mid-circuit collapse) must strip or model them before calling.
            continue
        tensor = apply_matrix(tensor, gate_matrix(name, params), qubits, n)
    return tensor


def basis_state(n: int, index: int = 0) -> np.ndarray:
    state = np.zeros(2 ** n, dtype=complex)
    state[index] = 1.0
    return state


def product_state(labels: str) -> np.ndarray:
    """A product state from one label per qubit, qubit 0 LAST (like a bitstring): 0 1 + - r l."""
    singles = {"0": [1, 0], "1": [0, 1], "+": [1, 1], "-": [1, -1], "r": [1, 1j], "l": [1, -1j]}
    state = np.array([1], dtype=complex)
    for ch in labels:
        if ch not in singles:
            raise ValueError(f"unknown single-qubit state label {ch!r} (use 0 1 + - r l)")
        v = np.array(singles[ch], dtype=complex)
        state = np.kron(state, v / np.linalg.norm(v))
    return state


def statevector(ops: Iterable[Op], n: int, initial: Optional[np.ndarray] = None) -> np.ndarray:
    """The output state of `ops` on `initial` (default |0...0>), as a flat vector."""
    state = basis_state(n) if initial is None else np.asarray(initial, dtype=complex)
    if state.shape != (2 ** n,):
        raise ValueError(f"initial state has shape {state.shape}, expected ({2 ** n},)")
    return apply_ops(state.reshape((2,) * n), ops, n).reshape(2 ** n)


def unitary(ops: Iterable[Op], n: int) -> np.ndarray:
    """The unitary of `ops` as a 2^n x 2^n matrix (Qiskit's basis order)."""
    dim = 2 ** n
    tensor = np.eye(dim, dtype=complex).reshape((2,) * n + (dim,))
    return apply_ops(tensor, ops, n).reshape(dim, dim)


def unitary_op(matrix: np.ndarray, qubits: Sequence[int]) -> Op:
    """An explicit-matrix operation (first qubit most significant), exact in float64."""
    m = np.asarray(matrix, dtype=complex)
    interleaved = np.empty(2 * m.size)
    interleaved[0::2], interleaved[1::2] = m.real.ravel(), m.imag.ravel()
    return ("unitary", tuple(float(v) for v in interleaved), tuple(int(q) for q in qubits))


def preparation_ops(state: np.ndarray) -> List[Op]:
    """A circuit taking |0...0> exactly to `state` (phase included): one explicit gate, the
    Householder reflection that swaps |0> with the state's phase-aligned copy, times that phase."""
    psi = np.asarray(state, dtype=complex).ravel()
    n = int(psi.size).bit_length() - 1
    if psi.size < 2 or 2 ** n != psi.size:
        raise ValueError(f"a state of length {psi.size} is not a register of qubits")
    psi = psi / np.linalg.norm(psi)
    phase = psi[0] / abs(psi[0]) if abs(psi[0]) > 0 else 1.0 + 0j
    v = psi / phase  # v[0] = |psi[0]| >= 0
    w = -v
    w[0] += 1.0
    norm2 = float(np.real(np.vdot(w, w)))
    reflection = np.eye(psi.size, dtype=complex)
    if norm2 > 0:
        reflection -= (2.0 / norm2) * np.outer(w, w.conj())
    # Qubit n-1 first: the matrix is then indexed by the register's own basis index.
    return [unitary_op(phase * reflection, tuple(range(n - 1, -1, -1)))]


def inverse_ops(ops: Sequence[Op]) -> List[Op]:
    """The inverse circuit, each gate replaced by an exact inverse expressed as a `unitary`-free
    op: gates are self-inverse, have a named inverse, or invert by negating angles."""
    named = {"s": "sdg", "sdg": "s", "t": "tdg", "tdg": "t", "sx": "sxdg", "sxdg": "sx",
             "cs": "csdg", "csdg": "cs"}
    negate = {"rx", "ry", "rz", "p", "u1", "phase", "crx", "cry", "crz", "cp", "cu1", "rxx", "ryy",
              "rzz", "rzx"}
    self_inverse = {"id", "i", "x", "y", "z", "h", "cx", "cnot", "cy", "cz", "ch", "swap", "ccx",
                    "toffoli", "ccz", "cswap", "fredkin", "ecr"}
    out: List[Op] = []
    for name, params, qubits in reversed(list(ops)):
        if name in ("barrier", "measure", "delay"):
            continue
        if name in self_inverse:
            out.append((name, tuple(params), tuple(qubits)))
        elif name in named:
            out.append((named[name], tuple(params), tuple(qubits)))
        elif name in negate:
            out.append((name, tuple(-float(v) for v in params), tuple(qubits)))
        elif name in ("u", "u3"):
            theta, phi, lam = (float(v) for v in params)
            out.append((name, (-theta, -lam, -phi), tuple(qubits)))
        elif name == "u2":
            phi, lam = (float(v) for v in params)
            out.append(("u", (-math.pi / 2, -lam, -phi), tuple(qubits)))
        elif name == "r":
            theta, phi = (float(v) for v in params)
            out.append(("r", (-theta, phi), tuple(qubits)))
        elif name == "unitary":
            out.append(unitary_op(gate_matrix(name, params).conj().T, qubits))
        else:
            raise UnsupportedOperation(f"no exact inverse for {name!r}")
    return out


def ops_from_circuit(circuit) -> Tuple[int, List[Op]]:
    """Plain operation tuples from a Qiskit-like circuit, without importing Qiskit.

    Works by duck typing over `circuit.data` (Qiskit 0.45 through 2.x). Parameters must be
    bound; an unbound parameter raises UnsupportedOperation rather than guessing a value.
    """
    index = {bit: i for i, bit in enumerate(circuit.qubits)}
    ops: List[Op] = []
    for item in circuit.data:
        operation = getattr(item, "operation", None)
        qargs = getattr(item, "qubits", None)
        if operation is None:  # legacy (instruction, qargs, cargs) tuples
            operation, qargs = item[0], item[1]
        params = []
        for value in getattr(operation, "params", []):
            try:
                params.append(float(value))
            except (TypeError, ValueError) as exc:
                raise UnsupportedOperation(f"{operation.name}: parameter {value!r} is not a bound number") from exc
        name = operation.name
        if name not in STANDARD_GATES and name not in ("barrier", "measure", "delay"):
            raise UnsupportedOperation(f"no exact matrix for operation {name!r}")
        ops.append((name, tuple(params), tuple(index[q] for q in qargs)))
    return circuit.num_qubits, ops


# ---------------------------------------------------------------------------------------------
# Phase-aware comparison.

def global_phase_between(a: np.ndarray, b: np.ndarray) -> complex:
    """The unit phase c minimising |b - c a| (least squares), 1 when a is zero."""
    overlap = np.vdot(a.ravel(), b.ravel())
    if abs(overlap) == 0:
        return 1.0 + 0j
    return overlap / abs(overlap)


def compare_states(a: np.ndarray, b: np.ndarray, atol: float = DEFAULT_ATOL) -> Dict[str, object]:
    """Compares two state vectors: equal, equal up to a global phase, or not equal."""
    a = np.asarray(a, dtype=complex).ravel()
    b = np.asarray(b, dtype=complex).ravel()
    if a.shape != b.shape:
        return {"verdict": NOT_EQUAL, "reason": f"dimensions differ: {a.size} vs {b.size}", "fidelity": 0.0}
    phase = global_phase_between(a, b)
    distance = float(np.max(np.abs(b - phase * a))) if a.size else 0.0
    fid = fidelity(a, b)
    if distance > atol:
        return {"verdict": NOT_EQUAL, "max_abs_difference": distance, "fidelity": fid}
    exact = float(np.max(np.abs(b - a))) <= atol
    return {"verdict": EQUAL if exact else EQUAL_UP_TO_GLOBAL_PHASE, "global_phase": cmath.phase(phase),
            "fidelity": fid}


def compare_unitaries(u: np.ndarray, v: np.ndarray, atol: float = DEFAULT_ATOL) -> Dict[str, object]:
    """Compares two unitaries; when they differ, names an input that tells them apart.

    The witness is a basis state when some column differs beyond a phase, else the equal
    superposition of two basis states whose columns carry different phases (as diag(1, -1)
    against the identity, where every basis input agrees up to phase).
    """
    u = np.asarray(u, dtype=complex)
    v = np.asarray(v, dtype=complex)
    if u.shape != v.shape:
        return {"verdict": NOT_EQUAL, "reason": f"shapes differ: {u.shape} vs {v.shape}"}
    if np.max(np.abs(u - v)) <= atol:
        return {"verdict": EQUAL}
    phase = global_phase_between(u, v)
    if np.max(np.abs(v - phase * u)) <= atol:
        return {"verdict": EQUAL_UP_TO_GLOBAL_PHASE, "global_phase": cmath.phase(phase)}
    dim = u.shape[0]
    column_phases = []
    for j in range(dim):
        c = global_phase_between(u[:, j], v[:, j])
        gap = float(np.max(np.abs(v[:, j] - c * u[:, j])))
        if gap > atol:
            return {"verdict": NOT_EQUAL, "counterexample": {"kind": "basis", "indices": [j]},
                    "max_abs_difference": gap}
        column_phases.append(c)
    for j in range(1, dim):
        if abs(column_phases[j] - column_phases[0]) > atol:
            return {"verdict": NOT_EQUAL, "counterexample": {"kind": "superposition", "indices": [0, j]},
                    "relative_phase": cmath.phase(column_phases[j] / column_phases[0])}
    # Unreachable for genuinely different unitaries; kept so the caller never gets a silent pass.
    return {"verdict": UNKNOWN, "reason": "columns agree up to phase but matrices differ beyond atol"}


def counterexample_state(counterexample: Dict[str, object], n: int) -> np.ndarray:
    indices = list(counterexample["indices"])  # type: ignore[arg-type]
    state = np.zeros(2 ** n, dtype=complex)
    state[indices] = 1.0
    return state / np.linalg.norm(state)


def haar_unitary(rng: np.random.Generator, dim: int) -> np.ndarray:
    """A Haar-random unitary: QR of a complex Gaussian matrix (real parts drawn first, then
    imaginary), with R's diagonal phases moved into Q so the distribution is uniform."""
    q, r = np.linalg.qr(rng.normal(size=(dim, dim)) + 1j * rng.normal(size=(dim, dim)))
    return q * (np.diag(r) / np.abs(np.diag(r)))


def fidelity(a: np.ndarray, b: np.ndarray) -> float:
    """Fidelity of two states; vectors are pure states, square matrices density operators."""
    a = np.asarray(a, dtype=complex)
    b = np.asarray(b, dtype=complex)
    if a.ndim == 1 and b.ndim == 1:
        return float(min(1.0, abs(np.vdot(a, b)) ** 2))
    rho = a if a.ndim == 2 else np.outer(a, a.conj())
    sigma = b if b.ndim == 2 else np.outer(b, b.conj())
    root = _psd_power(rho, 0.5)
    inner = root @ sigma @ root
    vals = np.clip(np.linalg.eigvalsh((inner + inner.conj().T) / 2), 0, None)
    return float(min(1.0, np.sum(np.sqrt(vals)) ** 2))


def trace_distance(a: np.ndarray, b: np.ndarray) -> float:
    """Half the trace norm of the difference of two states (vectors or density matrices)."""
    a = np.asarray(a, dtype=complex)
    b = np.asarray(b, dtype=complex)
    if a.ndim == 1 and b.ndim == 1:
        return float(math.sqrt(max(0.0, 1.0 - fidelity(a, b))))
    rho = a if a.ndim == 2 else np.outer(a, a.conj())
    sigma = b if b.ndim == 2 else np.outer(b, b.conj())
    return float(0.5 * np.sum(np.abs(np.linalg.eigvalsh(rho - sigma))))


def _psd_power(matrix: np.ndarray, power: float) -> np.ndarray:
    vals, vecs = np.linalg.eigh((matrix + matrix.conj().T) / 2)
    vals = np.clip(vals, 0, None)
    # 0**power is 0 for power > 0 and, by the usual convention, 1 on the support only at power 0.
    powered = np.where(vals > 0, np.power(np.where(vals > 0, vals, 1.0), power), 0.0)
    return (vecs * powered) @ vecs.conj().T


# ---------------------------------------------------------------------------------------------
# Pauli strings on state vectors. A Pauli string is a dict {qubit: "X"|"Y"|"Z"}.

def apply_pauli(state: np.ndarray, pauli: Dict[int, str]) -> np.ndarray:
    """P|state> for a Pauli string, by axis flips and sign changes (no matrices, no gathers).

    With Y = iXZ: Z and Y negate the half of the register where their qubit reads 1, X and Y
    then swap the two halves, and i^(number of Y) multiplies the whole. Every step only
    permutes or negates entries (and i times a complex swaps its parts), so it is exact.
    """
    state = np.asarray(state, dtype=complex)
    dim = state.shape[0]
    n = int(dim).bit_length() - 1
    if 2 ** n != dim:
        raise ValueError(f"state has length {dim}, not a power of two")
    out = state.reshape((2,) * n).copy() if n else state.copy()
    flip_axes = []
    y_count = 0
    for q, p in pauli.items():
        if not 0 <= q < n:
            raise ValueError(f"qubit {q} outside a {n}-qubit register")
        axis = n - 1 - q
        if p in ("Z", "Y"):
            index = [slice(None)] * n
            index[axis] = 1
            out[tuple(index)] *= -1
        if p in ("X", "Y"):
            flip_axes.append(axis)
        if p == "Y":
            y_count += 1
    if flip_axes:
        out = np.flip(out, axis=tuple(flip_axes))
    out = np.ascontiguousarray(out).reshape(dim)
    if y_count % 4:
        out = out * (1j ** y_count)
    return out


def pauli_expectation(state: np.ndarray, pauli: Dict[int, str]) -> float:
    return float(np.real(np.vdot(state, apply_pauli(state, pauli))))


def observable_expectation(state: np.ndarray, terms: Sequence[Tuple[float, Dict[int, str]]]) -> float:
    """<state| sum_k c_k P_k |state> for a Pauli sum given as (coefficient, Pauli string) pairs."""
    return float(sum(c * pauli_expectation(state, p) for c, p in terms))


def probabilities(state: np.ndarray, qubits: Optional[Sequence[int]] = None) -> np.ndarray:
    """Computational-basis outcome probabilities, marginalised onto `qubits` (qubit order kept,
    qubits[0] least significant), or over the whole register."""
    probs = np.abs(np.asarray(state)) ** 2
    if qubits is None:
        return probs
    n = int(round(math.log2(probs.size)))
    tensor = probs.reshape((2,) * n)
    keep_axes = [n - 1 - q for q in qubits]
    drop = tuple(ax for ax in range(n) if ax not in keep_axes)
    marg = tensor.sum(axis=drop) if drop else tensor
    remaining = [ax for ax in range(n) if ax in keep_axes]
    # Reorder so that qubits[0] ends up least significant (last axis).
    order = [remaining.index(n - 1 - q) for q in reversed(list(qubits))]
    return np.transpose(marg, order).reshape(-1)


# ---------------------------------------------------------------------------------------------
# Shot planning from the Quantum Chernoff Bound (paper 002, Eq. 7/8).

def shots_for_error(error_probability: float, sigma11: float) -> int:
    """N = max(ceil(ln Pe / ln sigma11), 1): shots for a test whose single shot misses a fault
    with probability sigma11 to miss it with probability at most Pe overall.

    sigma11 = 0 (orthogonal states) needs one shot: the QCB coefficient is 0 and the error
    exponent infinite (the review's correction of the paper's Case 1). sigma11 >= 1 has no
    finite budget and raises: callers must report such a fault as undetectable by that test.
    """
    if not 0 < error_probability < 1:
        raise ValueError(f"error probability must be in (0, 1), got {error_probability}")
    if sigma11 < 0 or sigma11 > 1:
        raise ValueError(f"per-shot miss probability must be in [0, 1], got {sigma11}")
    if sigma11 >= 1:
        raise ValueError("per-shot miss probability 1: no finite number of shots detects this fault")
    if sigma11 == 0:
        return 1
    return max(math.ceil(math.log(error_probability) / math.log(sigma11)), 1)


def inverse_test_miss_probability(fidelity_value: float) -> float:
    """A shot of the Inverse test reads all zeros (misses) with probability f."""
    return float(fidelity_value)


def swap_test_miss_probability(fidelity_value: float) -> float:
    """A shot of the Swap test leaves the ancilla at 0 (misses) with probability (1+f)/2."""
    return (1.0 + float(fidelity_value)) / 2.0


def chernoff_coefficient_classical(p: np.ndarray, q: np.ndarray) -> float:
    """min over s in [0,1] of sum_i p_i^s q_i^(1-s), with endpoint values taken as limits from
    inside (0^s = 0 for s > 0), which gives 0 for disjoint supports."""
    p = np.asarray(p, dtype=float)
    q = np.asarray(q, dtype=float)
    both = (p > 0) & (q > 0)
    if not np.any(both):
        return 0.0
    lp, lq = np.log(p[both]), np.log(q[both])

    def value(s: float) -> float:
        return float(np.sum(np.exp(s * lp + (1 - s) * lq)))

    return _minimise_convex(value, float(np.sum(q[p > 0])), float(np.sum(p[q > 0])))


def chernoff_coefficient(rho: np.ndarray, sigma: np.ndarray) -> float:
    """Quantum Chernoff coefficient min_s Tr(rho^s sigma^(1-s)) for density matrices (or pure
    state vectors), minimised over s in [0, 1] (the function is convex in s)."""
    rho = np.asarray(rho, dtype=complex)
    sigma = np.asarray(sigma, dtype=complex)
    if rho.ndim == 1:
        rho = np.outer(rho, rho.conj())
    if sigma.ndim == 1:
        sigma = np.outer(sigma, sigma.conj())
    ra, rv = np.linalg.eigh((rho + rho.conj().T) / 2)
    sa, sv = np.linalg.eigh((sigma + sigma.conj().T) / 2)
    ra = np.clip(ra, 0, None)
    sa = np.clip(sa, 0, None)
    overlap = np.abs(rv.conj().T @ sv) ** 2  # |<r_i|s_j>|^2
    pos_r, pos_s = ra > 1e-14, sa > 1e-14
    weights = overlap[np.ix_(pos_r, pos_s)]
    if weights.size == 0:
        return 0.0
    lr, ls = np.log(ra[pos_r]), np.log(sa[pos_s])

    def value(s: float) -> float:
        return float(np.sum(weights * np.exp(s * lr[:, None] + (1 - s) * ls[None, :])))

    at0 = float(np.sum(overlap[pos_r][:, :] * sa[None, :]))  # Tr(P_rho sigma)
    at1 = float(np.sum(overlap[:, pos_s] * ra[:, None]))  # Tr(rho P_sigma)
    return min(1.0, _minimise_convex(value, at0, at1))


def _minimise_convex(value, at0: float, at1: float) -> float:
    lo, hi = 0.0, 1.0
    golden = (math.sqrt(5) - 1) / 2
    a = hi - golden * (hi - lo)
    b = lo + golden * (hi - lo)
    fa, fb = value(a), value(b)
    for _ in range(80):
        if fa < fb:
            hi, b, fb = b, a, fa
            a = hi - golden * (hi - lo)
            fa = value(a)
        else:
            lo, a, fa = a, b, fb
            b = lo + golden * (hi - lo)
            fb = value(b)
    return min(fa, fb, at0, at1)


def measured_qubits(ops: Iterable[Op]) -> List[int]:
    """The qubits a circuit measures, in the order of their classical bits."""
    return [qubits[0] for name, _, qubits in ops if name == "measure"]


def outcome_law(ops: Sequence[Op], n: int) -> np.ndarray:
    """Born-rule law of a circuit's terminal measurements run from |0...0>: entry j is the
    probability of reading j over the measured qubits (first measured = least significant)."""
    measured = measured_qubits(ops)
    if not measured:
        raise ValueError("the circuit measures nothing")
    measured_at: Dict[int, int] = {}
    for i, (name, _, qubits) in enumerate(ops):
        if name == "measure":
            measured_at.setdefault(qubits[0], i)
        elif name != "barrier" and any(q in measured_at for q in qubits):
            raise ValueError("a gate acts after a measurement: only terminal measurements are supported")
    probs = probabilities(statevector(ops, n), measured)
    return probs / probs.sum()


def run_shots_until_failure(law: np.ndarray, budget: int, rng: np.random.Generator,
                            passing: int = 0) -> Tuple[bool, int, Optional[int]]:
    """Runs up to `budget` shots, each one outcome drawn from `law`, and stops at the first
    outcome other than `passing`: (detected, shots used, the failing outcome or None).

    Shots are drawn in blocks that double (1, 2, 4, ...) and only the shots up to the first
    failure count, which is the same law as drawing them one at a time."""
    if budget < 1:
        raise ValueError("budget must be at least one shot")
    law = np.clip(np.asarray(law, dtype=float), 0, None)
    law = law / law.sum()
    used, block = 0, 1
    while used < budget:
        size = min(block, budget - used)
        outcomes = rng.choice(law.size, size=size, p=law)
        failing = np.flatnonzero(outcomes != passing)
        if failing.size:
            return True, used + int(failing[0]) + 1, int(outcomes[failing[0]])
        used += size
        block = min(2 * block, 1 << 16)
    return False, budget, None


# ---------------------------------------------------------------------------------------------
# Goodness-of-fit tests against an expected outcome distribution.

def chi2_survival(statistic: float, dof: int) -> float:
    """P(X >= statistic) for a chi-square variable: the regularised upper gamma Q(dof/2, x/2)."""
    if dof <= 0:
        return 1.0 if statistic <= 0 else 0.0
    if statistic <= 0:
        return 1.0
    return _gamma_q(dof / 2.0, statistic / 2.0)


def _gamma_q(a: float, x: float) -> float:
    if x < a + 1:
        # Series for the lower function P, then Q = 1 - P.
        term = total = 1.0 / a
        k = a
        for _ in range(10000):
            k += 1
            term *= x / k
            total += term
            if abs(term) < abs(total) * 1e-16:
                break
        return max(0.0, 1.0 - total * math.exp(-x + a * math.log(x) - math.lgamma(a)))
    # Continued fraction for Q (modified Lentz).
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-16:
            break
    return min(1.0, math.exp(-x + a * math.log(x) - math.lgamma(a)) * h)


def _support(counts: Sequence[int], expected: Sequence[float]) -> Tuple[np.ndarray, np.ndarray, bool]:
    counts = np.asarray(counts, dtype=float)
    expected = np.asarray(expected, dtype=float)
    if counts.shape != expected.shape:
        raise ValueError("counts and expected probabilities must have the same length")
    impossible = bool(np.any(counts[expected <= 0] > 0))
    keep = expected > 0
    return counts[keep], expected[keep] / expected[keep].sum(), impossible


def chi_square_statistic(counts: Sequence[int], expected: Sequence[float]) -> float:
    obs, probs, impossible = _support(counts, expected)
    if impossible:
        return math.inf
    exp = probs * obs.sum()
    return float(np.sum((obs - exp) ** 2 / exp))


def g_statistic(counts: Sequence[int], expected: Sequence[float]) -> float:
    obs, probs, impossible = _support(counts, expected)
    if impossible:
        return math.inf
    exp = probs * obs.sum()
    nz = obs > 0
    return float(2 * np.sum(obs[nz] * np.log(obs[nz] / exp[nz])))


def chi_square_test(counts: Sequence[int], expected: Sequence[float]) -> float:
    """p-value of Pearson's chi-square goodness-of-fit test (asymptotic chi-square law)."""
    stat = chi_square_statistic(counts, expected)
    if math.isinf(stat):
        return 0.0
    dof = int(np.sum(np.asarray(expected) > 0)) - 1
    return chi2_survival(stat, dof)


def g_test(counts: Sequence[int], expected: Sequence[float]) -> float:
    """p-value of the likelihood-ratio G test (asymptotic chi-square law)."""
    stat = g_statistic(counts, expected)
    if math.isinf(stat):
        return 0.0
    dof = int(np.sum(np.asarray(expected) > 0)) - 1
    return chi2_survival(stat, dof)


def _log_multinomial_pmf(counts: np.ndarray, probs: np.ndarray) -> float:
    n = counts.sum()
    total = math.lgamma(n + 1) - sum(math.lgamma(c + 1) for c in counts)
    for c, p in zip(counts, probs):
        if c:
            total += c * math.log(p)
    return total


def multinomial_exact_test(counts: Sequence[int], expected: Sequence[float], max_outcomes: int = 2_000_000) -> float:
    """Exact multinomial test: the probability, under the expected law, of every outcome table
    no more likely than the observed one. Enumerates all tables, so it refuses (ValueError)
    past `max_outcomes` of them; use the Monte-Carlo variant then."""
    obs, probs, impossible = _support(counts, expected)
    if impossible:
        return 0.0
    n, k = int(obs.sum()), len(obs)
    if math.comb(n + k - 1, k - 1) > max_outcomes:
        raise ValueError(f"{math.comb(n + k - 1, k - 1)} outcome tables exceed max_outcomes={max_outcomes}")
    observed = _log_multinomial_pmf(obs.astype(int), probs)
    slack = 1e-9 * max(1.0, abs(observed))
    total = 0.0
    for table in _compositions(n, k):
        logp = _log_multinomial_pmf(np.asarray(table), probs)
        if logp <= observed + slack:
            total += math.exp(logp)
    return min(1.0, total)


def _compositions(n: int, k: int):
    for bars in itertools.combinations(range(n + k - 1), k - 1):
        prev = -1
        parts = []
        for b in bars:
            parts.append(b - prev - 1)
            prev = b
        parts.append(n + k - 2 - prev)
        yield parts


def monte_carlo_test(counts: Sequence[int], expected: Sequence[float], statistic: str, rng: np.random.Generator,
                     repetitions: int = 1000) -> float:
    """Monte-Carlo p-value (1 + #{T_sim >= T_obs}) / (M + 1) for statistic chi2, g or multinomial
    (the latter ranks tables by how unlikely they are under the expected law)."""
    obs, probs, impossible = _support(counts, expected)
    if impossible:
        return 1.0 / (repetitions + 1)
    n = int(obs.sum())
    sims = rng.multinomial(n, probs, size=repetitions).astype(float)
    exp = probs * n
    if statistic == "chi2":
        t_obs = float(np.sum((obs - exp) ** 2 / exp))
        t_sim = np.sum((sims - exp) ** 2 / exp, axis=1)
    elif statistic == "g":
        with np.errstate(divide="ignore", invalid="ignore"):
            t_obs = float(2 * np.sum(np.where(obs > 0, obs * np.log(obs / exp), 0.0)))
            t_sim = 2 * np.sum(np.where(sims > 0, sims * np.log(np.where(sims > 0, sims, 1) / exp), 0.0), axis=1)
    elif statistic == "multinomial":
        logp = np.log(probs)
        lg = np.vectorize(math.lgamma)
        t_obs = -float(np.sum(obs * logp) - np.sum(lg(obs + 1)))
        t_sim = -(sims @ logp - np.sum(lg(sims + 1), axis=1))
    else:
        raise ValueError(f"unknown statistic {statistic!r} (chi2, g, multinomial)")
    tol = 1e-9 * max(1.0, abs(t_obs))
    return float((1 + np.sum(t_sim >= t_obs - tol)) / (repetitions + 1))
