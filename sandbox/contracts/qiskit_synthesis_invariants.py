"""Two-qubit and one-qubit decompositions, Qiskit (qiskit.synthesis): the numbers a decomposition
reports (Weyl coordinates, local factors, global phase, basis-gate counts, Euler angles) mean what
the documentation says they mean, judged by numpy computations written here (magic-basis Makhlin
invariants, the Shende-Bullock-Markov CNOT-count criterion, closed-form rotation matrices), never
by the library's own code.

qiskit_transformation's synthesis-implements-input already checks that the circuits of
TwoQubitBasisDecomposer / OneQubitEulerDecomposer (default options) implement random, local,
SWAP-like, diagonal and antidiagonal inputs. This family covers what that law does not:

  weyl-rebuilds-input      TwoQubitWeylDecomposition(U): pi/4 >= a >= b >= |c| (the documented
                           Weyl chamber), K1l, K1r, K2l, K2r in SU(2), and
                           U = e^{i global_phase} (K1l (x) K1r) exp(i(a XX + b YY + c ZZ)) (K2l (x) K2r);
  weyl-coordinates-are-local-invariants
                           the canonical gate exp(i(a XX + b YY + c ZZ)) has U's Makhlin invariants
                           (G1, G2; complete local invariants, computed in the magic basis), the
                           coordinates of (A (x) B) U (C (x) D) are U's for random single-qubit A..D,
                           and inputs built from known coordinates get those coordinates back;
  basis-count-is-minimal   TwoQubitBasisDecomposer(G, basis_fidelity=1.0) for a basis gate G locally
                           equivalent to CX: num_basis_gates(U) is the minimal CNOT count (0 / 1 / 2 / 3 by
                           the Shende-Bullock-Markov criterion on gamma(U) = U (Y(x)Y) U^T (Y(x)Y)), and
                           the circuit it returns uses G exactly that many times and implements U,
                           global phase included;
  euler-angles-rebuild-input
                           OneQubitEulerDecomposer(basis).angles_and_phase(U) = (theta, phi, lam, gamma)
                           rebuild U through the basis's documented circuit (the table in the class
                           docstring), and the circuits for simplify=True and simplify=False both
                           implement U with its phase, the simplified one with no more gates and every circuit
                           only of the basis's gates;
  xx-decomposer-implements-input
                           XXDecomposer({pi/2: 1.0}, approximate=False) and
                           TwoQubitControlledUDecomposer(G) for each RXX-equivalent G its docs list
                           return a circuit implementing U, global phase included.

Inputs: Haar-random unitaries (numpy QR) and structured ones: local, CX-equivalent, SWAP, iSWAP,
B-gate, two-CNOT class (c = 0), generic chamber points, diagonal, near-identity (coordinates of
order 1e-3: far enough from the identity that the documented snapping to a nearby high-symmetry
gate, at the default fidelity 1 - 1e-9, does not apply), one-qubit Paulis, Cliffords and phases.
Every check runs a program that is also the reproducer: the input built with numpy from a seed,
the library call, the numpy oracle and the assertions.
"""

import functools
import inspect
import re

from contract_runtime import Contract

# Decompositions are exact up to floating-point round-off of a few 4x4 products (~1e-15); the
# default Weyl fidelity 1 - 1e-9 may move an input within ~3e-5 of a high-symmetry locus onto it,
# and generated structured inputs are either exactly on such a locus or >= 0.05 away from it
# (near-identity inputs: coordinates >= 1e-3, infidelity to the identity >= ~1e-6), so 1e-7
# separates round-off from a wrong answer.
ATOL = 1e-7

TWO_QUBIT_KINDS = ("haar", "local", "cx", "swap", "iswap", "bgate", "two_cx", "generic", "diagonal",
                   "near_identity")
ONE_QUBIT_KINDS = ("haar", "identity", "pauli", "clifford", "phase", "near_identity", "diagonal",
                   "antidiagonal")
# Basis gates whose CNOT count classes are CX's: each is CX up to single-qubit gates.
CX_EQUIVALENT_GATES = ("CXGate", "CZGate", "CYGate", "ECRGate")

