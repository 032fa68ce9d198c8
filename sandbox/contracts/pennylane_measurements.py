"""Measurement and result processing, execution, derivatives, representation conversion and
resource counting, PennyLane: laws stated once for every measurement process, device,
differentiation method, conversion route or specs level the live library offers.

Ground truth is independent of PennyLane (DESIGN principle 4): states come from
oracle_core's numpy simulator, with PennyLane's wire order (the FIRST device wire is the most
significant bit of a basis index, so PennyLane wire position w is oracle qubit n-1-w);
reduced states, entropies, observables, Pauli matrices, QASM parsing and circuit depth are
computed here with numpy. Where no independent route exists (gates the oracle has no matrix
for), devices that claim the same semantics are compared with each other.

Every check runs the same program text its reproducer prints: the library is called once,
through the public API, and the reproducer fails exactly when the check does.
"""

import cmath
import functools
import inspect
import math
from typing import NamedTuple

import numpy as np

import oracle_core
from contract_runtime import Contract, angles

ATOL = 1e-7
# Planned false-alarm probability of every finite-shot check (union bound over everything
# that check tests): tail bounds below are rigorous, so a correct library fails a check with
# probability at most this.
FALSE_ALARM = 1e-6
SHOTS = 3000
DEVICES = ("default.qubit", "default.mixed", "lightning.qubit", "reference.qubit")
# reference.qubit documents itself as "a minimal device for testing and plugin development":
# its analytic results and its agreement with default.qubit are checked; the costlier laws
# (shots, seeds, mid-circuit measurements, derivatives) cover the full simulators only, to keep
# the family within its time budget.
SAMPLING_DEVICES = ("default.qubit", "default.mixed", "lightning.qubit")


# ==========================================================================================
# Circuits: standard gates with an independent matrix in oracle_core.

class Gate(NamedTuple):
    name: str          # PennyLane class name, e.g. "RX"
    params: tuple      # floats
    wires: tuple       # wire POSITIONS (0 = first device wire); labels map them to names


class Circuit(NamedTuple):
    labels: tuple      # device wire labels, in device order (first = most significant)
    basis: tuple       # initial computational basis state (one bit per wire), or () for |0..0>
    gates: tuple


# PennyLane gate -> (number of parameters, number of wires, oracle ops on the gate's wires).
# The oracle op list is the gate's definition in textbook terms, not PennyLane's.
STANDARD = {
    "Hadamard": (0, 1, lambda: [("h", ())]),
    "PauliX": (0, 1, lambda: [("x", ())]),
    "PauliY": (0, 1, lambda: [("y", ())]),
    "PauliZ": (0, 1, lambda: [("z", ())]),
    "S": (0, 1, lambda: [("s", ())]),
    "T": (0, 1, lambda: [("t", ())]),
    "SX": (0, 1, lambda: [("sx", ())]),
    "RX": (1, 1, lambda t: [("rx", (t,))]),
    "RY": (1, 1, lambda t: [("ry", (t,))]),
    "RZ": (1, 1, lambda t: [("rz", (t,))]),
    "PhaseShift": (1, 1, lambda t: [("p", (t,))]),
    # Rot(phi, theta, omega) = RZ(omega) RY(theta) RZ(phi)
    "Rot": (3, 1, lambda a, b, c: [("rz", (a,)), ("ry", (b,)), ("rz", (c,))]),
    "U3": (3, 1, lambda a, b, c: [("u", (a, b, c))]),
    "CNOT": (0, 2, lambda: [("cx", ())]),
    "CZ": (0, 2, lambda: [("cz", ())]),
    "CY": (0, 2, lambda: [("cy", ())]),
    "SWAP": (0, 2, lambda: [("swap", ())]),
    "ISWAP": (0, 2, lambda: [("iswap", ())]),
    "CRX": (1, 2, lambda t: [("crx", (t,))]),
    "CRY": (1, 2, lambda t: [("cry", (t,))]),
    "CRZ": (1, 2, lambda t: [("crz", (t,))]),
    "ControlledPhaseShift": (1, 2, lambda t: [("cp", (t,))]),
    "IsingXX": (1, 2, lambda t: [("rxx", (t,))]),
    "IsingYY": (1, 2, lambda t: [("ryy", (t,))]),
    "IsingZZ": (1, 2, lambda t: [("rzz", (t,))]),
    "Toffoli": (0, 3, lambda: [("ccx", ())]),
    "CSWAP": (0, 3, lambda: [("cswap", ())]),
    # GlobalPhase(phi) = exp(-i phi) I: acts on no wire, visible in qml.state only.
    "GlobalPhase": (1, 0, None),
}
PARAMETRIC = sorted(n for n, (k, _, _) in STANDARD.items() if k and n != "GlobalPhase")

# Wire labels: the default 0..n-1, a permutation of it, and arbitrary hashable labels
# (documented: "iterable that contains unique labels ... as numbers or strings").
LABEL_SETS = (None, "permuted", ("a", 7, "q2", -1, "w"))


def _labels_strategy(n):
    from hypothesis import strategies as st

    def make(kind):
        if kind is None:
            return st.just(tuple(range(n)))
        if kind == "permuted":
            return st.permutations(list(range(n))).map(tuple)
        return st.just(tuple(kind[:n]))
    return st.sampled_from(LABEL_SETS).flatmap(make)


def _gate_strategy(n, names):
    from hypothesis import strategies as st

    usable = sorted(g for g in names if STANDARD[g][1] <= n)

    def build(name):
        k, arity, _ = STANDARD[name]
        return st.tuples(st.just(name), st.tuples(*[angles() for _ in range(k)]),
                         st.permutations(list(range(n))).map(lambda p: tuple(p[:arity]))).map(lambda t: Gate(*t))
    return st.sampled_from(usable).flatmap(build)


def circuits(min_wires=1, max_wires=4, max_gates=8, names=tuple(STANDARD), basis=True):
    from hypothesis import strategies as st

    def for_size(n):
        return st.builds(Circuit, _labels_strategy(n),
                         st.one_of(st.just(()), st.tuples(*[st.integers(0, 1)] * n)) if basis else st.just(()),
                         st.lists(_gate_strategy(n, names), max_size=max_gates).map(tuple))
    return st.integers(min_wires, max_wires).flatmap(for_size)


def oracle_state(circuit):
    """The output state, PennyLane order, global phase included."""
    n = len(circuit.labels)
    index = int("".join(str(b) for b in circuit.basis), 2) if circuit.basis else 0
    state = oracle_core.basis_state(n, index).reshape((2,) * n)
    phase = 1.0 + 0j
    for gate in circuit.gates:
        if gate.name == "GlobalPhase":
            phase *= cmath.exp(-1j * gate.params[0])
            continue
        for name, params in STANDARD[gate.name][2](*gate.params):
            state = oracle_core.apply_matrix(state, oracle_core.gate_matrix(name, params),
                                             [n - 1 - w for w in gate.wires], n)
    return phase * state.reshape(2 ** n)


def oracle_unitary(circuit):
    n = len(circuit.labels)
    columns = [oracle_state(circuit._replace(basis=tuple(int(b) for b in format(i, f"0{n}b"))))
               for i in range(2 ** n)]
    return np.array(columns).T


def _wires_text(circuit, positions):
    return "[" + ", ".join(repr(circuit.labels[w]) for w in positions) + "]"


def gate_line(circuit, gate, params_text=None):
    params = params_text if params_text is not None else [repr(float(p)) for p in gate.params]
    if gate.name == "GlobalPhase":
        return f"qml.GlobalPhase({params[0]})"
    args = "".join(f"{p}, " for p in params)
    return f"qml.{gate.name}({args}wires={_wires_text(circuit, gate.wires)})"


def circuit_lines(circuit):
    lines = []
    if circuit.basis:
        lines.append(f"qml.BasisState(np.array({list(circuit.basis)}), wires={_wires_text(circuit, range(len(circuit.labels)))})")
    lines += [gate_line(circuit, g) for g in circuit.gates]
    return lines


def circuit_text(circuit):
    """A short description: the gates, with labels, for messages."""
    parts = ([f"BasisState{list(circuit.basis)}"] if circuit.basis else []) + [
        f"{g.name}({', '.join(f'{p:.6g}' for p in g.params)}) on {[circuit.labels[w] for w in g.wires]}"
        for g in circuit.gates]
    return f"wires {list(circuit.labels)}: " + ("; ".join(parts) or "no gates")


def device_line(device, circuit, seed=None, extra_wires=(), shots=None):
    """The device; `shots` go on it only on a release without qml.set_shots (see `shots_form`)."""
    labels = list(circuit.labels) + list(extra_wires)
    seed_text = f", seed={seed}" if seed is not None else ""
    shots_text = f", shots={shots!r}" if shots is not None and shots_form() == "device" else ""
    return f"dev = qml.device({device!r}, wires={labels!r}{seed_text}{shots_text})"


def shots_form():
    """How this release runs a QNode with finite shots, as its own docs show it: "decorator"
    (`@qml.set_shots(shots=N)`, from 0.43), "partial" (0.42's `set_shots(qnode, shots)`, which
    its docs apply as `@partial(qml.set_shots, shots=N)`) or "device" (before qml.set_shots:
    `qml.device(..., shots=N)`). The shot laws hold on every release, in its own idiom."""
    import pennylane as qml

    set_shots = getattr(qml, "set_shots", None)
    if set_shots is None:
        return "device"
    first = next(iter(inspect.signature(set_shots).parameters.values()), None)
    if first is not None and first.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD and first.default is inspect.Parameter.empty:
        return "partial"
    return "decorator"


def shots_decorator(shots, indent=""):
    """The line(s) above `@qml.qnode` that give the QNode `shots` (none when the device has them)."""
    if shots is None or shots_form() == "device":
        return ""
    if shots_form() == "partial":
        return f"{indent}@functools.partial(qml.set_shots, shots={shots!r})\n"
    return f"{indent}@qml.set_shots(shots={shots!r})\n"


def shots_import(shots):
    return "import functools\n" if shots is not None and shots_form() == "partial" else ""


def shots_api():
    """How the shot laws' API strings name the way shots were given."""
    return " with device shots" if shots_form() == "device" else " with qml.set_shots"


def program(device, circuit, returns, seed=None, shots=None, decorator="@qml.qnode(dev)", arguments="",
            call="", extra_wires=()):
    """A standalone program that builds and runs the QNode and leaves its output in `result`."""
    body = "\n".join("    " + line for line in circuit_lines(circuit)) or "    pass"
    return (f"{shots_import(shots)}import numpy as np\nimport pennylane as qml\n\n"
            f"{device_line(device, circuit, seed, extra_wires, shots)}\n\n"
            f"{shots_decorator(shots)}{decorator}\n"
            f"def circuit({arguments}):\n{body}\n    return {returns}\n\n"
            f"result = circuit({call})\n")


def run(source):
    """Executes a program and returns its namespace (the library's output is `result`)."""
    namespace = {"__name__": "__main__"}
    exec(compile(source, "<program>", "exec"), namespace)
    return namespace


def literal(value):
    """Python source for a numpy array or number, at full precision."""
    array = np.asarray(value)
    if np.iscomplexobj(array):
        return f"np.array({array.tolist()!r}, dtype=complex)"
    return f"np.array({array.astype(float).tolist()!r})"


# ==========================================================================================
# Exact quantities from a state vector, PennyLane order (axis w of the (2,)*n tensor = wire w).

def reduced_density_matrix(state, keep):
    n = int(round(math.log2(state.size)))
    tensor = state.reshape((2,) * n)
    moved = np.moveaxis(tensor, list(keep), list(range(len(keep)))).reshape(2 ** len(keep), -1)
    return moved @ moved.conj().T


def marginal_probabilities(state, keep):
    return np.real(np.diag(reduced_density_matrix(state, keep)))


def entropy(rho, log_base=None):
    values = np.clip(np.linalg.eigvalsh((rho + rho.conj().T) / 2), 0, None)
    values = values[values > 1e-15]
    total = float(-np.sum(values * np.log(values)))
    return total / math.log(log_base) if log_base else total


def embed(matrix, positions, n):
    """The 2^n x 2^n operator acting as `matrix` on wire positions (first = most significant)."""
    dim = 2 ** n
    tensor = np.eye(dim, dtype=complex).reshape((2,) * n + (dim,))
    return oracle_core.apply_matrix(tensor, np.asarray(matrix, dtype=complex),
                                    [n - 1 - w for w in positions], n).reshape(dim, dim)


def pauli_word_matrix(word, positions, n):
    matrix = np.eye(1, dtype=complex)
    for letter in word:
        matrix = np.kron(matrix, oracle_core.PAULI_MATRICES[letter])
    return embed(matrix, positions, n) if positions else np.eye(2 ** n, dtype=complex)


# ==========================================================================================
# Observables: Pauli words and sums in every documented form, Hermitian, Projector.

class Observable(NamedTuple):
    kind: str        # word | sprod | sum | dot | linear_combination | hermitian | projector
    terms: tuple     # ((coefficient, "XZ", positions), ...) for Pauli forms
    matrix: tuple    # hermitian: nested tuple of complex; projector: basis bits
    positions: tuple  # hermitian / projector wires


def _pauli_term(n):
    from hypothesis import strategies as st

    return st.integers(1, n).flatmap(lambda k: st.tuples(
        st.sampled_from([1.0, -1.0, 0.5, 2.0, -0.25, 0.0]),
        st.text(alphabet="XYZ", min_size=k, max_size=k),
        st.permutations(list(range(n))).map(lambda p: tuple(sorted(p[:k])))))


def _hermitian(k):
    from hypothesis import strategies as st

    entries = st.sampled_from([0.0, 1.0, -1.0, 0.5, -2.0, 0.3])
    dim = 2 ** k

    def build(values):
        re, im = np.array(values[0]).reshape(dim, dim), np.array(values[1]).reshape(dim, dim)
        m = re + 1j * im
        m = (m + m.conj().T) / 2
        return tuple(tuple(complex(v) for v in row) for row in m)
    return st.tuples(st.lists(entries, min_size=dim * dim, max_size=dim * dim),
                     st.lists(entries, min_size=dim * dim, max_size=dim * dim)).map(build)


def observables(n, kinds=("word", "sprod", "sum", "dot", "linear_combination", "hermitian", "projector")):
    from hypothesis import strategies as st

    def for_kind(kind):
        if kind in ("word", "sprod"):
            return _pauli_term(n).map(lambda t: Observable(kind, ((t[0] if kind == "sprod" else 1.0,) + t[1:],), (), ()))
        if kind in ("sum", "dot", "linear_combination"):
            return st.lists(_pauli_term(n), min_size=1, max_size=3).map(lambda ts: Observable(kind, tuple(ts), (), ()))
        k_max = min(n, 2)
        positions = st.integers(1, k_max).flatmap(
            lambda k: st.permutations(list(range(n))).map(lambda p: tuple(p[:k])))
        if kind == "hermitian":
            return positions.flatmap(lambda ws: _hermitian(len(ws)).map(lambda m: Observable(kind, (), m, ws)))
        return positions.flatmap(lambda ws: st.tuples(*[st.integers(0, 1)] * len(ws)).map(
            lambda bits: Observable(kind, (), bits, ws)))
    return st.sampled_from(list(kinds)).flatmap(for_kind)


def observable_matrix(obs, n):
    if obs.kind == "hermitian":
        return embed(np.array(obs.matrix, dtype=complex), obs.positions, n)
    if obs.kind == "projector":
        k = len(obs.positions)
        vector = np.zeros(2 ** k)
        vector[int("".join(map(str, obs.matrix)), 2)] = 1.0
        return embed(np.outer(vector, vector), obs.positions, n)
    return sum(c * pauli_word_matrix(word, ws, n) for c, word, ws in obs.terms)


# The long names: qml.X / qml.Y / qml.Z are aliases only from 0.34 on, and a law written with them
# has no expval / var / observable subjects at all on older releases.
PAULI_NAMES = {"X": "PauliX", "Y": "PauliY", "Z": "PauliZ", "I": "Identity"}


def _word_text(circuit, word, positions):
    return " @ ".join(f"qml.{PAULI_NAMES[letter]}({circuit.labels[w]!r})" for letter, w in zip(word, positions))


def observable_text(circuit, obs):
    if obs.kind == "hermitian":
        return f"qml.Hermitian(np.array({[list(r) for r in obs.matrix]!r}), wires={_wires_text(circuit, obs.positions)})"
    if obs.kind == "projector":
        return f"qml.Projector({list(obs.matrix)!r}, wires={_wires_text(circuit, obs.positions)})"
    words = [_word_text(circuit, w, ws) for _, w, ws in obs.terms]
    coefficients = [c for c, _, _ in obs.terms]
    if obs.kind == "word":
        return words[0]
    if obs.kind == "sprod":
        return f"{coefficients[0]!r} * ({words[0]})"
    if obs.kind == "sum":
        return " + ".join(f"{c!r} * ({w})" for c, w in zip(coefficients, words))
    if obs.kind == "dot":
        return f"qml.dot({coefficients!r}, [{', '.join(words)}])"
    return f"qml.ops.LinearCombination({coefficients!r}, [{', '.join(words)}])"


