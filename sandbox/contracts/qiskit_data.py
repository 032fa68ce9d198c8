"""Representation conversion, measurement and result processing, execution — Qiskit.

Every law here is stated as a short standalone program over Qiskit's public API: the check runs
that program and the reproducer IS that program, so a reproducer fails exactly when the law is
violated. Expected values that must not come from the library under audit (DESIGN principle 4)
are computed by this module with numpy / oracle_core at check time and written into the program
as literals: probabilities, expectation values, entropies, partial traces, outcome distributions
of circuits with mid-circuit measurements. Round-trip laws compare a converted object with the
object it came from (a second route through the library).

Laws, each for a whole family of subjects enumerated from the live library:
  convert  - every round trip (DAG, instruction/gate, QASM 2, QASM 3 when an importer exists,
             QPY, copy, deepcopy) preserves the operator of circuits built around every gate
             class the library exports, global phase included where the format carries it;
           - the same round trips preserve name, metadata (without aliasing it), registers,
             parameters (identity and vector membership), global phase and instruction layout;
           - Pauli / SparsePauliOp / SparseObservable forms give the matrix of the Pauli sum;
           - Clifford forms (tableau, matrix, circuit, dict, labels) agree with the operator;
           - Statevector / DensityMatrix / StabilizerState forms agree with the exact state.
  result   - marginals of counts, distributions and memory equal counting by hand;
           - sampled_expectation_value equals the exact average, for every observable form;
           - BitArray operations equal the same operation on the unpacked bits;
           - probabilities and expectation values of states equal the exact ones;
           - information measures equal their textbook formulas.
  exec     - samplers and the basic simulator sample the Born-rule distribution (a G test);
           - StatevectorEstimator returns exact expectation values (precision 0) or values within
             the documented precision;
           - seeded runs repeat exactly; independent executions do not repeat each other;
           - every documented pub form gives the same result as the canonical form.
"""

import importlib
import inspect
import math

import numpy as np
import oracle_core
from contract_runtime import Contract, angles

ATOL = 1e-7
MAX_QUBITS = 5
# Two-sided G test threshold: a correct sampler fails one example in ~10^8.
P_VALUE_FLOOR = 1e-8

ANGLE_NAMES = {"theta", "phi", "lam", "gamma", "beta", "alpha", "angle", "delta", "lambda_"}
COUNT_NAMES = {"num_ctrl_qubits", "num_qubits", "num_target_qubits"}


def _st():
    from hypothesis import strategies as st

    return st


class LibraryPanic(RuntimeError):
    """A Rust panic inside the library (pyo3's PanicException derives from BaseException, which
    would escape the runtime's handling of errors the library raises)."""


def _run_program(program):
    """Runs a law program; its AssertionErrors are the law's violations."""
    namespace = {"__name__": "__main__"}
    try:
        exec(compile(program, "<law>", "exec"), namespace)  # noqa: S102 - the law program is ours
    except (Exception, KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:
        raise LibraryPanic(f"{type(exc).__name__}: {exc}") from exc
    return namespace


def _literal(value):
    """A Python literal for floats, complex numbers and nested lists that round-trips exactly."""
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_literal(v) for v in value) + "]"
    if isinstance(value, (bool, np.bool_)):
        return repr(bool(value))
    if isinstance(value, (complex, np.complexfloating)):
        return f"complex({float(value.real)!r}, {float(value.imag)!r})"
    if isinstance(value, (float, np.floating)):
        return repr(float(value))
    if isinstance(value, (int, np.integer)):
        return repr(int(value))
    return repr(value)


def _array_literal(array):
    array = np.asarray(array)
    return f"np.array({_literal(array.tolist())})"


# =============================================================================================
# Gate classes the library exports (the round-trip family is stated for each of them)

_GATE_CACHE = {}


def _gate_classes():
    """{class name: [(argument, 'angle' | 'count')]} for every concrete Gate class exported by
    qiskit.circuit.library whose required constructor arguments are angles or small counts."""
    if "classes" in _GATE_CACHE:
        return _GATE_CACHE["classes"]
    from qiskit.circuit import Gate, library

    found = {}
    for name in sorted(dir(library)):
        cls = getattr(library, name)
        if not (inspect.isclass(cls) and issubclass(cls, Gate) and not inspect.isabstract(cls)):
            continue
        try:
            parameters = list(inspect.signature(cls.__init__).parameters.items())[1:]
        except (TypeError, ValueError):
            continue
        required = []
        for argument, parameter in parameters:
            if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
                continue
            if parameter.default is not inspect.Parameter.empty:
                continue
            if argument in ANGLE_NAMES:
                required.append((argument, "angle"))
            elif argument in COUNT_NAMES:
                required.append((argument, "count"))
            else:
                required = None
                break
        if required is not None and _constructible(cls, required):
            found[name] = required
    _GATE_CACHE["classes"] = found
    return found


def _constructible(cls, required):
    """Whether the class builds from its required arguments alone (some classes' optional
    arguments default to None yet are needed: those are not generated here)."""
    try:
        cls(*[1 if kind == "count" else 0.5 for _, kind in required])
    except Exception:  # noqa: BLE001 - any failure means: not buildable from these arguments
        return False
    return True


def _standard_gate_classes():
    """Public classes of the library's standard gates (its gate-name registry) on <= 2 qubits:
    the filler gates drawn around the gate a round trip is about."""
    if "standard" in _GATE_CACHE:
        return _GATE_CACHE["standard"]
    from qiskit.circuit.library import get_standard_gate_name_mapping

    standard_names = {name for name, gate in get_standard_gate_name_mapping().items()
                      if gate.num_qubits and gate.num_qubits <= 2 and name not in ("measure", "reset", "delay")}
    chosen = []
    for name, arguments in _gate_classes().items():
        if any(kind == "count" for _, kind in arguments):
            continue
        gate = _construct(name, [0.5] * len(arguments))
        if gate.name in standard_names:
            chosen.append(name)
    _GATE_CACHE["standard"] = sorted(chosen)
    return _GATE_CACHE["standard"]


def _construct(class_name, arguments):
    from qiskit.circuit import library

    return getattr(library, class_name)(*arguments)


# =============================================================================================
# Circuit recipes: plain data that becomes both the circuit in the check and the source code of
# the reproducer. An operation is (class name, argument sources, modifier, qubits).

SYMBOLIC_FORMS = ["a", "-a", "2*a + 0.5", "a*b", "b - a/3", "v[0]", "v[1] + a"]


def _argument_source(kind, value, symbolic):
    if kind == "count":
        return repr(value)
    if symbolic is not None:
        return symbolic
    return repr(float(value))


def _gate_draw(class_name, allow_symbolic, allow_modifiers, allow_annotated=True):
    """Strategy of one operation of `class_name`: arguments (special angles first, symbolic
    expressions where the route carries parameters) and an optional modifier."""
    st = _st()
    arguments = _gate_classes()[class_name]
    parts = []
    for _, kind in arguments:
        if kind == "count":
            parts.append(st.tuples(st.just("count"), st.integers(1, 2), st.none()))
        else:
            symbolic = st.sampled_from(SYMBOLIC_FORMS) if allow_symbolic else st.nothing()
            parts.append(st.tuples(st.just("angle"), angles(), st.one_of(st.none(), symbolic)))
    modifiers = [st.just(("none",))]
    if allow_modifiers:
        modifiers += [st.just(("inverse",)),
                      st.tuples(st.just("power"), st.sampled_from([2, 3, -1, 0.5])),
                      st.tuples(st.just("control"), st.integers(1, 2), st.integers(0, 3))]
        if allow_annotated:
            modifiers.append(st.tuples(st.just("annotated-control"), st.integers(1, 2), st.integers(0, 3)))
    return st.tuples(st.just(class_name), st.tuples(*parts) if parts else st.just(()), st.one_of(*modifiers))


def _operation_source(class_name, parts, modifier):
    arguments = ", ".join(_argument_source(kind, value, symbolic) for kind, value, symbolic in parts)
    text = f"{class_name}({arguments})"
    if modifier[0] == "inverse":
        text += ".inverse()"
    elif modifier[0] == "power":
        text += f".power({modifier[1]!r})"
    elif modifier[0] in ("control", "annotated-control"):
        controls, state = modifier[1], modifier[2] % (2 ** modifier[1])
        annotated = ", annotated=True" if modifier[0] == "annotated-control" else ""
        text += f".control({controls}, ctrl_state={state}{annotated})"
    return text


def _operation_width(class_name, parts, modifier):
    gate = _construct(class_name, [value if kind == "count" else 0.5 for kind, value, _ in parts])
    extra = modifier[1] if modifier[0] in ("control", "annotated-control") else 0
    return gate.num_qubits + extra


def _is_symbolic(parts, modifier):
    return any(symbolic is not None for _, _, symbolic in parts)


def _recipe_strategy(subject_gate, allow_symbolic, allow_modifiers, allow_annotated=True):
    """A circuit around one operation of `subject_gate`: up to three standard filler gates on
    random qubits, a global phase, parameter values for every symbol used."""
    st = _st()

    @st.composite
    def recipe(draw):
        main = draw(_gate_draw(subject_gate, allow_symbolic, allow_modifiers, allow_annotated))
        name, parts, modifier = main
        if _is_symbolic(parts, modifier) and modifier[0] in ("power", "control", "annotated-control"):
            # a symbolic gate has no matrix to raise to a power or to control generically
            modifier = ("none",)
        width = _operation_width(name, parts, modifier)
        from hypothesis import assume

        assume(width <= MAX_QUBITS)
        n = min(MAX_QUBITS, max(width, draw(st.integers(1, 3))))
        operations = []
        fillers = draw(st.lists(_gate_draw(draw(st.sampled_from(_standard_gate_classes())), allow_symbolic, False),
                                max_size=3))
        position = draw(st.integers(0, len(fillers)))
        for filler in fillers:
            f_name, f_parts, f_modifier = filler
            f_width = _operation_width(f_name, f_parts, f_modifier)
            if f_width <= n:
                operations.append((f_name, f_parts, f_modifier, tuple(draw(st.permutations(range(n)))[:f_width])))
        operations.insert(min(position, len(operations)),
                          (name, parts, modifier, tuple(draw(st.permutations(range(n)))[:width])))
        phase = draw(angles())
        phase_symbolic = draw(st.one_of(st.none(), st.sampled_from(["a", "a + 1"]) if allow_symbolic else st.nothing()))
        values = {"a": draw(angles()), "b": draw(angles()), "v": [draw(angles()), draw(angles())]}
        return {"n": n, "operations": operations, "phase": phase, "phase_symbolic": phase_symbolic,
                "values": values}

    return recipe()


def _symbols_used(recipe):
    text = " ".join(_operation_source(name, parts, modifier) for name, parts, modifier, _ in recipe["operations"])
    text += " " + (recipe["phase_symbolic"] or "")
    names = set()
    for token in ("a", "b"):
        if any(part == token for part in _tokens(text)):
            names.add(token)
    if "v[" in text:
        names.add("v")
    return names


def _tokens(text):
    word = ""
    for ch in text:
        if ch.isalnum() or ch == "_":
            word += ch
        else:
            if word:
                yield word
            word = ""
    if word:
        yield word


def _recipe_source(recipe):
    """Source building `qc` (and `values`, the numbers to bind) from a recipe."""
    classes = sorted({name for name, _, _, _ in recipe["operations"]})
    symbols = _symbols_used(recipe)
    lines = ["import numpy as np",
             "from qiskit import QuantumCircuit",
             "from qiskit.circuit import Parameter, ParameterVector",
             f"from qiskit.circuit.library import {', '.join(classes)}"]
    if "a" in symbols:
        lines.append('a = Parameter("a")')
    if "b" in symbols:
        lines.append('b = Parameter("b")')
    if "v" in symbols:
        lines.append('v = ParameterVector("v", 2)')
    lines.append(f"qc = QuantumCircuit({recipe['n']})")
    phase = recipe["phase_symbolic"] if recipe["phase_symbolic"] else repr(float(recipe["phase"]))
    lines.append(f"qc.global_phase = {phase}")
    for name, parts, modifier, qubits in recipe["operations"]:
        lines.append(f"qc.append({_operation_source(name, parts, modifier)}, {list(qubits)})")
    values = recipe["values"]
    entries = []
    if "a" in symbols:
        entries.append(f'"a": {values["a"]!r}')
    if "b" in symbols:
        entries.append(f'"b": {values["b"]!r}')
    if "v" in symbols:
        entries += [f'"v[0]": {values["v"][0]!r}', f'"v[1]": {values["v"][1]!r}']
    lines.append("values = {" + ", ".join(entries) + "}")
    return "\n".join(lines) + "\n"


# =============================================================================================
# Round-trip routes. Each is source turning `qc` into `result`, and what the route carries.

QASM3_IMPORTER = "qiskit_qasm3_import"


def _has_module(name):
    try:
        importlib.import_module(name)
    except ImportError:
        return False
    return True


ROUTES = {
    "dag": "from qiskit.converters import circuit_to_dag, dag_to_circuit\n"
           "result = dag_to_circuit(circuit_to_dag(qc))\n",
    "instruction": "from qiskit.converters import circuit_to_instruction\n"
                   "result = QuantumCircuit(qc.num_qubits, qc.num_clbits, global_phase=0)\n"
                   "result.append(circuit_to_instruction(qc), result.qubits, result.clbits)\n",
    "gate": "from qiskit.converters import circuit_to_gate\n"
            "result = QuantumCircuit(qc.num_qubits, global_phase=0)\n"
            "result.append(circuit_to_gate(qc), result.qubits)\n",
    # The exporter writes Qiskit's extended qelib1.inc (sx, cp, ...); the documented way to read
    # such programs back is the legacy-compatibility configuration (qiskit.qasm2 docs, "Legacy
    # Compatibility"): the default loader is strict OpenQASM 2 and rejects those names.
    "qasm2": "from qiskit import qasm2\n"
             "result = qasm2.loads(qasm2.dumps(qc), include_path=qasm2.LEGACY_INCLUDE_PATH,\n"
             "                     custom_instructions=qasm2.LEGACY_CUSTOM_INSTRUCTIONS,\n"
             "                     custom_classical=qasm2.LEGACY_CUSTOM_CLASSICAL)\n",
    "qasm3": "from qiskit import qasm3\n"
             "result = qasm3.loads(qasm3.dumps(qc))\n",
    "qpy": "import io\n"
           "from qiskit import qpy\n"
           "buffer = io.BytesIO()\n"
           "qpy.dump(qc, buffer)\n"
           "buffer.seek(0)\n"
           "(result,) = qpy.load(buffer)\n",
    "copy": "result = qc.copy()\n",
    "deepcopy": "import copy\n"
                "result = copy.deepcopy(qc)\n",
}
# A round trip enters the library through both of its halves; naming both lets a finding
# count as public API and lets --focus see what the trip reaches.
ROUTE_API = {"dag": "qiskit.converters.circuit_to_dag / qiskit.converters.dag_to_circuit",
             "instruction": "qiskit.converters.circuit_to_instruction",
             "gate": "qiskit.converters.circuit_to_gate", "qasm2": "qiskit.qasm2.dumps / qiskit.qasm2.loads",
             "qasm3": "qiskit.qasm3.dumps / qiskit.qasm3.loads", "qpy": "qiskit.qpy.dump / qiskit.qpy.load",
             "copy": "qiskit.QuantumCircuit.copy", "deepcopy": "qiskit.QuantumCircuit.__deepcopy__"}
# OpenQASM 2 has neither a global phase nor symbolic parameters: those routes preserve the
# operator up to a global phase and are only given numeric circuits (qiskit.qasm2 docs).
PHASELESS_ROUTES = {"qasm2"}
NUMERIC_ROUTES = {"qasm2"}


def _routes():
    routes = [r for r in ROUTES if r != "qasm3"]
    if _has_module(QASM3_IMPORTER):
        routes.append("qasm3")  # qasm3.loads needs the optional importer package
    return routes


def _split(subject):
    route, _, gate = subject.partition(":")
    return route, gate


# Serialisers write each gate out by name and definition: one subject per (format, gate class).
# In-memory routes treat operations alike: one subject per route, the gate class drawn.
PER_GATE_ROUTES = ["qasm2", "qpy", "qasm3"]