# ---------------------------------------------------------------------------------------------
# Source shared by every program: numpy helpers building inputs from a seed.

HELPERS = '''
import math
import numpy as np

X = np.array([[0, 1], [1, 0]], dtype=complex)
Y = np.array([[0, -1j], [1j, 0]], dtype=complex)
Z = np.diag([1, -1]).astype(complex)


def haar(dim, rng):
    """A Haar-random unitary (QR of a complex Gaussian matrix, phases fixed)."""
    m = rng.normal(size=(dim, dim)) + 1j * rng.normal(size=(dim, dim))
    q, r = np.linalg.qr(m)
    return q * (np.diag(r) / np.abs(np.diag(r)))


def canonical(a, b, c):
    """exp(i(a XX + b YY + c ZZ)), computed from the eigen-decomposition of the Hermitian sum."""
    h = a * np.kron(X, X) + b * np.kron(Y, Y) + c * np.kron(Z, Z)
    w, v = np.linalg.eigh(h)
    return (v * np.exp(1j * w)) @ v.conj().T
'''

TWO_QUBIT_INPUT = '''
def two_qubit_input(kind, seed):
    """(U, coordinates it was built from or None): local (x) canonical(a, b, c) (x) local."""
    rng = np.random.default_rng(seed)
    if kind == "haar":
        return haar(4, rng), None
    if kind == "diagonal":
        return np.diag(np.exp(1j * rng.uniform(-np.pi, np.pi, 4))), None
    if kind == "local":
        coords = (0.0, 0.0, 0.0)
    elif kind == "cx":
        coords = (np.pi / 4, 0.0, 0.0)
    elif kind == "swap":
        coords = (np.pi / 4, np.pi / 4, np.pi / 4)
    elif kind == "iswap":
        coords = (np.pi / 4, np.pi / 4, 0.0)
    elif kind == "bgate":
        coords = (np.pi / 4, np.pi / 8, 0.0)
    elif kind == "near_identity":
        a = rng.uniform(2e-3, 1e-2)
        b = rng.uniform(1e-3, a - 5e-4)
        coords = (a, b, rng.choice([-1, 1]) * rng.uniform(5e-4, b - 2e-4))
    else:
        # strictly inside the chamber, >= 0.05 from every face (no snapping to a face)
        a = rng.uniform(0.3, 0.7)
        b = rng.uniform(0.15, a - 0.05)
        c = 0.0 if kind == "two_cx" else rng.choice([-1, 1]) * rng.uniform(0.05, b - 0.05)
        coords = (a, b, c)
    left = np.kron(haar(2, rng), haar(2, rng))
    right = np.kron(haar(2, rng), haar(2, rng))
    return np.exp(1j * rng.uniform(-np.pi, np.pi)) * left @ canonical(*coords) @ right, coords
'''

MAKHLIN = '''
MAGIC = np.array([[1, 0, 0, 1j], [0, 1j, 1, 0], [0, 1j, -1, 0], [1, 0, 0, -1j]]) / np.sqrt(2)


def makhlin(u):
    """Makhlin's local invariants (G1, G2) of a two-qubit unitary (Makhlin, quant-ph/0002045)."""
    ub = MAGIC.conj().T @ u @ MAGIC
    m = ub.T @ ub
    det = np.linalg.det(u)
    tr = np.trace(m)
    return tr ** 2 / (16 * det), (tr ** 2 - np.trace(m @ m)) / (4 * det)
'''

SBM = '''
def cnot_count(u):
    """The minimal number of CNOTs for u (Shende, Bullock, Markov, PRA 69, 062321, Prop. III.1-3),
    with gamma(u) = u (Y(x)Y) u^T (Y(x)Y) for u scaled into SU(4)."""
    u = u / np.linalg.det(u) ** 0.25
    yy = np.kron(Y, Y)
    gamma = u @ yy @ u.T @ yy
    tol = 1e-9
    if np.allclose(gamma, np.eye(4), atol=tol) or np.allclose(gamma, -np.eye(4), atol=tol):
        return 0
    if abs(np.trace(gamma)) < tol and np.allclose(gamma @ gamma, -np.eye(4), atol=tol):
        return 1
    if abs(np.trace(gamma).imag) < tol:
        return 2
    return 3
'''


