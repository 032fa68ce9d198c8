"""Workflow queries, PennyLane: a query on a QNode reports the circuit with the QNode's transform
program applied exactly once.

Law `pennylane.workflow.queries-apply-program-once`, stated for every query the documentation
describes as reporting on the circuit a QNode runs -- qml.specs (where it documents `level`),
qml.draw, qml.matrix (QNode input), qml.workflow.construct_batch / construct_tape /
get_transform_program / get_compile_pipeline (where the release has them) -- and for every
level the release documents (the default, "top", "user", "gradient", "device", and integer
levels 0..number of user transforms; "gradient"/"expansion_strategy" variants on old releases),
over QNodes on default.qubit built from drawn small circuits and decorated with a drawn program of
one to three transforms of one kind (the subject's):

  user-append  a user transform made with qml.transform that appends one RX(0.5) on wire 0 per
               application (not idempotent: applied twice, two gates are appended);
  user-double  a user transform that doubles the angle of every RX/RY/RZ (not idempotent:
               applied twice, the angles are multiplied by four);
  builtin      qml.transforms.cancel_inverses / merge_rotations;
  mixed        user and built-in transforms together (at least one of each).

The law: what the query reports is the circuit obtained by applying each transform of the
program once, in program order (the innermost decorator first), up to the level asked for:
  - construct_batch / construct_tape give that tape (operations, wires and parameters);
  - get_transform_program / get_compile_pipeline give a program that, applied to the circuit's
    un-transformed tape, makes that tape;
  - qml.specs counts the gates of that tape (total and per gate name);
  - qml.draw draws what qml.draw draws for an un-transformed QNode that applies that tape's
    operations;
  - qml.matrix(qnode) is the unitary of that tape's operations.
Every query is called twice (both answers must satisfy the law), and the QNode's executed result,
before and after the queries, is the one numpy computes from that tape's unitary.

Independent oracle: the expected tape is built by hand -- the circuit's operations written into a
QuantumScript without the QNode, then each transform's tape function applied to it once (the
user's own Python function for user transforms; the built-in transform called on the tape). The
query under test is never used to build the expected answer; the unitary and the executed result
are computed with numpy.

Levels "gradient", "device" and the defaults add only gradient/device transforms after the user
ones; for the gates drawn here (all native to default.qubit, backprop) those leave the
operations unchanged, so the expected tape there is the one with every user transform applied.

Every check runs the same program text its reproducer prints.
"""

import inspect
from typing import NamedTuple

from contract_runtime import Contract, angles

ATOL = 1e-8

# gate -> (number of parameters, number of wires)
GATES = {"Hadamard": (0, 1), "PauliX": (0, 1), "RX": (1, 1), "RY": (1, 1), "RZ": (1, 1), "CNOT": (0, 2)}
INVERTIBLE = {"Hadamard", "PauliX", "CNOT"}  # self-inverse: pairs cancel_inverses acts on

KINDS = {
    "user-append": ("append_gate",),
    "user-double": ("double_angle",),
    "builtin": ("cancel_inverses", "merge_rotations"),
    "mixed": ("append_gate", "double_angle", "cancel_inverses", "merge_rotations"),
}
USER = {"append_gate", "double_angle"}

QUERIES = ("specs", "draw", "matrix", "construct_batch", "construct_tape", "get_transform_program",
           "get_compile_pipeline")
LEVELS = ("top", "user", "gradient", "device")
DEFAULT = "<default>"  # the query called without a level argument

API = {"specs": "pennylane.specs", "draw": "pennylane.draw", "matrix": "pennylane.matrix"}


class Gate(NamedTuple):
    name: str
    params: tuple
    wires: tuple


class Example(NamedTuple):
    wires: int
    gates: tuple
    measurement: tuple      # ("expval", wire) or ("probs", None)
    transforms: tuple       # decorators, outermost first
    level: object           # DEFAULT, a level name, an int, or ("expansion_strategy", name)


# ==========================================================================================
# Subjects and the levels each query documents on this release.

def _function(query):
    import pennylane as qml

    if query in ("specs", "draw", "matrix"):
        return getattr(qml, query)
    return getattr(qml.workflow, query)


