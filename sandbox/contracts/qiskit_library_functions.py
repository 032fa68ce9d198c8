"""Circuit library functions, Qiskit: classes and synthesis functions whose documentation
states a classical or linear-algebraic function must compute it. Checked on
computational-basis inputs by simulating the library's own object with
qiskit.quantum_info.Statevector / Operator and comparing against the function computed here
with plain integers and numpy:

  - arithmetic: adders (|a>|b> -> |a>|a+b>, with carry-in / carry-out as the kind says),
    multipliers (|a>|b>|0> -> |a>|b>|a*b mod 2^t>), integer comparators
    (|i>|0> -> |i>|i >= L>), weighted adders (|q>|0>_s -> |q>|sum_j w_j q_j>_s); clean
    ancillas (AncillaRegister / the documented extra qubits) end in |0>;
  - Fourier: QFT|j> = 2^{-n/2} sum_k e^{2 pi i jk / 2^n}|k> (exact for approximation_degree=0,
    global phase included); do_swaps=False is the QFT followed by reversing the output qubits;
  - boolean logic: AND / OR flip the result qubit by the (negated / omitted) literals' AND / OR,
    XOR / BitwiseXor map |x> -> |x ^ amount>, InnerProduct is diag((-1)^{x.y});
  - permutations and linear functions: pattern[k] = m moves qubit m to position k;
    LinearFunction(A) maps |x> -> |Ax> over GF(2) (row i = output qubit i);
  - GraphState(A) prepares the state stabilised by X_a prod_{b ~ a} Z_b for every vertex a.

Registers are little-endian (qubit 0 is the least significant bit of a register's integer),
as the documentation of every class here states. Subjects are the names the live release
exports (qiskit.circuit.library, qiskit.synthesis).
"""

import math

import numpy as np

from contract_runtime import Contract

ATOL = 1e-7
LIB = "qiskit.circuit.library"
SYN = "qiskit.synthesis"


def _exists(module, name):
    import importlib

    return hasattr(importlib.import_module(module), name)


def _present(table):
    return sorted(name for name, spec in table.items() if _exists(spec[0], name))


def _build(module, name, call, extra_imports=()):
    """The library object, built from the same call text the reproducer writes."""
    import importlib

    namespace = {name: getattr(importlib.import_module(module), name)}
    for extra_module, extra_name in extra_imports:
        namespace[extra_name] = getattr(importlib.import_module(extra_module), extra_name)
    return eval(call, namespace)  # noqa: S307 - call text built by this module from drawn integers


def _imports(module, name, extra_imports=()):
    lines = [f"from {module} import {name}"]
    lines += [f"from {m} import {n}" for m, n in extra_imports]
    return "\n".join(lines) + "\n"


def _index(values_and_sizes):
    """Little-endian basis index of registers laid out in order: [(value, size), ...]."""
    index, shift = 0, 0
    for value, size in values_and_sizes:
        index |= (value & ((1 << size) - 1)) << shift
        shift += size
    return index


def _split(index, sizes):
    values, shift = [], 0
    for size in sizes:
        values.append((index >> shift) & ((1 << size) - 1))
        shift += size
    return values


def _evolve_basis(obj, index):
    from qiskit.quantum_info import Statevector

    return Statevector.from_int(index, 2 ** obj.num_qubits).evolve(obj).data


