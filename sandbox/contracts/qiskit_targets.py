"""Compilation honours the Target, Qiskit: laws every documented compilation route must obey
for a Target built from drawn properties, stated once for the family of routes the live
library offers (transpile, generate_preset_pass_manager with target= or with a
GenericBackendV2 backend=, PassManagers of the documented target-aware passes, and the
scheduling stage with scheduling_method='alap'/'asap').

The Target is written down as source over Qiskit's public API (``Target(num_qubits, dt,
granularity, min_length, pulse_alignment, acquire_alignment)`` plus ``add_instruction`` with
``InstructionProperties(duration=...)``): a basis (u/cx, rz/sx/x/cx, rz/sx/x/ecr, rz/sx/x/cz,
rx/ry/rz/rzz), a coupling map (line, ring, star, random connected subset, optionally one
direction per edge), gate durations and the timing constraints. Durations are drawn as the
Target documentation and the alignment passes assume of a real backend ("backend supported
instructions ... have no violation of the hardware alignment constraints", the alignments
module): whole multiples of granularity, pulse_alignment and acquire_alignment, at least
min_length.

Every route's output must
  (a) use only operations the target supports on the qubits they act on
      (``Target.instruction_supported(name, qargs)``; barriers are directives),
  (b) respect the coupling map: every multi-qubit operation acts on an edge of
      ``target.build_coupling_map()`` and the circuit is no wider than the target,
  (d) still implement the input: for a measurement-free input the same operator up to the
      output's TranspileLayout (initial and final layouts, ancillas in |0>), global phase
      included (Qiskit tracks it: the equality is exact); for an input with measurements the
      same exact distribution of classical outcomes. Delays are idle time (identity).
The scheduling routes' output must also
  (c) honour the documented timing constraints (qiskit.transpiler.passes.scheduling.alignments,
      TimingConstraints): walking the scheduled (delay-padded) circuit with the target's
      durations, every gate starts at a multiple of pulse_alignment and every measurement at a
      multiple of acquire_alignment, and every delay is a whole, non-negative number of dt;
      and the input's idle time is kept (the delays of the output total at least those of the
      input: scheduling, rescheduling and padding only add idle time, as ConstrainedReschedule
      documents with its "Delay(100[dt]) -> Delay(112[dt])" example).
      (granularity and min_length constrain pulse waveforms, which the drawn target durations
      honour; the docs do not put them on delays or start times, so neither does this law.)

Circuits and targets are written down once, as source; the check executes that very source
and the reproducer prints it, so both judge the same objects. Operator and distribution
semantics are those of qiskit_transformation (oracle_core matrices for standard gates in the
check, qiskit.quantum_info.Operator in the reproducer).
"""

import functools
import inspect
import math

import numpy as np

from contract_runtime import Contract, angles
from contracts.qiskit_transformation import (apply_qiskit_matrix, circuit_unitary, gppm_path, layout_gap,
                                             library_matrix, oracle_matrix, outcome_distribution)

ATOL = 1e-7
DT_CHOICES = (2.2222222222222221e-10, 1e-9, 5e-10)

# Documented complete bases (the brief's families of real devices and Qiskit's own examples).
BASES = (("u", "cx"), ("rz", "sx", "x", "cx"), ("rz", "sx", "x", "ecr"), ("rz", "sx", "x", "cz"),
         ("rx", "ry", "rz", "rzz"))
SHAPES = ("line", "ring", "star", "subset")

# Routes: name -> (law group, input kinds, physical input).  A "physical" route is a
# PassManager of passes that do not lay out or route: its input acts on all target qubits
# and its multi-qubit operations on coupled pairs, as those passes document their input.
ALL_KINDS = ("gate", "gate", "unitary", "unitary", "control", "permutation", "linear", "mcx", "delay")
PM_KINDS = {
    "UnitarySynthesis": ("unitary", "delay"),
    "BasisTranslator": ("gate", "delay"),
    "HighLevelSynthesis": ("gate", "control", "permutation", "linear", "delay"),
    "Optimize1qGatesDecomposition": ("gate", "unitary", "control", "permutation", "linear", "delay"),
    "ALAPScheduleAnalysis": ("gate", "unitary", "control", "delay", "delay"),
    "ASAPScheduleAnalysis": ("gate", "unitary", "control", "delay", "delay"),
}


