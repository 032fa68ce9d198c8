"""Transpiler passes honour the basis they are given, Qiskit: one law for every pass in
qiskit.transpiler.passes whose documentation says it rewrites a circuit into a given basis.

Candidates are enumerated from the live release: the pass classes whose constructor takes a
basis (``basis_gates=``, ``target_basis=`` or ``basis=``). Of those, the passes whose docs
promise a circuit *in* that basis are subjects, each on the inputs it documents it handles:

  - UnitarySynthesis ("Synthesize unitaries over some basis gates"; approximation_degree
    defaults to 1.0 = no approximation): UnitaryGates on 1 and 2 qubits; basis gates already
    in the circuit pass through.
  - BasisTranslator ("Translates gates to a target basis" with an EquivalenceLibrary; here
    the standard SessionEquivalenceLibrary): standard gates. Its documented "error if there is
    no path to translate an input gate to the specified basis" (TranspilerError) puts that
    input out of the law's domain.
  - Optimize1qGatesDecomposition ("whether the original chain was out of basis: replace";
    the basis is the intersection of ``basis`` with the Euler bases): runs of single-qubit
    standard gates and single-qubit UnitaryGates, separated by the basis' own 2-qubit gates.
  - HighLevelSynthesis ("every gate in the output DAG is either directly supported by the
    target, or is in ``equivalence_library``"): LinearFunction, PermutationGate, UnitaryGate,
    custom gates (QuantumCircuit.to_gate of standard gates); its basis part (a) is the
    documented one: basis gates plus gates with an entry in the equivalence library given.

Candidates left out, with the documented reason: Unroll3qOrMore (only expands 3+ qubit
gates), UnrollCustomDefinitions (leaves equivalence-library gates for BasisTranslator),
TranslateParameterizedGates (only parameterized gates), SolovayKitaev (approximate by design),
Optimize1qGates (u1/u2/u3 chains only, no basis promise), Optimize1qGatesSimpleCommutation,
ConsolidateBlocks, CommutativeCancellation, OptimizeCliffordT, OptimizeAnnotated, GatesInBasis
(optimisations or analyses that do not promise an output in the basis).

Each subject is "<Pass>:<basis, comma separated>" (the basis given as the basis argument) or
"<Pass>:<basis>:target" (given as ``target=Target.from_configuration(basis, num_qubits)``).
Bases are universal ones with documented synthesis support on the release: rz/sx/x/cx,
u/cx, u3/cx, u1/u2/u3/cx, rx/ry/rz/cz, p/sx/ecr, r/cz, rz/ry/rxx, rz/sx/iswap, rz/sx/cp; for
UnitarySynthesis rzz/cp bases only where the release documents a synthesis for gates locally
equivalent to RXX (qiskit.synthesis.TwoQubitControlledUDecomposer); BasisTranslator is not
given rxx/iswap bases (the standard equivalence library documents no complete path to them).
UnitarySynthesis is also given the Clifford generating sets h/s/sdg/cx and h/s/cz, which cannot
express most unitaries exactly: its plugins document that one that cannot synthesize returns
None and "no substitution will be made", so there the unitary may stay as it was (and only
there: (a) admits "unitary" for these bases), but no gate outside the basis may appear.

The pass is run directly on a DAG (``circuit_to_dag`` + ``pass_.run(dag)`` + ``dag_to_circuit``),
and its output must
  (a) use only operations in the basis (plus the documented pass-through directives barrier,
      measure, reset, delay) -- a set test on operation names;
  (b) have the input's Operator, global phase included: QuantumCircuit carries global_phase and
      every one of these passes returns an equivalent circuit (equivalence-library rules and
      the exact synthesis routines track phase), so the equality is exact.
qiskit.quantum_info.Operator of the input and of the output is the oracle for (b), in the check
and in the reproducer alike. Circuits and passes are written down once, as source over
Qiskit's public API; the check executes that very source and the reproducer prints it.
"""

