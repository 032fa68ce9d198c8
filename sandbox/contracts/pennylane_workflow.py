"""Workflow inspection, PennyLane: the query APIs (qml.specs, qml.draw, qml.matrix,
qml.workflow.construct_tape / construct_batch / get_transform_program / get_compile_pipeline /
get_best_diff_method, qml.tape.make_qscript, qml.snapshots) are read-only views of a QNode.

Law `pennylane.workflow.queries-are-pure`, stated once for every query API (and every
documented level / expansion_strategy variant) the live release offers, over QNodes built from
drawn small circuits on default.qubit, decorated with zero to two of the circuit-optimisation
transforms the release has:

  (a) the query answers the same when called a second and a third time, and the answer it
      gave first is not changed afterwards;
  (b) querying leaves the QNode as it was: the QNode's executed result and its transform
      program are the same after the queries as before;
  (c) the answer agrees with execution where the documentation makes them comparable:
      - qml.matrix(qnode) is the unitary of the circuit: its first column is the state the
        circuit prepares from |0...0>, so the measurements computed from it with numpy equal
        the executed results;
      - construct_batch(level=L) gives tapes and a post-processing function: executing the
        tapes (qml.execute) and post-processing gives the QNode's result; construct_tape
        (documented as the tape of the stage, without post-processing) is the one tape
        construct_batch gives at the same level; the transform program of get_transform_program /
        get_compile_pipeline applied to the circuit's tape, executed and post-processed,
        gives the QNode's result; the tape make_qscript records executes to it too;
      - qml.specs(level=L) reports, per tape, as many gates as the tapes construct_batch
        gives at the same level have operations;
      - qml.snapshots(qnode) reports the QNode's result as its "execution_results";
  (d) a query runs the QNode's transform program no more often than executing the QNode does:
      a view that ran a user's transform twice would repeat whatever that transform does
      (QNodes carry a do-nothing user transform that counts its runs).

Every transform in the pool is documented to leave the circuit's results unchanged
(optimisations, decompositions, splitting measurements). diagonalize_measurements is left
out: it documentedly moves basis rotations into the circuit, so the circuit's unitary
(qml.matrix) is no longer the one the original measurements are read from. transpile is left
out for the same reason (it permutes wires). Exact equality is used for (a) and (b) (the same
deterministic call twice), a tolerance for (c) (different numerical routes).

Every check runs the same program text its reproducer prints.
"""

import inspect
from typing import NamedTuple

from contract_runtime import Contract, angles

ATOL = 1e-7
LEVELS = ("top", "user", "gradient", "device")

# PennyLane gate -> (number of parameters, number of wires). Names that exist since 0.33.
GATES = {
    "Hadamard": (0, 1), "PauliX": (0, 1), "PauliY": (0, 1), "PauliZ": (0, 1), "S": (0, 1), "T": (0, 1),
    "SX": (0, 1), "adjoint(S)": (0, 1), "adjoint(T)": (0, 1), "RX": (1, 1), "RY": (1, 1), "RZ": (1, 1),
    "PhaseShift": (1, 1), "Rot": (3, 1), "CNOT": (0, 2), "CZ": (0, 2), "SWAP": (0, 2), "CRX": (1, 2),
    "CRZ": (1, 2), "IsingXX": (1, 2), "Toffoli": (0, 3),
}

# A gate's inverse (parameters negated) where it is a gate of this list.
INVERSES = {"Hadamard": "Hadamard", "PauliX": "PauliX", "PauliY": "PauliY", "PauliZ": "PauliZ",
            "S": "adjoint(S)", "adjoint(S)": "S", "T": "adjoint(T)", "adjoint(T)": "T", "RX": "RX", "RY": "RY",
            "RZ": "RZ", "PhaseShift": "PhaseShift", "CNOT": "CNOT", "CZ": "CZ", "SWAP": "SWAP", "CRX": "CRX",
            "CRZ": "CRZ", "IsingXX": "IsingXX", "Toffoli": "Toffoli"}

