"""Transforms, PennyLane: a transform leaves the circuit it is given as it was.

Law `pennylane.transform.inputs-unchanged`, stated once for every tape transform the live release
exports (the `qml.transform` objects -- `TransformDispatcher` on older releases, `Transform` on
newer ones -- found in `qml.transforms` and in `qml`). The docs of `qml.transform` define a
transform as a function from a tape to a *new* batch of tapes and a post-processing function
("(Sequence[QuantumScript], Callable)"); applied to a QNode or a quantum function it returns a
*new* transformed QNode or quantum function. So:

  tape form   -- applying the transform leaves the input tape as it was: every operation (its
                 type, repr, wires and parameters, with their types), every measurement (repr,
                 observable and its parameters), trainable_params, shots and wires; a second
                 application to the same tape gives the same tapes as the first, and does not
                 change the tapes the first one returned;
  qnode form  -- decorating a QNode with the transform (twice), and running the transformed QNode,
                 leaves the QNode as it was: calling it gives the same result as before, its own
                 transform program (compile pipeline) is the same, and the tape its quantum
                 function records is the same;
  qfunc form  -- transforming a quantum function (and recording the transformed one) leaves the
                 tape the original function records as it was.

Inputs are small circuits on four wires drawn from gates the transforms document handling
(Paulis, Hadamard, S, T, rotations, Rot, PhaseShift, CNOT, CZ, SWAP, CRX, CRZ, Toffoli, a
`qml.ctrl`-controlled RY), with expval / var / probs measurements, and sample measurements when
the tape has shots; parameters are floats or trainable `pennylane.numpy` arrays, and the tape's
trainable_params may be a strict subset. Each transform gets, besides, the inputs its docs are
about: Barrier for remove_barrier, GlobalPhase for combine_global_phases, mid-circuit
measurements for defer_measurements and dynamic_one_shot (which requires shots), Snapshot for
snapshots, AmplitudeEmbedding (at the start) for merge_amplitude_embedding, QubitUnitary for
unitary_to_rot, a broadcast parameter for broadcast_expand, Hamiltonian expectations for the
measurement-splitting transforms, CNOT-only circuits for rowcol / parity_matrix, CNOT+RZ for
phase_polynomial, Clifford+T circuits (no arbitrary rotation, for time) for
clifford_t_decomposition; and, where required, the argument values their docs describe (fold_global's
scale_factor, insert's noise operation, map_wires' wire_map, transpile's coupling map,
mitigate_with_zne's folding and extrapolation, decompose's / decomp_inspector's gate set, ...).
An input a release refuses with an error is out of the law's domain (the example is rejected),
so the QNode form does not require the transformed QNode to run: only that running it, whatever
it does, leaves the original QNode alone. The QNode and qfunc forms are analytic (no shots), so
"the same result" is exact equality.

Left out (they need inputs the law cannot build generically): batch_input (which argument is a
batch), batch_params (every parameter batched), pattern_matching_optimization (pattern tapes),
add_noise (a noise model), cut_circuit / cut_circuit_mc (WireCut placement and matching
measurements), apply_controlled_Q / quantum_monte_carlo / rz_phase_gradient (registers of named
wires with roles), gridsynth (only under qml.qjit). Every other exported transform is a subject;
one not described above gets the plain circuits and no arguments.
"""

import inspect
from typing import NamedTuple

from contract_runtime import Contract, angles
from contracts.pennylane_operations import tape_function, transform_type

WIRES = (0, 1, 2, 3)
SHOTS = (None, 50)

EXCLUDED = {
    "batch_input": "needs the index of a batched argument",
    "batch_params": "needs every trainable parameter batched",
    "pattern_matching_optimization": "needs pattern tapes",
    "add_noise": "needs a noise model",
    "cut_circuit": "needs WireCut placement and matching measurements",
    "cut_circuit_mc": "needs WireCut placement and sample measurements",
    "apply_controlled_Q": "needs registers of wires with roles",
    "quantum_monte_carlo": "needs registers of wires with roles",
    "rz_phase_gradient": "needs registers of wires with roles",
    "gridsynth": "only runs under qml.qjit",
}

