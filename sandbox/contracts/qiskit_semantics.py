"""Semantic queries, symbolic parameters, structure and robustness, Qiskit: laws stated once
for every predicate, parameter operation, structural metric and documented call the live
library offers, judged by matrices and counts computed here, independently of the library.

  - query: commutation, equality and property predicates (CommutationChecker, Pauli objects,
    SparsePauliOp, SparseObservable, Operator, states, channels, Clifford, circuits) answer
    what the matrices say, at the documented tolerances (user tolerances honoured);
  - param: binding a parameter gives the operator built with the number; expression values
    and gradients equal direct evaluation and finite differences;
  - structure: depth, size, counts and factors equal counting the instructions; DAG orders
    respect dependencies and their documented tie-break keys;
  - robust: documented calls leave their arguments as they were.

Near a documented tolerance the truth is ambiguous: every predicate law here judges only
inputs whose truth is clear by a margin (a 'gray zone' around the threshold is skipped).
"""

import cmath
import functools
import math

import numpy as np

import oracle_core
from contract_runtime import Contract, angles

SEMANTICS = "quantum semantics"
# Gray zone around a documented tolerance t: truth is 'equal' below t / MARGIN and
# 'different' above t * MARGIN (norm conventions differ by at most the dimension).
MARGIN = 100.0
DEFAULT_ATOL, DEFAULT_RTOL = 1e-8, 1e-5  # qiskit.quantum_info.operators.predicates defaults
EXACT = 1e-9  # 'exactly equal' for matrices computed in floating point here


def _st():
    from hypothesis import strategies as st

    return st


def _c(value):
    """A complex number written so that Python reads it back exactly."""
    value = complex(value)
    return f"complex({value.real!r}, {value.imag!r})"


def _array_text(matrix):
    matrix = np.asarray(matrix, dtype=complex)
    if matrix.ndim == 1:
        return "np.array([" + ", ".join(_c(v) for v in matrix) + "])"
    return "np.array([" + ",\n          ".join("[" + ", ".join(_c(v) for v in row) + "]" for row in matrix) + "])"


# =============================================================================================
# Independent matrices: standard gates (oracle_core), Pauli labels, embeddings.

def _library_class(gate):
    import qiskit.circuit.library as library

    return next(c for c in type(gate).__mro__ if getattr(library, c.__name__, None) is c)


@functools.lru_cache(maxsize=None)
def standard_gates():
    """name -> (public class, number of qubits, number of parameters), from the live mapping
    (cached: the mapping builds every gate, and strategies ask for it on every draw)."""
    from qiskit.circuit import Gate
    from qiskit.circuit.library import get_standard_gate_name_mapping

    found = {}
    for name, gate in sorted(get_standard_gate_name_mapping().items()):
        if isinstance(gate, Gate) and gate.num_qubits > 0:
            found[name] = (_library_class(gate), gate.num_qubits, len(gate.params))
    return found


def to_first_major(matrix, k):
    """A Qiskit matrix (argument 0 = least significant) in oracle_core's order (argument 0 =
    most significant)."""
    d = 2 ** k
    axes = list(range(k))[::-1] + list(range(k, 2 * k))[::-1]
    return np.asarray(matrix, dtype=complex).reshape([2] * (2 * k)).transpose(axes).reshape(d, d)


def gate_matrix(name, params):
    """The standard gate's matrix, first argument most significant: oracle_core's independent
    matrix where it has one; otherwise the library's Operator of the gate (a second route,
    checked against the gate's definition by the operations family)."""
    if name in oracle_core.STANDARD_GATES:
        return oracle_core.gate_matrix(name, [float(p) for p in params])
    from qiskit.quantum_info import Operator

    cls, k, _ = standard_gates()[name]
    return to_first_major(Operator(cls(*params)).data, k)


def embed(matrix, qubits, n):
    """`matrix` (first argument most significant) acting on `qubits` of n, as 2^n x 2^n in
    Qiskit's basis order."""
    dim = 2 ** n
    tensor = np.eye(dim, dtype=complex).reshape((2,) * n + (dim,))
    return oracle_core.apply_matrix(tensor, matrix, list(qubits), n).reshape(dim, dim)


def controlled_first_major(u, num_controls, ctrl_state):
    """Controls on the leading arguments; ctrl_state bit i belongs to control i (Qiskit)."""
    index = sum(((ctrl_state >> i) & 1) << (num_controls - 1 - i) for i in range(num_controls))
    projector = np.zeros((2 ** num_controls,) * 2)
    projector[index, index] = 1
    return np.kron(projector, u) + np.kron(np.eye(2 ** num_controls) - projector, np.eye(u.shape[0]))


SINGLE = {"I": np.eye(2), "X": oracle_core.PAULI_MATRICES["X"], "Y": oracle_core.PAULI_MATRICES["Y"],
          "Z": oracle_core.PAULI_MATRICES["Z"],
          "0": np.diag([1, 0]), "1": np.diag([0, 1]), "+": np.full((2, 2), 0.5), "-": np.array([[0.5, -0.5], [-0.5, 0.5]]),
          "r": np.array([[0.5, -0.5j], [0.5j, 0.5]]), "l": np.array([[0.5, 0.5j], [-0.5j, 0.5]])}
PHASES = {"": 1, "-": -1, "i": 1j, "-i": -1j}


def label_matrix(label):
    """A Pauli/projector label (optional phase prefix, leftmost letter = highest qubit)."""
    letters = label.lstrip("-i")
    phase = PHASES[label[:len(label) - len(letters)]]
    matrix = np.array([[phase]], dtype=complex)
    for letter in letters:
        matrix = np.kron(matrix, SINGLE[letter])
    return matrix


def commutator_size(a, b):
    return float(np.max(np.abs(a @ b - b @ a)))


def anticommutator_size(a, b):
    return float(np.max(np.abs(a @ b + b @ a)))


def pauli_labels(num_qubits, phases=True, alphabet="IXYZ"):
    st = _st()
    letters = st.text(alphabet=alphabet, min_size=num_qubits, max_size=num_qubits)
    if not phases:
        return letters
    return st.tuples(st.sampled_from(sorted(PHASES)), letters).map(lambda p: p[0] + p[1])


# =============================================================================================
# query: CommutationChecker.commute over every standard gate, with modifiers and symbols.

SYMBOL_SAMPLES = (0.3, 1.1, -2.0, 2.9, math.pi)


def _op_spec(name, symbolic=False):
    """(gate name, params or 'symbolic', modifier): the operation a query asks about."""
    st = _st()
    _, k, count = standard_gates()[name]
    numbers = st.tuples(*[angles()] * count)
    params = (st.just("symbolic") if symbolic is True else
              st.one_of(numbers, st.just("symbolic")) if symbolic == "either" and count else numbers)
    modifiers = [st.just(("none",)), st.just(("inverse",)), st.sampled_from([("power", 2), ("power", 3)])]
    if k < 3:
        modifiers.append(st.integers(1, 3 - k).flatmap(
            lambda c: st.tuples(st.sampled_from(["control", "annotated-control"]), st.just(c),
                                st.integers(0, 2 ** c - 1))))
    return st.tuples(st.just(name), params, st.one_of(*modifiers))


def _spec_arity(spec):
    _, k, _ = standard_gates()[spec[0]]
    return k + (spec[2][1] if spec[2][0] in ("control", "annotated-control") else 0)


def _symbols(spec, prefix):
    from qiskit.circuit import Parameter

    return [Parameter(f"{prefix}{i}") for i in range(standard_gates()[spec[0]][2])]


def build_operation(spec, prefix):
    from qiskit.circuit import AnnotatedOperation, ControlModifier

    name, params, modifier = spec
    cls = standard_gates()[name][0]
    gate = cls(*(_symbols(spec, prefix) if params == "symbolic" else params))
    kind = modifier[0]
    if kind == "inverse":
        return gate.inverse()
    if kind == "power":
        return gate.power(modifier[1], annotated=True)
    if kind == "control":
        return gate.control(modifier[1], ctrl_state=modifier[2])
    if kind == "annotated-control":
        return AnnotatedOperation(gate, ControlModifier(modifier[1], ctrl_state=modifier[2]))
    return gate


def operation_text(spec, prefix):
    name, params, modifier = spec
    cls = standard_gates()[name][0].__name__
    arguments = (", ".join(f"Parameter('{prefix}{i}')" for i in range(len(_symbols(spec, prefix))))
                 if params == "symbolic" else ", ".join(repr(float(p)) for p in params))
    gate = f"{cls}({arguments})"
    kind = modifier[0]
    if kind == "inverse":
        return f"{gate}.inverse()"
    if kind == "power":
        return f"{gate}.power({modifier[1]}, annotated=True)"
    if kind == "control":
        return f"{gate}.control({modifier[1]}, ctrl_state={modifier[2]})"
    if kind == "annotated-control":
        return f"AnnotatedOperation({gate}, ControlModifier({modifier[1]}, ctrl_state={modifier[2]}))"
    return gate


def operation_matrix(spec, values=None):
    """The operation's matrix (first argument most significant), built with numpy from the
    base gate's matrix; `values` bind symbolic parameters."""
    name, params, modifier = spec
    u = gate_matrix(name, values if params == "symbolic" else params)
    kind = modifier[0]
    if kind == "inverse":
        return u.conj().T
    if kind == "power":
        return np.linalg.matrix_power(u, modifier[1])
    if kind in ("control", "annotated-control"):
        return controlled_first_major(u, modifier[1], modifier[2])
    return u


def _query_strategy(subject, symbolic=False, degrees=(1.0,)):
    st = _st()

    def one_query(pair):
        spec1, spec2 = pair
        n1, n2 = _spec_arity(spec1), _spec_arity(spec2)
        width = max(n1, n2, 1)
        return st.integers(width, min(max(width, n1 + n2), 4)).flatmap(lambda n: st.tuples(
            st.just(spec1), st.permutations(range(n)).map(lambda p: tuple(p[:n1])),
            st.just(spec2), st.permutations(range(n)).map(lambda p: tuple(p[:n2])),
            st.sampled_from(degrees)))

    others = sorted(standard_gates())
    other = st.sampled_from(others).flatmap(lambda name: _op_spec(name, "either" if symbolic else False))
    query = st.tuples(_op_spec(subject, symbolic), other).flatmap(one_query)
    return st.lists(query, min_size=1, max_size=2)


def _identity_fidelity(spec):
    """Average gate fidelity of an operation to the identity on its own qubits."""
    u = operation_matrix(spec)
    d = u.shape[0]
    return (d * abs(np.trace(u) / d) ** 2 + 1) / (d + 1)


def _commutation_truth(query, values1=None, values2=None):
    """(|AB - BA|, average gate fidelity of AB and BA, number of qubits) on the union."""
    spec1, q1, spec2, q2, _ = query
    union = sorted(set(q1) | set(q2))
    where = {q: i for i, q in enumerate(union)}
    n = len(union)
    a = embed(operation_matrix(spec1, values1), [where[q] for q in q1], n)
    b = embed(operation_matrix(spec2, values2), [where[q] for q in q2], n)
    d = 2 ** n
    process = abs(np.trace((a @ b) @ (b @ a).conj().T) / d) ** 2
    return commutator_size(a, b), (d * process + 1) / (d + 1), n


def _commutation_expectation(query):
    """True/False where the documented criterion decides, None in the gray zone.

    Documented (CommutationChecker docstring): True means the operations truly commute;
    False means they do not or the check was skipped (too many qubits for matrices).
    'Commute' is average gate fidelity of AB and BA above approximation_degree (up to 1e-12).
    """
    spec1, q1, spec2, q2, degree = query
    symbolic = "symbolic" in (spec1[1], spec2[1])
    if symbolic:
        # Commuting for every value is required; one sampled value that does not commute
        # makes True wrong. Nothing forces True (the check may be skipped).
        for v in SYMBOL_SAMPLES:
            count1 = standard_gates()[spec1[0]][2]
            count2 = standard_gates()[spec2[0]][2]
            _, fidelity, _ = _commutation_truth(query, [v * (i + 1) for i in range(count1)],
                                                [v - i for i in range(count2)])
            if fidelity < degree - 1e-12 - 1e-9:
                return False, f"at parameter value {v}: average fidelity of AB vs BA = {fidelity:.12f}"
        return None, ""
    deviation, fidelity, n = _commutation_truth(query)
    if deviation < EXACT:
        # exact commutation: documented True unless skipped for size
        return (True if n <= 3 else None), f"|AB - BA| = {deviation:.3g}"
    if degree < 1 and max(_identity_fidelity(spec1), _identity_fidelity(spec2)) >= degree - 1e-9:
        # Documented approximation (Qiskit 2.0 release note, shared with RemoveIdentityEquivalent):
        # an operation whose average gate fidelity to the identity reaches approximation_degree
        # may be treated as the identity, which commutes with everything.
        return None, ""
    if fidelity < degree - 1e-12 - 1e-9:
        return False, f"|AB - BA| = {deviation:.3g}, average fidelity of AB vs BA = {fidelity:.12f}"
    return None, ""  # commute only up to a phase, or within the tolerance band: not judged


# Which answers a commutation law judges: "sound" only a True (it must never be given for
# operations that do not commute: the transpiler reorders on it), "complete" only a False for
# operations that commute exactly (documented as possible when the check is skipped "for example"
# for conditions or size, so a missed commutation is a potential bug), None both.
SOUND, COMPLETE = "sound", "complete"


def _judged_answer(expected, direction):
    return expected is not None and (direction is None or expected == (direction == COMPLETE))


def _check_commute(subject, queries, direction=None):
    from qiskit.circuit import CommutationChecker

    checker = CommutationChecker()  # fresh: every earlier answer is part of the example
    for index, query in enumerate(queries):
        spec1, q1, spec2, q2, degree = query
        answer = checker.commute(build_operation(spec1, "a"), list(q1), [], build_operation(spec2, "b"),
                                 list(q2), [], approximation_degree=degree)
        expected, evidence = _commutation_expectation(query)
        if _judged_answer(expected, direction):
            assert bool(answer) == expected, (
                f"query {index + 1}: commute({operation_text(spec1, 'a')} on {list(q1)}, "
                f"{operation_text(spec2, 'b')} on {list(q2)}, approximation_degree={degree}) returned "
                f"{answer}, the matrices say {expected} ({evidence})")


def _reproduce_commute(subject, queries, direction=None):
    gates = sorted({standard_gates()[q[0][0]][0].__name__ for q in queries} |
                   {standard_gates()[q[2][0]][0].__name__ for q in queries})
    lines = ["import numpy as np",
             "from qiskit import QuantumCircuit",
             "from qiskit.circuit import AnnotatedOperation, CommutationChecker, ControlModifier, Parameter",
             f"from qiskit.circuit.library import {', '.join(gates)}",
             "from qiskit.quantum_info import Operator", "",
             "checker = CommutationChecker()"]
    for index, query in enumerate(queries):
        spec1, q1, spec2, q2, degree = query
        expected, evidence = _commutation_expectation(query)
        lines.append(f"answer = checker.commute({operation_text(spec1, 'a')}, {list(q1)}, [], "
                     f"{operation_text(spec2, 'b')}, {list(q2)}, [], approximation_degree={degree})")
        if not _judged_answer(expected, direction):
            continue
        if "symbolic" not in (spec1[1], spec2[1]):
            n = max(max(q1), max(q2)) + 1
            lines += [f"# ground truth: compare A·B with B·A as matrices",
                      f"ab = QuantumCircuit({n}); ab.append({operation_text(spec2, 'a')}, {list(q2)}); "
                      f"ab.append({operation_text(spec1, 'a')}, {list(q1)})",
                      f"ba = QuantumCircuit({n}); ba.append({operation_text(spec1, 'a')}, {list(q1)}); "
                      f"ba.append({operation_text(spec2, 'a')}, {list(q2)})",
                      "deviation = np.max(np.abs(Operator(ab).data - Operator(ba).data))"]
        else:
            lines.append(f"deviation = None  # symbolic: {evidence}")
        lines.append(f"assert answer == {expected}, f'commute() returned {{answer}}; the matrices say "
                     f"{expected} (|AB - BA| = {{deviation}}; {evidence})'")
    return "\n".join(lines) + "\n"


