"""Circuit metrics, Qiskit: depth, size, width, count_ops, non-local gate and factor counts of
QuantumCircuit and DAGCircuit agree with an independent count, for circuits holding every
kind of instruction the release supports, not only plain gates:

zero-operand instructions (GlobalPhaseGate), barriers, delays, measure, reset, instructions with
qubits and clbits, gates conditioned with c_if (releases that have it), if/else, while, for and
switch control flow with legacy (bit/register, value) conditions and `classical.expr`
conditions, real-time variables and Store (releases that have them), over several registers.

The independent model: every instruction touches wires — its qubits, its clbits, the clbits
its condition (or switch target) reads, and the real-time variables it reads or writes. Depth is
the longest chain of counted instructions, each sharing a wire with the next (the documented
"critical path"). Where the docs leave a point open, the law accepts every reading of it and
nothing else:
  - an instruction a depth filter rejects is "ignored" (docstring); whether it still
    synchronises its wires is not documented: both values are accepted;
  - an instruction touching no wire (GlobalPhaseGate) may form a path of its own or none;
  - whether a non-gate instruction on 2+ qubits (control flow, a 2-qubit instruction with a
    clbit) is a "non-local gate" is not documented: any count between the gates only and all
    such instructions is accepted;
  - whether classical variables join connected components is not documented: both accepted;
  - whether a Store is a "directive" is not documented (its docstring likens it to Measure, the
    releases mark it one): both readings are accepted, each for the whole circuit.
QuantumCircuit.size/count_ops count the circuit's own (top-level) instructions.
Documented specifics followed per release: QuantumCircuit.depth/size filter out directives
(barrier) by default; QuantumCircuit.depth is "not well defined" with control flow on releases
that warn so (no control flow is generated for it there); DAGCircuit.depth/size raise on control
flow unless recurse=True (documented: such circuits are not generated for them); with
recurse=True (where documented) for loops count unrolled, if/else the sum (size) or the longer
branch (depth), while loops one pass (switch is not documented there: not generated);
DAGCircuit.count_ops recurses by default, counting ops in every block once.
"""

from contract_runtime import Contract

GATES = {"h": (1, 0), "x": (1, 0), "rz": (1, 1), "cx": (2, 0), "swap": (2, 0), "rzz": (2, 1), "ccx": (3, 0)}


# -- what the release has ------------------------------------------------------------------
def _has_c_if():
    from qiskit.circuit import Instruction

    return hasattr(Instruction, "c_if")


def _has_vars():
    from qiskit import QuantumCircuit

    return hasattr(QuantumCircuit, "add_uninitialized_var") and hasattr(QuantumCircuit, "store")


def _has_switch():
    from qiskit import QuantumCircuit

    return hasattr(QuantumCircuit, "switch")


def _depth_defined_with_control_flow():
    from qiskit import QuantumCircuit

    return "not well defined" not in (QuantumCircuit.depth.__doc__ or "")


