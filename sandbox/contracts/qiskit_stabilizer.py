"""Stabilizer formalism, Qiskit (qiskit.quantum_info): Clifford, StabilizerState, PauliList and
Pauli methods agree with the dense matrices and statevectors they stand for, computed here with
numpy from the gates' own matrices (oracle_core), never by the library.

Conventions, from the documentation: qubit 0 is the least significant (the rightmost character of a
label); `a.compose(b)` applies a then b (matrix B.A), `front=True` and `dot` apply b then a (A.B);
`qargs[k]` is the qubit the k-th qubit of `other` acts on; `a.tensor(b)` is A (x) B (b on the low
qubits), `a.expand(b)` is B (x) A. A Clifford carries no global phase, so it is compared through its
tableau: stabilizer i is U Z_i U^dagger and destabilizer i is U X_i U^dagger, signs included
(`to_labels(mode='S' / 'D')`). A stabilizer state is compared through its stabilizer generators
(`state.clifford.to_labels(mode='S')`): n independent generators that each fix the expected vector
(g psi = psi, checked with numpy) pin the state down up to global phase.

Laws (not duplicating qiskit_data's clifford-forms-agree / pauli-evolve-is-conjugation /
state-probabilities-agree, nor qiskit_semantics' commutation and grouping predicates):
  clifford     compose (qargs, front, Clifford or QuantumCircuit, `&`), dot (qargs, `@`), tensor and
               expand of unequal sizes, transpose = U^T, conjugate = U^*, from_label (I X Y Z H S per
               qubit), from_circuit (nested instructions, barriers, global phase, an Instruction),
               from_matrix (any global phase);
  state        probabilities / probabilities_dict (qargs, decimals), probabilities_dict_from_bitstring,
               expectation_value of phased Paulis and SparsePauliOp (qargs), measure and reset (outcome
               possible, post-measurement state the collapsed one), sample_counts / sample_memory
               (only possible outcomes, shots conserved), evolve (Clifford, circuit, gate; qargs),
               conjugate, tensor, expand, purity, from_stabilizer_list;
  pauli        PauliList / Pauli compose, dot (qargs, front, one or as many rows), tensor, expand,
               adjoint, conjugate, transpose, inverse, power elementwise; PauliList unique (first
               occurrences in order, indices, counts), sort / argsort (a permutation, keys in
               documented order), insert / delete (rows and qubits), equiv, to_matrix.

Inputs: random Clifford circuits on 1-4 qubits of h, s, sdg, sx, sxdg, x, y, z, id, cx, cz, cy, swap,
iswap, dcx, ecr; Pauli labels with phases ('', '-', 'i', '-i'). Each check runs a program that is also
the reproducer: circuits as source, the numpy-computed expected values as literals, the library call
and the assertions.
"""

import functools
import itertools

import numpy as np
import oracle_core
from contract_runtime import Contract

GATES = {"h": 1, "s": 1, "sdg": 1, "sx": 1, "sxdg": 1, "x": 1, "y": 1, "z": 1, "id": 1,
         "cx": 2, "cz": 2, "cy": 2, "swap": 2, "iswap": 2, "dcx": 2, "ecr": 2}
GATE_CLASSES = {"h": "HGate", "s": "SGate", "sdg": "SdgGate", "sx": "SXGate", "sxdg": "SXdgGate", "x": "XGate",
                "y": "YGate", "z": "ZGate", "id": "IGate", "cx": "CXGate", "cz": "CZGate", "cy": "CYGate",
                "swap": "SwapGate", "iswap": "iSwapGate", "dcx": "DCXGate", "ecr": "ECRGate"}
PHASES = {"": 1, "-": -1, "i": 1j, "-i": -1j}
MAX_QUBITS = 4
# Stabilizer amplitudes and Pauli entries are 0, +-1, +-i over powers of sqrt(2): float64 rounding
# of products of at most a few dozen 2x2/4x4 matrices stays below 1e-12; 1e-9 leaves a wide margin
# and is far below the smallest nonzero value a wrong answer can differ by (1/16 for 4 qubits).
ATOL = 1e-9


def _st():
    from hypothesis import strategies as st

    return st


def _run_program(program):
    """Runs a law program; its AssertionErrors are the law's violations."""
    exec(compile(program, "<law>", "exec"), {"__name__": "__main__"})  # noqa: S102 - the program is ours


def _q(call):
    """A call's text for a message in single quotes (Python < 3.12 f-strings cannot nest them)."""
    return call.replace("'", '"')


def _check(builder):
    def check(subject, example):
        _run_program(builder(subject, example))

    return check


# -- circuits ---------------------------------------------------------------------------------------------
def _circuit(n, max_size=8):
    """(n, [(gate, qubits)]) of Clifford gates on n qubits."""
    st = _st()
    gates = sorted(g for g, k in GATES.items() if k <= n)
    return st.lists(st.tuples(st.sampled_from(gates), st.permutations(range(n))), max_size=max_size).map(
        lambda ops: (n, [(g, tuple(int(q) for q in qs[:GATES[g]])) for g, qs in ops]))


def _source(circuit, name="qc"):
    n, ops = circuit
    lines = [f"{name} = QuantumCircuit({n})"]
    lines += [f"{name}.{gate}({', '.join(map(str, qubits))})" for gate, qubits in ops]
    return "\n".join(lines) + "\n"


def _unitary(circuit, place=None, width=None):
    """The numpy unitary of a circuit, its qubit q placed on place[q] of `width` qubits."""
    n, ops = circuit
    place = list(range(n)) if place is None else list(place)
    width = n if width is None else width
    return oracle_core.unitary([(g, (), tuple(place[q] for q in qs)) for g, qs in ops], width)


# -- Pauli matrices and labels, numpy ---------------------------------------------------------------------
def _split(label):
    for prefix in ("-i", "i", "-", "+"):
        if label.startswith(prefix):
            return PHASES.get(prefix, 1), label[len(prefix):]
    return 1, label


def pauli_matrix(label):
    """The matrix of a Pauli label (leftmost character on the highest qubit), phase prefix included."""
    phase, letters = _split(label)
    matrix = np.eye(1, dtype=complex)
    for ch in letters:
        matrix = np.kron(matrix, oracle_core.PAULI_MATRICES[ch])
    return phase * matrix