def observable_range(obs, n):
    """Per-term eigenvalue ranges (width, largest |eigenvalue|): the terms a shot-based
    estimate averages separately."""
    if obs.kind in ("hermitian", "projector"):
        values = np.linalg.eigvalsh(observable_matrix(obs, n))
        return [(float(values[-1] - values[0]), float(np.max(np.abs(values))))]
    return [(2 * abs(c), abs(c)) for c, _, _ in obs.terms]


def spectrum_probabilities(state, matrix):
    """{eigenvalue: probability} of measuring a Hermitian matrix, grouped by eigenspace."""
    values, vectors = np.linalg.eigh(matrix)
    weights = np.abs(vectors.conj().T @ state) ** 2
    grouped = {}
    for value, weight in zip(values, weights):
        key = round(float(value), 6)
        grouped[key] = grouped.get(key, 0.0) + float(weight)
    return grouped


# ==========================================================================================
# Devices: a device is a subject when it can be built here (installed and importable).

def _device_available(name):
    import pennylane as qml

    try:
        qml.device(name, wires=1)
    except Exception:  # not installed, or needs a package that is not: not a subject here
        return False
    return True


def _runs(source):
    try:
        run(source)
    except Exception:  # the device/method does not support this: not a subject
        return False
    return True


def _probe_circuit():
    return Circuit((0, 1), (), (Gate("Hadamard", (), (0,)), Gate("CNOT", (), (0, 1)), Gate("RX", (0.3,), (1,))))


# ==========================================================================================
# Law 1: analytic measurement results equal exact computation from the state.

ANALYTIC_KINDS = ("expval", "var", "probs", "probs(op)", "state", "density_matrix", "purity",
                  "vn_entropy", "mutual_info")


def _analytic_returns(kind, circuit):
    """A probe measurement for subject discovery."""
    return {"expval": "qml.expval(qml.PauliZ(0))", "var": "qml.var(qml.PauliZ(0))", "probs": "qml.probs(wires=[0])",
            "probs(op)": "qml.probs(op=qml.PauliX(0))", "state": "qml.state()",
            "density_matrix": "qml.density_matrix(wires=[0])", "purity": "qml.purity(wires=[0])",
            "vn_entropy": "qml.vn_entropy(wires=[0])", "mutual_info": "qml.mutual_info(wires0=[0], wires1=[1])"}[kind]


def _analytic_subjects():
    import pennylane as qml

    found = []
    for device in DEVICES:
        if not _device_available(device):
            continue
        for kind in ANALYTIC_KINDS:
            if hasattr(qml, kind.split("(")[0]) and _runs(program(device, _probe_circuit(), _analytic_returns(kind, None))):
                found.append(f"{device}/{kind}")
    return found


def _wire_subset(n, min_size=1):
    from hypothesis import strategies as st

    return st.integers(min_size, n).flatmap(lambda k: st.permutations(list(range(n))).map(lambda p: tuple(p[:k])))


def _analytic_measurement(kind, n):
    """Hypothesis strategy of (kind, arguments) for one measurement on n wires."""
    from hypothesis import strategies as st

    if kind in ("expval", "var"):
        return observables(n)
    if kind == "probs":
        return st.one_of(st.just(None), _wire_subset(n))  # None: no wires = all device wires
    if kind == "probs(op)":
        # Hermitian is excluded: the docs warn its probs ordering is not defined.
        return observables(n, kinds=("word", "projector"))
    if kind == "state":
        return st.just(None)
    if kind in ("density_matrix", "purity"):
        return _wire_subset(n)
    if kind == "vn_entropy":
        return st.tuples(_wire_subset(n), st.sampled_from([None, 2, math.e, 10]))
    if kind == "mutual_info":
        # two disjoint nonempty subsystems (n >= 2): the first `split` wires of a permutation, then
        # up to `size` of the rest
        return st.tuples(st.permutations(list(range(n))), st.integers(1, n - 1), st.integers(1, n),
                         st.sampled_from([None, 2])).map(
            lambda t: (tuple(t[0][:t[1]]), tuple(t[0][t[1]:t[1] + t[2]]), t[3]))
    raise ValueError(kind)


def _analytic_strategy(subject):
    from hypothesis import strategies as st

    kind = subject.split("/", 1)[1]
    min_wires = 2 if kind == "mutual_info" else 1
    return circuits(min_wires=min_wires).flatmap(
        lambda c: st.tuples(st.just(c), _analytic_measurement(kind, len(c.labels))))


def _measurement_text(kind, circuit, argument):
    if kind in ("expval", "var"):
        return f"qml.{kind}({observable_text(circuit, argument)})"
    if kind == "probs":
        return "qml.probs()" if argument is None else f"qml.probs(wires={_wires_text(circuit, argument)})"
    if kind == "probs(op)":
        return f"qml.probs(op={observable_text(circuit, argument)})"
    if kind == "state":
        return "qml.state()"
    if kind in ("density_matrix", "purity"):
        return f"qml.{kind}(wires={_wires_text(circuit, argument)})"
    if kind == "vn_entropy":
        wires, base = argument
        return f"qml.vn_entropy(wires={_wires_text(circuit, wires)}" + (f", log_base={base!r})" if base else ")")
    wires0, wires1, base = argument
    return (f"qml.mutual_info(wires0={_wires_text(circuit, wires0)}, wires1={_wires_text(circuit, wires1)}"
            + (f", log_base={base!r})" if base else ")"))


def _analytic_expected(kind, device, circuit, argument):
    """(expected value, how to compare) from the oracle state."""
    state = oracle_state(circuit)
    n = len(circuit.labels)
    if kind in ("expval", "var"):
        matrix = observable_matrix(argument, n)
        mean = float(np.real(np.vdot(state, matrix @ state)))
        if kind == "expval":
            return mean
        return float(np.real(np.vdot(matrix @ state, matrix @ state))) - mean ** 2
    if kind == "probs":
        return marginal_probabilities(state, range(n) if argument is None else argument)
    if kind == "probs(op)":
        return spectrum_probabilities(state, observable_matrix(argument, n))
    if kind == "state":
        # default.mixed documents qml.state() as the density matrix
        return np.outer(state, state.conj()) if device == "default.mixed" else state
    if kind == "density_matrix":
        return reduced_density_matrix(state, argument)
    if kind == "purity":
        rho = reduced_density_matrix(state, argument)
        return float(np.real(np.trace(rho @ rho)))
    if kind == "vn_entropy":
        return entropy(reduced_density_matrix(state, argument[0]), argument[1])
    wires0, wires1, base = argument
    return (entropy(reduced_density_matrix(state, wires0), base) + entropy(reduced_density_matrix(state, wires1), base)
            - entropy(reduced_density_matrix(state, tuple(wires0) + tuple(wires1)), base))


def _analytic_program(subject, example):
    device, kind = subject.split("/", 1)
    circuit, argument = example
    source = program(device, circuit, _measurement_text(kind, circuit, argument))
    if kind == "probs(op)":
        # probs(op=O) is indexed like O.eigvals(): group it by eigenvalue to compare spectra
        source += ("eigenvalues = np.round(np.real(qml.eigvals(" + observable_text(circuit, argument) + ")), 6)\n"
                   "grouped = {}\n"
                   "for value, weight in zip(eigenvalues, np.asarray(result)):\n"
                   "    grouped[float(value)] = grouped.get(float(value), 0.0) + float(weight)\n")
    return source


def _check_analytic(subject, example):
    device, kind = subject.split("/", 1)
    circuit, argument = example
    expected = _analytic_expected(kind, device, circuit, argument)
    namespace = run(_analytic_program(subject, example))
    what = f"{_measurement_text(kind, circuit, argument)} on {device} after {circuit_text(circuit)}"
    if kind == "probs(op)":
        actual = namespace["grouped"]
        keys = sorted(set(actual) | set(expected))
        gap = max(abs(actual.get(k, 0.0) - expected.get(k, 0.0)) for k in keys)
        assert gap < ATOL, f"{what}: probability per eigenvalue {actual}, expected {expected}"
        return
    actual = np.asarray(namespace["result"])
    expected = np.asarray(expected)
    assert actual.shape == expected.shape, f"{what}: result shape {actual.shape}, expected {expected.shape}"
    gap = float(np.max(np.abs(actual - expected))) if expected.size else 0.0
    assert gap < ATOL, f"{what}: returned {np.round(actual, 6).tolist()}, expected {np.round(expected, 6).tolist()} (max deviation {gap:.3g})"


def _reproduce_analytic(subject, example):
    device, kind = subject.split("/", 1)
    circuit, argument = example
    expected = _analytic_expected(kind, device, circuit, argument)
    source = _analytic_program(subject, example)
    if kind == "probs(op)":
        return source + (
            f"# expected probability of each eigenvalue, from the exact state (numpy)\nexpected = {expected!r}\n"
            "keys = set(grouped) | set(expected)\n"
            f"assert max(abs(grouped.get(k, 0.0) - expected.get(k, 0.0)) for k in keys) < {ATOL}, (grouped, expected)\n")
    return source + (
        "# expected: computed from the exact output state with numpy (first wire most significant)\n"
        f"expected = {literal(expected)}\n"
        "actual = np.asarray(result)\n"
        "assert actual.shape == expected.shape, (actual.shape, expected.shape)\n"
        f"assert np.max(np.abs(actual - expected)) < {ATOL}, (actual, expected)\n")


def _describe_analytic(subject, example):
    device, kind = subject.split("/", 1)
    circuit, argument = example
    return f"{device}: {circuit_text(circuit)}; return {_measurement_text(kind, circuit, argument)}"


# ==========================================================================================
# Statistics: rigorous tail bounds (Bernstein, Hoeffding) with a union bound.

def bernstein_radius(shots, p, log_term):
    """Half-width t such that P(|count/shots - p| >= t) <= 2 exp(-log_term/... ) for a binomial
    frequency: from Bernstein's inequality with variance p(1-p)."""
    variance = p * (1 - p)
    count_radius = log_term / 3 + math.sqrt(log_term ** 2 / 9 + 2 * shots * variance * log_term)
    return count_radius / shots


def frequencies_match(counts, probs, shots, error_probability):
    """Every outcome's frequency lies within its Bernstein radius of the exact probability
    (union bound over outcomes); an outcome of probability ~0 must never be seen.
    Returns None when they match, else a message."""
    log_term = math.log(2 * len(probs) / error_probability)
    for outcome, p in enumerate(probs):
        frequency = counts[outcome] / shots
        if p < 1e-12:
            if counts[outcome]:
                return f"outcome {outcome} has probability {p:.3g} but was seen {counts[outcome]} times"
            continue
        radius = bernstein_radius(shots, p, log_term)
        if abs(frequency - p) > radius:
            return (f"outcome {outcome}: frequency {frequency:.4f} over {shots} shots, exact probability {p:.4f} "
                    f"(allowed deviation {radius:.4f} at false-alarm probability {error_probability:g})")
    return None


def hoeffding_radius(shots, width, error_probability):
    return width * math.sqrt(math.log(2 / error_probability) / (2 * shots))


# ==========================================================================================
# Law 2: finite-shot results agree with the exact distribution; shot vectors give one
# result per shot entry.

SHOT_KINDS = ("counts", "counts(op)", "sample", "sample(op)", "probs", "expval", "var")


def _shot_subjects():
    found = []
    for device in SAMPLING_DEVICES:
        if not _device_available(device):
            continue
        for kind in SHOT_KINDS:
            probe = {"counts": "qml.counts()", "counts(op)": "qml.counts(qml.PauliZ(0))", "sample": "qml.sample()",
                     "sample(op)": "qml.sample(qml.PauliZ(0))", "probs": "qml.probs()",
                     "expval": "qml.expval(qml.PauliZ(0))", "var": "qml.var(qml.PauliZ(0))"}[kind]
            if _runs(program(device, _probe_circuit(), probe, seed=1, shots=10)):
                found.append(f"{device}/{kind}")
    return found


def _shot_vectors():
    """Documented shot forms: an int, or a sequence of ints and (shots, copies) pairs."""
    from hypothesis import strategies as st

    entry = st.one_of(st.sampled_from([SHOTS, 1000, 2000]),
                      st.tuples(st.sampled_from([1000, 2000]), st.integers(2, 3)))
    return st.one_of(st.just(SHOTS), st.lists(entry, min_size=1, max_size=3).map(list))


def shot_entries(shots):
    """The flat list of shot counts a shot vector stands for, one per result entry."""
    if isinstance(shots, int):
        return [shots]
    flat = []
    for entry in shots:
        flat += [entry[0]] * entry[1] if isinstance(entry, tuple) else [entry]
    return flat


def _shot_measurement(kind, n):
    from hypothesis import strategies as st

    if kind in ("counts", "sample", "probs"):
        return st.tuples(st.one_of(st.just(None), _wire_subset(n)), st.booleans())  # (wires, all_outcomes)
    if kind in ("counts(op)", "sample(op)"):
        return observables(n, kinds=("word", "sprod", "hermitian", "projector"))
    if kind == "expval":
        return observables(n)
    # var from samples: a single observable (a sum's terms are sampled separately)
    return observables(n, kinds=("word", "sprod", "hermitian", "projector"))


def _shot_strategy(subject):
    from hypothesis import strategies as st

    kind = subject.split("/", 1)[1]
    return circuits().flatmap(lambda c: st.tuples(st.just(c), _shot_measurement(kind, len(c.labels)),
                                                  _shot_vectors(), st.integers(0, 2 ** 31 - 1)))


def _shot_measurement_text(kind, circuit, argument):
    if kind in ("counts", "sample", "probs"):
        wires, all_outcomes = argument
        parts = [] if wires is None else [f"wires={_wires_text(circuit, wires)}"]
        if kind == "counts" and all_outcomes:
            parts.append("all_outcomes=True")
        return f"qml.{kind}({', '.join(parts)})"
    base = kind.split("(")[0]
    return f"qml.{base}({observable_text(circuit, argument)})"


def _shot_program(subject, example):
    device, kind = subject.split("/", 1)
    circuit, argument, shots, seed = example
    return program(device, circuit, _shot_measurement_text(kind, circuit, argument), seed=seed, shots=shots)


def _outcome_counts(kind, entry, circuit, argument, shots):
    """Per-outcome counts (indexed like the exact distribution) from one result entry, or a
    message when the entry's form is not the documented one."""
    n = len(circuit.labels)
    if kind in ("counts", "sample", "probs"):
        wires = tuple(range(n)) if argument[0] is None else argument[0]
        k = len(wires)
        if kind == "probs":
            array = np.asarray(entry, dtype=float)
            if array.shape != (2 ** k,):
                return None, f"probs entry has shape {array.shape}, expected {(2 ** k,)}"
            return np.round(array * shots).astype(int), None
        if kind == "sample":
            array = np.asarray(entry)
            if array.shape not in sample_shapes(shots, k):
                return None, f"sample entry has shape {array.shape}, expected {(shots, k)} (shots, wires)"
            indices = array.reshape(shots, k).astype(int) @ (2 ** np.arange(k - 1, -1, -1))
            return np.bincount(indices, minlength=2 ** k), None
        if not isinstance(entry, dict):
            return None, f"counts entry is {type(entry).__name__}, expected a dict"
        counts = np.zeros(2 ** k, dtype=int)
        for key, value in entry.items():
            if len(key) != k or set(key) - {"0", "1"}:
                return None, f"counts key {key!r} is not a {k}-bit string"
            counts[int(key, 2)] += int(value)
        if argument[1] and len(entry) != 2 ** k:
            return None, f"counts(all_outcomes=True) has {len(entry)} keys, expected {2 ** k}"
        return counts, None
    raise ValueError(kind)


def sample_shapes(shots, k):
    """The shapes qml.sample() of k wires may have on this release: (shots, k), and for one wire
    also (shots,) unless the release documents "(shots, num_wires)" always (0.43 on; before,
    one wire gave a flat array and the docs showed no one-wire shape)."""
    import pennylane as qml

    if k == 1 and "(shots, num_wires)" not in (qml.sample.__doc__ or ""):
        return ((shots, k), (shots,))
    return ((shots, k),)