# -- the circuits -----------------------------------------------------------------------------
def _circuits(control_flow=True, switch=True):
    """(qregs, cregs, use_vars, ops): qregs/cregs are (name, size) pairs; ops are tuples."""
    from hypothesis import strategies as st

    c_if, has_vars, switch = _has_c_if(), _has_vars(), switch and _has_switch()

    @st.composite
    def circuit(draw):
        qregs = [("q", draw(st.integers(1, 3)))] + ([("r", 1)] if draw(st.booleans()) else [])
        cregs = [("c", draw(st.integers(0, 2)))]
        cregs = [r for r in cregs if r[1]] + ([("d", 1)] if draw(st.booleans()) else [])
        use_vars = has_vars and draw(st.booleans())
        qubits = [f"{n}[{i}]" for n, s in qregs for i in range(s)]
        clbits = [f"{n}[{i}]" for n, s in cregs for i in range(s)]
        conditions = bool(clbits) or use_vars

        def gate():
            names = [g for g, (k, _) in GATES.items() if k <= len(qubits)]
            name = draw(st.sampled_from(names))
            k, p = GATES[name]
            return (name, (0.5,) * p, tuple(draw(st.permutations(qubits))[:k]))

        def condition(legacy_only=False):
            kinds = []
            if clbits:
                kinds += ["bit", "reg"] + ([] if legacy_only else ["not", "eq", "or"])
            if use_vars and not legacy_only:
                kinds += ["var", "notvar"]
            kind = draw(st.sampled_from(kinds))
            if kind in ("bit", "not"):
                return (kind, draw(st.sampled_from(clbits)), draw(st.integers(0, 1)))
            if kind in ("reg", "eq"):
                name, size = draw(st.sampled_from(cregs))
                return (kind, name, draw(st.integers(0, 2 ** size - 1)))
            if kind == "or":
                return (kind, draw(st.sampled_from(clbits)), draw(st.sampled_from(clbits)))
            return (kind,)

        kinds = ["gate", "gate", "global_phase", "barrier", "delay", "reset"]
        if clbits:
            kinds += ["measure", "kraus"] + (["c_if"] if c_if else [])
        if control_flow and conditions:
            kinds += ["if", "while"] + (["switch"] if switch else [])
        if control_flow:
            kinds += ["for"]
        if use_vars:
            kinds += ["store"]
        ops = []
        for _ in range(draw(st.integers(0, 8))):
            kind = draw(st.sampled_from(kinds))
            if kind == "gate":
                ops.append(("gate",) + gate())
            elif kind == "global_phase":
                ops.append((kind,))
            elif kind == "barrier":
                ops.append((kind, tuple(draw(st.lists(st.sampled_from(qubits), min_size=1, unique=True)))))
            elif kind in ("delay", "reset"):
                ops.append((kind, draw(st.sampled_from(qubits))))
            elif kind == "measure":
                ops.append((kind, draw(st.sampled_from(qubits)), draw(st.sampled_from(clbits))))
            elif kind == "kraus":
                k = draw(st.integers(1, min(2, len(qubits))))
                ops.append((kind, tuple(draw(st.permutations(qubits))[:k]), draw(st.sampled_from(clbits))))
            elif kind == "c_if":
                ops.append((kind, gate(), condition(legacy_only=True)))
            elif kind == "if":
                ops.append((kind, condition(), gate(), gate() if draw(st.booleans()) else None))
            elif kind == "while":
                ops.append((kind, condition(), gate()))
            elif kind == "for":
                ops.append((kind, gate()))
            elif kind == "switch":
                targets = [("bit", b) for b in clbits] + [("reg", n) for n, _ in cregs] + ([("var",)] if use_vars else [])
                ops.append((kind, draw(st.sampled_from(targets)), gate(), gate()))
            elif kind == "store":
                values = [("not",), ("lit",)] + [("bit", b) for b in clbits]
                ops.append((kind, draw(st.sampled_from(values))))
        return (tuple(qregs), tuple(cregs), use_vars, tuple(ops))

    return circuit()


def _cond_text(cond):
    kind = cond[0]
    if kind == "bit":
        return f"({cond[1]}, {cond[2]})"
    if kind == "reg":
        return f"({cond[1]}, {cond[2]})"
    if kind == "not":
        return f"expr.logic_not({cond[1]})"
    if kind == "eq":
        return f"expr.equal({cond[1]}, {cond[2]})"
    if kind == "or":
        return f"expr.logic_or({cond[1]}, {cond[2]})"
    if kind == "var":
        return "v"
    return "expr.logic_not(v)"


def _gate_text(g):
    name, params, qubits = g
    return f"qc.{name}({', '.join([repr(p) for p in params] + list(qubits))})"


