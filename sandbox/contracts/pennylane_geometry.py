"""Quantum geometry, PennyLane: the metric tensor, the quantum and the classical Fisher information of a
QNode are the quantities their docstrings define, computed here from an independent numpy simulation.

Law `pennylane.geometry.metric-tensor-is-fubini-study`. The `qml.metric_tensor` docstring defines

    metric_tensor_ij = Re[<d_i psi|d_j psi> - <d_i psi|psi><psi|d_j psi>]

(no extra factor: an RX angle first on |0> gives 1/4, as the docstring's example shows), and says:
  - approx=None computes the full tensor, with Hadamard tests on an auxiliary wire (the next wire of
    the device after the circuit's, a given `aux_wire`, or one inferred from `device_wires`);
    `allow_nonunitary` only changes the cost;
  - "If the given or inferred aux_wire does not exist on the device, a warning is raised and the
    block-diagonal approximation is computed instead";
  - approx="block-diag": "blocks given by parameter groups that belong to groups of commuting gates":
    the entries of two parameters in one group are the full tensor's, the others are 0. Two gates one
    of which lies in the other's past light cone (a chain of gates over shared wires leads from one
    to the other) can never be moved to one time slice, so their entry must be 0; for two
    independent gates the docs do not fix the grouping, so the entry may be the full value or 0;
  - approx="diag": the diagonal of the full tensor, 0 elsewhere;
  - argnum: trainable tape-parameter indices (positions among all the tape's gate angles, constants
    included, in gate order; not the QNode
    argument's order); the other rows and columns are 0;
  - with the default hybrid=True the tensor is with respect to the QNode argument (a permutation of
    the tape parameters here, so M[a, b] = g[t(a), t(b)]).
`qml.adjoint_metric_tensor` computes the same (full) tensor; `quantum_fisher` (qml.gradients, or
qml.qinfo on older releases) is 4 times it ("coincides with the metric_tensor with a prefactor of 4").
Every result is, besides, a symmetric positive semidefinite matrix.

Law `pennylane.geometry.classical-fisher-of-basis-probabilities`: `classical_fisher` computes
CFIM_ij = sum_l (1/p_l) dp_l/dtheta_i dp_l/dtheta_j of the computational-basis probabilities
(eq. (15) of arXiv:2103.15191, as its docstring writes), a matrix of size (len(params), len(params)).

Inputs: 1-3 qubits, 1-4 layers of RX, RY, RZ, PhaseShift, Rot, CRX, CRY, CRZ, IsingXX, IsingYY,
IsingZZ (single-parameter gates with a generator, and Rot, documented to be decomposed), with
Hadamard, CNOT and CZ between them; each gate angle is an entry of one trainable `weights` array
(used in a shuffled order) or a constant (not trainable); autograd interface, default.qubit, exact
expectations. The oracle differentiates the numpy statevector analytically (dU/dtheta of each gate
in closed form), independent of PennyLane's generators and Hadamard tests.

Every check runs the same program text its reproducer prints.
"""

import math

import numpy as np
from contract_runtime import Contract

# Double-precision simulation and analytic derivatives on both sides (shots=None: Hadamard tests and
# covariances are exact expectation values), a few dozen floating-point operations per entry: rounding
# stays below 1e-12; 1e-7 leaves a wide margin and still sees any wrong term (entries are O(0.01-1)).
ATOL = 1e-7
# classical_fisher divides by p_l: inputs with a basis probability below MIN_PROBABILITY are rejected
# (the quotient of two rounding errors is then no number a law can state); above it, a rounding error
# of 1e-16 in p_l and dp_l costs at most 1e-16 / 1e-4^2 = 1e-8 per term.
MIN_PROBABILITY = 1e-4
CFIM_ATOL = 1e-6