@functools.lru_cache(maxsize=None)  # noqa: UP033 (older targets run Python 3.8)
def _basis(n):
    labels = ["".join(p) for p in itertools.product("IXYZ", repeat=n)]
    return labels, np.array([pauli_matrix(label) for label in labels])


def as_label(matrix):
    """The phased label c.P of a matrix that is a phase c in {1, -1, i, -i} times a Pauli string P."""
    matrix = np.asarray(matrix, dtype=complex)
    n = round(np.log2(matrix.shape[0]))
    labels, stack = _basis(n)
    coefficients = np.einsum("kij,ji->k", stack, matrix) / 2 ** n  # Tr(P M) / 2^n (P Hermitian)
    k = int(np.argmax(np.abs(coefficients)))
    phase = min(PHASES.items(), key=lambda item: abs(item[1] - coefficients[k]))
    if np.max(np.abs(matrix - phase[1] * stack[k])) > ATOL:
        raise ValueError("not a phased Pauli string: the oracle's inputs are not Clifford")
    return phase[0] + labels[k]


def _single(letter, qubit, n):
    return pauli_matrix("I" * (n - 1 - qubit) + letter + "I" * qubit)


def tableau(u):
    """(stabilizers, destabilizers): U Z_i U^dag and U X_i U^dag as phased labels, i = 0..n-1."""
    n = round(np.log2(u.shape[0]))
    conj = u.conj().T
    return ([as_label(u @ _single("Z", i, n) @ conj) for i in range(n)],
            [as_label(u @ _single("X", i, n) @ conj) for i in range(n)])


def _signed(labels):
    """Labels as Clifford.to_labels writes them: '+' or '-' first (tableau rows are Hermitian)."""
    return [label if label.startswith("-") else "+" + label for label in labels]


KRON_SOURCE = """
single = {"I": np.eye(2), "X": np.array([[0, 1], [1, 0]]), "Y": np.array([[0, -1j], [1j, 0]]), "Z": np.diag([1, -1])}


def pauli_matrix(label):
    # sign prefix, then the leftmost character on the highest qubit
    sign = -1 if label.startswith("-") else 1
    matrix = np.eye(1)
    for ch in label.lstrip("+-"):
        matrix = np.kron(matrix, single[ch])
    return sign * matrix

"""


# =========================================================================================================
# Clifford
CLIFFORD_SUBJECTS = ["compose", "dot", "tensor", "expand", "transpose", "conjugate", "from_label", "from_circuit",
                     "from_matrix"]
LABEL_GATES = {"I": "id", "X": "x", "Y": "y", "Z": "z", "H": "h", "S": "s"}


def _clifford_subjects():
    from qiskit.quantum_info import Clifford

    return [s for s in CLIFFORD_SUBJECTS if callable(getattr(Clifford, s, None))]


def _clifford_strategy(subject):
    st = _st()

    @st.composite
    def example(draw):
        n = draw(st.integers(1, MAX_QUBITS))
        first = draw(_circuit(n))
        ex = {"first": first, "second": None, "qargs": None, "front": False, "form": "Clifford",
              "operator": False, "label": None, "phase": 0.0, "nested": None}
        if subject in ("compose", "dot"):
            k = draw(st.integers(1, n))
            ex["second"] = draw(_circuit(k))
            if k < n or draw(st.booleans()):
                ex["qargs"] = [int(q) for q in draw(st.permutations(range(n)))[:k]]
            ex["form"] = draw(st.sampled_from(["Clifford", "QuantumCircuit"]))
            ex["front"] = subject == "compose" and draw(st.booleans())
            # the documented operators: a & b is a.compose(b), a @ b is a.dot(b) (whole register)
            ex["operator"] = ex["qargs"] is None and not ex["front"] and ex["form"] == "Clifford" and draw(st.booleans())
        elif subject in ("tensor", "expand"):
            n = draw(st.integers(1, MAX_QUBITS - 1))
            ex["first"] = draw(_circuit(n))
            ex["second"] = draw(_circuit(draw(st.integers(1, MAX_QUBITS - n))))
        elif subject == "from_label":
            ex["label"] = draw(st.text("IXYZHS", min_size=1, max_size=MAX_QUBITS))
        elif subject == "from_circuit":
            # a sub-circuit appended as an instruction on some qubits, barriers, a global phase,
            # and the whole given as a circuit or as an Instruction (both documented)
            k = draw(st.integers(1, n))
            ex["second"] = draw(_circuit(k, 5))
            ex["qargs"] = [int(q) for q in draw(st.permutations(range(n)))[:k]]
            ex["nested"] = draw(st.sampled_from(["to_instruction", "to_gate", "compose", "none"]))
            ex["phase"] = draw(st.sampled_from([0.0, 0.5, np.pi / 2, np.pi]))
            ex["form"] = draw(st.sampled_from(["QuantumCircuit", "Instruction"]))
            ex["barrier"] = draw(st.booleans())
        elif subject == "from_matrix":
            ex["phase"] = draw(st.sampled_from([0.0, 0.5, np.pi / 2, np.pi, -2.0]))
        return ex

    return example()


def _clifford_expected(subject, ex):
    """The numpy unitary the result must be (up to global phase)."""
    first, second, qargs = ex["first"], ex["second"], ex["qargs"]
    n = first[0]
    if subject in ("compose", "dot"):
        a, b = _unitary(first), _unitary(second, qargs, n)
        return a @ b if (subject == "dot" or ex["front"]) else b @ a
    if subject == "tensor":
        return np.kron(_unitary(first), _unitary(second))
    if subject == "expand":
        return np.kron(_unitary(second), _unitary(first))
    if subject == "transpose":
        return _unitary(first).T
    if subject == "conjugate":
        return _unitary(first).conj()
    if subject == "from_label":
        label = ex["label"]
        m = len(label)
        return oracle_core.unitary([(LABEL_GATES[ch], (), (m - 1 - i,)) for i, ch in enumerate(label)], m)
    if subject == "from_circuit":
        u = _unitary(first)
        if ex["nested"] != "none":
            u = _unitary(second, qargs, n) @ u
        return u
    if subject == "from_matrix":
        return _unitary(first)
    raise KeyError(subject)