def _eigen_outcomes(kind, entry, values, shots):
    """Counts per eigenvalue in `values` for sample(op)/counts(op) entries."""
    counts = np.zeros(len(values), dtype=int)
    if kind == "sample(op)":
        array = np.asarray(entry, dtype=float).reshape(-1)
        if np.asarray(entry).shape != (shots,):
            return None, f"sample(op) entry has shape {np.asarray(entry).shape}, expected {(shots,)}"
        pairs = zip(array, [1] * len(array))
    else:
        if not isinstance(entry, dict):
            return None, f"counts entry is {type(entry).__name__}, expected a dict"
        pairs = entry.items()
    for value, number in pairs:
        matches = [i for i, v in enumerate(values) if abs(v - float(value)) < 1e-6]
        if not matches:
            return None, f"outcome {float(value)!r} is not an eigenvalue of the observable {values}"
        counts[matches[0]] += int(number)
    return counts, None


def _judge_shot_entry(kind, entry, circuit, argument, shots, error_probability):
    """None when one result entry is consistent with the exact state, else a message."""
    state = oracle_state(circuit)
    n = len(circuit.labels)
    if kind in ("counts", "sample", "probs"):
        wires = tuple(range(n)) if argument[0] is None else argument[0]
        counts, problem = _outcome_counts(kind, entry, circuit, argument, shots)
        if problem:
            return problem
        if counts.sum() != shots:
            return f"{kind} entry accounts for {counts.sum()} shots, expected {shots}"
        return frequencies_match(counts, marginal_probabilities(state, wires), shots, error_probability)
    matrix = observable_matrix(argument, n)
    if kind in ("counts(op)", "sample(op)"):
        spectrum = spectrum_probabilities(state, matrix)
        values = sorted(spectrum)
        counts, problem = _eigen_outcomes(kind, entry, values, shots)
        if problem:
            return problem
        if counts.sum() != shots:
            return f"{kind} entry accounts for {counts.sum()} shots, expected {shots}"
        return frequencies_match(counts, [spectrum[v] for v in values], shots, error_probability)
    value = np.asarray(entry)
    if value.shape != ():
        return f"{kind} entry has shape {value.shape}, expected a scalar"
    value = float(value)
    mean = float(np.real(np.vdot(state, matrix @ state)))
    ranges = observable_range(argument, n)
    per_term = error_probability / (2 * len(ranges))
    mean_radius = sum(hoeffding_radius(shots, width, per_term) for width, _ in ranges)
    if kind == "expval":
        if abs(value - mean) > mean_radius + 1e-9:
            return (f"expval estimate {value:.5f} over {shots} shots, exact {mean:.5f} "
                    f"(allowed deviation {mean_radius:.4f} at false-alarm probability {error_probability:g})")
        return None
    variance = float(np.real(np.vdot(matrix @ state, matrix @ state))) - mean ** 2
    (width, largest), = ranges
    # var estimate = m2 - m1^2: |m2 - E2| <= largest^2 h, |m1^2 - E1^2| <= 2 largest |m1 - E1|;
    # plus the 1/(shots-1) gap between biased and unbiased estimators
    h = hoeffding_radius(shots, 1.0, per_term)
    radius = largest ** 2 * h + 2 * largest * width * h + 2 * largest ** 2 / (shots - 1)
    if abs(value - variance) > radius + 1e-9:
        return (f"var estimate {value:.5f} over {shots} shots, exact {variance:.5f} "
                f"(allowed deviation {radius:.4f} at false-alarm probability {error_probability:g})")
    return None


def _check_shots(subject, example):
    device, kind = subject.split("/", 1)
    circuit, argument, shots, seed = example
    result = run(_shot_program(subject, example))["result"]
    entries = shot_entries(shots)
    what = f"{_shot_measurement_text(kind, circuit, argument)} on {device} with shots={shots!r}, seed={seed} after {circuit_text(circuit)}"
    # documented (Shots.has_partitioned_shots): results are split per entry only when the
    # shots stand for more than one entry; [N] and (N, 1) are the same as N
    if len(entries) == 1:
        results = [result]
    else:
        assert isinstance(result, tuple) and len(result) == len(entries), (
            f"{what}: a shot vector of {len(entries)} entries gave {type(result).__name__} of length "
            f"{len(result) if hasattr(result, '__len__') else '-'}, expected a tuple with one result per entry")
        results = list(result)
    for entry, entry_shots in zip(results, entries):
        problem = _judge_shot_entry(kind, entry, circuit, argument, entry_shots, FALSE_ALARM / len(entries))
        assert problem is None, f"{what}: entry for {entry_shots} shots: {problem}"


def _reproduce_shots(subject, example):
    device, kind = subject.split("/", 1)
    circuit, argument, shots, seed = example
    n = len(circuit.labels)
    state = oracle_state(circuit)
    source = _shot_program(subject, example)
    if kind in ("counts", "sample", "probs"):
        wires = tuple(range(n)) if argument[0] is None else argument[0]
        exact_probs = marginal_probabilities(state, wires)
        flat = len(sample_shapes(1, len(wires))) > 1
        shapes = "{(shots, %d), (shots,)}" % len(wires) if flat else "{(shots, %d)}" % len(wires)
        return source + _SHOT_REPRODUCER_BASIS.format(
            shots=shots, entries=shot_entries(shots), kind=kind, k=len(wires), probs=literal(exact_probs),
            alpha=FALSE_ALARM, all_outcomes=bool(argument[1]) and kind == "counts", shapes=shapes,
            flat_note=", or (shots,) for one wire before 0.43" if flat else "")
    matrix = observable_matrix(argument, n)
    if kind in ("counts(op)", "sample(op)"):
        spectrum = spectrum_probabilities(state, matrix)
        values = sorted(spectrum)
        return source + _SHOT_REPRODUCER_EIGEN.format(
            shots=shots, entries=shot_entries(shots), kind=kind, values=values,
            probs=[spectrum[v] for v in values], alpha=FALSE_ALARM)
    mean = float(np.real(np.vdot(state, matrix @ state)))
    variance = float(np.real(np.vdot(matrix @ state, matrix @ state))) - mean ** 2
    return source + _SHOT_REPRODUCER_MOMENT.format(
        shots=shots, entries=shot_entries(shots), kind=kind, mean=mean, variance=variance,
        ranges=observable_range(argument, n), alpha=FALSE_ALARM)


_SHOT_REPRODUCER_PROLOGUE = """
import math
# Law: each result entry is a draw from the exact distribution (computed from the exact state
# with numpy). Rigorous Bernstein/Hoeffding tail bounds, union bound over entries and outcomes:
# a correct library fails this with probability at most {alpha:g}.
entries = {entries!r}
# a shot vector standing for several entries gives a tuple with one result per entry
results = [result] if len(entries) == 1 else result
assert len(entries) == 1 or (isinstance(result, tuple) and len(result) == len(entries)), (
    "a shot vector must give one result per entry", type(result), len(result))
alpha = {alpha!r} / len(entries)

def bernstein(shots, p, log_term):
    return (log_term / 3 + math.sqrt(log_term ** 2 / 9 + 2 * shots * p * (1 - p) * log_term)) / shots

def check_frequencies(counts, probs, shots):
    assert sum(counts) == shots, ("counts do not add up to the shots", sum(counts), shots)
    log_term = math.log(2 * len(probs) / alpha)
    for outcome, p in enumerate(probs):
        if p < 1e-12:
            assert counts[outcome] == 0, ("impossible outcome seen", outcome, counts[outcome])
        else:
            assert abs(counts[outcome] / shots - p) <= bernstein(shots, p, log_term), (
                "frequency out of bounds", outcome, counts[outcome] / shots, p)
"""

_SHOT_REPRODUCER_BASIS = _SHOT_REPRODUCER_PROLOGUE + """
exact = {probs}
for entry, shots in zip(results, entries):
    kind = {kind!r}
    if kind == "probs":
        assert np.asarray(entry).shape == (2 ** {k},), ("probs shape", np.asarray(entry).shape)
        counts = np.round(np.asarray(entry, dtype=float) * shots).astype(int)
    elif kind == "sample":
        # the shapes this release documents: (shots, wires){flat_note}
        assert np.asarray(entry).shape in {shapes}, ("sample shape", np.asarray(entry).shape)
        bits = np.asarray(entry).reshape(shots, {k}).astype(int)
        counts = np.bincount(bits @ (2 ** np.arange({k} - 1, -1, -1)), minlength=2 ** {k})
    else:
        assert isinstance(entry, dict), type(entry)
        if {all_outcomes!r}:
            assert len(entry) == 2 ** {k}, ("all_outcomes=True must list every outcome", entry)
        counts = np.zeros(2 ** {k}, dtype=int)
        for key, value in entry.items():
            counts[int(key, 2)] += int(value)
    check_frequencies(list(counts), list(exact), shots)
"""

_SHOT_REPRODUCER_EIGEN = _SHOT_REPRODUCER_PROLOGUE + """
values = {values!r}  # eigenvalues of the observable
exact = {probs!r}     # exact probability of each eigenvalue
for entry, shots in zip(results, entries):
    pairs = entry.items() if isinstance(entry, dict) else [(v, 1) for v in np.asarray(entry).reshape(-1)]
    if {kind!r} == "sample(op)":
        assert np.asarray(entry).shape == (shots,), ("sample shape", np.asarray(entry).shape)
    counts = [0] * len(values)
    for value, number in pairs:
        index = [i for i, v in enumerate(values) if abs(v - float(value)) < 1e-6]
        assert index, ("outcome is not an eigenvalue", value, values)
        counts[index[0]] += int(number)
    check_frequencies(counts, exact, shots)
"""

_SHOT_REPRODUCER_MOMENT = _SHOT_REPRODUCER_PROLOGUE + """
ranges = {ranges!r}  # per-term (eigenvalue range, largest |eigenvalue|)
for entry, shots in zip(results, entries):
    value = np.asarray(entry)
    assert value.shape == (), ("a scalar per entry", value.shape)
    per_term = alpha / (2 * len(ranges))
    if {kind!r} == "expval":
        radius = sum(w * math.sqrt(math.log(2 / per_term) / (2 * shots)) for w, _ in ranges)
        assert abs(float(value) - {mean!r}) <= radius + 1e-9, ("expval out of bounds", float(value), {mean!r}, radius)
    else:
        (width, largest), = ranges
        h = math.sqrt(math.log(2 / per_term) / (2 * shots))
        radius = largest ** 2 * h + 2 * largest * width * h + 2 * largest ** 2 / (shots - 1)
        assert abs(float(value) - {variance!r}) <= radius + 1e-9, ("var out of bounds", float(value), {variance!r}, radius)
"""


def _describe_shots(subject, example):
    device, kind = subject.split("/", 1)
    circuit, argument, shots, seed = example
    return (f"{device} (seed={seed}, shots={shots!r}): {circuit_text(circuit)}; "
            f"return {_shot_measurement_text(kind, circuit, argument)}")



# ==========================================================================================
# Law 3: devices that claim the same (noiseless, analytic) semantics agree, on every gate the
# live library exports, including gates the oracle has no matrix for.

REFERENCE_DEVICE = "default.qubit"


def _live_gates():
    """{class name: (num_params, num_wires)} for every unitary gate class in the qml namespace
    that is built from float angles and wires alone."""
    import pennylane as qml
    from pennylane.operation import Operation

    found = {}
    for name in sorted(dir(qml)):
        cls = getattr(qml, name)
        if not (inspect.isclass(cls) and issubclass(cls, Operation)) or name != cls.__name__:
            continue
        wires, params = getattr(cls, "num_wires", None), getattr(cls, "num_params", None)
        if not isinstance(wires, int) or not isinstance(params, int) or not 1 <= wires <= 3:
            continue
        try:
            matrix = cls(*[0.3] * params, wires=list(range(wires))).matrix()
        except Exception:  # needs non-angle data (a matrix, a state) or has no matrix
            continue
        if matrix.shape == (2 ** wires,) * 2 and np.allclose(matrix @ matrix.conj().T, np.eye(2 ** wires), atol=1e-9):
            found[name] = (params, wires)
    return found


def _live_gate_strategy(n):
    from hypothesis import strategies as st

    gates = {k: v for k, v in _live_gates().items() if v[1] <= n}
    return st.sampled_from(sorted(gates)).flatmap(lambda name: st.builds(
        Gate, st.just(name), st.tuples(*[angles() for _ in range(gates[name][0])]),
        st.permutations(list(range(n))).map(lambda p: tuple(p[:gates[name][1]]))))


def _agreement_subjects():
    if not _device_available(REFERENCE_DEVICE):
        return []
    returns = "qml.density_matrix(wires=[0, 1])"
    return [f"{REFERENCE_DEVICE}~{d}" for d in DEVICES if d != REFERENCE_DEVICE and _device_available(d)
            and _runs(program(d, _probe_circuit(), returns))]


def _agreement_strategy(subject):
    from hypothesis import strategies as st

    def for_size(n):
        return st.builds(Circuit, _labels_strategy(n), st.just(()),
                         st.lists(_live_gate_strategy(n), min_size=1, max_size=6).map(tuple))
    return st.integers(1, 3).flatmap(for_size)


def _agreement_returns(circuit):
    return f"qml.density_matrix(wires={_wires_text(circuit, range(len(circuit.labels)))})"


def _check_agreement(subject, circuit):
    first, second = subject.split("~")
    returns = _agreement_returns(circuit)
    a = np.asarray(run(program(first, circuit, returns))["result"])
    b = np.asarray(run(program(second, circuit, returns))["result"])
    gap = float(np.max(np.abs(a - b))) if a.shape == b.shape else math.inf
    assert gap < ATOL, (f"{first} and {second} disagree on the output state of {circuit_text(circuit)}: "
                        f"max density-matrix deviation {gap:.3g}")


def _reproduce_agreement(subject, circuit):
    first, second = subject.split("~")
    returns = _agreement_returns(circuit)
    return (program(first, circuit, returns) + "first = np.asarray(result)\n\n"
            + program(second, circuit, returns).split("\n", 2)[2] + "second = np.asarray(result)\n"
            f"# both devices simulate the same noiseless circuit exactly: same density matrix\n"
            "assert first.shape == second.shape, (first.shape, second.shape)\n"
            f"assert np.max(np.abs(first - second)) < {ATOL}, (first, second)\n")


# ==========================================================================================
# Law 4/5: seeded sampling is reproducible with the same seed, independent across seeds.

def _seed_subjects():
    return [d for d in SAMPLING_DEVICES if _device_available(d)
            and _runs(program(d, _probe_circuit(), "qml.sample()", seed=5, shots=4))]


def _seed_strategy(subject):
    from hypothesis import strategies as st

    seeds = st.integers(0, 2 ** 31 - 1)
    return st.tuples(circuits(min_wires=2, max_wires=4, names=("Hadamard", "RX", "RY", "CNOT", "Rot", "IsingXX")),
                     seeds, seeds, st.sampled_from([200, 1000]))


def _seeded_program(device, circuit, seeds, shots):
    body = "\n".join("        " + line for line in circuit_lines(circuit)) or "        pass"
    labels = list(circuit.labels)
    runs = "\n".join(f"run_{i} = np.asarray(sample_with({seed}))" for i, seed in enumerate(seeds))
    shots_text = f", shots={shots!r}" if shots_form() == "device" else ""
    return (f"{shots_import(shots)}import numpy as np\nimport pennylane as qml\n\n"
            "def sample_with(seed):\n"
            f"    dev = qml.device({device!r}, wires={labels!r}, seed=seed{shots_text})\n\n"
            f"{shots_decorator(shots, '    ')}    @qml.qnode(dev)\n    def circuit():\n{body}\n"
            "        return qml.sample()\n\n    return circuit()\n\n"
            f"{runs}\n")


def _check_reproducible(subject, example):
    circuit, seed, _, shots = example
    namespace = run(_seeded_program(subject, circuit, [seed, seed], shots))
    assert np.array_equal(namespace["run_0"], namespace["run_1"]), (
        f"{subject} with seed={seed} gave different samples on two executions of {circuit_text(circuit)}")


def _reproduce_reproducible(subject, example):
    circuit, seed, _, shots = example
    return _seeded_program(subject, circuit, [seed, seed], shots) + (
        "# the same seed must give the same samples\n"
        f"assert np.array_equal(run_0, run_1), 'seed={seed} is not reproducible'\n")


def _agreement_bound(state, shots):
    """(expected number of shots where two independent runs agree, Bernstein radius)."""
    p = float(np.sum(np.abs(state) ** 4))
    log_term = math.log(2 / FALSE_ALARM)
    return p, bernstein_radius(shots, p, log_term)