# =========================================================================================
# Arithmetic
# =========================================================================================
# name -> (module, category, kinds). A kind names the documented variant: 'full' has a
# carry-in and a carry-out, 'half' only a carry-out, 'fixed' neither (sum mod 2^n).
ARITHMETIC = {
    "CDKMRippleCarryAdder": (LIB, "adder", ("full", "half", "fixed")),
    "VBERippleCarryAdder": (LIB, "adder", ("full", "half", "fixed")),
    "DraperQFTAdder": (LIB, "adder", ("half", "fixed")),
    "HalfAdderGate": (LIB, "adder", ("half",)),
    "FullAdderGate": (LIB, "adder", ("full",)),
    "ModularAdderGate": (LIB, "adder", ("fixed",)),
    "adder_ripple_c04": (SYN, "adder", ("full", "half", "fixed")),
    "adder_ripple_v95": (SYN, "adder", ("full", "half", "fixed")),
    "adder_qft_d00": (SYN, "adder", ("half", "fixed")),
    "adder_ripple_r25": (SYN, "adder", ("half",)),
    "adder_modular_v17": (SYN, "adder", ("fixed",)),
    "RGQFTMultiplier": (LIB, "multiplier", None),
    "HRSCumulativeMultiplier": (LIB, "multiplier", None),
    "MultiplierGate": (LIB, "multiplier", None),
    "multiplier_qft_r17": (SYN, "multiplier", None),
    "multiplier_cumulative_h18": (SYN, "multiplier", None),
    "IntegerComparator": (LIB, "comparator", None),
    "IntegerComparatorGate": (LIB, "comparator", None),
    "synth_integer_comparator_2s": (SYN, "comparator", None),
    "synth_integer_comparator_greedy": (SYN, "comparator", None),
    "WeightedAdder": (LIB, "weighted", None),
    "WeightedSumGate": (LIB, "weighted", None),
    "synth_weighted_sum_carry": (SYN, "weighted", None),
}
# Classes/functions built with a `kind=` argument (the gates have one fixed kind).
KIND_ARGUMENT = {"CDKMRippleCarryAdder", "VBERippleCarryAdder", "DraperQFTAdder", "adder_ripple_c04",
                 "adder_ripple_v95", "adder_qft_d00"}


MINIMAL = {"adder": lambda kinds: (1, kinds[0]), "multiplier": lambda kinds: (1, 2),
           "comparator": lambda kinds: (1, 0, True), "weighted": lambda kinds: (1, [1])}


def _simulable(subject):
    """False for a gate the release defines only through synthesis plugins (no
    `definition`): there is no circuit of the gate's own for Statevector to evolve."""
    from qiskit.circuit import Gate

    module, category, kinds = ARITHMETIC[subject]
    _, call, extra = _arithmetic_call(subject, MINIMAL[category](kinds))
    obj = _build(module, subject, call, extra)
    return not isinstance(obj, Gate) or obj.definition is not None


def _arithmetic_subjects():
    return [name for name in _present(ARITHMETIC) if _simulable(name)]


def _arithmetic_strategy(subject):
    from hypothesis import strategies as st

    _, category, kinds = ARITHMETIC[subject]
    if category == "adder":
        def inputs(params):
            n, kind = params
            value = st.integers(0, 2 ** n - 1)
            return st.lists(st.tuples(value, value, st.integers(0, 1 if kind == "full" else 0)),
                            min_size=1, max_size=3)
        params = st.tuples(st.integers(1, 4), st.sampled_from(kinds))
    elif category == "multiplier":
        def inputs(params):
            n, _ = params
            value = st.integers(0, 2 ** n - 1)
            return st.lists(st.tuples(value, value), min_size=1, max_size=2)
        # widths 1-2: building and simulating a 3-qubit multiplier (controlled adders on
        # 10-13 qubits) takes about a second or more per example on old releases
        params = st.integers(1, 2).flatmap(lambda n: st.tuples(st.just(n), st.integers(n, 2 * n)))
    elif category == "comparator":
        def inputs(params):
            n = params[0]
            return st.lists(st.integers(0, 2 ** n - 1), min_size=1, max_size=4)
        params = st.integers(1, 4).flatmap(
            lambda n: st.tuples(st.just(n), st.integers(0, 2 ** n), st.booleans()))
    else:  # weighted
        def inputs(params):
            n = params[0]
            return st.lists(st.integers(0, 2 ** n - 1), min_size=1, max_size=4)
        params = st.integers(1, 4).flatmap(
            lambda n: st.tuples(st.just(n), st.lists(st.integers(0, 3), min_size=n, max_size=n)))
    return params.flatmap(lambda p: st.tuples(st.just(p), inputs(p)))


def _arithmetic_call(subject, params):
    module, category, _ = ARITHMETIC[subject]
    extra = ()
    if category == "adder":
        n, kind = params
        call = f"{subject}({n}, kind={kind!r})" if subject in KIND_ARGUMENT else f"{subject}({n})"
    elif category == "multiplier":
        n, r = params
        call = f"{subject}({n}, num_result_qubits={r})"
    elif category == "comparator":
        n, value, geq = params
        call = f"{subject}({n}, {value}, geq={geq})"
    else:
        n, weights = params
        if subject == "synth_weighted_sum_carry":
            call = f"{subject}(WeightedSumGate({n}, {list(weights)}))"
            extra = ((LIB, "WeightedSumGate"),)
        else:
            call = f"{subject}({n}, {list(weights)})"
    return module, call, extra