def _describe_commute(subject, queries):
    return "; ".join(f"commute({operation_text(q[0], 'a')} on {list(q[1])}, {operation_text(q[2], 'b')} on "
                     f"{list(q[3])}, approximation_degree={q[4]})" for q in queries)


# =============================================================================================
# query: commutation predicates of Pauli objects (exact: Paulis commute or anticommute).

def _pauli_list_example(max_self=4, max_other=3, phases=True):
    st = _st()
    return st.integers(1, 3).flatmap(lambda n: st.tuples(
        st.lists(pauli_labels(n, phases), min_size=1, max_size=max_self),
        st.lists(pauli_labels(n, phases), min_size=1, max_size=max_other),
        st.booleans()))


def _pauli_qargs_example():
    """Self on n qubits, other on k <= n qubits placed at qargs (or on all when qargs None)."""
    st = _st()
    return st.integers(1, 3).flatmap(lambda n: st.integers(1, n).flatmap(lambda k: st.tuples(
        pauli_labels(n), pauli_labels(k),
        st.permutations(range(n)).map(lambda p: tuple(p[:k])) if k < n else
        st.one_of(st.none(), st.permutations(range(n)).map(tuple)))))


def _placed(other, qargs, n):
    letters = other.lstrip("-i")
    phase = PHASES[other[:len(other) - len(letters)]]
    k = len(letters)
    targets = list(range(k)) if qargs is None else list(qargs)
    # letters[j] is qubit k-1-j of `other`, which sits on register qubit targets[k-1-j]
    return phase * embed(label_matrix(letters), [targets[k - 1 - j] for j in range(k)], n)


def _commutes_matrix(a, b, qubit_wise=False, la=None, lb=None):
    if qubit_wise:
        sa, sb = la.lstrip("-i"), lb.lstrip("-i")
        return all(x == "I" or y == "I" or x == y for x, y in zip(sa, sb))
    return commutator_size(a, b) < EXACT


PAULI_PREDICATES = {}


def _pauli_predicate(name):
    def register(fn):
        PAULI_PREDICATES[name] = fn
        return fn
    return register


@_pauli_predicate("Pauli.commutes")
def _p_commutes(example, run):
    label, other, qargs = example
    n = len(label.lstrip("-i"))
    truth = commutator_size(label_matrix(label), _placed(other, qargs, n)) < EXACT
    call = f"Pauli({label!r}).commutes(Pauli({other!r}), qargs={list(qargs) if qargs else None})"
    return call, truth


@_pauli_predicate("Pauli.anticommutes")
def _p_anticommutes(example, run):
    label, other, qargs = example
    n = len(label.lstrip("-i"))
    truth = anticommutator_size(label_matrix(label), _placed(other, qargs, n)) < EXACT
    call = f"Pauli({label!r}).anticommutes(Pauli({other!r}), qargs={list(qargs) if qargs else None})"
    return call, truth


@_pauli_predicate("PauliList.commutes")
def _pl_commutes(example, run):
    labels, others, _ = example
    other = others[0]
    truth = [commutator_size(label_matrix(l), label_matrix(other)) < EXACT for l in labels]
    return f"list(PauliList({labels!r}).commutes(Pauli({other!r})))", truth


@_pauli_predicate("PauliList.anticommutes")
def _pl_anticommutes(example, run):
    labels, others, _ = example
    other = others[0]
    truth = [anticommutator_size(label_matrix(l), label_matrix(other)) < EXACT for l in labels]
    return f"list(PauliList({labels!r}).anticommutes(Pauli({other!r})))", truth


@_pauli_predicate("PauliList.commutes_with_all")
def _pl_commutes_all(example, run):
    labels, others, _ = example
    truth = [i for i, l in enumerate(labels)
             if all(commutator_size(label_matrix(l), label_matrix(o)) < EXACT for o in others)]
    return f"sorted(int(i) for i in PauliList({labels!r}).commutes_with_all(PauliList({others!r})))", truth


@_pauli_predicate("PauliList.anticommutes_with_all")
def _pl_anticommutes_all(example, run):
    labels, others, _ = example
    truth = [i for i, l in enumerate(labels)
             if all(anticommutator_size(label_matrix(l), label_matrix(o)) < EXACT for o in others)]
    return f"sorted(int(i) for i in PauliList({labels!r}).anticommutes_with_all(PauliList({others!r})))", truth


def _grouping_truth(labels, groups, qubit_wise):
    """A partition is right when its groups are pairwise commuting and together are the input."""
    flat = sorted(l for g in groups for l in g)
    if flat != sorted(labels):
        return f"the groups {groups} are not a partition of the input {labels}"
    for group in groups:
        for i, a in enumerate(group):
            for b in group[i + 1:]:
                if not _commutes_matrix(label_matrix(a), label_matrix(b), qubit_wise, a, b):
                    kind = "qubit-wise commute" if qubit_wise else "commute"
                    return f"group {group} holds {a} and {b}, which do not {kind}"
    return None


@_pauli_predicate("PauliList.group_commuting")
def _pl_group(example, run):
    labels, _, qubit_wise = example
    call = f"[g.to_labels() for g in PauliList({labels!r}).group_commuting(qubit_wise={qubit_wise})]"
    return call, ("partition", labels, qubit_wise)


@_pauli_predicate("PauliList.group_qubit_wise_commuting")
def _pl_group_qw(example, run):
    labels, _, _ = example
    return f"[g.to_labels() for g in PauliList({labels!r}).group_qubit_wise_commuting()]", ("partition", labels, True)


@_pauli_predicate("SparsePauliOp.group_commuting")
def _spo_group(example, run):
    labels, _, qubit_wise = example
    # coefficients label each term so that the partition keeps terms with their coefficients
    terms = [(l.lstrip("-i"), complex(i + 1, -i)) for i, l in enumerate(labels)]
    call = (f"[[(p.to_label(), complex(c)) for p, c in zip(g.paulis, g.coeffs)] for g in "
            f"SparsePauliOp.from_list({terms!r}).group_commuting(qubit_wise={qubit_wise})]")
    return call, ("terms", terms, qubit_wise)


def _graph_truth(labels, qubit_wise):
    return sorted((i, j) for i in range(len(labels)) for j in range(i + 1, len(labels))
                  if not _commutes_matrix(label_matrix(labels[i]), label_matrix(labels[j]), qubit_wise,
                                          labels[i], labels[j]))


@_pauli_predicate("PauliList.noncommutation_graph")
def _pl_graph(example, run):
    labels, _, qubit_wise = example
    call = (f"sorted(tuple(sorted(e)) for e in PauliList({labels!r}).noncommutation_graph("
            f"qubit_wise={qubit_wise}).edge_list())")
    return call, _graph_truth(labels, qubit_wise)


@_pauli_predicate("SparsePauliOp.noncommutation_graph")
def _spo_graph(example, run):
    labels, _, qubit_wise = example
    bare = [l.lstrip("-i") for l in labels]
    terms = [(l, 1.0) for l in bare]
    call = (f"sorted(tuple(sorted(e)) for e in SparsePauliOp.from_list({terms!r}).noncommutation_graph("
            f"qubit_wise={qubit_wise}).edge_list())")
    return call, _graph_truth(bare, qubit_wise)


@_pauli_predicate("QubitSparsePauli.commutes")
def _qsp_commutes(example, run):
    labels, others, _ = example
    a, b = labels[0].lstrip("-i"), others[0].lstrip("-i")
    return (f"QubitSparsePauli.from_label({a!r}).commutes(QubitSparsePauli.from_label({b!r}))",
            commutator_size(label_matrix(a), label_matrix(b)) < EXACT)


@_pauli_predicate("PhasedQubitSparsePauli.commutes")
def _pqsp_commutes(example, run):
    labels, others, _ = example
    a, b = labels[0], others[0]
    return (f"PhasedQubitSparsePauli.from_pauli(Pauli({a!r})).commutes("
            f"PhasedQubitSparsePauli.from_pauli(Pauli({b!r})))",
            commutator_size(label_matrix(a), label_matrix(b)) < EXACT)


@_pauli_predicate("SparseObservable.commutes")
def _obs_commutes(example, run):
    # terms use the whole documented alphabet (Paulis and projectors 0 1 + - r l)
    labels, others, _ = example
    table = str.maketrans("IXYZ", "I+r0")
    left = [(l.lstrip("-i"), 1.0) for l in labels]
    right = [(o.lstrip("-i").translate(table) if i % 2 else o.lstrip("-i"), complex(1, i)) for i, o in enumerate(others)]
    a = sum(c * label_matrix(l) for l, c in left)
    b = sum(c * label_matrix(l) for l, c in right)
    size = commutator_size(a, b)
    truth = True if size < EXACT else (False if size > 1e-6 else None)
    return f"SparseObservable.from_list({left!r}).commutes(SparseObservable.from_list({right!r}))", truth


def _pauli_subjects():
    import qiskit.quantum_info as qi

    found = []
    for name in PAULI_PREDICATES:
        cls, method = name.split(".")
        if hasattr(getattr(qi, cls, None), method):
            found.append(name)
    return sorted(found)


def _pauli_strategy(subject):
    if subject.startswith("Pauli."):
        return _pauli_qargs_example()
    return _pauli_list_example()


# The classes a predicate's call may name; the newer ones (SparseObservable from 1.3,
# QubitSparsePauli and PhasedQubitSparsePauli from 2.1) are imported only where the release
# has them, so the older classes' subjects still run on older releases.
PAULI_CLASSES = ("Pauli", "PauliList", "PhasedQubitSparsePauli", "QubitSparsePauli", "SparseObservable",
                 "SparsePauliOp")


def _pauli_classes():
    import qiskit.quantum_info as qi

    return [name for name in PAULI_CLASSES if hasattr(qi, name)]


def _pauli_header():
    return f"import numpy as np\nfrom qiskit.quantum_info import {', '.join(_pauli_classes())}\n\n"


def _pauli_evaluate(call):
    import qiskit.quantum_info as qi

    return eval(call, {"np": np, **{name: getattr(qi, name) for name in _pauli_classes()}})


def _pauli_verdict(subject, example):
    """(call text, answer, None or violation message)."""
    call, truth = PAULI_PREDICATES[subject](example, None)
    answer = _pauli_evaluate(call)
    if isinstance(truth, tuple) and truth and truth[0] == "partition":
        _, labels, qubit_wise = truth
        return call, answer, _grouping_truth(labels, answer, qubit_wise)
    if isinstance(truth, tuple) and truth and truth[0] == "terms":
        _, terms, qubit_wise = truth
        got = sorted((l, (c.real, c.imag)) for g in answer for l, c in g)
        want = sorted((l, (c.real, c.imag)) for l, c in terms)
        if got != want:
            return call, answer, f"the groups {answer} do not hold exactly the input terms {terms}"
        return call, answer, _grouping_truth([t[0] for t in terms], [[l for l, _ in g] for g in answer], qubit_wise)
    if truth is None:
        return call, answer, None
    answer_value = [bool(a) for a in answer] if isinstance(truth, list) and truth and isinstance(truth[0], bool) else answer
    if isinstance(answer_value, (bool, np.bool_)):
        answer_value = bool(answer_value)
    if answer_value != truth:
        return call, answer, f"{call} returned {answer_value}, the matrices say {truth}"
    return call, answer, None


def _check_pauli(subject, example):
    _, _, message = _pauli_verdict(subject, example)
    assert message is None, message


def _reproduce_pauli(subject, example):
    call, truth = PAULI_PREDICATES[subject](example, None)
    text = _pauli_header() + f"answer = {call}\n"
    _, _, message = _pauli_verdict(subject, example)
    if isinstance(truth, tuple):
        # partitions: state the law directly (pairwise commuting groups covering the input)
        qubit_wise = truth[2]
        text += ("groups = [[t[0] if isinstance(t, tuple) else t for t in g] for g in answer]\n"
                 "def commute(a, b):\n"
                 + ("    return all(x == 'I' or y == 'I' or x == y for x, y in zip(a.lstrip('-i'), b.lstrip('-i')))\n"
                    if qubit_wise else
                    "    A, B = Pauli(a).to_matrix(), Pauli(b).to_matrix()\n    return np.allclose(A @ B, B @ A)\n")
                 + "for g in groups:\n    for i, a in enumerate(g):\n        for b in g[i + 1:]:\n"
                 "            assert commute(a, b), f'{a} and {b} share a group but do not commute'\n")
        expected = sorted(truth[1]) if truth[0] == "partition" else sorted((l, c) for l, c in truth[1])
        got = ("sorted(l for g in groups for l in g)" if truth[0] == "partition"
               else "sorted((l, c) for g in answer for l, c in g)")
        text += f"assert {got} == {expected!r}, 'the groups are not a partition of the input'\n"
        return text
    return text + f"assert answer == {truth!r}, {(message or 'law violated')!r} + ' (got ' + repr(answer) + ')'\n"


# =============================================================================================
# query: equality and equivalence predicates against matrices, at documented tolerances.

TOLERANCES = [None, (1e-5, 1e-8), (0.0, 1e-3), (0.0, 1e-12), (1e-3, 0.0)]
RELATIONS = ["same", "phase", "perturb", "other", "scaled"]


def _random_unitary(seed, n):
    return np.round(oracle_core.haar_unitary(np.random.default_rng(seed), 2 ** n), 6)


def _perturbation(seed, shape, scale, single):
    rng = np.random.default_rng(seed + 7)
    e = np.zeros(shape, dtype=complex)
    if single:
        e.flat[rng.integers(e.size)] = cmath.exp(1j * rng.uniform(0, 2 * math.pi))
    else:
        e = np.exp(1j * rng.uniform(0, 2 * math.pi, size=shape))
    return scale * e


def _pair_strategy():
    st = _st()
    return st.tuples(st.integers(0, 10 ** 6), st.integers(1, 2), st.sampled_from(RELATIONS), angles(),
                     st.sampled_from([1e-13, 1e-10, 1e-7, 1e-5, 1e-3, 0.1]), st.booleans(),
                     st.sampled_from(range(len(TOLERANCES))))


def _pair_matrices(example, kind):
    """The two objects' data (matrix, vector or density matrix) for a relation."""
    seed, n, relation, angle, scale, single, _ = example
    u = _random_unitary(seed, n)
    base = {"operator": u, "vector": u[:, 0], "density": np.outer(u[:, 0], u[:, 0].conj())}[kind]
    if relation == "same":
        other = base.copy()
    elif relation == "phase":
        other = base * cmath.exp(1j * angle) if kind != "density" else base.copy()
    elif relation == "perturb":
        other = base * (cmath.exp(1j * angle) if kind != "density" else 1) + _perturbation(seed, base.shape, scale, single)
    elif relation == "scaled":
        other = base * (1 + scale)
    else:
        v = _random_unitary(seed + 1, n)
        other = {"operator": v, "vector": v[:, 0], "density": np.outer(v[:, 0], v[:, 0].conj())}[kind]
    return np.round(base, 12), np.round(other, 12)