def _clifford_program(subject, ex):
    first, second, qargs = ex["first"], ex["second"], ex["qargs"]
    lines = ["import numpy as np", "from qiskit import QuantumCircuit", "from qiskit.quantum_info import Clifford", ""]
    if subject == "from_label":
        call = f"Clifford.from_label({ex['label']!r})"
        lines.append(f"result = {call}")
    elif subject == "from_matrix":
        u = _unitary(first) * np.exp(1j * ex["phase"])
        lines.append(f"matrix = np.array({np.round(u, 15).tolist()!r})  # the circuit's unitary, "
                     f"times the global phase e^(i {ex['phase']!r}), from numpy")
        call = "Clifford.from_matrix(matrix)"
        lines.append(f"result = {call}")
    else:
        lines.append(_source(first, "a").rstrip())
        if subject == "from_circuit":
            if ex["barrier"]:
                lines.append("a.barrier()")
            if ex["nested"] != "none":
                lines.append(_source(second, "b").rstrip())
                if ex["nested"] == "compose":
                    lines.append(f"a.compose(b, qubits={qargs!r}, inplace=True)")
                else:
                    lines.append(f"a.append(b.{ex['nested']}(), {qargs!r})")
            if ex["phase"]:
                lines.append(f"a.global_phase = {float(ex['phase'])!r}")
            call = "Clifford.from_circuit(a.to_instruction())" if ex["form"] == "Instruction" else "Clifford.from_circuit(a)"
        elif subject in ("compose", "dot"):
            lines.append(_source(second, "b").rstrip())
            other = "Clifford(b)" if ex["form"] == "Clifford" else "b"
            if ex["operator"]:
                call = f"Clifford(a) {'&' if subject == 'compose' else '@'} {other}"
            else:
                args = [other] + ([f"qargs={qargs!r}"] if qargs is not None else []) + (["front=True"] if ex["front"] else [])
                call = f"Clifford(a).{subject}({', '.join(args)})"
        elif subject in ("tensor", "expand"):
            lines.append(_source(second, "b").rstrip())
            call = f"Clifford(a).{subject}(Clifford(b))"
        else:
            call = f"Clifford(a).{subject}()"
        lines.append(f"result = {call}")
    stabilizers, destabilizers = tableau(_clifford_expected(subject, ex))
    meaning = {"compose": "B.A (b after a)" if not ex["front"] else "A.B (front=True: b before a)",
               "dot": "A.B (b before a)", "tensor": "A (x) B, b on the low qubits", "expand": "B (x) A",
               "transpose": "U^T", "conjugate": "U^*", "from_label": "the tensor product of the label's gates",
               "from_circuit": "the circuit's unitary", "from_matrix": "the matrix (up to its global phase)"}[subject]
    lines += [(f"# U = {meaning}, from the gates' matrices with numpy: stabilizer i = U Z_i U^dag, "
              "destabilizer i = U X_i U^dag"),
              f"expected_stabilizers = {_signed(stabilizers)!r}",
              f"expected_destabilizers = {_signed(destabilizers)!r}",
              "stabilizers, destabilizers = list(result.to_labels(mode='S')), list(result.to_labels(mode='D'))",
              (f"assert stabilizers == expected_stabilizers, f'{_q(call)}: stabilizers {{stabilizers}}, expected "
              "{expected_stabilizers}'"),
              (f"assert destabilizers == expected_destabilizers, f'{_q(call)}: destabilizers {{destabilizers}}, expected "
              "{expected_destabilizers}'")]
    return "\n".join(lines) + "\n"


# =========================================================================================================
# StabilizerState
STATE_SUBJECTS = ["probabilities", "probabilities_dict", "probabilities_dict_from_bitstring", "expectation_value",
                  "measure", "reset", "sample_counts", "sample_memory", "evolve", "conjugate", "tensor", "expand",
                  "purity", "from_stabilizer_list"]


def _state_subjects():
    from qiskit.quantum_info import StabilizerState

    return [s for s in STATE_SUBJECTS if callable(getattr(StabilizerState, s, None))]


def _state_strategy(subject):
    st = _st()

    @st.composite
    def example(draw):
        n = draw(st.integers(1, MAX_QUBITS))
        if subject in ("tensor", "expand"):
            n = draw(st.integers(1, MAX_QUBITS - 1))
        ex = {"circuit": draw(_circuit(n)), "qargs": None, "decimals": None, "pauli": None, "other": None,
              "form": None, "seed": draw(st.integers(0, 2 ** 16)), "bits": None, "generators": None}
        if subject in ("probabilities", "probabilities_dict", "probabilities_dict_from_bitstring", "expectation_value",
                       "measure", "reset", "sample_counts", "sample_memory", "evolve") and (
                draw(st.booleans()) or subject == "evolve"):
            ex["qargs"] = [int(q) for q in draw(st.permutations(range(n)))[:draw(st.integers(1, n))]]
        if subject in ("probabilities", "probabilities_dict", "probabilities_dict_from_bitstring"):
            ex["decimals"] = draw(st.sampled_from([None, None, 1, 2, 3, 6]))
        if subject == "probabilities_dict_from_bitstring":
            width = n if ex["qargs"] is None else len(ex["qargs"])
            ex["bits"] = draw(st.text("01", min_size=width, max_size=width))
        if subject == "expectation_value":
            width = n if ex["qargs"] is None else len(ex["qargs"])
            ex["form"] = draw(st.sampled_from(["Pauli", "SparsePauliOp"]))
            count = 1 if ex["form"] == "Pauli" else draw(st.integers(1, 3))
            ex["pauli"] = draw(st.lists(st.tuples(st.sampled_from(sorted(PHASES)), st.text("IXYZ", min_size=width, max_size=width),
                                                  st.sampled_from([1.0, -0.5, 2.0, 0.5j])), min_size=count, max_size=count))
        if subject == "evolve":
            k = len(ex["qargs"])
            ex["form"] = draw(st.sampled_from(["Clifford", "QuantumCircuit", "Gate"]))
            if ex["form"] == "Gate":
                gate = draw(st.sampled_from(sorted(g for g, w in GATES.items() if w <= k)))
                ex["other"] = (GATES[gate], [(gate, tuple(range(GATES[gate])))])
                ex["qargs"] = ex["qargs"][:GATES[gate]]
            else:
                ex["other"] = draw(_circuit(k))
        if subject in ("tensor", "expand"):
            ex["other"] = draw(_circuit(draw(st.integers(1, MAX_QUBITS - n))))
        if subject == "from_stabilizer_list":
            # the generators U Z_i U^dag, shuffled, some multiplied by others (still a generating set)
            order = draw(st.permutations(range(n)))
            products = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=3))
            ex["generators"] = (list(order), products)
        return ex

    return example()