def _sum_qubits(weights):
    total = sum(weights)
    return 1 if total == 0 else 1 + int(math.floor(math.log2(total)))


def _arithmetic_cases(subject, params, inputs, num_qubits):
    """For each basis input: (input index, [expected output indices], register names,
    register sizes, input description, expected description). Several expected indices
    mean the documentation leaves some qubits free (a full adder's carry-in)."""
    _, category, _ = ARITHMETIC[subject]
    cases = []
    if category == "adder":
        n, kind = params
        names = (["cin"] if kind == "full" else []) + ["a", "b"] + ([] if kind == "fixed" else ["cout"])
        sizes = [1 if name in ("cin", "cout") else n for name in names]
        ancillas = num_qubits - sum(sizes)
        names, sizes = names + ["ancilla"], sizes + [ancillas]
        for a, b, cin in inputs:
            total = a + b + cin
            register = {"cin": cin, "a": a, "b": b, "cout": 0, "ancilla": 0}
            index = _index([(register[name], size) for name, size in zip(names, sizes)])
            out = {"a": a, "b": total % 2 ** n, "cout": total >> n, "ancilla": 0}
            expected = [_index([((c if name == "cin" else out[name]), size) for name, size in zip(names, sizes)])
                        for c in ((0, 1) if kind == "full" else (0,))]
            want = f"a={a}, b={total % 2 ** n}" + ("" if kind == "fixed" else f", cout={total >> n}")
            cases.append((index, expected, names, sizes, f"cin={cin}, a={a}, b={b}" if kind == "full" else
                          f"a={a}, b={b}", want))
    elif category == "multiplier":
        n, r = params
        names, sizes = ["a", "b", "out", "ancilla"], [n, n, r, num_qubits - 2 * n - r]
        for a, b in inputs:
            index = _index([(a, n), (b, n), (0, r), (0, sizes[3])])
            product = (a * b) % 2 ** r
            cases.append((index, [_index([(a, n), (b, n), (product, r), (0, sizes[3])])], names, sizes,
                          f"a={a}, b={b}", f"a={a}, b={b}, out={product}"))
    elif category == "comparator":
        n, value, geq = params
        names, sizes = ["state", "target", "ancilla"], [n, 1, num_qubits - n - 1]
        for i in inputs:
            result = int(i >= value) if geq else int(i < value)
            cases.append((_index([(i, n)]), [_index([(i, n), (result, 1)])], names, sizes,
                          f"state={i}", f"state={i}, target={result}"))
    else:
        n, weights = params
        s = _sum_qubits(weights)
        names, sizes = ["state", "sum", "ancilla"], [n, s, num_qubits - n - s]
        for q in inputs:
            total = sum(w * ((q >> j) & 1) for j, w in enumerate(weights))
            cases.append((_index([(q, n)]), [_index([(q, n), (total, s)])], names, sizes,
                          f"state={q}", f"state={q}, sum={total}"))
    return cases


def _check_arithmetic(subject, example):
    params, inputs = example
    module, call, extra = _arithmetic_call(subject, params)
    obj = _build(module, subject, call, extra)
    _assert_definition_width(obj, call)
    for index, expected, names, sizes, given, want in _arithmetic_cases(subject, params, inputs, obj.num_qubits):
        assert sizes[-1] >= 0, f"{call} has {obj.num_qubits} qubits, fewer than its documented registers {sizes[:-1]}"
        probabilities = np.abs(_evolve_basis(obj, index)) ** 2
        p = float(sum(probabilities[e] for e in expected))
        top = _split(int(np.argmax(probabilities)), sizes)
        got = ", ".join(f"{name}={value}" for name, value in zip(names, top))
        assert p > 1 - 1e-6, (f"{call} on the basis input {given} (qubits {index:#b}, ancillas 0) does not give "
                              f"{want}, ancillas 0: probability {p:.3g}; most likely output {got}")


def _assert_definition_width(obj, call):
    """A gate computes its function through its definition: one on other qubits than the
    gate's cannot (Statevector / Operator / transpile then fail on documented input)."""
    definition = getattr(obj, "definition", None) if not hasattr(obj, "qregs") else None
    if definition is not None:
        assert definition.num_qubits == obj.num_qubits, (
            f"{call} acts on {obj.num_qubits} qubits but its definition on {definition.num_qubits}: "
            "the gate's implementation cannot compute its documented function")