def _run(program):
    namespace = {"__name__": "__main__"}
    exec(compile(program, "<law program>", "exec"), namespace)  # noqa: S102 - the program is ours
    return namespace


def _weyl_subjects():
    from qiskit import synthesis

    return ["TwoQubitWeylDecomposition"] if hasattr(synthesis, "TwoQubitWeylDecomposition") else []


def _two_qubit_strategy(subject):
    from hypothesis import strategies as st

    return st.tuples(st.sampled_from(TWO_QUBIT_KINDS), st.integers(0, 10 ** 6))


# ---------------------------------------------------------------------------------------------
# Law 1: the Weyl decomposition rebuilds its input.

def _weyl_rebuild_program(subject, example):
    kind, seed = example
    return ("from qiskit.synthesis import TwoQubitWeylDecomposition\n" + HELPERS + TWO_QUBIT_INPUT +
            f"\nu, _ = two_qubit_input({kind!r}, {seed})\n"
            "d = TwoQubitWeylDecomposition(u)\n"
            "a, b, c = d.a, d.b, d.c\n"
            "# documented Weyl chamber: pi/4 >= a >= b >= |c|\n"
            f"tol = {ATOL}\n"
            "assert np.pi / 4 + tol >= a >= b - tol and b >= abs(c) - tol, "
            "f'Weyl coordinates outside the documented chamber pi/4 >= a >= b >= |c|: {(a, b, c)}'\n"
            "for name in ('K1l', 'K1r', 'K2l', 'K2r'):\n"
            "    k = np.asarray(getattr(d, name), dtype=complex)\n"
            "    assert np.allclose(k @ k.conj().T, np.eye(2), atol=tol) and abs(np.linalg.det(k) - 1) < tol, "
            "f'{name} is not in SU(2) as documented: det {np.linalg.det(k)}'\n"
            "# U = e^{i phase} (K1l (x) K1r) exp(i(a XX + b YY + c ZZ)) (K2l (x) K2r)\n"
            "rebuilt = np.exp(1j * d.global_phase) * np.kron(d.K1l, d.K1r) @ canonical(a, b, c) @ np.kron(d.K2l, d.K2r)\n"
            "gap = np.abs(rebuilt - u).max()\n"
            "assert gap < tol, f'the documented product of the Weyl decomposition is not the input: max deviation {gap}'\n")


def _check_weyl_rebuild(subject, example):
    _run(_weyl_rebuild_program(subject, example))


# ---------------------------------------------------------------------------------------------
# Law 2: Weyl coordinates are the input's local invariants.

def _weyl_invariants_program(subject, example):
    kind, seed = example
    return ("from qiskit.synthesis import TwoQubitWeylDecomposition\n" + HELPERS + TWO_QUBIT_INPUT + MAKHLIN +
            f"\nu, built_from = two_qubit_input({kind!r}, {seed})\n"
            f"tol = {ATOL}\n"
            "d = TwoQubitWeylDecomposition(u)\n"
            "coords = np.array([d.a, d.b, d.c])\n"
            "# Makhlin invariants are complete local invariants: U and its canonical gate share them\n"
            "g_u, g_can = np.array(makhlin(u)), np.array(makhlin(canonical(*coords)))\n"
            "assert np.abs(g_u - g_can).max() < 1e-6, "
            "f'Weyl coordinates {tuple(coords)} give Makhlin invariants {g_can}, the input has {g_u}'\n"
            "\n"
            "def same_point(p, q):\n"
            "    # on the face a = pi/4 the points (pi/4, b, c) and (pi/4, b, -c) are locally equivalent\n"
            "    p, q = np.asarray(p), np.asarray(q)\n"
            "    if abs(p[0] - np.pi / 4) < tol and abs(q[0] - np.pi / 4) < tol:\n"
            "        p, q = p * [1, 1, np.sign(p[2]) or 1], q * [1, 1, np.sign(q[2]) or 1]\n"
            "    return np.abs(p - q).max() < tol\n"
            "\n"
            "if built_from is not None:\n"
            "    assert same_point(coords, built_from), "
            "f'input built from Weyl coordinates {tuple(built_from)} decomposed to {tuple(coords)}'\n"
            f"rng = np.random.default_rng({seed + 1})\n"
            "moved = np.kron(haar(2, rng), haar(2, rng)) @ u @ np.kron(haar(2, rng), haar(2, rng))\n"
            "d2 = TwoQubitWeylDecomposition(moved)\n"
            "assert same_point(coords, [d2.a, d2.b, d2.c]), "
            "f'local unitaries changed the Weyl coordinates: {tuple(coords)} -> {(d2.a, d2.b, d2.c)}'\n")