def _state(circuit):
    return oracle_core.statevector([(g, (), qs) for g, qs in circuit[1]], circuit[0])


def _marginal(psi, n, qargs):
    """Probabilities of the qubits qargs (qargs[k] is bit k of the outcome index)."""
    probabilities = np.abs(psi) ** 2
    qargs = list(range(n)) if qargs is None else qargs
    out = np.zeros(2 ** len(qargs))
    for i, p in enumerate(probabilities):
        out[sum(((i >> q) & 1) << k for k, q in enumerate(qargs))] += p
    return out


def _collapse(psi, n, qargs, outcome):
    """The normalized post-measurement state of outcome index `outcome` on qargs, and its probability."""
    keep = np.array([all(((i >> q) & 1) == ((outcome >> k) & 1) for k, q in enumerate(qargs)) for i in range(2 ** n)])
    projected = np.where(keep, psi, 0)
    p = float(np.vdot(projected, projected).real)
    return (projected / np.sqrt(p) if p > ATOL else None), p


def _flip(psi, n, qargs, outcome):
    """X on qargs[k] wherever bit k of outcome is 1 (rotates the collapsed state to |0>)."""
    out = np.zeros_like(psi)
    mask = sum(((outcome >> k) & 1) << q for k, q in enumerate(qargs))
    for i, a in enumerate(psi):
        out[i ^ mask] = a
    return out


def _vector_literal(psi):
    return "np.array([" + ", ".join(f"complex({float(a.real)!r}, {float(a.imag)!r})" if abs(a.imag) > 1e-15
                                     else repr(float(a.real)) for a in np.round(psi, 15)) + "])"


STABILIZED = """
def stabilized_by(state, psi):
    # every stabilizer generator g of the state fixes psi: g psi = psi (the generators pin the state down)
    return all(np.allclose(pauli_matrix(g) @ psi, psi, atol=1e-9) for g in state.clifford.to_labels(mode='S'))

"""


def _key(index, width):
    return format(index, f"0{width}b") if width else ""