# gate -> (number of angles, number of wires)
PARAM_GATES = {"RX": (1, 1), "RY": (1, 1), "RZ": (1, 1), "PhaseShift": (1, 1), "Rot": (3, 1),
               "CRX": (1, 2), "CRY": (1, 2), "CRZ": (1, 2), "IsingXX": (1, 2), "IsingYY": (1, 2),
               "IsingZZ": (1, 2)}
FIXED_GATES = {"Hadamard": 1, "CNOT": 2, "CZ": 2}

METRIC_SUBJECTS = ("metric_tensor", "metric_tensor/block-diag", "metric_tensor/diag",
                   "metric_tensor/no-aux-wire", "adjoint_metric_tensor", "quantum_fisher")

# -- the gates and their derivatives, in numpy (wire 0 most significant, as PennyLane) -------------------
I2 = np.eye(2, dtype=complex)
X = np.array([[0, 1], [1, 0]], dtype=complex)
Y = np.array([[0, -1j], [1j, 0]], dtype=complex)
Z = np.diag([1.0, -1.0]).astype(complex)
P1 = np.diag([0.0, 1.0]).astype(complex)
P0 = np.diag([1.0, 0.0]).astype(complex)
PAULI = {"X": X, "Y": Y, "Z": Z}


def _rotation(pauli, theta):
    """exp(-i theta P / 2) for a Pauli (or Pauli tensor) P, which squares to the identity."""
    return math.cos(theta / 2) * np.eye(len(pauli), dtype=complex) - 1j * math.sin(theta / 2) * pauli


def _rotation_derivative(pauli, theta):
    return -0.5 * math.sin(theta / 2) * np.eye(len(pauli), dtype=complex) - 0.5j * math.cos(theta / 2) * pauli


def gate_factors(name, angles):
    """The gate as a product of factors (matrix, derivative) applied in order; a factor with a
    derivative of None has no angle. Rot(phi, theta, omega) = RZ(omega) RY(theta) RZ(phi)."""
    if name in ("RX", "RY", "RZ"):
        p = PAULI[name[1]]
        return [(_rotation(p, angles[0]), _rotation_derivative(p, angles[0]))]
    if name == "PhaseShift":
        e = np.exp(1j * angles[0])
        return [(np.diag([1.0, e]).astype(complex), np.diag([0.0, 1j * e]).astype(complex))]
    if name == "Rot":
        return [gate_factors("RZ", [angles[0]])[0], gate_factors("RY", [angles[1]])[0],
                gate_factors("RZ", [angles[2]])[0]]
    if name in ("CRX", "CRY", "CRZ"):
        p = PAULI[name[2]]
        return [(np.kron(P0, I2) + np.kron(P1, _rotation(p, angles[0])),
                 np.kron(P1, _rotation_derivative(p, angles[0])))]
    if name.startswith("Ising"):
        p = PAULI[name[5]]
        pp = np.kron(p, p)
        return [(_rotation(pp, angles[0]), _rotation_derivative(pp, angles[0]))]
    fixed = {"Hadamard": np.array([[1, 1], [1, -1]], dtype=complex) / math.sqrt(2),
             "CNOT": np.kron(P0, I2) + np.kron(P1, X), "CZ": np.diag([1.0, 1.0, 1.0, -1.0]).astype(complex)}
    return [(fixed[name], None)]


def _apply(state, matrix, wires, n):
    k = len(wires)
    t = np.tensordot(matrix.reshape([2] * (2 * k)), state.reshape([2] * n), axes=(list(range(k, 2 * k)), list(wires)))
    return np.moveaxis(t, list(range(k)), list(wires)).reshape(-1)


def _slots(ops):
    """Per op, per angle: ("w", index into weights) or ("c", constant)."""
    return [params for _, _, params in ops]