def _check_weyl_invariants(subject, example):
    _run(_weyl_invariants_program(subject, example))


# ---------------------------------------------------------------------------------------------
# Law 3: TwoQubitBasisDecomposer with an exact CX-like basis gate uses the minimal count.

def _basis_subjects():
    from qiskit import synthesis
    from qiskit.circuit import library

    if not hasattr(synthesis, "TwoQubitBasisDecomposer"):
        return []
    return [name for name in CX_EQUIVALENT_GATES if hasattr(library, name)]


def _basis_count_program(subject, example):
    kind, seed = example
    return ("from qiskit.circuit import library\n"
            "from qiskit.quantum_info import Operator\n"
            "from qiskit.synthesis import TwoQubitBasisDecomposer\n" + HELPERS + TWO_QUBIT_INPUT + SBM +
            f"\nu, _ = two_qubit_input({kind!r}, {seed})\n"
            f"gate = library.{subject}()\n"
            "decomposer = TwoQubitBasisDecomposer(gate, basis_fidelity=1.0)\n"
            "expected = cnot_count(u)\n"
            "count = decomposer.num_basis_gates(u)\n"
            "assert count == expected, f'num_basis_gates gives {count}, the minimal number of CNOT-class gates is {expected}'\n"
            "circuit = decomposer(u)\n"
            "used = sum(1 for inst in circuit.data if inst.operation.name == gate.name)\n"
            "assert used == expected, f'the circuit uses {gate.name} {used} times, the minimal count is {expected}'\n"
            "gap = np.abs(Operator(circuit).data - u).max()\n"
            f"assert gap < {ATOL}, f'the circuit does not implement the input (global phase included): max deviation {{gap}}'\n")


def _check_basis_count(subject, example):
    _run(_basis_count_program(subject, example))


# ---------------------------------------------------------------------------------------------
# Law 4: Euler angles and phase rebuild the input through the documented circuit.

# The class docstring's table: basis -> the decomposition circuit, as a numpy product of
# (theta, phi, lam). Bases missing from this map are not subjects (their form is not known here).
EULER_FORMS = {
    "ZYZ": "rz(phi) @ ry(theta) @ rz(lam)",
    "ZXZ": "rz(phi) @ rx(theta) @ rz(lam)",
    "XYX": "rx(phi) @ ry(theta) @ rx(lam)",
    "XZX": "rx(phi) @ rz(theta) @ rx(lam)",
    "U3": "u3(theta, phi, lam)",
    "U321": "u3(theta, phi, lam)",
    "U": "u3(theta, phi, lam)",
    "PSX": "u1(phi + np.pi) @ rx(np.pi / 2) @ u1(theta + np.pi) @ rx(np.pi / 2) @ u1(lam)",
    "U1X": "u1(phi + np.pi) @ rx(np.pi / 2) @ u1(theta + np.pi) @ rx(np.pi / 2) @ u1(lam)",
    "ZSX": "rz(phi + np.pi) @ sx @ rz(theta + np.pi) @ sx @ rz(lam)",
    "ZSXX": "rz(phi + np.pi) @ sx @ rz(theta + np.pi) @ sx @ rz(lam)",
    "RR": "r(-np.pi, (phi - lam + np.pi) / 2) @ r(theta + np.pi, np.pi / 2 - lam)",
}