def _state_program(subject, ex):
    circuit, qargs = ex["circuit"], ex["qargs"]
    n = circuit[0]
    psi = _state(circuit)
    lines = ["import numpy as np", "from qiskit import QuantumCircuit",
             "from qiskit.quantum_info import Clifford, Pauli, SparsePauliOp, StabilizerState"]
    if subject == "evolve" and ex["form"] == "Gate":
        lines.append(f"from qiskit.circuit.library import {GATE_CLASSES[ex['other'][1][0][0]]}")
    lines.append(KRON_SOURCE + STABILIZED)
    lines.append(_source(circuit).rstrip())
    lines.append("state = StabilizerState(qc)")
    qargs_kw = "" if qargs is None else f"qargs={qargs!r}"
    width = n if qargs is None else len(qargs)
    marginal = _marginal(psi, n, qargs)
    decimals = ex["decimals"]
    # decimals rounds each value: it may then be off by half a unit of the last decimal
    tol = ATOL if decimals is None else 0.5 * 10 ** -decimals + ATOL
    dec_kw = "" if decimals is None else f"decimals={decimals}"
    kws = ", ".join(k for k in (qargs_kw, dec_kw) if k)
    if subject == "probabilities":
        call = f"state.probabilities({kws})"
        lines += [f"expected = np.array({marginal.tolist()!r})  # |amplitude|^2 summed, qargs[0] the lowest bit",
                  f"actual = np.asarray({call})",
                  (f"assert actual.shape == expected.shape and np.max(np.abs(actual - expected)) <= {tol!r}, "
                  f"f'{_q(call)} = {{actual.tolist()}}, expected {{expected.tolist()}}'")]
    elif subject == "probabilities_dict":
        call = f"state.probabilities_dict({kws})"
        expected = {_key(i, width): float(p) for i, p in enumerate(marginal) if p > ATOL}
        lines += [f"expected = {expected!r}  # keys: qargs[0] the rightmost bit; zero probabilities may be left out",
                  f"actual = {call}",
                  "keys = set(actual) | set(expected)",
                  "worst = max(abs(actual.get(k, 0.0) - expected.get(k, 0.0)) for k in keys)",
                  f"assert set(expected) <= set(actual) and worst <= {tol!r}, f'{_q(call)} = {{actual}}, expected {{expected}}'"]
    elif subject == "probabilities_dict_from_bitstring":
        call = f"state.probabilities_dict_from_bitstring({ex['bits']!r}{', ' + kws if kws else ''})"
        p = float(marginal[int(ex["bits"], 2)])
        lines += [f"expected = {p!r}  # the probability of outcome {ex['bits']} (qargs[0] the rightmost bit)",
                  f"actual = {call}",
                  f"assert set(actual) <= {{{ex['bits']!r}}}, f'{_q(call)} has keys {{list(actual)}}'",
                  f"assert abs(actual.get({ex['bits']!r}, 0.0) - expected) <= {tol!r}, f'{_q(call)} = {{actual}}, expected {{expected}}'"]
    elif subject == "expectation_value":
        place = list(range(n)) if qargs is None else qargs
        total = 0j
        for prefix, letters, coeff in ex["pauli"]:
            full = ["I"] * n
            for k, ch in enumerate(reversed(letters)):
                full[n - 1 - place[k]] = ch
            total += coeff * PHASES[prefix] * np.vdot(psi, pauli_matrix("".join(full)) @ psi)
        if ex["form"] == "Pauli":
            prefix, letters, _ = ex["pauli"][0]
            total = total / ex["pauli"][0][2]
            operator = f"Pauli({prefix + letters!r})"
        else:
            operator = f"SparsePauliOp.from_list({[(p + l, c) for p, l, c in ex['pauli']]!r})"
        call = f"state.expectation_value({operator}{', ' + qargs_kw if qargs_kw else ''})"
        lines += [f"expected = {complex(total)!r}  # <psi|O|psi>, phase and coefficients included, label[-1-k] on qargs[k]",
                  f"actual = {call}",
                  f"assert abs(actual - expected) <= {ATOL!r}, f'{_q(call)} = {{actual}}, expected {{expected}}'"]
    elif subject in ("measure", "reset"):
        measured = list(range(n)) if qargs is None else qargs
        branches = []
        for outcome in range(2 ** len(measured)):
            post, p = _collapse(psi, n, measured, outcome)
            if post is not None:
                branches.append((_key(outcome, len(measured)), post if subject == "measure" else _flip(post, n, measured, outcome)))
        lines.append(f"state.seed({ex['seed']})")
        lines.append("# the possible outcomes (qargs[0] the rightmost bit) and their collapsed states, from numpy"
                     + ("; reset then flips the measured qubits to |0>" if subject == "reset" else ""))
        lines.append("branches = {" + ", ".join(f"{k!r}: {_vector_literal(v)}" for k, v in branches) + "}")
        if subject == "measure":
            call = f"state.measure({qargs_kw})"
            lines += [f"outcome, post = {call}",
                      (f"assert outcome in branches, f'{_q(call)} gave outcome {{outcome!r}}, which has probability 0 "
                      "(possible: {sorted(branches)})'"),
                      (f"assert stabilized_by(post, branches[outcome]), f'{_q(call)}: the state after outcome {{outcome!r}} "
                      "is not the collapsed state (stabilizers {post.clifford.to_labels(mode=\"S\")})'")]
        else:
            call = f"state.reset({qargs_kw})"
            lines += [f"post = {call}",
                      (f"assert any(stabilized_by(post, v) for v in branches.values()), f'{_q(call)} is "
                      "{post.clifford.to_labels(mode=\"S\")}: no measurement branch rotated to |0> on the reset qubits'")]
    elif subject in ("sample_counts", "sample_memory"):
        possible = sorted(_key(i, width) for i, p in enumerate(marginal) if p > ATOL)
        shots = 40
        lines.append(f"state.seed({ex['seed']})")
        lines.append(f"possible = {possible!r}  # outcomes of nonzero probability (qargs[0] the rightmost bit)")
        call = f"state.{subject}({shots}{', ' + qargs_kw if qargs_kw else ''})"
        if subject == "sample_counts":
            lines += [f"counts = dict({call})",
                      f"assert sum(counts.values()) == {shots}, f'{_q(call)} holds {{sum(counts.values())}} shots'",
                      (f"assert set(counts) <= set(possible), f'{_q(call)} = {{counts}} has outcomes of probability 0 "
                      "(possible: {possible})'")]
        else:
            lines += [f"memory = [str(m) for m in {call}]",
                      f"assert len(memory) == {shots}, f'{_q(call)} holds {{len(memory)}} shots'",
                      (f"assert set(memory) <= set(possible), f'{_q(call)} has outcomes of probability 0: "
                      "{sorted(set(memory) - set(possible))} (possible: {possible})'")]
    elif subject in ("evolve", "conjugate", "tensor", "expand", "from_stabilizer_list"):
        if subject == "evolve":
            k, ops = ex["other"]
            other_circuit = (k, ops)
            expected = _unitary(other_circuit, qargs, n) @ psi
            if ex["form"] == "Gate":
                other = f"{GATE_CLASSES[ops[0][0]]}()"
            else:
                lines.append(_source(other_circuit, "other_qc").rstrip())
                other = "Clifford(other_qc)" if ex["form"] == "Clifford" else "other_qc"
            call = f"state.evolve({other}, {qargs_kw})"
            meaning = "U on qargs applied to psi"
        elif subject == "conjugate":
            expected, call, meaning = psi.conj(), "state.conjugate()", "psi^*"
        elif subject in ("tensor", "expand"):
            lines.append(_source(ex["other"], "other_qc").rstrip())
            phi = _state(ex["other"])
            expected = np.kron(psi, phi) if subject == "tensor" else np.kron(phi, psi)
            call = f"state.{subject}(StabilizerState(other_qc))"
            meaning = "psi (x) phi" if subject == "tensor" else "phi (x) psi"
        else:
            stabilizers, _ = tableau(_unitary(circuit))
            order, products = ex["generators"]
            generators = [stabilizers[i] for i in order]
            for target, source in products:
                if target != source:
                    generators[target] = as_label(pauli_matrix(generators[target]) @ pauli_matrix(generators[source]))
            call = f"StabilizerState.from_stabilizer_list({_signed(generators)!r})"
            expected, meaning = psi, "the state these generators stabilize (the circuit's output)"
        lines += [f"expected = {_vector_literal(expected)}  # {meaning}, from numpy",
                  f"result = {call}",
                  (f"assert stabilized_by(result, expected), f'{_q(call)} has stabilizers "
                  "{result.clifford.to_labels(mode=\"S\")}, which do not stabilize the expected state'")]
    elif subject == "purity":
        lines += ["actual = state.purity()",
                  f"assert abs(actual - 1) <= {ATOL!r}, f'state.purity() = {{actual}}, a pure state has purity 1'"]
    else:
        raise KeyError(subject)
    return "\n".join(lines) + "\n"


# =========================================================================================================
# PauliList and Pauli
PAULI_SUBJECTS = ["PauliList.compose", "PauliList.dot", "PauliList.tensor", "PauliList.expand", "PauliList.adjoint",
                  "PauliList.conjugate", "PauliList.transpose", "PauliList.inverse", "PauliList.power",
                  "PauliList.unique", "PauliList.sort", "PauliList.argsort", "PauliList.insert", "PauliList.delete",
                  "PauliList.equiv", "PauliList.to_matrix",
                  "Pauli.compose", "Pauli.dot", "Pauli.tensor", "Pauli.expand", "Pauli.adjoint", "Pauli.conjugate",
                  "Pauli.transpose", "Pauli.inverse", "Pauli.power", "Pauli.insert", "Pauli.delete"]