def circuit_text(circuit):
    qregs, cregs, use_vars, ops = circuit
    lines = [f"{n} = QuantumRegister({s}, '{n}')" for n, s in qregs]
    lines += [f"{n} = ClassicalRegister({s}, '{n}')" for n, s in cregs]
    lines.append(f"qc = QuantumCircuit({', '.join(n for n, _ in qregs + cregs)})")
    if use_vars:
        lines += ["v = expr.Var.new('v', types.Bool())", "qc.add_uninitialized_var(v)"]
    for op in ops:
        kind = op[0]
        if kind == "gate":
            lines.append(_gate_text(op[1:]))
        elif kind == "global_phase":
            lines.append("qc.append(GlobalPhaseGate(0.5), [])")
        elif kind == "barrier":
            lines.append(f"qc.barrier({', '.join(op[1])})")
        elif kind == "delay":
            lines.append(f"qc.delay(10, {op[1]})")
        elif kind == "reset":
            lines.append(f"qc.reset({op[1]})")
        elif kind == "measure":
            lines.append(f"qc.measure({op[1]}, {op[2]})")
        elif kind == "kraus":
            lines.append(f"qc.append(Instruction('kraus', {len(op[1])}, 1, []), [{', '.join(op[1])}], [{op[2]}])")
        elif kind == "c_if":
            lines.append(f"{_gate_text(op[1])}.c_if({op[2][1]}, {op[2][2]})")
        elif kind == "if":
            lines.append(f"with qc.if_test({_cond_text(op[1])})" + (" as else_:" if op[3] else ":"))
            lines.append("    " + _gate_text(op[2]))
            if op[3]:
                lines += ["with else_:", "    " + _gate_text(op[3])]
        elif kind == "while":
            lines += [f"with qc.while_loop({_cond_text(op[1])}):", "    " + _gate_text(op[2])]
        elif kind == "for":
            lines += ["with qc.for_loop(range(2)):", "    " + _gate_text(op[1])]
        elif kind == "switch":
            target = "v" if op[1][0] == "var" else op[1][1]
            lines += [f"with qc.switch({target}) as case:", "    with case(0):", "        " + _gate_text(op[2]),
                      "    with case(case.DEFAULT):", "        " + _gate_text(op[3])]
        elif kind == "store":
            value = {"not": "expr.logic_not(v)", "lit": "True"}.get(op[1][0]) or f"expr.lift({op[1][1]})"
            lines.append(f"qc.store(v, {value})")
    return "\n".join(lines)


HEADER = ("from qiskit import QuantumCircuit, QuantumRegister, ClassicalRegister\n"
          "from qiskit.circuit import Instruction\n"
          "from qiskit.circuit.classical import expr, types\n"
          "from qiskit.circuit.library import GlobalPhaseGate\n"
          "from qiskit.converters import circuit_to_dag\n")


def build(circuit):
    namespace = {}
    exec(HEADER + circuit_text(circuit), namespace)
    return namespace["qc"]


# -- the independent model -------------------------------------------------------------------
def _register_bits(cregs, name):
    return [f"{name}[{i}]" for n, s in cregs for i in range(s) if n == name]


def _cond_wires(cregs, cond):
    """(clbits, vars) a condition reads: a register condition reads all its bits."""
    kind = cond[0]
    if kind in ("bit", "not"):
        return {cond[1]}, set()
    if kind in ("reg", "eq"):
        return set(_register_bits(cregs, cond[1])), set()
    if kind == "or":
        return {cond[1], cond[2]}, set()
    return set(), {"v"}