def _distance_bounds(a, b, up_to_phase):
    """(upper, lower) bounds on min over allowed phases c of max|a - c b|."""
    if not up_to_phase:
        d = float(np.max(np.abs(a - b)))
        return d, d
    c = oracle_core.global_phase_between(b, a)
    upper = float(np.max(np.abs(a - c * b)))
    # For every phase, max|a - c b| >= ||a - c b||_F / sqrt(size), and the Frobenius distance is
    # least at the phase of <b, a>. Computed as a distance, not as |a|^2 + |b|^2 - 2|<a, b>|:
    # that difference cancels to rounding error (1e-16 of 4) whose square root (1e-8) is a
    # "lower bound" far above an atol of 1e-12 for data equal up to phase.
    overlap = np.vdot(b, a)
    best = overlap / abs(overlap) if abs(overlap) > 0 else 1.0
    lower = float(np.linalg.norm(a - best * b)) / math.sqrt(a.size)
    return upper, min(upper, lower)


def _tolerance_truth(a, b, up_to_phase, rtol, atol):
    """True/False where allclose(a, c b, rtol, atol) is clear for the best phase c, else None."""
    upper, lower = _distance_bounds(a, b, up_to_phase)
    if upper <= atol / MARGIN or upper == 0:
        return True
    if lower > MARGIN * (atol + rtol * float(np.max(np.abs(b)))):
        return False
    return None


EQUALITY = {  # subject -> (kind, phase-insensitive?, tolerance argument style)
    "Operator.equiv": ("operator", True, "rtol-atol"),
    "Operator.__eq__": ("operator", False, None),
    "Statevector.equiv": ("vector", True, "rtol-atol"),
    "Statevector.__eq__": ("vector", False, None),
    "DensityMatrix.__eq__": ("density", False, None),
    "SparsePauliOp.equiv": ("operator", False, "atol"),
}
CONSTRUCTOR = {"operator": "Operator", "vector": "Statevector", "density": "DensityMatrix"}


def _equality_call(subject, example):
    kind, _, style = EQUALITY[subject]
    cls, method = subject.split(".")
    a, b = _pair_matrices(example, kind)
    rtol, atol = TOLERANCES[example[-1]] or (None, None)
    if cls == "SparsePauliOp":
        # built with no tolerance: from_operator drops coefficients below max(atol, rtol), 1e-5 by
        # default, and the law reasons about the data as given, not about what a default dropped
        left, right = (f"SparsePauliOp.from_operator(Operator({_array_text(m)}), atol=0.0, rtol=0.0)" for m in (a, b))
    else:
        left, right = f"{CONSTRUCTOR[kind]}({_array_text(a)})", f"{CONSTRUCTOR[kind]}({_array_text(b)})"
    if method == "__eq__":
        return f"({left} == {right})", DEFAULT_RTOL, DEFAULT_ATOL
    if style == "atol":
        arguments = "" if atol is None else f", atol={atol!r}"
        # SparsePauliOp.equiv compares the Pauli coefficients of the difference (orthogonal basis:
        # coefficient = Tr(P^dag M) / 2^n), with absolute tolerance only
        return f"{left}.equiv({right}{arguments})", 0.0, (DEFAULT_ATOL if atol is None else atol)
    arguments = "" if rtol is None else f", rtol={rtol!r}, atol={atol!r}"
    return (f"{left}.equiv({right}{arguments})", DEFAULT_RTOL if rtol is None else rtol,
            DEFAULT_ATOL if atol is None else atol)


def _equality_expected(subject, example):
    kind, up_to_phase, style = EQUALITY[subject]
    a, b = _pair_matrices(example, kind)
    _, rtol, atol = _equality_call(subject, example)
    if style == "atol":
        # the documented comparison is on Pauli coefficients of the difference
        n = int(round(math.log2(a.shape[0])))
        coefficients = _pauli_coefficients(a - b, n)
        return _tolerance_truth(coefficients, np.zeros_like(coefficients), False, 0.0, atol)
    return _tolerance_truth(a, b, up_to_phase, rtol, atol)


def _pauli_coefficients(matrix, n):
    import itertools

    return np.array([np.trace(label_matrix("".join(p)).conj().T @ matrix) / 2 ** n
                     for p in itertools.product("IXYZ", repeat=n)])


def _check_equality(subject, example):
    from qiskit.quantum_info import DensityMatrix, Operator, SparsePauliOp, Statevector  # noqa: F401

    expected = _equality_expected(subject, example)
    if expected is None:
        return
    call, rtol, atol = _equality_call(subject, example)
    answer = bool(eval(call, {"np": np, **locals()}))
    assert answer == expected, (f"{subject} returned {answer} where the data say {expected} "
                                f"(rtol={rtol}, atol={atol}; input: {_describe_pair(subject, example)})")


def _describe_pair(subject, example):
    seed, n, relation, angle, scale, single, tol = example
    return (f"{n}-qubit data (seed {seed}), second = {relation}"
            + (f" with phase {angle!r}" if relation in ("phase", "perturb") else "")
            + (f" plus {'one entry' if single else 'every entry'} moved by {scale}" if relation == "perturb" else "")
            + (f" times (1 + {scale})" if relation == "scaled" else "")
            + f", tolerances (rtol, atol) = {TOLERANCES[tol]}")


def _reproduce_equality(subject, example):
    call, rtol, atol = _equality_call(subject, example)
    expected = _equality_expected(subject, example)
    up_to = "up to global phase " if EQUALITY[subject][1] else ""
    return ("import numpy as np\nfrom qiskit.quantum_info import DensityMatrix, Operator, SparsePauliOp, Statevector\n\n"
            f"# the two data are {'equal' if expected else 'different'} {up_to}well "
            f"{'inside' if expected else 'outside'} rtol={rtol}, atol={atol}\n"
            f"answer = {call}\n"
            f"assert answer == {expected}, f'{subject} returned {{answer}}, expected {expected}'\n")


# -- equality of stabilizer objects and circuits: the operator decides --------------------

CLIFFORD_GATES = ["h", "s", "sdg", "x", "y", "z", "sx", "cx", "cz", "swap"]
PARAMETRIC_GATES = ["rx", "ry", "rz", "p", "cp", "crx", "rzz", "u"]


def _gate_strategy(names, n, parametric=True):
    st = _st()

    def one(name):
        arity = oracle_core.GATE_ARITY[name]
        count = {"rx": 1, "ry": 1, "rz": 1, "p": 1, "cp": 1, "crx": 1, "rzz": 1, "u": 3}.get(name, 0)
        return st.tuples(st.just(name), st.tuples(*[angles()] * count),
                         st.permutations(range(n)).map(lambda p: tuple(p[:arity])))

    usable = [g for g in names if oracle_core.GATE_ARITY[g] <= n]
    return st.sampled_from(usable).flatmap(one)


def _circuit_strategy(names, max_qubits=2, max_length=6):
    st = _st()
    return st.integers(1, max_qubits).flatmap(lambda n: st.tuples(
        st.just(n), st.lists(_gate_strategy(names, n), max_size=max_length), st.sampled_from([0.0, math.pi / 2, -1.25])))


def circuit_text(name, circuit):
    n, ops, phase = circuit
    lines = [f"{name} = QuantumCircuit({n}, global_phase={phase!r})"]
    for gate, params, qubits in ops:
        arguments = [repr(float(p)) for p in params] + [str(q) for q in qubits]
        lines.append(f"{name}.{gate}({', '.join(arguments)})")
    return "\n".join(lines)


def build_circuit(circuit):
    from qiskit import QuantumCircuit

    n, ops, phase = circuit
    qc = QuantumCircuit(n, global_phase=phase)
    for gate, params, qubits in ops:
        getattr(qc, gate)(*[float(p) for p in params], *qubits)
    return qc


def circuit_unitary(circuit):
    n, ops, phase = circuit
    return cmath.exp(1j * phase) * oracle_core.unitary([(g, tuple(p), tuple(q)) for g, p, q in ops], n)


def _second_circuit(circuit, relation, names, insert_at):
    """The second circuit: a copy with cancelling pairs inserted, a changed gate, or a copy."""
    n, ops, phase = circuit
    ops = list(ops)
    if relation == "identity-insertion":
        pairs = {"h": ["h", "h"], "s": ["s", "sdg"], "x": ["x", "x"], "sx": ["sx", "sx", "sx", "sx"]}
        name = sorted(pairs)[insert_at % len(pairs)]
        where = insert_at % (len(ops) + 1)
        ops[where:where] = [(g, (), (insert_at % n,)) for g in pairs[name]]
    elif relation == "phase-changed":
        phase = phase + math.pi / 2
    elif relation == "gate-changed" and ops:
        g, p, q = ops[insert_at % len(ops)]
        replacement = "z" if g != "z" else "x"
        ops[insert_at % len(ops)] = (replacement, (), (q[0],))
    elif relation == "angle-changed":
        for i, (g, p, q) in enumerate(ops):
            if p:
                ops[i] = (g, (p[0] + 10 ** -(insert_at % 12 + 1),) + tuple(p[1:]), q)
                break
    return n, ops, phase


STRUCTURAL_EQUALITY = {  # subject -> (gate set, what the equality means, expression)
    "Clifford.__eq__": (CLIFFORD_GATES, "phase", "Clifford(first) == Clifford(second)"),
    "StabilizerState.equiv": (CLIFFORD_GATES, "state", "StabilizerState(first).equiv(StabilizerState(second))"),
    "StabilizerState.__eq__": (CLIFFORD_GATES, "state-sound", "StabilizerState(first) == StabilizerState(second)"),
    "QuantumCircuit.__eq__": (CLIFFORD_GATES + PARAMETRIC_GATES, "exact-sound", "first == second"),
    "DAGCircuit.__eq__": (CLIFFORD_GATES + PARAMETRIC_GATES, "exact-sound", "circuit_to_dag(first) == circuit_to_dag(second)"),
}


def _structural_strategy(subject):
    st = _st()
    names = STRUCTURAL_EQUALITY[subject][0]
    return st.tuples(_circuit_strategy(names), st.sampled_from(
        ["same", "identity-insertion", "phase-changed", "gate-changed", "angle-changed"]), st.integers(0, 50),
        _circuit_strategy(names))


def _structural_pair(subject, example):
    circuit, relation, insert_at, unrelated = example
    if relation == "unrelated":
        return circuit, unrelated
    return circuit, _second_circuit(circuit, relation, STRUCTURAL_EQUALITY[subject][0], insert_at)


def _structural_expected(subject, example):
    """True/False that the law requires of the answer, or 'True implies' for sound-only laws."""
    first, second = _structural_pair(subject, example)
    meaning = STRUCTURAL_EQUALITY[subject][1]
    if first[0] != second[0]:
        return None
    u, v = circuit_unitary(first), circuit_unitary(second)
    if meaning in ("state", "state-sound"):
        verdict = oracle_core.compare_states(u[:, 0], v[:, 0], atol=1e-9)["verdict"]
        same = verdict != oracle_core.NOT_EQUAL
    elif meaning == "phase":
        same = oracle_core.compare_unitaries(u, v, atol=1e-9)["verdict"] != oracle_core.NOT_EQUAL
    else:
        same = oracle_core.compare_unitaries(u, v, atol=1e-9)["verdict"] == oracle_core.EQUAL
    if meaning.endswith("-sound"):
        return None if same else False  # equal structures must mean equal operators
    return same


def _check_structural(subject, example):
    from qiskit.converters import circuit_to_dag  # noqa: F401
    from qiskit.quantum_info import Clifford, StabilizerState  # noqa: F401

    expected = _structural_expected(subject, example)
    if expected is None:
        return
    first, second = (build_circuit(c) for c in _structural_pair(subject, example))
    answer = bool(eval(STRUCTURAL_EQUALITY[subject][2], {**locals()}))
    assert answer == expected, (f"{STRUCTURAL_EQUALITY[subject][2]} returned {answer}, but the circuits' "
                                f"{'states' if 'state' in STRUCTURAL_EQUALITY[subject][1] else 'operators'} are "
                                f"{'equal' if expected else 'different'} ({_describe_structural(subject, example)})")


def _describe_structural(subject, example):
    first, second = _structural_pair(subject, example)
    return circuit_text("first", first).replace("\n", "; ") + " | " + circuit_text("second", second).replace("\n", "; ")


def _reproduce_structural(subject, example):
    first, second = _structural_pair(subject, example)
    expected = _structural_expected(subject, example)
    meaning = STRUCTURAL_EQUALITY[subject][1]
    truth = {"phase": "Operator(first).equiv(Operator(second))",
             "state": "Statevector(first).equiv(Statevector(second))",
             "state-sound": "Statevector(first).equiv(Statevector(second))",
             "exact-sound": "Operator(first) == Operator(second)"}[meaning]
    return ("from qiskit import QuantumCircuit\nfrom qiskit.converters import circuit_to_dag\n"
            "from qiskit.quantum_info import Clifford, Operator, StabilizerState, Statevector\n\n"
            f"{circuit_text('first', first)}\n{circuit_text('second', second)}\n"
            f"print('ground truth (matrices):', {truth})  # expected {expected}\n"
            f"answer = {STRUCTURAL_EQUALITY[subject][2]}\n"
            f"assert answer == {expected}, f'equality returned {{answer}}; the matrices say {expected}'\n")


# =============================================================================================
# query: property predicates (unitary, valid state, CP / TP / CPTP channel) against matrices.

CHANNELS = ["Choi", "SuperOp", "Kraus", "Chi", "PTM", "Stinespring"]
CHANNEL_PREDICATES = ["is_unitary", "is_cptp", "is_tp", "is_cp"]


def _property_subjects():
    import qiskit.quantum_info as qi

    found = ["Operator.is_unitary", "SparsePauliOp.is_unitary", "ScalarOp.is_unitary",
             "Statevector.is_valid", "DensityMatrix.is_valid"]
    found += [f"{c}.{p}" for c in CHANNELS for p in CHANNEL_PREDICATES if hasattr(getattr(qi, c, None), p)]
    return [s for s in found if hasattr(getattr(qi, s.split(".")[0], None), s.split(".")[1])]


def _property_strategy(subject):
    st = _st()
    return st.tuples(st.integers(0, 10 ** 6), st.integers(1, 2 if not subject.split(".")[0] in CHANNELS else 1),
                     st.sampled_from(["exact", "scaled", "perturb", "mixture", "signed"]),
                     st.sampled_from([1e-13, 1e-10, 1e-7, 1e-5, 1e-3, 0.1]), st.booleans(),
                     st.sampled_from(range(len(TOLERANCES))))


def _kraus_terms(example, allow_signs):
    """[(sign, K)]: the map rho -> sum sign K rho K^dag."""
    seed, n, shape, scale, single, _ = example
    u, v = _random_unitary(seed, n), _random_unitary(seed + 1, n)
    if shape == "exact":
        return [(1, u)]
    if shape == "scaled":
        return [(1, u * math.sqrt(1 + scale))]
    if shape == "perturb":
        return [(1, u + _perturbation(seed, u.shape, scale, single))]
    p = 0.5 if single else 0.25
    sign = -1 if (shape == "signed" and allow_signs) else 1
    return [(1, math.sqrt(1 - p + (0 if sign > 0 else 2 * p)) * u), (sign, math.sqrt(p) * v)]