ELEMENTWISE = {"adjoint": lambda m: m.conj().T, "conjugate": np.conj, "transpose": lambda m: m.T,
               "inverse": np.linalg.inv}
ORDER = {"I": 0, "X": 1, "Y": 2, "Z": 3}


def _pauli_subjects():
    import qiskit.quantum_info as qi

    return [s for s in PAULI_SUBJECTS if callable(getattr(getattr(qi, s.split(".")[0]), s.split(".")[1], None))]


def _labels(n, min_size, max_size, phased=True):
    st = _st()
    phase = st.sampled_from(sorted(PHASES)) if phased else st.just("")
    return st.lists(st.tuples(phase, st.text("IXYZ", min_size=n, max_size=n)).map("".join),
                    min_size=min_size, max_size=max_size)


def _pauli_strategy(subject):
    st = _st()
    owner, method = subject.split(".")

    @st.composite
    def example(draw):
        n = draw(st.integers(1, MAX_QUBITS))
        rows = 1 if owner == "Pauli" else draw(st.integers(1, 5))
        ex = {"n": n, "labels": None, "other": None, "qargs": None, "front": False, "power": None, "flags": {},
              "index": None}
        if method in ("tensor", "expand"):
            n = draw(st.integers(1, MAX_QUBITS - 1))
            ex["n"] = n
        if method == "unique":
            # repeats (with and without a different phase) make the law bite
            pool = draw(_labels(n, 1, 3))
            ex["labels"] = draw(st.lists(st.sampled_from(pool + [_split(p)[1] for p in pool]), min_size=1, max_size=7))
        elif method in ("insert", "delete") and draw(st.booleans()) and owner == "PauliList":
            ex["labels"] = draw(_labels(n, rows, rows))
            ex["flags"]["qubit"] = False
        else:
            ex["labels"] = draw(_labels(n, rows, rows))
        if method in ("compose", "dot"):
            k = draw(st.integers(1, n))
            count = 1 if owner == "Pauli" else draw(st.sampled_from([1, rows]))
            ex["other"] = draw(_labels(k, count, count))
            if k < n or draw(st.booleans()):
                ex["qargs"] = [int(q) for q in draw(st.permutations(range(n)))[:k]]
            ex["front"] = method == "compose" and draw(st.booleans())
        elif method in ("tensor", "expand"):
            k = draw(st.integers(1, MAX_QUBITS - n))
            count = 1 if owner == "Pauli" else draw(st.sampled_from([1, rows]))
            ex["other"] = draw(_labels(k, count, count))
        elif method == "power":
            ex["power"] = draw(st.integers(1, 5))  # documented n > 0
        elif method == "unique":
            ex["flags"] = {"return_index": draw(st.booleans()), "return_counts": draw(st.booleans())}
        elif method in ("sort", "argsort"):
            ex["flags"] = {"weight": draw(st.booleans()), "phase": draw(st.booleans())}
        elif method == "equiv":
            count = draw(st.sampled_from([1, rows]))
            # the same letters with another phase, or other letters
            ex["other"] = [draw(st.sampled_from(sorted(PHASES))) + _split(ex["labels"][i % rows])[1]
                           if draw(st.booleans()) else draw(_labels(n, 1, 1))[0] for i in range(count)]
            ex["flags"] = {"as_pauli": count == 1 and draw(st.booleans())}
        elif method == "insert":
            if ex["flags"].get("qubit") is False:
                ex["index"] = draw(st.integers(0, rows))
                ex["other"] = draw(_labels(n, 1, 3))
            else:
                # a qubit column: value phase-free (how phases combine there is not documented)
                k = draw(st.integers(1, MAX_QUBITS + 1 - n)) if n < MAX_QUBITS + 1 else 1
                ex["index"] = draw(st.integers(0, n))
                count = 1 if owner == "Pauli" else rows
                ex["other"] = draw(_labels(k if owner == "PauliList" else 1, count, count, phased=False))
                ex["flags"]["qubit"] = True
        elif method == "delete":
            if ex["flags"].get("qubit") is False:
                ex["index"] = sorted(draw(st.sets(st.integers(0, rows - 1), min_size=1, max_size=rows)))
            else:
                if n == 1:
                    ex["labels"] = [lab + "I" for lab in ex["labels"]]
                    ex["n"] = n = 2
                ex["index"] = sorted(draw(st.sets(st.integers(0, n - 1), min_size=1, max_size=n - 1)))
                ex["flags"]["qubit"] = True
        elif method == "to_matrix":
            ex["flags"] = {"array": draw(st.booleans())}
        return ex

    return example()


def _embed(label, qargs, n):
    phase, letters = _split(label)
    if qargs is None:
        return pauli_matrix(label)
    full = ["I"] * n
    for k, ch in enumerate(reversed(letters)):
        full[n - 1 - qargs[k]] = ch
    return phase * pauli_matrix("".join(full))


def _sort_key(label, weight):
    letters = _split(label)[1]
    key = tuple(ORDER[ch] for ch in letters)
    return ((sum(ch != "I" for ch in letters),) if weight else ()) + key


def _canonical(label):
    """A label as Pauli.to_label writes it: no '+'."""
    return label[1:] if label.startswith("+") else label  # noqa: FURB188 (targets run Python 3.8)