def _documents(function, keyword):
    """The signature (or, for a function taking **kwargs, the docstring) documents `keyword`."""
    try:
        parameters = inspect.signature(function).parameters
    except (TypeError, ValueError):
        return False
    if keyword in parameters:
        return True
    takes_kwargs = any(p.kind == p.VAR_KEYWORD for p in parameters.values())
    return takes_kwargs and f"{keyword} (" in (function.__doc__ or "")


def _levels(query):
    """The level variants the release documents for `query` (integers stand for 'the first k
    transforms'; DEFAULT for no argument)."""
    function = _function(query)
    if query == "matrix":
        return [DEFAULT]
    if _documents(function, "level"):
        return [DEFAULT, *LEVELS, "int"]
    if query == "draw" and _documents(function, "expansion_strategy"):
        return [DEFAULT, ("expansion_strategy", "gradient"), ("expansion_strategy", "device")]
    return []


def _query_available(query):
    import pennylane as qml

    if query in ("specs", "draw", "matrix"):
        if not hasattr(qml, query):
            return False
        # qml.specs reports on the transformed circuit only where it documents `level` (before
        # that its docs say nothing about the QNode's transforms): out of the law's scope there
        return query != "specs" or _documents(qml.specs, "level")
    if not hasattr(getattr(qml, "workflow", None), query):
        return False
    return _documents(_function(query), "level")


def _subjects():
    import pennylane as qml

    if not hasattr(qml, "transform"):
        return []
    found = []
    for query in QUERIES:
        if not _query_available(query):
            continue
        for kind in KINDS:
            if all(_transform_available(t) for t in KINDS[kind] if t not in USER):
                found.append(f"{query}:{kind}")
    return found


def _transform_available(name):
    import pennylane as qml

    return hasattr(qml.transforms, name)


def _api(subject):
    query = subject.split(":")[0]
    return API.get(query, f"pennylane.workflow.{query}")


# ==========================================================================================
# Inputs.

def _strategy(subject):
    from hypothesis import strategies as st

    query, kind = subject.split(":")
    pool = KINDS[kind]
    levels = _levels(query)

    def transforms():
        drawn = st.lists(st.sampled_from(pool), min_size=2 if kind == "mixed" else 1, max_size=3).map(tuple)
        if kind == "mixed":
            drawn = drawn.filter(lambda ts: any(t in USER for t in ts) and any(t not in USER for t in ts))
        return drawn

    def for_size(n):
        usable = sorted(g for g, (_, arity) in GATES.items() if arity <= n)

        def gate(name):
            k, arity = GATES[name]
            return st.builds(Gate, st.just(name), st.tuples(*[angles() for _ in range(k)]),
                             st.permutations(list(range(n))).map(lambda p: tuple(p[:arity])))

        def block(first):
            """A gate alone, or followed by its inverse or a rotation of its kind on the same
            wires: what the built-in transforms act on."""
            options = [st.just((first,))]
            if first.name in INVERTIBLE:
                options.append(st.just((first, first)))
            if first.params:
                options.append(angles().map(lambda a: (first, Gate(first.name, (a,), first.wires))))
            return st.one_of(*options)

        gates = st.lists(st.sampled_from(usable).flatmap(gate).flatmap(block), max_size=4).map(
            lambda blocks: tuple(g for b in blocks for g in b)[:7])
        measurement = st.one_of(st.integers(0, n - 1).map(lambda w: ("expval", w)), st.just(("probs", None)))

        def with_level(ts):
            choices = [lv for lv in levels if lv != "int"]
            level = st.sampled_from(choices)
            if "int" in levels:
                level = st.one_of(level, st.integers(0, len(ts)))
            return st.tuples(st.just(ts), level)

        return st.builds(lambda g, m, tl: Example(n, g, m, tl[0], tl[1]), gates, measurement,
                         transforms().flatmap(with_level))

    return st.integers(1, 3).flatmap(for_size)


# ==========================================================================================
# Program text: the check runs it, the reproducer prints it.