def _operator_subjects():
    routes = _routes()
    per_gate = [f"{route}:{gate}" for route in PER_GATE_ROUTES if route in routes for gate in sorted(_gate_classes())]
    return per_gate + [route for route in routes if route not in PER_GATE_ROUTES]


def _operator_strategy(subject):
    st = _st()
    route, gate = _split(subject)
    symbolic = route not in NUMERIC_ROUTES
    # The OpenQASM 2 exporter's handling of AnnotatedOperation is a robustness question (it raises);
    # leaving annotated modifiers out of that route keeps the operator law exercised there.
    annotated = route not in PHASELESS_ROUTES
    circuits = (_recipe_strategy(gate, symbolic, True, annotated) if gate else
                st.sampled_from(sorted(_gate_classes())).flatmap(lambda g: _recipe_strategy(g, symbolic, True, annotated)))
    return circuits


OPERATOR_LAW = """
from qiskit.quantum_info import Operator


def bind(circuit):
    return circuit.assign_parameters({{p: values[p.name] for p in circuit.parameters}})


expected = Operator(bind(qc)).data
actual = Operator(bind(result)).data
assert actual.shape == expected.shape, f"the {route} round trip changed the width: {{actual.shape}} vs {{expected.shape}}"
{phase_handling}deviation = float(np.max(np.abs(actual - expected)))
assert deviation < {atol}, f"the {route} round trip changed the operator{qualifier}: max deviation {{deviation:.3g}}"
"""
PHASE_ALIGNMENT = ("# OpenQASM 2 carries no global phase: compare up to one\n"
                   "overlap = np.vdot(actual, expected)\n"
                   "actual = actual * (overlap / abs(overlap) if abs(overlap) > 0 else 1)\n")


def _operator_program(subject, recipe):
    route, _ = _split(subject)
    phaseless = route in PHASELESS_ROUTES
    law = OPERATOR_LAW.format(route=route, atol=ATOL, phase_handling=PHASE_ALIGNMENT if phaseless else "",
                              qualifier=" (up to global phase)" if phaseless else " (global phase included)")
    return _recipe_source(recipe) + ROUTES[route] + law


def _check_program(program_builder):
    def check(subject, example):
        _run_program(program_builder(subject, example))

    return check


def _describe_recipe(subject, recipe):
    lines = [line for line in _recipe_source(recipe).splitlines() if line.startswith(("qc", "values", "a =", "b =", "v ="))]
    return "; ".join(lines)


# =============================================================================================
# Structure: name, metadata, registers, parameters, global phase, instruction layout.

STRUCTURE_ROUTES = ["dag", "qpy", "copy", "deepcopy", "qasm2"]
# Routes documented to carry the circuit's Python-side data (name, metadata, parameter objects);
# OpenQASM 2 carries registers and instructions only.
FULL_DATA_ROUTES = {"dag", "qpy", "copy", "deepcopy", "qasm3"}
CONTROL_FLOW_ROUTES = {"dag", "qpy", "copy", "deepcopy"}


def _structure_subjects():
    routes = list(STRUCTURE_ROUTES)
    if _has_module(QASM3_IMPORTER):
        routes.append("qasm3")
    return routes


def _structure_strategy(route):
    st = _st()
    numeric = route in NUMERIC_ROUTES
    register_sizes = st.lists(st.integers(1, 2), min_size=1, max_size=2)
    names = st.sampled_from(["q", "data", "anc", "reg_1", "a2"])
    gates = st.sampled_from(["h", "x", "sx", "cx", "cz", "rz", "ry", "rzz", "measure", "reset", "barrier"])
    return st.fixed_dictionaries({
        "qregs": register_sizes, "cregs": register_sizes,
        "qreg_names": st.lists(names, min_size=2, max_size=2, unique=True),
        "creg_names": st.lists(st.sampled_from(["c", "meas", "out", "flag"]), min_size=2, max_size=2, unique=True),
        "name": st.sampled_from(["circuit_7", "bell", "my circuit", "x"]),
        "metadata": st.sampled_from([{}, {"tags": [1, 2]}, {"experiment": {"shots": 100, "labels": ["a"]}}]),
        "phase": angles(), "symbolic_phase": st.booleans() if not numeric else st.just(False),
        "operations": st.lists(st.tuples(gates, st.integers(0, 3), st.integers(0, 3), angles(),
                                         st.booleans() if not numeric else st.just(False)), max_size=6),
        "control_flow": st.booleans() if route in CONTROL_FLOW_ROUTES else st.just(False),
        "values": st.lists(angles(), min_size=3, max_size=3),
    })


def _structure_source(example):
    lines = ["import numpy as np",
             "from qiskit import QuantumCircuit, QuantumRegister, ClassicalRegister",
             "from qiskit.circuit import Parameter, ParameterVector",
             'theta = Parameter("theta")',
             'w = ParameterVector("w", 2)']
    qregs = [f'QuantumRegister({size}, "{name}")' for size, name in zip(example["qregs"], example["qreg_names"])]
    cregs = [f'ClassicalRegister({size}, "{name}")' for size, name in zip(example["cregs"], example["creg_names"])]
    phase = "theta + 0.5" if example["symbolic_phase"] else repr(float(example["phase"]))
    lines.append(f"qc = QuantumCircuit({', '.join(qregs + cregs)}, name={example['name']!r}, "
                 f"metadata={example['metadata']!r}, global_phase={phase})")
    n, m = sum(example["qregs"]), sum(example["cregs"])
    symbols = ["theta", "w[0]", "2*w[1] - theta"]
    for index, (gate, first, second, angle, symbolic) in enumerate(example["operations"]):
        q0, q1 = first % n, second % n
        if gate in ("cx", "cz", "rzz") and q0 == q1:
            if n == 1:
                continue
            q1 = (q0 + 1) % n
        value = symbols[index % 3] if symbolic else repr(float(angle))
        if gate == "measure":
            lines.append(f"qc.measure({q0}, {second % m})")
        elif gate == "reset":
            lines.append(f"qc.reset({q0})")
        elif gate == "barrier":
            lines.append("qc.barrier()")
        elif gate in ("rz", "ry"):
            lines.append(f"qc.{gate}({value}, {q0})")
        elif gate == "rzz":
            lines.append(f"qc.rzz({value}, {q0}, {q1})")
        elif gate in ("cx", "cz"):
            lines.append(f"qc.{gate}({q0}, {q1})")
        else:
            lines.append(f"qc.{gate}({q0})")
    if example["control_flow"]:
        lines.append(f"qc.measure(0, {m - 1})")
        lines.append(f"with qc.if_test((qc.clbits[{m - 1}], 1)) as else_:\n    qc.x(0)\nwith else_:\n    qc.h({n - 1})")
    values = example["values"]
    lines.append(f'values = {{"theta": {values[0]!r}, "w[0]": {values[1]!r}, "w[1]": {values[2]!r}}}')
    return "\n".join(lines) + "\n"


STRUCTURE_LAW_COMMON = """

def layout(circuit, kept=None):
    # the instructions on each wire, in order: a DAG may reorder instructions on disjoint wires,
    # nothing may change the order along one wire
    wires = {{}}
    for item in circuit.data:
        if kept is not None and item.operation.name not in kept:
            continue
        qubits = [circuit.find_bit(q).index for q in item.qubits]
        clbits = [circuit.find_bit(c).index for c in item.clbits]
        entry = (item.operation.name, qubits, clbits, [str(p) for p in item.operation.params])
        for wire in [("q", q) for q in qubits] + [("c", c) for c in clbits]:
            wires.setdefault(wire, []).append(entry)
    return wires


def registers(found):
    return [(type(r).__name__, r.name, r.size) for r in found]


assert registers(result.qregs) == registers(qc.qregs), f"{route} changed the quantum registers: {{registers(result.qregs)}} vs {{registers(qc.qregs)}}"
assert registers(result.cregs) == registers(qc.cregs), f"{route} changed the classical registers: {{registers(result.cregs)}} vs {{registers(qc.cregs)}}"
assert (result.num_qubits, result.num_clbits) == (qc.num_qubits, qc.num_clbits), "{route} changed the number of bits"
"""
STRUCTURE_LAW_QASM2 = """
kept = ("measure", "reset", "barrier")
assert layout(result, kept) == layout(qc, kept), (
    f"{route} moved measurements, resets or barriers: {{layout(result, kept)}} vs {{layout(qc, kept)}}")
"""
STRUCTURE_LAW_FULL = """
assert layout(result) == layout(qc), f"{route} changed the instructions along some wire: {{layout(result)}} vs {{layout(qc)}}"
assert result.name == qc.name, f"{route} changed the name: {{result.name!r}} vs {{qc.name!r}}"
assert result.metadata == qc.metadata, f"{route} changed the metadata: {{result.metadata!r}} vs {{qc.metadata!r}}"
assert set(result.parameters) == set(qc.parameters), f"{route} changed the parameters: {{list(result.parameters)}} vs {{list(qc.parameters)}}"
vector_entries = sorted((p.vector.name, p.index) for p in result.parameters if hasattr(p, "vector"))
assert vector_entries == sorted((p.vector.name, p.index) for p in qc.parameters if hasattr(p, "vector")), (
    "{route} lost ParameterVector membership of parameters")
bound_phase = float(result.assign_parameters({{p: values[p.name] for p in result.parameters}}).global_phase)
original_phase = float(qc.assign_parameters({{p: values[p.name] for p in qc.parameters}}).global_phase)
assert abs(cmath.exp(1j * bound_phase) - cmath.exp(1j * original_phase)) < 1e-9, (
    f"{route} changed the global phase: {{bound_phase}} vs {{original_phase}}")
"""
OWNERSHIP_LAW = """
# the converted circuit owns its metadata: changing it leaves the original alone
snapshot = copy.deepcopy(qc.metadata)
{nested}result.metadata["added"] = 1
assert qc.metadata == snapshot, f"changing the metadata of the {route} result changed the original: {{qc.metadata!r}}"
"""
# Nested values are changed too only where the docs promise a deep copy; elsewhere a new
# top-level dict (a shallow copy) is all a caller may count on.
OWNERSHIP_NESTED = """for value in result.metadata.values():
    if isinstance(value, list):
        value.append("changed")
    elif isinstance(value, dict):
        value["changed"] = True
"""
DEEP_COPY_ROUTES = {"copy", "deepcopy"}


def _describe_structure(route, example):
    return "; ".join(line for line in _structure_source(example).splitlines() if line.startswith(("qc", "with", "    qc")))


def _structure_program(route, example):
    law = STRUCTURE_LAW_COMMON + (STRUCTURE_LAW_FULL if route in FULL_DATA_ROUTES else STRUCTURE_LAW_QASM2)
    return ("import cmath\nimport copy\n" + _structure_source(example) + ROUTES[route]
            + law.format(route=route))


def _ownership_subjects():
    return [route for route in _structure_subjects() if route in FULL_DATA_ROUTES]


def _ownership_strategy(route):
    """Circuits with nested metadata, the values whose aliasing is in question."""
    st = _st()
    return st.tuples(_structure_strategy(route), st.sampled_from([{"tags": [1, 2]}, {"experiment": {"shots": 100}}])).map(
            lambda pair: dict(pair[0], metadata=pair[1]))


def _ownership_program(route, example):
    nested = OWNERSHIP_NESTED if route in DEEP_COPY_ROUTES else ""
    return ("import copy\n" + _structure_source(example) + ROUTES[route]
            + OWNERSHIP_LAW.format(route=route, nested=nested))


# =============================================================================================
# Pauli-sum representations against numpy Kronecker products

PAULI_FORMS = ["Pauli.to_matrix", "Pauli.to_matrix(sparse=True)", "Operator(Pauli)", "Pauli.to_label",
               "Pauli(circuit)", "SparsePauliOp.to_matrix", "SparsePauliOp.to_matrix(sparse=True)",
               "SparsePauliOp.to_operator", "SparsePauliOp.from_operator", "SparsePauliOp.from_sparse_list",
               "SparsePauliOp.simplify", "SparsePauliOp.from_list", "SparseObservable.from_sparse_pauli_op",
               "SparseObservable.from_list", "PauliList.to_labels"]
PHASE_PREFIXES = {"": 1, "-": -1, "i": 1j, "-i": -1j}
COEFFICIENTS = [1.0, -1.0, 0.5, 2.0, 1j, -0.25j, 0.0, 1.5 - 0.5j, 1e-3]


def _pauli_strategy(form):
    st = _st()
    n = st.integers(1, 4)
    return n.flatmap(lambda k: st.fixed_dictionaries({
        "n": st.just(k),
        "prefix": st.sampled_from(list(PHASE_PREFIXES)),
        "terms": st.lists(st.tuples(st.text("IXYZ", min_size=k, max_size=k), st.sampled_from(COEFFICIENTS)),
                          min_size=1, max_size=4)}))


PAULI_MATRIX_SOURCE = """
single = {{"I": np.eye(2), "X": np.array([[0, 1], [1, 0]]), "Y": np.array([[0, -1j], [1j, 0]]),
          "Z": np.diag([1, -1])}}


def kron_label(label):
    # the leftmost character acts on the highest qubit: Kronecker order is label order
    matrix = np.eye(1)
    for ch in label:
        matrix = np.kron(matrix, single[ch])
    return matrix


terms = {terms!r}
expected = sum(c * kron_label(label) for label, c in terms)
"""


def _pauli_program(form, example):
    prefix, terms = example["prefix"], example["terms"]
    head = ("import numpy as np\n"
            + _quantum_info_import("Pauli", "PauliList", "SparsePauliOp", "SparseObservable", "Operator"))
    if form.startswith(("Pauli", "Operator(Pauli)")) and not form.startswith("PauliList"):
        label, _ = terms[0]
        body = PAULI_MATRIX_SOURCE.format(terms=[(label, PHASE_PREFIXES[prefix])])
        body += f"pauli = Pauli({prefix + label!r})\n"
        actual = {"Pauli.to_matrix": "pauli.to_matrix()",
                  "Pauli.to_matrix(sparse=True)": "pauli.to_matrix(sparse=True).toarray()",
                  "Operator(Pauli)": "Operator(pauli).data",
                  "Pauli.to_label": "Pauli(pauli.to_label()).to_matrix()",
                  "Pauli(circuit)": "Pauli(pauli.to_instruction()).to_matrix()"}[form]
        if form == "Pauli(circuit)":
            # a Pauli's instruction drops nothing but the phase: compare the phase-free part
            body = PAULI_MATRIX_SOURCE.format(terms=[(label, 1)]) + f"pauli = Pauli({label!r})\n"
    elif form == "PauliList.to_labels":
        labels = [prefix + label for label, _ in terms]
        body = (f"labels = {labels!r}\n"
                "round_trip = PauliList(PauliList(labels).to_labels())\n"
                "for label, pauli in zip(labels, round_trip):\n"
                "    deviation = np.max(np.abs(pauli.to_matrix() - Pauli(label).to_matrix()))\n"
                "    assert deviation < 1e-12, f'PauliList.to_labels changed {label}: now {pauli}'\n"
                "assert len(round_trip) == len(labels)\n")
        return head + body
    else:
        body = PAULI_MATRIX_SOURCE.format(terms=terms)
        pairs = [(label, c) for label, c in terms]
        body += f"op = SparsePauliOp.from_list({pairs!r}, num_qubits={example['n']})\n"
        sparse_list = [("".join(ch for ch in label if ch != "I"),
                        [len(label) - 1 - i for i, ch in enumerate(label) if ch != "I"], c) for label, c in terms]
        actual = {"SparsePauliOp.to_matrix": "op.to_matrix()",
                  "SparsePauliOp.to_matrix(sparse=True)": "op.to_matrix(sparse=True).toarray()",
                  "SparsePauliOp.to_operator": "op.to_operator().data",
                  "SparsePauliOp.from_operator": "SparsePauliOp.from_operator(Operator(expected)).to_matrix()",
                  "SparsePauliOp.from_sparse_list":
                      f"SparsePauliOp.from_sparse_list({sparse_list!r}, num_qubits={example['n']}).to_matrix()",
                  "SparsePauliOp.simplify": "op.simplify().to_matrix()",
                  "SparsePauliOp.from_list": "op.to_matrix()",
                  "SparseObservable.from_sparse_pauli_op":
                      "SparsePauliOp.from_sparse_list(SparseObservable.from_sparse_pauli_op(op).to_sparse_list(), "
                      f"num_qubits={example['n']}).to_matrix()",
                  "SparseObservable.from_list":
                      f"SparsePauliOp.from_sparse_list(SparseObservable.from_list({pairs!r}).to_sparse_list(), "
                      f"num_qubits={example['n']}).to_matrix()"}[form]
    body += (f"actual = np.asarray({actual})\n"
             "assert actual.shape == expected.shape, f'shape {actual.shape}, expected {expected.shape}'\n"
             "deviation = float(np.max(np.abs(actual - expected)))\n"
             f"assert deviation < 1e-10, f'{form} gives a matrix off by {{deviation:.3g}} from the Pauli sum'\n")
    return head + body