def _width_line(obj):
    if hasattr(obj, "qregs") or getattr(obj, "definition", None) is None:
        return ""
    return ("assert obj.definition.num_qubits == obj.num_qubits, "
            "f'gate on {obj.num_qubits} qubits, definition on {obj.definition.num_qubits}'\n")


def _reproduce_arithmetic(subject, example):
    params, inputs = example
    module, call, extra = _arithmetic_call(subject, params)
    obj = _build(module, subject, call, extra)
    lines = [_imports(module, subject, extra) + "from qiskit.quantum_info import Statevector\n",
             f"label = {call!r}\nobj = {call}\n" + _width_line(obj).rstrip("\n"),
             "# registers in qubit order, little-endian integers: "]
    cases = _arithmetic_cases(subject, params, inputs, obj.num_qubits)
    lines[-1] += ", ".join(f"{name}: {size} qubit(s)" for name, size in zip(cases[0][2], cases[0][3]))
    lines.append("cases = [  # (basis input, input, expected basis outputs, expected)")
    for index, expected, _, _, given, want in cases:
        lines.append(f"    ({index}, {given!r}, {expected}, {want!r}),")
    lines.append("]")
    lines.append("for index, given, expected, want in cases:\n"
                 "    out = Statevector.from_int(index, 2 ** obj.num_qubits).evolve(obj)\n"
                 "    p = sum(out.probabilities()[e] for e in expected)\n"
                 "    assert p > 1 - 1e-6, f'{label} on {given} should give {want} (ancillas 0), probability {p}'")
    return "\n".join(lines) + "\n"


def _arithmetic_api(subject):
    return f"{ARITHMETIC[subject][0]}.{subject}"


def _describe_arithmetic(subject, example):
    params, inputs = example
    return f"{_arithmetic_call(subject, params)[1]} on inputs {inputs}"


# =========================================================================================
# Fourier
# =========================================================================================
# name -> (module, accepted keyword arguments). QFTGate takes the width only; its inverse
# is drawn as QFTGate(n).inverse().
FOURIER = {
    "QFT": (LIB, ("do_swaps", "inverse", "insert_barriers")),
    "QFTGate": (LIB, ("inverse_method",)),
    "synth_qft_full": (SYN, ("do_swaps", "inverse", "insert_barriers")),
    "synth_qft_line": (SYN, ("do_swaps",)),
}


def _fourier_subjects():
    return _present(FOURIER)


def _fourier_strategy(subject):
    from hypothesis import strategies as st

    return st.tuples(st.integers(1, 4), st.booleans(), st.booleans(), st.booleans())


def _fourier_call(subject, example):
    n, do_swaps, inverse, barriers = example
    accepted = FOURIER[subject][1]
    args = [str(n), "approximation_degree=0"] if subject != "QFTGate" else [str(n)]
    if "do_swaps" in accepted:
        args.append(f"do_swaps={do_swaps}")
    if "inverse" in accepted:
        args.append(f"inverse={inverse}")
    if "insert_barriers" in accepted:
        args.append(f"insert_barriers={barriers}")
    call = f"{subject}({', '.join(args)})"
    if "inverse_method" in accepted and inverse:
        call += ".inverse()"
    return call


def _fourier_effective(subject, example):
    """(do_swaps, inverse) the call asks for (defaults where the subject has no such argument)."""
    _, do_swaps, inverse, _ = example
    accepted = FOURIER[subject][1]
    return (do_swaps if "do_swaps" in accepted else True,
            inverse if ("inverse" in accepted or "inverse_method" in accepted) else False)


def dft_matrix(n, do_swaps=True, inverse=False):
    """F[k, j] = e^{2 pi i jk/N}/sqrt(N); without swaps the output qubits are reversed
    (R F); the inverse is the adjoint of that."""
    size = 2 ** n
    j = np.arange(size)
    f = np.exp(2j * np.pi * np.outer(j, j) / size) / math.sqrt(size)
    if not do_swaps:
        reverse = [int(format(k, f"0{n}b")[::-1], 2) for k in range(size)]
        f = f[reverse, :]
    return f.conj().T if inverse else f


def _check_fourier(subject, example):
    from qiskit.quantum_info import Operator

    module = FOURIER[subject][0]
    call = _fourier_call(subject, example)
    obj = _build(module, subject, call)
    n = example[0]
    do_swaps, inverse = _fourier_effective(subject, example)
    expected = dft_matrix(n, do_swaps, inverse)
    actual = Operator(obj).data
    assert actual.shape == expected.shape, f"{call} acts on {actual.shape}, expected {expected.shape}"
    deviation = float(np.max(np.abs(actual - expected)))
    assert deviation < ATOL, (f"{call} is not the {'inverse ' if inverse else ''}DFT matrix "
                              f"e^(2 pi i jk/2^n)/2^(n/2){'' if do_swaps else ' with reversed output qubits'} "
                              f"(max deviation {deviation:.3g}, global phase included)")


