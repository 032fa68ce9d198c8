"""Resource estimation, PennyLane: `qml.estimator` honours its `ResourceConfig` for every
resource operator class the live module exports, in every form the estimator supports.

Documented semantics (pennylane.estimator.ResourceConfig, ResourceConfig.set_decomp /
set_precision, pennylane.estimator.estimate, and the symbolic classes Adjoint / Controlled / Pow /
Prod / ChangeOpBasis):
  - `config.set_decomp(C, f)` "overrides the default resource decomposition" of C; with
    `decomp_type="adj" | "ctrl" | "pow"` it overrides the decomposition of the adjoint,
    controlled and powered C. A gate whose name is in `gate_set` is counted, anything else is
    decomposed. So with gate_set = the gates the custom decompositions emit, the counts are
    computed here by hand from those decompositions: C alone -> f's counts; Adjoint(C) -> the
    "adj" hook's; Controlled(C, n, z) -> the "ctrl" hook's (called with num_ctrl_wires=n,
    num_zero_ctrl=z); Pow(C, k) -> the "pow" hook's (called with pow_z=k); Prod([(C, n), M]) ->
    n x f + M ("the counts for each operation in the product"); ChangeOpBasis(C, M) -> f + M +
    the "adj" hook (uncompute defaults to the adjoint of compute, "the sum of the costs of each");
    a quantum function queueing M and n x C -> n x f + M. Custom decompositions allocate no
    work wires, so no allocated wires are reported.
  - `config.set_precision(C, p)` is used by every instance of C built without a precision
    ("None ... corresponds to using the precision stated in the ResourceConfig"): the custom
    decomposition of C is called with that precision.
  - estimating with `ResourceConfig()` (nothing changed) equals estimating with no config;
  - a config does not leak: after estimating with a custom config, estimating without one (or
    with a fresh ResourceConfig()) equals the default estimate made before.

Subjects are "<Class>:<form>": the resource operator classes `pennylane.estimator` exports that
can be built from a few integer/string sizes (symbolic wrappers excluded: they are the forms),
times the forms this release provides. The module exists from PennyLane 0.43 on; on older
releases there are no subjects.

The check runs the reproducer itself: the standalone program is the single statement of the law.
"""

import inspect

from contract_runtime import Contract

# Parameterless gates the custom decompositions emit and the gate set counts.
MARKERS = ["Hadamard", "S", "T", "X", "Y", "Z", "CNOT", "SWAP", "CZ"]
WRAPPERS = {"Adjoint", "Controlled", "Pow", "Prod", "ChangeOpBasis"}
FORMS = ["alone", "Adjoint", "Controlled", "Pow", "Prod", "ChangeOpBasis", "circuit"]
# Sizes for constructor arguments, by name (only classes built from these alone are subjects).
SIZES = {"num_wires": 3, "order": 1, "num_coeffs": 4, "dim": 2, "num_ctrl_wires": 2, "pauli_string": "XZ",
         "register_size": 3, "a_num_wires": 2, "b_num_wires": 2, "max_register_size": 3, "num_states": 3,
         "num_state_qubits": 2, "num_bitstrings": 4, "size_bitstring": 2, "first_register": 2,
         "second_register": 2, "value": 3, "rot_axis": "Z", "num_mps_matrices": 3, "max_bond_dim": 2}
PRECISIONS = [1e-2, 1e-3, 1e-5, 1e-7]


def _qre():
    import pennylane as qml

    return qml.estimator  # AttributeError on releases without the module: no subjects


def _arguments(cls):
    """Keyword arguments building cls from SIZES; None when it needs anything else."""
    try:
        parameters = list(inspect.signature(cls.__init__).parameters.values())[1:]
    except (TypeError, ValueError):
        return None
    kwargs = {}
    for p in parameters:
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) or p.name == "wires":
            continue
        required = p.default is inspect.Parameter.empty
        if p.name in SIZES and (required or p.default is None):
            kwargs[p.name] = SIZES[p.name]
        elif required:
            return None
    return kwargs


def _classes():
    """name -> constructor kwargs, for the exported resource operator classes that build."""
    from pennylane.queuing import AnnotatedQueue

    qre = _qre()
    found = {}
    for name in sorted(dir(qre)):
        cls = getattr(qre, name)
        if (not inspect.isclass(cls) or not issubclass(cls, qre.ResourceOperator) or inspect.isabstract(cls)
                or name in WRAPPERS or cls.__name__ != name):
            continue
        kwargs = _arguments(cls)
        if kwargs is None:
            continue
        try:
            with AnnotatedQueue():
                op = cls(**kwargs)
                op.resource_rep_from_op()
        except Exception:  # noqa: BLE001 - not buildable from sizes alone: not a subject
            continue
        found[name] = kwargs
    return found