# The gates of each basis's decomposition circuit (the table; U321 is named for U1 / U2 / U3).
EULER_GATES = {
    "ZYZ": {"rz", "ry"}, "ZXZ": {"rz", "rx"}, "XYX": {"rx", "ry"}, "XZX": {"rx", "rz"}, "U3": {"u3"},
    "U321": {"u1", "u2", "u3"}, "U": {"u"}, "PSX": {"p", "sx"}, "U1X": {"u1", "rx"}, "ZSX": {"rz", "sx"},
    "ZSXX": {"rz", "sx", "x"}, "RR": {"r"},
}

ROTATIONS = '''
def rx(t):
    return np.cos(t / 2) * np.eye(2) - 1j * np.sin(t / 2) * X


def ry(t):
    return np.cos(t / 2) * np.eye(2) - 1j * np.sin(t / 2) * Y


def rz(t):
    return np.cos(t / 2) * np.eye(2) - 1j * np.sin(t / 2) * Z


def u1(t):
    return np.diag([1, np.exp(1j * t)])


def u3(theta, phi, lam):
    return np.array([[np.cos(theta / 2), -np.exp(1j * lam) * np.sin(theta / 2)],
                     [np.exp(1j * phi) * np.sin(theta / 2), np.exp(1j * (phi + lam)) * np.cos(theta / 2)]])


def r(theta, phi):
    return np.cos(theta / 2) * np.eye(2) - 1j * np.sin(theta / 2) * (np.cos(phi) * X + np.sin(phi) * Y)


sx = np.array([[1 + 1j, 1 - 1j], [1 - 1j, 1 + 1j]]) / 2
'''

ONE_QUBIT_INPUT = '''
def one_qubit_input(kind, seed):
    rng = np.random.default_rng(seed)
    phase = np.exp(1j * rng.uniform(-np.pi, np.pi))
    if kind == "haar":
        return haar(2, rng)
    if kind == "identity":
        return phase * np.eye(2)
    if kind == "pauli":
        return phase * [X, Y, Z][rng.integers(3)]
    if kind == "clifford":
        h = np.array([[1, 1], [1, -1]]) / np.sqrt(2)
        s = np.diag([1, 1j])
        u = np.eye(2)
        for _ in range(rng.integers(1, 6)):
            u = (h if rng.integers(2) else s) @ u
        return phase * u
    if kind == "phase":
        return np.diag([1, np.exp(1j * rng.uniform(-np.pi, np.pi))])
    if kind == "near_identity":
        h = rng.normal(size=(2, 2)) + 1j * rng.normal(size=(2, 2))
        w, v = np.linalg.eigh(h + h.conj().T)
        return phase * (v * np.exp(1e-3j * w)) @ v.conj().T
    d = np.diag(np.exp(1j * rng.uniform(-np.pi, np.pi, 2)))
    return d if kind == "diagonal" else d[::-1]
'''


@functools.lru_cache(maxsize=None)  # noqa: UP033 (older targets run Python 3.8)
def _euler_subjects():
    from qiskit.synthesis import OneQubitEulerDecomposer

    documented = re.findall(r"\*\s+-\s+'([A-Z0-9]+)'", OneQubitEulerDecomposer.__doc__ or "")
    return [basis for basis in dict.fromkeys(documented) if basis in EULER_FORMS]


def _one_qubit_strategy(subject):
    from hypothesis import strategies as st

    return st.tuples(st.sampled_from(ONE_QUBIT_KINDS), st.integers(0, 10 ** 6))