def _reproduce_fourier(subject, example):
    module = FOURIER[subject][0]
    call = _fourier_call(subject, example)
    n = example[0]
    do_swaps, inverse = _fourier_effective(subject, example)
    return (_imports(module, subject) + "import numpy as np\nfrom qiskit.quantum_info import Operator\n\n"
            f"n = {n}\nsize = 2 ** n\nj = np.arange(size)\n"
            "# documented QFT: |j> -> 2^(-n/2) sum_k e^(2 pi i jk / 2^n) |k>\n"
            "expected = np.exp(2j * np.pi * np.outer(j, j) / size) / np.sqrt(size)\n"
            + ("" if do_swaps else
               "# do_swaps=False: the QFT followed by reversing the order of the output qubits\n"
               "expected = expected[[int(format(k, f'0{n}b')[::-1], 2) for k in range(size)], :]\n")
            + ("expected = expected.conj().T  # the inverse QFT\n" if inverse else "")
            + f"actual = Operator({call}).data\n"
            "deviation = np.max(np.abs(actual - expected))\n"
            f"assert deviation < {ATOL}, f'{call} differs from the documented DFT matrix by {{deviation}}'\n")


def _fourier_api(subject):
    return f"{FOURIER[subject][0]}.{subject}"


# =========================================================================================
# Boolean logic
# =========================================================================================
# name -> (module, category)
BOOLEAN = {
    "AND": (LIB, "and"),
    "AndGate": (LIB, "and"),
    "OR": (LIB, "or"),
    "OrGate": (LIB, "or"),
    "XOR": (LIB, "xor"),
    "BitwiseXorGate": (LIB, "xor"),
    "InnerProduct": (LIB, "inner"),
    "InnerProductGate": (LIB, "inner"),
}
MCX_MODES = ("noancilla", "v-chain", "basic", "recursion")


def _boolean_subjects():
    return _present(BOOLEAN)


def _boolean_strategy(subject):
    from hypothesis import strategies as st

    category = BOOLEAN[subject][1]
    if category in ("and", "or"):
        def params(n):
            flags = st.lists(st.sampled_from([1, 0, -1]), min_size=n, max_size=n).filter(any)
            mode = st.sampled_from(MCX_MODES) if subject in ("AND", "OR") else st.just(None)
            return st.tuples(st.just(n), flags, mode)
        width = st.integers(1, 4)
    elif category == "xor":
        def params(n):
            return st.tuples(st.just(n), st.integers(0, 2 ** n - 1))
        width = st.integers(1, 4)
    else:
        def params(n):
            return st.tuples(st.just(n))
        width = st.integers(1, 3)

    def with_inputs(p):
        n = p[0]
        bits = 2 * n if category == "inner" else n
        target = st.integers(0, 1) if category in ("and", "or") else st.just(0)
        return st.tuples(st.just(p), st.lists(st.tuples(st.integers(0, 2 ** bits - 1), target),
                                              min_size=1, max_size=4))
    return width.flatmap(params).flatmap(with_inputs)


def _boolean_call(subject, params):
    category = BOOLEAN[subject][1]
    if category in ("and", "or"):
        n, flags, mode = params
        return f"{subject}({n}, flags={list(flags)}" + (f", mcx_mode={mode!r})" if mode else ")")
    if category == "xor":
        return f"{subject}({params[0]}, amount={params[1]})"
    return f"{subject}({params[0]})"


def _boolean_cases(subject, params, inputs, num_qubits):
    """(input index, expected index, expected amplitude, input text, expected text)."""
    category = BOOLEAN[subject][1]
    n = params[0]
    cases = []
    for x, target in inputs:
        if category in ("and", "or"):
            flags = params[1]
            literals = [((x >> i) & 1) == (1 if f == 1 else 0) for i, f in enumerate(flags) if f != 0]
            value = all(literals) if category == "and" else any(literals)
            out = target ^ int(value)
            cases.append((_index([(x, n), (target, 1)]), _index([(x, n), (out, 1)]), 1.0,
                          f"variables={x:0{n}b}[q{n - 1}..q0], result={target}",
                          f"result={out}, ancillas 0"))
        elif category == "xor":
            cases.append((x, x ^ params[1], 1.0, f"x={x}", f"x={x ^ params[1]}"))
        else:
            y, xs = x >> n, x & (2 ** n - 1)
            sign = (-1) ** bin(xs & y).count("1")
            cases.append((x, x, float(sign), f"x={xs}, y={y}", f"amplitude {sign} (inner product phase)"))
    return cases