# gate -> (number of angles, number of wires)
GATES = {
    "Hadamard": (0, 1), "PauliX": (0, 1), "PauliY": (0, 1), "PauliZ": (0, 1), "S": (0, 1), "T": (0, 1),
    "RX": (1, 1), "RY": (1, 1), "RZ": (1, 1), "PhaseShift": (1, 1), "Rot": (3, 1), "CNOT": (0, 2),
    "CZ": (0, 2), "SWAP": (0, 2), "CRX": (1, 2), "CRZ": (1, 2), "Toffoli": (0, 3), "ctrl(RY)": (1, 2),
}
PLAIN = tuple(GATES)
MEASUREMENTS = ("expval_Z", "expval_X", "expval_Y", "expval_ZX", "var_Y", "probs", "sample_Z", "sample")
HAMILTONIAN = ("expval_H",)


class Domain(NamedTuple):
    gates: tuple = PLAIN
    extras: tuple = ()                 # special operations the transform is about
    measurements: tuple = MEASUREMENTS
    options: tuple = ("",)             # keyword-argument texts, as the docs describe them
    shots: tuple = SHOTS
    forms: tuple = ("tape", "qnode", "qfunc")
    broadcast: bool = False


GATE_SET = "gate_set={'RX', 'RY', 'RZ', 'CNOT', 'GlobalPhase'}"
DOMAINS = {
    "cancel_inverses": Domain(options=("", "recursive=False")),
    "commute_controlled": Domain(options=("", "direction='left'")),
    "compile": Domain(options=("", "num_passes=2")),
    "merge_rotations": Domain(options=("", "atol=1e-6")),
    "single_qubit_fusion": Domain(options=("", "atol=1e-6")),
    "decompose": Domain(options=("", GATE_SET)),
    "decomp_inspector": Domain(options=(GATE_SET,)),
    # Clifford+T circuits only: synthesising an arbitrary rotation takes seconds per gate on
    # older releases (0.42: ~8 s an example), beyond this law's time budget
    "clifford_t_decomposition": Domain(gates=("Hadamard", "S", "T", "CNOT", "PauliX", "CZ")),
    "remove_barrier": Domain(extras=("Barrier",)),
    "combine_global_phases": Domain(extras=("GlobalPhase",)),
    "defer_measurements": Domain(extras=("MidMeasure",)),
    "dynamic_one_shot": Domain(extras=("MidMeasure",), shots=(50,), forms=("tape",)),
    "snapshots": Domain(extras=("Snapshot",)),
    "merge_amplitude_embedding": Domain(extras=("AmplitudeEmbedding",)),
    "unitary_to_rot": Domain(extras=("QubitUnitary",)),
    "broadcast_expand": Domain(broadcast=True, forms=("tape",)),
    "split_non_commuting": Domain(measurements=MEASUREMENTS + HAMILTONIAN),
    "split_to_single_terms": Domain(measurements=MEASUREMENTS + HAMILTONIAN),
    "sum_expand": Domain(measurements=MEASUREMENTS + HAMILTONIAN),
    "diagonalize_measurements": Domain(measurements=MEASUREMENTS + HAMILTONIAN),
    "hamiltonian_expand": Domain(measurements=HAMILTONIAN),
    "sign_expand": Domain(measurements=HAMILTONIAN, shots=(None,)),
    "rowcol": Domain(gates=("CNOT",)),
    "parity_matrix": Domain(gates=("CNOT",)),
    "phase_polynomial": Domain(gates=("CNOT", "RZ")),
    "metric_tensor": Domain(gates=("RX", "RY", "RZ", "CNOT", "Hadamard", "CRX"), shots=(None,),
                            options=("", "approx='block-diag'")),
    "adjoint_metric_tensor": Domain(gates=("RX", "RY", "RZ", "CNOT", "Hadamard"), shots=(None,),
                                    measurements=("expval_Z", "expval_X")),
    "fold_global": Domain(options=("scale_factor=1", "scale_factor=3", "scale_factor=2.5")),
    "insert": Domain(options=("op=qml.AmplitudeDamping, op_args=0.05",
                              "op=qml.PhaseDamping, op_args=0.1, position='start'",
                              "op=qml.AmplitudeDamping, op_args=0.05, position='end'")),
    "map_wires": Domain(options=("wire_map={0: 10, 1: 11, 2: 12, 3: 13}", "wire_map={0: 3, 1: 2, 2: 1, 3: 0}")),
    "transpile": Domain(options=("coupling_map=[(0, 1), (1, 2), (2, 3)]",)),
    "mitigate_with_zne": Domain(
        measurements=("expval_Z", "expval_X", "expval_ZX"), shots=(None,),
        options=("scale_factors=[1, 3], folding={fold_global}, extrapolate={richardson_extrapolate}",)),
}