# Transforms documented to preserve the circuit's results: name -> decorator text.
TRANSFORMS = {
    "cancel_inverses": "@qml.transforms.cancel_inverses",
    "merge_rotations": "@qml.transforms.merge_rotations",
    "commute_controlled": "@qml.transforms.commute_controlled",
    "single_qubit_fusion": "@qml.transforms.single_qubit_fusion",
    "undo_swaps": "@qml.transforms.undo_swaps",
    "compile": "@qml.compile",
    "defer_measurements": "@qml.transforms.defer_measurements",
    "split_non_commuting": "@qml.transforms.split_non_commuting",
    "split_to_single_terms": "@qml.transforms.split_to_single_terms",
    "remove_barrier": "@qml.transforms.remove_barrier",
    "combine_global_phases": "@qml.transforms.combine_global_phases",
    "unitary_to_rot": "@qml.transforms.unitary_to_rot",
    "broadcast_expand": "@qml.transforms.broadcast_expand",
    "decompose": "@partial(qml.transforms.decompose, gate_set={'RX', 'RY', 'RZ', 'CNOT', 'GlobalPhase'})",
}

# A user transform that changes nothing and counts its runs (the QNode's outermost transform):
# what clause (d) counts the transform program's runs by. Documented API (qml.transform); a
# user's own transform may have effects of its own (logging, caching, counting), so how often a
# query runs it is observable.
COUNTED = ("from typing import Callable, Sequence\n\n\n"
           "@qml.transform  # annotated as releases before 0.36 require of a transform\n"
           "def counted(tape: qml.tape.QuantumTape) -> (Sequence[qml.tape.QuantumTape], Callable):\n"
           "    counted.calls += 1\n"
           "    return (tape,), lambda results: results[0]\n\n\n"
           "counted.calls = 0\n\n\n")

MEASUREMENTS = ("expval_Z", "expval_X", "expval_Y", "var_Z", "var_X", "probs", "expval_ZZ")


class Gate(NamedTuple):
    name: str
    params: tuple   # floats (the QNode receives them as its argument x)
    wires: tuple


class Example(NamedTuple):
    wires: int
    gates: tuple
    measurements: tuple   # (kind, wires)
    transforms: tuple     # names, outermost first


# ==========================================================================================
# Subjects: every query API, and every documented level variant, this release offers.

def _transforms_available():
    import pennylane as qml

    found = []
    for name in TRANSFORMS:
        if name == "compile":
            if hasattr(qml, "compile"):
                found.append(name)
        elif hasattr(qml.transforms, name):
            found.append(name)
    return found


def _argument_variants(function, name):
    """Variants of a documented keyword: 'level' or 'expansion_strategy' where the
    signature (or, for functions taking **kwargs, the docstring) documents it."""
    try:
        parameters = inspect.signature(function).parameters
    except (TypeError, ValueError):
        return []
    doc = function.__doc__ or ""
    takes_kwargs = any(p.kind == p.VAR_KEYWORD for p in parameters.values())
    for keyword, values in (("level", LEVELS), ("expansion_strategy", ("gradient", "device"))):
        if keyword in parameters or (takes_kwargs and f"{keyword} (" in doc):
            return [f"{name}({keyword}={value!r})" for value in values]
    return []


def _candidate_subjects():
    import pennylane as qml

    subjects = []
    for name in ("specs", "draw"):
        if hasattr(qml, name):
            subjects += [name] + _argument_variants(getattr(qml, name), name)
    if hasattr(qml, "matrix"):
        subjects.append("matrix")
    workflow = getattr(qml, "workflow", None)
    for name in ("construct_tape", "construct_batch", "get_transform_program", "get_compile_pipeline"):
        if workflow is not None and hasattr(workflow, name):
            subjects += [name] + _argument_variants(getattr(workflow, name), name)
    if workflow is not None and hasattr(workflow, "get_best_diff_method"):
        subjects.append("get_best_diff_method")
    if hasattr(qml, "tape") and hasattr(qml.tape, "make_qscript"):
        subjects.append("make_qscript")
    if hasattr(qml, "snapshots"):
        subjects.append("snapshots")
    return subjects


PROBE = Example(2, (Gate("Hadamard", (), (0,)), Gate("CNOT", (), (0, 1)), Gate("RX", (0.3,), (1,))),
                (("expval_Z", (1,)),), ("cancel_inverses",))