# =============================================================================================
# Clifford representations against the circuit's operator

CLIFFORD_GATES = {"h": 1, "s": 1, "sdg": 1, "x": 1, "y": 1, "z": 1, "sx": 1, "sxdg": 1, "id": 1,
                  "cx": 2, "cz": 2, "cy": 2, "swap": 2, "iswap": 2, "dcx": 2, "ecr": 2}
CLIFFORD_FORMS = ["Clifford.to_operator", "Clifford.to_matrix", "Clifford.to_circuit", "Clifford.from_operator",
                  "Clifford.to_dict", "Clifford.to_labels", "Clifford.compose", "Clifford.adjoint",
                  "Clifford.power", "Clifford.tensor", "StabilizerState.probabilities_dict"]


def _clifford_circuit_on(n):
    st = _st()
    return st.tuples(st.just(n), st.lists(st.tuples(st.sampled_from(sorted(CLIFFORD_GATES)), st.permutations(range(n))),
                                          max_size=8))


def _clifford_ops(circuit):
    n, operations = circuit
    return [(gate, qubits[:CLIFFORD_GATES[gate]]) for gate, qubits in operations
            if CLIFFORD_GATES[gate] <= n]


def _clifford_source(circuit, name="qc"):
    n, _ = circuit
    lines = [f"{name} = QuantumCircuit({n})"]
    lines += [f"{name}.{gate}({', '.join(map(str, qubits))})" for gate, qubits in _clifford_ops(circuit)]
    return "\n".join(lines) + "\n"


def _clifford_strategy(form):
    """Two Clifford circuits on the same 1-3 qubits (compose, tensor) and an exponent (power)."""
    st = _st()
    # GroupMixin.power documents n > 0
    return st.integers(1, 3).flatmap(lambda n: st.tuples(_clifford_circuit_on(n), _clifford_circuit_on(n),
                                                         st.integers(1, 4)))


EQUAL_UP_TO_PHASE = """

def assert_equal_up_to_phase(actual, expected, what):
    actual, expected = np.asarray(actual), np.asarray(expected)
    assert actual.shape == expected.shape, f"{what}: shape {actual.shape}, expected {expected.shape}"
    overlap = np.vdot(actual, expected)
    phase = overlap / abs(overlap) if abs(overlap) > 1e-12 else 1
    deviation = float(np.max(np.abs(actual * phase - expected)))
    assert deviation < 1e-9, f"{what} differs from the expected operator by {deviation:.3g} (up to global phase)"

"""


def _clifford_program(form, example):
    first, second, exponent = example
    head = ("import numpy as np\nfrom qiskit import QuantumCircuit\n"
            "from qiskit.quantum_info import Clifford, Operator, Pauli, StabilizerState, Statevector\n" + EQUAL_UP_TO_PHASE)
    head += _clifford_source(first)
    # Clifford tableaux carry no global phase (Clifford docs): comparisons are up to one.
    body = {
        "Clifford.to_operator": "assert_equal_up_to_phase(Clifford(qc).to_operator().data, Operator(qc).data, 'Clifford(qc).to_operator()')\n",
        "Clifford.to_matrix": "assert_equal_up_to_phase(Clifford(qc).to_matrix(), Operator(qc).data, 'Clifford(qc).to_matrix()')\n",
        "Clifford.to_circuit": "assert_equal_up_to_phase(Operator(Clifford(qc).to_circuit()).data, Operator(qc).data, 'Clifford(qc).to_circuit()')\n",
        "Clifford.from_operator": "assert Clifford.from_operator(Operator(qc)) == Clifford(qc), 'Clifford.from_operator(Operator(qc)) != Clifford(qc)'\n",
        "Clifford.to_dict": "assert Clifford.from_dict(Clifford(qc).to_dict()) == Clifford(qc), 'Clifford.from_dict(to_dict()) changed the Clifford'\n",
        # stabilizer i is U Z_i U^dag and destabilizer i is U X_i U^dag, signs included
        "Clifford.to_labels": "u = Operator(qc).data\n"
                              "n = qc.num_qubits\n"
                              "for mode, pauli in (('S', 'Z'), ('D', 'X')):\n"
                              "    labels = Clifford(qc).to_labels(mode=mode)\n"
                              "    for i, label in enumerate(labels):\n"
                              "        single = Pauli('I' * (n - 1 - i) + pauli + 'I' * i).to_matrix()\n"
                              "        expected = u @ single @ u.conj().T\n"
                              "        deviation = float(np.max(np.abs(Pauli(label).to_matrix() - expected)))\n"
                              "        assert deviation < 1e-9, f'to_labels(mode={mode!r})[{i}] = {label} is not U {pauli}_{i} U^dag'\n",
        "Clifford.compose": _clifford_source(second, "other"),
        "Clifford.adjoint": "assert_equal_up_to_phase(Clifford(qc).adjoint().to_matrix(), Operator(qc).adjoint().data, 'Clifford(qc).adjoint()')\n",
        "Clifford.power": f"assert_equal_up_to_phase(Clifford(qc).power({exponent}).to_matrix(), Operator(qc).power({exponent}).data, 'Clifford(qc).power({exponent})')\n",
        "Clifford.tensor": _clifford_source(second, "other") + "assert_equal_up_to_phase(Clifford(qc).tensor(Clifford(other)).to_matrix(), Operator(qc).tensor(Operator(other)).data, 'Clifford.tensor')\n",
        "StabilizerState.probabilities_dict": "expected = Statevector(qc).probabilities_dict()\n"
                                              "actual = StabilizerState(qc).probabilities_dict()\n"
                                              "keys = set(expected) | set(actual)\n"
                                              "worst = max(abs(expected.get(k, 0) - actual.get(k, 0)) for k in keys)\n"
                                              "assert worst < 1e-9, f'StabilizerState probabilities {actual} vs statevector {expected}'\n",
    }[form]
    if form == "Clifford.compose":
        body += ("assert_equal_up_to_phase(Clifford(qc).compose(Clifford(other)).to_matrix(), "
                 "Operator(qc).compose(Operator(other)).data, 'Clifford.compose')\n")
    return head + body


# =============================================================================================
# Evolution of Pauli-type objects by conjugation, against numpy's U^dagger P U / U P U^dagger

# The gate classes of the Clifford gate names (a gate instance is one form of `other`).
CLIFFORD_GATE_CLASSES = {"h": "HGate", "s": "SGate", "sdg": "SdgGate", "x": "XGate", "y": "YGate", "z": "ZGate",
                         "sx": "SXGate", "sxdg": "SXdgGate", "id": "IGate", "cx": "CXGate", "cz": "CZGate",
                         "cy": "CYGate", "swap": "SwapGate", "iswap": "iSwapGate", "dcx": "DCXGate", "ecr": "ECRGate"}
# Documented forms of `other`, per class with an `evolve` (Pauli, PauliList: "Pauli or Clifford or
# QuantumCircuit", gate instances through the Instruction branch of the same method;
# SparseObservable: a single Pauli only, Heisenberg picture).
EVOLVE_OTHER_FORMS = {"Pauli": ["Gate", "QuantumCircuit", "Clifford", "Pauli"],
                      "PauliList": ["Gate", "QuantumCircuit", "Clifford", "Pauli"],
                      "SparseObservable": ["Pauli"]}
EVOLVE_MAX_QUBITS = 4
# SparseObservable's single-qubit alphabet: Paulis and the projectors onto their eigenstates.
OBSERVABLE_LETTERS = "IXYZ+-rl01"
GLOBAL_PHASES = [0.0, 0.5, math.pi / 2, math.pi, -math.pi / 4]


def _evolve_split(subject):
    owner, form = subject.split(".evolve(")
    return owner, form[:-1]


def _evolve_subjects():
    """`<class>.evolve(<form of other>)` for each public Pauli-type class of the release that has
    a documented `evolve`. Raises (ImportError / AttributeError) only here, never at import."""
    quantum_info = importlib.import_module("qiskit.quantum_info")
    found = []
    for owner, forms in EVOLVE_OTHER_FORMS.items():
        cls = getattr(quantum_info, owner, None)
        if cls is None or not callable(getattr(cls, "evolve", None)):
            continue  # SparseObservable.evolve is recent; SparseObservable itself is too
        found += [f"{owner}.evolve({form})" for form in forms]
    if not found:
        raise AttributeError("qiskit.quantum_info has no Pauli-type class with evolve")
    return found


def _evolve_strategy(subject):
    st = _st()
    owner, form = _evolve_split(subject)

    @st.composite
    def example(draw):
        n = draw(st.integers(1, EVOLVE_MAX_QUBITS))
        paulis, terms, frame = None, None, None
        if owner == "SparseObservable":
            terms = draw(st.lists(st.tuples(st.text(OBSERVABLE_LETTERS, min_size=n, max_size=n),
                                            st.sampled_from(COEFFICIENTS)), min_size=1, max_size=3))
        else:
            # up to 5 Paulis: PauliList.evolve by a Clifford takes another route once 2n <= length
            count = 1 if owner == "Pauli" else draw(st.integers(1, 5))
            paulis = draw(st.lists(st.tuples(st.sampled_from(list(PHASE_PREFIXES)), st.text("IXYZ", min_size=n, max_size=n)),
                                   min_size=count, max_size=count))
            frame = draw(st.sampled_from([None, "h", "s"]))  # None: the default frame
        if form == "Gate":
            gate = draw(st.sampled_from(sorted(g for g, w in CLIFFORD_GATES.items() if w <= n)))
            k, other = CLIFFORD_GATES[gate], gate
        elif form == "Pauli":
            k = draw(st.integers(1, n))
            other = (draw(st.sampled_from(list(PHASE_PREFIXES))), draw(st.text("IXYZ", min_size=k, max_size=k)))
        else:  # a circuit of Clifford gates (empty included), given as is or as a Clifford
            k = draw(st.integers(1, n))
            operations = draw(st.lists(st.tuples(st.sampled_from(sorted(CLIFFORD_GATES) + ["barrier"]),
                                                 st.permutations(range(k))), max_size=6))
            other = (k, operations, draw(st.sampled_from(GLOBAL_PHASES)))
        if k == n:
            qargs = draw(st.one_of(st.none(), st.permutations(range(n)).map(list)))
        else:
            qargs = draw(st.permutations(range(n)))[:k]
        return {"n": n, "paulis": paulis, "terms": terms, "form": form, "other": other,
                "qargs": None if qargs is None else [int(q) for q in qargs], "frame": frame}

    return example()


def _evolve_circuit_ops(other):
    k, operations, _ = other
    ops = []
    for gate, qubits in operations:
        if gate == "barrier":
            ops.append(("barrier", tuple(range(k))))
        elif CLIFFORD_GATES[gate] <= k:
            ops.append((gate, tuple(qubits[:CLIFFORD_GATES[gate]])))
    return ops


def _evolve_other_source(example):
    """Source defining `other` (and `qc` for circuits), and the names to import."""
    form, other = example["form"], example["other"]
    if form == "Gate":
        return f"other = {CLIFFORD_GATE_CLASSES[other]}()\n", [CLIFFORD_GATE_CLASSES[other]]
    if form == "Pauli":
        return f"other = Pauli({other[0] + other[1]!r})\n", []
    k, _, phase = other
    lines = [f"qc = QuantumCircuit({k}, global_phase={float(phase)!r})"]
    for gate, qubits in _evolve_circuit_ops(other):
        lines.append("qc.barrier()" if gate == "barrier" else f"qc.{gate}({', '.join(map(str, qubits))})")
    lines.append("other = Clifford(qc)" if form == "Clifford" else "other = qc")
    return "\n".join(lines) + "\n", []


def _evolve_unitary(example):
    """The n-qubit matrix of `other` placed on qargs, from the gates' own matrices (qubit 0 least
    significant); global phases are left out: conjugation does not see them."""
    n, form, other = example["n"], example["form"], example["other"]
    place = list(range(n)) if example["qargs"] is None else example["qargs"]
    if form == "Gate":
        ops = [(other, (), tuple(place[:CLIFFORD_GATES[other]]))]
    elif form == "Pauli":
        ops = [(ch.lower(), (), (place[i],)) for i, ch in enumerate(reversed(other[1])) if ch != "I"]
    else:
        ops = [(gate, (), tuple(place[q] for q in qubits)) for gate, qubits in _evolve_circuit_ops(other)
               if gate != "barrier"]
    return oracle_core.unitary(ops, n)


def _kron_pauli(label):
    matrix = np.eye(1, dtype=complex)
    for ch in label:
        matrix = np.kron(matrix, oracle_core.PAULI_MATRICES[ch])
    return matrix


def _as_pauli(matrix, n):
    """(c, label) with matrix = c * label, for a matrix that is a phase times a Pauli string."""
    import itertools

    for letters in itertools.product("IXYZ", repeat=n):
        label = "".join(letters)
        pauli = _kron_pauli(label)
        coefficient = np.trace(pauli @ matrix) / 2 ** n
        if abs(coefficient) > 0.5:
            phase = min((1, -1, 1j, -1j), key=lambda c: abs(c - coefficient))
            if np.max(np.abs(matrix - phase * pauli)) > 1e-9:
                break
            return phase, label
    raise ValueError("the conjugated matrix is not a Pauli string: the oracle's gates are not Clifford")


COEFFICIENT_SOURCE = {1: "1", -1: "-1", 1j: "1j", -1j: "-1j"}

EVOLVE_KRON_SOURCE = """
single = {{"I": np.eye(2), "X": np.array([[0, 1], [1, 0]]), "Y": np.array([[0, -1j], [1j, 0]]),
          "Z": np.diag([1, -1]){projectors}}}


def kron_label(label):
    # the leftmost character acts on the highest qubit: Kronecker order is label order
    matrix = np.eye(1)
    for ch in label:
        matrix = np.kron(matrix, single[ch])
    return matrix

"""
PROJECTOR_ENTRIES = (',\n          "+": np.array([[1, 1], [1, 1]]) / 2, "-": np.array([[1, -1], [-1, 1]]) / 2,'
                     '\n          "r": np.array([[1, -1j], [1j, 1]]) / 2, "l": np.array([[1, 1j], [-1j, 1]]) / 2,'
                     '\n          "0": np.diag([1, 0]), "1": np.diag([0, 1])')


def _evolve_call(example, target):
    arguments = ["other"]
    if example["qargs"] is not None:
        arguments.append(f"qargs={example['qargs']!r}")
    if example["frame"] is not None:
        arguments.append(f"frame={example['frame']!r}")
    return f"{target}.evolve({', '.join(arguments)})"


def _evolve_frame_text(example):
    if example["frame"] == "s":
        return "Schrodinger frame: C.P.C^dagger"
    return "Heisenberg frame" + (", the default" if example["frame"] is None else "") + ": C^dagger.P.C"