def _check_independent(subject, example):
    from hypothesis import assume

    circuit, seed_a, seed_b, shots = example
    assume(seed_a != seed_b)
    p, radius = _agreement_bound(oracle_state(circuit), shots)
    namespace = run(_seeded_program(subject, circuit, [seed_a, seed_b], shots))
    agree = float(np.mean(np.all(namespace["run_0"] == namespace["run_1"], axis=1)))
    assert abs(agree - p) <= radius, (
        f"{subject} with seeds {seed_a} and {seed_b}: the two sample sequences agree on {agree:.3f} of the shots, "
        f"independent draws agree on {p:.3f} on average (allowed deviation {radius:.3f} at false-alarm "
        f"probability {FALSE_ALARM:g}); circuit {circuit_text(circuit)}")


def _reproduce_independent(subject, example):
    circuit, seed_a, seed_b, shots = example
    p, radius = _agreement_bound(oracle_state(circuit), shots)
    return _seeded_program(subject, circuit, [seed_a, seed_b], shots) + (
        "# Independent runs agree on a shot with probability sum_i p_i^2 (exact state, numpy);\n"
        f"# Bernstein bound at false-alarm probability {FALSE_ALARM:g}.\n"
        "agree = float(np.mean(np.all(run_0 == run_1, axis=1)))\n"
        f"assert abs(agree - {p!r}) <= {radius!r}, (agree, {p!r})\n")


def _describe_seeded(subject, example):
    circuit, seed_a, seed_b, shots = example
    return f"{subject}, shots={shots}, seeds {seed_a} and {seed_b}: {circuit_text(circuit)}; return qml.sample()"


# ==========================================================================================
# Law 6: mid-circuit measurements, qml.cond, reset and postselection give the documented
# statistics (analytic: conditional on the postselected outcomes).

class Measure(NamedTuple):
    wire: int
    reset: bool
    postselect: object  # None, 0 or 1


class Cond(NamedTuple):
    measurement: int    # index of the mid-circuit measurement it depends on
    when: int           # apply the gate when that outcome is 1 (m) or 0 (~m)
    gate: Gate


def _mcm_circuits(postselect):
    from hypothesis import strategies as st

    def for_size(n):
        gate = _gate_strategy(n, [g for g in STANDARD if g != "GlobalPhase"])
        measure = st.builds(Measure, st.integers(0, n - 1), st.booleans(),
                            st.sampled_from([None, 0, 1]) if postselect else st.just(None))

        def with_conditions(items):
            out, measured = [], 0
            for kind, item in items:
                if kind == "measure":
                    measured += 1
                    out.append(item)
                elif kind == "cond" and measured:
                    out.append(Cond(item[0] % measured, item[1], item[2]))
                elif kind == "gate":
                    out.append(item)
            return tuple(out)
        step = st.one_of(st.tuples(st.just("gate"), gate), st.tuples(st.just("measure"), measure),
                         st.tuples(st.just("cond"), st.tuples(st.integers(0, 3), st.integers(0, 1), gate)))
        steps = st.lists(step, min_size=1, max_size=8).map(with_conditions).filter(
            lambda ops: any(isinstance(o, Measure) for o in ops))
        # an RY layer first, so that measurements (and postselection) mostly see superpositions
        layer = st.tuples(*[st.builds(Gate, st.just("RY"), st.tuples(angles()), st.just((w,))) for w in range(n)])
        return st.builds(Circuit, _labels_strategy(n), st.just(()),
                         st.tuples(layer, steps).map(lambda parts: parts[0] + parts[1]))
    return st.integers(1, 3).flatmap(for_size)


def _apply_gate(state, gate, n):
    for name, params in STANDARD[gate.name][2](*gate.params):
        state = oracle_core.apply_matrix(state, oracle_core.gate_matrix(name, params), [n - 1 - w for w in gate.wires], n)
    return state


def mcm_branches(circuit):
    """[(probability, final state, outcomes)] over the measurement branches that survive
    postselection (unnormalized probabilities: their sum is the postselection probability)."""
    n = len(circuit.labels)
    branches = [(1.0, oracle_core.basis_state(n).reshape((2,) * n), ())]
    for op in circuit.gates:
        updated = []
        for weight, state, outcomes in branches:
            if isinstance(op, Gate):
                updated.append((weight, _apply_gate(state, op, n), outcomes))
            elif isinstance(op, Cond):
                applies = outcomes[op.measurement] == op.when
                updated.append((weight, _apply_gate(state, op.gate, n) if applies else state, outcomes))
            else:
                for bit in (0, 1):
                    if op.postselect is not None and bit != op.postselect:
                        continue
                    projected = state.copy()
                    index = [slice(None)] * n
                    index[op.wire] = 1 - bit
                    projected[tuple(index)] = 0
                    p = float(np.sum(np.abs(projected) ** 2))
                    if p < 1e-14:
                        continue
                    projected = projected / math.sqrt(p)
                    if op.reset and bit:
                        projected = oracle_core.apply_matrix(projected, oracle_core.gate_matrix("x"), [n - 1 - op.wire], n)
                    updated.append((weight * p, projected, outcomes + (bit,)))
        branches = updated
    return branches


def mcm_expected(circuit):
    """(final-state probabilities over all wires, joint distribution of the measurement
    outcomes, first measurement most significant), conditioned on postselection."""
    branches = mcm_branches(circuit)
    total = sum(w for w, _, _ in branches)
    n = len(circuit.labels)
    k = sum(isinstance(o, Measure) for o in circuit.gates)
    final = np.zeros(2 ** n)
    joint = np.zeros(2 ** k)
    for weight, state, outcomes in branches:
        final += weight / total * np.abs(state.reshape(-1)) ** 2
        joint[int("".join(map(str, outcomes)), 2)] += weight / total
    return final, joint, total


def mcm_lines(circuit):
    lines, count = [], 0
    for op in circuit.gates:
        if isinstance(op, Gate):
            lines.append(gate_line(circuit, op))
        elif isinstance(op, Measure):
            extra = (", reset=True" if op.reset else "") + (f", postselect={op.postselect}" if op.postselect is not None else "")
            lines.append(f"m{count} = qml.measure({circuit.labels[op.wire]!r}{extra})")
            count += 1
        else:
            condition = f"m{op.measurement}" if op.when else f"~m{op.measurement}"
            args = "".join(f"{float(p)!r}, " for p in op.gate.params)
            lines.append(f"qml.cond({condition}, qml.{op.gate.name})({args}wires={_wires_text(circuit, op.gate.wires)})")
    return lines, count


def _mcm_program(subject, circuit):
    device, method = subject.split("/")[:2]
    lines, count = mcm_lines(circuit)
    body = "\n".join("    " + line for line in lines)
    measured = ", ".join(f"m{i}" for i in range(count))
    return ("import numpy as np\nimport pennylane as qml\n\n"
            # no fixed wires: deferring measurements adds wires of the library's choosing
            f"dev = qml.device({device!r})\n\n"
            f"@qml.qnode(dev, mcm_method={method!r})\n"
            f"def circuit():\n{body}\n"
            f"    return qml.probs(wires={_wires_text(circuit, range(len(circuit.labels)))}), qml.probs(op=[{measured}])\n\n"
            "final, joint = circuit()\n")


MCM_METHODS = ("deferred", "tree-traversal", "one-shot")


def _mcm_subjects():
    probe = Circuit((0, 1), (), (Gate("Hadamard", (), (0,)), Measure(0, True, None), Cond(0, 1, Gate("PauliX", (), (1,)))))
    post = probe._replace(gates=probe.gates[:1] + (Measure(0, False, 1),))
    found = []
    for device in SAMPLING_DEVICES:
        if not _device_available(device):
            continue
        for method in MCM_METHODS:
            if _runs(_mcm_program(f"{device}/{method}", probe)):
                postselects = _runs(_mcm_program(f"{device}/{method}", post))
                found.append(f"{device}/{method}" + ("" if postselects else "/no-postselect"))
    return found


def _mcm_strategy(subject):
    return _mcm_circuits(postselect=not subject.endswith("/no-postselect"))


def _check_mcm(subject, circuit):
    from hypothesis import assume

    final, joint, survival = mcm_expected(circuit)
    # documented: postselecting an outcome of (near) zero probability has no defined result
    assume(survival > 1e-3)
    namespace = run(_mcm_program(subject, circuit))
    for name, expected in (("final", final), ("joint", joint)):
        actual = np.asarray(namespace[name])
        gap = float(np.max(np.abs(actual - expected))) if actual.shape == expected.shape else math.inf
        label = "probs of the final state" if name == "final" else "probs(op=[mid-circuit measurements])"
        assert gap < ATOL, (f"{subject}: {label} = {np.round(actual, 6).tolist()}, expected "
                            f"{np.round(expected, 6).tolist()} for {'; '.join(mcm_lines(circuit)[0])}")


def _reproduce_mcm(subject, circuit):
    final, joint, _ = mcm_expected(circuit)
    return _mcm_program(subject, circuit) + (
        "# expected: branch-by-branch numpy simulation of the measurements (Born rule, collapse,\n"
        "# reset, qml.cond), conditioned on the postselected outcomes\n"
        f"expected_final = {literal(final)}\nexpected_joint = {literal(joint)}\n"
        f"assert np.asarray(final).shape == expected_final.shape and np.max(np.abs(final - expected_final)) < {ATOL}, (final, expected_final)\n"
        f"assert np.asarray(joint).shape == expected_joint.shape and np.max(np.abs(joint - expected_joint)) < {ATOL}, (joint, expected_joint)\n")


def _describe_mcm(subject, circuit):
    return f"{subject} on wires {list(circuit.labels)}: " + "; ".join(mcm_lines(circuit)[0])


# ==========================================================================================
# Law 6b: the same circuits with finite shots, on every mcm_method (one-shot is the one a
# QNode with shots gets by default on default.qubit) and both documented postselect modes:
# "hw-like" returns the valid shots only (about survival * shots of them), "fill-shots" as many
# results as shots; either way each shot is one run of the circuit, so the tuple (mid-circuit
# outcomes, final basis state) of a shot is a draw from their joint distribution, conditioned
# on postselection.

MCM_SHOTS_MODES = ("hw-like", "fill-shots")


def _mcm_shots_subjects():
    probe = Circuit((0, 1), (), (Gate("Hadamard", (), (0,)), Measure(0, False, 1), Cond(0, 1, Gate("PauliX", (), (1,)))))
    found = []
    for device in SAMPLING_DEVICES:
        if not _device_available(device):
            continue
        for method in MCM_METHODS:
            for mode in MCM_SHOTS_MODES:
                subject = f"{device}/{method}/{mode}"
                if _runs(_mcm_shots_program(subject, probe, 7, 20)):
                    found.append(subject)
    return found


def _mcm_shots_strategy(subject):
    from hypothesis import strategies as st

    return st.tuples(_mcm_circuits(postselect=True), st.integers(0, 2 ** 31 - 1), st.sampled_from([300, 1000]))


def _mcm_shots_program(subject, circuit, seed, shots):
    device, method, mode = subject.split("/")
    lines, count = mcm_lines(circuit)
    body = "\n".join("    " + line for line in lines)
    shots_text = f", shots={shots!r}" if shots_form() == "device" else ""
    returns = ", ".join([f"qml.sample(wires={_wires_text(circuit, range(len(circuit.labels)))})"]
                        + [f"qml.sample(op=m{i})" for i in range(count)])
    return (f"{shots_import(shots)}import numpy as np\nimport pennylane as qml\n\n"
            # no fixed wires: deferring measurements adds wires of the library's choosing
            f"dev = qml.device({device!r}, seed={seed}{shots_text})\n\n"
            f"{shots_decorator(shots)}@qml.qnode(dev, mcm_method={method!r}, postselect_mode={mode!r})\n"
            f"def circuit():\n{body}\n    return {returns}\n\n"
            "final, *mcms = circuit()\n")


def mcm_joint_expected(circuit):
    """({"<mid-circuit outcomes>|<final basis state>": probability} over the nonzero joint
    outcomes, first measurement and first wire most significant; the postselection probability)."""
    branches = mcm_branches(circuit)
    total = sum(w for w, _, _ in branches)
    n = len(circuit.labels)
    joint = {}
    for weight, state, outcomes in branches:
        for index, amplitude in enumerate(state.reshape(-1)):
            p = weight / total * abs(amplitude) ** 2
            if p > 1e-14:
                key = "".join(map(str, outcomes)) + "|" + format(index, f"0{n}b")
                joint[key] = joint.get(key, 0.0) + p
    return joint, total


_MCM_SHOTS_JUDGE = """
import math
# expected: branch-by-branch numpy simulation of the measurements (Born rule, collapse, reset,
# qml.cond), conditioned on the postselected outcomes: the joint distribution of
# "<mid-circuit outcomes m0 m1 ...>|<final basis state>" per shot; rigorous Bernstein bounds,
# union bound, false-alarm probability {alpha:g} for a correct library
shots, n, mode = {shots!r}, {n!r}, {mode!r}
survival = {survival!r}   # probability that every postselection succeeds
exact = {joint!r}
log_term = math.log(2 * (2 ** ({k} + n) + 1) / {alpha!r})

def bernstein(count, p):
    return (log_term / 3 + math.sqrt(log_term ** 2 / 9 + 2 * count * p * (1 - p) * log_term)) / count

bits = np.asarray(final)
kept = bits.shape[0] if bits.ndim else 0
# documented shapes: (shots, wires){flat_note}; one value per shot for each mid-circuit outcome
assert bits.shape in {shapes}, f"{{mode}}: qml.sample of {{n}} wire(s) has shape {{bits.shape}}, expected ({{kept}}, {{n}})"
assert all(np.asarray(m).shape == (kept,) for m in mcms), (
    f"{{mode}}: qml.sample(op=m) shapes {{[np.asarray(m).shape for m in mcms]}}, expected ({{kept}},) like the wires")
if mode == "fill-shots":
    assert kept == shots, f"fill-shots: {{kept}} results for {{shots}} shots (documented: as many as the shots)"
else:
    assert kept <= shots and abs(kept / shots - survival) <= bernstein(shots, survival), (
        f"hw-like: {{kept}} valid shots of {{shots}}, but postselection succeeds with probability {{survival:.4f}}")
seen = {{}}
for i in range(kept):
    key = "".join(str(int(m[i])) for m in mcms) + "|" + "".join(str(int(b)) for b in bits.reshape(kept, n)[i])
    seen[key] = seen.get(key, 0) + 1
for key, number in seen.items():
    assert key in exact, f"{{mode}}: a shot gave (mid-circuit outcomes|final state) {{key}}, which has probability 0 ({{number}} shots)"
for key, p in exact.items():
    frequency = seen.get(key, 0) / kept if kept else p
    assert abs(frequency - p) <= bernstein(max(kept, 1), p), (
        f"{{mode}}: (mid-circuit outcomes|final state) {{key}} has frequency {{frequency:.4f}} over {{kept}} "
        f"shots, postselected probability {{p:.4f}}")
"""


def _mcm_shots_source(subject, example):
    circuit, seed, shots = example
    joint, survival = mcm_joint_expected(circuit)
    n = len(circuit.labels)
    k = sum(isinstance(o, Measure) for o in circuit.gates)
    flat = len(sample_shapes(1, n)) > 1
    shapes = "{(kept, 1), (kept,)}" if flat else "{(kept, %d)}" % n
    return _mcm_shots_program(subject, circuit, seed, shots) + _MCM_SHOTS_JUDGE.format(
        shots=shots, n=n, k=k, mode=subject.split("/")[2], survival=float(survival),
        joint={key: float(p) for key, p in sorted(joint.items())}, alpha=FALSE_ALARM, shapes=shapes,
        flat_note=", or (shots,) for one wire before 0.43" if flat else "")


def _check_mcm_shots(subject, example):
    from hypothesis import assume

    # enough valid shots for the bounds to say something (postselecting a rare outcome is the
    # analytic law's business)
    assume(mcm_joint_expected(example[0])[1] > 0.2)
    run(_mcm_shots_source(subject, example))


def _describe_mcm_shots(subject, example):
    circuit, seed, shots = example
    return f"{subject}, shots={shots}, seed={seed}, wires {list(circuit.labels)}: " + "; ".join(mcm_lines(circuit)[0])


# ==========================================================================================
# Law 7: every differentiation method gives the derivative of the exact expectation
# (central finite difference of the oracle), shared and scaled parameters included.

class Param(NamedTuple):
    index: int      # trainable parameter x[index] ...
    scale: float    # ... times this


GRADIENT_METHODS = ("parameter-shift", "backprop", "adjoint", "finite-diff", "hadamard", "reversed-hadamard", "device")
GRADIENT_KINDS = ("expval", "var", "probs")
# finite-diff is documented as an approximation (forward difference, h=1e-7)
GRADIENT_TOLERANCE = {"finite-diff": 1e-4}