# -- subjects --------------------------------------------------------------------------------------
def _exported():
    """public name -> (transform, where it is exported: 'transforms' or '')."""
    import pennylane as qml

    kind = transform_type()
    found = {}
    for module, where in ((qml.transforms, "transforms"), (qml, "")):
        for name in sorted(dir(module)):
            if name.startswith("_") or name in found:
                continue
            obj = getattr(module, name, None)
            if isinstance(obj, kind):
                found[name] = (obj, where)
    return found


def _required_arguments(transform):
    function = tape_function(transform)
    try:
        parameters = list(inspect.signature(function).parameters.values())[1:]
    except (TypeError, ValueError):
        return None
    return [p.name for p in parameters
            if p.default is inspect.Parameter.empty and p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)]


def _subjects():
    """The exported transforms, but those needing inputs the law cannot build (EXCLUDED), and any
    other whose tape function requires arguments this module does not know how to give."""
    found = []
    for name, (transform, _) in _exported().items():
        if name in EXCLUDED:
            continue
        required = _required_arguments(transform)
        if required is None:
            continue
        if required and name not in DOMAINS:
            continue
        found.append(name)
    return sorted(found)


def _call(subject):
    where = _exported()[subject][1]
    return f"qml.{where}.{subject}" if where else f"qml.{subject}"


def _api(subject):
    return "pennylane." + _call(subject)[len("qml."):]


def _domain(subject):
    return DOMAINS.get(subject, Domain())


def _accepted(transform, option):
    """Whether the release's transform takes every keyword of an option text."""
    function = tape_function(transform)
    parameters = inspect.signature(function).parameters
    if any(p.kind == p.VAR_KEYWORD for p in parameters.values()):
        return True
    keywords = [part.split("=", 1)[0].strip() for part in option.split(", ") if "=" in part]
    return all(k in parameters for k in keywords)


def _public(name):
    """Where this release exports a helper function (it moved from qml.transforms to qml)."""
    import pennylane as qml

    for module, text in ((qml.transforms, "qml.transforms"), (qml, "qml"), (getattr(qml, "noise", None), "qml.noise")):
        if module is not None and hasattr(module, name):
            return f"{text}.{name}"
    raise AttributeError(f"pennylane exports no {name}")


def _fill(option):
    for name in ("fold_global", "richardson_extrapolate"):
        if "{" + name + "}" in option:
            option = option.replace("{" + name + "}", _public(name))
    return option


def _options(subject):
    """The documented argument texts this release's transform takes (an option a release's
    signature lacks is not generated there)."""
    transform = _exported()[subject][0]
    return [_fill(o) for o in _domain(subject).options if _accepted(transform, o)] or [""]


def _informative(subject):
    """Informative transforms (commutation_dag, adjoint_metric_tensor, ...) applied to a tape
    return their processed answer, not (tapes, processing function)."""
    transform = _exported()[subject][0]
    return bool(getattr(transform, "is_informative", False))


# -- examples ----------------------------------------------------------------------------------------
class Example(NamedTuple):
    ops: tuple            # (name, angles, wires)
    measurements: tuple   # (kind, wires)
    shots: object         # None or an int
    trainable: object     # None (all) or a tuple of parameter indices
    autograd: bool        # parameters as trainable pennylane.numpy arrays
    form: str
    option: int


