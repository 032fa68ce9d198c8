"""Pauli grouping and Pauli utilities, PennyLane: `qml.pauli` keeps its documented meaning, checked
against matrices built here independently (Kronecker products of the 2x2 Paulis in the given wire
order, the first wire the most significant), on random Pauli words over integer and string wire
labels mixed.

Documented semantics the laws state:
  - `group_observables` ("Partitions a list of observables ... into groupings according to a binary
    relation (qubit-wise commuting, fully-commuting, or anticommuting)", with "a list of coefficient
    groupings ... the grouping's corresponding coefficients"), `compute_partition_indices` ("the
    indices of observables that are grouped together according to the specified grouping type"),
    `PauliGroupingStrategy` ("partitioning a list of Pauli words according to some binary symmetric
    relation"), `Hamiltonian` / `LinearCombination` (`grouping_type` at construction,
    `compute_grouping`, "groupings are stored as a list of list of indices in grouping_indices"):
    the groups partition the input -- every observable in exactly one group, with its coefficient --
    and every two members of a group satisfy the requested relation, for every `grouping_type` and
    every colouring `method` the release documents. Grouping changes nothing about the operator.
  - `diagonalize_qwc_pauli_words` / `diagonalize_qwc_groupings` / `optimize_measurements` ("the
    unitaries which diagonalize the partitions"; "list of Pauli string observables diagonal in the
    computational basis", order corresponding to the input): with U the product of the returned
    rotations, U^dag D_j U = P_j for each word P_j and its returned diagonal word D_j, and D_j is
    diagonal; optimize_measurements also partitions the input into qwc groups with the coefficients.
  - the conversions and predicates (`pauli_word_to_matrix`, `string_to_pauli_word`,
    `pauli_word_to_string`, `pauli_to_binary`, `observables_to_binary_matrix`, `binary_to_pauli`
    -- "the first half of binary vector components specify PauliX placements while the last half
    specify PauliZ placements", wire_map "unique integer labels" --, `are_identical_pauli_words`,
    `is_pauli_word`, `are_pauli_words_qwc`, `is_qwc`) agree with the Kronecker construction.
  - `PauliWord` / `PauliSentence`: `to_mat(wire_order=...)` is the Kronecker matrix in that wire
    order (dense and csr), `@` is the operator product, `+`, `-` and scalar `*` the linear
    operations, `commutator` is [A, B] = AB - BA and `commutes_with` says whether AB = BA.

Subjects are the functions and options that exist on the release. The check runs the reproducer
itself: the standalone program is the single statement of each law.
"""

import inspect
import re

from contract_runtime import Contract

POOL = [0, 1, 2, 5, "a", "b", "q1", "w"]
LETTERS = "XYZ"
GROUPING_TYPES = ["qwc", "commuting", "anticommuting"]
METHODS = ["lf", "rlf", "dsatur", "gis"]
COEFFS = [1.0, -0.5, 0.25, 2.0, 1.5, -1.25, 0.75, 3.0]

# The Kronecker construction every Pauli law's reproducer judges by (also pennylane_pauli_sums).
KRONECKER = '''import numpy as np
import pennylane as qml

PAULI = {"I": np.eye(2, dtype=complex), "X": np.array([[0, 1], [1, 0]], dtype=complex),
         "Y": np.array([[0, -1j], [1j, 0]]), "Z": np.diag([1.0 + 0j, -1.0])}


def kron(word, wire_order):
    """Matrix of the Pauli word {wire: letter} on wire_order, the first wire the most significant."""
    m = np.eye(1, dtype=complex)
    for w in wire_order:
        m = np.kron(m, PAULI[word.get(w, "I")])
    return m


def same(m, expected):
    """Same shape and entries."""
    return np.shape(m) == np.shape(expected) and np.allclose(m, expected)
'''

PRELUDE = KRONECKER + '''

def qwc(p, q):
    """Qubit-wise commuting: on every wire the two single-qubit factors commute."""
    return all(np.allclose(PAULI[p.get(w, "I")] @ PAULI[q.get(w, "I")], PAULI[q.get(w, "I")] @ PAULI[p.get(w, "I")])
               for w in list(p) + list(q))


def commuting(p, q):
    a, b = kron(p, WIRES), kron(q, WIRES)
    return np.allclose(a @ b, b @ a)


def anticommuting(p, q):
    a, b = kron(p, WIRES), kron(q, WIRES)
    return np.allclose(a @ b, -(b @ a))


'''