def state_and_derivatives(n, ops, weights):
    """psi(weights) and d psi / d weights[a] for every a (each weight is used by one angle)."""
    factors = []  # (matrix, derivative, wires, weight index or None)
    for name, wires, params in ops:
        angles = [weights[v] if kind == "w" else v for kind, v in params]
        for (m, d), (kind, v) in zip(gate_factors(name, angles), params or [("c", None)]):
            factors.append((m, d, wires, v if kind == "w" else None))
    psi0 = np.zeros(2 ** n, dtype=complex)
    psi0[0] = 1.0
    psi = psi0
    for m, _, wires, _ in factors:
        psi = _apply(psi, m, wires, n)
    derivatives = np.zeros((len(weights), 2 ** n), dtype=complex)
    for k, (_, d, _, a) in enumerate(factors):
        if a is None:
            continue
        phi = psi0
        for j, (m, dj, wires, _) in enumerate(factors):
            phi = _apply(phi, d if j == k else m, wires, n)
        derivatives[a] += phi
    return psi, derivatives


def fubini_study(n, ops, weights):
    """Re[<d_a psi|d_b psi> - <d_a psi|psi><psi|d_b psi>], over the entries of weights."""
    psi, d = state_and_derivatives(n, ops, weights)
    overlaps = d.conj() @ psi  # <d_a psi|psi>
    return np.real(d.conj() @ d.T - np.outer(overlaps, overlaps.conj()))


def classical_fisher(n, ops, weights):
    psi, d = state_and_derivatives(n, ops, weights)
    p = np.abs(psi) ** 2
    dp = 2 * np.real(psi.conj()[None, :] * d)  # dp[a, l]
    return (dp / p[None, :]) @ dp.T, float(p.min())


def tape_order(ops):
    """Per tape parameter (every gate angle, in gate order, constants included), the weight index it
    is, or None for a constant: argnum counts these positions ("trainable tape-parameter indices")."""
    return [v if kind == "w" else None for params in _slots(ops) for kind, v in params]


def causally_related(ops):
    """Pairs of weight indices whose gates lie in one another's past light cone (or in one Rot)."""
    ancestors, last = [], {}
    for i, (_, wires, _) in enumerate(ops):
        mine = set()
        for w in wires:
            if w in last:
                mine |= {last[w]} | ancestors[last[w]]
        ancestors.append(mine)
        for w in wires:
            last[w] = i
    weight_op = {v: i for i, params in enumerate(_slots(ops)) for kind, v in params if kind == "w"}
    related = set()
    for a, i in weight_op.items():
        for b, j in weight_op.items():
            if a != b and (i == j or i in ancestors[j] or j in ancestors[i]):
                related.add((a, b))
    return related


# -- examples -------------------------------------------------------------------------------------------
# (subject, n, ops, weights, argnum, aux, allow_nonunitary); ops: ((name, wires, params), ...)
AUX_VARIANTS = ("next wire", "named aux_wire", "device_wires", "device without wire count")


def _strategy(subject):
    from hypothesis import strategies as st

    return st.tuples(st.integers(1, 3), st.integers(1, 4), st.randoms(use_true_random=False)).map(
        lambda t: _example(subject, t[0], t[1], t[2]))


def _angle(rnd):
    return rnd.choice([rnd.uniform(-math.pi, math.pi), rnd.uniform(-math.pi, math.pi),
                       rnd.choice([0.0, math.pi / 2, math.pi, -math.pi / 4])])