def _subjects():
    """The query variants that run on this release (a variant the release does not accept is
    not a subject)."""
    found = []
    for subject in _candidate_subjects():
        try:
            parts = _parts(subject, PROBE)
            namespace = _run(parts["setup"])
            _run(parts["first"], namespace)
        except Exception:  # noqa: BLE001, S112 - the release lacks this variant
            continue
        found.append(subject)
    return found


def _split(subject):
    """'specs(level='top')' -> ('specs', "level='top'")."""
    if "(" in subject:
        name, rest = subject.split("(", 1)
        return name, rest[:-1]
    return subject, ""


API_MODULE = {"specs": "pennylane.specs", "draw": "pennylane.draw", "matrix": "pennylane.matrix",
              "snapshots": "pennylane.snapshots", "make_qscript": "pennylane.tape.make_qscript"}


def _api(subject):
    name, _ = _split(subject)
    return API_MODULE.get(name, f"pennylane.workflow.{name}")


# ==========================================================================================
# Inputs.

def _strategy(subject):
    from hypothesis import strategies as st

    available = _transforms_available()

    def for_size(n):
        usable = sorted(g for g, (_, arity) in GATES.items() if arity <= n)

        def gate(name):
            k, arity = GATES[name]
            return st.builds(Gate, st.just(name), st.tuples(*[angles() for _ in range(k)]),
                             st.permutations(list(range(n))).map(lambda p: tuple(p[:arity])))

        def measurement(kind):
            arity = 2 if kind == "expval_ZZ" else 1
            if kind == "expval_ZZ" and n < 2:
                return st.just(("expval_Z", (0,)))
            if kind == "probs":
                return st.integers(1, n).flatmap(lambda k: st.permutations(list(range(n))).map(
                    lambda p: (kind, tuple(p[:k]))))
            return st.permutations(list(range(n))).map(lambda p: (kind, tuple(p[:arity])))

        def block(first):
            """A gate alone, or followed by its inverse or by a gate of its kind on the same
            wires: what the optimisation transforms act on."""
            partner = INVERSES.get(first.name)
            options = [st.just((first,))]
            if partner is not None:
                options.append(st.just((first, Gate(partner, tuple(-p for p in first.params), first.wires))))
            if first.params:
                options.append(st.tuples(*[angles() for _ in first.params]).map(
                    lambda ps: (first, Gate(first.name, ps, first.wires))))
            return st.one_of(*options)

        gates = st.lists(st.sampled_from(usable).flatmap(gate).flatmap(block), max_size=5).map(
            lambda blocks: tuple(g for b in blocks for g in b)[:8])
        return st.builds(
            Example, st.just(n), gates,
            st.lists(st.sampled_from(MEASUREMENTS).flatmap(measurement), min_size=1, max_size=2).map(tuple),
            st.lists(st.sampled_from(available), max_size=2).map(tuple) if available else st.just(()))
    return st.integers(1, 3).flatmap(for_size)


# ==========================================================================================
# Program text: the check runs it, the reproducer prints it.

def _parameter_texts(example):
    texts, k = [], 0
    for g in example.gates:
        texts.append([f"x[{k + i}]" for i in range(len(g.params))])
        k += len(g.params)
    return texts


def _gate_line(gate, params):
    wires = list(gate.wires)
    if gate.name.startswith("adjoint("):
        return f"qml.adjoint(qml.{gate.name[8:-1]}(wires={wires}))"
    args = "".join(f"{p}, " for p in params)
    return f"qml.{gate.name}({args}wires={wires})"


def _measurement_text(kind, wires):
    if kind == "probs":
        return f"qml.probs(wires={list(wires)})"
    if kind == "expval_ZZ":
        return f"qml.expval(qml.PauliZ({wires[0]}) @ qml.PauliZ({wires[1]}))"
    function, pauli = kind.split("_")
    return f"qml.{function}(qml.Pauli{pauli}({wires[0]}))"


def _query_text(subject):
    name, argument = _split(subject)
    extra = f", {argument}" if argument else ""
    if name in ("specs", "draw", "matrix", "snapshots"):
        return f"qml.{name}(circuit{extra})(x)"
    if name == "make_qscript":
        return "qml.tape.make_qscript(circuit.func)(x)"
    return f"qml.workflow.{name}(circuit{extra})(x)" if name != "get_transform_program" else (
        f"qml.workflow.get_transform_program(circuit{extra})")