def _gradient_program(subject, kind, circuit, argument, x):
    device, method = subject.split("/")
    lines = []
    for gate in circuit.gates:
        params = [repr(float(p)) if not isinstance(p, Param) else
                  (f"x[{p.index}]" if p.scale == 1.0 else f"{p.scale!r} * x[{p.index}]") for p in gate.params]
        lines.append(gate_line(circuit, gate, params))
    body = "\n".join("    " + line for line in lines) or "    pass"
    measurement = (f"qml.probs(wires={_wires_text(circuit, argument)})" if kind == "probs"
                   else f"qml.{kind}({observable_text(circuit, argument)})")
    return ("import numpy as np\nimport pennylane as qml\nfrom pennylane import numpy as pnp\n\n"
            # one spare wire: the Hadamard-test methods need an auxiliary wire
            f"{device_line(device, circuit, extra_wires=('aux',))}\n\n"
            f"@qml.qnode(dev, diff_method={method!r})\n"
            f"def circuit(x):\n{body}\n    return {measurement}\n\n"
            f"x = pnp.array({[float(v) for v in x]!r}, requires_grad=True)\n"
            "jacobian = np.asarray(qml.jacobian(circuit)(x))\n")


def _gradient_probe():
    probe = Circuit((0, 1), (), (Gate("RX", (Param(0, 1.0),), (0,)), Gate("CNOT", (), (0, 1)),
                                 Gate("Rot", (Param(1, 0.5), 0.2, Param(0, 1.0)), (1,))))
    arguments = {"expval": Observable("word", ((1.0, "Z", (1,)),), (), ()), "var": Observable("word", ((1.0, "Z", (1,)),), (), ()),
                 "probs": (1, 0)}
    return probe, arguments


def _supported_kinds(subject):
    """The measurements this device/method differentiates (the others it refuses, documented)."""
    probe, arguments = _gradient_probe()
    return [k for k in GRADIENT_KINDS if _runs(_gradient_program(subject, k, probe, arguments[k], [0.3, 0.4]))]


def _gradient_subjects():
    return [f"{d}/{m}" for d in SAMPLING_DEVICES if _device_available(d) for m in GRADIENT_METHODS
            if _supported_kinds(f"{d}/{m}")]


def _gradient_strategy(subject):
    from hypothesis import strategies as st

    return st.sampled_from(_supported_kinds(subject)).flatmap(lambda kind: _gradient_examples(kind))


def _gradient_examples(kind):
    from hypothesis import strategies as st

    def param(count):
        return st.one_of(st.builds(Param, st.integers(0, count - 1), st.sampled_from([1.0, 1.0, -1.0, 0.5, 2.0])), angles())

    def for_size(n, count):
        def gate(name):
            k, arity, _ = STANDARD[name]
            return st.builds(Gate, st.just(name), st.tuples(*[param(count) for _ in range(k)]),
                             st.permutations(list(range(n))).map(lambda p: tuple(p[:arity])))
        names = [g for g in STANDARD if STANDARD[g][1] <= n and g != "GlobalPhase"]
        gates = st.sampled_from(names).flatmap(gate)
        measurement = _wire_subset(n) if kind == "probs" else observables(
            n, kinds=("word", "sprod", "sum", "hermitian") if kind == "expval" else ("word", "sprod", "hermitian"))
        # at least one gate depends on x: a QNode constant in x has no jacobian to compare
        trainable = st.lists(gates, min_size=1, max_size=6).map(tuple).filter(
            lambda gs: any(isinstance(p, Param) for g in gs for p in g.params))
        return st.tuples(st.just(kind), st.builds(Circuit, _labels_strategy(n), st.just(()), trainable),
                         measurement, st.lists(angles(), min_size=count, max_size=count).map(tuple))
    return st.tuples(st.integers(1, 3), st.integers(1, 3)).flatmap(lambda t: for_size(*t))


def _substitute(circuit, x):
    return circuit._replace(gates=tuple(g._replace(params=tuple(p.scale * x[p.index] if isinstance(p, Param) else p
                                                                 for p in g.params)) for g in circuit.gates))


def _gradient_value(kind, circuit, argument, x):
    state = oracle_state(_substitute(circuit, x))
    n = len(circuit.labels)
    if kind == "probs":
        return marginal_probabilities(state, argument)
    matrix = observable_matrix(argument, n)
    mean = float(np.real(np.vdot(state, matrix @ state)))
    return mean if kind == "expval" else float(np.real(np.vdot(matrix @ state, matrix @ state))) - mean ** 2


def expected_jacobian(kind, circuit, argument, x, step=1e-5):
    """Central differences of the exact value: shape (outputs..., parameters), as qml.jacobian."""
    columns = []
    for i in range(len(x)):
        up, down = list(x), list(x)
        up[i] += step
        down[i] -= step
        columns.append((np.asarray(_gradient_value(kind, circuit, argument, up))
                        - np.asarray(_gradient_value(kind, circuit, argument, down))) / (2 * step))
    return np.stack(columns, axis=-1)


def _check_gradient(subject, example):
    kind, circuit, argument, x = example
    method = subject.split("/")[1]
    from hypothesis import assume

    try:
        from pennylane.exceptions import QuantumFunctionError
    except ImportError:  # before 0.42 it lives at the top level: without this the law only raised there
        from pennylane import QuantumFunctionError

    expected = expected_jacobian(kind, circuit, argument, x)
    try:
        actual = run(_gradient_program(subject, kind, circuit, argument, x))["jacobian"]
    except QuantumFunctionError as refusal:
        # documented refusal: the device does not support this method for this circuit
        assume("does not support" not in str(refusal))
        raise
    tolerance = GRADIENT_TOLERANCE.get(method, 1e-6)
    gap = float(np.max(np.abs(actual - expected))) if actual.shape == expected.shape else math.inf
    assert gap < tolerance, (f"{subject} {kind}: jacobian {np.round(actual, 6).tolist()} (shape {actual.shape}), finite difference "
                             f"of the exact value {np.round(expected, 6).tolist()} (shape {expected.shape}) at x={list(x)}, "
                             f"circuit {circuit_text(_substitute(circuit, x))}")


def _reproduce_gradient(subject, example):
    kind, circuit, argument, x = example
    method = subject.split("/")[1]
    expected = expected_jacobian(kind, circuit, argument, x)
    tolerance = GRADIENT_TOLERANCE.get(method, 1e-6)
    return _gradient_program(subject, kind, circuit, argument, x) + (
        "# expected: central finite difference (step 1e-5) of the exact value, from a numpy simulation\n"
        f"expected = {literal(expected)}\n"
        "assert jacobian.shape == expected.shape, (jacobian.shape, expected.shape)\n"
        f"assert np.max(np.abs(jacobian - expected)) < {tolerance}, (jacobian, expected)\n")


def _describe_gradient(subject, example):
    kind, circuit, argument, x = example
    lines = _gradient_program(subject, kind, circuit, argument, x).split("def circuit(x):\n", 1)[1].split("\n\nx =")[0]
    return f"{subject}, {kind}, x={list(x)}:\n{lines}"


# ==========================================================================================
# Law 8: pauli_decompose of a Hermitian matrix reconstructs it, in every output form.

DECOMPOSE_FORMS = ("operator", "pauli=True", "hide_identity=True", "wire_order")


def _decompose_subjects():
    import pennylane as qml

    return list(DECOMPOSE_FORMS) if hasattr(qml, "pauli_decompose") else []


def _decompose_strategy(subject):
    from hypothesis import strategies as st

    # the zero matrix is left out: pauli_decompose raises on it (a robustness matter, not this law)
    return st.integers(1, 3).flatmap(lambda n: st.tuples(_labels_strategy(n), _hermitian(n).filter(
        lambda m: np.any(np.abs(np.array(m)) > 0))))


def _decompose_program(subject, example):
    labels, matrix = example
    wires = list(labels)
    call = {"operator": f"qml.pauli_decompose(H, wire_order={wires!r})",
            "pauli=True": f"qml.pauli_decompose(H, wire_order={wires!r}, pauli=True)",
            "hide_identity=True": f"qml.pauli_decompose(H, wire_order={wires!r}, hide_identity=True)",
            "wire_order": f"qml.pauli_decompose(H, wire_order={wires!r})"}[subject]
    to_matrix = ("decomposition.to_mat(wire_order=wires)" if subject == "pauli=True"
                 else "qml.matrix(decomposition, wire_order=wires)")
    return ("import numpy as np\nimport pennylane as qml\n\n"
            f"H = np.array({[list(r) for r in matrix]!r})\nwires = {wires!r}\n"
            f"decomposition = {call}\nreconstructed = np.asarray({to_matrix})\n")


def _check_decompose(subject, example):
    labels, matrix = example
    reconstructed = run(_decompose_program(subject, example))["reconstructed"]
    expected = np.array(matrix, dtype=complex)
    gap = float(np.max(np.abs(reconstructed - expected))) if reconstructed.shape == expected.shape else math.inf
    assert gap < ATOL, (f"pauli_decompose ({subject}) of {np.round(expected, 4).tolist()} on wires {list(labels)} "
                        f"reconstructs to {np.round(reconstructed, 4).tolist()} (max deviation {gap:.3g})")


def _reproduce_decompose(subject, example):
    return _decompose_program(subject, example) + (
        "# a Pauli decomposition is an exact identity: sum_k c_k P_k == H\n"
        "assert reconstructed.shape == H.shape, (reconstructed.shape, H.shape)\n"
        f"assert np.max(np.abs(reconstructed - H)) < {ATOL}, (reconstructed, H)\n")


# ==========================================================================================
# Law 9: PauliWord / PauliSentence matrices and arithmetic agree with numpy Kronecker products.

PAULI_ROUTES = ("PauliWord.to_mat", "PauliSentence.to_mat", "PauliSentence.operation", "pauli_sentence(operator)",
                "PauliSentence @ PauliSentence", "PauliSentence + PauliSentence", "scalar * PauliSentence",
                "PauliSentence.commutator")


def _pauli_subjects():
    """The routes this release offers (before 0.34 a PauliSentence has no @, no scalar * from
    the left and no commutator): each is tried on X(0) and X(0)."""
    import pennylane.pauli as pauli

    if not hasattr(pauli, "PauliSentence"):
        return []
    probe = ((0,), ((((0, "X"),), 1.0),), ((((0, "X"),), 1.0),))
    return [r for r in PAULI_ROUTES if _runs(_pauli_program(r, probe))]


def _sentence(n):
    from hypothesis import strategies as st

    coefficient = st.sampled_from([1.0, -1.0, 0.5, 2.0, 1j, -0.5j, 0.25 + 0.75j, 0.0])
    word = st.dictionaries(st.integers(0, n - 1), st.sampled_from("IXYZ"), max_size=n).map(
        lambda d: tuple(sorted(d.items())))
    return st.lists(st.tuples(word, coefficient), min_size=1, max_size=4).map(tuple)


def _pauli_strategy(subject):
    from hypothesis import strategies as st

    return st.integers(1, 3).flatmap(lambda n: st.tuples(_labels_strategy(n), _sentence(n), _sentence(n)))


def _sentence_text(labels, sentence):
    terms = ", ".join(f"PauliWord({ {labels[w]: p for w, p in word} !r}): {c!r}" for word, c in sentence)
    return f"PauliSentence({{{terms}}})"


def _sentence_matrix(sentence, n):
    total = np.zeros((2 ** n, 2 ** n), dtype=complex)
    for word, c in sentence:
        letters = dict(word)
        positions = [w for w in range(n) if letters.get(w, "I") != "I"]
        total += c * pauli_word_matrix("".join(letters[w] for w in positions), positions, n)
    return total


def _merged(sentence):
    # a PauliSentence is a dict: repeated words keep the last coefficient
    merged = {}
    for word, c in sentence:
        merged[tuple((w, p) for w, p in word if p != "I")] = c
    return tuple(merged.items())


def _pauli_program(subject, example):
    labels, first, second = example
    a, b = _sentence_text(labels, first), _sentence_text(labels, second)
    word = "PauliWord({" + ", ".join(f"{labels[w]!r}: {p!r}" for w, p in first[0][0]) + "})"
    computation = {
        "PauliWord.to_mat": f"matrix = {word}.to_mat(wire_order=wires)",
        "PauliSentence.to_mat": f"matrix = {a}.to_mat(wire_order=wires)",
        "PauliSentence.operation": f"matrix = qml.matrix({a}.operation(wire_order=wires), wire_order=wires)",
        "pauli_sentence(operator)": f"matrix = qml.pauli.pauli_sentence({a}.operation(wire_order=wires)).to_mat(wire_order=wires)",
        "PauliSentence @ PauliSentence": f"matrix = ({a} @ {b}).to_mat(wire_order=wires)",
        "PauliSentence + PauliSentence": f"matrix = ({a} + {b}).to_mat(wire_order=wires)",
        "scalar * PauliSentence": f"matrix = ((0.5 - 2j) * {a}).to_mat(wire_order=wires)",
        "PauliSentence.commutator": f"matrix = {a}.commutator({b}).to_mat(wire_order=wires)",
    }[subject]
    return ("import numpy as np\nimport pennylane as qml\nfrom pennylane.pauli import PauliSentence, PauliWord\n\n"
            f"wires = {list(labels)!r}\n{computation}\nmatrix = np.asarray(matrix)\n")


def _pauli_expected(subject, example):
    labels, first, second = example
    n = len(labels)
    a, b = _sentence_matrix(_merged(first), n), _sentence_matrix(_merged(second), n)
    if subject == "PauliWord.to_mat":
        return _sentence_matrix(((first[0][0], 1.0),), n)
    return {"PauliSentence @ PauliSentence": lambda: a @ b, "PauliSentence + PauliSentence": lambda: a + b,
            "scalar * PauliSentence": lambda: (0.5 - 2j) * a, "PauliSentence.commutator": lambda: a @ b - b @ a,
            }.get(subject, lambda: a)()


def _check_pauli(subject, example):
    expected = _pauli_expected(subject, example)
    actual = run(_pauli_program(subject, example))["matrix"]
    gap = float(np.max(np.abs(actual - expected))) if actual.shape == expected.shape else math.inf
    assert gap < ATOL, (f"{subject} on {_sentence_text(example[0], example[1])} and {_sentence_text(example[0], example[2])}: "
                        f"matrix differs from the numpy Kronecker-product matrix (max deviation {gap:.3g}, "
                        f"shape {actual.shape} vs {expected.shape})")


def _reproduce_pauli(subject, example):
    return _pauli_program(subject, example) + (
        "# expected: sum_k c_k (P_k1 kron P_k2 kron ...) with numpy, first wire most significant\n"
        f"expected = {literal(_pauli_expected(subject, example))}\n"
        "assert matrix.shape == expected.shape, (matrix.shape, expected.shape)\n"
        f"assert np.max(np.abs(matrix - expected)) < {ATOL}, (matrix, expected)\n")


# ==========================================================================================
# Law 10: OpenQASM export and import preserve the circuit's operator (up to global phase:
# OpenQASM 2 has none) — judged by an independent parser of the qelib1 gates.

QASM_NAMES = {"h": "h", "x": "x", "y": "y", "z": "z", "s": "s", "sdg": "sdg", "t": "t", "tdg": "tdg", "sx": "sx",
              "rx": "rx", "ry": "ry", "rz": "rz", "u1": "p", "p": "p", "u3": "u", "u": "u", "u2": "u2", "cx": "cx",
              "cy": "cy", "cz": "cz", "ch": "ch", "swap": "swap", "crx": "crx", "cry": "cry", "crz": "crz",
              "cu1": "cp", "cp": "cp", "ccx": "ccx", "cswap": "cswap", "rxx": "rxx", "ryy": "ryy", "rzz": "rzz",
              "id": "id", "iswap": "iswap"}


def parse_qasm_unitary(text):
    """The unitary (PennyLane order: q[0] most significant) of an OpenQASM 2 program's gates,
    ignoring measurements and global phases; UnsupportedOperation for gates we do not know."""
    import re

    size, ops = 0, []  # no qreg: a program on zero qubits
    for statement in text.replace("\n", " ").split(";"):
        statement = statement.strip()
        if not statement or statement.startswith(("OPENQASM", "include", "creg", "measure", "barrier", "gphase")):
            continue
        match = re.match(r"qreg\s+\w+\[(\d+)\]", statement)
        if match:
            size = int(match.group(1))
            continue
        match = re.match(r"(\w+)\s*(\(([^)]*)\))?\s+(.*)", statement)
        if not match or match.group(1) not in QASM_NAMES:
            raise oracle_core.UnsupportedOperation(f"QASM statement {statement!r}")
        params = [float(eval(p, {"__builtins__": {}}, {"pi": math.pi})) for p in (match.group(3) or "").split(",") if p.strip()]
        qubits = [int(q) for q in re.findall(r"\[(\d+)\]", match.group(4))]
        ops.append((QASM_NAMES[match.group(1)], tuple(params), tuple(size - 1 - q for q in qubits)))
    return oracle_core.unitary(ops, size)