def _example(subject, n, layers, rnd):
    ops, slots = [], 0
    for _ in range(layers):
        wires = list(range(n))
        rnd.shuffle(wires)
        while wires:
            two = len(wires) >= 2 and rnd.random() < 0.4
            pool = [g for g, (_, k) in PARAM_GATES.items() if k == (2 if two else 1)]
            name = rnd.choice(pool)
            count = PARAM_GATES[name][0]
            params = []
            for _ in range(count):
                if rnd.random() < 0.15:
                    params.append(("c", round(_angle(rnd), 6)))
                else:
                    params.append(("w", slots))
                    slots += 1
            ops.append((name, tuple(wires[:2] if two else wires[:1]), tuple(params)))
            wires = wires[2 if two else 1:]
        if n >= 2 and rnd.random() < 0.6:
            a, b = rnd.sample(range(n), 2)
            ops.append((rnd.choice(["CNOT", "CZ"]), (a, b), ()))
        elif rnd.random() < 0.3:
            ops.append(("Hadamard", (rnd.randrange(n),), ()))
    if slots == 0:
        ops.append(("RY", (0,), (("w", 0),)))
        slots = 1
    # weights[perm[s]] feeds the s-th trainable angle: the QNode argument is not in tape order
    perm = list(range(slots))
    rnd.shuffle(perm)
    ops = tuple((name, wires, tuple((k, perm[v]) if k == "w" else (k, v) for k, v in params))
                for name, wires, params in ops)
    weights = tuple(round(_angle(rnd), 6) for _ in range(slots))
    argnum = None
    if subject.startswith("metric_tensor") and rnd.random() < 0.35:
        trainable = [t for t, (kind, _) in enumerate(p for _, _, params in ops for p in params) if kind == "w"]
        argnum = tuple(sorted(rnd.sample(trainable, rnd.randint(1, slots))))
    aux = rnd.choice(AUX_VARIANTS) if subject == "metric_tensor" else None
    allow_nonunitary = rnd.random() < 0.5 if subject == "metric_tensor" else True
    return (subject, n, ops, weights, argnum, aux, allow_nonunitary)


# -- the expected matrix --------------------------------------------------------------------------------
def expected(example):
    """(matrix, tolerance, what it is); for the approximations also the mask of entries that may be
    either the full value or 0."""
    subject, n, ops, weights, argnum, _, _ = example
    if subject == "classical_fisher":
        return classical_fisher(n, ops, weights)[0], CFIM_ATOL, None
    g = fubini_study(n, ops, weights)
    size = len(weights)
    either = np.zeros((size, size), dtype=bool)
    if subject in ("metric_tensor/block-diag", "metric_tensor/no-aux-wire"):
        related = causally_related(ops)
        for a in range(size):
            for b in range(size):
                if a != b:
                    if (a, b) in related:
                        g[a, b] = 0.0
                    else:
                        either[a, b] = True
    elif subject == "metric_tensor/diag":
        g = np.diag(np.diag(g))
    if argnum is not None:
        order = tape_order(ops)
        kept = {order[t] for t in argnum}
        for a in range(size):
            if a not in kept:
                g[a, :], g[:, a] = 0.0, 0.0
                either[a, :], either[:, a] = False, False
    if subject == "quantum_fisher":
        return 4 * g, 4 * ATOL, either
    return g, ATOL, either


# -- the program (check and reproducer) -----------------------------------------------------------------
def _angle_text(kind, v):
    return f"weights[{v}]" if kind == "w" else repr(v)


def _call_text(subject, example, module):
    _, _, _, _, argnum, aux, allow_nonunitary = example
    if subject == "adjoint_metric_tensor":
        return "qml.adjoint_metric_tensor(circuit)"
    if subject == "quantum_fisher":
        return f"{module}.quantum_fisher(circuit)"
    if subject == "classical_fisher":
        return f"{module}.classical_fisher(circuit)"
    kw = []
    if argnum is not None:
        kw.append(f"argnum={list(argnum)!r}")
    if subject == "metric_tensor/block-diag":
        kw.append("approx='block-diag'")
    elif subject == "metric_tensor/diag":
        kw.append("approx='diag'")
    elif subject == "metric_tensor":
        kw.append("approx=None")
        if aux == "named aux_wire":
            kw.append("aux_wire='aux'")
        elif aux == "device_wires":
            kw.append("device_wires=dev.wires")
        if not allow_nonunitary:
            kw.append("allow_nonunitary=False")
    return f"qml.metric_tensor(circuit{''.join(', ' + k for k in kw)})"