# -------------------------------------------------------------------------------------------
# Subjects.


def _has_generic_backend():
    try:
        from qiskit.providers.fake_provider import GenericBackendV2  # noqa: F401
    except ImportError:
        return False
    return True


def _has_pass(name):
    import qiskit.transpiler.passes as passes

    return inspect.isclass(getattr(passes, name, None))


def _compile_subjects():
    gppm_path()
    found = ["transpile", "generate_preset_pass_manager"]
    if _has_generic_backend():
        found += ["transpile:backend", "generate_preset_pass_manager:backend"]
    for name in ("UnitarySynthesis", "BasisTranslator", "HighLevelSynthesis", "Optimize1qGatesDecomposition"):
        needed = [name, "UnitarySynthesis", "HighLevelSynthesis", "BasisTranslator"] if name in (
            "HighLevelSynthesis", "Optimize1qGatesDecomposition") else [name]
        if all(_has_pass(n) and "target" in inspect.signature(_pass_class(n).__init__).parameters for n in needed):
            found.append(f"PassManager:{name}")
    return found


def _schedule_subjects():
    gppm_path()
    found = ["transpile:alap", "transpile:asap", "generate_preset_pass_manager:alap",
             "generate_preset_pass_manager:asap"]
    if all(_has_pass(n) for n in ("ALAPScheduleAnalysis", "ASAPScheduleAnalysis", "ConstrainedReschedule",
                                  "PadDelay", "TimeUnitConversion")):
        found += ["PassManager:ALAPScheduleAnalysis", "PassManager:ASAPScheduleAnalysis"]
    return found


def _pass_class(name):
    import qiskit.transpiler.passes as passes

    return getattr(passes, name)


def _api(subject):
    entry = subject.split(":")
    if entry[0] == "transpile":
        return "qiskit.transpile"
    if entry[0] == "generate_preset_pass_manager":
        return f"{gppm_path()}.generate_preset_pass_manager"
    return f"qiskit.transpiler.passes.{entry[1]}.run on qiskit.transpiler.passes.{entry[1]}"  # run by a PassManager


# -------------------------------------------------------------------------------------------
# Targets, written as source.

@functools.lru_cache(maxsize=None)
def _standard_gates():
    """{name: (number of params, number of qubits)} of the release's standard gates on 1-3 qubits."""
    from qiskit.circuit import Gate
    from qiskit.circuit.library import get_standard_gate_name_mapping

    return {name: (len(gate.params), gate.num_qubits) for name, gate in get_standard_gate_name_mapping().items()
            if isinstance(gate, Gate) and 1 <= gate.num_qubits <= 3}


def _edges(shape, width, tree):
    if width == 2 or shape == "line":
        return [(i, i + 1) for i in range(width - 1)]
    if shape == "ring":
        return [(i, i + 1) for i in range(width - 1)] + [(width - 1, 0)]
    if shape == "star":
        return [(0, i) for i in range(1, width)]
    # subset: a random connected subgraph (a tree: each qubit hangs on an earlier one)
    return [(tree[i - 1] % i, i) for i in range(1, width)]


def _directed_edges(spec):
    edges = _edges(spec["shape"], spec["width"], spec["tree"])
    if spec["directed"] is None:
        return [list(e) for e in edges] + [[b, a] for a, b in edges]
    return [[a, b] if flip else [b, a] for (a, b), flip in zip(edges, spec["directed"])]