def _evolve_program(subject, example):
    owner, form = _evolve_split(subject)
    n = example["n"]
    other_source, gate_classes = _evolve_other_source(example)
    head = "import numpy as np\nfrom qiskit import QuantumCircuit\n"
    if gate_classes:
        head += f"from qiskit.circuit.library import {', '.join(gate_classes)}\n"
    head += f"from qiskit.quantum_info import Clifford, Pauli{'' if owner == 'Pauli' else ', ' + owner}\n"
    head += EVOLVE_KRON_SOURCE.format(projectors=PROJECTOR_ENTRIES if owner == "SparseObservable" else "")
    head += other_source
    unitary = _evolve_unitary(example)
    if owner == "SparseObservable":
        terms = [(label, c) for label, c in example["terms"]]
        place = list(range(n)) if example["qargs"] is None else example["qargs"]
        placed = ["I"] * n
        for i, ch in enumerate(reversed(example["other"][1])):
            placed[n - 1 - place[i]] = ch
        coefficient = COEFFICIENT_SOURCE[PHASE_PREFIXES[example["other"][0]]]
        call = _evolve_call(example, "observable")
        return head + (
            f"terms = {terms!r}\n"
            f"observable = SparseObservable.from_list(terms, num_qubits={n})\n"
            f"result = {call}\n"
            f"# P^dagger.O.P with P = other placed on qubits {place} (computed with numpy)\n"
            f"conjugator = {coefficient} * kron_label({''.join(placed)!r})\n"
            "expected = conjugator.conj().T @ sum(c * kron_label(label) for label, c in terms) @ conjugator\n"
            f"actual = np.zeros((2 ** {n}, 2 ** {n}), dtype=complex)\n"
            "for letters, indices, c in result.to_sparse_list():\n"
            f"    label = ['I'] * {n}\n"
            "    for ch, q in zip(letters, indices):\n"
            f"        label[{n - 1} - q] = ch\n"
            "    actual = actual + c * kron_label(''.join(label))\n"
            "deviation = float(np.max(np.abs(actual - expected)))\n"
            f"assert deviation < 1e-10, f'{call} is {{result}}: off by {{deviation:.3g}} from P^dagger.O.P'\n")
    expectations = []
    for prefix, label in example["paulis"]:
        matrix = PHASE_PREFIXES[prefix] * _kron_pauli(label)
        if example["frame"] == "s":
            evolved = unitary @ matrix @ unitary.conj().T
        else:
            evolved = unitary.conj().T @ matrix @ unitary
        expectations.append(_as_pauli(evolved, n))
    frame = _evolve_frame_text(example)
    expected = "[" + ", ".join(f"({COEFFICIENT_SOURCE[c]}, {label!r})" for c, label in expectations) + "]"
    labels = [prefix + label for prefix, label in example["paulis"]]
    target = f"Pauli({labels[0]!r})" if owner == "Pauli" else f"PauliList({labels!r})"
    call = _evolve_call(example, target)
    body = (f"call = {call!r}\n"
            f"result = {call}\n"
            f"# {frame}{' of each Pauli' if owner == 'PauliList' else ''}, computed from the gate matrices "
            "with numpy, as (coefficient, Pauli label):\n"
            f"expected = {expected}\n")
    if owner == "Pauli":
        body += "evolved = [result]\n"
    else:
        body += (f"assert len(result) == len(expected), f'{{call}} has {{len(result)}} Paulis, expected {len(labels)}'\n"
                 "evolved = [result[i] for i in range(len(result))]\n")
    body += ("for i, ((c, label), actual) in enumerate(zip(expected, evolved)):\n"
             "    deviation = float(np.max(np.abs(np.asarray(actual.to_matrix()) - c * kron_label(label))))\n"
             f"    assert deviation < 1e-10, f'{{call}}{'[{i}]' if owner == 'PauliList' else ''} is {{actual}}, "
             f"expected {{c}}*{{label}} ({frame})'\n")
    return head + body


def _describe_evolve(subject, example):
    program = _evolve_program(subject, example)
    keep = ("qc", "other =", "terms =", "observable =", "result =")
    return "; ".join(line for line in program.splitlines() if line.startswith(keep))


# =============================================================================================
# States: Statevector / DensityMatrix / StabilizerState forms against oracle_core's simulation

STATE_GATES = {"h": (1, 0), "x": (1, 0), "y": (1, 0), "s": (1, 0), "t": (1, 0), "sx": (1, 0), "rx": (1, 1),
               "ry": (1, 1), "rz": (1, 1), "p": (1, 1), "u": (1, 3), "cx": (2, 0), "cz": (2, 0), "cp": (2, 1),
               "crx": (2, 1), "rzz": (2, 1), "rxx": (2, 1), "swap": (2, 0), "iswap": (2, 0), "ccx": (3, 0)}


def _state_circuit_strategy(max_qubits=4, gates=None, min_qubits=1):
    st = _st()
    pool = sorted(gates or STATE_GATES)
    return st.integers(min_qubits, max_qubits).flatmap(lambda n: st.tuples(st.just(n), st.lists(
        st.tuples(st.sampled_from(pool), st.permutations(range(n)), st.lists(angles(), min_size=3, max_size=3)),
        max_size=6)))


def _state_ops(circuit):
    n, operations = circuit
    ops = []
    for gate, qubits, params in operations:
        width, count = STATE_GATES[gate]
        if width <= n:
            ops.append((gate, tuple(float(p) for p in params[:count]), tuple(qubits[:width])))
    return ops


def _state_circuit_source(circuit, name="qc"):
    n, _ = circuit
    lines = [f"{name} = QuantumCircuit({n})"]
    for gate, params, qubits in _state_ops(circuit):
        arguments = [repr(p) for p in params] + [str(q) for q in qubits]
        lines.append(f"{name}.{gate}({', '.join(arguments)})")
    return "\n".join(lines) + "\n"


def _oracle_state(circuit):
    return oracle_core.statevector(_state_ops(circuit), circuit[0])


STATE_FORMS = ["Statevector(circuit)", "Statevector.from_instruction", "Statevector.from_label",
               "Statevector.to_dict", "DensityMatrix(circuit)", "DensityMatrix.to_statevector",
               "Statevector.evolve", "DensityMatrix.evolve", "Statevector.to_operator"]
STATE_LABEL_CHARS = "01+-rl"


def _state_strategy(form):
    st = _st()
    if form == "Statevector.from_label":
        return st.text(STATE_LABEL_CHARS, min_size=1, max_size=4)
    return _state_circuit_strategy()


def _state_program(form, example):
    head = ("import numpy as np\nfrom qiskit import QuantumCircuit\n"
            "from qiskit.quantum_info import Statevector, DensityMatrix, Operator\n" + EQUAL_UP_TO_PHASE)
    if form == "Statevector.from_label":
        expected = oracle_core.product_state(example)
        return head + (f"expected = {_array_literal(expected)}\n"
                       f"label = {example!r}\n"
                       "actual = Statevector.from_label(label).data\n"
                       "deviation = float(np.max(np.abs(actual - expected)))\n"
                       "assert deviation < 1e-12, f'Statevector.from_label({label!r}) is off by {deviation:.3g}: {actual}'\n")
    expected = _oracle_state(example)
    head += _state_circuit_source(example) + f"expected = {_array_literal(expected)}  # exact output state\n"
    exact = ("deviation = float(np.max(np.abs(np.asarray(actual) - expected)))\n"
             f"assert deviation < 1e-9, f'{form} is off by {{deviation:.3g}} from the exact state (global phase included)'\n")
    body = {
        "Statevector(circuit)": "actual = Statevector(qc).data\n" + exact,
        "Statevector.from_instruction": "actual = Statevector.from_instruction(qc.to_instruction()).data\n" + exact,
        "Statevector.to_dict": "mapping = Statevector(qc).to_dict()\n"
                               "actual = np.array([mapping.get(format(i, f'0{qc.num_qubits}b'), 0) for i in range(2 ** qc.num_qubits)])\n" + exact,
        "DensityMatrix(circuit)": "actual = DensityMatrix(qc).data\nexpected = np.outer(expected, expected.conj())\n" + exact,
        "DensityMatrix.to_statevector": "assert_equal_up_to_phase(DensityMatrix(qc).to_statevector().data, expected, 'DensityMatrix(qc).to_statevector()')\n",
        "Statevector.evolve": "actual = Statevector.from_int(0, 2 ** qc.num_qubits).evolve(qc).data\n" + exact,
        "DensityMatrix.evolve": "actual = DensityMatrix.from_int(0, 2 ** qc.num_qubits).evolve(qc).data\n"
                                "expected = np.outer(expected, expected.conj())\n" + exact,
        "Statevector.to_operator": "actual = Statevector(qc).to_operator().data\nexpected = np.outer(expected, expected.conj())\n" + exact,
    }[form]
    return head + body


# =============================================================================================
# Result processing: marginals, expectation values from samples, BitArray

MARGINAL_FORMS = ["marginal_counts", "marginal_counts(format_marginal=True)", "marginal_distribution",
                  "marginal_distribution(Counts)", "marginal_distribution(ProbDistribution)",
                  "marginal_distribution(float dict)", "marginal_memory", "marginal_memory(int_return=True)",
                  "marginal_memory(hex_return=True)", "Counts(hex keys)", "Counts(int keys)"]


def _counts_strategy(form):
    st = _st()

    @st.composite
    def example(draw):
        sizes = draw(st.lists(st.integers(1, 3), min_size=1, max_size=3))
        bits = sum(sizes)
        outcomes = draw(st.lists(st.integers(0, 2 ** bits - 1), min_size=1, max_size=8, unique=True))
        counts = [draw(st.integers(1, 50)) for _ in outcomes]
        indices = draw(st.permutations(range(bits)))[:draw(st.integers(1, bits))]
        spaced = draw(st.booleans())
        return {"sizes": sizes, "outcomes": outcomes, "counts": counts, "indices": list(indices), "spaced": spaced}

    return example()


def _bitstring(value, sizes, spaced):
    bits = format(value, f"0{sum(sizes)}b")
    if not spaced:
        return bits
    # registers are written most significant (last register) first, separated by spaces
    parts, end = [], len(bits)
    for size in sizes:
        parts.append(bits[end - size:end])
        end -= size
    return " ".join(reversed(parts))


def _marginal_key(value, indices):
    """indices[0] is the least significant (rightmost) bit of the marginal outcome."""
    return "".join(str((value >> i) & 1) for i in reversed(indices))


def _marginal_program(form, example):
    sizes, outcomes, counts, indices = example["sizes"], example["outcomes"], example["counts"], example["indices"]
    spaced = example["spaced"]
    total = sum(counts)
    keys = [_bitstring(v, sizes, spaced) for v in outcomes]
    head = "from qiskit.result import Counts, ProbDistribution, marginal_counts, marginal_distribution, marginal_memory\n"
    if not form.startswith("marginal_memory"):
        head += f"counts = {dict(zip(keys, counts))!r}\n"

    def grouped(order, value_of):
        result = {}
        for v, c in zip(outcomes, counts):
            key = _marginal_key(v, order)
            result[key] = result.get(key, 0) + value_of(c)
        return result

    ascending = sorted(indices)
    if form == "marginal_counts":
        # marginal_counts keeps bit significance: output bits in ascending index order
        expected, call = grouped(ascending, int), f"marginal_counts(counts, {indices!r})"
    elif form == "marginal_counts(format_marginal=True)":
        expected = {}
        for v, c in zip(outcomes, counts):
            full = format(v, f"0{sum(sizes)}b")
            masked = "".join(ch if (len(full) - 1 - i) in indices else "_" for i, ch in enumerate(full))
            key = masked
            if spaced:
                parts, end = [], len(key)
                for size in sizes:
                    parts.append(key[end - size:end])
                    end -= size
                key = " ".join(reversed(parts))
            expected[key] = expected.get(key, 0) + c
        call = f"marginal_counts(counts, {indices!r}, format_marginal=True)"
    elif form == "marginal_distribution":
        # documented: the order of `indices` is the order of the output bits
        expected, call = grouped(indices, int), f"marginal_distribution(counts, {indices!r})"
    elif form == "marginal_distribution(Counts)":
        expected, call = grouped(indices, int), f"marginal_distribution(Counts(counts), {indices!r})"
    elif form == "marginal_distribution(ProbDistribution)":
        head += f"probabilities = {{k: v / {total} for k, v in counts.items()}}\n"
        expected = grouped(indices, lambda c: c / total)
        call = f"marginal_distribution(ProbDistribution(probabilities), {indices!r})"
        if spaced:
            head += "probabilities = {k.replace(' ', ''): v for k, v in probabilities.items()}\n"
    elif form == "marginal_distribution(float dict)":
        head += f"probabilities = {{k: v / {total} for k, v in counts.items()}}\n"
        expected, call = grouped(indices, lambda c: c / total), f"marginal_distribution(probabilities, {indices!r})"
    elif form.startswith("marginal_memory"):
        memory = [hex(v) for v, c in zip(outcomes, counts) for _ in range(min(c, 3))]
        head += f"memory = {memory!r}\n"
        marginal = [_marginal_key(int(h, 16), indices) for h in memory]
        if form == "marginal_memory":
            expected, call = marginal, f"marginal_memory(memory, {indices!r})"
        elif form == "marginal_memory(int_return=True)":
            expected, call = [int(m, 2) for m in marginal], f"marginal_memory(memory, {indices!r}, int_return=True)"
        else:
            expected, call = [hex(int(m, 2)) for m in marginal], f"marginal_memory(memory, {indices!r}, hex_return=True)"
    else:
        # Counts accepts hexadecimal or integer keys with memory_slots / creg_sizes and shows them
        # as bitstrings with register spaces (Counts docs)
        creg_sizes = [[f"c{i}", s] for i, s in enumerate(sizes)]
        raw = {hex(v) if form == "Counts(hex keys)" else v: c for v, c in zip(outcomes, counts)}
        head = ("from qiskit.result import Counts\n"
                f"counts = Counts({raw!r}, memory_slots={sum(sizes)}, creg_sizes={creg_sizes!r})\n")
        expected = {_bitstring(v, sizes, True): c for v, c in zip(outcomes, counts)}
        int_expected = dict(zip(outcomes, counts))
        return head + (f"expected = {expected!r}\n"
                       "assert dict(counts) == expected, f'Counts shows {dict(counts)}, expected {expected}'\n"
                       f"assert counts.int_outcomes() == {int_expected!r}, f'int_outcomes {{counts.int_outcomes()}}'\n"
                       f"assert counts.hex_outcomes() == {{hex(k): v for k, v in {int_expected!r}.items()}}, "
                       "f'hex_outcomes {counts.hex_outcomes()}'\n"
                       "assert counts.shots() == sum(expected.values())\n")
    comparison = ("assert set(actual) == set(expected), f'{call} has outcomes {sorted(actual)}, expected {sorted(expected)}'\n"
                  "worst = max(abs(actual[k] - expected[k]) for k in expected)\n"
                  "assert worst < 1e-12, f'{call} gives {actual}, expected {expected}'\n")
    if form.startswith("marginal_memory"):
        comparison = "assert list(actual) == expected, f'{call} gives {list(actual)}, expected {expected}'\n"
    return head + (f"call = {call!r}\nexpected = {expected!r}\nactual = {call}\n" + comparison)


# -- sampled_expectation_value ---------------------------------------------------------------

EXPECTATION_FORMS = ["str", "Pauli", "SparsePauliOp", "SparsePauliOp(complex)", "SparseObservable",
                     "SparseObservable(projectors)"]
DIST_FORMS = ["dict", "Counts", "probability dict", "ProbDistribution", "QuasiDistribution"]


def _expectation_strategy(form):
    st = _st()
    chars = "IZ01" if form in ("str", "SparseObservable(projectors)") else "IZ"

    @st.composite
    def example(draw):
        n = draw(st.integers(1, 4))
        outcomes = draw(st.lists(st.integers(0, 2 ** n - 1), min_size=1, max_size=6, unique=True))
        weights = [draw(st.integers(1, 40)) for _ in outcomes]
        quasi = [draw(st.sampled_from([0.5, -0.1, 0.25, 1.0, -0.3])) for _ in outcomes]
        single = form in ("str", "Pauli")
        terms = draw(st.lists(st.tuples(st.text(chars, min_size=n, max_size=n),
                                        st.sampled_from([1.0, -0.5, 2.0, 0.25] + ([0.5j, 1 - 1j] if "complex" in form else []))),
                              min_size=1, max_size=1 if single else 3))
        return {"n": n, "outcomes": outcomes, "weights": weights, "quasi": quasi, "terms": terms,
                "dist": draw(st.sampled_from(DIST_FORMS))}

    return example()


def _diagonal_value(label, outcome):
    value = 1.0
    for position, ch in enumerate(reversed(label)):
        bit = (outcome >> position) & 1
        value *= {"I": 1.0, "Z": -1.0 if bit else 1.0, "0": 1.0 - bit, "1": float(bit)}[ch]
    return value