QASM_ROUTES = ("to_openqasm", "to_openqasm(precision)", "from_qasm", "to_openqasm->from_qasm")
QASM_STANDARD = ("Hadamard", "PauliX", "PauliY", "PauliZ", "S", "T", "SX", "RX", "RY", "RZ", "PhaseShift", "U3",
                 "CNOT", "CZ", "CY", "SWAP", "CRX", "CRY", "CRZ", "ControlledPhaseShift", "Toffoli", "CSWAP", "Rot",
                 "IsingXX", "IsingYY", "IsingZZ", "GlobalPhase")


def _qasm_subjects():
    found = []
    for route in QASM_ROUTES:
        try:
            _qasm_unitary_via(route, Circuit((0, 1), (), (Gate("Hadamard", (), (0,)), Gate("CNOT", (), (0, 1)))), 12)
        except Exception:  # the converter is missing (from_qasm needs pennylane-qiskit)
            continue
        found.append(route)
    return found


def _qasm_program(route, circuit, precision):
    # wires=dev.wires: every device wire gets a qubit, q[i] = i-th device wire (documented argument)
    exported = ("text = qml.to_openqasm(circuit, wires=dev.wires, precision=%d)()\n" % precision
                if route == "to_openqasm(precision)" else "text = qml.to_openqasm(circuit, wires=dev.wires)()\n")
    if route == "from_qasm":
        exported = f"text = {qasm_text(circuit)!r}\n"
    source = program("default.qubit", circuit, "qml.probs()").replace("result = circuit()\n", exported)
    if route in ("from_qasm", "to_openqasm->from_qasm"):
        source += ("loaded = qml.from_qasm(text, measurements=[])\n"
                   f"imported = np.asarray(qml.matrix(loaded, wire_order=list(range({len(circuit.labels)})))())\n")
    return source


def qasm_text(circuit):
    """OpenQASM 2 for a circuit of qelib1 gates, written here (not by the library)."""
    names = {"Hadamard": "h", "PauliX": "x", "PauliY": "y", "PauliZ": "z", "S": "s", "T": "t", "SX": "sx", "RX": "rx",
             "RY": "ry", "RZ": "rz", "PhaseShift": "u1", "U3": "u3", "CNOT": "cx", "CZ": "cz", "CY": "cy", "SWAP": "swap",
             "CRX": "crx", "CRY": "cry", "CRZ": "crz", "ControlledPhaseShift": "cu1", "Toffoli": "ccx", "CSWAP": "cswap",
             "IsingZZ": "rzz", "IsingXX": "rxx"}
    lines = ["OPENQASM 2.0;", 'include "qelib1.inc";', f"qreg q[{len(circuit.labels)}];"]
    for gate in circuit.gates:
        if gate.name not in names:
            continue
        params = f"({', '.join(repr(float(p)) for p in gate.params)})" if gate.params else ""
        lines.append(f"{names[gate.name]}{params} {','.join(f'q[{w}]' for w in gate.wires)};")
    return "\n".join(lines)


def _qasm_unitary_via(route, circuit, precision):
    namespace = run(_qasm_program(route, circuit, precision))
    return namespace["imported"] if "imported" in namespace else parse_qasm_unitary(namespace["text"])


def _qasm_strategy(route):
    from hypothesis import strategies as st

    names = QASM_STANDARD if route != "from_qasm" else tuple(n for n in QASM_STANDARD if n not in ("Rot", "IsingYY", "GlobalPhase"))
    return st.tuples(circuits(max_wires=3, names=names, basis=False).map(
        lambda c: c._replace(labels=tuple(range(len(c.labels))))), st.integers(6, 12))


def _qasm_expected(circuit):
    return oracle_unitary(circuit)


def _qasm_tolerance(route, precision):
    # printing angles with `precision` digits moves each by up to 0.5e-precision
    return 10.0 ** (-precision) * 20 if route == "to_openqasm(precision)" else ATOL


def _check_qasm(route, example):
    from hypothesis import assume

    circuit, precision = example
    try:
        actual = _qasm_unitary_via(route, circuit, precision)
    except oracle_core.UnsupportedOperation:
        assume(False)  # the export used a gate the independent parser does not know: not judged
    verdict = oracle_core.compare_unitaries(_qasm_expected(circuit), actual, atol=_qasm_tolerance(route, precision))
    assert verdict["verdict"] != oracle_core.NOT_EQUAL, (
        f"{route} of {circuit_text(circuit)} does not implement the circuit's operator, even up to global phase "
        f"({verdict})")


def _reproduce_qasm(route, example):
    circuit, precision = example
    source = _qasm_program(route, circuit, precision)
    if route not in ("from_qasm", "to_openqasm->from_qasm"):
        source += ("\n# an independent reading of the exported qelib1 gates (numpy), q[0] most significant\n"
                   + _READER + "\nimported = read(text)\n")
    return source + (
        f"# expected: the circuit's unitary from a numpy simulation of its gates\nexpected = {literal(_qasm_expected(circuit))}\n"
        "assert imported.shape == expected.shape, ('not the same number of qubits', imported.shape, expected.shape)\n"
        "overlap = np.vdot(expected.ravel(), imported.ravel())\n"
        "phase = overlap / abs(overlap) if abs(overlap) > 0 else 1.0\n"
        f"assert np.max(np.abs(imported - phase * expected)) < {_qasm_tolerance(route, precision)!r}, "
        "'not the same operator, even up to global phase'\n")


_READER = '''
def read(text):
    import math, re
    c, s = math.cos, math.sin
    I2 = np.eye(2, dtype=complex)
    X = np.array([[0, 1], [1, 0]], dtype=complex); Y = np.array([[0, -1j], [1j, 0]]); Z = np.diag([1, -1]).astype(complex)
    def u(t, p, l):
        return np.array([[c(t / 2), -np.exp(1j * l) * s(t / 2)], [np.exp(1j * p) * s(t / 2), np.exp(1j * (p + l)) * c(t / 2)]])
    def ctrl(m, k=1):
        d = m.shape[0]; full = np.eye(d * 2 ** k, dtype=complex); full[-d:, -d:] = m; return full
    def rot(P, t):
        return c(t / 2) * np.eye(P.shape[0]) - 1j * s(t / 2) * P
    rx = lambda t: rot(X, t); ry = lambda t: rot(Y, t); rz = lambda t: rot(Z, t); p = lambda t: np.diag([1, np.exp(1j * t)])
    H = np.array([[1, 1], [1, -1]]) / math.sqrt(2); S = np.diag([1, 1j]); T = np.diag([1, np.exp(1j * math.pi / 4)])
    SX = np.array([[1 + 1j, 1 - 1j], [1 - 1j, 1 + 1j]]) / 2
    SW = np.eye(4)[[0, 2, 1, 3]]
    gates = {"h": lambda: H, "x": lambda: X, "y": lambda: Y, "z": lambda: Z, "s": lambda: S, "sdg": lambda: S.conj().T,
             "t": lambda: T, "tdg": lambda: T.conj().T, "sx": lambda: SX, "id": lambda: I2, "rx": rx, "ry": ry, "rz": rz,
             "u1": p, "p": p, "u3": u, "u": u, "u2": lambda a, b: u(math.pi / 2, a, b), "cx": lambda: ctrl(X),
             "cy": lambda: ctrl(Y), "cz": lambda: ctrl(Z), "ch": lambda: ctrl(H), "swap": lambda: SW,
             "crx": lambda t: ctrl(rx(t)), "cry": lambda t: ctrl(ry(t)), "crz": lambda t: ctrl(rz(t)),
             "cu1": lambda t: ctrl(p(t)), "cp": lambda t: ctrl(p(t)), "ccx": lambda: ctrl(X, 2), "cswap": lambda: ctrl(SW),
             "rxx": lambda t: rot(np.kron(X, X), t), "ryy": lambda t: rot(np.kron(Y, Y), t), "rzz": lambda t: rot(np.kron(Z, Z), t)}
    n, unitary = 0, np.eye(1, dtype=complex)  # no qreg: a program on zero qubits
    for statement in text.replace("\\n", " ").split(";"):
        statement = statement.strip()
        if not statement or statement.startswith(("OPENQASM", "include", "creg", "measure", "barrier", "gphase")):
            continue
        m = re.match(r"qreg\\s+\\w+\\[(\\d+)\\]", statement)
        if m:
            n = int(m.group(1)); unitary = np.eye(2 ** n, dtype=complex); continue
        m = re.match(r"(\\w+)\\s*(\\(([^)]*)\\))?\\s+(.*)", statement)
        params = [float(eval(v, {"__builtins__": {}}, {"pi": math.pi})) for v in (m.group(3) or "").split(",") if v.strip()]
        qubits = [int(q) for q in re.findall(r"\\[(\\d+)\\]", m.group(4))]
        gate = np.asarray(gates[m.group(1)](*params), dtype=complex)
        # embed on the qubits (q[0] most significant), then apply
        k = len(qubits); rest = [q for q in range(n) if q not in qubits]
        full = np.kron(gate, np.eye(2 ** (n - k))).reshape((2,) * (2 * n))
        order = qubits + rest
        inverse = [order.index(q) for q in range(n)]
        full = full.transpose(inverse + [n + i for i in inverse]).reshape(2 ** n, 2 ** n)
        unitary = full @ unitary
    return unitary
'''



# ==========================================================================================
# Law 11: QuantumScript round trips (pickle, copies, parameter rebinding) preserve the
# operator (global phase included), the measurements, the wires and the shots.

TAPE_ROUTES = ("pickle", "copy", "copy(copy_operations=True)", "deepcopy", "bind_new_parameters", "graph round trip")


def _tape_program(route, circuit):
    ops = ",\n    ".join(circuit_lines(circuit)) or ""
    wires = _wires_text(circuit, range(len(circuit.labels)))
    transform = {
        "pickle": "import pickle\nsecond = pickle.loads(pickle.dumps(tape))",
        "copy": "second = tape.copy()",
        "copy(copy_operations=True)": "second = tape.copy(copy_operations=True)",
        "deepcopy": "import copy\nsecond = copy.deepcopy(tape)",
        "bind_new_parameters": "second = tape.bind_new_parameters(tape.get_parameters(trainable_only=False), list(range(tape.num_params)))",
        "graph round trip": "second = qml.tape.QuantumScript(tape.graph.operations, tape.graph.observables, shots=tape.shots)",
    }[route]
    return ("import numpy as np\nimport pennylane as qml\n\n"
            f"tape = qml.tape.QuantumScript([\n    {ops}\n], [qml.probs(wires={wires})], shots=100)\n"
            f"{transform}\n"
            f"wire_order = {list(circuit.labels)!r}\n"
            "operator = np.asarray(qml.matrix(second, wire_order=wire_order))\n"
            "same_measurements = [qml.equal(a, b) for a, b in zip(second.measurements, tape.measurements)] "
            "and len(second.measurements) == len(tape.measurements)\n"
            "same_shots = second.shots == tape.shots\n")


def _tape_strategy(route):
    # no BasisState: a state preparation has no operator to compare
    return circuits(max_wires=3, max_gates=6, basis=False)


def _check_tape(route, circuit):
    namespace = run(_tape_program(route, circuit))
    expected = oracle_unitary(circuit)
    operator = namespace["operator"]
    gap = float(np.max(np.abs(operator - expected))) if operator.shape == expected.shape else math.inf
    assert gap < ATOL, f"{route} of a QuantumScript changes its operator (max deviation {gap:.3g}, global phase included) for {circuit_text(circuit)}"
    assert namespace["same_measurements"], f"{route} of a QuantumScript changes its measurements for {circuit_text(circuit)}"
    assert namespace["same_shots"], f"{route} of a QuantumScript changes its shots for {circuit_text(circuit)}"


def _reproduce_tape(route, circuit):
    return _tape_program(route, circuit) + (
        "# expected: the operator of the original gates, numpy simulation (first wire most significant)\n"
        f"expected = {literal(oracle_unitary(circuit))}\n"
        f"assert operator.shape == expected.shape and np.max(np.abs(operator - expected)) < {ATOL}, 'operator changed'\n"
        "assert same_measurements, 'measurements changed'\nassert same_shots, 'shots changed'\n")


def _tape_subjects():
    return [r for r in TAPE_ROUTES if _runs(_tape_program(r, _probe_circuit()))]


# ==========================================================================================
# Law 12: qml.specs gate counts, sizes and depth agree with counting the circuit's operations
# at the same level independently.

SPECS_LEVELS = ("top", "user", "gradient", "device")


def _specs_program(level, circuit):
    resources, tape, _ = _specs_idiom()
    return program("default.qubit", circuit, "qml.probs()").replace(
        "result = circuit()\n",
        f"resources = qml.specs(circuit, level={level!r})(){resources}\n"
        f"operations = {tape.format(level=level)}.operations\n")


@functools.lru_cache(maxsize=None)
def _specs_idiom():
    """How this release spells what the law reads, seen on a probe: the resources of qml.specs (an
    attribute of what it returns from 0.43, the "resources" entry of the dict it returns before),
    their gate counts (`gate_counts` from 0.43, `gate_types` before: same meaning), and the tape at
    a level (qml.workflow.construct_tape from 0.41, the first tape of construct_batch before)."""
    import pennylane as qml

    workflow = getattr(qml, "workflow", None)
    tape = ("qml.workflow.construct_tape(circuit, level={level!r})()" if hasattr(workflow, "construct_tape")
            else "qml.workflow.construct_batch(circuit, level={level!r})()[0][0]")
    probe = program("default.qubit", _probe_circuit(), "qml.probs()").replace(
        "result = circuit()\n", "answer = qml.specs(circuit, level='user')()\n")
    try:
        answer = run(probe)["answer"]
    except Exception:  # noqa: BLE001 - a release whose specs takes no level has no subject
        return ".resources", tape, "gate_counts"
    resources = answer["resources"] if isinstance(answer, dict) else answer.resources
    counts = "gate_counts" if hasattr(resources, "gate_counts") else "gate_types"
    return ('["resources"]' if isinstance(answer, dict) else ".resources"), tape, counts


def _counts_field():
    return _specs_idiom()[2]


def _specs_subjects():
    import pennylane as qml

    if not hasattr(qml, "specs"):
        return []
    return [level for level in SPECS_LEVELS if _runs(_specs_program(level, _probe_circuit()))]


def _specs_strategy(level):
    # GlobalPhase is left out: whether a wire-less operation adds a layer is not documented
    return circuits(names=tuple(n for n in STANDARD if n != "GlobalPhase"))


def counted_resources(operations):
    """Gate counts by name, gate sizes by number of wires, and depth (the longest chain of
    operations sharing a wire), counted here."""
    counts, sizes, layer = {}, {}, {}
    depth = 0
    for name, wires in operations:
        counts[name] = counts.get(name, 0) + 1
        sizes[len(wires)] = sizes.get(len(wires), 0) + 1
        level = 1 + max([layer.get(w, 0) for w in wires], default=0)
        for w in wires:
            layer[w] = level
        depth = max(depth, level)
    return counts, sizes, depth


def _user_operations(circuit):
    ops = [("BasisState", tuple(circuit.labels))] if circuit.basis else []
    return ops + [(g.name, tuple(circuit.labels[w] for w in g.wires)) for g in circuit.gates]


def _check_specs(level, circuit):
    namespace = run(_specs_program(level, circuit))
    resources = namespace["resources"]
    operations = [(op.name, tuple(op.wires)) for op in namespace["operations"]]
    if level in ("top", "user"):
        # no transform on the QNode: the tape at these levels is the circuit as written
        assert operations == _user_operations(circuit), (
            f"the tape at level {level!r} is not the circuit as written: {operations} vs {_user_operations(circuit)}")
    counts, sizes, depth = counted_resources(operations)
    reported = (dict(getattr(resources, _counts_field())), dict(resources.gate_sizes), resources.num_gates, resources.depth)
    assert reported == (counts, sizes, len(operations), depth), (
        f"qml.specs(level={level!r}) reports {_counts_field()}, gate_sizes, num_gates, depth = {reported}; counting the "
        f"{len(operations)} operations of the tape at that level gives {(counts, sizes, len(operations), depth)} "
        f"for {circuit_text(circuit)}")