HEADER = '''from typing import Callable, Sequence

import numpy as np
import pennylane as qml


# Two user transforms (qml.transform of a tape function). Neither is idempotent: applying one
# twice gives a different circuit than applying it once.
def append_gate_tape(tape: qml.tape.QuantumTape) -> (Sequence[qml.tape.QuantumTape], Callable):
    """Appends one RX(0.5) on wire 0."""
    ops = list(tape.operations) + [qml.RX(0.5, wires=0)]
    return [qml.tape.QuantumScript(ops, tape.measurements, shots=tape.shots)], lambda results: results[0]


def double_angle_tape(tape: qml.tape.QuantumTape) -> (Sequence[qml.tape.QuantumTape], Callable):
    """Doubles the angle of every RX, RY and RZ."""
    ops = [type(op)(2 * op.data[0], wires=op.wires) if op.name in ("RX", "RY", "RZ") else op
           for op in tape.operations]
    return [qml.tape.QuantumScript(ops, tape.measurements, shots=tape.shots)], lambda results: results[0]


append_gate = qml.transform(append_gate_tape)
double_angle = qml.transform(double_angle_tape)
cancel_inverses = qml.transforms.cancel_inverses
merge_rotations = qml.transforms.merge_rotations
'''

ORACLE_HELPERS = '''

def ops_of(tape):
    return [(op.name, list(op.wires), [complex(np.asarray(p)) for p in op.data]) for op in tape.operations]


def same_ops(found, wanted):
    return (len(found) == len(wanted)
            and all(f[0] == w[0] and f[1] == w[1] and len(f[2]) == len(w[2])
                    and np.allclose(f[2], w[2], atol=ATOL, rtol=0) for f, w in zip(found, wanted)))


def unitary(ops, n):
    """numpy: the unitary of the operations on wires 0..n-1 (wire 0 most significant)."""
    u = np.eye(2 ** n, dtype=complex).reshape((2,) * n + (2 ** n,))
    for op in ops:
        wires = [int(w) for w in op.wires]
        k = len(wires)
        g = np.asarray(op.matrix(), dtype=complex).reshape((2,) * (2 * k))
        u = np.tensordot(g, u, axes=(list(range(k, 2 * k)), wires))
        u = np.moveaxis(u, list(range(k)), wires)
    return u.reshape(2 ** n, 2 ** n)


def result_of(ops, n):
    """numpy: the circuit's measurement from the state its unitary prepares from |0...0>."""
    state = unitary(ops, n)[:, 0]
    probs = np.abs(state) ** 2
    if MEASURED[0] == "probs":
        return probs
    signs = np.array([1 - 2 * ((i >> (n - 1 - MEASURED[1])) & 1) for i in range(2 ** n)])
    return np.sum(signs * probs)
'''


def _gate_line(gate, k):
    params = "".join(f"x[{k + i}], " for i in range(len(gate.params)))
    return f"qml.{gate.name}({params}wires={list(gate.wires)})"


def _gate_lines(example):
    lines, k = [], 0
    for g in example.gates:
        lines.append(_gate_line(g, k))
        k += len(g.params)
    return lines


def _measurement_text(example):
    kind, wire = example.measurement
    if kind == "probs":
        return f"qml.probs(wires={list(range(example.wires))})"
    return f"qml.expval(qml.PauliZ({wire}))"


def _applied(example):
    """How many transforms of the program (in program order) the level applies."""
    level = example.level
    if isinstance(level, int) and not isinstance(level, bool):
        return min(level, len(example.transforms))
    if level in ("top",):
        return 0
    return len(example.transforms)


def _level_argument(example):
    level = example.level
    if level == DEFAULT:
        return ""
    if isinstance(level, tuple):
        return f", {level[0]}={level[1]!r}"
    return f", level={level!r}"


def _query_text(subject, example):
    query = subject.split(":")[0]
    arg = _level_argument(example)
    n = example.wires
    if query == "matrix":
        return f"qml.matrix(circuit, wire_order={list(range(n))})(x)"
    if query in ("specs", "draw"):
        return f"qml.{query}(circuit{arg})(x)"
    if query == "get_transform_program":
        return f"qml.workflow.get_transform_program(circuit{arg})"
    return f"qml.workflow.{query}(circuit{arg})(x)"