def _expectation_program(form, example):
    n, outcomes, terms, dist = example["n"], example["outcomes"], example["terms"], example["dist"]
    weights = example["quasi"] if dist == "QuasiDistribution" else example["weights"]
    if dist == "QuasiDistribution":
        # quasi-probabilities may be negative but sum to one (QuasiDistribution docs)
        weights = list(weights[:-1]) + [1.0 - sum(weights[:-1])]
    if dist in ("probability dict", "ProbDistribution"):
        total = sum(weights)
        weights = [w / total for w in weights]
    keys = [format(v, f"0{n}b") for v in outcomes]
    mapping = dict(zip(keys, weights))
    distribution = {"dict": repr(mapping), "Counts": f"Counts({mapping!r})", "probability dict": repr(mapping),
                    # bitstring keys fix the width (integer keys would let it shrink to the largest key)
                    "ProbDistribution": f"ProbDistribution({mapping!r})",
                    "QuasiDistribution": f"QuasiDistribution({mapping!r})"}[dist]
    normaliser = 1.0 if dist in ("probability dict", "ProbDistribution", "QuasiDistribution") else float(sum(weights))
    expected = sum(c * w * _diagonal_value(label, v) for label, c in terms for v, w in zip(outcomes, weights)) / normaliser
    label = terms[0][0]
    observable = {"str": repr(label), "Pauli": f"Pauli({label!r})",
                  "SparsePauliOp": f"SparsePauliOp.from_list({terms!r})",
                  "SparsePauliOp(complex)": f"SparsePauliOp.from_list({terms!r})",
                  "SparseObservable": f"SparseObservable.from_list({terms!r})",
                  "SparseObservable(projectors)": f"SparseObservable.from_list({terms!r})"}[form]
    if form in ("str", "Pauli"):
        expected = sum(w * _diagonal_value(label, v) for v, w in zip(outcomes, weights)) / normaliser
    # The expectation value is linear in the coefficients: with complex coefficients it is the
    # complex sum. (Only BitArray.expectation_values documents keeping the real part; nothing
    # documents that for sampled_expectation_value.)
    expected = complex(expected)
    if expected.imag == 0:
        expected = expected.real
    return (_quantum_info_import("Pauli", "SparsePauliOp", "SparseObservable") +
            "from qiskit.result import Counts, ProbDistribution, QuasiDistribution, sampled_expectation_value\n"
            f"distribution = {distribution}\nobservable = {observable}\n"
            f"expected = {_literal(expected)}  # sum over outcomes of weight x eigenvalue, by hand\n"
            "actual = sampled_expectation_value(distribution, observable)\n"
            "assert abs(complex(actual) - expected) < 1e-9, "
            "f'sampled_expectation_value gives {actual}, expected {expected}'\n")


# -- BitArray -----------------------------------------------------------------------------------

BITARRAY_FORMS = ["get_counts", "get_int_counts", "get_bitstrings", "slice_bits", "slice_shots", "postselect",
                  "expectation_values", "concatenate", "concatenate_shots", "concatenate_bits", "from_bool_array",
                  "to_bool_array", "from_counts", "from_samples", "bitcount", "reshape", "transpose",
                  "getitem", "bitwise"]


def _bitarray_strategy(form):
    st = _st()

    @st.composite
    def example(draw):
        shape = tuple(draw(st.lists(st.integers(1, 3), max_size=2)))
        if form in ("concatenate", "transpose", "getitem") and not shape:
            shape = (2,)
        shots = draw(st.integers(1, 5))
        bits = draw(st.integers(1, 11))
        total = int(np.prod(shape, dtype=int)) * shots * bits
        flat = draw(st.lists(st.booleans(), min_size=total, max_size=total))
        other = draw(st.lists(st.booleans(), min_size=total, max_size=total))
        extra_bits = draw(st.integers(1, 9))
        extra_total = int(np.prod(shape, dtype=int)) * shots * extra_bits
        extra = draw(st.lists(st.booleans(), min_size=extra_total, max_size=extra_total))
        indices = draw(st.lists(st.integers(0, bits - 1), min_size=1, max_size=bits))
        shot_indices = draw(st.lists(st.integers(0, shots - 1), min_size=1, max_size=shots))
        selection = draw(st.lists(st.booleans(), min_size=len(indices), max_size=len(indices)))
        order = draw(st.sampled_from(["big", "little"]))
        return {"shape": shape, "shots": shots, "bits": bits, "flat": flat, "other": other,
                "extra_bits": extra_bits, "extra": extra, "indices": indices, "shot_indices": shot_indices,
                "selection": selection, "order": order}

    return example()


BITARRAY_HEAD = """import numpy as np
from qiskit.primitives import BitArray


def packed(bools):
    # numpy's own packing, most significant bit first, padded on the left to whole bytes
    bools = np.asarray(bools, dtype=bool)
    pad = np.zeros(bools.shape[:-1] + (-bools.shape[-1] % 8,), dtype=bool)
    return BitArray(np.packbits(np.concatenate([pad, bools], axis=-1), axis=-1), bools.shape[-1])


def bitstrings(bools):
    # bools[..., 0] is bit 0, the least significant: written rightmost
    return ["".join("1" if b else "0" for b in row[::-1]) for row in np.asarray(bools).reshape(-1, np.asarray(bools).shape[-1])]


bits = {bits_little}  # bits[..., j] is bit j (little-endian), shape = pub shape + (shots, num_bits)
array = packed(bits[..., ::-1])
"""


def _bitarray_program(form, example):
    shape, shots, n = example["shape"], example["shots"], example["bits"]
    full = shape + (shots, n)
    bits_little = np.array(example["flat"], dtype=bool).reshape(full)
    other = np.array(example["other"], dtype=bool).reshape(full)
    extra = np.array(example["extra"], dtype=bool).reshape(shape + (shots, example["extra_bits"]))
    indices, shot_indices = example["indices"], example["shot_indices"]
    head = BITARRAY_HEAD.format(bits_little=_array_literal(bits_little))
    loc = tuple(0 for _ in shape) if shape else None
    loc_src = repr(loc) if loc is not None else "None"
    selected = bits_little[loc] if loc is not None else bits_little.reshape(-1, n)

    def counts_of(rows, key):
        found = {}
        for row in np.asarray(rows).reshape(-1, n):
            k = key(row)
            found[k] = found.get(k, 0) + 1
        return found

    as_string = lambda row: "".join("1" if b else "0" for b in row[::-1])
    as_int = lambda row: int(sum(1 << j for j, b in enumerate(row) if b))
    exact_bits = ("assert actual.num_bits == expected.shape[-1], f'num_bits {actual.num_bits}, expected {expected.shape[-1]}'\n"
                  "assert actual.shape == expected.shape[:-2] and actual.num_shots == expected.shape[-2], "
                  "f'shape {actual.shape} x {actual.num_shots} shots, expected {expected.shape[:-1]}'\n"
                  "assert (actual.to_bool_array(order='little') == expected).all(), f'{call}: wrong bits'\n")
    if form == "get_counts":
        return head + f"call = 'get_counts({loc_src})'\nexpected = {counts_of(selected, as_string)!r}\n" \
                      f"actual = array.get_counts({loc_src})\nassert actual == expected, f'{{call}} gives {{actual}}, expected {{expected}}'\n"
    if form == "get_int_counts":
        return head + f"call = 'get_int_counts({loc_src})'\nexpected = {counts_of(selected, as_int)!r}\n" \
                      f"actual = array.get_int_counts({loc_src})\nassert actual == expected, f'{{call}} gives {{actual}}, expected {{expected}}'\n"
    if form == "get_bitstrings":
        expected = [as_string(row) for row in np.asarray(selected).reshape(-1, n)]
        return head + f"call = 'get_bitstrings({loc_src})'\nexpected = {expected!r}\n" \
                      f"actual = array.get_bitstrings({loc_src})\nassert actual == expected, f'{{call}} gives {{actual}}, expected {{expected}}'\n"
    if form == "slice_bits":
        return head + f"call = 'slice_bits({indices!r})'\nexpected = bits[..., {indices!r}]\nactual = array.slice_bits({indices!r})\n" + exact_bits
    if form == "slice_shots":
        return head + f"call = 'slice_shots({shot_indices!r})'\nexpected = bits[..., {shot_indices!r}, :]\nactual = array.slice_shots({shot_indices!r})\n" + exact_bits
    if form == "postselect":
        selection = example["selection"]
        return head + (f"call = 'postselect({indices!r}, {selection!r})'\n"
                       f"rows = bits.reshape(-1, {n})\n"
                       f"keep = np.all(rows[:, {indices!r}] == np.array({selection!r}, dtype=bool), axis=1)\n"
                       "expected = rows[keep][None, ...][0]\n"
                       "actual = array.postselect(" f"{indices!r}, {selection!r})\n"
                       "assert actual.shape == () and actual.num_shots == int(keep.sum()), "
                       "f'{call} keeps {actual.num_shots} shots, expected {int(keep.sum())}'\n"
                       "assert (actual.to_bool_array(order='little') == expected).all(), f'{call}: wrong shots kept'\n")
    if form == "expectation_values":
        label = "".join("Z" if j in indices else "I" for j in reversed(range(n)))
        signs = np.where(np.sum(bits_little[..., sorted(set(indices))], axis=-1) % 2 == 1, -1.0, 1.0)
        expected = signs.mean(axis=-1)
        return head + (f"call = {f'expectation_values({label!r})'!r}\nexpected = {_array_literal(expected)}\n"
                       f"actual = np.asarray(array.expectation_values({label!r}))\n"
                       "assert actual.shape == np.shape(expected), f'{call} has shape {actual.shape}, expected {np.shape(expected)}'\n"
                       "assert np.allclose(actual, expected, atol=1e-12), f'{call} gives {actual}, expected {expected}'\n")
    if form == "concatenate":
        return head + (f"other_bits = {_array_literal(other)}\n"
                       "call = 'BitArray.concatenate([array, other], axis=0)'\n"
                       "expected = np.concatenate([bits, other_bits], axis=0)\n"
                       "actual = BitArray.concatenate([array, packed(other_bits[..., ::-1])], axis=0)\n" + exact_bits)
    if form == "concatenate_shots":
        return head + (f"other_bits = {_array_literal(other)}\n"
                       "call = 'BitArray.concatenate_shots([array, other])'\n"
                       "expected = np.concatenate([bits, other_bits], axis=-2)\n"
                       "actual = BitArray.concatenate_shots([array, packed(other_bits[..., ::-1])])\n" + exact_bits)
    if form == "concatenate_bits":
        # the first array's bits stay bits 0.. (slice_bits convention), the next follow
        return head + (f"extra_bits = {_array_literal(extra)}\n"
                       "call = 'BitArray.concatenate_bits([array, extra])'\n"
                       "expected = np.concatenate([bits, extra_bits], axis=-1)\n"
                       "actual = BitArray.concatenate_bits([array, packed(extra_bits[..., ::-1])])\n" + exact_bits)
    if form == "from_bool_array":
        order = example["order"]
        given = "bits" if order == "little" else "bits[..., ::-1]"
        return head + (f"call = {f'BitArray.from_bool_array(..., order={order!r})'!r}\nexpected = bits\n"
                       f"actual = BitArray.from_bool_array({given}, order={order!r})\n" + exact_bits)
    if form == "to_bool_array":
        order = example["order"]
        return head + (f"call = {f'to_bool_array(order={order!r})'!r}\n"
                       f"expected = bits if {order!r} == 'little' else bits[..., ::-1]\n"
                       f"actual = array.to_bool_array(order={order!r})\n"
                       "assert actual.shape == expected.shape and (actual == expected).all(), f'{call} gives {actual}'\n")
    if form == "from_counts":
        rows = bits_little.reshape(-1, n)
        counts = counts_of(rows, as_string)
        return head + (f"call = 'BitArray.from_counts(counts, num_bits={n})'\ncounts = {counts!r}\n"
                       f"actual = BitArray.from_counts(counts, num_bits={n})\n"
                       "assert actual.num_bits == " f"{n}" " and actual.get_counts() == counts, f'{call} gives {actual.get_counts()}'\n")
    if form == "from_samples":
        rows = bits_little.reshape(-1, n)
        samples_kind = example["order"]
        samples = [as_string(r) for r in rows] if samples_kind == "big" else [hex(as_int(r)) for r in rows]
        return head + (f"call = 'BitArray.from_samples(samples, num_bits={n})'\nsamples = {samples!r}\n"
                       f"expected = bits.reshape(-1, {n})\n"
                       f"actual = BitArray.from_samples(samples, num_bits={n})\n" + exact_bits)
    if form == "bitcount":
        return head + ("call = 'bitcount()'\nexpected = bits.sum(axis=-1)\nactual = array.bitcount()\n"
                       "assert actual.shape == expected.shape and (actual == expected).all(), f'{call} gives {actual}, expected {expected}'\n")
    if form == "reshape":
        size = int(np.prod(shape, dtype=int))
        if shots > 1:
            # the new shape absorbs the shots axis: unambiguous only when there are several shots
            return head + (f"call = 'reshape({size * shots}, 1)'\n"
                           f"expected = bits.reshape({size * shots}, 1, {n})\nactual = array.reshape({size * shots}, 1)\n" + exact_bits)
        return head + (f"call = 'reshape({size},)'\n"
                       f"expected = bits.reshape({size}, {shots}, {n})\nactual = array.reshape(({size},))\n" + exact_bits)
    if form == "transpose":
        axes = tuple(reversed(range(len(shape))))
        return head + (f"call = 'transpose{axes!r}'\n"
                       f"expected = np.transpose(bits, {axes!r} + ({len(shape)}, {len(shape) + 1}))\n"
                       f"actual = array.transpose{axes if len(axes) != 1 else '(0,)'}\n" + exact_bits)
    if form == "getitem":
        text = ", ".join("::-1" if i == 0 else "0" for i in range(len(shape)))
        return head + (f"call = 'array[{text}]'\nexpected = bits[{text}]\nactual = array[{text}]\n" + exact_bits)
    if form == "bitwise":
        return head + (f"other_bits = {_array_literal(other)}\nother = packed(other_bits[..., ::-1])\n"
                       "for call, actual, expected in [('&', array & other, bits & other_bits), ('|', array | other, bits | other_bits),\n"
                       "                               ('^', array ^ other, bits ^ other_bits), ('~', ~array, ~bits)]:\n"
                       "    assert (actual.to_bool_array(order='little') == expected).all(), f'BitArray {call} gives wrong bits'\n")
    raise KeyError(form)


# -- probabilities and expectation values of states -----------------------------------------

PROBABILITY_FORMS = ["Statevector.probabilities", "Statevector.probabilities_dict", "DensityMatrix.probabilities",
                     "DensityMatrix.probabilities_dict", "Statevector.expectation_value(Pauli)",
                     "Statevector.expectation_value(SparsePauliOp)", "Statevector.expectation_value(Operator)",
                     "DensityMatrix.expectation_value(SparsePauliOp)", "StabilizerState.probabilities",
                     "StabilizerState.expectation_value(Pauli)", "Statevector.measure"]


def _probability_strategy(form):
    st = _st()
    circuits = (_state_circuit_strategy(4, CLIFFORD_GATES.keys() & STATE_GATES.keys())
                if form.startswith("StabilizerState") else _state_circuit_strategy(4))

    @st.composite
    def example(draw):
        circuit = draw(circuits)
        n = circuit[0]
        qargs = list(draw(st.permutations(range(n))))[:draw(st.integers(1, n))]
        terms = draw(st.lists(st.tuples(st.text("IXYZ", min_size=len(qargs), max_size=len(qargs)),
                                        st.sampled_from([1.0, -0.5, 2.0, 0.3])), min_size=1, max_size=3))
        mixture = draw(st.one_of(st.none(), _state_circuit_strategy(4).filter(lambda c: c[0] == n)))
        weight = draw(st.sampled_from([0.5, 0.25, 0.9]))
        use_all = draw(st.booleans())
        return {"circuit": circuit, "qargs": None if use_all else qargs, "terms": terms,
                "mixture": mixture, "weight": weight}

    return example()


def _density(example):
    psi = _oracle_state(example["circuit"])
    rho = np.outer(psi, psi.conj())
    if example["mixture"] is not None:
        phi = _oracle_state(example["mixture"])
        rho = example["weight"] * rho + (1 - example["weight"]) * np.outer(phi, phi.conj())
    return psi, rho


def _kron_label_on(label, qargs, n):
    """The matrix of Pauli `label` (label[-1-k] on qargs[k]) on n qubits, by numpy."""
    matrix = np.eye(1)
    for qubit in reversed(range(n)):
        ch = label[-1 - qargs.index(qubit)] if qubit in qargs else "I"
        matrix = np.kron(matrix, oracle_core.PAULI_MATRICES[ch])
    return matrix