import functools
import inspect

import numpy as np

from contract_runtime import Contract, angles

ATOL = 1e-7
DIRECTIVES = ("barrier", "measure", "reset", "delay")
BASIS_ARGUMENTS = ("basis_gates", "target_basis", "basis")

BASES = (("rz", "sx", "x", "cx"), ("u", "cx"), ("u3", "cx"), ("u1", "u2", "u3", "cx"), ("rx", "ry", "rz", "cz"),
         ("p", "sx", "ecr"), ("r", "cz"), ("rz", "ry", "rxx"), ("rz", "sx", "iswap"), ("rz", "sx", "cp"),
         ("rz", "sx", "rzz"))
CONTROLLED_U_BASES = (("rz", "sx", "cp"), ("rz", "sx", "rzz"))
# Clifford generating sets: no single-qubit rotation, so most unitaries have no exact synthesis
# over them. A UnitarySynthesis plugin that cannot synthesize returns None, and then "no
# substitution will be made" (UnitarySynthesisPlugin.run): the unitary stays as it was. Such a
# basis tests what the pass does when it cannot comply; it must never emit another basis's gates.
CLIFFORD_BASES = (("h", "s", "sdg", "cx"), ("h", "s", "cz"))

# Pass -> (input kinds it documents handling, bases it documents support for, pass source).
PASSES = {
    "UnitarySynthesis": (("unitary", "unitary", "basis_gate", "barrier", "delay"), "unitary",
                         "UnitarySynthesis({where})"),
    "BasisTranslator": (("gate", "gate", "gate", "barrier", "delay"), "translation",
                        "BasisTranslator(SessionEquivalenceLibrary, target_basis=basis{target})"),
    "Optimize1qGatesDecomposition": (("gate1", "gate1", "unitary1", "basis_gate", "barrier", "delay"), "euler",
                                     "Optimize1qGatesDecomposition({where})"),
    "HighLevelSynthesis": (("linear", "permutation", "custom", "unitary", "barrier", "delay"), "synthesis",
                           "HighLevelSynthesis({where}, equivalence_library=SessionEquivalenceLibrary)"),
}
WHERE = {"UnitarySynthesis": "basis_gates", "Optimize1qGatesDecomposition": "basis",
         "HighLevelSynthesis": "basis_gates"}


# -------------------------------------------------------------------------------------------
# Subjects.

def _candidates():
    """Pass classes of the live release whose constructor takes a basis."""
    import qiskit.transpiler.passes as passes

    found = []
    for name in sorted(dir(passes)):
        cls = getattr(passes, name)
        if not inspect.isclass(cls):
            continue
        try:
            parameters = inspect.signature(cls.__init__).parameters
        except (TypeError, ValueError):
            continue
        if any(p in parameters for p in BASIS_ARGUMENTS):
            found.append(name)
    return found


def _has_controlled_u_synthesis():
    import qiskit.synthesis as synthesis

    return inspect.isclass(getattr(synthesis, "TwoQubitControlledUDecomposer", None))


def _bases(support):
    for basis in BASES + (CLIFFORD_BASES if support == "unitary" else ()):
        if support == "unitary" and basis in CONTROLLED_U_BASES and not _has_controlled_u_synthesis():
            continue
        if support == "translation" and any(g in basis for g in ("rxx", "iswap", "rzz")):
            continue
        yield basis


def _has_target_configuration():
    from qiskit.transpiler import Target

    return callable(getattr(Target, "from_configuration", None))


def _subjects():
    found = []
    for name in _candidates():
        if name not in PASSES:
            continue
        import qiskit.transpiler.passes as passes

        parameters = inspect.signature(getattr(passes, name).__init__).parameters
        for basis in _bases(PASSES[name][1]):
            found.append(f"{name}:{','.join(basis)}")
            if "target" in parameters and _has_target_configuration():
                found.append(f"{name}:{','.join(basis)}:target")
    return found