def _check_boolean(subject, example):
    params, inputs = example
    module = BOOLEAN[subject][0]
    call = _boolean_call(subject, params)
    obj = _build(module, subject, call)
    for index, expected, amplitude, given, want in _boolean_cases(subject, params, inputs, obj.num_qubits):
        data = _evolve_basis(obj, index)
        got = complex(data[expected])
        top = int(np.argmax(np.abs(data)))
        assert abs(got - amplitude) < ATOL, (
            f"{call} on the basis input {given} (qubits {index:#b}) should give {want} "
            f"(basis state {expected:#b}, amplitude {amplitude:g}); got amplitude {got:.3g} there, "
            f"largest output |{top:#b}> with amplitude {complex(data[top]):.3g}")


def _reproduce_boolean(subject, example):
    params, inputs = example
    module = BOOLEAN[subject][0]
    call = _boolean_call(subject, params)
    obj = _build(module, subject, call)
    lines = [_imports(module, subject) + "from qiskit.quantum_info import Statevector\n",
             f"label = {call!r}\nobj = {call}",
             "cases = [  # (basis input, input, expected basis output, its amplitude, expected)"]
    for index, expected, amplitude, given, want in _boolean_cases(subject, params, inputs, obj.num_qubits):
        lines.append(f"    ({index}, {given!r}, {expected}, {amplitude}, {want!r}),")
    lines.append("]")
    lines.append("for index, given, expected, amplitude, want in cases:\n"
                 "    out = Statevector.from_int(index, 2 ** obj.num_qubits).evolve(obj).data\n"
                 f"    assert abs(out[expected] - amplitude) < {ATOL}, "
                 "f'{label} on {given} should give {want}; amplitude {out[expected]}'")
    return "\n".join(lines) + "\n"


def _boolean_api(subject):
    return f"{BOOLEAN[subject][0]}.{subject}"


# =========================================================================================
# Permutations and linear functions
# =========================================================================================
# name -> (module, how it is built: 'pattern' | 'sized pattern' | 'matrix')
PERMUTATIONS = {
    "PermutationGate": (LIB, "pattern"),
    "Permutation": (LIB, "sized pattern"),
    "LinearFunction": (LIB, "matrix"),
    "synth_permutation_basic": (SYN, "pattern"),
    "synth_permutation_acg": (SYN, "pattern"),
    "synth_permutation_depth_lnn_kms": (SYN, "pattern"),
}


def _permutation_subjects():
    return _present(PERMUTATIONS)


def _permutation_strategy(subject):
    from hypothesis import strategies as st

    kind = PERMUTATIONS[subject][1]
    if kind == "matrix":
        # An invertible GF(2) matrix: a permutation times row additions (the documented
        # input is an invertible n x n 0/1 matrix).
        def params(n):
            moves = st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).filter(lambda t: t[0] != t[1]),
                             max_size=6) if n > 1 else st.just([])
            return st.tuples(st.just(n), st.permutations(range(n)), moves)
    else:
        def params(n):
            return st.tuples(st.just(n), st.permutations(range(n)))
    return st.integers(1, 5).flatmap(params).flatmap(
        lambda p: st.tuples(st.just(p), st.lists(st.integers(0, 2 ** p[0] - 1), min_size=1, max_size=4)))


def _matrix_of(params):
    n, order, moves = params
    matrix = np.eye(n, dtype=int)[list(order)]
    for target, source in moves:
        matrix[target] = (matrix[target] + matrix[source]) % 2
    return matrix


def _permutation_call(subject, params):
    kind = PERMUTATIONS[subject][1]
    if kind == "matrix":
        return f"{subject}({_matrix_of(params).tolist()})"
    pattern = [int(k) for k in params[1]]
    if kind == "sized pattern":
        return f"{subject}({params[0]}, pattern={pattern})"
    return f"{subject}({pattern})"