OP = {"X": "qml.PauliX", "Y": "qml.PauliY", "Z": "qml.PauliZ"}


# -- sources ------------------------------------------------------------------------------------
def _op_src(word):
    """A word ((wire, letter), ...) as the user writes it: the Paulis tensored in that factor order."""
    return " @ ".join(f"{OP[letter]}({wire!r})" for wire, letter in word)


def _dict_src(word):
    return "{" + ", ".join(f"{wire!r}: {letter!r}" for wire, letter in word) + "}"


def _wires_of(words):
    wires = []
    for word in words:
        for wire, _ in word:
            if wire not in wires:
                wires.append(wire)
    return wires


def _header(words, extra=()):
    wires = _wires_of(words) + [w for w in extra if w not in _wires_of(words)]
    return (PRELUDE + f"WIRES = {wires!r}\n"
            f"words = [{', '.join(_dict_src(w) for w in words)}]\n"
            f"observables = [{', '.join(_op_src(w) for w in words)}]\n")


# -- strategies -----------------------------------------------------------------------------------
def _words(universe_size=4, min_words=1, max_words=6):
    """Lists of Pauli words on a few wires drawn from POOL (ints and strings mixed), each word a
    tuple of (wire, letter) with distinct wires, factors in a drawn order."""
    from hypothesis import strategies as st

    def words_on(universe):
        word = st.lists(st.tuples(st.sampled_from(universe), st.sampled_from(LETTERS)), min_size=1,
                        max_size=min(3, len(universe)), unique_by=lambda t: t[0]).map(tuple)
        return st.lists(word, min_size=min_words, max_size=max_words)

    universe = st.lists(st.sampled_from(POOL), min_size=1, max_size=universe_size, unique=True)
    return universe.flatmap(words_on)


def _qwc_group(universe):
    """A qubit-wise commuting group: each wire has one letter, every word uses some of them."""
    from hypothesis import strategies as st

    return st.lists(st.sampled_from(LETTERS), min_size=len(universe), max_size=len(universe)).flatmap(
        lambda letters: st.lists(
            st.lists(st.sampled_from(list(zip(universe, letters))), min_size=1, max_size=min(3, len(universe)),
                     unique=True).map(tuple), min_size=1, max_size=5))


def _words_with_repeats():
    """Word lists, some with a word repeated (its factors in another order): a Hamiltonian may
    list a term twice, with two coefficients."""
    from hypothesis import strategies as st

    return _words().flatmap(lambda ws: st.one_of(
        st.just(ws), st.permutations(ws[0]).map(lambda factors: ws + [tuple(factors)])))


def _coeffs(n):
    from hypothesis import strategies as st

    value = st.one_of(st.sampled_from(COEFFS), st.floats(min_value=-3, max_value=3, allow_nan=False).map(
        lambda x: round(x, 6)))
    return st.lists(value, min_size=n, max_size=n)


# -- law 1: grouping is a partition under the relation ---------------------------------------------
def _documented(function, argument, candidates):
    """The candidate values a function's docstring lists (as ``'value'``) in the entry of `argument`."""
    doc = function.__doc__ or ""
    match = re.search(rf"^\s*{argument}\s*\(.*?\):(.*?)(?=^\s*\w+\s*\(.*?\):|^\s*Returns:|\Z)", doc, re.DOTALL | re.MULTILINE)
    text = match.group(1) if match else ""
    return [c for c in candidates if f"'{c}'" in text]


def _grouping_entries():
    import pennylane as qml

    pauli = qml.pauli
    entries = ["group_observables"]
    if hasattr(pauli, "compute_partition_indices"):
        entries.append("compute_partition_indices")
    strategy = pauli.PauliGroupingStrategy
    entries.append("PauliGroupingStrategy.partition_observables" if hasattr(strategy, "partition_observables")
                   else "PauliGroupingStrategy.colour_pauli_graph")
    if hasattr(qml.Hamiltonian, "compute_grouping"):
        entries.append("Hamiltonian.compute_grouping")
    if "grouping_type" in inspect.signature(qml.Hamiltonian.__init__).parameters:
        entries.append("Hamiltonian(grouping_type)")
    return entries