def _superop_matrix(terms):
    # column-stacking vectorisation: vec(K rho K^dag) = (conj(K) (x) K) vec(rho)
    return sum(s * np.kron(k.conj(), k) for s, k in terms)


def _property_data(subject, example):
    """(construction text, tolerance scale data) for the object the predicate is asked about."""
    cls, predicate = subject.split(".")
    seed, n, shape, scale, single, _ = example
    u = _random_unitary(seed, n)
    if cls in ("Operator", "SparsePauliOp", "ScalarOp"):
        if cls == "ScalarOp":
            coefficient = {"exact": cmath.exp(1j * seed), "scaled": 1 + scale}.get(shape, 1 + scale * 1j)
            return f"ScalarOp({2 ** n}, coeff={_c(coefficient)})", coefficient * np.eye(2 ** n)
        m = {"exact": u, "scaled": u * (1 + scale)}.get(shape, u + _perturbation(seed, u.shape, scale, single))
        m = np.round(m, 12)
        text = f"Operator({_array_text(m)})"
        return (f"SparsePauliOp.from_operator({text})" if cls == "SparsePauliOp" else text), m
    if cls == "Statevector":
        v = u[:, 0] * (1 + (scale if shape != "exact" else 0))
        return f"Statevector({_array_text(v)})", v
    if cls == "DensityMatrix":
        w = u[:, 1] if u.shape[0] > 1 else u[:, 0]
        terms = _kraus_terms(example, allow_signs=True)
        weights = [s * np.trace(k @ k.conj().T).real / u.shape[0] for s, k in terms]
        rho = weights[0] * np.outer(u[:, 0], u[:, 0].conj()) + (weights[1] * np.outer(w, w.conj()) if len(weights) > 1 else 0)
        return f"DensityMatrix({_array_text(np.round(rho, 12))})", np.round(rho, 12)
    terms = _kraus_terms(example, allow_signs=cls not in ("Kraus", "Stinespring"))
    if cls in ("Kraus", "Stinespring"):
        inner = "Kraus([" + ", ".join(_array_text(math.sqrt(abs(s)) * k) for s, k in terms) + "])"
        return (inner if cls == "Kraus" else f"Stinespring({inner})"), terms
    superop = f"SuperOp({_array_text(_superop_matrix(terms))})"
    return (superop if cls == "SuperOp" else f"{cls}({superop})"), terms


def _deviation_truth(deviation, scale_value, rtol, atol):
    # a zero (or sub-rounding) tolerance cannot promise True to floating-point arithmetic
    if deviation <= atol / MARGIN and atol >= 1e-10:
        return True
    if deviation > MARGIN * (atol + rtol * scale_value):
        return False
    return None


def _property_expected(subject, example):
    cls, predicate = subject.split(".")
    rtol, atol = TOLERANCES[example[-1]] or (DEFAULT_RTOL, DEFAULT_ATOL)
    _, data = _property_data(subject, example)
    if predicate == "is_unitary" and cls not in CHANNELS:
        m = np.asarray(data)
        return _deviation_truth(float(np.max(np.abs(m @ m.conj().T - np.eye(m.shape[0])))), 1.0, rtol, atol)
    if cls == "Statevector":
        return _deviation_truth(abs(float(np.linalg.norm(data)) - 1), 1.0, rtol, atol)
    if cls == "DensityMatrix":
        eigenvalues = np.linalg.eigvalsh(data)
        trace_gap = abs(np.trace(data) - 1)
        return _combine([_deviation_truth(trace_gap, 1.0, rtol, atol),
                         _deviation_truth(max(0.0, -float(eigenvalues.min())), 1.0, rtol, atol)])
    terms = data
    dim = terms[0][1].shape[0]
    tp = _deviation_truth(float(np.max(np.abs(sum(s * k.conj().T @ k for s, k in terms) - np.eye(dim)))), 1.0, rtol, atol)
    gram = sum(s * np.outer(k.reshape(-1), k.reshape(-1).conj()) for s, k in terms)
    cp = _deviation_truth(max(0.0, -float(np.linalg.eigvalsh(gram).min())), 1.0, rtol, atol)
    if predicate == "is_tp":
        return tp
    if predicate == "is_cp":
        return cp
    if predicate == "is_cptp":
        return _combine([tp, cp])
    # a unitary channel is a CP map whose superoperator is unitary (it preserves the
    # Hilbert-Schmidt inner product), i.e. rho -> U rho U^dag
    s = _superop_matrix(terms)
    return _combine([cp, _deviation_truth(float(np.max(np.abs(s @ s.conj().T - np.eye(s.shape[0])))), 1.0, rtol, atol)])


def _combine(truths):
    """All must hold: False if any is clearly False, True if all clearly True, else unknown."""
    if any(t is False for t in truths):
        return False
    if all(t is True for t in truths):
        return True
    return None


def _property_call(subject, example):
    cls, predicate = subject.split(".")
    text, _ = _property_data(subject, example)
    tolerance = TOLERANCES[example[-1]]
    if subject == "Clifford.is_unitary" or tolerance is None:
        return f"{text}.{predicate}()"
    return f"{text}.{predicate}(atol={tolerance[1]!r}, rtol={tolerance[0]!r})"


def _check_property(subject, example):
    import qiskit.quantum_info as qi

    expected = _property_expected(subject, example)
    if expected is None:
        return
    call = _property_call(subject, example)
    answer = bool(eval(call, {"np": np, **{c: getattr(qi, c) for c in dir(qi) if c[:1].isupper()}}))
    assert answer == expected, (f"{subject} returned {answer}, the matrices say {expected} "
                                f"({_describe_property(subject, example)})")


def _describe_property(subject, example):
    seed, n, shape, scale, single, tol = example
    return (f"{n}-qubit object (seed {seed}) of shape {shape!r}"
            + (f" at scale {scale}" if shape != "exact" else "") + f", (rtol, atol) = {TOLERANCES[tol]}")


def _reproduce_property(subject, example):
    expected = _property_expected(subject, example)
    return ("import numpy as np\nfrom qiskit.quantum_info import (Chi, Choi, DensityMatrix, Kraus, Operator, PTM, "
            "ScalarOp, SparsePauliOp, Statevector, Stinespring, SuperOp)\n\n"
            f"answer = {_property_call(subject, example)}\n"
            f"assert answer == {expected}, f'{subject} returned {{answer}}, expected {expected}'\n")


# =============================================================================================
# param: binding equals building with numbers; expression values; gradients.

def _parametric_gate_subjects():
    return sorted(name for name, (_, k, count) in standard_gates().items() if count and k <= 3)


EXPRESSIONS = [  # how a gate parameter depends on the circuit parameters x, y
    ("x", lambda x, y: x), ("-x", lambda x, y: -x), ("2*x - y", lambda x, y: 2 * x - y),
    ("x/3 + 0.5", lambda x, y: x / 3 + 0.5), ("x*y", lambda x, y: x * y), ("-(y - x)", lambda x, y: x - y)]
BIND_FORMS = ["dict", "sequence", "vector-dict", "inplace", "two-steps", "by-name"]


def _assign_strategy(subject):
    st = _st()
    _, _, count = standard_gates()[subject]
    return st.tuples(st.lists(st.integers(0, len(EXPRESSIONS) - 1), min_size=count, max_size=count),
                     angles(), angles(), st.sampled_from(BIND_FORMS), st.integers(0, len(EXPRESSIONS) - 1))


def _assign_program(subject, example):
    """The statements building the symbolic circuit, binding it, and the numeric circuit."""
    forms, x, y, bind_form, phase_form = example
    cls = standard_gates()[subject][0].__name__
    _, k, _ = standard_gates()[subject]
    vector = bind_form == "vector-dict"
    lines = [f"v = ParameterVector('v', 2)" if vector else "x, y = Parameter('x'), Parameter('y')"]
    if vector:
        lines.append("x, y = v[0], v[1]")
    symbolic = ", ".join(EXPRESSIONS[i][0] for i in forms)
    numeric = ", ".join(repr(float(EXPRESSIONS[i][1](x, y))) for i in forms)
    qubits = ", ".join(str(q) for q in range(k))
    phase_text, phase_fn = EXPRESSIONS[phase_form]
    lines += [f"symbolic = QuantumCircuit({k}, global_phase={phase_text})",
              f"symbolic.append({cls}({symbolic}), [{qubits}])",
              f"numeric = QuantumCircuit({k}, global_phase={float(phase_fn(x, y))!r})",
              f"numeric.append({cls}({numeric}), [{qubits}])"]
    # strict=True (the default) rejects parameters the circuit lacks: bind those it has
    values = f"{{p: value for p, value in {{x: {x!r}, y: {y!r}}}.items() if p in symbolic.parameters}}"
    binding = {
        "dict": f"bound = symbolic.assign_parameters({values})",
        "sequence": f"bound = symbolic.assign_parameters([{{x: {x!r}, y: {y!r}}}[p] for p in symbolic.parameters])",
        "vector-dict": f"bound = symbolic.assign_parameters({{v: [{x!r}, {y!r}]}}, strict=False)",
        "inplace": f"bound = symbolic.copy()\nbound.assign_parameters({values}, inplace=True)",
        "two-steps": f"bound = symbolic.assign_parameters({{x: {x!r}}}, strict=False).assign_parameters({{y: {y!r}}}, strict=False)",
        "by-name": f"bound = symbolic.assign_parameters({{p.name: value for p, value in {values}.items()}})",
    }[bind_form]
    return "\n".join(lines) + "\n" + binding + "\n"


def _assign_run(subject, example):
    from qiskit import QuantumCircuit  # noqa: F401
    from qiskit.circuit import Parameter, ParameterVector  # noqa: F401
    import qiskit.circuit.library as library

    namespace = {"QuantumCircuit": QuantumCircuit, "Parameter": Parameter, "ParameterVector": ParameterVector,
                 **{standard_gates()[subject][0].__name__: standard_gates()[subject][0]}}
    exec(_assign_program(subject, example), namespace)
    return namespace


def _check_assign(subject, example):
    from qiskit.quantum_info import Operator

    namespace = _assign_run(subject, example)
    bound, numeric = namespace["bound"], namespace["numeric"]
    assert not bound.parameters, f"parameters left after binding every one: {bound.parameters}"
    # independent route for the numbers: the numeric gate's matrix from oracle_core where known
    forms, x, y, _, phase_form = example
    values = [EXPRESSIONS[i][1](x, y) for i in forms]
    _, k, _ = standard_gates()[subject]
    expected = cmath.exp(1j * EXPRESSIONS[phase_form][1](x, y)) * embed(gate_matrix(subject, values), list(range(k)), k)
    actual = Operator(bound).data
    deviation = float(np.max(np.abs(actual - expected)))
    assert deviation < 1e-8, (f"binding x={x!r}, y={y!r} ({_describe_assign(subject, example)}) gives an operator "
                              f"{deviation:.3g} away from the gate built with the numbers (global phase included)")


def _describe_assign(subject, example):
    forms, x, y, bind_form, phase_form = example
    return (f"{standard_gates()[subject][0].__name__}({', '.join(EXPRESSIONS[i][0] for i in forms)}) with "
            f"global_phase={EXPRESSIONS[phase_form][0]}, bound by {bind_form} to x={x!r}, y={y!r}")


def _reproduce_assign(subject, example):
    cls = standard_gates()[subject][0].__name__
    return ("import numpy as np\nfrom qiskit import QuantumCircuit\nfrom qiskit.circuit import Parameter, ParameterVector\n"
            f"from qiskit.circuit.library import {cls}\nfrom qiskit.quantum_info import Operator\n\n"
            + _assign_program(subject, example)
            + "assert not bound.parameters, f'unbound parameters left: {bound.parameters}'\n"
              "deviation = np.max(np.abs(Operator(bound).data - Operator(numeric).data))\n"
              "assert deviation < 1e-8, f'bound circuit differs from the numeric circuit by {deviation}'\n")


# -- expression values and gradients -------------------------------------------------------

UNARY = {  # method -> (reference on complex numbers, real domain predicate, complex allowed?)
    "sin": (cmath.sin, lambda v: True, True), "cos": (cmath.cos, lambda v: True, True),
    "tan": (cmath.tan, lambda v: abs(math.cos(v)) > 1e-3, True), "exp": (cmath.exp, lambda v: v < 30, True),
    "log": (cmath.log, lambda v: v > 1e-6, True), "arcsin": (cmath.asin, lambda v: abs(v) < 1, False),
    "arccos": (cmath.acos, lambda v: abs(v) < 1, False), "arctan": (cmath.atan, lambda v: True, False),
    "abs": (abs, lambda v: True, True), "sign": (lambda v: (complex(v).real > 0) - (complex(v).real < 0), lambda v: True, False),
    "conjugate": (lambda v: complex(v).conjugate(), lambda v: True, True),
}
BINARY = {"__add__": lambda a, b: a + b, "__sub__": lambda a, b: a - b, "__mul__": lambda a, b: a * b,
          "__truediv__": lambda a, b: a / b, "__pow__": lambda a, b: a ** b, "__radd__": lambda a, b: b + a,
          "__rsub__": lambda a, b: b - a, "__rmul__": lambda a, b: b * a, "__rtruediv__": lambda a, b: b / a,
          "__rpow__": lambda a, b: b ** a}
BINARY_TEXT = {"__add__": "{a} + {b}", "__sub__": "{a} - {b}", "__mul__": "{a} * {b}", "__truediv__": "{a} / {b}",
               "__pow__": "{a} ** {b}", "__radd__": "{b} + {a}", "__rsub__": "{b} - {a}", "__rmul__": "{b} * {a}",
               "__rtruediv__": "{b} / {a}", "__rpow__": "{b} ** {a}"}


def _expression_subjects():
    from qiskit.circuit import ParameterExpression

    return sorted([m for m in UNARY if hasattr(ParameterExpression, m)] +
                  [m for m in BINARY if hasattr(ParameterExpression, m)])


def _value():
    st = _st()
    real = st.one_of(st.sampled_from([0.0, 1.0, -1.0, 0.5, -2.5, 3.0]),
                     st.floats(-5, 5, allow_nan=False).filter(lambda v: v == 0 or abs(v) > 1e-3))
    return st.one_of(real, st.tuples(real, real).map(lambda p: complex(*p)))


def _expression_strategy(subject):
    st = _st()
    # the argument is an affine expression in x (a*x + b) so that nested expressions are used
    return st.tuples(_value(), st.sampled_from([1.0, -1.0, 2.0, 0.5]), st.sampled_from([0.0, 0.25, -1.0]),
                     _value(), st.sampled_from(["number", "parameter"]))


def _expression_text(subject, example):
    _, a, b, other, other_kind = example
    inner = f"({a!r} * x + {b!r})"
    if subject in UNARY:
        return f"{inner}.{subject}()"
    right = "y" if other_kind == "parameter" else f"({other!r})"
    return "(" + BINARY_TEXT[subject].format(a=inner, b=right) + ")"


def _expression_reference(subject, example, x=None):
    value, a, b, other, _ = example
    x = value if x is None else x
    inner = a * x + b
    if subject in UNARY:
        return UNARY[subject][0](inner)
    return BINARY[subject](complex(inner), complex(other))