def _permutation_image(subject, params, x):
    n = params[0]
    bits = [(x >> i) & 1 for i in range(n)]
    if PERMUTATIONS[subject][1] == "matrix":
        out = (_matrix_of(params) @ np.array(bits)) % 2  # row i: output qubit i
        return sum(int(b) << i for i, b in enumerate(out))
    pattern = params[1]
    return sum(bits[pattern[k]] << k for k in range(n))  # qubit pattern[k] goes to position k


def _check_permutation(subject, example):
    params, inputs = example
    module = PERMUTATIONS[subject][0]
    call = _permutation_call(subject, params)
    obj = _build(module, subject, call)
    for x in inputs:
        expected = _permutation_image(subject, params, x)
        data = _evolve_basis(obj, x)
        top = int(np.argmax(np.abs(data)))
        assert abs(complex(data[expected]) - 1) < ATOL, (
            f"{call} maps the basis state |{x:0{params[0]}b}> (q{params[0] - 1}..q0) to "
            f"{complex(data[top]):.3g}|{top:0{params[0]}b}>, documented |{expected:0{params[0]}b}>")


def _reproduce_permutation(subject, example):
    params, inputs = example
    module = PERMUTATIONS[subject][0]
    call = _permutation_call(subject, params)
    n = params[0]
    rule = ("# LinearFunction(A): output qubit i = sum_j A[i][j] x_j mod 2" if PERMUTATIONS[subject][1] == "matrix"
            else "# pattern[k] = m: qubit m goes to position k")
    cases = [(x, _permutation_image(subject, params, x)) for x in inputs]
    return (_imports(module, subject) + "from qiskit.quantum_info import Statevector\n\n"
            f"obj = {call}\n{rule}\n"
            f"cases = {cases}  # (basis input, documented basis output), little-endian\n"
            "for x, expected in cases:\n"
            f"    out = Statevector.from_int(x, 2 ** {n}).evolve(obj).data\n"
            f"    assert abs(out[expected] - 1) < {ATOL}, f'{call} maps |{{x}}> to amplitude "
            "{out[expected]} on |{expected}>, documented 1'\n")


def _permutation_api(subject):
    return f"{PERMUTATIONS[subject][0]}.{subject}"


# =========================================================================================
# Graph states
# =========================================================================================
GRAPH = {"GraphState": LIB, "GraphStateGate": LIB}


def _graph_subjects():
    return sorted(name for name, module in GRAPH.items() if _exists(module, name))


def _graph_strategy(subject):
    from hypothesis import strategies as st

    def edges(n):
        pairs = [(a, b) for a in range(n) for b in range(a + 1, n)]
        return st.tuples(st.just(n), st.lists(st.sampled_from(pairs), unique=True) if pairs else st.just([]))
    return st.integers(1, 5).flatmap(edges)


def _adjacency(example):
    n, edges = example
    matrix = [[0] * n for _ in range(n)]
    for a, b in edges:
        matrix[a][b] = matrix[b][a] = 1
    return matrix


def stabiliser_image(state, vertex, adjacency):
    """K_a |psi> with K_a = X_a prod_{b ~ a} Z_b, on a little-endian state vector."""
    indices = np.arange(len(state))
    neighbours = [b for b, edge in enumerate(adjacency[vertex]) if edge]
    sign = np.ones(len(state))
    for b in neighbours:
        sign = sign * (1 - 2 * ((indices >> b) & 1))
    out = np.zeros_like(state)
    out[indices ^ (1 << vertex)] = state * sign
    return out


def _check_graph(subject, example):
    from qiskit.quantum_info import Statevector

    adjacency = _adjacency(example)
    call = f"{subject}({adjacency})"
    obj = _build(GRAPH[subject], subject, call)
    state = Statevector.from_int(0, 2 ** obj.num_qubits).evolve(obj).data
    for vertex in range(example[0]):
        deviation = float(np.max(np.abs(stabiliser_image(state, vertex, adjacency) - state)))
        assert deviation < ATOL, (f"{call} applied to |0...0> is not stabilised by X_{vertex} "
                                  f"prod_(b~{vertex}) Z_b (max deviation {deviation:.3g})")