def _probability_program(form, example):
    circuit = example["circuit"]
    n = circuit[0]
    qargs = example["qargs"]
    density = form.startswith("DensityMatrix")
    psi, rho = _density(example) if density else (_oracle_state(circuit), None)
    if density and example["mixture"] is None:
        rho = np.outer(psi, psi.conj())
    head = ("import numpy as np\nfrom qiskit import QuantumCircuit\n"
            "from qiskit.quantum_info import Statevector, DensityMatrix, StabilizerState, Pauli, SparsePauliOp, Operator\n")
    if density:
        state_src = f"state = DensityMatrix({_array_literal(rho)})\n"
    elif form.startswith("StabilizerState"):
        state_src = _state_circuit_source(circuit) + "state = StabilizerState(qc)\n"
    else:
        state_src = f"state = Statevector({_array_literal(psi)})\n"
    diagonal = np.real(np.diag(rho)) if density else np.abs(psi) ** 2
    # oracle_core marginalises |amplitude|^2: the square roots of the diagonal serve as amplitudes
    marginal = oracle_core.probabilities(np.sqrt(diagonal), qargs) if qargs is not None else diagonal
    qargs_src = "" if qargs is None else repr(qargs)
    width = n if qargs is None else len(qargs)
    if form in ("Statevector.probabilities", "DensityMatrix.probabilities", "StabilizerState.probabilities"):
        return head + state_src + (f"expected = {_array_literal(marginal)}  # qargs[0] is the least significant bit\n"
                                   f"actual = state.probabilities({qargs_src})\n"
                                   "assert np.shape(actual) == expected.shape, f'shape {np.shape(actual)}'\n"
                                   "deviation = float(np.max(np.abs(actual - expected)))\n"
                                   f"assert deviation < 1e-9, f'{form}({qargs_src}) gives {{actual}}, expected {{expected}}'\n")
    if form in ("Statevector.probabilities_dict", "DensityMatrix.probabilities_dict"):
        expected = {format(i, f"0{width}b"): float(p) for i, p in enumerate(marginal) if p > 1e-12}
        return head + state_src + (f"expected = {expected!r}\n"
                                   f"actual = state.probabilities_dict({qargs_src})\n"
                                   "keys = set(expected) | {k for k, v in actual.items() if v > 1e-12}\n"
                                   "worst = max(abs(actual.get(k, 0) - expected.get(k, 0)) for k in keys)\n"
                                   f"assert worst < 1e-9, f'{form}({qargs_src}) gives {{actual}}, expected {{expected}}'\n")
    if form == "Statevector.measure":
        return head + state_src + (f"expected = {_array_literal(marginal)}\n"
                                   f"outcome, post = state.measure({qargs_src})\n"
                                   "index = int(outcome, 2)\n"
                                   "assert expected[index] > 1e-12, f'measure returned outcome {outcome} of probability 0'\n"
                                   f"post_probabilities = post.probabilities({qargs_src})\n"
                                   "assert abs(post_probabilities[index] - 1) < 1e-9, "
                                   "f'after measuring {outcome} the state does not give {outcome} with certainty: {post_probabilities}'\n")
    qlist = list(range(n)) if qargs is None else qargs
    terms = example["terms"]
    if qargs is None:
        # without qargs the observable spans the whole register: stretch each label to n qubits
        terms = [((label * n)[:n], c) for label, c in terms]
    if form.endswith("(Pauli)"):
        terms = terms[:1]
        terms = [(label, 1.0) for label, _ in terms]
    matrix = sum(c * _kron_label_on(label, qlist, n) for label, c in terms)
    if density:
        expected = float(np.real(np.trace(rho @ matrix)))
    else:
        expected = float(np.real(np.vdot(psi, matrix @ psi)))
    operator = {"(Pauli)": f"Pauli({terms[0][0]!r})", "(SparsePauliOp)": f"SparsePauliOp.from_list({terms!r})",
                "(Operator)": f"Operator(SparsePauliOp.from_list({terms!r}))"}[form[form.index("("):]]
    call = f"state.expectation_value({operator}{', ' + qargs_src if qargs is not None else ''})"
    return head + state_src + (f"expected = {expected!r}  # label[-1-k] acts on qargs[k]\n"
                               f"call = {call!r}\nactual = {call}\n"
                               "assert abs(actual - expected) < 1e-9, f'{call} gives {actual}, expected {expected}'\n")


# -- information measures --------------------------------------------------------------------

INFORMATION_FORMS = ["entropy", "entropy(Statevector)", "state_fidelity(Statevector, Statevector)",
                     "state_fidelity(Statevector, DensityMatrix)", "state_fidelity(DensityMatrix, DensityMatrix)",
                     "partial_trace", "purity", "mutual_information", "shannon_entropy", "negativity",
                     "concurrence(pure)"]


def _information_strategy(form):
    st = _st()
    amplitudes = st.floats(-1, 1, allow_nan=False).filter(lambda x: x == 0 or abs(x) > 1e-3)

    @st.composite
    def example(draw):
        n = 2 if form in ("mutual_information", "negativity", "concurrence(pure)") else draw(st.integers(1, 3))
        ancillas = 0 if form.endswith("(Statevector)") or form == "concurrence(pure)" else draw(st.integers(0, 2))
        dim = 2 ** (n + ancillas)
        first = [complex(draw(amplitudes), draw(amplitudes)) for _ in range(dim)]
        second = [complex(draw(amplitudes), draw(amplitudes)) for _ in range(dim)]
        from hypothesis import assume

        assume(np.linalg.norm(first) > 1e-2 and np.linalg.norm(second) > 1e-2)
        qargs = list(draw(st.permutations(range(n))))[:draw(st.integers(0, n - 1))] if n > 1 else []
        base = draw(st.sampled_from([2, math.e, 10]))
        probabilities = draw(st.lists(st.integers(0, 9), min_size=1, max_size=8).filter(lambda p: sum(p) > 0))
        return {"n": n, "ancillas": ancillas, "first": first, "second": second, "qargs": qargs, "base": base,
                "probabilities": probabilities}

    return example()


def _reduced(vector, n, ancillas):
    """The density matrix of the low n qubits of a pure state on n + ancillas qubits."""
    psi = np.asarray(vector, dtype=complex)
    psi = psi / np.linalg.norm(psi)
    m = psi.reshape(2 ** ancillas, 2 ** n)
    return psi, m.T @ m.conj()


def _entropy(rho, base):
    values = np.linalg.eigvalsh(rho)
    values = values[values > 1e-14]
    return float(-np.sum(values * np.log(values)) / math.log(base))


def _partial_trace(rho, traced, n):
    keep = [q for q in range(n) if q not in traced]
    tensor = rho.reshape((2,) * (2 * n))
    # axes: row qubit q is axis n-1-q, column qubit q is axis 2n-1-q
    letters = "abcdefghijklmnopqrstuvwxyz"
    rows = [letters[i] for i in range(n)]
    cols = [letters[n + i] for i in range(n)]
    for q in traced:
        cols[n - 1 - q] = rows[n - 1 - q]
    out_rows = [rows[n - 1 - q] for q in reversed(keep)]
    out_cols = [cols[n - 1 - q] for q in reversed(keep)]
    result = np.einsum("".join(rows + cols) + "->" + "".join(out_rows + out_cols), tensor)
    dim = 2 ** len(keep)
    return result.reshape(dim, dim)


def _information_program(form, example):
    n, ancillas = example["n"], example["ancillas"]
    psi, rho = _reduced(example["first"], n, ancillas)
    phi, sigma = _reduced(example["second"], n, ancillas)
    head = ("import numpy as np\n"
            "from qiskit.quantum_info import (DensityMatrix, Statevector, entropy, state_fidelity, partial_trace,\n"
            "                                 mutual_information, shannon_entropy, negativity, concurrence)\n")
    rho_src = f"rho = DensityMatrix({_array_literal(rho)})\n"
    sigma_src = f"sigma = DensityMatrix({_array_literal(sigma)})\n"

    def scalar_law(call, expected, tolerance=1e-8):
        return (f"expected = {expected!r}\nactual = {call}\n"
                f"assert abs(actual - expected) < {tolerance}, f'{call} gives {{actual}}, expected {{expected}}'\n")

    if form == "entropy":
        base = example["base"]
        return head + rho_src + scalar_law(f"entropy(rho, base={base!r})", _entropy(rho, base), 1e-7)
    if form == "entropy(Statevector)":
        return head + f"psi = Statevector({_array_literal(psi)})\n" + scalar_law("entropy(psi)", 0.0, 1e-7)
    if form == "state_fidelity(Statevector, Statevector)":
        expected = float(abs(np.vdot(psi, phi)) ** 2)
        return head + (f"a = Statevector({_array_literal(psi)})\nb = Statevector({_array_literal(phi)})\n"
                       + scalar_law("state_fidelity(a, b)", expected))
    if form == "state_fidelity(Statevector, DensityMatrix)":
        pure = psi[: 2 ** n] / np.linalg.norm(psi[: 2 ** n]) if np.linalg.norm(psi[: 2 ** n]) > 1e-6 else oracle_core.basis_state(n)
        expected = float(np.real(np.vdot(pure, sigma @ pure)))
        return head + sigma_src + (f"a = Statevector({_array_literal(pure)})\n"
                                   + scalar_law("state_fidelity(a, sigma)", expected))
    if form == "state_fidelity(DensityMatrix, DensityMatrix)":
        expected = oracle_core.fidelity(rho, sigma)
        return head + rho_src + sigma_src + scalar_law("state_fidelity(rho, sigma)", expected, 1e-6)
    if form == "partial_trace":
        traced = example["qargs"]
        expected = _partial_trace(rho, traced, n)
        return head + rho_src + (f"expected = {_array_literal(expected)}  # qubits {traced} traced out, by einsum\n"
                                 f"actual = partial_trace(rho, {traced!r}).data\n"
                                 "assert actual.shape == expected.shape, f'shape {actual.shape}, expected {expected.shape}'\n"
                                 "deviation = float(np.max(np.abs(actual - expected)))\n"
                                 f"assert deviation < 1e-10, f'partial_trace(rho, {traced!r}) is off by {{deviation:.3g}}'\n")
    if form == "purity":
        return head + rho_src + scalar_law("rho.purity()", float(np.real(np.trace(rho @ rho))))
    if form == "mutual_information":
        rho_a, rho_b = _partial_trace(rho, [1], 2), _partial_trace(rho, [0], 2)
        expected = _entropy(rho_a, 2) + _entropy(rho_b, 2) - _entropy(rho, 2)
        return head + rho_src + scalar_law("mutual_information(rho)", expected, 1e-7)
    if form == "shannon_entropy":
        p = np.array(example["probabilities"], dtype=float)
        p = p / p.sum()
        base = example["base"]
        nonzero = p[p > 0]
        expected = float(-np.sum(nonzero * np.log(nonzero)) / math.log(base))
        return head + f"p = {_array_literal(p)}\n" + scalar_law(f"shannon_entropy(p, base={base!r})", expected, 1e-9)
    if form == "negativity":
        traced = example["qargs"] or [0]
        # partial transpose on the qubits in qargs, then (||rho^T_A||_1 - 1) / 2
        tensor = rho.reshape(2, 2, 2, 2)
        axes = {0: (1, 3), 1: (0, 2)}[traced[0]]
        order = list(range(4))
        order[axes[0]], order[axes[1]] = axes[1], axes[0]
        transposed = tensor.transpose(order).reshape(4, 4)
        expected = float((np.sum(np.abs(np.linalg.eigvalsh(transposed))) - 1) / 2)
        return head + rho_src + scalar_law(f"negativity(rho, {traced!r})", expected)
    if form == "concurrence(pure)":
        reduced = _partial_trace(np.outer(psi, psi.conj()), [1], 2)
        expected = float(math.sqrt(max(0.0, 2 * (1 - np.real(np.trace(reduced @ reduced))))))
        return head + f"psi = Statevector({_array_literal(psi)})\n" + scalar_law("concurrence(psi)", expected)
    raise KeyError(form)


# =============================================================================================
# Execution: samplers, the basic simulator and the estimator

SAMPLER_SUBJECTS = ["StatevectorSampler", "StatevectorSampler(parameter sweep)", "BasicSimulator",
                    "BasicSimulator(mid-circuit measurement and reset)"]
SHOTS = 2000


def _sampling_strategy(subject):
    st = _st()
    mid = "mid-circuit" in subject

    @st.composite
    def example(draw):
        circuit = draw(_state_circuit_strategy(4))
        n = circuit[0]
        measured = list(draw(st.permutations(range(n))))[:draw(st.integers(1, n))]
        clbits = list(draw(st.permutations(range(len(measured) + draw(st.integers(0, 1))))))
        split = draw(st.integers(0, len(clbits)))
        middle = []
        if mid:
            middle = draw(st.lists(st.tuples(st.sampled_from(["measure", "reset"]), st.integers(0, n - 1),
                                             st.integers(0, len(clbits) - 1), st.integers(0, 6)), min_size=1, max_size=3))
        sweep = [draw(angles()) for _ in range(2)]
        return {"circuit": circuit, "measured": measured, "clbits": clbits, "split": split, "middle": middle,
                "seed": draw(st.integers(0, 2 ** 31 - 1)), "sweep": sweep}

    return example()


def _sampling_circuit(example, parametric=False):
    """Source of the measured circuit and the list of operations (for the exact distribution):
    the state circuit, optional mid-circuit measurements/resets inserted among its gates, then
    measurements of `measured` into `clbits` over one or two classical registers."""
    circuit = example["circuit"]
    n = circuit[0]
    clbits = example["clbits"]
    m = len(clbits)
    split = example["split"] if 0 < example["split"] < m else m
    sizes = [split, m - split] if split < m else [m]
    lines = ["from qiskit import QuantumCircuit, QuantumRegister, ClassicalRegister"]
    if parametric:
        lines.append("from qiskit.circuit import Parameter\nt = Parameter('t')")
    regs = [f'ClassicalRegister({s}, "c{i}")' for i, s in enumerate(sizes)]
    lines.append(f"qc = QuantumCircuit(QuantumRegister({n}, 'q'), {', '.join(regs)})")
    events = []
    ops = _state_ops(circuit)
    middle = sorted(example["middle"], key=lambda e: e[3])
    for index, (gate, params, qubits) in enumerate(ops):
        while middle and middle[0][3] <= index:
            kind, q, c, _ = middle.pop(0)
            events.append((kind, q, c))
        events.append(("gate", gate, params, qubits))
    for kind, q, c, _ in middle:
        events.append((kind, q, c))
    first_param = True
    for event in events:
        if event[0] == "gate":
            _, gate, params, qubits = event
            values = [repr(p) for p in params]
            if parametric and values and first_param:
                values[0] = "t"
                first_param = False
            lines.append(f"qc.{gate}({', '.join(values + [str(q) for q in qubits])})")
        elif event[0] == "measure":
            lines.append(f"qc.measure({event[1]}, {event[2]})")
        else:
            lines.append(f"qc.reset({event[1]})")
    for qubit, clbit in zip(example["measured"], clbits):
        lines.append(f"qc.measure({qubit}, {clbit})")
    return "\n".join(lines) + "\n", events, sizes, first_param is False


def _exact_outcomes(n, m, events, measured, clbits, override=None):
    """{classical value: probability} by branching on every measurement and reset (numpy,
    oracle_core gate matrices)."""
    branches = [(1.0, oracle_core.basis_state(n).reshape((2,) * n), 0)]
    final = [("measure", q, c) for q, c in zip(measured, clbits)]
    for event in list(events) + final:
        next_branches = []
        for weight, tensor, value in branches:
            if event[0] == "gate":
                _, gate, params, qubits = event
                if override is not None and params and override[0] is not None:
                    params = (override[0],) + tuple(params[1:])
                    override = (None,)
                tensor = oracle_core.apply_matrix(tensor, oracle_core.gate_matrix(gate, params), qubits, n)
                next_branches.append((weight, tensor, value))
                continue
            _, qubit, clbit = event
            axis = n - 1 - qubit
            for outcome in (0, 1):
                part = np.zeros_like(tensor)
                index = [slice(None)] * n
                index[axis] = outcome
                part[tuple(index)] = tensor[tuple(index)]
                p = float(np.sum(np.abs(part) ** 2))
                if p < 1e-15:
                    continue
                part = part / math.sqrt(p)
                if event[0] == "reset":
                    if outcome == 1:
                        flipped = np.zeros_like(part)
                        zero, one = list(index), list(index)
                        zero[axis], one[axis] = 0, 1
                        flipped[tuple(zero)] = part[tuple(one)]
                        part = flipped
                    next_branches.append((weight * p, part, value))
                else:
                    new_value = (value & ~(1 << clbit)) | (outcome << clbit)
                    next_branches.append((weight * p, part, new_value))
        branches = next_branches
    distribution = {}
    for weight, _, value in branches:
        distribution[value] = distribution.get(value, 0.0) + weight
    return distribution