def _pauli_program(subject, ex):
    owner, method = subject.split(".")
    labels, other, qargs, n = ex["labels"], ex["other"], ex["qargs"], ex["n"]
    lines = ["import numpy as np", "from qiskit.quantum_info import Pauli, PauliList", ""]
    target = f"Pauli({labels[0]!r})" if owner == "Pauli" else f"PauliList({labels!r})"
    matrices = [pauli_matrix(label) for label in labels]
    expected = None  # a list of phased labels, when the result is a Pauli / PauliList
    if method in ("compose", "dot"):
        others = [_embed(o, qargs, n) for o in other]
        expected = [as_label(m @ others[i % len(others)] if (method == "dot" or ex["front"]) else others[i % len(others)] @ m)
                    for i, m in enumerate(matrices)]
        arg = f"Pauli({other[0]!r})" if owner == "Pauli" else f"PauliList({other!r})"
        args = [arg] + ([f"qargs={qargs!r}"] if qargs is not None else []) + (["front=True"] if ex["front"] else [])
        call = f"{target}.{method}({', '.join(args)})"
        meaning = "B.A per row (b after a)" if method == "compose" and not ex["front"] else "A.B per row (b before a)"
    elif method in ("tensor", "expand"):
        others = [pauli_matrix(o) for o in other]
        expected = [as_label(np.kron(m, others[i % len(others)]) if method == "tensor" else np.kron(others[i % len(others)], m))
                    for i, m in enumerate(matrices)]
        arg = f"Pauli({other[0]!r})" if owner == "Pauli" else f"PauliList({other!r})"
        call = f"{target}.{method}({arg})"
        meaning = "A (x) B per row" if method == "tensor" else "B (x) A per row"
        if owner == "PauliList" and len(other) > 1:
            # "the tensor product with each Pauli in the list" also reads as every pair (the
            # releases' reading): a.tensor(b) = [a_i (x) b_j for i, j]; a.expand(b) = b.tensor(a)
            if method == "tensor":
                outer = [as_label(np.kron(m, o)) for m in matrices for o in others]
            else:
                outer = [as_label(np.kron(o, m)) for o in others for m in matrices]
            outer = [_canonical(e) for e in outer]
            expected = [_canonical(e) for e in expected]
            lines += [f"result = {call}",
                      f"elementwise = {expected!r}  # {meaning}, from the Pauli matrices with numpy",
                      f"every_pair = {outer!r}  # or every pair, row-major",
                      "actual = list(result.to_labels())",
                      (f"assert actual in (elementwise, every_pair), f'{_q(call)} = {{actual}}, expected {{elementwise}} "
                      "(row by row) or {every_pair} (every pair)'")]
            return "\n".join(lines) + "\n"
    elif method in ELEMENTWISE:
        expected = [as_label(ELEMENTWISE[method](m)) for m in matrices]
        call, meaning = f"{target}.{method}()", f"the matrix {method} of each row"
    elif method == "power":
        expected = [as_label(np.linalg.matrix_power(m, ex["power"])) for m in matrices]
        call, meaning = f"{target}.power({ex['power']})", f"P^{ex['power']} of each row"
    elif method == "insert":
        if ex["flags"]["qubit"]:
            ind = ex["index"]
            # qubit index = column index: the value's qubits become qubits ind, ind+1, ...; label
            # characters run from the highest qubit, so they go in len - ind characters from the left
            expected = []
            for i, label in enumerate(labels):
                phase, letters = _split(label)
                value = _split(other[i % len(other)])[1]
                cut = len(letters) - ind
                expected.append(as_label(phase * pauli_matrix(letters[:cut] + value + letters[cut:])))
            if owner == "Pauli":
                call = f"{target}.insert({ind}, Pauli({other[0]!r}))"
            else:
                call = f"{target}.insert({ind}, PauliList({other!r}), qubit=True)"
            meaning = f"the value's qubits inserted at qubit {ind}"
        else:
            ind = ex["index"]
            expected = [as_label(pauli_matrix(lab)) for lab in labels[:ind] + other + labels[ind:]]
            call, meaning = f"{target}.insert({ind}, PauliList({other!r}))", f"the rows inserted before row {ind}"
    elif method == "delete":
        index = ex["index"]
        if ex["flags"]["qubit"]:
            expected = []
            for label in labels:
                phase, letters = _split(label)
                kept = "".join(ch for j, ch in enumerate(letters) if len(letters) - 1 - j not in index)
                expected.append(as_label(phase * pauli_matrix(kept)))
            call = f"{target}.delete({index!r})" if owner == "Pauli" else f"{target}.delete({index!r}, qubit=True)"
            meaning = f"qubits {index} removed, coefficient kept"
        else:
            expected = [as_label(pauli_matrix(lab)) for j, lab in enumerate(labels) if j not in index]
            call, meaning = f"{target}.delete({index!r})", f"rows {index} removed"
    if expected is not None:
        expected = [_canonical(e) for e in expected]
        lines += [f"result = {call}",
                  f"expected = {expected!r}  # {meaning}, from the Pauli matrices with numpy",
                  "actual = [result.to_label()]" if owner == "Pauli" else "actual = list(result.to_labels())",
                  f"assert actual == expected, f'{_q(call)} = {{actual}}, expected {{expected}}'"]
        return "\n".join(lines) + "\n"
    full = [as_label(m) for m in matrices]  # canonical forms of the input labels
    if method == "unique":
        first = {}
        for i, label in enumerate(full):
            first.setdefault(label, i)
        uniq = list(first)
        counts = [full.count(label) for label in uniq]
        flags = ex["flags"]
        kw = ", ".join(f"{k}=True" for k in ("return_index", "return_counts") if flags[k])
        call = f"{target}.unique({kw})"
        lines += [f"out = {call}",
                  "out = out if isinstance(out, tuple) else (out,)",
                  f"expected = {uniq!r}  # first occurrences, in order of appearance (phase included)",
                  "assert list(out[0].to_labels()) == expected, f'" + _q(call) + " = {list(out[0].to_labels())}, expected {expected}'"]
        position = 1
        if flags["return_index"]:
            lines += [(f"assert [int(i) for i in out[{position}]] == {list(first.values())!r}, "
                      f"f'{_q(call)}: indices {{list(out[{position}])}}, expected {list(first.values())!r} (first occurrences)'")]
            position += 1
        if flags["return_counts"]:
            lines += [(f"assert [int(c) for c in out[{position}]] == {counts!r}, "
                      f"f'{_q(call)}: counts {{list(out[{position}])}}, expected {counts!r}'")]
        return "\n".join(lines) + "\n"
    if method in ("sort", "argsort"):
        weight, phase = ex["flags"]["weight"], ex["flags"]["phase"]
        kw = ", ".join(f"{k}=True" for k in ("weight", "phase") if ex["flags"][k])
        call = f"{target}.{method}({kw})"
        keys = {label: list(_sort_key(label, weight)) for label in full}
        if method == "sort":
            lines.append(f"actual = list({call}.to_labels())")
        else:
            lines += [f"order = [int(i) for i in {call}]",
                      f"assert sorted(order) == list(range({len(labels)})), f'{_q(call)} = {{order}} is not a permutation'",
                      f"actual = [{full!r}[i] for i in order]"]
        lines += [f"keys = {keys!r}  # {'(weight, ' if weight else '('}letters with I < X < Y < Z, highest qubit first)",
                  f"assert sorted(actual) == {sorted(full)!r}, f'{_q(call)} = {{actual}} is not a reordering of the input'"]
        if phase:
            # sorted by phase first: each phase one contiguous run, keys ordered within a run
            lines += ["def phase_of(label):",
                      "    return label[:len(label) - len(label.lstrip('-i'))]",
                      "runs = [phase_of(label) for j, label in enumerate(actual) if j == 0 or phase_of(actual[j - 1]) != phase_of(label)]",
                      f"assert len(runs) == len(set(runs)), f'{_q(call)} = {{actual}}: phases not grouped'",
                      ("bad = [j for j in range(1, len(actual)) if phase_of(actual[j]) == phase_of(actual[j - 1]) "
                      "and keys[actual[j]] < keys[actual[j - 1]]]")]
        else:
            lines.append("bad = [j for j in range(1, len(actual)) if keys[actual[j]] < keys[actual[j - 1]]]")
        lines.append(f"assert not bad, f'{_q(call)} = {{actual}}: out of order at position {{bad[0] if bad else None}}'")
        return "\n".join(lines) + "\n"
    if method == "equiv":
        others = [pauli_matrix(o) for o in other]
        truth = [bool(as_label(m).lstrip("-i") == as_label(others[i % len(others)]).lstrip("-i"))
                 for i, m in enumerate(matrices)]
        arg = f"Pauli({other[0]!r})" if ex["flags"]["as_pauli"] else f"PauliList({other!r})"
        call = f"{target}.equiv({arg})"
        lines += [f"actual = [bool(v) for v in {call}]",
                  f"expected = {truth!r}  # rows equal up to a phase, from the matrices",
                  f"assert actual == expected, f'{_q(call)} = {{actual}}, expected {{expected}}'"]
        return "\n".join(lines) + "\n"
    if method == "to_matrix":
        array = ex["flags"]["array"]
        call = f"{target}.to_matrix({'array=True' if array else ''})"
        lines += [f"expected = np.array({[m.tolist() for m in matrices]!r})  # the phased Pauli matrices, numpy kron",
                  f"actual = np.asarray({call})",
                  f"assert actual.shape == expected.shape, f'{_q(call)} has shape {{actual.shape}}, expected {{expected.shape}}'",
                  (f"assert np.max(np.abs(actual - expected)) <= {ATOL!r}, f'{_q(call)} differs from the Pauli matrices by "
                  "{np.max(np.abs(actual - expected)):.3g}'")]
        return "\n".join(lines) + "\n"
    raise KeyError(subject)