def target_source(spec):
    """Source defining `target` from a drawn spec."""
    dt = spec["dt"]
    g, m, pa, aa = spec["constraints"]
    lines = ["gates = get_standard_gate_name_mapping()",
             f"dt = {dt!r}",
             f"target = Target(num_qubits={spec['width']}, dt=dt, granularity={g}, min_length={m}, "
             f"pulse_alignment={pa}, acquire_alignment={aa})",
             f"edges = {_directed_edges(spec)!r}"]
    for name, steps in zip(spec["basis"], spec["durations"]):
        two = _standard_gates()[name][1] == 2
        where = "edges" if two else f"[[q] for q in range({spec['width']})]"
        lines.append(f"target.add_instruction(gates[{name!r}], {{tuple(q): InstructionProperties("
                     f"duration={steps} * dt, error={1e-3 if two else 1e-4}) for q in {where}}})")
    lines.append(f"target.add_instruction(Measure(), {{(q,): InstructionProperties(duration={spec['measure']} * dt, "
                 f"error=1e-2) for q in range({spec['width']})}})")
    lines.append(f"target.add_instruction(Delay(Parameter('t')), {{(q,): None for q in range({spec['width']})}})")
    return "\n".join(lines) + "\n"


def backend_source(spec, seed):
    edges = _directed_edges(spec)
    return (f"backend = GenericBackendV2({spec['width']}, basis_gates={list(spec['basis'])!r}, "
            f"coupling_map={edges!r}, seed={seed})\n"
            "target = backend.target\n")


# -------------------------------------------------------------------------------------------
# Circuits, written as source.

def _op_source(op):
    kind = op[0]
    if kind == "gate":
        _, name, params, qubits = op
        return (f"qc.append(get_standard_gate_name_mapping()[{name!r}].base_class("
                f"{', '.join(repr(float(p)) for p in params)}), {list(qubits)})")
    if kind == "unitary":
        _, seed, qubits = op
        return f"qc.append(UnitaryGate(random_unitary({2 ** len(qubits)}, seed={seed})), {list(qubits)})"
    if kind == "control":
        _, name, params, ctrl_state, qubits = op
        return (f"qc.append(get_standard_gate_name_mapping()[{name!r}].base_class("
                f"{', '.join(repr(float(p)) for p in params)}).control(1, ctrl_state={ctrl_state}), {list(qubits)})")
    if kind == "permutation":
        _, pattern, qubits = op
        return f"qc.append(PermutationGate({list(pattern)}), {list(qubits)})"
    if kind == "linear":
        _, matrix, qubits = op
        return f"qc.append(LinearFunction({[list(r) for r in matrix]}), {list(qubits)})"
    if kind == "mcx":
        _, ctrl_state, qubits = op
        return f"qc.append(MCXGate({len(qubits) - 1}, ctrl_state={ctrl_state}), {list(qubits)})"
    if kind == "delay":
        _, duration, qubit = op
        return f"qc.delay({duration}, {qubit}, unit='dt')"
    if kind == "measure":
        _, qubit, clbit = op
        return f"qc.measure({qubit}, {clbit})"
    raise ValueError(f"unknown op kind {kind!r}")


def circuit_source(circuit):
    num_qubits, num_clbits, phase, ops = circuit
    lines = [f"qc = QuantumCircuit({num_qubits}, {num_clbits}, global_phase={float(phase)!r})"]
    return "\n".join(lines + [_op_source(op) for op in ops]) + "\n"


def _pairs(num_qubits, edges):
    """Ordered qubit pairs a 2-qubit operation may act on: any (logical input), or the
    target's edges in both orders (physical input of passes that do not route)."""
    if edges is None:
        return [(a, b) for a in range(num_qubits) for b in range(num_qubits) if a != b]
    return [tuple(e) for e in edges] + [(b, a) for a, b in edges]