def _expression_in_domain(subject, example):
    value, a, b, other, _ = example
    inner = a * value + b
    if subject in UNARY:
        reference, real_domain, complex_ok = UNARY[subject]
        if isinstance(inner, complex) and inner.imag != 0:
            return complex_ok and abs(inner) < 20 and (subject != "log" or abs(inner) > 1e-6) and (
                subject != "tan" or abs(cmath.cos(inner)) > 1e-3)
        return real_domain(float(inner.real if isinstance(inner, complex) else inner))
    if subject in ("__truediv__",):
        return abs(other) > 1e-3
    if subject == "__rtruediv__":
        return abs(inner) > 1e-3
    if subject == "__pow__":
        return _power_defined(inner, other)
    if subject == "__rpow__":
        return _power_defined(other, inner)
    return True


def _power_defined(base, exponent):
    """A single-valued power: a real exponent that is an integer, or a positive real base
    (other cases depend on a branch choice the docs do not state)."""
    base, exponent = complex(base), complex(exponent)
    if abs(base) < 1e-3 or abs(exponent) > 4 or exponent.imag != 0:
        return False
    return exponent.real.is_integer() or (base.imag == 0 and base.real > 0)


def _bound_value(subject, example, x_value):
    from qiskit.circuit import Parameter

    _, _, _, other, other_kind = example
    x, y = Parameter("x"), Parameter("y")
    expression = eval(_expression_text(subject, example), {"x": x, "y": y})
    binding = {x: x_value}
    if other_kind == "parameter" and subject not in UNARY:
        binding[y] = other
    return expression, expression.bind(binding)


def _close(a, b, rel=1e-9):
    return abs(complex(a) - complex(b)) <= rel * max(1.0, abs(complex(b)))


def _check_expression(subject, example):
    if not _expression_in_domain(subject, example):
        return
    value = example[0]
    _, bound = _bound_value(subject, example, value)
    assert not bound.parameters, f"{bound} still has parameters after binding all"
    got = complex(bound.numeric())
    expected = complex(_expression_reference(subject, example))
    assert _close(got, expected), (f"{_describe_expression(subject, example)} evaluates to {got}, "
                                   f"direct evaluation gives {expected}")


def _describe_expression(subject, example):
    value, _, _, other, other_kind = example
    return (f"{_expression_text(subject, example)} bound at x={value!r}"
            + (f", y={other!r}" if other_kind == "parameter" and subject not in UNARY else ""))


def _expression_binding_text(subject, example, x_value):
    _, _, _, other, other_kind = example
    if other_kind == "parameter" and subject not in UNARY:
        return f"{{x: {x_value!r}, y: {other!r}}}"
    return f"{{x: {x_value!r}}}"


def _reference_text(subject, example):
    return f"{complex(_expression_reference(subject, example))!r}"


def _reproduce_expression(subject, example):
    return ("from qiskit.circuit import Parameter\n\nx, y = Parameter('x'), Parameter('y')\n"
            f"expression = {_expression_text(subject, example)}\n"
            f"value = complex(expression.bind({_expression_binding_text(subject, example, example[0])}).numeric())\n"
            f"expected = {_reference_text(subject, example)}  # the same formula evaluated with Python's cmath\n"
            "assert abs(value - expected) <= 1e-9 * max(1.0, abs(expected)), f'{value} != {expected}'\n")


def _gradient_strategy(subject):
    st = _st()
    real = st.one_of(st.sampled_from([0.3, 1.0, -0.7, 2.0, -2.5]), st.floats(-3, 3, allow_nan=False))
    return st.tuples(real, st.sampled_from([1.0, -1.0, 2.0, 0.5]), st.sampled_from([0.0, 0.25, -1.0]),
                     real, st.sampled_from(["number", "parameter"]))


def _gradient_in_domain(subject, example):
    value, a, b, other, _ = example
    if not _expression_in_domain(subject, example):
        return False
    inner = a * value + b
    step = 1e-3 * abs(a)
    # finite differences need a smooth neighbourhood: away from kinks and domain edges
    if subject in ("abs", "sign") and abs(inner) < 10 * step:
        return False
    if subject in ("arcsin", "arccos") and abs(inner) > 0.95:
        return False
    if subject == "log" and inner < 0.05:
        return False
    if subject in ("__pow__",) and (inner <= 0.05):
        return False
    if subject == "__rpow__" and other <= 0.05:
        return False
    if subject in ("__truediv__", "__rtruediv__") and abs(inner if subject == "__rtruediv__" else other) < 0.05:
        return False
    if subject == "tan" and abs(math.cos(inner)) < 0.05:
        return False
    return subject != "conjugate" or True


def _finite_difference(subject, example):
    """Richardson-extrapolated central difference of the bound values (error ~ h^4)."""
    value = example[0]

    def f(v):
        return complex(_bound_value(subject, example, v)[1].numeric())

    def central(h):
        return (f(value + h) - f(value - h)) / (2 * h)

    h = 1e-3
    return (4 * central(h / 2) - central(h)) / 3


def _check_gradient(subject, example):
    from qiskit.circuit import Parameter

    if not _gradient_in_domain(subject, example):
        return
    expression, _ = _bound_value(subject, example, example[0])
    x = next(p for p in expression.parameters if p.name == "x")
    gradient = expression.gradient(x)
    if hasattr(gradient, "bind"):
        rest = {p: example[3] for p in gradient.parameters if p.name == "y"}
        rest.update({p: example[0] for p in gradient.parameters if p.name == "x"})
        gradient = gradient.bind(rest).numeric()
    got = complex(gradient)
    expected = _finite_difference(subject, example)
    assert abs(got - expected) <= 1e-6 * max(1.0, abs(expected)), (
        f"d/dx {_describe_expression(subject, example)} = {got} by gradient(), {expected} by finite differences")


def _reproduce_gradient(subject, example):
    binding = _expression_binding_text(subject, example, example[0])
    return ("from qiskit.circuit import Parameter, ParameterExpression\n\nx, y = Parameter('x'), Parameter('y')\n"
            f"expression = {_expression_text(subject, example)}\n"
            "def value(at):\n"
            f"    binding = {binding}\n    binding[x] = at\n"
            "    return complex(expression.bind(binding).numeric())\n"
            f"at, h = {example[0]!r}, 1e-3\n"
            "central = lambda step: (value(at + step) - value(at - step)) / (2 * step)\n"
            "finite_difference = (4 * central(h / 2) - central(h)) / 3\n"
            "gradient = expression.gradient(x)\n"
            f"if isinstance(gradient, ParameterExpression):\n"
            f"    binding = {{p: v for p, v in {binding}.items() if p in gradient.parameters}}\n"
            "    gradient = gradient.bind(binding).numeric()\n"
            "gradient = complex(gradient)\n"
            "assert abs(gradient - finite_difference) <= 1e-6 * max(1.0, abs(finite_difference)), "
            "f'gradient {gradient} != finite difference {finite_difference}'\n")


# -- simplification preserves the operator (numeric and parameterized coefficients) --------

SIMPLIFICATIONS = ["SparsePauliOp.simplify", "SparsePauliOp.sort", "SparsePauliOp.assign_parameters",
                   "SparseObservable.simplify", "SparsePauliOp.compose-simplify"]


def _simplify_subjects():
    import qiskit.quantum_info as qi

    # SparseObservable is newer (1.3) than SparsePauliOp: its subject is dropped where it is missing
    return [s for s in SIMPLIFICATIONS
            if hasattr(getattr(qi, s.split(".")[0], None), s.split(".")[1].split("-")[0])]


def _simplify_strategy(subject):
    st = _st()
    coefficient = st.one_of(st.sampled_from([1.0, -1.0, 0.5j, 0.0, 1e-9]),
                            st.tuples(st.floats(-2, 2, allow_nan=False), st.floats(-2, 2, allow_nan=False)).map(lambda p: complex(*p)))
    import importlib.util

    # symbolic coefficients need sympy in SparsePauliOp.simplify (documented optional dependency)
    symbols = ["", "v[0]", "-v[1]", "2*v[0]*v[1]", "v[0] - v[0]"]
    needs_sympy = subject in ("SparsePauliOp.simplify", "SparsePauliOp.compose-simplify")
    symbolic = st.sampled_from(symbols if not needs_sympy or importlib.util.find_spec("sympy") else [""])
    return st.integers(1, 2).flatmap(lambda n: st.tuples(
        st.lists(st.tuples(pauli_labels(n, phases=False), coefficient, symbolic), min_size=1, max_size=5),
        st.tuples(angles(), angles())))


def _simplify_program(subject, example):
    terms, values = example
    parameterized = any(s for _, _, s in terms) and subject.startswith("SparsePauliOp")
    coefficients = ", ".join((f"{_c(c)} * ({s})" if s else _c(c)) if parameterized else _c(c) for _, c, s in terms)
    labels = [l for l, _, _ in terms]
    bind = f"{{p: value for p, value in {{v[0]: {values[0]!r}, v[1]: {values[1]!r}}}.items() if p in result.parameters}}"
    if subject.startswith("SparseObservable"):
        build = f"operator = SparseObservable.from_list(list(zip({labels!r}, [{coefficients}])))"
        return build + "\nresult = operator.simplify()\n", False
    dtype = ", dtype=object" if parameterized else ""
    build = f"v = ParameterVector('v', 2)\noperator = SparsePauliOp({labels!r}, np.array([{coefficients}]{dtype}))"
    operation = {"SparsePauliOp.simplify": "operator.simplify()", "SparsePauliOp.sort": "operator.sort()",
                 "SparsePauliOp.assign_parameters": "operator", "SparsePauliOp.compose-simplify":
                 "operator.compose(operator).simplify()"}[subject]
    program = build + f"\nresult = {operation}\n"
    if parameterized:
        program += f"result = result.assign_parameters({bind})\n"
    return program, parameterized


def _simplify_expected(subject, example):
    terms, values = example
    v = list(values)
    names = {"": 1, "v[0]": v[0], "-v[1]": -v[1], "2*v[0]*v[1]": 2 * v[0] * v[1], "v[0] - v[0]": 0}
    parameterized = any(s for _, _, s in terms) and subject.startswith("SparsePauliOp")
    matrix = sum((c * (names[s] if parameterized else 1)) * label_matrix(l) for l, c, s in terms)
    if subject == "SparsePauliOp.compose-simplify":
        matrix = matrix @ matrix
    return matrix


def sparse_list_matrix(items, n):
    """The matrix of (letters, qubit indices, coefficient) terms, letter i on qubit indices[i]."""
    total = np.zeros((2 ** n, 2 ** n), dtype=complex)
    for letters, indices, coefficient in items:
        term = np.eye(2 ** n, dtype=complex)
        for letter, qubit in zip(letters, indices):
            term = embed(SINGLE[letter], [qubit], n) @ term
        total += coefficient * term
    return total


def _check_simplify(subject, example):
    import qiskit.quantum_info as qi
    from qiskit.circuit import ParameterVector

    program, _ = _simplify_program(subject, example)
    namespace = {"np": np, "ParameterVector": ParameterVector, "SparsePauliOp": qi.SparsePauliOp,
                 "SparseObservable": getattr(qi, "SparseObservable", None)}
    exec(program, namespace)
    result = namespace["result"]
    if subject.startswith("SparseObservable"):
        actual = sparse_list_matrix(result.to_sparse_list(), result.num_qubits)
    else:
        actual = np.asarray(result.to_matrix(), dtype=complex)
    expected = _simplify_expected(subject, example)
    # simplify drops terms below atol=1e-8 (documented); the law allows exactly that much
    allowed = 1e-8 * len(example[0]) * 4 + 1e-12
    deviation = float(np.max(np.abs(actual - expected)))
    assert deviation <= allowed, (f"{subject} changed the operator by {deviation:.3g} "
                                  f"(terms {[(l, c, s) for l, c, s in example[0]]}, values {example[1]})")


def _simplify_class(subject):
    """What a reproducer imports: SparseObservable is newer (1.3) than SparsePauliOp."""
    return "SparseObservable, SparsePauliOp" if subject.startswith("SparseObservable") else "SparsePauliOp"


def _reproduce_simplify(subject, example):
    program, _ = _simplify_program(subject, example)
    terms, values = example
    v = list(values)
    names = {"": "1", "v[0]": repr(v[0]), "-v[1]": repr(-v[1]), "2*v[0]*v[1]": repr(2 * v[0] * v[1]), "v[0] - v[0]": "0"}
    parameterized = any(s for _, _, s in terms) and subject.startswith("SparsePauliOp")
    numbers = ", ".join(f"{_c(c)} * {names[s] if parameterized else '1'}" for _, c, s in terms)
    square = " @ expected" if subject == "SparsePauliOp.compose-simplify" else ""
    return ("import numpy as np\nfrom qiskit.circuit import ParameterVector\n"
            f"from qiskit.quantum_info import Pauli, {_simplify_class(subject)}\n\n"
            + program +
            f"expected = sum(c * Pauli(l).to_matrix() for l, c in zip({[l for l, _, _ in terms]!r}, [{numbers}]))\n"
            f"expected = expected{square}\n"
            + ("actual = SparsePauliOp.from_sparse_observable(result).to_matrix()\n"
               if subject.startswith("SparseObservable") else "actual = result.to_matrix()\n") +
            f"deviation = np.max(np.abs(actual - expected))\n"
            f"assert deviation <= {1e-8 * len(terms) * 4 + 1e-12!r}, f'the operator changed by {{deviation}}'\n")


# =============================================================================================
# structure: metrics against counting the instructions; DAG orders against dependencies.

STRUCTURE_GATES = ["h", "x", "rz", "cx", "cz", "swap", "ccx", "rzz", "u"]
EXTRA = ["measure", "barrier", "reset", "delay"]


def _structure_circuit(min_size=0):
    """(qubits, clbits, [(name, params, qubits, clbits)]) with directives and non-unitaries."""
    st = _st()

    def instruction(n, c):
        def one(name):
            if name == "measure":
                return st.tuples(st.just(name), st.just(()), st.integers(0, n - 1).map(lambda q: (q,)),
                                 st.integers(0, c - 1).map(lambda b: (b,)))
            if name == "barrier":
                return st.tuples(st.just(name), st.just(()), st.lists(st.integers(0, n - 1), min_size=1, max_size=n,
                                                                      unique=True).map(tuple), st.just(()))
            if name in ("reset", "delay"):
                return st.tuples(st.just(name), st.just((10,) if name == "delay" else ()),
                                 st.integers(0, n - 1).map(lambda q: (q,)), st.just(()))
            arity = oracle_core.GATE_ARITY[name]
            count = {"rz": 1, "rzz": 1, "u": 3}.get(name, 0)
            return st.tuples(st.just(name), st.tuples(*[st.sampled_from([0.5, -1.0, math.pi])] * count),
                             st.permutations(range(n)).map(lambda p: tuple(p[:arity])), st.just(()))

        names = [g for g in STRUCTURE_GATES if oracle_core.GATE_ARITY[g] <= n] + (EXTRA if c else EXTRA[1:])
        return st.sampled_from(names).flatmap(one)

    return st.tuples(st.integers(1, 4), st.integers(0, 2)).flatmap(lambda nc: st.tuples(
        st.just(nc[0]), st.just(nc[1]), st.lists(instruction(*nc), min_size=min_size, max_size=12)))


def structure_circuit_text(circuit):
    n, c, ops = circuit
    lines = [f"qc = QuantumCircuit({n}, {c})" if c else f"qc = QuantumCircuit({n})"]
    for name, params, qubits, clbits in ops:
        if name == "barrier":
            lines.append(f"qc.barrier({', '.join(map(str, qubits))})")
        else:
            lines.append(f"qc.{name}({', '.join([repr(p) for p in params] + [str(q) for q in qubits] + [str(b) for b in clbits])})")
    return "\n".join(lines)