def _reproduce_graph(subject, example):
    adjacency = _adjacency(example)
    call = f"{subject}({adjacency})"
    return (_imports(GRAPH[subject], subject) + "import numpy as np\nfrom qiskit.quantum_info import Statevector\n\n"
            f"adjacency = {adjacency}\nn = len(adjacency)\n"
            f"state = Statevector.from_int(0, 2 ** n).evolve({call}).data\n"
            "indices = np.arange(2 ** n)\n"
            "for a in range(n):\n"
            "    # graph state stabiliser K_a = X_a prod_{b ~ a} Z_b (qubit b = bit b of the index)\n"
            "    sign = np.ones(2 ** n)\n"
            "    for b in range(n):\n"
            "        if adjacency[a][b]:\n"
            "            sign = sign * (1 - 2 * ((indices >> b) & 1))\n"
            "    image = np.zeros_like(state)\n"
            "    image[indices ^ (1 << a)] = state * sign\n"
            f"    assert np.max(np.abs(image - state)) < {ATOL}, f'{call} is not stabilised by K_{{a}}'\n")


FAMILY = "circuit library functions"

CONTRACTS = [
    Contract("qiskit.library.arithmetic-computes-function", FAMILY,
             "an arithmetic circuit (adder of any kind, multiplier, integer comparator, weighted adder) maps "
             "every computational-basis input to the documented result (|a>|b> -> |a>|a+b>, "
             "|a>|b>|0> -> |a>|b>|a*b mod 2^t>, |i>|0> -> |i>|i>=L>, |q>|0> -> |q>|sum w_j q_j>), inputs "
             "unchanged and clean ancillas back in |0>",
             "documentation: qiskit.circuit.library arithmetic (Adder, HalfAdderGate, FullAdderGate, "
             "ModularAdderGate, CDKM/VBE/DraperQFT adders, Multiplier, IntegerComparator, WeightedAdder) and "
             "qiskit.synthesis arithmetic functions",
             _arithmetic_subjects, _arithmetic_strategy, _check_arithmetic, _reproduce_arithmetic,
             _arithmetic_api, describe=_describe_arithmetic),
    Contract("qiskit.library.qft-is-dft", FAMILY,
             "the QFT with approximation_degree=0 is exactly the DFT matrix e^(2 pi i jk/2^n)/2^(n/2) "
             "(global phase included); do_swaps=False reverses the output qubits; inverse gives the adjoint; "
             "barriers change nothing",
             "documentation: qiskit.circuit.library.QFTGate / QFT, qiskit.synthesis.synth_qft_full / synth_qft_line",
             _fourier_subjects, _fourier_strategy, _check_fourier, _reproduce_fourier, _fourier_api,
             describe=lambda s, e: _fourier_call(s, e)),
    Contract("qiskit.library.boolean-truth-table", FAMILY,
             "boolean-logic circuits compute their truth tables on basis states: AND/OR flip the result qubit by "
             "the AND/OR of the flagged (+1 plain, -1 negated, 0 omitted) variables, ancillas back in |0>; "
             "XOR/BitwiseXor map |x> -> |x ^ amount>; InnerProduct multiplies |x>|y> by (-1)^(x.y)",
             "documentation: qiskit.circuit.library AND/AndGate, OR/OrGate, XOR/BitwiseXorGate, "
             "InnerProduct/InnerProductGate",
             _boolean_subjects, _boolean_strategy, _check_boolean, _reproduce_boolean, _boolean_api,
             describe=lambda s, e: f"{_boolean_call(s, e[0])} on inputs {e[1]}"),
    Contract("qiskit.library.permutation-maps-basis", FAMILY,
             "permutations map basis states as documented (pattern[k] = m moves qubit m to position k) and "
             "LinearFunction(A) maps |x> -> |Ax> over GF(2) (row i is output qubit i), amplitude exactly 1",
             "documentation: qiskit.circuit.library.PermutationGate / Permutation / LinearFunction, "
             "qiskit.synthesis.synth_permutation_*",
             _permutation_subjects, _permutation_strategy, _check_permutation, _reproduce_permutation,
             _permutation_api, describe=lambda s, e: f"{_permutation_call(s, e[0])} on inputs {e[1]}"),
    Contract("qiskit.library.graph-state-stabilised", FAMILY,
             "GraphState(A) / GraphStateGate(A) on |0...0> prepares a state stabilised by "
             "K_a = X_a prod_(b~a) Z_b for every vertex a",
             "documentation: qiskit.circuit.library.GraphState (|G> = prod_(a,b) CZ_ab |+>^V) and quantum semantics",
             _graph_subjects, _graph_strategy, _check_graph, _reproduce_graph,
             lambda s: f"{GRAPH[s]}.{s}", describe=lambda s, e: f"{s}({_adjacency(e)})"),
]