def model(circuit, store_is_directive=False):
    """Per top-level instruction: dict(name, qubits, clbits (incl. condition reads), vars,
    directive, gate, control_flow, inner: names of the ops in its blocks, each block once)."""
    _, cregs, _, ops = circuit
    out = []
    for op in ops:
        kind = op[0]
        m = {"name": kind, "qubits": set(), "clbits": set(), "vars": set(), "directive": False,
             "gate": False, "control_flow": False, "inner": [], "op_clbits": set()}
        if kind == "gate":
            m.update(name=op[1], qubits=set(op[3]), gate=True)
        elif kind == "global_phase":
            m.update(gate=True)
        elif kind == "barrier":
            m.update(qubits=set(op[1]), directive=True)
        elif kind in ("delay", "reset"):
            m.update(qubits={op[1]})
        elif kind == "measure":
            m.update(qubits={op[1]}, clbits={op[2]})
        elif kind == "kraus":
            m.update(qubits=set(op[1]), clbits={op[2]})
        elif kind == "c_if":
            m.update(name=op[1][0], qubits=set(op[1][2]), clbits=_cond_wires(cregs, op[2])[0], gate=True)
        elif kind in ("if", "while", "for", "switch"):
            gates = [g for g in op[2:] if g is not None] if kind != "for" else [op[1]]
            if kind == "for":
                clbits, variables = set(), set()
            elif kind == "switch":
                target = op[1]
                clbits, variables = ((set(), {"v"}) if target[0] == "var" else
                                     ({target[1]}, set()) if target[0] == "bit" else
                                     (set(_register_bits(cregs, target[1])), set()))
            else:
                clbits, variables = _cond_wires(cregs, op[1])
            m.update(name={"if": "if_else", "while": "while_loop", "for": "for_loop", "switch": "switch_case"}[kind],
                     qubits={q for g in gates for q in g[2]}, clbits=clbits, vars=variables, control_flow=True,
                     inner=[g[0] for g in gates],
                     # recursive DAG counts (documented for if/else, for, while; blocks of one gate):
                     # for range(2) unrolled, if/else sums (size) or takes the longer (depth)
                     # branch, while as if the body ran once
                     recursive_size={"for": 2, "if": len(gates), "while": 1}.get(kind),
                     recursive_depth={"for": 2, "if": 1, "while": 1}.get(kind))
        elif kind == "store":
            value = op[1]
            m.update(clbits={value[1]} if value[0] == "bit" else set(), vars={"v"}, directive=store_is_directive)
        if kind not in ("c_if", "store"):
            # the instruction's own clbits: a c_if condition and a Store's reads are not among
            # them; a control-flow builder puts the clbits its condition reads there
            m["op_clbits"] = m["clbits"]
        out.append(m)
    return out


def _wires(m, with_vars=True):
    return [("q", w) for w in m["qubits"]] + [("c", w) for w in m["clbits"]] + (
        [("v", w) for w in m["vars"]] if with_vars else [])


def depths(instructions, counted):
    """Every depth the docs allow: the longest chain of counted instructions sharing wires, with
    rejected instructions synchronising their wires or ignored, and wireless instructions a
    path of their own or nothing."""
    answers = set()
    for synchronise in (True, False):
        for wireless_counts in (True, False):
            level, best = {}, 0
            for m in instructions:
                wires = _wires(m)
                count = int(counted(m))  # the instruction's weight on the path, 0: not counted
                if not wires:
                    if count and wireless_counts:
                        best = max(best, count)
                    continue
                if not count and not synchronise:
                    continue
                here = count + max(level.get(w, 0) for w in wires)
                for w in wires:
                    level[w] = here
                best = max(best, here)
            answers.add(best)
    return answers


def components(circuit, instructions, unitary_only):
    """Connected components over qubits (and clbits): every non-directive instruction joins the
    wires it touches; with and without joining through classical variables."""
    qregs, cregs, _, _ = circuit
    bits = [("q", f"{n}[{i}]") for n, s in qregs for i in range(s)]
    if not unitary_only:
        bits += [("c", f"{n}[{i}]") for n, s in cregs for i in range(s)]
    answers = set()
    for through_vars in ((False,) if unitary_only else (False, True)):
        parent = {b: b for b in bits}
        parent[("v", "v")] = ("v", "v")

        def find(w, parent=parent):
            while parent[w] != w:
                w = parent[w]
            return w

        for m in instructions:
            if m["directive"]:
                continue
            wires = [("q", q) for q in m["qubits"]] if unitary_only else _wires(m, with_vars=through_vars)
            for w in wires[1:]:
                parent[find(w)] = find(wires[0])
        answers.add(len({find(b) for b in bits}))
    return answers


def _counts(names):
    counts = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    return counts


def _dag_depth(c, ms):
    return depths(ms, lambda m: True)


def _nonlocal(c, ms):
    gates = sum(m["gate"] and len(m["qubits"]) > 1 for m in ms)
    others = sum(not m["gate"] and not m["directive"] and len(m["qubits"]) > 1 for m in ms)
    return set(range(gates, gates + others + 1))


# The filters' input is documented as a (Instruction, qubits, clbits) tuple (1.x; size() still
# says so in 2.x) or a CircuitInstruction (depth, 2.x): these filters read either.
def _filter_2q():
    return "lambda instruction: len(getattr(instruction, 'qubits', None) or instruction[1]) > 1"


def _filter_clbits():
    return "lambda instruction: len(getattr(instruction, 'clbits', None) or instruction[2]) > 0"