def _device_text(subject, example):
    _, n, _, _, _, aux, _ = example
    if subject == "metric_tensor":
        if aux == "next wire":
            return f"qml.device('default.qubit', wires={n + 1})  # one wire more than the circuit's: the aux wire"
        if aux == "named aux_wire":
            return f"qml.device('default.qubit', wires={list(range(n)) + ['aux']!r})"
        if aux == "device_wires":
            return f"qml.device('default.qubit', wires={list(range(n)) + [7]!r})  # wire 7 is free for the aux wire"
        return "qml.device('default.qubit')  # no wire count: any wire exists"
    return f"qml.device('default.qubit', wires={n})  # the circuit's wires only"


DESCRIPTIONS = {
    "metric_tensor": "the full Fubini-Study metric Re[<d_i psi|d_j psi> - <d_i psi|psi><psi|d_j psi>]",
    "metric_tensor/block-diag": "its block-diagonal approximation: the full metric's entry for two parameters of one "
                                "group of commuting gates, 0 for two gates in each other's light cone",
    "metric_tensor/diag": "its diagonal approximation: the full metric's diagonal, 0 elsewhere",
    "metric_tensor/no-aux-wire": "with no auxiliary wire on the device the block-diagonal approximation (as documented): "
                                 "0 for two gates in each other's light cone, the full metric's entry otherwise",
    "adjoint_metric_tensor": "the full Fubini-Study metric Re[<d_i psi|d_j psi> - <d_i psi|psi><psi|d_j psi>]",
    "quantum_fisher": "4 Re[<d_i psi|d_j psi> - <d_i psi|psi><psi|d_j psi>]",
    "classical_fisher": "sum_l (1/p_l) dp_l/dtheta_i dp_l/dtheta_j of the computational-basis probabilities",
}


def _fisher_module():
    import pennylane as qml

    if hasattr(getattr(qml, "gradients", None), "quantum_fisher"):
        return "qml.gradients"
    return "qml.qinfo"


def program(example):
    subject, _, ops, weights, argnum, _, _ = example
    module = _fisher_module() if subject in ("quantum_fisher", "classical_fisher") else "qml"
    matrix, tol, either = expected(example)
    body = [f"    qml.{name}({', '.join(_angle_text(k, v) for k, v in params)}"
            f"{', ' if params else ''}wires={list(wires)!r})" for name, wires, params in ops]
    lines = ["import warnings", "import numpy as np", "import pennylane as qml", "from pennylane import numpy as pnp", "",
             "warnings.filterwarnings('ignore')", f"dev = {_device_text(subject, example)}", "",
             "@qml.qnode(dev, interface='autograd')", "def circuit(weights):", *body,
             "    return qml.expval(qml.PauliZ(0))", "",
             f"weights = pnp.array({list(weights)!r}, requires_grad=True)",
             f"result = np.asarray({_call_text(subject, example, module)}(weights), dtype=float)",
             f"# expected: {DESCRIPTIONS[subject]},",
             "# w.r.t. the entries of weights; computed with numpy from the analytic derivatives of the statevector"
             + ("; argnum counts tape parameters (every gate angle in gate order), the other rows and columns are 0" if argnum else ""),
             f"expected = np.array({np.round(matrix, 12).tolist()!r})"]
    if either is not None and either.any():
        lines += ["# entries the documentation lets be either the full value or 0 (independent gates, grouping not fixed)",
                  f"either = np.array({either.tolist()!r})"]
    else:
        lines.append(f"either = np.zeros({matrix.shape!r}, dtype=bool)")
    lines += [
        f"tol = {tol!r}",
        "assert result.shape == expected.shape, f'shape {result.shape}, expected {expected.shape}'",
        "assert np.allclose(result, result.T, atol=tol, rtol=0), f'not symmetric:\\n{result}'",
        "assert np.linalg.eigvalsh((result + result.T) / 2).min() >= -tol, f'not positive semidefinite:\\n{result}'",
        "wrong = (np.abs(result - expected) > tol) & ~(either & (np.abs(result) <= tol))",
        f"assert not wrong.any(), (f'{subject}: entries {{np.argwhere(wrong).tolist()}} are wrong:\\n'",
        "                          f'{np.round(result, 8)}\\nexpected\\n{np.round(expected, 8)}')",
    ]
    return "\n".join(lines) + "\n"