def _parse(subject):
    parts = subject.split(":")
    return parts[0], tuple(parts[1].split(",")), len(parts) > 2 and parts[2] == "target"


def _api(subject):
    # the pass's run is what the law exercises (and where its defects live); the constructor too
    name = _parse(subject)[0]
    return f"qiskit.transpiler.passes.{name}.run on qiskit.transpiler.passes.{name}"


# -------------------------------------------------------------------------------------------
# Circuits, written as source.

@functools.lru_cache(maxsize=None)
def _standard_gates():
    """{name: (number of params, number of qubits)} of the release's standard unitary gates on 0-3 qubits."""
    from qiskit.circuit import Gate
    from qiskit.circuit.library import get_standard_gate_name_mapping

    return {name: (len(gate.params), gate.num_qubits) for name, gate in get_standard_gate_name_mapping().items()
            if isinstance(gate, Gate) and gate.num_qubits <= 3}


def _gate_source(name, params):
    return (f"gates[{name!r}].base_class({', '.join(repr(float(p)) for p in params)})")


def _op_source(op, target="qc"):
    kind = op[0]
    if kind == "gate":
        _, name, params, qubits = op
        return [f"{target}.append({_gate_source(name, params)}, {list(qubits)})"]
    if kind == "unitary":
        _, seed, qubits = op
        return [f"{target}.append(UnitaryGate(random_unitary({2 ** len(qubits)}, seed={seed})), {list(qubits)})"]
    if kind == "barrier":
        return [f"{target}.barrier({', '.join(str(q) for q in op[1])})"]
    if kind == "delay":
        _, duration, qubit = op
        return [f"{target}.delay({duration}, {qubit}, unit='dt')"]
    if kind == "permutation":
        _, pattern, qubits = op
        return [f"{target}.append(PermutationGate({list(pattern)}), {list(qubits)})"]
    if kind == "linear":
        _, matrix, qubits = op
        return [f"{target}.append(LinearFunction({[list(r) for r in matrix]}), {list(qubits)})"]
    if kind == "custom":
        _, inner, qubits = op
        lines = [f"inner = QuantumCircuit({len(qubits)}, name='custom')"]
        lines += [line for part in inner for line in _op_source(part, "inner")]
        return lines + [f"{target}.append(inner.to_gate(), {list(qubits)})"]
    raise ValueError(f"unknown op kind {kind!r}")


def circuit_source(circuit):
    num_qubits, phase, ops = circuit
    lines = [f"qc = QuantumCircuit({num_qubits}, global_phase={float(phase)!r})"]
    return "\n".join(lines + [line for op in ops for line in _op_source(op)]) + "\n"


def _qubits(draw, num_qubits, size):
    from hypothesis import strategies as st

    return tuple(draw(st.permutations(range(num_qubits)))[:size])


def _gate(draw, num_qubits, names):
    from hypothesis import strategies as st

    gates = _standard_gates()
    name = draw(st.sampled_from(sorted(names)))
    return ("gate", name, tuple(draw(angles()) for _ in range(gates[name][0])),
            _qubits(draw, num_qubits, gates[name][1]))