def _grouping_options():
    from pennylane.pauli import group_observables

    return (_documented(group_observables, "grouping_type", GROUPING_TYPES),
            _documented(group_observables, "method", METHODS))


def _grouping_subjects():
    types, methods = _grouping_options()
    return [f"{entry}:{t}:{m}" for entry in _grouping_entries() for t in types for m in methods]


def _grouping_strategy(subject):
    from hypothesis import strategies as st

    return _words_with_repeats().flatmap(lambda words: st.tuples(st.just(words), _coeffs(len(words))))


MATCH = '''

def place(op, coeff=None):
    """The index of an input observable not yet placed that op (with coeff) is, by matrix."""
    m = qml.matrix(op, wire_order=WIRES)
    for i in unplaced:
        if same(m, kron(words[i], WIRES)) and (coeff is None or np.isclose(complex(coeff), coeffs[i])):
            unplaced.remove(i)
            return i
    raise AssertionError(f"{op} (coefficient {coeff}) in the output is no input observable left to place; "
                         f"input {observables} with coefficients {coeffs}")


unplaced = list(range(len(words)))
'''


def _relation_check(grouping_type, groups_name="groups"):
    return (f"for group in {groups_name}:\n"
            "    for k, i in enumerate(group):\n"
            "        for j in group[k + 1:]:\n"
            f"            assert {grouping_type}(words[i], words[j]), (\n"
            f"                f'{{observables[i]}} and {{observables[j]}} are grouped together but are not {grouping_type}')\n")


def _grouping_reproduce(subject, example):
    entry, grouping_type, method = subject.split(":")
    words, coeffs = example
    code = _header(words) + f"coeffs = {list(coeffs)!r}\n"
    if entry == "group_observables":
        code += (MATCH +
                 "obs_groups, coeff_groups = qml.pauli.group_observables(observables, coeffs, "
                 f"grouping_type={grouping_type!r}, method={method!r})\n"
                 "assert len(obs_groups) == len(coeff_groups), f'{len(obs_groups)} groups but {len(coeff_groups)} coefficient groups'\n"
                 "groups = []\n"
                 "for obs_group, coeff_group in zip(obs_groups, coeff_groups):\n"
                 "    assert len(obs_group) == len(coeff_group), f'group {obs_group} has coefficients {coeff_group}'\n"
                 "    groups.append([place(op, c) for op, c in zip(obs_group, coeff_group)])\n"
                 "assert not unplaced, f'{[observables[i] for i in unplaced]} are in no group: {obs_groups}'\n")
    elif entry == "compute_partition_indices":
        code += ("groups = qml.pauli.compute_partition_indices(observables, "
                 f"grouping_type={grouping_type!r}, method={method!r})\n"
                 "placed = sorted(i for group in groups for i in group)\n"
                 "assert placed == list(range(len(observables))), f'partition indices {groups} for {len(observables)} observables'\n")
    elif entry.startswith("PauliGroupingStrategy"):
        call = entry.split(".")[1]
        code += (MATCH +
                 "strategy = qml.pauli.PauliGroupingStrategy(observables, "
                 f"grouping_type={grouping_type!r}, graph_colourer={method!r})\n"
                 f"obs_groups = strategy.{call}()\n"
                 "groups = [[place(op) for op in obs_group] for obs_group in obs_groups]\n"
                 "assert not unplaced, f'{[observables[i] for i in unplaced]} are in no group: {obs_groups}'\n")
    else:
        if entry == "Hamiltonian.compute_grouping":
            code += ("H = qml.Hamiltonian(coeffs, observables)\n"
                     f"H.compute_grouping(grouping_type={grouping_type!r}, method={method!r})\n")
        else:
            code += (f"H = qml.Hamiltonian(coeffs, observables, grouping_type={grouping_type!r}, method={method!r})\n")
        code += ("groups = [list(group) for group in H.grouping_indices]\n"
                 "placed = sorted(i for group in groups for i in group)\n"
                 "assert placed == list(range(len(observables))), f'grouping_indices {H.grouping_indices} for {len(observables)} observables'\n"
                 "expected = sum(c * kron(w, WIRES) for c, w in zip(coeffs, words))\n"
                 "assert same(qml.matrix(H, wire_order=WIRES), expected), 'grouping changed the Hamiltonian'\n")
    return code + _relation_check(grouping_type)