def _subjects():
    qre = _qre()
    forms = [f for f in FORMS if f in ("alone", "circuit") or hasattr(qre, f)]
    return [f"{name}:{form}" for name in _classes() for form in forms]


def _configurable(name):
    """The precision key ResourceConfig lets one set for this class, or None."""
    qre = _qre()
    keys = qre.ResourceConfig().resource_op_precisions.get(getattr(qre, name))
    return next(iter(keys)) if keys else None


def _strategy(subject):
    from hypothesis import strategies as st

    name, _ = subject.split(":")
    markers = [m for m in MARKERS if m != name]
    counts = st.integers(min_value=1, max_value=4)
    precision = st.sampled_from([None] + PRECISIONS) if _configurable(name) else st.just(None)
    return st.fixed_dictionaries({
        "markers": st.permutations(markers).map(lambda p: tuple(p[:3])),
        "base": st.tuples(counts, counts),
        "other": st.tuples(counts, counts),
        "controls": st.integers(min_value=1, max_value=3).flatmap(
            lambda n: st.tuples(st.just(n), st.integers(min_value=0, max_value=n))),
        "pow_z": st.integers(min_value=2, max_value=4),
        "copies": st.integers(min_value=1, max_value=3),
        "precision": precision,
    })


def _expected(form, example):
    """Gate name -> count, computed by hand from the custom decompositions."""
    a_name, b_name, m_name = example["markers"]
    a, b = example["base"]
    c, d = example["other"]
    n_ctrl, n_zero = example["controls"]
    n = example["copies"]
    counts = {
        "alone": {a_name: a, b_name: b},
        "Adjoint": {a_name: c, b_name: d},
        "Controlled": {a_name: c * n_ctrl, b_name: d + n_zero},
        "Pow": {a_name: c * example["pow_z"], b_name: d},
        "Prod": {a_name: n * a, b_name: n * b, m_name: 1},
        "ChangeOpBasis": {a_name: a + c, b_name: b + d, m_name: 1},
        "circuit": {a_name: n * a, b_name: n * b, m_name: 1},
    }[form]
    return counts