def _op(draw, kinds, num_qubits, edges):
    from hypothesis import strategies as st

    kinds = [k for k in kinds if num_qubits >= 2 or k not in ("control", "permutation", "linear", "mcx")]
    if num_qubits < 3 or edges is not None:
        kinds = [k for k in kinds if k != "mcx"] or ["delay"]
    kind = draw(st.sampled_from(kinds))
    if kind == "delay":
        return ("delay", draw(st.integers(0, 300)), draw(st.integers(0, num_qubits - 1)))
    if kind == "mcx":
        return ("mcx", draw(st.integers(0, 3)), tuple(draw(st.permutations(range(num_qubits)))[:3]))
    size = 1 if num_qubits == 1 or kind == "control" else draw(st.integers(1, 2))
    if kind in ("control", "permutation", "linear"):
        size = 2
    if kind == "gate":
        gates = _standard_gates()
        names = sorted(n for n, (_, k) in gates.items() if k <= min(2 if edges is not None else 3, num_qubits))
        name = draw(st.sampled_from(names))
        size = gates[name][1]
    if size == 1:
        qubits = (draw(st.integers(0, num_qubits - 1)),)
    elif size == 2:
        qubits = draw(st.sampled_from(_pairs(num_qubits, edges)))
    else:
        qubits = tuple(draw(st.permutations(range(num_qubits)))[:size])
    if kind == "gate":
        return ("gate", name, tuple(draw(angles()) for _ in range(gates[name][0])), qubits)
    if kind == "unitary":
        return ("unitary", draw(st.integers(0, 10 ** 4)), qubits)
    if kind == "control":
        gates = _standard_gates()
        base = draw(st.sampled_from(sorted(n for n, (_, k) in gates.items() if k == 1)))
        return ("control", base, tuple(draw(angles()) for _ in range(gates[base][0])), draw(st.integers(0, 1)), qubits)
    if kind == "permutation":
        return ("permutation", (1, 0), qubits)
    # an invertible 2x2 binary matrix (a CX network)
    return ("linear", draw(st.sampled_from([((1, 1), (0, 1)), ((1, 0), (1, 1)), ((0, 1), (1, 0)), ((1, 1), (1, 0))])),
            qubits)


def _circuit(draw, num_qubits, kinds, edges, max_ops=6):
    from hypothesis import strategies as st

    ops = [_op(draw, kinds, num_qubits, edges) for _ in range(draw(st.integers(1, max_ops)))]
    num_clbits = 0
    if draw(st.booleans()):  # measured input: some qubits measured, maybe mid-circuit
        measured = draw(st.lists(st.integers(0, num_qubits - 1), min_size=1, max_size=num_qubits, unique=True))
        num_clbits = len(measured)
        for clbit, qubit in enumerate(measured):
            position = draw(st.integers(0, len(ops))) if draw(st.booleans()) else len(ops)
            ops.insert(position, ("measure", qubit, clbit))
    return (num_qubits, num_clbits, draw(angles()), tuple(ops))


def _durations(draw, step, min_length, count):
    """Whole multiples of `step` (granularity and alignments), at least min_length."""
    from hypothesis import strategies as st

    least = max(1, math.ceil(min_length / step))
    return tuple(step * draw(st.integers(least, least + 12)) for _ in range(count))


def _strategy(subject):
    from hypothesis import strategies as st

    route = subject.split(":")
    physical = route[0] == "PassManager"
    backend = subject.endswith(":backend")

    @st.composite
    def build(draw):
        basis = draw(st.sampled_from(BASES))
        num_qubits = draw(st.integers(1, 3))
        width = max(2, num_qubits + (0 if physical else draw(st.integers(0, 2))))
        if physical:
            num_qubits = width
        shape = draw(st.sampled_from(SHAPES))
        tree = tuple(draw(st.integers(0, 10)) for _ in range(width - 1))
        edges = _edges(shape, width, tree)
        # one direction per edge (as on devices with cross-resonance gates) only where a
        # route documents fixing gate direction itself (the presets' GateDirection)
        directed = None if physical or backend or not draw(st.booleans()) else tuple(
            draw(st.booleans()) for _ in edges)
        g, m = draw(st.sampled_from([1, 2, 4, 16])), draw(st.sampled_from([1, 8, 64]))
        pa, aa = draw(st.sampled_from([1, 2, 8, 16])), draw(st.sampled_from([1, 2, 16, 32]))
        step = math.lcm(g, pa, aa)
        spec = {"basis": basis, "width": width, "shape": shape, "tree": tree, "directed": directed,
                "dt": draw(st.sampled_from(DT_CHOICES)), "constraints": (g, m, pa, aa),
                "durations": _durations(draw, step, m, len(basis)),
                "measure": _durations(draw, step, max(m, 100), 1)[0]}
        kinds = PM_KINDS[route[1]] if physical else ALL_KINDS
        circuit = _circuit(draw, num_qubits, kinds, edges if physical else None)
        return (spec, circuit, draw(st.integers(0, 3)), draw(st.integers(0, 100)))

    return build()