def _op(draw, kind, num_qubits, basis):
    from hypothesis import strategies as st

    gates = _standard_gates()
    if kind == "gate":
        return _gate(draw, num_qubits, [n for n, (_, k) in gates.items() if k <= num_qubits])
    if kind == "gate1":
        return _gate(draw, num_qubits, [n for n, (_, k) in gates.items() if k == 1])
    if kind == "basis_gate":
        fits = [n for n in basis if n in gates and 1 <= gates[n][1] <= num_qubits]
        return _gate(draw, num_qubits, fits) if fits else ("barrier", tuple(range(num_qubits)))
    if kind in ("unitary", "unitary1"):
        size = 1 if kind == "unitary1" or num_qubits == 1 else draw(st.integers(1, 2))
        return ("unitary", draw(st.integers(0, 10 ** 4)), _qubits(draw, num_qubits, size))
    if kind == "barrier":
        return ("barrier", tuple(sorted(_qubits(draw, num_qubits, draw(st.integers(1, num_qubits))))))
    if kind == "delay":
        return ("delay", draw(st.integers(0, 300)), draw(st.integers(0, num_qubits - 1)))
    size = draw(st.integers(min(2, num_qubits), num_qubits))
    qubits = _qubits(draw, num_qubits, size)
    if kind == "permutation":
        return ("permutation", tuple(draw(st.permutations(range(size)))), qubits)
    if kind == "linear":
        # an invertible binary matrix: the identity after a drawn sequence of row additions (a CX network)
        rows = [[int(i == j) for j in range(size)] for i in range(size)]
        for _ in range(draw(st.integers(0, 4))):
            a, b = draw(st.permutations(range(size)))[:2] if size > 1 else (0, 0)
            if a != b:
                rows[a] = [x ^ y for x, y in zip(rows[a], rows[b])]
        return ("linear", tuple(tuple(r) for r in rows), qubits)
    # custom: a gate defined by a small circuit of standard gates
    inner = tuple(_gate(draw, size, [n for n, (_, k) in gates.items() if 1 <= k <= size])
                  for _ in range(draw(st.integers(1, 3))))
    return ("custom", inner, qubits)


def _strategy(subject):
    from hypothesis import strategies as st

    name, basis, _ = _parse(subject)
    kinds = PASSES[name][0]

    @st.composite
    def build(draw):
        num_qubits = draw(st.integers(1, 3))
        usable = [k for k in kinds if num_qubits >= 2 or k not in ("permutation", "linear", "custom")]
        ops = tuple(_op(draw, draw(st.sampled_from(usable)), num_qubits, basis)
                    for _ in range(draw(st.integers(1, 5))))
        return (num_qubits, draw(angles()), ops)

    return build()


# -------------------------------------------------------------------------------------------
# Programs.

HEADER = ("import numpy as np\n"
          "from qiskit import QuantumCircuit\n"
          "from qiskit.circuit.equivalence_library import SessionEquivalenceLibrary\n"
          "from qiskit.circuit.library import (LinearFunction, PermutationGate, UnitaryGate,\n"
          "                                    get_standard_gate_name_mapping)\n"
          "from qiskit.converters import circuit_to_dag, dag_to_circuit\n"
          "from qiskit.quantum_info import Operator, random_unitary\n"
          "from qiskit.transpiler import Target\n")


def _pass_source(subject, num_qubits):
    name, basis, via_target = _parse(subject)
    template = PASSES[name][2]
    if name == "BasisTranslator":
        return template.format(target=", target=target" if via_target else "")
    return template.format(where="target=target" if via_target else f"{WHERE[name]}=basis")


def program(subject, circuit):
    name, basis, via_target = _parse(subject)
    lines = [HEADER + f"from qiskit.transpiler.passes import {name}\n",
             "gates = get_standard_gate_name_mapping()",
             f"basis = {list(basis)!r}"]
    if via_target:
        lines.append(f"target = Target.from_configuration(basis_gates=basis, num_qubits={circuit[0]})")
    source = "\n".join(lines) + "\n" + circuit_source(circuit)
    return source + (f"pass_ = {_pass_source(subject, circuit[0])}\n"
                     "out = dag_to_circuit(pass_.run(circuit_to_dag(qc)))\n")


def _run(source):
    namespace = {"__name__": "__qusema_contract__"}
    exec(compile(source, "<contract>", "exec"), namespace)
    return namespace


# -------------------------------------------------------------------------------------------
# What the output must satisfy.

def _allowed_source(name, basis):
    """Source of the expression deciding whether `op` may be in the output."""
    if name == "HighLevelSynthesis":
        return "op.name in basis or op.name in directives or SessionEquivalenceLibrary.has_entry(op)"
    if tuple(basis) in CLIFFORD_BASES:
        # a unitary the pass could not synthesize exactly is left as it was ((b) checks it is)
        return "op.name in basis or op.name in directives or op.name == 'unitary'"
    return "op.name in basis or op.name in directives"