def _grouping_api(subject):
    import pennylane as qml

    entry = subject.split(":")[0]
    if entry.startswith("Hamiltonian"):
        # qml.Hamiltonian is LinearCombination from 0.36 on: name the class the call reaches
        cls = ("pennylane.ops.LinearCombination" if qml.Hamiltonian is getattr(qml.ops, "LinearCombination", None)
               else "pennylane.Hamiltonian")
        return cls + (".compute_grouping" if entry.endswith("compute_grouping") else "")
    return "pennylane.pauli." + entry.split(".")[0]


# -- law 2: qwc rotations diagonalize -------------------------------------------------------------
def _diagonal_subjects():
    from pennylane import pauli

    subjects = [n for n in ("diagonalize_qwc_pauli_words", "diagonalize_qwc_groupings") if hasattr(pauli, n)]
    _, methods = _grouping_options()
    return subjects + [f"optimize_measurements:qwc:{m}" for m in methods]


def _diagonal_strategy(subject):
    from hypothesis import strategies as st

    universe = st.lists(st.sampled_from(POOL), min_size=1, max_size=4, unique=True)
    if subject == "diagonalize_qwc_pauli_words":
        return universe.flatmap(_qwc_group)
    if subject == "diagonalize_qwc_groupings":
        return st.lists(universe.flatmap(_qwc_group), min_size=1, max_size=3)
    return _words_with_repeats().flatmap(lambda words: st.tuples(st.just(words), _coeffs(len(words))))


ROTATION = '''

def rotation(ops):
    """The unitary the rotations apply, in circuit order."""
    u = np.eye(2 ** len(WIRES), dtype=complex)
    for op in ops:
        u = qml.matrix(op, wire_order=WIRES) @ u
    return u


def measured(u, diagonal_op):
    """The observable measured by measuring diagonal_op after the unitary u: u^dag D u."""
    d = qml.matrix(diagonal_op, wire_order=WIRES)
    assert same(d, np.diag(np.diag(d))), f"{diagonal_op} is not diagonal in the computational basis"
    return u.conj().T @ d @ u

'''


def _diagonal_reproduce(subject, example):
    if subject == "diagonalize_qwc_pauli_words":
        return (_header(example) + ROTATION +
                "rotations, diagonal = qml.pauli.diagonalize_qwc_pauli_words(observables)\n"
                "assert len(diagonal) == len(observables), f'{len(diagonal)} diagonal words for {len(observables)} words'\n"
                "u = rotation(rotations)\n"
                "for word, op, d in zip(words, observables, diagonal):\n"
                "    assert same(measured(u, d), kron(word, WIRES)), (\n"
                "        f'measuring {d} after {rotations} does not measure {op}')\n")
    if subject == "diagonalize_qwc_groupings":
        flat = [w for group in example for w in group]
        sizes = [len(group) for group in example]
        return (_header(flat) + ROTATION +
                f"sizes = {sizes!r}\n"
                "starts = [sum(sizes[:k]) for k in range(len(sizes))]\n"
                "groupings = [observables[s:s + n] for s, n in zip(starts, sizes)]\n"
                "rotations, diagonal = qml.pauli.diagonalize_qwc_groupings(groupings)\n"
                "assert len(rotations) == len(diagonal) == len(groupings), 'one rotation and one diagonal grouping per grouping'\n"
                "for s, group, rots, diag in zip(starts, groupings, rotations, diagonal):\n"
                "    assert len(diag) == len(group), f'{len(diag)} diagonal words for the grouping {group}'\n"
                "    u = rotation(rots)\n"
                "    for k, d in enumerate(diag):\n"
                "        assert same(measured(u, d), kron(words[s + k], WIRES)), (\n"
                "            f'measuring {d} after {rots} does not measure {group[k]}')\n")
    _, grouping, method = subject.split(":")
    words, coeffs = example
    return (_header(words) + f"coeffs = {list(coeffs)!r}\n" + ROTATION +
            "unplaced = list(range(len(words)))\n"
            "rotations, diag_groups, coeff_groups = qml.pauli.optimize_measurements(observables, coeffs, "
            f"grouping={grouping!r}, colouring_method={method!r})\n"
            "assert len(rotations) == len(diag_groups) == len(coeff_groups), 'one rotation per group'\n"
            "groups = []\n"
            "for rots, diag, cs in zip(rotations, diag_groups, coeff_groups):\n"
            "    assert len(diag) == len(cs), f'group {diag} has coefficients {cs}'\n"
            "    u = rotation(rots)\n"
            "    group = []\n"
            "    for d, c in zip(diag, cs):\n"
            "        m = measured(u, d)\n"
            "        match = [i for i in unplaced if same(m, kron(words[i], WIRES)) and np.isclose(complex(c), coeffs[i])]\n"
            "        assert match, f'measuring {d} (coefficient {c}) after {rots} is no input observable left to measure'\n"
            "        unplaced.remove(match[0])\n"
            "        group.append(match[0])\n"
            "    groups.append(group)\n"
            "assert not unplaced, f'{[observables[i] for i in unplaced]} are measured in no group'\n"
            + _relation_check(grouping))