G_TEST = """
from scipy.stats import chi2


def g_test_p_value(counts, expected, shots):
    # outcomes of probability 0 must never occur; the rest are binned so every bin expects >= 5
    impossible = [k for k in counts if expected.get(k, 0.0) <= 1e-12]
    assert not impossible, f"outcomes of probability 0 were sampled: {{impossible}} (counts {{counts}})"
    bins, pending_observed, pending_expected = [], 0, 0.0
    for key in sorted(expected, key=lambda k: expected[k]):
        pending_observed += counts.get(key, 0)
        pending_expected += expected[key] * shots
        if pending_expected >= 5:
            bins.append((pending_observed, pending_expected))
            pending_observed, pending_expected = 0, 0.0
    if pending_expected > 0 and bins:
        observed, wanted = bins.pop()
        bins.append((observed + pending_observed, wanted + pending_expected))
    if len(bins) < 2:
        return 1.0
    statistic = 2 * sum(o * np.log(o / e) for o, e in bins if o > 0)
    return float(chi2.sf(statistic, len(bins) - 1))

"""


def _sampling_program(subject, example):
    parametric = "sweep" in subject
    source, events, sizes, has_parameter = _sampling_circuit(example, parametric)
    n, m = example["circuit"][0], len(example["clbits"])
    sweep = example["sweep"] if parametric and has_parameter else [None]
    expectations = [_exact_outcomes(n, m, events, example["measured"], example["clbits"],
                                    override=None if value is None else (value,)) for value in sweep]
    expected = [{format(k, f"0{m}b"): p for k, p in e.items() if p > 1e-13} for e in expectations]
    head = "import numpy as np\n" + source + G_TEST
    head += f"expected = {expected!r}  # exact outcome distributions (branching simulation)\nshots = {SHOTS}\n"
    # outcome keys join the registers without spaces: the last register is most significant
    if subject.startswith("StatevectorSampler"):
        run = "from qiskit.primitives import StatevectorSampler\n"
        if parametric and has_parameter:
            run += (f"result = StatevectorSampler(seed={example['seed']}).run([(qc, {[[v] for v in sweep]!r})], shots=shots).result()[0]\n"
                    f"samples = []\nfor point in range({len(sweep)}):\n"
                    f"    data = result.data\n"
                    "    registers = [getattr(data, f'c{i}')[point].get_bitstrings() for i in reversed(range(" f"{len(sizes)}" "))]\n"
                    "    samples.append([''.join(parts) for parts in zip(*registers)])\n")
        else:
            if parametric:
                run += "qc = qc.assign_parameters({})\n"
            run += (f"data = StatevectorSampler(seed={example['seed']}).run([qc], shots=shots).result()[0].data\n"
                    f"registers = [getattr(data, f'c{{i}}').get_bitstrings() for i in reversed(range({len(sizes)}))]\n"
                    "samples = [[''.join(parts) for parts in zip(*registers)]]\n")
    else:
        run = ("from qiskit.providers.basic_provider import BasicSimulator\n"
               f"result = BasicSimulator().run(qc, shots=shots, seed_simulator={example['seed']}, memory=True).result()\n"
               "samples = [[s.replace(' ', '') for s in result.get_memory(qc)]]\n")
    law = ("for point, (outcomes, wanted) in enumerate(zip(samples, expected)):\n"
           "    counts = {}\n"
           "    for s in outcomes:\n"
           "        counts[s] = counts.get(s, 0) + 1\n"
           "    assert sum(counts.values()) == shots, f'{sum(counts.values())} samples for {shots} shots'\n"
           "    p = g_test_p_value(counts, wanted, shots)\n"
           f"    assert p >= {P_VALUE_FLOOR}, f'sampled counts {{counts}} do not follow the Born rule {{wanted}} (G test p = {{p:.2g}})'\n")
    return head + run + law


# -- estimator ---------------------------------------------------------------------------------

ESTIMATOR_FORMS = ["str", "Pauli", "SparsePauliOp", "SparseObservable", "dict", "list of observables",
                   "parameter sweep", "precision > 0"]


def _estimator_strategy(form):
    st = _st()

    @st.composite
    def example(draw):
        circuit = draw(_state_circuit_strategy(4))
        n = circuit[0]
        terms = draw(st.lists(st.tuples(st.text("IXYZ", min_size=n, max_size=n), st.sampled_from([1.0, -0.5, 2.0, 0.3])),
                              min_size=1, max_size=3))
        sweep = [draw(angles()) for _ in range(3)]
        precision = draw(st.sampled_from([0.01, 0.05, 0.2]))
        return {"circuit": circuit, "terms": terms, "sweep": sweep, "precision": precision,
                "seed": draw(st.integers(0, 2 ** 31 - 1))}

    return example()


def _parametric_source(circuit):
    """The state circuit with its first angle replaced by Parameter t (None when it has none)."""
    n = circuit[0]
    lines = [f"qc = QuantumCircuit({n})"]
    replaced = False
    for gate, params, qubits in _state_ops(circuit):
        values = [repr(p) for p in params]
        if values and not replaced:
            values[0] = "t"
            replaced = True
        lines.append(f"qc.{gate}({', '.join(values + [str(q) for q in qubits])})")
    return "\n".join(lines) + "\n", replaced


def _with_parameter(circuit):
    """A circuit with one angle the symbol t: its first angle, or an rz(t) appended on qubit 0."""
    source, replaced = _parametric_source(circuit)
    if replaced:
        return circuit, source
    n, operations = circuit
    return (n, list(operations) + [("rz", list(range(n)), [0.0, 0.0, 0.0])]), source + "qc.rz(t, 0)\n"


def _expectation_exact(circuit, terms, override=None):
    n = circuit[0]
    ops = _state_ops(circuit)
    if override is not None:
        for i, (gate, params, qubits) in enumerate(ops):
            if params:
                ops[i] = (gate, (override,) + tuple(params[1:]), qubits)
                break
    psi = oracle_core.statevector(ops, n)
    pauli_terms = [(c, {q: label[-1 - q] for q in range(n) if label[-1 - q] != "I"}) for label, c in terms]
    return oracle_core.observable_expectation(psi, pauli_terms)


def _estimator_program(form, example):
    circuit, terms = example["circuit"], example["terms"]
    head = ("import numpy as np\nfrom qiskit import QuantumCircuit\nfrom qiskit.circuit import Parameter\n"
            "from qiskit.primitives import StatevectorEstimator\n"
            + _quantum_info_import("Pauli", "SparsePauliOp", "SparseObservable"))
    if form == "parameter sweep":
        circuit, source = _with_parameter(circuit)
        expected = [_expectation_exact(circuit, terms, v) for v in example["sweep"]]
        return head + "t = Parameter('t')\n" + source + (
            f"expected = {expected!r}  # oracle_core statevector, one per sweep point\n"
            f"values = {[[v] for v in example['sweep']]!r}\n"
            f"evs = StatevectorEstimator().run([(qc, SparsePauliOp.from_list({terms!r}), values)]).result()[0].data.evs\n"
            "assert np.shape(evs) == (len(expected),), f'evs have shape {np.shape(evs)}'\n"
            "assert np.allclose(evs, expected, atol=1e-9), f'StatevectorEstimator gives {evs}, exact values {expected}'\n")
    source = _state_circuit_source(circuit)
    if form == "list of observables":
        observables = [label for label, _ in terms]
        expected = [_expectation_exact(circuit, [(label, 1.0)]) for label in observables]
        return head + source + (
            f"expected = {expected!r}  # oracle_core statevector\n"
            f"evs = StatevectorEstimator().run([(qc, {observables!r})]).result()[0].data.evs\n"
            "assert np.shape(evs) == (len(expected),), f'evs have shape {np.shape(evs)}'\n"
            "assert np.allclose(evs, expected, atol=1e-9), f'StatevectorEstimator gives {evs}, exact values {expected}'\n")
    if form in ("str", "Pauli"):
        terms = [(terms[0][0], 1.0)]
    expected = _expectation_exact(circuit, terms)
    observable = {"str": repr(terms[0][0]), "Pauli": f"Pauli({terms[0][0]!r})",
                  "SparsePauliOp": f"SparsePauliOp.from_list({terms!r})",
                  "SparseObservable": f"SparseObservable.from_list({terms!r})",
                  "dict": repr(_merge_terms(terms)), "precision > 0": f"SparsePauliOp.from_list({terms!r})"}[form]
    if form == "precision > 0":
        precision = example["precision"]
        return head + source + (
            f"expected = {expected!r}  # oracle_core statevector\n"
            f"result = StatevectorEstimator(seed={example['seed']}).run([(qc, {observable})], precision={precision}).result()[0]\n"
            "ev = float(result.data.evs)\n"
            f"# documented: precision is the standard error of the estimate; 6 sigma bounds a correct one\n"
            f"assert abs(ev - expected) <= 6 * {precision}, f'estimate {{ev}} is more than 6 x {precision} from the exact {{expected}}'\n")
    return head + source + (
        f"expected = {expected!r}  # oracle_core statevector\n"
        f"observable = {observable}\n"
        "ev = float(StatevectorEstimator().run([(qc, observable)]).result()[0].data.evs)\n"
        "assert abs(ev - expected) < 1e-9, f'StatevectorEstimator gives {ev} for {observable!r}, exact value {expected}'\n")


def _merge_terms(terms):
    merged = {}
    for label, c in terms:
        merged[label] = merged.get(label, 0.0) + c
    return merged


# -- seeds: reproducible, and independent across independent executions -----------------------

SEED_SUBJECTS = ["StatevectorSampler", "StatevectorEstimator(precision > 0)", "BasicSimulator",
                 "Statevector.sample_memory"]
INDEPENDENCE_SUBJECTS = ["StatevectorSampler: different seeds", "StatevectorSampler: pubs in one run",
                         "StatevectorSampler: points of a parameter sweep", "StatevectorEstimator: pubs in one run",
                         "BasicSimulator: different seeds", "BasicSimulator: circuits in one run",
                         "Statevector.sample_memory: successive calls"]


def _seed_strategy(subject):
    st = _st()
    return st.fixed_dictionaries({"n": st.integers(3, 5), "seed": st.integers(0, 2 ** 31 - 1),
                                  "other_seed": st.integers(0, 2 ** 31 - 1), "shots": st.integers(64, 128),
                                  "generator": st.booleans()})


UNIFORM_CIRCUIT = """from qiskit import QuantumCircuit
qc = QuantumCircuit({n})
qc.h(range({n}))
qc.measure_all()
"""


def _seed_program(subject, example):
    n, seed, shots = example["n"], example["seed"], example["shots"]
    head = "import numpy as np\n" + UNIFORM_CIRCUIT.format(n=n)
    seed_src = f"np.random.default_rng({seed})" if example["generator"] else repr(seed)
    if subject == "StatevectorSampler":
        run = (f"from qiskit.primitives import StatevectorSampler\n"
               f"def run():\n    return StatevectorSampler(seed={seed_src}).run([qc], shots={shots}).result()[0].data.meas.get_bitstrings()\n")
    elif subject == "StatevectorEstimator(precision > 0)":
        run = ("from qiskit.primitives import StatevectorEstimator\nqc.remove_final_measurements()\n"
               f"def run():\n    return StatevectorEstimator(seed={seed_src}).run([(qc, ['Z' * {n}, 'X' * {n}])], precision=0.1).result()[0].data.evs.tolist()\n")
    elif subject == "BasicSimulator":
        run = ("from qiskit.providers.basic_provider import BasicSimulator\n"
               f"def run():\n    return BasicSimulator().run(qc, shots={shots}, seed_simulator={seed}, memory=True).result().get_memory()\n")
    else:
        run = ("from qiskit.quantum_info import Statevector\nqc.remove_final_measurements()\n"
               f"def run():\n    state = Statevector(qc)\n    state.seed({seed})\n    return list(state.sample_memory({shots}))\n")
    return head + run + ("first, second = run(), run()\n"
                         f"assert first == second, 'two runs with the same seed differ: {subject} is not reproducible'\n")


def _independence_program(subject, example):
    n, seed, other, shots = example["n"], example["seed"], example["other_seed"], example["shots"]
    head = "import numpy as np\n" + UNIFORM_CIRCUIT.format(n=n)
    # each shot of a uniform n-qubit circuit has 2^n outcomes: two independent sequences of >= 64
    # shots coincide with probability 2^(-64 n)
    if subject == "StatevectorSampler: different seeds":
        other = other if other != seed else seed + 1
        body = ("from qiskit.primitives import StatevectorSampler\n"
                f"first = StatevectorSampler(seed={seed}).run([qc], shots={shots}).result()[0].data.meas.get_bitstrings()\n"
                f"second = StatevectorSampler(seed={other}).run([qc], shots={shots}).result()[0].data.meas.get_bitstrings()\n")
    elif subject == "StatevectorSampler: pubs in one run":
        body = ("from qiskit.primitives import StatevectorSampler\n"
                f"result = StatevectorSampler(seed={seed}).run([qc, qc], shots={shots}).result()\n"
                "first, second = result[0].data.meas.get_bitstrings(), result[1].data.meas.get_bitstrings()\n")
    elif subject == "StatevectorSampler: points of a parameter sweep":
        body = ("from qiskit.circuit import Parameter\nfrom qiskit.primitives import StatevectorSampler\n"
                "t = Parameter('t')\nqc.remove_final_measurements()\nqc.rz(t, 0)\nqc.measure_all()\n"
                f"data = StatevectorSampler(seed={seed}).run([(qc, [[0.0], [0.0]])], shots={shots}).result()[0].data.meas\n"
                "first, second = data.get_bitstrings(0), data.get_bitstrings(1)\n")
    elif subject == "StatevectorEstimator: pubs in one run":
        body = ("from qiskit.primitives import StatevectorEstimator\nqc.remove_final_measurements()\n"
                f"observables = ['Z' * {n}, 'X' * {n}, 'I' * {n}]\n"
                f"result = StatevectorEstimator(seed={seed}).run([(qc, observables), (qc, observables)], precision=0.1).result()\n"
                "first, second = result[0].data.evs.tolist(), result[1].data.evs.tolist()\n")
    elif subject == "BasicSimulator: different seeds":
        other = other if other != seed else seed + 1
        body = ("from qiskit.providers.basic_provider import BasicSimulator\n"
                f"first = BasicSimulator().run(qc, shots={shots}, seed_simulator={seed}, memory=True).result().get_memory()\n"
                f"second = BasicSimulator().run(qc, shots={shots}, seed_simulator={other}, memory=True).result().get_memory()\n")
    elif subject == "BasicSimulator: circuits in one run":
        body = ("from qiskit.providers.basic_provider import BasicSimulator\n"
                "copy = qc.copy(name='second')\n"
                f"result = BasicSimulator().run([qc, copy], shots={shots}, seed_simulator={seed}, memory=True).result()\n"
                "first, second = result.get_memory(0), result.get_memory(1)\n")
    else:
        body = ("from qiskit.quantum_info import Statevector\nqc.remove_final_measurements()\n"
                f"state = Statevector(qc)\nstate.seed({seed})\n"
                f"first, second = list(state.sample_memory({shots})), list(state.sample_memory({shots}))\n")
    return head + body + (f"assert first != second, 'independent executions repeated each other exactly ({subject})'\n")


# -- pub forms ---------------------------------------------------------------------------------

SAMPLER_PUB_FORMS = ["QuantumCircuit", "(circuit,)", "(circuit, None)", "(circuit, None, shots)", "run(shots=)",
                     "SamplerPub.coerce", "parameter values as dict", "parameter values as array",
                     "parameter values by name", "BindingsArray"]
ESTIMATOR_PUB_FORMS = ["(circuit, observable, None)", "(circuit, [observable])", "(circuit, observable, values)",
                       "(circuit, observable, values dict)", "(circuit, observable, BindingsArray)",
                       "EstimatorPub.coerce", "(circuit, observable, None, precision)", "ObservablesArray"]