def _setup(example):
    parameters = [p for g in example.gates for p in g.params]
    body = [_gate_line(g, ps) for g, ps in zip(example.gates, _parameter_texts(example))]
    returns = ", ".join(_measurement_text(k, w) for k, w in example.measurements)
    decorators = "@counted\n" + "".join(TRANSFORMS[t] + "\n" for t in example.transforms)
    return ("from functools import partial\n\nimport numpy as np\nimport pennylane as qml\n\n"
            f"dev = qml.device('default.qubit', wires={list(range(example.wires))})\n\n\n"
            + COUNTED +
            f"{decorators}@qml.qnode(dev)\n"
            "def circuit(x):\n" + "".join(f"    {line}\n" for line in body) + f"    return {returns}\n\n\n"
            f"x = np.array({[float(p) for p in parameters]!r})\n"
            "\n\ndef flat(result):\n"
            "    if isinstance(result, dict):\n"
            "        return flat([result[k] for k in sorted(result)])\n"
            "    if isinstance(result, (tuple, list)):\n"
            "        return np.concatenate([flat(r) for r in result]) if len(result) else np.zeros(0)\n"
            "    return np.ravel(np.asarray(result, dtype=complex))\n"
            "\n\ndef canon(answer):\n"
            "    \"\"\"The answer as plain data, to compare answers (tapes by their operations and\n"
            "    measurements; functions, which cannot be compared, by their kind).\"\"\"\n"
            "    if isinstance(answer, qml.tape.QuantumScript):\n"
            "        return ('tape', [(op.name, tuple(op.wires), [np.asarray(p).tolist() for p in op.data])\n"
            "                         for op in answer.operations], [repr(m) for m in answer.measurements],\n"
            "                repr(answer.shots))\n"
            "    if isinstance(answer, (tuple, list)):\n"
            "        return (type(answer).__name__, [canon(a) for a in answer])\n"
            "    if isinstance(answer, dict):\n"
            "        return ('dict', [(repr(k), canon(v)) for k, v in answer.items()])\n"
            "    if isinstance(answer, np.ndarray) or type(answer).__module__.startswith('numpy'):\n"
            "        return ('array', np.asarray(answer).shape, np.asarray(answer).tolist())\n"
            "    if type(answer).__name__ in ('function', 'partial', 'method'):\n"
            "        return 'function'\n"
            "    return (type(answer).__name__, repr(answer))\n"
            "\n\ndef program_of(node):\n"
            "    return repr(getattr(node, 'compile_pipeline', None) or node.transform_program)\n"
            "\n\nbefore = circuit(x)\n"
            "program_before = program_of(circuit)\n"
            "runs_per_execution = counted.calls  # how often executing the QNode runs its transform program\n")


def _first(subject):
    return (f"\n# the query, called three times\n"
            "counted.calls = 0\n"
            f"first = {_query_text(subject)}\n"
            "runs_per_query = counted.calls\n"
            "first_canon = canon(first)\n")


def _rest(subject, example):
    return (f"second = canon({_query_text(subject)})\n"
            f"third = canon({_query_text(subject)})\n"
            "after = circuit(x)\n"
            "program_after = program_of(circuit)\n\n"
            "# (a) the same answer every time, and the first answer unchanged by the later calls\n"
            "assert second == first_canon, ('a second call answers differently', first_canon, second)\n"
            "assert third == first_canon, ('a third call answers differently', first_canon, third)\n"
            "assert canon(first) == first_canon, ('the first answer changed after later calls', first_canon, canon(first))\n"
            "# (b) the QNode is unchanged: same result, same transform program\n"
            "assert flat(after).shape == flat(before).shape and np.array_equal(flat(after), flat(before)), "
            "('the QNode result changed after the query', before, after)\n"
            "assert program_after == program_before, ('the transform program changed', program_before, program_after)\n"
            "# (d) the query runs the QNode's transform program no more often than executing it does\n"
            "assert runs_per_query <= runs_per_execution, ('the query ran the transform program more often than an '\n"
            "                                              'execution', runs_per_query, runs_per_execution)\n"
            + _agreement(subject, example))