def _strategy(subject):
    from hypothesis import strategies as st

    domain = _domain(subject)

    def gate(name):
        num_angles, num_wires = GATES[name]
        return st.tuples(st.just(name), st.tuples(*[angles() for _ in range(num_angles)]),
                         st.permutations(WIRES).map(lambda p: tuple(p[:num_wires])))

    extra_builders = {
        "Barrier": st.permutations(WIRES).flatmap(lambda p: st.integers(1, 4).map(lambda k: ("Barrier", (), tuple(p[:k])))),
        "GlobalPhase": angles().map(lambda a: ("GlobalPhase", (a,), ())),
        "MidMeasure": st.sampled_from(WIRES).map(lambda w: ("MidMeasure", (), (w,))),
        "Snapshot": st.just(("Snapshot", (), ())),
        "QubitUnitary": st.one_of(
            st.tuples(st.just("QubitUnitary"), st.tuples(angles(), angles(), angles()),
                      st.sampled_from(WIRES).map(lambda w: (w,))),
            st.tuples(st.just("QubitUnitary"), st.tuples(angles()),
                      st.permutations(WIRES).map(lambda p: tuple(p[:2])))),
    }
    pool = [gate(n) for n in domain.gates] + [extra_builders[e] for e in domain.extras if e in extra_builders]

    @st.composite
    def example(draw):
        ops = []
        if "AmplitudeEmbedding" in domain.extras:  # documented at the start of the circuit
            for w in draw(st.sampled_from([(0,), (0, 1), (2, 3)])):
                features = draw(st.tuples(st.floats(0.1, 1.0), st.floats(0.1, 1.0)))
                ops.append(("AmplitudeEmbedding", features, (w,)))
        if domain.broadcast:
            ops.append(("RX[batch]", draw(st.tuples(angles(), angles())), (draw(st.sampled_from(WIRES)),)))
        ops += draw(st.lists(st.one_of(pool), min_size=1, max_size=6))
        shots = draw(st.sampled_from(domain.shots))
        form = draw(st.sampled_from(domain.forms if shots is None else ("tape",)))
        kinds = [k for k in domain.measurements if shots is not None or not k.startswith("sample")]
        measurements = draw(st.lists(st.tuples(st.sampled_from(kinds), st.permutations(WIRES).map(lambda p: p[:2])),
                                     min_size=1, max_size=2 if domain.measurements != HAMILTONIAN else 1))
        num_params = sum(_num_params(op) for op in ops)
        trainable = None
        if form == "tape" and num_params and draw(st.booleans()):
            trainable = tuple(sorted(draw(st.sets(st.integers(0, num_params - 1), max_size=num_params))))
        autograd = draw(st.booleans()) and not domain.broadcast
        option = draw(st.integers(0, len(_options(subject)) - 1))
        return Example(tuple(ops), tuple(measurements), shots, trainable, autograd, form, option)

    return example()


def _num_params(op):
    name, arguments, _ = op
    if name in ("QubitUnitary", "RX[batch]", "AmplitudeEmbedding"):
        return 1
    return len(arguments)


# -- program text (the check runs exactly the reproducer's program) -----------------------------------
def _number(value, autograd):
    text = repr(float(value))
    return f"pnp.array({text}, requires_grad=True)" if autograd else text


def _op_text(op, autograd, form):
    name, arguments, wires = op
    numbers = [_number(a, autograd) for a in arguments]
    w = list(wires)
    if name == "ctrl(RY)":
        return f"qml.ctrl(qml.RY({numbers[0]}, wires={w[1]}), control={w[0]})"
    if name == "Barrier":
        return f"qml.Barrier(wires={w})"
    if name == "GlobalPhase":
        return f"qml.GlobalPhase({numbers[0]})"
    if name == "Snapshot":
        return "qml.Snapshot()"
    if name == "MidMeasure":
        return f"qml.measure({w[0]})" if form != "tape" else f"qml.measurements.MidMeasureMP(wires=[{w[0]}])"
    if name == "QubitUnitary":
        source = (f"qml.Rot({', '.join(repr(float(a)) for a in arguments)}, wires=0)" if len(w) == 1
                  else f"qml.CRX({float(arguments[0])!r}, wires=[0, 1])")
        matrix = f"{source}.matrix()"
        return f"qml.QubitUnitary({'pnp.array(' + matrix + ', requires_grad=True)' if autograd else matrix}, wires={w})"
    if name == "AmplitudeEmbedding":
        features = "[" + ", ".join(repr(float(a)) for a in arguments) + "]"
        return (f"qml.AmplitudeEmbedding({'pnp.array(' + features + ', requires_grad=True)' if autograd else features}, "
                f"wires={w}, normalize=True)")
    if name == "RX[batch]":
        return f"qml.RX(np.array([{float(arguments[0])!r}, {float(arguments[1])!r}]), wires={w[0]})"
    return f"qml.{name}({', '.join(numbers + [f'wires={w}'])})"