def _euler_program(subject, example):
    kind, seed = example
    return ("from qiskit.quantum_info import Operator\n"
            "from qiskit.synthesis import OneQubitEulerDecomposer\n" + HELPERS + ROTATIONS + ONE_QUBIT_INPUT +
            f"\nu = one_qubit_input({kind!r}, {seed})\n"
            f"tol = {ATOL}\n"
            f"decomposer = OneQubitEulerDecomposer({subject!r})\n"
            "theta, phi, lam, gamma = decomposer.angles_and_phase(u)\n"
            f"# the class docstring's decomposition circuit for basis {subject!r}\n"
            f"rebuilt = np.exp(1j * gamma) * {EULER_FORMS[subject]}\n"
            "gap = np.abs(rebuilt - u).max()\n"
            "overlap = np.vdot(rebuilt.ravel(), u.ravel())\n"
            "gap_up_to_phase = np.abs(rebuilt * overlap / abs(overlap) - u).max()\n"
            "assert gap < tol, f'angles_and_phase {(theta, phi, lam, gamma)} do not rebuild the input through the "
            "documented circuit: max deviation {gap} ({gap_up_to_phase} up to a global phase)'\n"
            f"allowed = {sorted(EULER_GATES[subject])}\n"
            "sizes = {}\n"
            "for simplify in (False, True):\n"
            "    circuit = decomposer(u, simplify=simplify)\n"
            "    sizes[simplify] = len(circuit.data)\n"
            "    names = sorted({inst.operation.name for inst in circuit.data})\n"
            "    assert set(names) <= set(allowed), f'simplify={simplify}: gates {names} outside the basis gates {allowed}'\n"
            "    gap = np.abs(Operator(circuit).data - u).max()\n"
            "    assert gap < tol, f'the circuit for simplify={simplify} does not implement the input: max deviation {gap}'\n"
            "assert sizes[True] <= sizes[False], f'simplify=True gave more gates than simplify=False: {sizes}'\n")


def _check_euler(subject, example):
    _run(_euler_program(subject, example))


# ---------------------------------------------------------------------------------------------
# Law 5: the XX-type decomposers implement their input on structured two-qubit unitaries.

@functools.lru_cache(maxsize=None)  # noqa: UP033 (older targets run Python 3.8)
def _xx_subjects():
    from qiskit import synthesis
    from qiskit.circuit import library

    found = []
    if inspect.isclass(getattr(synthesis, "XXDecomposer", None)):
        found.append("XXDecomposer")
    controlled_u = getattr(synthesis, "TwoQubitControlledUDecomposer", None)
    if inspect.isclass(controlled_u):
        # the gates its __init__ documents as valid ("Valid options are [:class:`.RZZGate`, ...]")
        doc = (controlled_u.__init__.__doc__ or "").split("euler_basis:")[0]
        found += [f"TwoQubitControlledUDecomposer.{name}" for name in dict.fromkeys(re.findall(r":class:`\.(\w+)`", doc))
                  if hasattr(library, name)]
    return found


def _xx_program(subject, example):
    kind, seed = example
    if subject == "XXDecomposer":
        setup = ("from qiskit.synthesis import XXDecomposer\n"
                 "# only the CX-strength interaction pi/2, perfect: an exact synthesis\n"
                 "circuit = XXDecomposer({np.pi / 2: 1.0})(u, approximate=False)\n")
    else:
        gate = subject.split(".", 1)[1]
        setup = ("from qiskit.circuit import library\n"
                 "from qiskit.synthesis import TwoQubitControlledUDecomposer\n"
                 f"circuit = TwoQubitControlledUDecomposer(library.{gate})(u)\n")
    return ("from qiskit.quantum_info import Operator\n" + HELPERS + TWO_QUBIT_INPUT +
            f"\nu, _ = two_qubit_input({kind!r}, {seed})\n" + setup +
            "gap = np.abs(Operator(circuit).data - u).max()\n"
            f"assert gap < {ATOL}, f'the circuit does not implement the input (global phase included): max deviation {{gap}}'\n")


def _check_xx(subject, example):
    _run(_xx_program(subject, example))


# ---------------------------------------------------------------------------------------------

FAMILY = "transformation, synthesis, compilation"
WEYL_SOURCE = ("documentation: qiskit.synthesis.TwoQubitWeylDecomposition (U = (K1l (x) K1r) e^{i(aXX+bYY+cZZ)} "
               "(K2l (x) K2r), K in SU(2), pi/4 >= a >= b >= |c|) and the KAK / Makhlin theory of two-qubit gates")