def _reproduce(subject, example):
    name, form = subject.split(":")
    kwargs = _classes()[name]
    op = f"qre.{name}({', '.join(f'{k}={v!r}' for k, v in kwargs.items())})"
    a_name, b_name, m_name = example["markers"]
    a, b = example["base"]
    c, d = example["other"]
    n_ctrl, n_zero = example["controls"]
    pow_z, n, precision = example["pow_z"], example["copies"], example["precision"]
    key = _configurable(name)
    expected = _expected(form, example)

    workflow = {
        "alone": f"{op}",
        "Adjoint": f"qre.Adjoint({op})",
        "Controlled": f"qre.Controlled({op}, num_ctrl_wires={n_ctrl}, num_zero_ctrl={n_zero})",
        "Pow": f"qre.Pow({op}, {pow_z})",
        "Prod": f"qre.Prod([({op}, {n}), qre.{m_name}()])",
        "ChangeOpBasis": f"qre.ChangeOpBasis({op}, qre.{m_name}())",
    }
    if form == "circuit":
        run = ("def circuit():\n"
               f"    qre.{m_name}()\n"
               f"    for _ in range({n}):\n"
               f"        {op}\n\n\n"
               "def run(**kwargs):\n"
               "    return qre.estimate(circuit, **kwargs)()\n")
    else:
        run = ("def run(**kwargs):\n"
               f"    return qre.estimate({workflow[form]}, **kwargs)\n")
    key_argument = "" if key == "precision" else f", resource_key={key!r}"  # resource_key: 0.44+
    set_precision = (f"config.set_precision(qre.{name}, {precision!r}{key_argument})\n"
                     if precision is not None else "")
    precision_check = ""
    if precision is not None and form in ("alone", "Prod", "ChangeOpBasis", "circuit"):
        precision_check = (
            "# set_precision: every instance built without a precision uses the configured one\n"
            f"assert base_calls and all(call.get({key!r}) == {precision!r} for call in base_calls), (\n"
            f"    f'the custom decomposition of {name} was called with {{base_calls}}, "
            f"expected {key}={precision!r} from set_precision')\n")
    return (
        "import pennylane.estimator as qre\n"
        "from pennylane.estimator import GateCount, ResourceConfig, resource_rep\n\n"
        f"GATE_SET = {{{a_name!r}, {b_name!r}, {m_name!r}}}\n"
        "base_calls = []\n\n\n"
        f"def base_decomp(**params):  # custom decomposition of {name}: {a} x {a_name}, {b} x {b_name}\n"
        "    base_calls.append(params)\n"
        f"    return [GateCount(resource_rep(qre.{a_name}), {a}), GateCount(resource_rep(qre.{b_name}), {b})]\n\n\n"
        f"def adj_decomp(**params):  # custom decomposition of Adjoint({name}): {c} x {a_name}, {d} x {b_name}\n"
        f"    return [GateCount(resource_rep(qre.{a_name}), {c}), GateCount(resource_rep(qre.{b_name}), {d})]\n\n\n"
        "def ctrl_decomp(num_ctrl_wires, num_zero_ctrl, **params):  # of Controlled: by the control counts\n"
        f"    return [GateCount(resource_rep(qre.{a_name}), {c} * num_ctrl_wires),\n"
        f"            GateCount(resource_rep(qre.{b_name}), {d} + num_zero_ctrl)]\n\n\n"
        "def pow_decomp(pow_z, **params):  # of Pow: by the exponent\n"
        f"    return [GateCount(resource_rep(qre.{a_name}), {c} * pow_z), GateCount(resource_rep(qre.{b_name}), {d})]\n\n\n"
        + run + "\n\n"
        "def summary(res):\n"
        "    counts = {gate: count for gate, count in res.gate_counts.items() if count}\n"
        "    return counts, res.zeroed_wires, res.any_state_wires, res.algo_wires\n\n\n"
        "try:\n"
        "    default = summary(run())\n"
        "except Exception:  # no default decomposition on this release: the default clauses do not apply\n"
        "    default = None\n"
        "if default is not None:\n"
        "    unchanged = summary(run(config=ResourceConfig()))\n"
        "    assert unchanged == default, f'estimate with ResourceConfig() gives {unchanged}, without a config {default}'\n\n"
        "# the custom configuration, made after the default estimates above\n"
        "config = ResourceConfig()\n"
        f"config.set_decomp(qre.{name}, base_decomp)\n"
        f"config.set_decomp(qre.{name}, adj_decomp, decomp_type='adj')\n"
        f"config.set_decomp(qre.{name}, ctrl_decomp, decomp_type='ctrl')\n"
        f"config.set_decomp(qre.{name}, pow_decomp, decomp_type='pow')\n"
        + set_precision +
        "custom = run(gate_set=GATE_SET, config=config)\n"
        "counts = {gate: count for gate, count in custom.gate_counts.items() if count}\n"
        f"expected = {expected!r}\n"
        f"assert counts == expected, f'{form} {name} with custom decompositions: counts {{counts}}, expected {{expected}}'\n"
        "assert (custom.zeroed_wires, custom.any_state_wires) == (0, 0), (\n"
        "    f'custom decompositions allocate no work wires, yet {custom.zeroed_wires} zeroed + '\n"
        "    f'{custom.any_state_wires} any-state wires were reported')\n"
        + precision_check +
        "if default is not None:\n"
        "    after = summary(run())\n"
        "    assert after == default, f'the custom config leaked: estimate without a config gives {after} after it, {default} before'\n"
        "    fresh = summary(run(config=ResourceConfig()))\n"
        "    assert fresh == default, f'the custom config leaked into a fresh ResourceConfig(): {fresh}, default {default}'\n")


def _check(subject, example):
    exec(compile(_reproduce(subject, example), "<estimator-law>", "exec"), {"__name__": "__main__"})


def _describe(subject, example):
    name, form = subject.split(":")
    return (f"{form} {name}; gates {example['markers']}, base decomposition {example['base']}, "
            f"adj/ctrl/pow {example['other']}, controls {example['controls']}, pow {example['pow_z']}, "
            f"copies {example['copies']}, precision {example['precision']}")


CONTRACTS = [
    Contract("pennylane.estimator.configuration-is-honoured", "resource estimation",
             "qml.estimator.estimate honours ResourceConfig: a custom decomposition set for a resource operator class "
             "(and the 'adj' / 'ctrl' / 'pow' decompositions) gives the hand-computed counts wherever the class is "
             "estimated -- alone, as Adjoint / Controlled / Pow (through their hooks, with the documented arguments), "
             "inside Prod and ChangeOpBasis, and inside a quantum function -- allocating no work wires; "
             "set_precision reaches every instance built without a precision; ResourceConfig() gives the same "
             "estimate as no config; and a custom config does not leak into later estimates",
             "documentation: pennylane.estimator.ResourceConfig (set_decomp, set_precision), estimate (gate_set, "
             "config), Adjoint / Controlled / Pow / Prod / ChangeOpBasis (Resources sections), RX (precision None)",
             _subjects, _strategy, _check, _reproduce, lambda subject: "pennylane.estimator.estimate",
             describe=_describe),
]