def _expected_from_state_lines(example):
    """numpy: the measurements read from `psi` (first wire most significant)."""
    n = example.wires
    lines = [f"psi = np.asarray(unitary)[:, 0].reshape({(2,) * n})\n",
             "paulis = {'X': np.array([[0, 1], [1, 0]]), 'Y': np.array([[0, -1j], [1j, 0]]), 'Z': np.diag([1, -1])}\n",
             ("def on(matrix, wire, state):\n"
              "    return np.moveaxis(np.tensordot(matrix, state, axes=([1], [wire])), 0, wire)\n"),
             "expected = []\n"]
    for kind, wires in example.measurements:
        if kind == "probs":
            keep = list(wires)
            rest = [w for w in range(n) if w not in keep]
            lines.append(f"expected.append(np.transpose(np.abs(psi) ** 2, {keep + rest!r})"
                         f".reshape({2 ** len(keep)}, -1).sum(axis=1))\n")
        elif kind == "expval_ZZ":
            lines.append(f"expected.append(np.vdot(psi, on(paulis['Z'], {wires[0]}, on(paulis['Z'], {wires[1]}, psi))).real)\n")
        else:
            function, pauli = kind.split("_")
            value = f"np.vdot(psi, on(paulis[{pauli!r}], {wires[0]}, psi)).real"
            lines.append(f"expected.append({value})\n" if function == "expval" else f"expected.append(1 - {value} ** 2)\n")
    return "".join(lines)


def _agreement(subject, example):
    name, argument = _split(subject)
    compare = ("gap = np.max(np.abs(flat(executed) - flat(before))) if flat(executed).shape == flat(before).shape else np.inf\n"
               f"assert gap < {ATOL}, ('{{}} disagrees with executing the QNode'.format({name!r}), executed, before)\n")
    if name == "matrix":
        return ("\n# (c) the matrix's first column is the state the circuit prepares: its measurements are\n"
                "# the executed results. The QNode's transforms make one tape of this circuit: it has one\n"
                "# matrix (a QNode returning several results may answer one copy per result)\n"
                "for unitary in (first if isinstance(first, (tuple, list)) else [first]):\n"
                f"    assert np.shape(unitary) == {(2 ** example.wires,) * 2}, "
                "('qml.matrix does not answer a matrix of the circuit', first)\n"
                + "".join("    " + line + "\n" for line in _expected_from_state_lines(example).splitlines())
                + "    executed = expected\n"
                + "".join("    " + line + "\n" for line in compare.splitlines()))
    if name == "construct_batch":
        return ("\n# (c) executing the tapes and post-processing gives the QNode's result\n"
                "tapes, postprocess = first\n"
                "executed = postprocess(qml.execute(tapes, dev))\n" + compare)
    if name == "construct_tape":
        # construct_tape documents the tape of the stage, without the post-processing the
        # transforms up to that stage need: it is the one tape construct_batch gives there
        extra = f", {argument}" if argument else ""
        return ("\n# (c) the tape is the one tape construct_batch gives at the same level (construct_tape\n"
                "# documents the tape without post-processing; both default to level 'user')\n"
                f"batch, _ = qml.workflow.construct_batch(circuit{extra})(x)\n"
                "assert len(batch) == 1 and canon(batch[0]) == first_canon, "
                "('construct_tape differs from the tape of construct_batch', first_canon, canon(batch))\n")
    if name in ("get_transform_program", "get_compile_pipeline"):
        return ("\n# (c) the program applied to the circuit's tape, executed and post-processed, gives the\n"
                "# QNode's result\n"
                "tapes, postprocess = first((qml.tape.make_qscript(circuit.func)(x),))\n"
                "executed = postprocess(qml.execute(tapes, dev))[0]\n" + compare)
    if name == "make_qscript":
        return ("\n# (c) executing the recorded tape gives the QNode's result (the tape is the circuit before\n"
                "# the QNode's transforms, which are documented to leave its results unchanged)\n"
                "executed = qml.execute([first], dev)[0]\n" + compare)
    if name == "snapshots":
        return ("\n# (c) the snapshots report the QNode's result\n"
                "executed = first['execution_results']\n" + compare)
    if name == "specs" and argument.startswith("level=") and _has("construct_batch"):
        return ("\n# (c) per tape, specs counts as many gates as the tape at the same level has operations\n"
                f"tapes, _ = qml.workflow.construct_batch(circuit, {argument})(x)\n"
                "found = first if isinstance(first, list) else [first]\n"
                "def gates(spec):\n"
                "    resources = spec['resources'] if isinstance(spec, dict) else spec.resources\n"
                "    resources = resources if isinstance(resources, list) else [resources]\n"
                "    return [r.num_gates for r in resources]\n"
                "reported = [g for spec in found for g in gates(spec)]\n"
                "counted = [len(tape.operations) for tape in tapes]\n"
                "assert reported == counted, ('specs gate numbers differ from the operations of the tapes', reported, counted)\n")
    return ""