CONTRACTS = [
    Contract("qiskit.synthesis.weyl-rebuilds-input", FAMILY,
             "TwoQubitWeylDecomposition(U) has a, b, c in the documented Weyl chamber pi/4 >= a >= b >= |c|, "
             "K1l, K1r, K2l, K2r in SU(2), and e^{i global_phase} (K1l (x) K1r) exp(i(a XX + b YY + c ZZ)) "
             "(K2l (x) K2r) = U, for Haar-random and structured two-qubit unitaries",
             WEYL_SOURCE, _weyl_subjects, _two_qubit_strategy, _check_weyl_rebuild,
             _weyl_rebuild_program, lambda subject: "qiskit.synthesis.TwoQubitWeylDecomposition",
             validity="documented",
             describe=lambda subject, example: f"{example[0]} two-qubit unitary from seed {example[1]}"),
    Contract("qiskit.synthesis.weyl-coordinates-are-local-invariants", FAMILY,
             "the Weyl coordinates of U are its local invariants: exp(i(a XX + b YY + c ZZ)) has U's Makhlin "
             "invariants, (A (x) B) U (C (x) D) has U's coordinates, and a gate built from chamber coordinates "
             "gets them back",
             WEYL_SOURCE, _weyl_subjects, _two_qubit_strategy, _check_weyl_invariants,
             _weyl_invariants_program, lambda subject: "qiskit.synthesis.TwoQubitWeylDecomposition",
             validity="documented",
             describe=lambda subject, example: f"{example[0]} two-qubit unitary from seed {example[1]}"),
    Contract("qiskit.synthesis.basis-count-is-minimal", FAMILY,
             "TwoQubitBasisDecomposer(G, basis_fidelity=1.0) for G locally equivalent to CX: num_basis_gates(U) "
             "is the minimal CNOT count of U (Shende-Bullock-Markov), and the returned circuit uses G that many "
             "times and implements U, global phase included",
             "documentation: qiskit.synthesis.TwoQubitBasisDecomposer (num_basis_gates: 'the number of basis "
             "gates needed'; a perfect basis gate at basis_fidelity=1.0) and Shende, Bullock, Markov, "
             "PRA 69, 062321 (2004)",
             _basis_subjects, _two_qubit_strategy, _check_basis_count, _basis_count_program,
             lambda subject: "qiskit.synthesis.TwoQubitBasisDecomposer",
             validity="documented",
             describe=lambda subject, example: f"{example[0]} two-qubit unitary from seed {example[1]}, basis {subject}"),
    Contract("qiskit.synthesis.euler-angles-rebuild-input", FAMILY,
             "OneQubitEulerDecomposer(basis).angles_and_phase(U) rebuilds U through the basis's documented "
             "decomposition circuit, and the circuits for simplify=True / False implement U with its phase using "
             "only the basis's gates, the simplified one with no more gates",
             "documentation: qiskit.synthesis.OneQubitEulerDecomposer (table of bases and decomposition circuits; "
             "simplify 'reduce gate count')",
             _euler_subjects, _one_qubit_strategy, _check_euler, _euler_program,
             lambda subject: "qiskit.synthesis.OneQubitEulerDecomposer",
             validity="documented",
             describe=lambda subject, example: f"{example[0]} one-qubit unitary from seed {example[1]}, basis {subject}"),
    Contract("qiskit.synthesis.xx-decomposer-implements-input", FAMILY,
             "XXDecomposer({pi/2: 1.0})(U, approximate=False) and TwoQubitControlledUDecomposer(G)(U), for every "
             "RXX-equivalent gate G its docs list, return a circuit implementing U, global phase included, for "
             "Haar-random and structured (local, CX, SWAP, iSWAP, B-gate, diagonal, near-identity) unitaries",
             "documentation: qiskit.synthesis.XXDecomposer (exact synthesis when every basis fidelity is 1.0 and "
             "approximate=False) and TwoQubitControlledUDecomposer ('the Weyl decomposition in circuit form')",
             _xx_subjects, _two_qubit_strategy, _check_xx, _xx_program,
             lambda subject: "qiskit.synthesis." + subject.split(".")[0],
             validity="documented",
             describe=lambda subject, example: f"{example[0]} two-qubit unitary from seed {example[1]}"),
]