# -------------------------------------------------------------------------------------------
# Programs.

HEADER = ("import numpy as np\n"
          "from qiskit import QuantumCircuit, transpile\n"
          "from qiskit.circuit import Delay, Measure, Parameter\n"
          "from qiskit.circuit.library import (LinearFunction, MCXGate, PermutationGate, UnitaryGate,\n"
          "                                    get_standard_gate_name_mapping)\n"
          "from qiskit.quantum_info import Operator, random_unitary\n"
          "from qiskit.transpiler import InstructionProperties, PassManager, Target\n")


def _translation_passes():
    return ["UnitarySynthesis(target=target)", "HighLevelSynthesis(target=target)",
            "BasisTranslator(SessionEquivalenceLibrary, target_basis=list(target.operation_names), target=target)"]


def _reschedule_source():
    """ConstrainedReschedule given the target where the release documents target=, else the
    target's own alignment values (the documented arguments before target= existed)."""
    if "target" in inspect.signature(_pass_class("ConstrainedReschedule").__init__).parameters:
        return "ConstrainedReschedule(target=target)"
    return ("ConstrainedReschedule(acquire_alignment=target.acquire_alignment, "
            "pulse_alignment=target.pulse_alignment)")


def _route_source(subject, level, seed):
    route = subject.split(":")
    if route[0] == "PassManager":
        name = route[1]
        if name == "UnitarySynthesis":
            stages = ["UnitarySynthesis(target=target)"]
        elif name == "BasisTranslator":
            stages = [_translation_passes()[2]]
        elif name == "HighLevelSynthesis":
            stages = _translation_passes()[1:]
        elif name == "Optimize1qGatesDecomposition":
            stages = _translation_passes() + ["Optimize1qGatesDecomposition(target=target)"]
        else:
            # the scheduling stage as the preset pass managers document it: unit conversion,
            # scheduling analysis, rescheduling for the alignment constraints, delay padding
            stages = _translation_passes() + [
                "TimeUnitConversion(target=target)", f"{name}(target=target)",
                _reschedule_source(), "PadDelay(target=target)"]
        used = sorted({s.split("(")[0] for s in stages})
        return (f"from qiskit.circuit.equivalence_library import SessionEquivalenceLibrary\n"
                f"from qiskit.transpiler.passes import {', '.join(used)}\n"
                f"pm = PassManager([\n    " + ",\n    ".join(stages) + "])\nout = pm.run(qc)\n")
    extra = ""
    if len(route) > 1 and route[1] in ("alap", "asap"):
        extra = f", scheduling_method={route[1]!r}"
    where = "backend=backend" if subject.endswith(":backend") else "target=target"
    if route[0] == "transpile":
        return f"out = transpile(qc, {where}, optimization_level={level}{extra}, seed_transpiler={seed})\n"
    return (f"from {gppm_path()} import generate_preset_pass_manager\n"
            f"pm = generate_preset_pass_manager(optimization_level={level}, {where}{extra}, seed_transpiler={seed})\n"
            "out = pm.run(qc)\n")


def program(subject, example):
    spec, circuit, level, seed = example
    if subject.endswith(":backend"):
        target = "from qiskit.providers.fake_provider import GenericBackendV2\n" + backend_source(spec, seed)
    else:
        target = target_source(spec)
    return HEADER + target + circuit_source(circuit) + _route_source(subject, level, seed)


def _run(source):
    namespace = {"__name__": "__qusema_contract__"}
    exec(compile(source, "<contract>", "exec"), namespace)
    return namespace


# -------------------------------------------------------------------------------------------
# What the output must satisfy (source copied verbatim into reproducers).