def _reproduce_specs(level, circuit):
    return _specs_program(level, circuit) + (
        "\n# count the operations of the tape at the same level independently\n"
        "counts, sizes, layer, depth = {}, {}, {}, 0\n"
        "for op in operations:\n"
        "    counts[op.name] = counts.get(op.name, 0) + 1\n"
        "    sizes[len(op.wires)] = sizes.get(len(op.wires), 0) + 1\n"
        "    level = 1 + max([layer.get(w, 0) for w in op.wires], default=0)\n"
        "    for w in op.wires:\n        layer[w] = level\n"
        "    depth = max(depth, level)\n"
        + (f"assert [(op.name, tuple(op.wires)) for op in operations] == {_user_operations(circuit)!r}, 'not the circuit as written'\n"
           if level in ("top", "user") else "")
        + f"assert dict(resources.{_counts_field()}) == counts, (resources.{_counts_field()}, counts)\n"
        "assert dict(resources.gate_sizes) == sizes, (resources.gate_sizes, sizes)\n"
        "assert resources.num_gates == len(operations), (resources.num_gates, len(operations))\n"
        "assert resources.depth == depth, (resources.depth, depth)\n")


# ==========================================================================================
# Law 13: a measurement process gives the same answer from every documented input form.
#
# SampleMeasurement documents process_samples(samples, wire_order, shot_range): computational
# basis samples of all wires, one column per wire of wire_order, shot_range a slice of the
# shots; and process_counts(counts, wire_order): a dict in the format CountsMP returns, keys
# bit strings over wire_order (first wire first), where outcomes with zero counts may be left
# out. StateMeasurement documents process_state(state, wire_order) (flat state vector, first
# wire of wire_order most significant) and process_density_matrix(density_matrix, wire_order).
# Data for an observable are in its measurement basis (the device has applied its
# diagonalizing gates; Operator.eigvals: O = U diag(eigvals) U^dagger with U^dagger the
# diagonalizing gates), so outcome bits b stand for the eigenvalue lambda(b), computed here:
# c * (-1)^parity(b) for a Pauli word with coefficient c; the sum of these for terms on
# disjoint wires (Sum, qml.dot, LinearCombination: each term keeps its own Pauli basis); 1 on
# the projected basis state and 0 elsewhere for a Projector; the eigenvalues in ascending
# order for a Hermitian matrix (numpy's eigh, the eigenbasis Hermitian's diagonalizing gates
# document). Every form, given the same data, must give the value numpy computes from that
# data, hence they agree with each other.
# A measurement process without wires is given to process_counts by no documented route
# (PennyLane's own measurements_from_counts refuses such a process): it is drawn for the
# other forms only.

PROCESS_KINDS = {"probs": "ProbabilityMP", "counts": "CountsMP", "sample": "SampleMP", "expval": "ExpectationMP",
                 "var": "VarianceMP", "state": "StateMP", "density_matrix": "DensityMatrixMP", "purity": "PurityMP",
                 "vn_entropy": "VnEntropyMP", "mutual_info": "MutualInfoMP"}
SAMPLE_FORMS = ("process_samples", "process_counts")
STATE_FORMS = ("process_state", "process_density_matrix")
SAMPLE_KINDS = ("probs", "counts", "sample", "expval", "var")
STATE_KINDS = ("probs", "expval", "var", "state", "density_matrix", "purity", "vn_entropy", "mutual_info")
FORM_AMPLITUDES = (0.0, 1.0, -1.0, 0.5, -0.5, 0.25)
FORM_OBSERVABLES = ("word", "sprod", "sum", "dot", "linear_combination", "hermitian", "projector")


class FormsExample(NamedTuple):
    labels: tuple  # wire_order: the wire labels of the data, in data order
    spec: tuple    # (mode, value, extra): ("all", None, x) | ("wires", positions, x) | ("op", Observable, x)
                   # | ("pair", (positions0, positions1), x); x is all_outcomes (counts), log_base or None
    data: tuple    # ("samples", rows, shot_range, (zero counts listed, keys reversed)) | ("vector", amplitudes)
                   # | ("mixture", ((weight, amplitudes), ...))


def _prefix(n, min_size=1, max_size=None):
    """Some wire positions, in any order."""
    from hypothesis import strategies as st

    return st.integers(min_size, max_size or n).flatmap(
        lambda k: st.permutations(list(range(n))).map(lambda p: tuple(p[:k])))


def _form_observables(n, kinds):
    """Observables whose measurement basis is documented: Pauli words (wires in any order),
    sums of Pauli words on disjoint wires, Hermitian matrices, basis-state projectors."""
    from hypothesis import strategies as st

    coefficients = st.sampled_from([1.0, -1.0, 0.5, 2.0, -0.25, 0.0])

    def word(positions):
        return st.text(alphabet="XYZ", min_size=len(positions), max_size=len(positions)).map(
            lambda letters: (letters, tuple(positions)))

    def pieces(p):
        if len(p) == 1:
            return st.just([p])
        return st.lists(st.integers(1, len(p) - 1), max_size=2, unique=True).map(sorted).map(
            lambda cuts: [p[a:b] for a, b in zip([0] + cuts, cuts + [len(p)])])

    def for_kind(kind):
        if kind in ("word", "sprod"):
            c = st.just(1.0) if kind == "word" else coefficients
            return st.tuples(c, _prefix(n).flatmap(word)).map(lambda t: Observable(kind, ((t[0],) + t[1],), (), ()))
        if kind in ("sum", "dot", "linear_combination"):
            return _prefix(n).flatmap(pieces).flatmap(lambda ps: st.tuples(
                *[st.tuples(coefficients, word(piece)).map(lambda t: (t[0],) + t[1]) for piece in ps])).map(
                lambda terms: Observable(kind, tuple(terms), (), ()))
        if kind == "hermitian":
            return _prefix(n, 1, min(n, 2)).flatmap(
                lambda ws: _hermitian(len(ws)).map(lambda m: Observable(kind, (), m, ws)))
        return _prefix(n, 1, min(n, 3)).flatmap(lambda ws: st.tuples(*[st.integers(0, 1)] * len(ws)).map(
            lambda bits: Observable(kind, (), bits, ws)))
    return st.sampled_from(list(kinds)).flatmap(for_kind)


def _forms_spec(kind, form, n):
    from hypothesis import strategies as st

    if kind in ("probs", "counts", "sample"):
        extra = st.booleans() if kind == "counts" else st.just(None)
        # probs(op=Hermitian) has no documented order (see law 1)
        kinds = ("word", "projector") if kind == "probs" else ("word", "sprod", "hermitian", "projector")
        modes = [st.tuples(st.just("wires"), _prefix(n), extra),
                 st.tuples(st.just("op"), _form_observables(n, kinds), extra)]
        if form != "process_counts":
            modes.append(st.tuples(st.just("all"), st.just(None), extra))
        return st.one_of(*modes)
    if kind in ("expval", "var"):
        return st.tuples(st.just("op"), _form_observables(n, FORM_OBSERVABLES), st.just(None))
    if kind == "state":
        # StateMP documents that it cannot trace out wires: all wires, in any order
        return st.one_of(st.just(("all", None, None)), st.tuples(st.just("wires"), _prefix(n, n, n), st.just(None)))
    if kind in ("density_matrix", "purity"):
        return st.tuples(st.just("wires"), _prefix(n), st.just(None))
    bases = st.sampled_from([None, 2, math.e, 10])
    if kind == "vn_entropy":
        return st.tuples(st.just("wires"), _prefix(n), bases)
    # mutual_info: two disjoint nonempty subsystems
    return st.tuples(st.permutations(list(range(n))), st.integers(1, n - 1), st.integers(1, n), bases).map(
        lambda t: ("pair", (tuple(t[0][:t[1]]), tuple(t[0][t[1]:t[1] + t[2]])), t[3]))


def _forms_data(form, n):
    from hypothesis import strategies as st

    if form in SAMPLE_FORMS:
        def around(rows):
            shots = len(rows)
            if form == "process_samples":
                ranges = st.one_of(st.just(None), st.integers(0, shots - 1).flatmap(
                    lambda a: st.integers(a + 1, shots).map(lambda b: (a, b))))
                return st.tuples(st.just("samples"), st.just(rows), ranges, st.just(None))
            return st.tuples(st.just("samples"), st.just(rows), st.just(None), st.tuples(st.booleans(), st.booleans()))
        return st.lists(st.tuples(*[st.integers(0, 1)] * n), min_size=1, max_size=12).map(tuple).flatmap(around)
    part = st.lists(st.sampled_from(FORM_AMPLITUDES), min_size=2 ** n, max_size=2 ** n)
    vector = st.tuples(part, part).map(lambda t: tuple(complex(a, b) for a, b in zip(*t)))
    if form == "process_state":
        return vector.map(lambda v: ("vector", v))
    return st.lists(st.tuples(st.sampled_from([1.0, 0.5, 2.0, 0.25]), vector), min_size=1, max_size=3).map(
        lambda mixture: ("mixture", tuple(mixture)))


def _forms_strategy(subject):
    from hypothesis import strategies as st

    kind, form = subject.split("/")
    return st.integers(2 if kind == "mutual_info" else 1, 4).flatmap(lambda n: st.builds(
        FormsExample, _labels_strategy(n), _forms_spec(kind, form, n), _forms_data(form, n)))


def _normalized(amplitudes):
    vector = np.array(amplitudes, dtype=complex)
    norm = np.linalg.norm(vector)
    if norm < 1e-12:
        vector = np.zeros(len(amplitudes), dtype=complex)
        vector[0] = 1.0
        return vector
    return vector / norm


def _bits(index, n):
    return tuple(int(b) for b in format(index, f"0{n}b"))


def _observable_positions(obs):
    """The observable's wires, as PennyLane orders them (operands in order)."""
    if obs.kind in ("hermitian", "projector"):
        return tuple(obs.positions)
    return tuple(p for _, _, positions in obs.terms for p in positions)


def form_eigenvalue(obs, bits):
    """The eigenvalue a measurement-basis outcome stands for (bits: one per wire position)."""
    if obs.kind == "hermitian":
        values = np.linalg.eigvalsh(np.array(obs.matrix, dtype=complex))
        return float(values[int("".join(str(bits[p]) for p in obs.positions), 2)])
    if obs.kind == "projector":
        return float(all(bits[p] == b for p, b in zip(obs.positions, obs.matrix)))
    return float(sum(c * (-1) ** sum(bits[p] for p in positions) for c, _, positions in obs.terms))


def _mp_positions(spec, n):
    mode, value, _ = spec
    if mode == "all":
        return tuple(range(n))
    if mode == "op":
        return _observable_positions(value)
    if mode == "pair":
        return tuple(value[0]) + tuple(value[1])
    return tuple(value)


def partial_density(rho, keep, n):
    """The reduced density matrix on wire positions `keep`, in that order (first most significant)."""
    k = len(keep)
    order = list(keep) + [w for w in range(n) if w not in keep]
    tensor = rho.reshape((2,) * (2 * n)).transpose(order + [n + w for w in order])
    return np.einsum("ajbj->ab", tensor.reshape(2 ** k, 2 ** (n - k), 2 ** k, 2 ** (n - k)))


def _forms_mp_text(kind, example):
    mode, value, extra = example.spec

    def wires(positions):
        return _wires_text(example, positions)
    if kind in ("probs", "counts", "sample"):
        if mode == "all":
            args = []
        elif mode == "wires":
            args = [f"wires={wires(value)}"]
        else:
            args = [("op=" if kind == "probs" else "") + observable_text(example, value)]
        if kind == "counts" and extra:
            args.append("all_outcomes=True")
        return f"qml.{kind}({', '.join(args)})"
    if kind in ("expval", "var"):
        return f"qml.{kind}({observable_text(example, value)})"
    if kind == "state":
        return "qml.state()" if mode == "all" else f"qml.measurements.StateMP(wires={wires(value)})"
    if kind in ("density_matrix", "purity"):
        return f"qml.{kind}(wires={wires(value)})"
    base = f", log_base={extra!r})" if extra else ")"
    if kind == "vn_entropy":
        return f"qml.vn_entropy(wires={wires(value)}" + base
    return f"qml.mutual_info(wires0={wires(value[0])}, wires1={wires(value[1])}" + base


def _counts_of(rows, style, n):
    """The counts dict of the samples: observed outcomes in order of appearance, then (if asked)
    the unobserved ones with count 0, keys in reverse order if asked."""
    counts = {}
    for row in rows:
        key = "".join(map(str, row))
        counts[key] = counts.get(key, 0) + 1
    zeros, reverse = style
    if zeros:
        for i in range(2 ** n):
            counts.setdefault("".join(map(str, _bits(i, n))), 0)
    keys = list(counts)[::-1] if reverse else list(counts)
    return {k: counts[k] for k in keys}


def _forms_inputs(form, example):
    """(lines defining the data, the call) for one form."""
    n = len(example.labels)
    data = example.data
    if data[0] == "samples":
        _, rows, shot_range, style = data
        lines = [f"samples = np.array({[list(r) for r in rows]!r})"]
        if form == "process_counts":
            lines = ["# the data: raw samples (one column per wire of wire_order) and their counts"] + lines + [
                f"counts = {_counts_of(rows, style, n)!r}"]
            return lines, "mp.process_counts(counts, wire_order)"
        extra = f", shot_range={shot_range!r}" if shot_range else ""
        return lines, f"mp.process_samples(samples, wire_order{extra})"
    if data[0] == "vector":
        return [f"state = {literal(_normalized(data[1]))}"], "mp.process_state(state, wire_order)"
    weights = [w for w, _ in data[1]]
    vectors = ",\n    ".join(literal(_normalized(a)) for _, a in data[1])
    return ([f"weights = {weights!r}", f"vectors = [\n    {vectors},\n]",
             "density_matrix = sum(w * np.outer(v, v.conj()) for w, v in zip(weights, vectors)) / sum(weights)"],
            "mp.process_density_matrix(density_matrix, wire_order)")


def _forms_program(subject, example):
    """Builds the measurement process and the data, calls one form; the answer is `result`."""
    kind, form = subject.split("/")
    lines, call = _forms_inputs(form, example)
    return ("import numpy as np\nimport pennylane as qml\n\n"
            f"wire_order = qml.wires.Wires({list(example.labels)!r})\n" + "\n".join(lines) + "\n"
            f"mp = {_forms_mp_text(kind, example)}\n"
            "try:\n"
            f"    result = {call}\n"
            "except Exception as exc:  # documented input: an exception is a failure of this form ...\n"
            f"    if type(exc).__name__ == {REFUSAL!r}:\n"
            "        raise  # ... except the library's own refusal: this observable has no eigenvalues\n"
            f"    raise AssertionError(f'{form} raises {{type(exc).__name__}}: {{exc}}') from exc\n")


def _density_of(data):
    if data[0] == "vector":
        vector = _normalized(data[1])
        return np.outer(vector, vector.conj())
    weights = [w for w, _ in data[1]]
    return sum(w * np.outer(v, v.conj()) for w, v in zip(weights, [_normalized(a) for _, a in data[1]])) / sum(weights)


def forms_expected(kind, example):
    """(how to compare, expected value) from the data, with numpy."""
    n = len(example.labels)
    mode, value, extra = example.spec
    positions = _mp_positions(example.spec, n)
    if example.data[0] == "samples":
        _, rows, shot_range, _ = example.data
        rows = rows[slice(*shot_range)] if shot_range else rows
        values = [form_eigenvalue(value, r) for r in rows] if mode == "op" else None
        if kind == "probs":
            frequencies = np.zeros(2 ** len(positions))
            for r in rows:
                frequencies[int("".join(str(r[p]) for p in positions), 2)] += 1
            return "array", frequencies / len(rows)
        if kind == "counts":
            counts = {}
            if mode == "op":
                for v in values:
                    counts[round(v, 6)] = counts.get(round(v, 6), 0) + 1
                if extra:
                    for i in range(2 ** n):
                        counts.setdefault(round(form_eigenvalue(value, _bits(i, n)), 6), 0)
                return "eigenvalue counts", counts
            for r in rows:
                key = "".join(str(r[p]) for p in positions)
                counts[key] = counts.get(key, 0) + 1
            if extra:
                for i in range(2 ** len(positions)):
                    counts.setdefault("".join(map(str, _bits(i, len(positions)))), 0)
            return "bit counts", counts
        if kind == "sample":
            if mode == "op":
                return "samples", np.array(values, dtype=float)
            return "samples", np.array([[r[p] for p in positions] for r in rows], dtype=int)
        values = np.array(values)
        return "scalar", float(np.mean(values)) if kind == "expval" else float(np.mean(values ** 2) - np.mean(values) ** 2)
    rho = _density_of(example.data)
    if kind == "state":
        vector = _normalized(example.data[1])
        return "array", vector if mode == "all" else np.transpose(vector.reshape((2,) * n), positions).reshape(-1)
    if kind == "probs":
        return "array", np.real(np.diag(partial_density(rho, positions, n)))
    if kind in ("expval", "var"):
        p = np.real(np.diag(rho))
        eigenvalues = np.array([form_eigenvalue(value, _bits(i, n)) for i in range(2 ** n)])
        mean = float(p @ eigenvalues)
        return "scalar", mean if kind == "expval" else float(p @ eigenvalues ** 2) - mean ** 2
    if kind == "density_matrix":
        return "array", partial_density(rho, positions, n)
    if kind == "purity":
        reduced = partial_density(rho, positions, n)
        return "scalar", float(np.real(np.trace(reduced @ reduced)))
    if kind == "vn_entropy":
        return "scalar", entropy(partial_density(rho, positions, n), extra)
    wires0, wires1 = value
    return "scalar", (entropy(partial_density(rho, wires0, n), extra) + entropy(partial_density(rho, wires1, n), extra)
                      - entropy(partial_density(rho, tuple(wires0) + tuple(wires1), n), extra))