def _setup(example):
    parameters = [float(p) for g in example.gates for p in g.params]
    body = _gate_lines(example)
    decorators = "".join(f"@{t}\n" for t in example.transforms)
    program = list(reversed(example.transforms))
    n = example.wires
    ops_list = "[" + ", ".join(body) + "]"
    return (HEADER + f"\nATOL = {ATOL}\nMEASURED = {example.measurement!r}\n" + ORACLE_HELPERS
            + f"\n\ndev = qml.device('default.qubit', wires={list(range(n))})\n\n\n"
            f"{decorators}@qml.qnode(dev)\n"
            "def circuit(x):\n" + "".join(f"    {line}\n" for line in body)
            + f"    return {_measurement_text(example)}\n\n\n"
            f"x = np.array({parameters!r})\n\n"
            "# The oracle: the circuit's tape recorded by hand (no QNode), then each transform's tape\n"
            "# function applied ONCE, in program order (the innermost decorator first)\n"
            f"program = {program!r}\n"
            "tape_functions = {'append_gate': append_gate_tape, 'double_angle': double_angle_tape,\n"
            "                  'cancel_inverses': qml.transforms.cancel_inverses,\n"
            "                  'merge_rotations': qml.transforms.merge_rotations}\n"
            "\n\ndef recorded():\n"
            "    \"\"\"A fresh tape of the circuit, without its transforms (a fresh one each time: a transform\n"
            "    given a tape may change that tape's operation list).\"\"\"\n"
            f"    return qml.tape.QuantumScript({ops_list}, [{_measurement_text(example)}])\n\n\n"
            "def apply_once(names):\n"
            "    tape = recorded()\n"
            "    for name in names:\n"
            "        (tape,), _ = tape_functions[name](qml.tape.QuantumScript(list(tape.operations), list(tape.measurements)))\n"
            "    return tape\n\n\n"
            f"expected = apply_once(program[:{_applied(example)}])\n"
            "full = apply_once(program)  # every transform applied once: what the QNode executes\n"
            f"wanted_ops = ops_of(expected)\n"
            f"executed_wanted = result_of(full.operations, {n})\n\n"
            "before = circuit(x)\n"
            "assert np.allclose(before, executed_wanted, atol=ATOL), "
            "('executing the QNode does not give the result of its program applied once', before, executed_wanted)\n")


def _query_checks(subject, example):
    """Lines that check `answer` (one answer of the query) against the oracle."""
    query = subject.split(":")[0]
    n = example.wires
    if query in ("construct_batch", "construct_tape"):
        take = "tapes, _ = answer" if query == "construct_batch" else "tapes = [answer]"
        return (f"{take}\n"
                "assert len(tapes) == 1 and same_ops(ops_of(tapes[0]), wanted_ops), "
                "('the tape is not the circuit with the program applied once', "
                "[ops_of(t) for t in tapes], wanted_ops)\n")
    if query in ("get_transform_program", "get_compile_pipeline"):
        return ("tapes, _ = answer((recorded(),))\n"
                "assert len(tapes) == 1 and same_ops(ops_of(tapes[0]), wanted_ops), "
                "('the program, applied to the circuit, does not make the circuit with the program applied once', "
                "[ops_of(t) for t in tapes], wanted_ops)\n")
    if query == "specs":
        return ("resources = answer.resources if hasattr(answer, 'resources') else answer['resources']\n"
                "counts = dict(getattr(resources, 'gate_counts', None) or resources.gate_types)\n"
                "wanted_counts = {}\n"
                "for name, _, _ in wanted_ops:\n"
                "    wanted_counts[name] = wanted_counts.get(name, 0) + 1\n"
                "assert (resources.num_gates, {k: v for k, v in counts.items() if v}) == "
                "(len(wanted_ops), wanted_counts), "
                "('specs does not count the gates of the circuit with the program applied once', "
                "resources.num_gates, counts, wanted_counts)\n")
    if query == "draw":
        return ("assert answer == wanted_drawing, "
                "('draw does not draw the circuit with the program applied once', answer, wanted_drawing)\n")
    if query == "matrix":
        return (f"wanted_matrix = unitary(expected.operations, {n})\n"
                f"assert np.shape(answer) == {(2 ** n, 2 ** n)} and np.allclose(answer, wanted_matrix, atol=ATOL), "
                "('qml.matrix is not the unitary of the circuit with the program applied once', "
                "np.round(answer, 6), np.round(wanted_matrix, 6))\n")
    raise ValueError(query)