# =========================================================================================================
FAMILY = "stabilizer formalism"


def _describe(subject, example):
    return f"{subject}: {example!r}"


CONTRACTS = [
    Contract("qiskit.stabilizer.clifford-operations-agree-with-unitaries", FAMILY,
             "Clifford compose (qargs, front, `&`, a Clifford or a circuit), dot (qargs, `@`), tensor / expand of "
             "unequal sizes, transpose (U^T), conjugate (U^*), from_label, from_circuit (nested instructions, barriers, "
             "global phase, an Instruction) and from_matrix (any global phase) give the Clifford of the unitary numpy "
             "computes: stabilizer i = U Z_i U^dag, destabilizer i = U X_i U^dag, signs included",
             "documentation: qiskit.quantum_info.Clifford (compose / dot / tensor / expand notes, from_label table, "
             "from_circuit, from_matrix, to_labels); quantum semantics",
             _clifford_subjects, _clifford_strategy, _check(_clifford_program), _clifford_program,
             lambda s: f"qiskit.quantum_info.Clifford.{s}", describe=_describe),
    Contract("qiskit.stabilizer.state-agrees-with-statevector", FAMILY,
             "StabilizerState of a Clifford circuit agrees with the numpy statevector: probabilities and "
             "probabilities_dict (qargs, decimals), probabilities_dict_from_bitstring, expectation_value of phased "
             "Paulis and SparsePauliOps on qargs, measure / reset (a possible outcome and its collapsed state), "
             "sample_counts / sample_memory (possible outcomes only), evolve on qargs, conjugate, tensor, expand, "
             "purity 1, from_stabilizer_list",
             "documentation: qiskit.quantum_info.StabilizerState (each method's docstring); quantum semantics "
             "(Born rule, projective measurement)",
             _state_subjects, _state_strategy, _check(_state_program), _state_program,
             lambda s: f"qiskit.quantum_info.StabilizerState.{s}", describe=_describe),
    Contract("qiskit.stabilizer.pauli-list-algebra", FAMILY,
             "PauliList and Pauli compose / dot (qargs, front, one or as many rows), tensor, expand, adjoint, "
             "conjugate, transpose, inverse and power act row by row as the Pauli matrices do (phase included); "
             "PauliList unique keeps first occurrences in order (indices, counts), sort / argsort reorder into the "
             "documented order (I < X < Y < Z from the highest qubit, by weight first when asked, phases grouped "
             "when asked), insert / delete of rows and qubit columns, equiv (equal up to phase) and to_matrix",
             "documentation: qiskit.quantum_info.PauliList (compose 'self∘other', dot, tensor, unique and sort "
             "examples, insert / delete 'qubit index is the same as the column index'), Pauli; quantum semantics",
             _pauli_subjects, _pauli_strategy, _check(_pauli_program), _pauli_program,
             lambda s: f"qiskit.quantum_info.{s}", describe=_describe),
]