def target_violations(out, target):
    """Operations (recursing into blocks) the target does not support on the physical qubits
    they act on, and multi-qubit operations off the coupling map."""
    found = []
    edges = set(tuple(e) for e in target.build_coupling_map().get_edges()) if target.num_qubits > 1 else set()
    if out.num_qubits > target.num_qubits:
        found.append(("circuit wider than the target", out.num_qubits))

    def visit(block, qubits):
        for item in block.data:
            op = item.operation
            qargs = tuple(qubits[block.find_bit(q).index] for q in item.qubits)
            if op.name == "barrier":
                continue  # a directive, not an instruction the target executes
            if not target.instruction_supported(op.name, qargs):
                found.append(("unsupported", op.name, qargs))
            if len(qargs) == 2 and qargs not in edges:
                found.append(("off the coupling map", op.name, qargs))
            for inner in getattr(op, "blocks", ()):
                visit(inner, qargs)

    visit(out, list(range(out.num_qubits)))
    return found


def timing_violations(out, target):
    """Walk the scheduled circuit (idle time padded with delays) with the target's durations,
    in units of dt: gates must start at multiples of pulse_alignment, measurements at
    multiples of acquire_alignment, delays must be whole non-negative numbers of dt."""
    dt = target.dt
    units = {"dt": None, "s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9, "ps": 1e-12}
    clock = [0] * out.num_qubits
    found = []
    for item in out.data:
        op = item.operation
        qubits = [out.find_bit(q).index for q in item.qubits]
        start = max((clock[q] for q in qubits), default=0)
        if op.name == "barrier":
            duration = 0
        elif op.name == "delay":
            scale = units.get(op.unit)
            duration = float(op.duration) if scale is None else float(op.duration) * scale / dt
            if duration < 0 or abs(duration - round(duration)) > 1e-6:
                found.append(("delay not a whole number of dt", float(op.duration), op.unit, tuple(qubits)))
            duration = round(duration)
        else:
            properties = target[op.name][tuple(qubits)]
            duration = round(properties.duration / dt) if properties is not None and properties.duration else 0
            alignment = target.acquire_alignment if op.name == "measure" else target.pulse_alignment
            if start % alignment:
                found.append((op.name, tuple(qubits), "starts at", start, "dt, not a multiple of", alignment))
        for q in qubits:
            clock[q] = start + duration
    return found


def idle_time(circuit, dt):
    """Total duration of the circuit's delays, in units of dt."""
    units = {"dt": None, "s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9, "ps": 1e-12}
    total = 0.0
    for item in circuit.data:
        if item.operation.name == "delay":
            scale = units.get(item.operation.unit)
            total += float(item.operation.duration) * (1 if scale is None else scale / dt)
    return total


def _implements(qc, out, matrix_of):
    """(what, gap): the exact outcome distribution for a measured input, the operator up to
    the output's layout (global phase included) otherwise."""
    if any(item.operation.name == "measure" for item in qc.data):
        expected, actual = outcome_distribution(qc, matrix_of), outcome_distribution(out, matrix_of)
        gap = float(np.max(np.abs(expected - actual))) if expected.shape == actual.shape else math.inf
        return "outcome distribution", gap
    return "operator", layout_gap(circuit_unitary(qc, matrix_of), circuit_unitary(out, matrix_of), out)


def _check(subject, example, timing):
    namespace = _run(program(subject, example))
    qc, out, target = namespace["qc"], namespace["out"], namespace["target"]
    found = target_violations(out, target)
    assert not found, f"{subject} output does not conform to the target: {found[:5]}"
    what, gap = _implements(qc, out, oracle_matrix)
    assert gap < ATOL, f"{subject} changed the circuit's {what} (max deviation {gap:.3g}, global phase included)"
    if timing:
        late = timing_violations(out, target)
        assert not late, f"{subject} output breaks the target's timing constraints: {late[:5]}"
        kept, asked = idle_time(out, target.dt), idle_time(qc, target.dt)
        assert kept >= asked - 1e-6, (f"{subject} lost idle time the input asks for: its delays total {kept:g} dt, "
                                      f"the input's {asked:g} dt (scheduling only adds idle time)")


def _reproduce(subject, example, timing):
    helpers = (apply_qiskit_matrix, circuit_unitary, layout_gap, outcome_distribution, library_matrix,
               target_violations, timing_violations)
    code = (program(subject, example) + "\nimport math\n\n" +
            "\n\n".join(inspect.getsource(f) for f in helpers) + "\n\n" +
            "found = target_violations(out, target)\n"
            "assert not found, f'output does not conform to the target: {found}'\n")
    if any(op[0] == "measure" for op in example[1][3]):
        code += ("expected, actual = outcome_distribution(qc, library_matrix), outcome_distribution(out, library_matrix)\n"
                 "gap = np.max(np.abs(expected - actual)) if expected.shape == actual.shape else np.inf\n"
                 f"assert gap < {ATOL}, f'outcome distribution changed by {{gap}}: {{expected}} -> {{actual}}'\n")
    else:
        code += ("gap = layout_gap(circuit_unitary(qc, library_matrix), circuit_unitary(out, library_matrix), out)\n"
                 f"assert gap < {ATOL}, f'operator changed: max deviation {{gap}} after undoing the layout "
                 "(global phase included)'\n")
    if timing:
        code += ("\n" + inspect.getsource(idle_time) +
                 "late = timing_violations(out, target)\n"
                 "assert not late, f'output breaks the timing constraints: {late}'\n"
                 "kept, asked = idle_time(out, target.dt), idle_time(qc, target.dt)\n"
                 "assert kept >= asked - 1e-6, f'scheduling lost idle time: delays total {kept} dt, the input asked for {asked} dt'\n")
    return code


def _describe(subject, example):
    return program(subject, example).split("PassManager, Target\n", 1)[-1]


# -------------------------------------------------------------------------------------------

FAMILY = "transformation, synthesis, compilation"
SOURCE = ("documentation: transpile / generate_preset_pass_manager (the output conforms to the target and is "
          "equivalent to the input up to its TranspileLayout), Target (instruction_supported, "
          "build_coupling_map), UnitarySynthesis / HighLevelSynthesis / BasisTranslator / "
          "Optimize1qGatesDecomposition (target= : synthesize to the target's instructions), and quantum semantics")
TIMING_SOURCE = (SOURCE + "; TimingConstraints and qiskit.transpiler.passes.scheduling.alignments (gate start "
                 "times are multiples of pulse_alignment, measurement start times of acquire_alignment), "
                 "transpile(scheduling_method=) / ALAPScheduleAnalysis / ASAPScheduleAnalysis / PadDelay")

CONTRACTS = [
    Contract("qiskit.transform.compile-respects-target", FAMILY,
             "for a Target with drawn basis, coupling map, durations and timing constraints, every documented "
             "compilation route (transpile, generate_preset_pass_manager with target= or a GenericBackendV2, "
             "PassManagers of UnitarySynthesis / HighLevelSynthesis / BasisTranslator / "
             "Optimize1qGatesDecomposition with target=) returns a circuit that only uses operations the target "
             "supports on those qubits, acts on coupled qubits only, and implements the input: the same operator "
             "up to the output's layout (global phase included) or, with measurements, the same exact outcome "
             "distribution",
             SOURCE, _compile_subjects, _strategy, lambda s, e: _check(s, e, False),
             lambda s, e: _reproduce(s, e, False), _api, describe=_describe),
    Contract("qiskit.transform.schedule-respects-timing-constraints", FAMILY,
             "for a Target with drawn basis, coupling map, durations and timing constraints, scheduling "
             "(transpile / generate_preset_pass_manager with scheduling_method='alap'/'asap', or a PassManager "
             "with ALAP/ASAPScheduleAnalysis, ConstrainedReschedule and PadDelay) returns a circuit that conforms "
             "to the target, implements the input, and in which every gate starts at a multiple of "
             "pulse_alignment, every measurement at a multiple of acquire_alignment, every delay lasts a "
             "whole number of dt, and no idle time the input's delays ask for is lost",
             TIMING_SOURCE, _schedule_subjects, _strategy, lambda s, e: _check(s, e, True),
             lambda s, e: _reproduce(s, e, True), _api, describe=_describe),
]