def _check_text(subject, example):
    query = subject.split(":")[0]
    prelude = ""
    if query == "draw":
        prelude = ("# what qml.draw draws for an un-transformed QNode applying the expected operations\n"
                   "@qml.qnode(dev)\n"
                   "def plain():\n"
                   "    for op in expected.operations:\n"
                   "        qml.apply(op)\n"
                   f"    return {_measurement_text(example)}\n\n\n"
                   "wanted_drawing = qml.draw(plain)()\n")
    body = _query_checks(subject, example)
    return (f"\n{prelude}# the query, called twice: each answer reports the program applied once "
            f"({_applied(example)} of {len(example.transforms)} transforms at this level)\n"
            "for call in (1, 2):\n"
            f"    answer = {_query_text(subject, example)}\n"
            + "".join(f"    {line}\n" for line in body.splitlines())
            + "\n# and executing the QNode after the queries still gives the program applied once\n"
            "after = circuit(x)\n"
            "assert np.allclose(after, executed_wanted, atol=ATOL), "
            "('executing the QNode after the query does not give the program applied once', after, executed_wanted)\n")


def _run(source, namespace=None):
    namespace = namespace if namespace is not None else {"__name__": "__main__"}
    exec(compile(source, "<program>", "exec"), namespace)  # noqa: S102 - the reproducer's own text
    return namespace


# ==========================================================================================
# Check and reproducer.

def _check(subject, example):
    from hypothesis import assume

    try:
        namespace = _run(_setup(example))
    except AssertionError as exc:
        raise AssertionError(f"{exc} for {_describe(subject, example)}") from None
    except Exception:  # noqa: BLE001 - the QNode / the oracle does not run: not this law's input
        assume(False)
        return
    text = _check_text(subject, example)
    try:
        _run(text, namespace)
    except AssertionError as exc:
        raise AssertionError(f"{_query_text(subject, example)}: {exc} for {_describe(subject, example)}") from None


def _reproduce(subject, example):
    return _setup(example) + _check_text(subject, example)


def _describe(subject, example):
    gates = "; ".join(f"{g.name}({', '.join(f'{p:.6g}' for p in g.params)}) on {list(g.wires)}" for g in example.gates)
    level = "default level" if example.level == DEFAULT else f"level {example.level!r}"
    return (f"{subject} on {example.wires} wires [{gates or 'no gates'}] -> {_measurement_text(example)}; "
            f"decorators {' '.join('@' + t for t in example.transforms)}; {level}")


CONTRACTS = [
    Contract("pennylane.workflow.queries-apply-program-once", "workflow inspection",
             "a query on a QNode decorated with a transform program (user transforms made with qml.transform, "
             "including non-idempotent ones, and built-in transforms) -- qml.specs, qml.draw, qml.matrix, "
             "qml.workflow.construct_batch / construct_tape / get_transform_program / get_compile_pipeline, at "
             "the default and every documented level -- reports the circuit with each transform of the program "
             "up to that level applied exactly once, every time it is called, and executing the QNode gives "
             "the result of that circuit",
             "documentation: qml.transform (a transform decorating a QNode is applied to its tape when it "
             "executes), qml.workflow.construct_batch / construct_tape / get_transform_program / "
             "get_compile_pipeline and qml.specs / qml.draw ('level': which transforms are applied, 'top'/0 "
             "none, 'user' all user transforms, an integer the first ones), qml.matrix (QNode input: the "
             "circuit's unitary)",
             _subjects, _strategy, _check, _reproduce, _api, describe=_describe),
]