def _pub_strategy(subject):
    st = _st()
    return st.fixed_dictionaries({"circuit": _state_circuit_strategy(3, min_qubits=3), "seed": st.integers(0, 2 ** 31 - 1),
                                  "value": angles(), "shots": st.integers(10, 60),
                                  "terms": st.lists(st.tuples(st.text("IXYZ", min_size=3, max_size=3),
                                                              st.sampled_from([1.0, -0.5, 0.3])), min_size=1, max_size=3)})


def _pub_circuit_source(example):
    _, source = _with_parameter(example["circuit"])
    return "from qiskit.circuit import Parameter\nt = Parameter('t')\n" + source


def _sampler_pub_program(form, example):
    seed, shots, value = example["seed"], example["shots"], example["value"]
    head = ("import numpy as np\nfrom qiskit import QuantumCircuit\n"
            "from qiskit.primitives import StatevectorSampler\n"
            "from qiskit.primitives.containers.sampler_pub import SamplerPub\n"
            "from qiskit.primitives.containers.bindings_array import BindingsArray\n")
    head += _pub_circuit_source(example)
    parametric = form.startswith("parameter") or form == "BindingsArray"
    if parametric:
        head += "qc.measure_all()\n"
        canonical = f"(qc, np.array([{value!r}]), {shots})"
        pub = {"parameter values as dict": f"(qc, {{t: {value!r}}}, {shots})",
               "parameter values as array": f"(qc, [{value!r}], {shots})",
               "parameter values by name": f"(qc, {{'t': {value!r}}}, {shots})",
               "BindingsArray": f"(qc, BindingsArray({{t: {value!r}}}), {shots})"}[form]
        run_kwargs = ""
    else:
        head += f"qc = qc.assign_parameters({{t: {value!r}}})\nqc.measure_all()\n"
        canonical = f"(qc, None, {shots})"
        pub = {"QuantumCircuit": "qc", "(circuit,)": "(qc,)", "(circuit, None)": "(qc, None)",
               "(circuit, None, shots)": f"(qc, None, {shots})", "run(shots=)": "(qc,)",
               "SamplerPub.coerce": f"SamplerPub.coerce(qc, {shots})"}[form]
        run_kwargs = "" if form == "(circuit, None, shots)" or form == "SamplerPub.coerce" else f", shots={shots}"
    return head + (
        f"canonical = StatevectorSampler(seed={seed}).run([{canonical}]).result()[0].data.meas\n"
        f"other = StatevectorSampler(seed={seed}).run([{pub}]{run_kwargs}).result()[0].data.meas\n"
        "assert other.num_shots == canonical.num_shots, f'{other.num_shots} shots, expected {canonical.num_shots}'\n"
        "assert other.shape == canonical.shape, f'shape {other.shape}, expected {canonical.shape}'\n"
        f"assert other.get_bitstrings() == canonical.get_bitstrings(), 'the pub form {form} samples differently from the canonical form under the same seed'\n")


def _estimator_pub_program(form, example):
    value, terms = example["value"], example["terms"]
    head = ("import numpy as np\nfrom qiskit import QuantumCircuit\n"
            "from qiskit.primitives import StatevectorEstimator\n"
            "from qiskit.primitives.containers.estimator_pub import EstimatorPub\n"
            "from qiskit.primitives.containers.bindings_array import BindingsArray\n"
            "from qiskit.primitives.containers.observables_array import ObservablesArray\n"
            "from qiskit.quantum_info import SparsePauliOp\n")
    head += _pub_circuit_source(example) + f"observable = SparsePauliOp.from_list({terms!r})\n"
    canonical = f"(qc, observable, [{value!r}])"
    bound = f"qc.assign_parameters({{t: {value!r}}})"
    pub, shape = {"(circuit, observable, None)": (f"({bound}, observable, None)", "()"),
                  "(circuit, [observable])": (f"({bound}, [observable])", "(1,)"),
                  "(circuit, observable, values)": (f"(qc, observable, np.array([{value!r}]))", "()"),
                  "(circuit, observable, values dict)": (f"(qc, observable, {{t: {value!r}}})", "()"),
                  "(circuit, observable, BindingsArray)": (f"(qc, observable, BindingsArray({{t: {value!r}}}))", "()"),
                  "EstimatorPub.coerce": (f"EstimatorPub.coerce((qc, observable, [{value!r}]))", "()"),
                  "(circuit, observable, None, precision)": (f"({bound}, observable, None, 0.0)", "()"),
                  "ObservablesArray": (f"({bound}, ObservablesArray(observable))", "()")}[form]
    return head + (
        f"canonical = StatevectorEstimator().run([{canonical}]).result()[0].data.evs\n"
        f"other = StatevectorEstimator().run([{pub}]).result()[0].data.evs\n"
        f"assert np.shape(other) == {shape}, f'evs have shape {{np.shape(other)}}, expected {shape}'\n"
        "assert np.allclose(np.ravel(other), np.ravel(canonical), atol=1e-12), "
        f"f'the pub form {form} gives {{other}}, the canonical form {{canonical}}'\n")


# =============================================================================================
# Catalog

def _contract(id, family, law, source, subjects, strategy, builder, api, validity="documented", describe=None):
    """A contract whose check runs the law program and whose reproducer is that program."""
    return Contract(id, family, law, source, subjects, strategy, _check_program(builder), builder,
                    api, validity=validity, describe=describe)


CONVERT = "representation conversion"
RESULT = "measurement and result processing"
EXEC = "execution"


def _execution_api(subject):
    """The public entry point an execution subject ("StatevectorSampler: pubs in one run", ...) runs."""
    apis = {"StatevectorSampler": "qiskit.primitives.StatevectorSampler.run",
            "StatevectorEstimator": "qiskit.primitives.StatevectorEstimator.run",
            "BasicSimulator": "qiskit.providers.basic_provider.BasicSimulator.run",
            "Statevector.sample_memory": "qiskit.quantum_info.Statevector.sample_memory"}
    for prefix, api in apis.items():
        if subject.startswith(prefix):
            return api
    raise KeyError(subject)


def _fixed(names):
    return lambda: list(names)


# Classes younger than the laws that use them (SparseObservable: 1.3): a form built on one is
# not a subject where the release lacks it, and programs import only what the release has.
RECENT_CLASSES = ("SparseObservable",)


def _fixed_available(names):
    def subjects():
        import qiskit.quantum_info as qi

        missing = [c for c in RECENT_CLASSES if not hasattr(qi, c)]
        return [n for n in names if not any(c in n for c in missing)]

    return subjects


def _quantum_info_import(*names):
    import qiskit.quantum_info as qi

    return "from qiskit.quantum_info import " + ", ".join(n for n in names if hasattr(qi, n)) + "\n"


CONTRACTS = [
    _contract("qiskit.convert.roundtrip-preserves-operator", CONVERT,
              "converting a circuit (DAG, instruction, gate, OpenQASM 2/3, QPY, copy, deepcopy) and back preserves its "
              "operator for every parameter binding, global phase included where the format carries one",
              "documentation: qiskit.converters, qiskit.qasm2 (no global phase in OpenQASM 2), qiskit.qpy, "
              "QuantumCircuit.copy; quantum semantics",
              _operator_subjects, _operator_strategy, _operator_program,
              lambda s: ROUTE_API[_split(s)[0]], describe=_describe_recipe),
    _contract("qiskit.convert.roundtrip-preserves-circuit-data", CONVERT,
              "a round trip preserves registers and the instruction layout, and (where the format carries them) the "
              "name, metadata, parameters (identity and vector membership) and the global phase",
              "documentation: QuantumCircuit.copy ('a deepcopy of the current circuit'), copy_empty_like (name and "
              "metadata), circuit_to_dag, qiskit.qpy (round-trips every circuit attribute), qiskit.qasm2 (registers)",
              _structure_subjects, _structure_strategy, _structure_program, lambda s: ROUTE_API[s],
              describe=_describe_structure),
    _contract("qiskit.convert.roundtrip-owns-metadata", CONVERT,
              "the circuit a round trip returns owns its metadata: changing it (nested values too, where the docs "
              "promise a deep copy) leaves the original circuit's metadata unchanged",
              "documentation: QuantumCircuit.copy returns 'a deepcopy of the current circuit'; for the DAG converters "
              "and QPY the docs promise new objects but say nothing of metadata (hence undocumented)",
              _ownership_subjects, _ownership_strategy, lambda route, e: _ownership_program(route, e),
              lambda s: ROUTE_API[s], validity="undocumented",
              describe=_describe_structure),
    _contract("qiskit.convert.pauli-forms-agree", CONVERT,
              "Pauli, SparsePauliOp and SparseObservable give the matrix of the Pauli sum they represent (label "
              "character k from the right acts on qubit k), in every documented construction and conversion",
              "documentation: qiskit.quantum_info.Pauli (label and phase conventions), SparsePauliOp, SparseObservable",
              _fixed_available(PAULI_FORMS), _pauli_strategy, _pauli_program, lambda s: f"qiskit.quantum_info.{s}"),
    _contract("qiskit.convert.clifford-forms-agree", CONVERT,
              "every representation of a Clifford (tableau, matrix, operator, synthesized circuit, dict, labels, "
              "composition, adjoint, power, tensor, stabilizer probabilities) agrees with the circuit's operator up "
              "to global phase", "documentation: qiskit.quantum_info.Clifford (global phase is not tracked)",
              _fixed(CLIFFORD_FORMS), _clifford_strategy, _clifford_program, lambda s: f"qiskit.quantum_info.{s}"),
    _contract("qiskit.convert.pauli-evolve-is-conjugation", CONVERT,
              "Pauli-type objects evolve by conjugation: P.evolve(C, qargs, frame) has the matrix C^dagger.P.C "
              "(frame 'h', the default) or C.P.C^dagger (frame 's'), phase included, where C is a Clifford gate, "
              "a circuit of Clifford gates, a Clifford or a Pauli placed on qargs (in their order); for Pauli, every "
              "element of a PauliList, and SparseObservable (P^dagger.O.P by a Pauli)",
              "documentation: Pauli.evolve, PauliList.evolve ('Heisenberg picture evolves the Pauli as "
              "C^dagger.P.C', 'Schrodinger picture ... C.P.C^dagger', qargs 'a list of qubits to apply the "
              "Clifford to'), SparseObservable.evolve ('corresponds to P^dagger O P'); quantum semantics",
              _evolve_subjects, _evolve_strategy, _evolve_program,
              lambda s: f"qiskit.quantum_info.{_evolve_split(s)[0]}.evolve", describe=_describe_evolve),
    _contract("qiskit.convert.state-forms-agree", CONVERT,
              "Statevector and DensityMatrix built from circuits, instructions, labels, evolution and conversions "
              "equal the exact state from an independent simulation, global phase included",
              "quantum semantics; documentation: Statevector.from_label (0 1 + - r l)", _fixed(STATE_FORMS),
              _state_strategy, _state_program, lambda s: f"qiskit.quantum_info.{s.split('(')[0]}"),
    _contract("qiskit.result.marginals-agree-with-counting", RESULT,
              "marginal_counts, marginal_distribution, marginal_memory and Counts key forms equal counting outcomes "
              "by hand (marginal_distribution keeps the order of indices; marginal_counts keeps bit significance)",
              "documentation: qiskit.result.marginal_counts, marginal_distribution, marginal_memory, Counts",
              _fixed(MARGINAL_FORMS), _counts_strategy, _marginal_program, lambda s: f"qiskit.result.{s.split('(')[0]}"),
    _contract("qiskit.result.sampled-expectation-agrees", RESULT,
              "sampled_expectation_value equals the weighted average of the observable's eigenvalues over the "
              "distribution (for complex coefficients the complex sum of coefficient x average, by linearity), for "
              "every documented distribution and observable form",
              "documentation: qiskit.result.sampled_expectation_value", _fixed_available(EXPECTATION_FORMS),
              _expectation_strategy, _expectation_program, lambda s: "qiskit.result.sampled_expectation_value"),
    _contract("qiskit.result.bitarray-agrees-with-bits", RESULT,
              "every BitArray operation equals the same operation on the unpacked bits (bit 0 least significant)",
              "documentation: qiskit.primitives.BitArray", _fixed(BITARRAY_FORMS), _bitarray_strategy,
              _bitarray_program, lambda s: f"qiskit.primitives.BitArray.{s}"),
    _contract("qiskit.result.state-probabilities-agree", RESULT,
              "probabilities, probabilities_dict, measure and expectation_value of Statevector, DensityMatrix and "
              "StabilizerState equal the exact values (qargs[0] least significant)",
              "documentation: Statevector.probabilities / expectation_value (qargs), quantum semantics",
              _fixed(PROBABILITY_FORMS), _probability_strategy, _probability_program,
              lambda s: f"qiskit.quantum_info.{s.split('(')[0]}"),
    _contract("qiskit.result.information-measures-agree", RESULT,
              "entropy, state_fidelity, partial_trace, purity, mutual_information, shannon_entropy, negativity and "
              "concurrence equal their textbook formulas computed with numpy",
              "documentation: qiskit.quantum_info (formulas in each function's docstring)", _fixed(INFORMATION_FORMS),
              _information_strategy, _information_program, lambda s: f"qiskit.quantum_info.{s.split('(')[0]}"),
    _contract("qiskit.exec.samples-follow-born-rule", EXEC,
              "samplers and the basic simulator draw outcomes from the exact distribution (incl. mid-circuit "
              "measurement and reset): no impossible outcome, and a G test does not reject at p < 1e-8",
              "quantum semantics (Born rule); documentation: StatevectorSampler, BasicSimulator",
              _fixed(SAMPLER_SUBJECTS), _sampling_strategy, _sampling_program,
              lambda s: "qiskit.primitives.StatevectorSampler.run" if s.startswith("Statevector")
              else "qiskit.providers.basic_provider.BasicSimulator.run"),
    _contract("qiskit.exec.estimator-matches-expectation", EXEC,
              "StatevectorEstimator returns the exact expectation value at precision 0, for every documented "
              "observable form and parameter sweep, and values within 6 x precision otherwise",
              "documentation: StatevectorEstimator ('exact if the circuit contains only unitary operations')",
              _fixed_available(ESTIMATOR_FORMS), _estimator_strategy, _estimator_program,
              lambda s: "qiskit.primitives.StatevectorEstimator.run"),
    _contract("qiskit.exec.seeded-runs-reproducible", EXEC,
              "two runs with the same seed return the same samples / estimates",
              "documentation: seed arguments of StatevectorSampler, StatevectorEstimator, BasicSimulator "
              "(seed_simulator), Statevector.seed", _fixed(SEED_SUBJECTS), _seed_strategy, _seed_program,
              _execution_api),
    _contract("qiskit.exec.independent-executions-differ", EXEC,
              "independent executions (different seeds, separate pubs or circuits of one run, points of a sweep, "
              "successive sampling calls) do not repeat each other's shot sequences",
              "quantum semantics: separate executions of a circuit are independent; each pub/circuit of a run is "
              "its own execution (BaseSamplerV2 / BaseEstimatorV2 pubs, BackendV2.run)",
              _fixed(INDEPENDENCE_SUBJECTS), _seed_strategy, _independence_program,
              _execution_api,
              validity="undocumented"),
    _contract("qiskit.exec.sampler-pub-forms-agree", EXEC,
              "every documented sampler pub form (bare circuit, tuples, SamplerPub, parameter values as array, dict, "
              "names or BindingsArray, shots in the pub or in run) samples exactly like the canonical tuple form "
              "under the same seed", "documentation: SamplerPubLike / BaseSamplerV2.run",
              _fixed(SAMPLER_PUB_FORMS), _pub_strategy, _sampler_pub_program,
              lambda s: "qiskit.primitives.StatevectorSampler.run"),
    _contract("qiskit.exec.estimator-pub-forms-agree", EXEC,
              "every documented estimator pub form (parameter values as array, dict or BindingsArray, observables "
              "as a list or ObservablesArray, EstimatorPub, explicit precision) gives the canonical form's values "
              "and documented shape", "documentation: EstimatorPubLike / BaseEstimatorV2.run",
              _fixed(ESTIMATOR_PUB_FORMS), _pub_strategy, _estimator_pub_program,
              lambda s: "qiskit.primitives.StatevectorEstimator.run"),
]