def build_structure_circuit(circuit):
    from qiskit import QuantumCircuit

    namespace = {"QuantumCircuit": QuantumCircuit}
    exec(structure_circuit_text(circuit), namespace)
    return namespace["qc"]


def _wires(op, include_clbits=True):
    _, _, qubits, clbits = op
    return [("q", q) for q in qubits] + ([("c", b) for b in clbits] if include_clbits else [])


def count_depth(ops, counted):
    """Length of the longest chain of counted instructions sharing wires, the documented
    'critical path'. An instruction the filter rejects adds no depth but still synchronises
    its wires (QuantumCircuit.depth states this in its source: 'it still functions as a data
    synchronisation point ... think barrier'; its docstring says only 'ignored')."""
    level = {}
    best = 0
    for op in ops:
        wires = _wires(op)
        here = int(counted(op)) + max([level.get(w, 0) for w in wires] or [0])
        for w in wires:
            level[w] = here
        best = max(best, here)
    return best


def count_components(n, c, ops, unitary_only, directives_join=False):
    parent = {w: w for w in ([("q", q) for q in range(n)] + ([] if unitary_only else [("c", b) for b in range(c)]))}

    def find(w):
        while parent[w] != w:
            w = parent[w]
        return w

    for op in ops:
        if op[0] == "barrier" and not directives_join:
            continue  # a directive joins nothing (QuantumCircuit skips `_directive` operations)
        wires = _wires(op, include_clbits=not unitary_only)
        for w in wires[1:]:
            parent[find(w)] = find(wires[0])
    return len({find(w) for w in parent})


def _is_directive(op):
    return op[0] == "barrier"


METRICS = {  # subject -> (expression on qc / dag, independent count)
    "QuantumCircuit.depth": ("qc.depth()", lambda n, c, ops: count_depth(ops, lambda op: not _is_directive(op))),
    "QuantumCircuit.depth(filter_function)": (
        "qc.depth(lambda instruction: len(instruction.qubits) > 1)",
        lambda n, c, ops: count_depth(ops, lambda op: len(op[2]) > 1)),
    "QuantumCircuit.size": ("qc.size()", lambda n, c, ops: sum(not _is_directive(op) for op in ops)),
    "QuantumCircuit.size(filter_function)": (
        "qc.size(lambda instruction: instruction.operation.name == 'cx')", lambda n, c, ops: sum(op[0] == "cx" for op in ops)),
    "QuantumCircuit.count_ops": ("dict(qc.count_ops())", lambda n, c, ops: _counts(ops)),
    "QuantumCircuit.num_nonlocal_gates": (
        "qc.num_nonlocal_gates()",
        lambda n, c, ops: sum(len(op[2]) > 1 and op[0] not in ("barrier",) for op in ops)),
    "QuantumCircuit.width": ("qc.width()", lambda n, c, ops: n + c),
    "QuantumCircuit.num_unitary_factors": ("qc.num_unitary_factors()", lambda n, c, ops: count_components(n, c, ops, True)),
    "QuantumCircuit.num_tensor_factors": ("qc.num_tensor_factors()", lambda n, c, ops: count_components(n, c, ops, True)),
    "QuantumCircuit.num_connected_components": (
        "qc.num_connected_components()", lambda n, c, ops: count_components(n, c, ops, False)),
    "QuantumCircuit.num_connected_components(unitary_only)": (
        "qc.num_connected_components(unitary_only=True)", lambda n, c, ops: count_components(n, c, ops, True)),
    # DAGCircuit.depth/size document no directive filter: every op node counts
    "DAGCircuit.depth": ("circuit_to_dag(qc).depth()", lambda n, c, ops: count_depth(ops, lambda op: True)),
    "DAGCircuit.size": ("circuit_to_dag(qc).size()", lambda n, c, ops: len(ops)),
    "DAGCircuit.count_ops": ("dict(circuit_to_dag(qc).count_ops())", lambda n, c, ops: _counts(ops)),
    "DAGCircuit.two_qubit_ops": ("len(circuit_to_dag(qc).two_qubit_ops())",
                                 lambda n, c, ops: sum(len(op[2]) == 2 and not _is_directive(op) for op in ops)),
    "DAGCircuit.multi_qubit_ops": ("len(circuit_to_dag(qc).multi_qubit_ops())",
                                   lambda n, c, ops: sum(len(op[2]) >= 3 and not _is_directive(op) for op in ops)),
    "DAGCircuit.op_nodes": ("len(circuit_to_dag(qc).op_nodes(include_directives=False))",
                            lambda n, c, ops: sum(not _is_directive(op) for op in ops)),
    "DAGCircuit.width": ("circuit_to_dag(qc).width()", lambda n, c, ops: n + c),
    # the DAG's components: every op node joins its wires (no directive exception documented)
    "DAGCircuit.num_tensor_factors": ("circuit_to_dag(qc).num_tensor_factors()",
                                      lambda n, c, ops: count_components(n, c, ops, False, directives_join=True)),
    "DAGCircuit.count_ops_longest_path": (
        "sum(circuit_to_dag(qc).count_ops_longest_path().values())",
        lambda n, c, ops: count_depth(ops, lambda op: True)),
}


def _counts(ops):
    counts = {}
    for op in ops:
        counts[op[0]] = counts.get(op[0], 0) + 1
    return counts


def _metric_subjects():
    from qiskit import QuantumCircuit
    from qiskit.dagcircuit import DAGCircuit

    classes = {"QuantumCircuit": QuantumCircuit, "DAGCircuit": DAGCircuit}
    return sorted(s for s in METRICS if hasattr(classes[s.split(".")[0]], s.split(".")[1].split("(")[0]))


def _check_metric(subject, circuit):
    from qiskit.converters import circuit_to_dag

    qc = build_structure_circuit(circuit)
    expression, count = METRICS[subject]
    answer = eval(expression, {"qc": qc, "circuit_to_dag": circuit_to_dag})
    expected = count(*circuit)
    assert answer == expected, (f"{expression} = {answer}, counting the instructions gives {expected} "
                                f"for: {structure_circuit_text(circuit)!r}")


def _reproduce_metric(subject, circuit):
    expression, count = METRICS[subject]
    return ("from qiskit import QuantumCircuit\nfrom qiskit.converters import circuit_to_dag\n\n"
            + structure_circuit_text(circuit) + "\n"
            f"answer = {expression}\n"
            f"expected = {count(*circuit)!r}  # counted by hand from the instructions above\n"
            f"assert answer == expected, f'{expression} = {{answer}}, expected {{expected}}'\n")


# -- DAG orders --------------------------------------------------------------------------------

ORDERS = {
    "DAGCircuit.topological_op_nodes": "list(dag.topological_op_nodes())",
    "DAGCircuit.topological_op_nodes(key)": "list(dag.topological_op_nodes(key=lambda node: getattr(node, 'name', '')))",
    "DAGCircuit.topological_op_nodes(reverse)": "list(dag.topological_op_nodes(reverse=True))",
    "DAGCircuit.topological_nodes": "[n for n in dag.topological_nodes() if isinstance(n, DAGOpNode)]",
    "DAGCircuit.topological_nodes(key)": "[n for n in dag.topological_nodes(key=lambda node: getattr(node, 'name', '')) if isinstance(n, DAGOpNode)]",
    "DAGCircuit.serial_layers": "[n for layer in dag.serial_layers() for n in layer['graph'].op_nodes()]",
    "DAGCircuit.layers": "[list(layer['graph'].op_nodes()) for layer in dag.layers()]",
}


def _order_subjects():
    """The traversals this release has, with the arguments each variant passes (reverse= is
    newer than topological_op_nodes itself)."""
    import inspect

    from qiskit.dagcircuit import DAGCircuit

    def available(subject):
        method, _, variant = subject.split(".")[1].partition("(")
        if not hasattr(DAGCircuit, method):
            return False
        needed = [a.strip() for a in variant.rstrip(")").split(",") if a.strip()]
        if not needed:
            return True
        try:
            parameters = inspect.signature(getattr(DAGCircuit, method)).parameters
        except ValueError:  # no introspectable signature: the arguments cannot be told
            return False
        return all(a in parameters for a in needed)

    return sorted(s for s in ORDERS if available(s))


def _wire_sequences(circuit, include_clbits=True):
    """For every wire, the indices of the instructions on it, in program order."""
    sequences = {}
    for index, op in enumerate(circuit[2]):
        for w in _wires(op, include_clbits):
            sequences.setdefault(w, []).append(index)
    return sequences


def _node_signature(node):
    return (node.name, tuple(node.qargs), tuple(node.cargs))


def _match_nodes(circuit, qc, nodes, reverse=False):
    """Instruction indices of the nodes, matching each node to the earliest unused
    instruction with the same name and bits (equal instructions on the same bits are
    ordered by their wires, so the earliest-unused match is the only consistent one)."""
    signatures = [(op.operation.name, tuple(op.qubits), tuple(op.clbits)) for op in qc.data]
    # a reverse order meets equal instructions on the same bits last-first
    candidates = list(range(len(signatures)))[::-1] if reverse else list(range(len(signatures)))
    used, indices = set(), []
    for node in nodes:
        signature = _node_signature(node)
        index = next((i for i in candidates if signatures[i] == signature and i not in used), None)
        assert index is not None, f"node {signature} matches no unused instruction"
        used.add(index)
        indices.append(index)
    return indices


def _order_violation(circuit, order, reverse=False):
    if sorted(order) != list(range(len(circuit[2]))):
        return f"the order {order} does not hold every instruction exactly once"
    position = {index: i for i, index in enumerate(order)}
    for wire, sequence in _wire_sequences(circuit).items():
        for before, after in zip(sequence, sequence[1:]):
            if (position[before] > position[after]) != reverse:
                return (f"instruction {after} ({circuit[2][after][0]}) comes "
                        f"{'after' if reverse else 'before'} instruction {before} ({circuit[2][before][0]}) "
                        f"on wire {wire}")
    return None


def _key_violation(circuit, order, key):
    """Lexicographic topological order: each emitted instruction has the smallest key among
    the instructions whose predecessors were all emitted."""
    predecessors = {i: set() for i in range(len(circuit[2]))}
    for sequence in _wire_sequences(circuit).values():
        for before, after in zip(sequence, sequence[1:]):
            predecessors[after].add(before)
    done = set()
    for index in order:
        ready = [i for i in predecessors if i not in done and predecessors[i] <= done]
        smallest = min(key(circuit[2][i]) for i in ready)
        if key(circuit[2][index]) != smallest:
            return (f"instruction {index} ({circuit[2][index][0]}) was emitted while "
                    f"{[circuit[2][i][0] for i in ready]} were ready: the key {smallest!r} is smaller")
        done.add(index)
    return None


def _check_order(subject, circuit):
    from qiskit.converters import circuit_to_dag
    from qiskit.dagcircuit import DAGOpNode

    qc = build_structure_circuit(circuit)
    dag = circuit_to_dag(qc)
    answer = eval(ORDERS[subject], {"dag": dag, "DAGOpNode": DAGOpNode})
    if subject == "DAGCircuit.layers":
        flat = _match_nodes(circuit, qc, [node for layer in answer for node in layer])
        sizes = [len(layer) for layer in answer]
        layers = [flat[sum(sizes[:i]):sum(sizes[:i + 1])] for i in range(len(sizes))]
        # documented: a layer's gates act on disjoint qubits; as many layers as the depth
        for layer in layers:
            qubits = [q for i in layer for q in circuit[2][i][2]]
            assert len(qubits) == len(set(qubits)), f"layer {layer} acts twice on a qubit: {qubits}"
        expected_depth = count_depth(circuit[2], lambda op: True)  # the DAG's depth: every op node
        order = [i for layer in layers for i in layer]
        message = _order_violation(circuit, order)
        assert message is None, f"layers out of dependency order: {message}"
        assert len(layers) == expected_depth, (
            f"{len(layers)} layers, but the depth is {expected_depth} (documented: 'the total number of layers "
            f"equals the circuit depth')")
        return
    order = _match_nodes(circuit, qc, answer, reverse="reverse" in subject)
    message = _order_violation(circuit, order, reverse="reverse" in subject)
    assert message is None, f"{ORDERS[subject]} breaks a dependency: {message}"
    if "(key)" in subject:
        message = _key_violation(circuit, order, key=lambda op: op[0])
        assert message is None, f"{ORDERS[subject]} does not break ties by the key: {message}"


def _reproduce_order(subject, circuit):
    return ("from qiskit import QuantumCircuit\nfrom qiskit.converters import circuit_to_dag\n"
            "from qiskit.dagcircuit import DAGOpNode\n\n"
            + structure_circuit_text(circuit) + "\n"
            "dag = circuit_to_dag(qc)\n"
            f"answer = {ORDERS[subject]}\n"
            "# the law, stated on the instructions: on every wire, instructions keep program order\n"
            "program = [(i.operation.name, tuple(i.qubits), tuple(i.clbits)) for i in qc.data]\n"
            + ("order = [n for layer in answer for n in layer]\n"
               "for layer in answer:\n"
               "    qubits = [q for n in layer for q in n.qargs]\n"
               "    assert len(qubits) == len(set(qubits)), f'a layer acts twice on a qubit: {qubits}'\n"
               "assert len(answer) == dag.depth(), f'{len(answer)} layers but depth {dag.depth()}'\n"
               if subject == "DAGCircuit.layers" else "order = answer\n")
            + "used, position = set(), {}\n"
              f"candidates = list(range(len(program))){'[::-1]' if 'reverse' in subject else ''}\n"
              "for place, node in enumerate(order):\n"
              "    index = next(i for i in candidates if program[i] == (node.name, tuple(node.qargs), tuple(node.cargs)) and i not in used)\n"
              "    used.add(index)\n"
              "    position[index] = place\n"
              "assert len(used) == len(program), 'not every instruction appears exactly once'\n"
              "for wire in qc.qubits + qc.clbits:\n"
              "    on_wire = [i for i, s in enumerate(program) if wire in s[1] or wire in s[2]]\n"
              "    for before, after in zip(on_wire, on_wire[1:]):\n"
              f"        assert (position[before] < position[after]) == {'reverse' not in subject}, "
              "f'instructions {before} and {after} on {wire} are out of order'\n"
            + (("done = set()\n"
                "for index in sorted(position, key=position.get):\n"
                "    ready = [i for i in range(len(program)) if i not in done and all(\n"
                "        j in done for j in range(i) if set(program[j][1] + program[j][2]) & set(program[i][1] + program[i][2]))]\n"
                "    assert program[index][0] == min(program[i][0] for i in ready), 'tie not broken by the key'\n"
                "    done.add(index)\n") if "(key)" in subject else ""))


# -- DAG orders against their documented keys --------------------------------------------------
#
# DAGCircuit.topological_nodes(key=None) and topological_op_nodes(key=None) document a callable
# "which will take a DAGNode object and return a string sort key", the op-node variant "to break
# ties in top order"; without one, "the DAGNode.sort_key attribute will be used as the sort key
# for each node" (qiskit 1.x) or "the (bit) qargs and cargs of a node will be used for sorting"
# (qiskit 2.x); 2.x adds reverse=True, "yield nodes in reverse topological order". A topological
# order whose ties are broken by a sort key is the lexicographical topological sort: each node
# yielded has the smallest key among the nodes not yet yielded whose predecessors (successors,
# reversed) all were. The key takes every DAGNode, wire nodes included: the DAG, wires and all,
# is sorted, and topological_op_nodes yields its op nodes. Equal keys may go in any order.