def _has(name):
    import pennylane as qml

    return hasattr(getattr(qml, "workflow", None), name)


def _parts(subject, example):
    return {"setup": _setup(example), "first": _first(subject), "rest": _rest(subject, example)}


def _run(source, namespace=None):
    namespace = namespace if namespace is not None else {"__name__": "__main__"}
    exec(compile(source, "<program>", "exec"), namespace)  # noqa: S102 - the reproducer's own text
    return namespace


# ==========================================================================================
# Check and reproducer.

def _check(subject, example):
    from hypothesis import assume

    parts = _parts(subject, example)
    try:
        namespace = _run(parts["setup"])
    except Exception:  # noqa: BLE001 - the QNode itself does not run: not this law's input
        assume(False)
        return
    try:
        _run(parts["first"], namespace)
    except Exception:  # noqa: BLE001 - a documented refusal (e.g. construct_tape of a split batch)
        assume(False)
        return
    if _split(subject)[0] == "matrix":
        # a QNode its transforms split into several tapes (split_non_commuting of
        # non-commuting measurements) has no single matrix: the documentation does not say
        # what qml.matrix answers then. One tape: one circuit, one matrix (or one copy of it
        # per result of the QNode: the answer may follow the QNode's output structure).
        assume(_number_of_tapes(namespace) == 1)
    try:
        _run(parts["rest"], namespace)
    except AssertionError as exc:
        raise AssertionError(f"{_query_text(subject)}: {exc} for {_describe(subject, example)}") from None


def _number_of_tapes(namespace):
    """How many tapes the QNode's own transforms make of its circuit (None: unknown)."""
    qml, circuit, x = namespace["qml"], namespace["circuit"], namespace["x"]
    try:
        if hasattr(getattr(qml, "workflow", None), "construct_batch"):
            return len(qml.workflow.construct_batch(circuit, level="user")(x)[0])
        tape = qml.tape.make_qscript(circuit.func)(x)
        return len(circuit.transform_program((tape,))[0])
    except Exception:  # noqa: BLE001 - cannot tell: out of the law's domain
        return None


def _reproduce(subject, example):
    parts = _parts(subject, example)
    return parts["setup"] + parts["first"] + parts["rest"]


def _describe(subject, example):
    gates = "; ".join(f"{g.name}({', '.join(f'{p:.6g}' for p in g.params)}) on {list(g.wires)}" for g in example.gates)
    measured = ", ".join(_measurement_text(k, w) for k, w in example.measurements)
    transforms = " + ".join(example.transforms) or "no transform"
    return f"{subject} on {example.wires} wires [{gates or 'no gates'}] -> {measured}; {transforms}"


CONTRACTS = [
    Contract("pennylane.workflow.queries-are-pure", "workflow inspection",
             "inspecting a QNode (qml.specs, qml.draw, qml.matrix, qml.workflow.construct_tape / construct_batch / "
             "get_transform_program / get_compile_pipeline / get_best_diff_method, qml.tape.make_qscript, "
             "qml.snapshots, with each documented level) answers the same every time, leaves the QNode's result "
             "and transform program unchanged, and agrees with executing the QNode where the docs make them "
             "comparable",
             "documentation: qml.specs, qml.draw, qml.matrix (QNode input), qml.workflow.construct_batch "
             "('batch of tapes and post processing'), construct_tape, get_transform_program, qml.snapshots, "
             "qml.tape.make_qscript; qml.transforms (optimisation transforms preserve the circuit's results)",
             _subjects, _strategy, _check, _reproduce, _api, describe=_describe),
]