def _diagonal_api(subject):
    return "pennylane.pauli." + subject.split(":")[0]


# -- law 3: word utilities agree with the Kronecker construction ---------------------------------
UTILITIES = ["pauli_word_to_matrix", "string_to_pauli_word", "pauli_word_to_string", "pauli_to_binary",
             "observables_to_binary_matrix", "binary_to_pauli", "are_identical_pauli_words", "is_pauli_word",
             "are_pauli_words_qwc", "is_qwc"]


def _utility_subjects():
    from pennylane import pauli

    return [n for n in UTILITIES if callable(getattr(pauli, n, None))]


def _utility_strategy(subject):
    from hypothesis import strategies as st

    extra = st.lists(st.sampled_from(POOL), max_size=2, unique=True)
    if subject == "are_identical_pauli_words":
        def pair(words):
            first = words[0]
            same = st.permutations(first).map(tuple)
            return st.tuples(st.just(first), st.one_of(same, st.just(words[-1]))).map(list)
        return st.tuples(_words(min_words=2, max_words=2).flatmap(pair), extra, st.just(None))
    if subject == "is_pauli_word":
        return st.tuples(_words(max_words=1), extra, st.sampled_from([None, "hadamard", "tensor_hadamard"]))
    if subject in ("are_pauli_words_qwc", "observables_to_binary_matrix"):
        many = st.one_of(_words(max_words=4),
                         st.lists(st.sampled_from(POOL), min_size=1, max_size=4, unique=True).flatmap(_qwc_group))
        return st.tuples(many, extra, st.just(None))
    if subject == "is_qwc":
        pairs = st.one_of(_words(min_words=2, max_words=2),
                          st.lists(st.sampled_from(POOL), min_size=1, max_size=4, unique=True).flatmap(_qwc_group)
                          .filter(lambda g: len(g) >= 2).map(lambda g: g[:2]))
        return st.tuples(pairs, extra, st.just(None))
    if subject in ("string_to_pauli_word", "binary_to_pauli"):
        # occasionally the all-identity word, as a string of I's or a zero vector
        return st.tuples(_words(max_words=1), extra, st.sampled_from([None, None, None, "identity"]))
    return st.tuples(_words(max_words=1), extra, st.just(None))