ORDER_KEYS = {  # a custom key, as a user would write it (strings, as documented)
    "name": "lambda node: node.name if isinstance(node, DAGOpNode) else ''",
    "name, wire nodes last": "lambda node: node.name if isinstance(node, DAGOpNode) else '~'",
    "hash of the bits": ("lambda node: str(sum((dag.find_bit(b).index + 1) * 7 ** i for i, b in "
                         "enumerate(tuple(node.qargs) + tuple(node.cargs))) % 5) if isinstance(node, DAGOpNode) "
                         "else str(dag.find_bit(node.wire).index * 3 % 5)"),
    "widest first": "lambda node: str(9 - len(node.qargs)) if isinstance(node, DAGOpNode) else '5'",
    "first qubit, then name": ("lambda node: f'{dag.find_bit(node.qargs[0]).index}{node.name}' "
                               "if isinstance(node, DAGOpNode) else f'{dag.find_bit(node.wire).index}w'"),
}
# The default key, stated as the release documents it. Releases whose docs name the
# DAGNode.sort_key attribute have it on every node (1.x); later ones say only "the qargs and
# cargs of a node": bit indices for op nodes (qargs first), wire nodes' keys left open (None).
DEFAULT_ORDER_KEYS = {
    "sort_key": "lambda node: node.sort_key",
    "qargs and cargs": ("lambda node: (tuple(dag.find_bit(q).index for q in node.qargs), "
                        "tuple(dag.find_bit(c).index for c in node.cargs)) if isinstance(node, DAGOpNode) else None"),
}

# The independent check, run here and written verbatim into reproducers (stdlib only).
LEXICOGRAPHIC_CHECK = '''
def lexicographic_violation(nodes, predecessors, answer, key, label):
    """None when `answer` can be a lexicographical topological sort of the graph: each node,
    when yielded, has the smallest key among the nodes not yet yielded whose predecessors all
    were. Nodes of the graph missing from `answer` were sorted but not yielded: some placement
    of them must make the order valid. key(node) is None where the docs leave a key open: that
    node may go whenever it is ready and holds no other back. Else: why not, as far as any
    placement gets."""
    if len(set(answer)) != len(answer):
        return "a node is yielded twice"
    shown = set(answer)
    successors = {node: set() for node in nodes}
    for node in nodes:
        for before in predecessors[node]:
            successors[before].add(node)
    # a hidden node nothing depends on never makes another ready: leaving it out changes nothing
    graph = [node for node in nodes if node in shown or successors[node]]
    hidden = [node for node in graph if node not in shown]
    keys = {node: key(node) for node in graph}

    def blocker(node, done):
        """None when `node` may come next; else (how telling, why not)."""
        waiting = [p for p in predecessors[node] if p not in done]
        if waiting:
            yielded = [p for p in waiting if p in shown]
            if not yielded:
                return 0, None  # a hidden node must come first: placing it is the search's job
            return 3, f"{label(node)} comes before {label(yielded[0])}, which it depends on"
        if keys[node] is None:
            return None
        ready = [m for m in graph if m not in done and m != node and keys[m] is not None
                 and predecessors[m] <= done]
        smaller = [m for m in ready if keys[m] < keys[node]]
        if smaller:
            first = min(smaller, key=lambda m: (m not in shown, keys[m]))  # a yielded node tells more
            return (2 if first in shown else 1, f"{label(node)} (key {keys[node]!r}) comes while "
                    f"{label(first)} (key {keys[first]!r}) is ready: the smaller key must come first")
        return None

    furthest, seen = [(-1, -1), None], set()

    def search(position, placed):
        if position == len(answer):
            return True
        if (position, placed) in seen:
            return False
        seen.add((position, placed))
        done = set(answer[:position]) | placed
        reason = blocker(answer[position], done)
        if reason is None and search(position + 1, placed):
            return True
        if reason is not None and reason[1] and (position, reason[0]) > furthest[0]:
            furthest[:] = [(position, reason[0]), reason[1]]
        return any(search(position, placed | {node}) for node in hidden
                   if node not in placed and blocker(node, done) is None)

    if search(0, frozenset()):
        return None
    return f"yielded node #{furthest[0][0]}: {furthest[1]}"


def node_label(dag, node):
    if hasattr(node, "qargs"):
        return f"{node.name} on qubits {[dag.find_bit(q).index for q in node.qargs]}" + (
            f" clbits {[dag.find_bit(c).index for c in node.cargs]}" if node.cargs else "")
    kind = "qubit" if node.wire in dag.qubits else "clbit"
    return f"{type(node).__name__} of {kind} {dag.find_bit(node.wire).index}"
'''
_lexicographic = {}
exec(LEXICOGRAPHIC_CHECK, _lexicographic)


def _keyed_order_subjects():
    """The documented key-ordered traversals of this release, with the arguments it has."""
    import inspect

    from qiskit.dagcircuit import DAGCircuit

    subjects = []
    for method in ("topological_nodes", "topological_op_nodes"):
        try:
            parameters = inspect.signature(getattr(DAGCircuit, method)).parameters
        except ValueError:  # no introspectable signature: the arguments cannot be told
            continue
        if "key" not in parameters:
            continue
        variants = ["", "(key)"] + (["(reverse)", "(key, reverse)"] if "reverse" in parameters else [])
        subjects += [f"DAGCircuit.{method}{variant}" for variant in variants]
    if not subjects:
        raise AttributeError("DAGCircuit has no topological_nodes/topological_op_nodes taking a key")
    return subjects


def _keyed_order_strategy(subject):
    st = _st()
    keys = st.sampled_from(sorted(ORDER_KEYS)) if "key" in subject.split("(", 1)[-1] else st.just(None)
    return st.tuples(_structure_circuit(min_size=1), keys)


def _keyed_order_call(subject):
    method, _, arguments = subject.partition("(")
    passed = [f"{a}=key" if a == "key" else f"{a}=True" for a in arguments.rstrip(")").split(", ") if a]
    return f"list(dag.{method.split('.')[1]}({', '.join(passed)}))"


def _default_order_key():
    from qiskit.dagcircuit import DAGOpNode

    return "sort_key" if hasattr(DAGOpNode, "sort_key") else "qargs and cargs"


def _law_key_text(example):
    _, key_name = example
    return ORDER_KEYS[key_name] if key_name else DEFAULT_ORDER_KEYS[_default_order_key()]


def _check_keyed_order(subject, example):
    from qiskit.converters import circuit_to_dag
    from qiskit.dagcircuit import DAGOpNode

    circuit, key_name = example
    dag = circuit_to_dag(build_structure_circuit(circuit))
    namespace = {"dag": dag, "DAGOpNode": DAGOpNode}
    key = eval(ORDER_KEYS[key_name], namespace) if key_name else None
    call = _keyed_order_call(subject)
    answer = eval(call, {"dag": dag, "key": key})
    law_key = eval(_law_key_text(example), namespace)
    expected = list(dag.op_nodes()) if "op_nodes" in subject else list(dag.nodes())
    assert len(answer) == len(expected) and set(answer) == set(expected), (
        f"{call} yields {len(answer)} nodes, not each of the {len(expected)} "
        f"{'op ' if 'op_nodes' in subject else ''}nodes once")
    reverse = "reverse" in subject
    nodes = list(dag.nodes())
    predecessors = {n: set(dag.successors(n) if reverse else dag.predecessors(n)) for n in nodes}
    message = _lexicographic["lexicographic_violation"](
        nodes, predecessors, answer, law_key, lambda n: _lexicographic["node_label"](dag, n))
    assert message is None, (f"{call} is not a topological order{' (reversed)' if reverse else ''} "
                             f"with ties broken by the key: {message}")


def _describe_keyed_order(subject, example):
    circuit, key_name = example
    return structure_circuit_text(circuit).replace("\n", "; ") + (f"; key = {ORDER_KEYS[key_name]}" if key_name else "")


def _reproduce_keyed_order(subject, example):
    circuit, key_name = example
    reverse = "reverse" in subject
    op_only = "op_nodes" in subject
    law = ("the documented key" if key_name else
           f"the documented default key ({_default_order_key()}{'; wire nodes: left open' if _default_order_key() != 'sort_key' else ''})")
    return ("from qiskit import QuantumCircuit\nfrom qiskit.converters import circuit_to_dag\n"
            "from qiskit.dagcircuit import DAGOpNode\n\n"
            + structure_circuit_text(circuit) + "\n"
            "dag = circuit_to_dag(qc)\n"
            + (f"key = {ORDER_KEYS[key_name]}\n" if key_name else "")
            + f"answer = {_keyed_order_call(subject)}\n\n"
            f"# The law: a {'reverse ' if reverse else ''}topological order whose ties are broken by {law}:\n"
            "# each node yielded has the smallest key among the nodes not yet yielded all of whose\n"
            f"# {'successors' if reverse else 'predecessors'} were (wire nodes included"
            f"{', sorted but not yielded' if op_only else ''}). Checked by hand below.\n"
            f"law_key = {_law_key_text(example)}\n"
            + LEXICOGRAPHIC_CHECK + "\n\n"
            f"expected = set(dag.{'op_nodes' if op_only else 'nodes'}())\n"
            "assert len(answer) == len(expected) and set(answer) == expected, 'not every node exactly once'\n"
            "nodes = list(dag.nodes())\n"
            f"predecessors = {{n: set(dag.{'successors' if reverse else 'predecessors'}(n)) for n in nodes}}\n"
            "message = lexicographic_violation(nodes, predecessors, answer, law_key, lambda n: node_label(dag, n))\n"
            "assert message is None, message\n")


# =============================================================================================
# robust: documented calls leave their arguments unchanged.

def _circuit_fingerprint(qc):
    """Everything a caller can observe of a circuit, as plain values."""
    return {
        "name": qc.name, "global_phase": str(qc.global_phase), "metadata": repr(qc.metadata),
        "qubits": qc.num_qubits, "clbits": qc.num_clbits,
        "registers": [(r.name, r.size) for r in qc.qregs] + [(r.name, r.size) for r in qc.cregs],
        "parameters": [p.name for p in qc.parameters],
        "data": [(i.operation.name, [str(p) for p in i.operation.params], getattr(i.operation, "label", None),
                  [qc.find_bit(q).index for q in i.qubits], [qc.find_bit(c).index for c in i.clbits])
                 for i in qc.data],
    }


CALLS = {  # subject -> (statement using `qc` and `other`, needs a unitary circuit)
    "QuantumCircuit.compose": ("qc.compose(other)", False),
    "QuantumCircuit.compose(front)": ("qc.compose(other, front=True)", False),
    "QuantumCircuit.tensor": ("qc.tensor(other)", False),
    "QuantumCircuit.inverse": ("qc.inverse()", True),
    "QuantumCircuit.power": ("qc.power(2)", True),
    "QuantumCircuit.control": ("qc.control(1)", True),
    "QuantumCircuit.repeat": ("qc.repeat(2)", False),
    "QuantumCircuit.reverse_ops": ("qc.reverse_ops()", False),
    "QuantumCircuit.reverse_bits": ("qc.reverse_bits()", False),
    "QuantumCircuit.decompose": ("qc.decompose()", False),
    "QuantumCircuit.copy": ("qc.copy()", False),
    "QuantumCircuit.copy_empty_like": ("qc.copy_empty_like()", False),
    "QuantumCircuit.assign_parameters": ("qc.assign_parameters([0.5] * qc.num_parameters)", False),
    "QuantumCircuit.remove_final_measurements": ("qc.remove_final_measurements(inplace=False)", False),
    "QuantumCircuit.measure_all": ("qc.measure_all(inplace=False)", False),
    "QuantumCircuit.measure_active": ("qc.measure_active(inplace=False)", False),
    "QuantumCircuit.to_gate": ("qc.to_gate()", True),
    "QuantumCircuit.to_instruction": ("qc.to_instruction()", False),
    "QuantumCircuit.depth": ("qc.depth()", False),
    "QuantumCircuit.count_ops": ("qc.count_ops()", False),
    "qiskit.transpile": ("transpile(qc, basis_gates=['cx', 'rz', 'sx', 'x'], optimization_level=1, seed_transpiler=1)", False),
    "qiskit.transpile(list)": ("transpile([qc, other], basis_gates=['cx', 'u'], optimization_level=2, seed_transpiler=1)", False),
    "qiskit.converters.circuit_to_dag": ("circuit_to_dag(qc)", False),
    "qiskit.converters.circuit_to_instruction": ("circuit_to_instruction(qc)", False),
    "qiskit.converters.circuit_to_gate": ("circuit_to_gate(qc)", True),
    "qiskit.quantum_info.Operator": ("Operator(qc.assign_parameters([0.5] * qc.num_parameters))", True),
    "qiskit.quantum_info.Statevector": ("Statevector(qc.assign_parameters([0.5] * qc.num_parameters))", True),
    "qiskit.qasm2.dumps": ("qasm2.dumps(qc.assign_parameters([0.5] * qc.num_parameters))", False),
    "qiskit.qasm3.dumps": ("qasm3.dumps(qc)", False),
}
ROBUST_GATES = ["h", "x", "rz", "cx", "cz", "swap", "ry", "cp"]


def _call_subjects():
    import qiskit
    from qiskit import QuantumCircuit

    found = []
    for subject in CALLS:
        owner, _, name = subject.rpartition(".")
        name = name.split("(")[0]
        if owner == "QuantumCircuit":
            ok = hasattr(QuantumCircuit, name)
        else:
            try:
                ok = hasattr(importlib_module(owner), name)
            except ImportError:
                ok = False
        if ok:
            found.append(subject)
    return sorted(found)


def importlib_module(name):
    import importlib

    return importlib.import_module(name)


def _robust_strategy(subject):
    st = _st()
    unitary = CALLS[subject][1]

    def gate(n):
        def one(name):
            arity = oracle_core.GATE_ARITY[name]
            value = st.one_of(angles(), st.sampled_from(["theta", "2*theta - phi"]))
            return st.tuples(st.just(name), st.tuples(*[value] * {"rz": 1, "ry": 1, "cp": 1}.get(name, 0)),
                             st.permutations(range(n)).map(lambda p: tuple(p[:arity])))
        return st.sampled_from([g for g in ROBUST_GATES if oracle_core.GATE_ARITY[g] <= n]).flatmap(one)

    def circuit(n):
        return st.tuples(st.just(n), st.lists(gate(n), min_size=1, max_size=6), st.booleans(),
                         st.sampled_from([0.0, 0.75, "theta"]), st.booleans())

    return st.integers(1, 3).flatmap(lambda n: st.tuples(circuit(n), circuit(n))).map(
        lambda pair: (pair[0][:4] + ((pair[0][4] and not unitary),), pair[1][:4] + ((pair[1][4] and not unitary),)))


def robust_circuit_text(name, circuit):
    n, ops, named, phase, measured = circuit
    lines = [f"{name} = QuantumCircuit({n}{', ' + str(n) if measured else ''}, name={name + '_circuit'!r}, "
             f"global_phase={phase if isinstance(phase, str) else repr(phase)}, metadata={{'origin': [{name!r}]}})"]
    for gate, params, qubits in ops:
        arguments = [p if isinstance(p, str) else repr(p) for p in params] + [str(q) for q in qubits]
        lines.append(f"{name}.{gate}({', '.join(arguments)})")
    if measured:
        lines.append(f"{name}.barrier()")
        lines.append(f"{name}.measure({list(range(n))}, {list(range(n))})")
    return "\n".join(lines)