class _Counts(dict):
    """A dict of counts that can sit in a set of accepted answers."""

    def __hash__(self):
        return hash(tuple(sorted(self.items())))


# subject -> (expression, accepted answers: (circuit, model) -> set, control flow generated:
# True, False, or "qc_depth" = unless the release's depth docstring calls it not well defined)
METRICS = {
    "QuantumCircuit.depth": (
        lambda: "qc.depth()", lambda c, ms: depths(ms, lambda m: not m["directive"]), "qc_depth"),
    "QuantumCircuit.depth(filter_function)": (
        lambda: f"qc.depth({_filter_2q()})", lambda c, ms: depths(ms, lambda m: len(m["qubits"]) > 1), "qc_depth"),
    "QuantumCircuit.size": (
        lambda: "qc.size()", lambda c, ms: {sum(not m["directive"] for m in ms)}, True),
    "QuantumCircuit.size(filter_function)": (
        lambda: f"qc.size({_filter_clbits()})", lambda c, ms: {sum(bool(m["op_clbits"]) for m in ms)}, True),
    "QuantumCircuit.width": (
        lambda: "qc.width()", lambda c, ms: {sum(s for _, s in c[0]) + sum(s for _, s in c[1])}, True),
    "QuantumCircuit.count_ops": (
        lambda: "dict(qc.count_ops())", lambda c, ms: {_Counts(_counts(m["name"] for m in ms))}, True),
    "QuantumCircuit.num_nonlocal_gates": (lambda: "qc.num_nonlocal_gates()", _nonlocal, True),
    "QuantumCircuit.num_connected_components": (
        lambda: "qc.num_connected_components()", lambda c, ms: components(c, ms, False), True),
    "QuantumCircuit.num_connected_components(unitary_only)": (
        lambda: "qc.num_connected_components(unitary_only=True)", lambda c, ms: components(c, ms, True), True),
    "QuantumCircuit.num_unitary_factors": (
        lambda: "qc.num_unitary_factors()", lambda c, ms: components(c, ms, True), True),
    "QuantumCircuit.num_tensor_factors": (
        lambda: "qc.num_tensor_factors()", lambda c, ms: components(c, ms, True), True),
    # DAGCircuit.depth/size document no directive filter: every op node counts
    "DAGCircuit.depth": (lambda: "circuit_to_dag(qc).depth()", _dag_depth, False),
    "DAGCircuit.size": (lambda: "circuit_to_dag(qc).size()", lambda c, ms: {len(ms)}, False),
    "DAGCircuit.depth(recurse)": (
        lambda: "circuit_to_dag(qc).depth(recurse=True)",
        lambda c, ms: depths(ms, lambda m: m["recursive_depth"] if m["control_flow"] else 1), "recurse"),
    "DAGCircuit.size(recurse)": (
        lambda: "circuit_to_dag(qc).size(recurse=True)",
        lambda c, ms: {sum(m["recursive_size"] if m["control_flow"] else 1 for m in ms)}, "recurse"),
    "DAGCircuit.count_ops": (
        lambda: "dict(circuit_to_dag(qc).count_ops())",
        lambda c, ms: {_Counts(_counts([m["name"] for m in ms] + [n for m in ms for n in m["inner"]]))}, True),
    "DAGCircuit.longest_path": (
        lambda: "sum(isinstance(node, DAGOpNode) for node in circuit_to_dag(qc).longest_path())", _dag_depth, False),
    "DAGCircuit.count_ops_longest_path": (
        lambda: "sum(circuit_to_dag(qc).count_ops_longest_path().values())", _dag_depth, False),
}


def _subjects():
    from qiskit import QuantumCircuit
    from qiskit.dagcircuit import DAGCircuit

    classes = {"QuantumCircuit": QuantumCircuit, "DAGCircuit": DAGCircuit}
    found = []
    for subject in METRICS:
        owner, method = subject.split("(")[0].split(".")
        function = getattr(classes[owner], method, None)
        if function is None:
            continue
        if METRICS[subject][2] == "recurse" and "recurse" not in (function.__doc__ or ""):
            continue  # no documented recurse argument on this release
        found.append(subject)
    return sorted(found)