_FORMS_ARRAY = """actual = np.asarray(result)
assert actual.shape == expected.shape, f"{form} returns shape {{actual.shape}}, expected {{expected.shape}}"
assert np.allclose(actual, expected, rtol=0, atol={atol}), f"{form} returns {{np.round(actual, 6).tolist()}}, expected {{np.round(expected, 6).tolist()}}"
"""
_FORMS_SCALAR = """actual = np.asarray(result)
assert actual.shape == (), f"{form} returns shape {{actual.shape}}, expected a scalar"
assert abs(complex(actual) - expected) < {atol}, f"{form} returns {{complex(actual)!r}}, expected {{expected!r}}"
"""
_FORMS_BIT_COUNTS = """assert isinstance(result, dict), f"{form} returns {{type(result).__name__}}, expected a dict"
got = {{str(k): int(v) for k, v in result.items()}}
assert got == expected, f"{form} returns {{got}}, expected {{expected}}"
"""
_FORMS_EIGEN_COUNTS = """assert isinstance(result, dict), f"{form} returns {{type(result).__name__}}, expected a dict"
assert not any(isinstance(k, str) for k in result), f"{form} returns keys {{list(result)}}, expected eigenvalues"
got = {{}}
for k, v in result.items():
    got[round(float(k), 6)] = got.get(round(float(k), 6), 0) + int(v)
assert got == expected, f"{form} returns {{result}}, i.e. counts per eigenvalue {{got}}, expected {{expected}}"
"""
_FORMS_SAMPLES = """actual = np.asarray(result)
assert actual.shape == expected.shape, f"{form} returns shape {{actual.shape}}, expected {{expected.shape}}"
assert np.allclose(actual, expected, rtol=0, atol={atol}), f"{form} returns {{actual.tolist()}}, expected {{expected.tolist()}}"
"""
# a counts dict keeps no shot order: the samples it gives are compared as a multiset, and their
# shape with the shape process_samples gives for the same samples
_FORMS_COUNTED_SAMPLES = """actual = np.asarray(result)
from_samples = np.asarray(mp.process_samples(samples, wire_order))
assert actual.shape == from_samples.shape, f"process_counts returns shape {{actual.shape}}; process_samples on the same samples returns shape {{from_samples.shape}}"
assert actual.size == expected.size, f"process_counts returns {{actual.size}} values, expected {{expected.size}}"
def multiset(a):
    return np.array(sorted(np.asarray(a, dtype=float).reshape(expected.shape[0], -1).tolist()))
assert np.allclose(multiset(actual), multiset(expected), rtol=0, atol={atol}), f"process_counts returns {{actual.tolist()}}, expected the samples {{expected.tolist()}} in some order"
"""


def _reproduce_forms(subject, example):
    kind, form = subject.split("/")
    how, expected = forms_expected(kind, example)
    if how in ("array", "samples"):
        expected_text = literal(expected) if how == "array" or expected.dtype.kind == "f" else f"np.array({expected.tolist()!r})"
    else:
        expected_text = repr(expected)
    template = {"array": _FORMS_ARRAY, "scalar": _FORMS_SCALAR, "bit counts": _FORMS_BIT_COUNTS,
                "eigenvalue counts": _FORMS_EIGEN_COUNTS,
                "samples": _FORMS_COUNTED_SAMPLES if form == "process_counts" else _FORMS_SAMPLES}[how]
    return (_forms_program(subject, example)
            + "\n# Law: every documented input form of a measurement process gives the same answer: the value\n"
              "# computed with numpy from the same data (first wire of wire_order most significant; for an\n"
              "# observable, outcome bits in its measurement basis stand for its eigenvalues)\n"
            + f"expected = {expected_text}\n" + template.format(form=form, atol=ATOL))


def _describe_forms(subject, example):
    kind, form = subject.split("/")
    data = example.data
    if data[0] == "samples":
        what = f"{len(data[1])} samples" + (f", shot_range={data[2]}" if data[2] else "")
    elif data[0] == "vector":
        what = "a state vector"
    else:
        what = f"a mixture of {len(data[1])} pure state(s)"
    return f"{_forms_mp_text(kind, example)}.{form} on {what} over wire_order={list(example.labels)}"


# A measurement of an observable without eigenvalues (before 0.34, `c * word` builds a legacy
# qml.Hamiltonian, which has none) is refused loudly with this error: not a silent wrong answer,
# and not an input this law can judge.
REFUSAL = "EigvalsUndefinedError"


def _check_forms(subject, example):
    from hypothesis import reject

    try:
        run(_reproduce_forms(subject, example))
    except AssertionError as exc:
        raise AssertionError(f"{_describe_forms(subject, example)}: {exc}") from None
    except Exception as exc:  # noqa: BLE001 - only the refusal is let through, by name
        if type(exc).__name__ != REFUSAL:
            raise
        reject()


def _forms_probe(kind, form):
    """A small valid example, to see whether the release offers the form."""
    spec = {"probs": ("wires", (1,), None), "counts": ("wires", (1,), False), "sample": ("wires", (1,), None),
            "expval": ("op", Observable("word", ((1.0, "Z", (0,)),), (), ()), None),
            "var": ("op", Observable("word", ((1.0, "Z", (0,)),), (), ()), None), "state": ("all", None, None),
            "density_matrix": ("wires", (0,), None), "purity": ("wires", (0,), None),
            "vn_entropy": ("wires", (0,), None), "mutual_info": ("pair", ((0,), (1,)), None)}[kind]
    data = {"process_samples": ("samples", ((0, 1), (1, 1)), None, None),
            "process_counts": ("samples", ((0, 1), (1, 1)), None, (False, False)),
            "process_state": ("vector", (1.0, 0.0, 0.0, 0.0)),
            "process_density_matrix": ("mixture", ((1.0, (1.0, 0.0, 0.0, 0.0)),))}[form]
    return FormsExample((0, 1), spec, data)


def _forms_subjects():
    """kind/form for every form the release's measurement process offers (a form that raises
    on a small valid input, like StateMP.process_density_matrix, is not offered)."""
    import pennylane as qml

    found = []
    for kind, name in PROCESS_KINDS.items():
        if not hasattr(qml.measurements, name):
            continue
        forms = (SAMPLE_FORMS if kind in SAMPLE_KINDS else ()) + (STATE_FORMS if kind in STATE_KINDS else ())
        for form in forms:
            if _runs(_forms_program(f"{kind}/{form}", _forms_probe(kind, form))):
                found.append(f"{kind}/{form}")
    return found


def _forms_api(subject):
    kind, form = subject.split("/")
    return f"qml.measurements.{PROCESS_KINDS[kind]}.{form}"


# ==========================================================================================
FAMILY_MEASURE = "measurement and result processing, execution"
FAMILY_SYMBOLIC = "symbolic parameters"
FAMILY_CONVERT = "representation conversion"
FAMILY_RESOURCE = "resource estimation and structure"


def _device_api(subject):
    device, kind = subject.split("/", 1)
    return f"qml.{kind.split('(')[0]} on qml.device({device!r})"


CONTRACTS = [
    Contract("pennylane.measure.analytic-matches-state", FAMILY_MEASURE,
             "an analytic measurement (expval, var, probs with wires or op, state, density_matrix, purity, "
             "vn_entropy, mutual_info) equals its exact value computed from the circuit's output state",
             "documentation: qml.expval/var/probs/state/density_matrix/purity/vn_entropy/mutual_info docstrings "
             "(definitions, lexicographic order, device wire order) and quantum semantics",
             _analytic_subjects, _analytic_strategy, _check_analytic, _reproduce_analytic, _device_api,
             describe=_describe_analytic),
    Contract("pennylane.measure.finite-shots-match-distribution", FAMILY_MEASURE,
             "finite-shot counts, samples, probs, expval and var are draws from the exact distribution "
             "(rigorous tail bounds at a planned false-alarm probability), and a shot vector gives one result "
             "of the documented shape per shot entry",
             "documentation: qml.counts/qml.sample/qml.set_shots/Shots (shot vectors, has_partitioned_shots) "
             "and the Born rule",
             _shot_subjects, _shot_strategy, _check_shots, _reproduce_shots,
             lambda s: _device_api(s) + shots_api(), describe=_describe_shots),
    Contract("pennylane.measure.mid-circuit-statistics", FAMILY_MEASURE,
             "with qml.measure (reset, postselect) and qml.cond, the final-state probabilities and the joint "
             "distribution of the mid-circuit outcomes equal a branch-by-branch simulation, conditioned on "
             "postselection",
             "documentation: qml.measure, qml.cond, mcm_method; quantum semantics of measurement and collapse",
             _mcm_subjects, _mcm_strategy, _check_mcm, _reproduce_mcm,
             lambda s: f"qml.measure / qml.cond with mcm_method={s.split('/')[1]!r} on qml.device({s.split('/')[0]!r})",
             describe=_describe_mcm),
    Contract("pennylane.measure.mid-circuit-shots", FAMILY_MEASURE,
             "with finite shots, on every mcm_method and postselect_mode, the samples of a circuit with qml.measure "
             "(reset, postselect) and qml.cond are draws from the branch-by-branch distribution conditioned on "
             "postselection: 'fill-shots' returns as many results as shots, 'hw-like' only the valid ones "
             "(about the postselection probability times the shots)",
             "documentation: QNode (mcm_method, postselect_mode: 'hw-like' discards invalid shots, 'fill-shots' "
             "returns results for the original number of shots), qml.measure (postselect), qml.cond, qml.sample; "
             "quantum semantics of measurement and collapse",
             _mcm_shots_subjects, _mcm_shots_strategy, _check_mcm_shots, _mcm_shots_source,
             lambda s: (f"qml.measure / qml.cond with mcm_method={s.split('/')[1]!r}, postselect_mode={s.split('/')[2]!r} "
                        f"on qml.device({s.split('/')[0]!r})" + shots_api()),
             describe=_describe_mcm_shots),
    Contract("pennylane.measure.process-forms-agree", FAMILY_MEASURE,
             "a measurement process gives the same answer from every documented input form: process_samples "
             "(with shot_range), process_counts (counts with or without zero-count outcomes), process_state and "
             "process_density_matrix of the same data equal the value computed from that data with numpy "
             "(frequencies, counts, samples, eigenvalue means and variances, states, reduced density matrices, "
             "purity, entropies), for wires in any order or subset of wire_order, any wire labels, and Pauli-word, "
             "disjoint-term sum, Hermitian and Projector observables",
             "documentation: SampleMeasurement.process_samples/process_counts, StateMeasurement.process_state/"
             "process_density_matrix (wire_order, CountsMP key format, zero counts may be omitted), "
             "Operator.eigvals/diagonalizing_gates (eigenvalue order follows the measurement basis)",
             _forms_subjects, _forms_strategy, _check_forms, _reproduce_forms, _forms_api,
             describe=_describe_forms),
    Contract("pennylane.exec.devices-agree", FAMILY_MEASURE,
             "noiseless simulators give the same output density matrix on every gate the library exports",
             "documentation: devices implement the same circuit semantics (default.qubit, default.mixed, "
             "lightning.qubit, reference.qubit)",
             _agreement_subjects, _agreement_strategy, _check_agreement, _reproduce_agreement,
             lambda s: f"qml.device({s.split('~')[1]!r})",
             describe=lambda s, c: f"{s}: {circuit_text(c)}"),
    Contract("pennylane.exec.seed-reproducible", FAMILY_MEASURE,
             "two executions on devices built with the same seed give identical samples",
             "documentation: device `seed` argument (seeds the device's random number generator)",
             _seed_subjects, _seed_strategy, _check_reproducible, _reproduce_reproducible,
             lambda s: f"qml.device({s!r}, seed=...)", describe=_describe_seeded),
    Contract("pennylane.exec.seeds-independent", FAMILY_MEASURE,
             "samples from devices with different seeds are independent: they agree shot by shot as often as "
             "independent draws from the exact distribution do",
             "documentation: device `seed` argument and statistical independence of different seeds",
             _seed_subjects, _seed_strategy, _check_independent, _reproduce_independent,
             lambda s: f"qml.device({s!r}, seed=...)", validity="undocumented", describe=_describe_seeded),
    Contract("pennylane.grad.diff-methods-agree", FAMILY_SYMBOLIC,
             "qml.jacobian of a QNode equals the derivative of the exact value, for every differentiation method "
             "and device that accepts the circuit (multi-parameter gates, shared and scaled parameters)",
             "documentation: QNode diff_method (parameter-shift, backprop, adjoint, finite-diff, hadamard, device) "
             "and calculus",
             _gradient_subjects, _gradient_strategy, _check_gradient, _reproduce_gradient,
             lambda s: f"qml.jacobian with qml.qnode(diff_method={s.split('/')[1]!r}) on qml.device({s.split('/')[0]!r})",
             describe=_describe_gradient),
    Contract("pennylane.convert.pauli-decompose-reconstructs", FAMILY_CONVERT,
             "the Pauli decomposition of a Hermitian matrix sums back to that matrix in every output form",
             "documentation: qml.pauli_decompose (hide_identity, wire_order, pauli)",
             _decompose_subjects, _decompose_strategy, _check_decompose, _reproduce_decompose,
             lambda s: "qml.pauli_decompose", describe=lambda s, e: f"pauli_decompose({s}) on wires {list(e[0])} of {e[1]}"),
    Contract("pennylane.convert.pauli-arithmetic-matrix", FAMILY_CONVERT,
             "PauliWord/PauliSentence matrices, conversions to and from operators, products, sums, scalar "
             "multiples and commutators equal the same computation on numpy Kronecker products",
             "documentation: pennylane.pauli.PauliWord/PauliSentence (to_mat, operation, @, +, *, commutator) "
             "and qml.pauli.pauli_sentence",
             _pauli_subjects, _pauli_strategy, _check_pauli, _reproduce_pauli,
             lambda s: f"pennylane.pauli.{s.split(' ')[0].split('(')[0]}",
             describe=lambda s, e: f"{s}: {_sentence_text(e[0], e[1])}, {_sentence_text(e[0], e[2])}, wire_order={list(e[0])}"),
    Contract("pennylane.convert.openqasm-preserves-operator", FAMILY_CONVERT,
             "exporting a circuit to OpenQASM 2 (qml.to_openqasm) and importing OpenQASM (qml.from_qasm) preserve "
             "the circuit's operator up to global phase (OpenQASM 2 has none), read by an independent parser",
             "documentation: qml.to_openqasm, qml.from_qasm; OpenQASM 2 qelib1 gate definitions",
             _qasm_subjects, _qasm_strategy, _check_qasm, _reproduce_qasm,
             lambda s: "qml.from_qasm" if s == "from_qasm" else "qml.to_openqasm",
             describe=lambda s, e: f"{s} (precision {e[1]}): {circuit_text(e[0])}"),
    Contract("pennylane.convert.tape-roundtrip", FAMILY_CONVERT,
             "QuantumScript round trips (pickle, copy, deepcopy, bind_new_parameters, circuit graph) "
             "preserve the operator with its global phase, the measurements and the shots",
             "documentation: qml.tape.QuantumScript (copy, bind_new_parameters, graph) and pickle",
             _tape_subjects, _tape_strategy, _check_tape, _reproduce_tape,
             lambda s: f"qml.tape.QuantumScript {s}", describe=lambda s, c: f"{s}: {circuit_text(c)}"),
    Contract("pennylane.resource.specs-counts", FAMILY_RESOURCE,
             "qml.specs gate counts, gate sizes, number of gates and depth agree with counting the operations of "
             "the tape at the same level (and, at top/user level, with the circuit as written)",
             "documentation: qml.specs (level, CircuitSpecs/SpecsResources fields)",
             _specs_subjects, _specs_strategy, _check_specs, _reproduce_specs,
             lambda s: "qml.specs", describe=lambda s, c: f"level {s}: {circuit_text(c)}"),
]