def _utility_reproduce(subject, example):
    words, extra, variant = example
    code = _header(words, extra)
    code += "wire_map = {w: k for k, w in enumerate(WIRES)}  # every wire label to a unique integer 0..n-1\n"
    code += "n = len(WIRES)\n"
    if subject == "pauli_word_to_matrix":
        code += ("m = qml.pauli.pauli_word_to_matrix(observables[0], wire_map=wire_map)\n"
                 "assert same(m, kron(words[0], WIRES)), f'pauli_word_to_matrix({observables[0]}) is not its Kronecker matrix on {WIRES}'\n")
    elif subject == "pauli_word_to_string":
        code += ("s = qml.pauli.pauli_word_to_string(observables[0], wire_map=wire_map)\n"
                 "expected = ''.join(words[0].get(w, 'I') for w in WIRES)\n"
                 "assert s == expected, f'pauli_word_to_string({observables[0]}) = {s!r}, expected {expected!r} on {WIRES}'\n")
    elif subject == "string_to_pauli_word":
        if variant == "identity":
            code += "words = [{}]\n"
        code += ("string = ''.join(words[0].get(w, 'I') for w in WIRES)\n"
                 "op = qml.pauli.string_to_pauli_word(string, wire_map=wire_map)\n"
                 "assert same(qml.matrix(op, wire_order=WIRES), kron(words[0], WIRES)), (\n"
                 "    f'string_to_pauli_word({string!r}) = {op} is not that word on {WIRES}')\n")
    elif subject == "pauli_to_binary":
        code += ("v = qml.pauli.pauli_to_binary(observables[0], n_qubits=n, wire_map=wire_map)\n"
                 "expected = [int(words[0].get(w, 'I') in 'XY') for w in WIRES] + [int(words[0].get(w, 'I') in 'YZ') for w in WIRES]\n"
                 "assert np.array_equal(np.asarray(v), expected), f'pauli_to_binary({observables[0]}) = {v}, expected {expected} (x bits, then z bits)'\n")
    elif subject == "observables_to_binary_matrix":
        code += ("b = qml.pauli.observables_to_binary_matrix(observables, n_qubits=n, wire_map=wire_map)\n"
                 "expected = [[int(w.get(x, 'I') in 'XY') for x in WIRES] + [int(w.get(x, 'I') in 'YZ') for x in WIRES] for w in words]\n"
                 "assert np.array_equal(np.asarray(b), expected), f'observables_to_binary_matrix({observables}) = {b}, expected {expected}'\n")
    elif subject == "binary_to_pauli":
        if variant == "identity":
            code += "words = [{}]\n"
        code += ("vector = [int(words[0].get(w, 'I') in 'XY') for w in WIRES] + [int(words[0].get(w, 'I') in 'YZ') for w in WIRES]\n"
                 "op = qml.pauli.binary_to_pauli(vector, wire_map=wire_map)\n"
                 "assert same(qml.matrix(op, wire_order=WIRES), kron(words[0], WIRES)), (\n"
                 "    f'binary_to_pauli({vector}) = {op} is not the word {words[0]} (x bits, then z bits)')\n")
    elif subject == "are_identical_pauli_words":
        code += ("identical = qml.pauli.are_identical_pauli_words(observables[0], observables[1])\n"
                 "expected = same(kron(words[0], WIRES), kron(words[1], WIRES))\n"
                 "assert identical == expected, (\n"
                 "    f'are_identical_pauli_words({observables[0]}, {observables[1]}) = {identical}, expected {expected}')\n")
    elif subject == "is_pauli_word":
        target = {None: "observables[0]", "hadamard": f"qml.Hadamard({extra[0] if extra else 'h'!r})",
                  "tensor_hadamard": f"observables[0] @ qml.Hadamard({'h' if 'h' not in _wires_of(words) else 'hh'!r})"}[variant]
        code += (f"op = {target}\n"
                 "answer = qml.pauli.is_pauli_word(op)\n"
                 f"assert answer == {variant is None}, f'is_pauli_word({{op}}) = {{answer}}'\n")
    elif subject == "are_pauli_words_qwc":
        code += ("answer = qml.pauli.are_pauli_words_qwc(observables)\n"
                 "expected = all(qwc(p, q) for p in words for q in words)\n"
                 "assert answer == expected, f'are_pauli_words_qwc({observables}) = {answer}, expected {expected}'\n")
    elif subject == "is_qwc":
        code += ("vectors = [[int(w.get(x, 'I') in 'XY') for x in WIRES] + [int(w.get(x, 'I') in 'YZ') for x in WIRES] for w in words]\n"
                 "answer = qml.pauli.is_qwc(vectors[0], vectors[1])\n"
                 "expected = qwc(words[0], words[1])\n"
                 "assert answer == expected, f'is_qwc({vectors[0]}, {vectors[1]}) (for {observables[0]}, {observables[1]}) = {answer}, expected {expected}'\n")
    return code


# -- law 4: PauliWord / PauliSentence arithmetic --------------------------------------------------
ARITHMETIC = ["PauliWord.to_mat", "PauliSentence.to_mat", "PauliWord.__matmul__", "PauliSentence.__matmul__",
              "PauliSentence.__add__", "PauliSentence.__sub__", "PauliSentence.__rmul__", "PauliWord.commutator",
              "PauliSentence.commutator", "PauliWord.commutes_with"]