def _measurement_text(measurement):
    kind, (a, b) = measurement
    return {
        "expval_Z": f"qml.expval(qml.PauliZ({a}))",
        "expval_X": f"qml.expval(qml.PauliX({a}))",
        "expval_Y": f"qml.expval(qml.PauliY({a}))",
        "expval_ZX": f"qml.expval(qml.PauliZ({a}) @ qml.PauliX({b}))",
        "expval_H": f"qml.expval(qml.Hamiltonian([0.5, -0.25], [qml.PauliZ({a}), qml.PauliX({a}) @ qml.PauliY({b})]))",
        "var_Y": f"qml.var(qml.PauliY({a}))",
        "probs": f"qml.probs(wires=[{a}, {b}])",
        "sample_Z": f"qml.sample(qml.PauliZ({a}))",
        "sample": f"qml.sample(wires=[{a}, {b}])",
    }[kind]


HEADER = "import numpy as np\nimport pennylane as qml\nfrom pennylane import numpy as pnp\n\n"

SNAPSHOT = '''
def data(values):
    """Parameters as plain data, with their types (a conversion in place is a change too)."""
    return [(type(d).__name__, np.asarray(d).tolist(), getattr(d, "requires_grad", None)) for d in values]


def observable(obs):
    if obs is None:
        return None
    parts = getattr(obs, "operands", None) or getattr(obs, "ops", None) or ()
    return (type(obs).__name__, repr(obs), data(obs.data), [observable(o) for o in parts])


def snapshot(tape):
    """Everything the tape says: operations, measurements, trainable parameters, shots, wires."""
    return {
        "operations": [(type(op).__name__, repr(op), op.wires.tolist(), data(op.data)) for op in tape.operations],
        "measurements": [(type(m).__name__, repr(m), m.wires.tolist(), observable(m.obs)) for m in tape.measurements],
        "trainable_params": list(tape.trainable_params),
        "shots": repr(tape.shots),
        "wires": tape.wires.tolist(),
    }
'''


CANON = '''

def canon(answer):
    """An answer as plain data (arrays by value, tapes by snapshot, other objects by type)."""
    if isinstance(answer, qml.tape.QuantumScript):
        return snapshot(answer)
    if isinstance(answer, (tuple, list)):
        return [canon(a) for a in answer]
    if isinstance(answer, np.ndarray) or type(answer).__module__.startswith("numpy"):
        return (np.shape(answer), np.asarray(answer).tolist())
    return type(answer).__name__
'''