def _control_flow(subject):
    allowed = METRICS[subject][2]
    return _depth_defined_with_control_flow() if allowed == "qc_depth" else bool(allowed)


def _strategy(subject):
    # recurse=True documents if/else, for and while, not switch: no switch is generated for it
    return _circuits(control_flow=_control_flow(subject), switch=METRICS[subject][2] != "recurse")


def _answer(subject, qc):
    from qiskit.converters import circuit_to_dag
    from qiskit.dagcircuit import DAGOpNode

    return eval(METRICS[subject][0](), {"qc": qc, "circuit_to_dag": circuit_to_dag, "DAGOpNode": DAGOpNode})


def _expected(subject, circuit):
    """Every answer the docs allow. Whether a Store is a "directive" (filtered by default like a
    barrier) is not documented (its docstring likens it to Measure; the releases mark it one):
    both readings are accepted, each applied to the whole circuit."""
    readings = (False, True) if any(op[0] == "store" for op in circuit[3]) else (False,)
    return set().union(*(METRICS[subject][1](circuit, model(circuit, r)) for r in readings))


def _check(subject, circuit):
    qc = build(circuit)
    answer = _answer(subject, qc)
    expected = _expected(subject, circuit)
    assert any(answer == e for e in expected), (f"{METRICS[subject][0]()} = {answer}, the documented metric allows only "
                                f"{sorted(expected, key=repr)} for: {circuit_text(circuit)!r}")


def _reproduce(subject, circuit):
    expression = METRICS[subject][0]()
    expected = sorted((dict(e) if isinstance(e, dict) else e for e in _expected(subject, circuit)), key=repr)
    return (HEADER + "from qiskit.dagcircuit import DAGOpNode\n\n" + circuit_text(circuit) + "\n"
            f"answer = {expression}\n"
            f"allowed = {expected!r}  # counted by hand over the wires each instruction touches\n"
            f"assert answer in allowed, {expression!r} + f' = {{answer}}, expected one of {{allowed}}'\n")


def _api(subject):
    owner, method = subject.split("(")[0].split(".")
    return f"qiskit.QuantumCircuit.{method}" if owner == "QuantumCircuit" else f"qiskit.dagcircuit.DAGCircuit.{method}"


CONTRACTS = [
    Contract("qiskit.structure.metrics-on-every-instruction-kind", "structure",
             "QuantumCircuit.depth (default and with a filter), size (default and filtered), width, count_ops, "
             "num_nonlocal_gates, num_connected_components, num_unitary_factors, num_tensor_factors and "
             "DAGCircuit.depth/size (also recurse=True)/count_ops/longest_path/count_ops_longest_path agree with "
             "counting over the "
             "wires each instruction touches (qubits, clbits, condition clbits, real-time variables), for "
             "circuits with every kind of instruction the release supports (global phase, barrier, delay, "
             "measure, reset, instructions with clbits, c_if, if/else, while, for, switch with legacy and expr "
             "conditions, Store and variables, several registers); points the docs leave open accept every "
             "reading",
             "documentation: QuantumCircuit.depth ('length of critical path'; filter_function: rejected "
             "instructions 'are ignored'; 'By default filters out directives, such as barrier'; 2.x: 'not well "
             "defined if the circuit contains control-flow operations'), size ('total number of instructions'; "
             "directives filtered by default), width ('number of qubits plus clbits'), count_ops ('Count each "
             "operation kind'), num_nonlocal_gates ('involving 2+ qubits. Conditional nonlocal gates are also "
             "included'), num_connected_components ('non-entangled subcircuits'; unitary_only), "
             "num_unitary_factors/num_tensor_factors ('tensor factors in the unitary (quantum) part'), "
             "DAGCircuit.depth/size (raise on control flow unless recurse; recurse: 'For loops with known-length "
             "iterators are counted unrolled', 'If-else blocks sum both' (size) / 'take the longer case' (depth), "
             "'While loops are counted as if the loop body runs once'), count_ops (recurse=True default: "
             "ops of every block counted once), longest_path, count_ops_longest_path",
             _subjects, _strategy, _check, _reproduce, _api,
             describe=lambda s, c: circuit_text(c).replace("\n", "; ")),
]