def _check(subject, example):
    if subject == "classical_fisher":
        from hypothesis import assume

        assume(classical_fisher(example[1], example[2], example[3])[1] > MIN_PROBABILITY)
    exec(compile(program(example), "<geometry program>", "exec"), {"__name__": "__main__"})  # noqa: S102 (the reproducer's own text)


def _reproduce(subject, example):
    return program(example)


def _describe(subject, example):
    _, n, ops, weights, argnum, aux, allow_nonunitary = example
    gates = "; ".join(f"{name}({', '.join(_angle_text(k, v) for k, v in params)}) on {list(wires)}"
                      for name, wires, params in ops)
    extra = (f", argnum={list(argnum)}" if argnum else "") + (f", aux wire: {aux}" if aux else "") + (
        ", allow_nonunitary=False" if not allow_nonunitary else "")
    return f"{subject} of a {n}-qubit circuit [{gates}] at weights={list(weights)}{extra}"


# -- subjects, from the live release ---------------------------------------------------------------------
def _metric_subjects():
    import pennylane as qml

    found = []
    if hasattr(qml, "metric_tensor"):
        found += [s for s in METRIC_SUBJECTS if s.startswith("metric_tensor")]
    if hasattr(qml, "adjoint_metric_tensor"):
        found.append("adjoint_metric_tensor")
    if hasattr(getattr(qml, "gradients", None), "quantum_fisher") or hasattr(getattr(qml, "qinfo", None),
                                                                             "quantum_fisher"):
        found.append("quantum_fisher")
    if not found:
        raise AttributeError("pennylane has no metric_tensor")
    return found


def _fisher_subjects():
    import pennylane as qml

    if hasattr(getattr(qml, "gradients", None), "classical_fisher") or hasattr(getattr(qml, "qinfo", None),
                                                                               "classical_fisher"):
        return ["classical_fisher"]
    raise AttributeError("pennylane has no classical_fisher")


def _api(subject):
    if subject in ("quantum_fisher", "classical_fisher"):
        return _fisher_module().replace("qml", "pennylane") + "." + subject
    return "pennylane." + subject.split("/")[0]


FAMILY = "quantum geometry"
DOC = ("documentation: pennylane.metric_tensor (definition, approx, argnum, aux_wire / device_wires and the "
       "block-diagonal fallback without an auxiliary wire), pennylane.adjoint_metric_tensor, "
       "pennylane.gradients.quantum_fisher (4 x metric tensor), pennylane.gradients.classical_fisher "
       "(eq. (15) of arXiv:2103.15191); Stokes et al., Quantum Natural Gradient (arXiv:1909.02108)")

CONTRACTS = [
    Contract("pennylane.geometry.metric-tensor-is-fubini-study", FAMILY,
             "qml.metric_tensor (approx None with an auxiliary wire, 'block-diag', 'diag', and without an auxiliary "
             "wire: the documented block-diagonal fallback), qml.adjoint_metric_tensor and quantum_fisher (x4) "
             "return the Fubini-Study metric Re[<d_i psi|d_j psi> - <d_i psi|psi><psi|d_j psi>] of the circuit's "
             "state w.r.t. the QNode argument (approximations: 0 between gates in one another's light cone, the "
             "diagonal only), with argnum selecting tape parameters; a symmetric positive semidefinite matrix",
             DOC, _metric_subjects, _strategy, _check, _reproduce, _api, describe=_describe),
    Contract("pennylane.geometry.classical-fisher-of-basis-probabilities", FAMILY,
             "classical_fisher returns sum_l (1/p_l) dp_l/dtheta_i dp_l/dtheta_j of the computational-basis "
             "probabilities of the QNode's state, a (len(params), len(params)) symmetric positive semidefinite matrix",
             DOC, _fisher_subjects, _strategy, _check, _reproduce, _api, describe=_describe),
]