def _robust_program(subject, example):
    first, second = example
    return ("theta, phi = Parameter('theta'), Parameter('phi')\n"
            + robust_circuit_text("qc", first) + "\n" + robust_circuit_text("other", second) + "\n")


ROBUST_IMPORTS = ("import copy\nfrom qiskit import QuantumCircuit, qasm2, qasm3, transpile\n"
                  "from qiskit.circuit import Parameter\n"
                  "from qiskit.converters import circuit_to_dag, circuit_to_gate, circuit_to_instruction\n"
                  "from qiskit.quantum_info import Operator, Statevector\n")


def _check_robust(subject, example):
    import qiskit
    from qiskit import QuantumCircuit, qasm2, qasm3, transpile  # noqa: F401
    from qiskit.circuit import Parameter  # noqa: F401
    from qiskit.converters import circuit_to_dag, circuit_to_gate, circuit_to_instruction  # noqa: F401
    from qiskit.quantum_info import Operator, Statevector  # noqa: F401

    namespace = dict(locals())
    exec(_robust_program(subject, example), namespace)
    qc, other = namespace["qc"], namespace["other"]
    before = (_circuit_fingerprint(qc), _circuit_fingerprint(other))
    statement = CALLS[subject][0]
    try:
        eval(statement, namespace)
    except Exception as exc:  # documented input: an undocumented exception is a failure of the call
        raise AssertionError(f"{statement} raised {type(exc).__name__}: {exc} on a documented input") from exc
    after = (_circuit_fingerprint(qc), _circuit_fingerprint(other))
    for label, b, a in (("qc", before[0], after[0]), ("other", before[1], after[1])):
        changed = [k for k in b if b[k] != a[k]]
        assert not changed, (f"{statement} changed its argument {label}: {', '.join(changed)} "
                             f"({ {k: (b[k], a[k]) for k in changed} })")


def _reproduce_robust(subject, example):
    statement = CALLS[subject][0]
    return (ROBUST_IMPORTS + "\n" + _robust_program(subject, example)
            + "def observable(c):\n"
              "    return (c.name, str(c.global_phase), repr(c.metadata), c.num_qubits, c.num_clbits,\n"
              "            [(r.name, r.size) for r in c.qregs + c.cregs], [p.name for p in c.parameters],\n"
              "            [(i.operation.name, [str(p) for p in i.operation.params], getattr(i.operation, 'label', None),\n"
              "              [c.find_bit(q).index for q in i.qubits], [c.find_bit(b).index for b in i.clbits]) for i in c.data])\n"
              "before = observable(qc), observable(other)\n"
              f"{statement}\n"
              f"assert observable(qc) == before[0], 'the call changed its argument qc'\n"
              f"assert observable(other) == before[1], 'the call changed its argument other'\n")


def _describe_robust(subject, example):
    return _robust_program(subject, example).replace("\n", "; ") + f" then {CALLS[subject][0]}"


# =============================================================================================

def _judged(strategy, judged):
    """Only inputs the law judges (outside gray zones and domain edges): every example, passing
    ones included, must give a reproducer whose assertions state a decided truth."""
    return strategy.filter(judged)


QUERY, PARAM, STRUCTURE, ROBUST = ("semantic queries", "symbolic parameters", "resource estimation and structure",
                                   "robustness")
# Where the classes these laws name are documented (their public module), so a subject's API
# is a name of the public API map ("qiskit.dagcircuit.DAGCircuit.depth", not "qiskit.DAGCircuit...").
PUBLIC_MODULES = {"DAGCircuit": "qiskit.dagcircuit", "QuantumCircuit": "qiskit", "Clifford": "qiskit.quantum_info",
                  "StabilizerState": "qiskit.quantum_info"}


def _public_name(subject):
    owner = subject.split(".")[0]
    return f"{PUBLIC_MODULES.get(owner, 'qiskit')}.{subject}"


CONTRACTS = [
    Contract("qiskit.query.commutation-checker", QUERY,
             "CommutationChecker.commute answers True only for operations that commute (AB = BA), whatever "
             "it was asked before (its cache)",
             "documentation: CommutationChecker (class docstring: average gate fidelity criterion, 1e-12; "
             "commute(): 'True means that the operations truly commute') and quantum semantics",
             lambda: sorted(n for n, (_, k, _) in standard_gates().items() if k <= 3),
             _query_strategy, functools.partial(_check_commute, direction=SOUND),
             functools.partial(_reproduce_commute, direction=SOUND),
             lambda s: "qiskit.circuit.CommutationChecker.commute", describe=_describe_commute),
    Contract("qiskit.query.commutation-checker-complete", QUERY,
             "CommutationChecker.commute answers True for every pair of exactly commuting operations it can "
             "check by matrices (<= 3 qubits, bound parameters, no conditions), whatever it was asked before",
             "documentation: CommutationChecker class docstring ('a matrix-based check is performed' where no "
             "lookup applies); commute(): False means the operations do not commute or 'the commutation "
             "check was skipped (for example, when the operations have conditions or have too many "
             "qubits)'. That list is open, so a missed commutation is a potential bug, not a wrong result",
             lambda: sorted(n for n, (_, k, _) in standard_gates().items() if k <= 3),
             _query_strategy, functools.partial(_check_commute, direction=COMPLETE),
             functools.partial(_reproduce_commute, direction=COMPLETE),
             lambda s: "qiskit.circuit.CommutationChecker.commute", validity="answer permitted",
             describe=_describe_commute),
    Contract("qiskit.query.commutation-checker-approximate", QUERY,
             "CommutationChecker.commute with approximation_degree a < 1 answers True only when the average "
             "gate fidelity of AB and BA is above a (up to 1e-12), or when one operation is within a of the "
             "identity (average gate fidelity to I at least a), which the checker may treat as the identity",
             "documentation: CommutationChecker.commute (approximation_degree: 'If the average gate fidelity in "
             "between the two operations is above this number ... they are assumed to commute'); the class "
             "docstring defines that fidelity between AB and BA; the Qiskit 2.0 release note adds that "
             "operations within approximation_degree of the identity are treated as the identity. The phrase "
             "is open to another reading, so findings are potential bugs",
             lambda: sorted(n for n, (_, k, _) in standard_gates().items() if k <= 3),
             lambda s: _query_strategy(s, degrees=(0.999, 0.99, 0.9, 0.5)), _check_commute, _reproduce_commute,
             lambda s: "qiskit.circuit.CommutationChecker.commute", validity="undocumented",
             describe=_describe_commute),
    Contract("qiskit.query.commutation-checker-symbolic", QUERY,
             "CommutationChecker.commute on gates with free (unbound) parameters answers True only when the "
             "operations commute for every value of the parameters",
             "documentation: CommutationChecker class docstring ('gates with free parameters (such as RXGate "
             "with a ParameterExpression as angle)' are looked up); commute(): True means truly commute",
             lambda: sorted(n for n, (_, k, count) in standard_gates().items() if k <= 3 and count),
             lambda s: _query_strategy(s, symbolic=True), _check_commute, _reproduce_commute,
             lambda s: "qiskit.circuit.CommutationChecker.commute", describe=_describe_commute),
    Contract("qiskit.query.pauli-commutation", QUERY,
             "commutation predicates and commuting groupings of Pauli objects agree with the Pauli matrices "
             "(with qargs placing the other Pauli, phases ignored where documented)",
             "documentation: Pauli.commutes/anticommutes, PauliList.commutes_with_all, group_commuting, "
             "noncommutation_graph, SparseObservable.commutes; quantum semantics",
             _pauli_subjects, lambda s: _judged(_pauli_strategy(s), lambda e: PAULI_PREDICATES[s](e, None)[1] is not None),
             _check_pauli, _reproduce_pauli,
             lambda s: f"qiskit.quantum_info.{s}"),
    Contract("qiskit.query.equality-matches-data", QUERY,
             "equality (exact) and equiv (up to global phase) of operators and states agree with the data "
             "at the documented default tolerances (rtol=1e-5, atol=1e-8) and at user-passed tolerances",
             "documentation: Operator.equiv, Statevector.equiv (up to global phase, rtol/atol), "
             "SparsePauliOp.equiv (atol), qiskit.quantum_info.operators.predicates defaults",
             lambda: sorted(s for s in EQUALITY if hasattr(importlib_module("qiskit.quantum_info"), s.split(".")[0])),
             lambda s: _judged(_pair_strategy(), lambda e: _equality_expected(s, e) is not None), _check_equality, _reproduce_equality,
             lambda s: f"qiskit.quantum_info.{s}", describe=_describe_pair),
    Contract("qiskit.query.structural-equality-matches-operator", QUERY,
             "Clifford equality and StabilizerState.equiv hold exactly when the circuits' unitaries (states) "
             "agree up to global phase; equal circuits, DAGs and stabilizer states have equal operators/states",
             "documentation: Clifford, StabilizerState.equiv; quantum semantics",
             lambda: sorted(STRUCTURAL_EQUALITY),
             lambda s: _judged(_structural_strategy(s), lambda e: _structural_expected(s, e) is not None), _check_structural, _reproduce_structural,
             lambda s: _public_name(s), describe=_describe_structural),
    Contract("qiskit.query.property-predicates", QUERY,
             "is_unitary / is_valid / is_cp / is_tp / is_cptp agree with the matrices (U U^dag = I, unit norm, "
             "trace 1 and PSD, PSD Choi matrix, sum K^dag K = I) at default and user-passed tolerances",
             "documentation: Operator.is_unitary, Statevector.is_valid ('norm 1'), DensityMatrix.is_valid "
             "('trace 1 and positive semidefinite'), QuantumChannel.is_cp/is_tp/is_cptp/is_unitary",
             _property_subjects, lambda s: _judged(_property_strategy(s), lambda e: _property_expected(s, e) is not None),
             _check_property, _reproduce_property,
             lambda s: f"qiskit.quantum_info.{s}", describe=_describe_property),
    Contract("qiskit.param.assign-equals-direct", PARAM,
             "a circuit with a gate and global phase given as parameter expressions, bound by any documented "
             "form of assign_parameters, has the operator of the circuit built with the numbers",
             "documentation: QuantumCircuit.assign_parameters (mapping, sequence, ParameterVector, names, "
             "inplace, strict); quantum semantics",
             _parametric_gate_subjects, _assign_strategy, _check_assign, _reproduce_assign,
             lambda s: "qiskit.circuit.QuantumCircuit.assign_parameters", describe=_describe_assign),
    Contract("qiskit.param.expression-value", PARAM,
             "a ParameterExpression built by arithmetic or a function, bound to numbers (real, negative, zero "
             "or complex), evaluates to the same formula evaluated directly",
             "documentation: ParameterExpression (arithmetic, sin/cos/tan/arcsin/arccos/arctan/exp/log/abs/"
             "sign/conjugate), bind, numeric",
             _expression_subjects, lambda s: _judged(_expression_strategy(s), lambda e: _expression_in_domain(s, e)),
             _check_expression, _reproduce_expression,
             lambda s: f"qiskit.circuit.ParameterExpression.{s}", describe=_describe_expression),
    Contract("qiskit.param.gradient-finite-difference", PARAM,
             "ParameterExpression.gradient(x), bound at a point, equals the finite-difference derivative of "
             "the bound expression there",
             "documentation: ParameterExpression.gradient; calculus",
             _expression_subjects, lambda s: _judged(_gradient_strategy(s), lambda e: _gradient_in_domain(s, e)),
             _check_gradient, _reproduce_gradient,
             lambda s: "qiskit.circuit.ParameterExpression.gradient", describe=_describe_expression),
    Contract("qiskit.param.simplification-preserves-value", PARAM,
             "simplify, sort and assign_parameters of Pauli sums (numeric or parameterized coefficients, "
             "ParameterVector) keep the operator (up to the documented atol for dropped terms)",
             "documentation: SparsePauliOp.simplify (atol=1e-8), sort, assign_parameters; "
             "SparseObservable.simplify",
             _simplify_subjects, _simplify_strategy, _check_simplify, _reproduce_simplify,
             lambda s: f"qiskit.quantum_info.{s.split('-')[0]}"),
    Contract("qiskit.structure.metrics-count-instructions", STRUCTURE,
             "depth, size (with filters), count_ops, num_nonlocal_gates, width, factor counts and DAG counts "
             "equal counting the circuit's instructions (directives filtered as documented)",
             "documentation: QuantumCircuit.depth/size (filter_function; barrier filtered by default), "
             "count_ops, num_nonlocal_gates, width, num_connected_components, DAGCircuit.depth/size/"
             "two_qubit_ops/multi_qubit_ops/op_nodes/count_ops_longest_path",
             _metric_subjects, lambda s: _structure_circuit(), _check_metric, _reproduce_metric,
             lambda s: _public_name(s.split("(")[0]),
             describe=lambda s, c: structure_circuit_text(c).replace("\n", "; ")),
    Contract("qiskit.structure.dag-order-respects-dependencies", STRUCTURE,
             "DAG orders (topological, reverse, with a tie-break key, serial layers, layers) contain every "
             "instruction once, keep program order on every wire, break ties by the key, and layers act on "
             "disjoint qubits with as many layers as the depth",
             "documentation: DAGCircuit.topological_nodes/topological_op_nodes (key breaks ties, reverse), "
             "layers ('disjoint qubits', 'number of layers equals the depth'), serial_layers",
             _order_subjects, lambda s: _structure_circuit(), _check_order, _reproduce_order,
             lambda s: _public_name(s.split("(")[0]),
             describe=lambda s, c: structure_circuit_text(c).replace("\n", "; ")),
    Contract("qiskit.structure.dag-order-respects-keys", STRUCTURE,
             "DAGCircuit.topological_nodes and topological_op_nodes, with the default key or a custom key "
             "(reverse=True where the release has it), yield every node (op node) once in a lexicographical "
             "topological order of the whole DAG, wire nodes included: each node yielded has the smallest key "
             "among the nodes not yet yielded all of whose predecessors (successors, reversed) were; "
             "topological_op_nodes yields the op nodes of such an order; equal keys may go in any order. The "
             "default key is the DAGNode.sort_key attribute where the docs name it (1.x), else the node's "
             "qargs then cargs as bit indices (wire nodes' default keys are left open by the docs)",
             "documentation: DAGCircuit.topological_nodes ('Yield nodes in topological order'; key: 'A "
             "callable which will take a DAGNode object and return a string sort key. If not specified the "
             "DAGNode.sort_key attribute will be used as the sort key for each node' (1.x) / 'the bit qargs "
             "and cargs of a node will be used for sorting' (2.x); reverse: 'yield nodes in reverse "
             "topological order'), DAGCircuit.topological_op_nodes ('Allowed to pass in specific key to "
             "break ties in top order')",
             _keyed_order_subjects, _keyed_order_strategy, _check_keyed_order, _reproduce_keyed_order,
             lambda s: f"qiskit.dagcircuit.{s.split('(')[0]}", describe=_describe_keyed_order),
    Contract("qiskit.robust.no-argument-mutation", ROBUST,
             "documented non-inplace calls on circuits (parameterized, with global phase, metadata and "
             "measurements where allowed) neither raise nor change their circuit arguments",
             "documentation: QuantumCircuit methods returning new circuits (inplace=False), transpile, "
             "converters, quantum_info constructors, qasm dumps",
             _call_subjects, _robust_strategy, _check_robust, _reproduce_robust,
             lambda s: f"qiskit.{s.split('(')[0]}" if s.startswith("QuantumCircuit") else s.split("(")[0],
             describe=_describe_robust),
]