def _outside(name, out, basis):
    from qiskit.circuit.equivalence_library import SessionEquivalenceLibrary  # noqa: F401 - used by the expression

    directives = set(DIRECTIVES)
    found = []
    for item in out.data:
        op = item.operation
        if not eval(_allowed_source(name, basis), {"SessionEquivalenceLibrary": SessionEquivalenceLibrary},
                    {"op": op, "basis": basis, "directives": directives}):
            found.append(op.name)
    return sorted(set(found))


def _rejects_documented_error(error):
    """A TranspilerError / QiskitError is how these passes document 'no translation or
    synthesis for this input' (BasisTranslator's Translation Errors): out of the domain."""
    from hypothesis import reject
    from qiskit.exceptions import QiskitError

    if isinstance(error, QiskitError):
        reject()
    raise error


def _check(subject, circuit):
    from qiskit.quantum_info import Operator

    name, basis, _ = _parse(subject)
    try:
        namespace = _run(program(subject, circuit))
    except Exception as error:  # noqa: BLE001 - sorted into documented refusals and the rest
        _rejects_documented_error(error)
    qc, out = namespace["qc"], namespace["out"]
    outside = _outside(name, out, basis)
    assert not outside, f"{subject}: output uses operations outside the basis {list(basis)}: {outside}"
    expected, actual = Operator(qc).data, Operator(out).data
    gap = float(np.max(np.abs(expected - actual))) if expected.shape == actual.shape else float("inf")
    assert gap < ATOL, f"{subject}: output Operator differs from the input's (max deviation {gap:.3g}, global phase included)"


def _reproduce(subject, circuit):
    name, basis, _ = _parse(subject)
    return (program(subject, circuit) +
            f"\ndirectives = {set(DIRECTIVES)!r}\n"
            f"outside = sorted({{op.name for op in (item.operation for item in out.data) if not ({_allowed_source(name, basis)})}})\n"
            "assert not outside, f'output uses operations outside the basis {basis}: {outside}'\n"
            "expected, actual = Operator(qc).data, Operator(out).data\n"
            "gap = np.max(np.abs(expected - actual))\n"
            f"assert gap < {ATOL}, f'output Operator differs from the input: max deviation {{gap}} (global phase included)'\n")


def _describe(subject, circuit):
    return program(subject, circuit).split("from qiskit.transpiler.passes import", 1)[-1].split("\n", 1)[-1]


# -------------------------------------------------------------------------------------------

FAMILY = "transformation, synthesis, compilation"
SOURCE = ("documentation: qiskit.transpiler.passes UnitarySynthesis (\"Synthesize unitaries over some basis gates\", "
          "approximation_degree=1.0 no approximation), BasisTranslator (\"Translates gates to a target basis\"; "
          "error when no translation path exists), Optimize1qGatesDecomposition (\"whether the original chain was "
          "out of basis: replace\"), HighLevelSynthesis (\"every gate in the output DAG is either directly supported "
          "by the target, or is in equivalence_library\"); QuantumCircuit.global_phase (phase is tracked, so the "
          "Operator equality is exact, global phase included); qiskit.quantum_info.Operator is the oracle")

CONTRACTS = [
    Contract("qiskit.transform.pass-respects-basis", FAMILY,
             "every transpiler pass documented as rewriting a circuit into a given basis (basis argument or "
             "target=), run on a DAG of inputs it documents handling, returns a circuit that (a) uses only "
             "operations in the basis (plus barrier/measure/reset/delay; for HighLevelSynthesis also gates with an "
             "entry in the given equivalence library, as documented) and (b) has the input's Operator exactly, "
             "global phase included",
             SOURCE, _subjects, _strategy, _check, _reproduce, _api, describe=_describe),
]