def _program(subject, example):
    domain = _domain(subject)
    call = _call(subject)
    options = _options(subject)[example.option]
    extra = f", {options}" if options else ""
    lines = [_op_text(op, example.autograd, example.form) for op in example.ops]
    measurements = [_measurement_text(m) for m in example.measurements]
    text = HEADER + SNAPSHOT
    if example.form == "tape":
        text += ("\n\ndef make_tape():\n    ops = [\n" + "".join(f"        {line},\n" for line in lines) + "    ]\n"
                 "    measurements = [" + ", ".join(measurements) + "]\n"
                 f"    tape = qml.tape.QuantumScript(ops, measurements, shots={example.shots!r})\n")
        if example.trainable is not None:
            text += f"    tape.trainable_params = {list(example.trainable)!r}\n"
        text += "    return tape\n\n\n"
        if _informative(subject):  # the answer itself, not (tapes, processing function)
            return text + (
                CANON + "\n\ntape = make_tape()\n"
                "before = snapshot(tape)\n"
                f"answer = {call}(tape{extra})\n"
                "first = canon(answer)\n"
                "assert snapshot(tape) == before, ('applying the transform changed the tape it was given', before, snapshot(tape))\n"
                f"answer_again = {call}(tape{extra})\n"
                "assert snapshot(tape) == before, ('a second application changed the tape it was given', before, snapshot(tape))\n"
                "assert canon(answer_again) == first, ('a second application to the same tape gave another answer', first, canon(answer_again))\n")
        text += ("tape = make_tape()\n"
                 "before = snapshot(tape)\n"
                 f"tapes, fn = {call}(tape{extra})\n"
                 "first = [snapshot(t) for t in tapes]\n"
                 "assert snapshot(tape) == before, ('applying the transform changed the tape it was given', before, snapshot(tape))\n"
                 f"tapes_again, fn_again = {call}(tape{extra})\n"
                 "assert snapshot(tape) == before, ('a second application changed the tape it was given', before, snapshot(tape))\n"
                 "second = [snapshot(t) for t in tapes_again]\n"
                 "assert second == first, ('a second application to the same tape gave other tapes', first, second)\n"
                 "assert [snapshot(t) for t in tapes] == first, ('a second application changed the tapes the first returned', first, [snapshot(t) for t in tapes])\n")
        return text
    body = "".join(f"    {line}\n" for line in lines) + "    return " + ", ".join(measurements) + "\n"
    text += ("\n\ndef circuit_function():\n" + body)
    if example.form == "qfunc":
        return text + ("\n\nbefore = snapshot(qml.tape.make_qscript(circuit_function)())\n"
                       f"transformed = {call}(circuit_function{extra})\n"
                       f"transformed_again = {call}(circuit_function{extra})\n"
                       "try:  # recording the transformed function, whatever it gives or raises, must leave the original alone\n"
                       "    qml.tape.make_qscript(transformed)()\n"
                       "except Exception:\n"
                       "    pass\n"
                       "after = snapshot(qml.tape.make_qscript(circuit_function)())\n"
                       "assert after == before, ('transforming the quantum function changed the tape it records', before, after)\n")
    return text + (
        "\n\ncircuit = qml.QNode(circuit_function, qml.device('default.qubit'))\n\n\n"
        "def flat(result):\n"
        "    if isinstance(result, (tuple, list)):\n"
        "        return [flat(r) for r in result]\n"
        "    return (np.shape(result), np.asarray(result).tolist())\n\n\n"
        "def program_of(node):\n"
        "    pipeline = getattr(node, 'compile_pipeline', None)\n"
        "    return repr(pipeline if pipeline is not None else node.transform_program)\n\n\n"
        "result_before = flat(circuit())\n"
        "program_before = program_of(circuit)\n"
        "tape_before = snapshot(qml.tape.make_qscript(circuit.func)())\n"
        f"transformed = {call}(circuit{extra})\n"
        f"transformed_again = {call}(circuit{extra})\n"
        "try:  # running the transformed QNode, whatever it gives or raises, must leave the original alone\n"
        "    transformed()\n"
        "except Exception:\n"
        "    pass\n"
        "assert program_of(circuit) == program_before, ('transforming the QNode changed its transform program', program_before, program_of(circuit))\n"
        "assert snapshot(qml.tape.make_qscript(circuit.func)()) == tape_before, 'transforming the QNode changed the tape its function records'\n"
        "result_after = flat(circuit())\n"
        "assert result_after == result_before, ('the untransformed QNode gives another result after the transform', result_before, result_after)\n")


def _check(subject, example):
    import warnings

    code = _program(subject, example)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(compile(code, f"<{subject}>", "exec"), {"__name__": "__main__"})


def _reproducer(subject, example):
    return _program(subject, example)


def _describe(subject, example):
    options = _options(subject)[example.option]
    ops = "; ".join(_op_text(op, example.autograd, example.form) for op in example.ops)
    ms = ", ".join(_measurement_text(m) for m in example.measurements)
    return (f"{_call(subject)}({example.form}{', ' + options if options else ''}) on [{ops}] -> {ms}, "
            f"shots={example.shots}, trainable_params={example.trainable}")


CONTRACTS = [
    Contract(
        "pennylane.transform.inputs-unchanged", "transformation, synthesis, compilation",
        "a transform leaves the tape it is given unchanged (operations with their parameters and wires, "
        "measurements, trainable_params, shots), gives the same tapes when applied again to it, and leaves a "
        "QNode or quantum function it decorates unchanged (same result, same transform program, same tape)",
        "documentation: qml.transform ('a transform ... returns a sequence of new tapes and a processing "
        "function'; applied to a QNode or quantum function it returns a new, transformed one); each transform's docstring",
        _subjects, _strategy, _check, _reproducer, _api, validity="documented", describe=_describe),
]