def _defines(cls, name):
    """Whether the class (not dict, its base) defines the method."""
    return any(name in vars(klass) for klass in cls.__mro__ if klass is not dict and klass is not object)


def _arithmetic_subjects():
    from pennylane import pauli

    return [s for s in ARITHMETIC if _defines(getattr(pauli, s.split(".")[0]), s.split(".")[1])]


def _sentence():
    from hypothesis import strategies as st

    coeff = st.one_of(st.sampled_from(COEFFS), st.tuples(st.sampled_from(COEFFS), st.sampled_from(COEFFS)).map(
        lambda t: complex(*t)))
    return st.lists(st.tuples(st.sampled_from(range(6)), coeff), min_size=1, max_size=4, unique_by=lambda t: t[0])


def _arithmetic_strategy(subject):
    from hypothesis import strategies as st

    words = _words(min_words=6, max_words=6)
    return words.flatmap(lambda ws: st.tuples(
        st.just(ws), _sentence(), _sentence(), st.sampled_from(COEFFS + [0.5j, -2j]),
        st.permutations(_wires_of(ws) + [w for w in POOL[:2] if w not in _wires_of(ws)]),
        st.sampled_from(["dense", "csr"])))


def _arithmetic_reproduce(subject, example):
    words, first, second, scalar, order, fmt = example
    cls, method = subject.split(".")
    code = PRELUDE + f"ORDER = {list(order)!r}  # a wire order: the words' wires in a drawn order, plus spare wires\nWIRES = ORDER\n"
    code += "from pennylane.pauli import PauliSentence, PauliWord\n\n"
    code += f"words = [{', '.join(_dict_src(w) for w in words)}]\n"
    code += ("\n\ndef matrix_of(sentence):\n"
             "    \"\"\"The matrix of a PauliSentence / PauliWord read term by term: sum of c * kron(word).\"\"\"\n"
             "    if isinstance(sentence, PauliWord):\n"
             "        return kron(dict(sentence), ORDER)\n"
             "    return sum((c * kron(dict(pw), ORDER) for pw, c in sentence.items()), np.zeros((2 ** len(ORDER),) * 2, dtype=complex))\n\n\n")
    if cls == "PauliWord":
        a, b = words[first[0][0]], words[second[0][0]]
        code += (f"A = PauliWord({_dict_src(a)})\nB = PauliWord({_dict_src(b)})\n"
                 f"a, b = kron({_dict_src(a)}, ORDER), kron({_dict_src(b)}, ORDER)\n")
    else:
        def distinct(terms):
            """Terms on distinct words: a PauliSentence is a dict, one coefficient per word."""
            seen, kept = [], []
            for k, c in terms:
                if frozenset(words[k]) not in seen:
                    seen.append(frozenset(words[k]))
                    kept.append((k, c))
            return kept
        first, second = distinct(first), distinct(second)

        def sent(terms):
            return "PauliSentence({" + ", ".join(f"PauliWord(words[{k}]): {c!r}" for k, c in terms) + "})"

        def mat(terms):
            return " + ".join(f"{c!r} * kron(words[{k}], ORDER)" for k, c in terms)
        code += f"A = {sent(first)}\nB = {sent(second)}\na = {mat(first)}\nb = {mat(second)}\n"
    if method == "to_mat":
        code += (f"m = A.to_mat(wire_order=ORDER, format={fmt!r})\n"
                 "m = m.toarray() if hasattr(m, 'toarray') else np.asarray(m)\n"
                 f"assert same(m, a), f\"{{A}}.to_mat(wire_order={{ORDER}}, format={fmt!r}) is not its Kronecker matrix\"\n")
    elif method == "__matmul__":
        code += ("r = A @ B\n"
                 "assert same(matrix_of(r), a @ b), f'({A}) @ ({B}) = {r}, not the operator product'\n")
    elif method == "__add__":
        code += ("r = A + B\n"
                 "assert same(matrix_of(r), a + b), f'({A}) + ({B}) = {r}'\n")
    elif method == "__sub__":
        code += ("r = A - B\n"
                 "assert same(matrix_of(r), a - b), f'({A}) - ({B}) = {r}'\n")
    elif method == "__rmul__":
        code += (f"r = {scalar!r} * A\n"
                 f"assert same(matrix_of(r), {scalar!r} * a), f'{scalar!r} * ({{A}}) = {{r}}'\n")
    elif method == "commutator":
        code += ("r = A.commutator(B)\n"
                 "assert same(matrix_of(r), a @ b - b @ a), f'[{A}, {B}] = {r}, not AB - BA'\n")
    elif method == "commutes_with":
        code += ("answer = A.commutes_with(B)\n"
                 "expected = same(a @ b, b @ a)\n"
                 "assert answer == expected, f'{A}.commutes_with({B}) = {answer}, expected {expected}'\n")
    return code


def _arithmetic_api(subject):
    return "pennylane.pauli." + subject


# -- shared -----------------------------------------------------------------------------------------
def _checker(reproduce):
    def check(subject, example):
        exec(compile(reproduce(subject, example), "<pauli-law>", "exec"), {"__name__": "__main__"})
    return check


SOURCE = "documentation: pennylane.pauli ({}); words checked against Kronecker products of the 2x2 Paulis"

CONTRACTS = [
    Contract("pennylane.pauli.grouping-partitions-by-the-relation", "pauli grouping",
             "qml.pauli grouping (group_observables with coefficients, compute_partition_indices, "
             "PauliGroupingStrategy, Hamiltonian/LinearCombination grouping_type and compute_grouping -> "
             "grouping_indices), for every documented grouping_type and colouring method: every input observable "
             "is in exactly one group, with its own coefficient, and every two observables of a group are "
             "qubit-wise commuting / commuting / anticommuting as requested (checked on Kronecker matrices); "
             "grouping leaves the Hamiltonian's matrix unchanged",
             SOURCE.format("group_observables, compute_partition_indices, PauliGroupingStrategy, "
                           "LinearCombination grouping_type / compute_grouping / grouping_indices"),
             _grouping_subjects, _grouping_strategy, _checker(_grouping_reproduce), _grouping_reproduce,
             _grouping_api),
    Contract("pennylane.pauli.qwc-rotations-diagonalize", "pauli grouping",
             "the post-rotations of diagonalize_qwc_pauli_words / diagonalize_qwc_groupings / optimize_measurements "
             "diagonalize every word: with U the rotations' unitary, each returned word D is diagonal and "
             "U^dag D U is the input word it corresponds to (same order; for optimize_measurements, every input "
             "observable measured in exactly one qubit-wise commuting group with its coefficient)",
             SOURCE.format("diagonalize_qwc_pauli_words, diagonalize_qwc_groupings, optimize_measurements"),
             _diagonal_subjects, _diagonal_strategy, _checker(_diagonal_reproduce), _diagonal_reproduce,
             _diagonal_api),
    Contract("pennylane.pauli.word-utilities-match-kronecker", "pauli grouping",
             "qml.pauli conversions and predicates agree with the Kronecker construction on a wire_map of integer "
             "and string labels: pauli_word_to_matrix is the word's matrix, string_to_pauli_word / binary_to_pauli "
             "build the word the string / (x bits, z bits) vector names, pauli_word_to_string / pauli_to_binary / "
             "observables_to_binary_matrix write it so, are_identical_pauli_words is matrix equality, "
             "is_pauli_word is True for Pauli words and False with a Hadamard, are_pauli_words_qwc and is_qwc are "
             "qubit-wise commutation",
             SOURCE.format(", ".join(UTILITIES)),
             _utility_subjects, _utility_strategy, _checker(_utility_reproduce), _utility_reproduce,
             lambda subject: "pennylane.pauli." + subject),
    Contract("pennylane.pauli.pauli-arithmetic-matches-matrices", "pauli grouping",
             "PauliWord / PauliSentence: to_mat(wire_order=..., format=dense|csr) is the Kronecker matrix in that "
             "wire order; @ is the operator product, + / - / scalar * the linear operations, commutator is AB - BA "
             "and commutes_with says whether AB = BA (results read term by term into Kronecker matrices)",
             SOURCE.format("PauliWord, PauliSentence: to_mat, __matmul__, __add__, __sub__, __mul__, commutator, "
                           "commutes_with"),
             _arithmetic_subjects, _arithmetic_strategy, _checker(_arithmetic_reproduce), _arithmetic_reproduce,
             _arithmetic_api),
]
