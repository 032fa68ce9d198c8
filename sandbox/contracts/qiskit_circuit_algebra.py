"""Circuit algebra, Qiskit: the documented QuantumCircuit methods that build a new circuit from
others agree with the algebra of the circuits' unitaries (qiskit.quantum_info.Operator), for
random small unitary circuits (1-4 qubits, every standard gate the release maps, parametrized
and multi-qubit ones included, random global phase, plain circuits or circuits over several
quantum / ancilla / classical registers where the method's docs cover them).

With A = Operator(a), B = Operator(b) (a and b built gate by gate with `append`), the expected
operator is built here with numpy only (matrix products, kron, embedding into a wider register
in Qiskit's little-endian order), never by calling the method under test:

  - a.compose(b, qubits=q)           = E_q(B) . A         (other applied after self)
  - a.compose(b, qubits=q, front=True) = A . E_q(B)       (other applied before self)
  - a.tensor(b)                      = A (x) B            (b on the low qubits)
  - a.inverse()                      = A^dagger
  - a.power(k), k integer            = A^k (A^dagger^|k| for k < 0)
  - a.repeat(r)                      = A^r
  - a.control(n, ctrl_state=s)       = |s><s| (x) A + (I - |s><s|) (x) I, controls the low qubits
  - a.reverse_bits()                 = P A P, P reversing the qubit order
  - a.reverse_ops()                  = the gates applied in reverse order, none inverted
  - a.decompose(...)                 = A
  - c.append(a.to_gate(), q)         = E_q(A) (same for to_instruction)
  - a.copy_empty_like() + re-append  = A
  - a.assign_parameters(values)      = Operator of the circuit built with the numbers
  - a.global_phase = g               = e^{ig} A_0 (A_0 the same gates with phase 0)

Qiskit tracks global phase: every equation is exact, global phase included.
"""

import functools
import inspect
import math

from contract_runtime import Contract, angles

ATOL = 1e-7
MAX_QUBITS = 4
MAX_OPS = 6


# =============================================================================================
# The gates: every standard gate of the release (qiskit.circuit.library) on 1-4 qubits.

@functools.lru_cache(maxsize=None)
def _gate_table():
    """gate name -> (public class name, number of qubits, number of angles)."""
    import qiskit.circuit.library as library
    from qiskit.circuit import Gate
    from qiskit.circuit.library.standard_gates import get_standard_gate_name_mapping

    table = {}
    for name, gate in sorted(get_standard_gate_name_mapping().items()):
        if not isinstance(gate, Gate) or not 1 <= gate.num_qubits <= MAX_QUBITS:
            continue
        cls = getattr(gate, "base_class", type(gate))
        if getattr(library, cls.__name__, None) is not cls:
            continue
        table[name] = (cls.__name__, gate.num_qubits, len(gate.params))
    return table


def _has_keyword(method, keyword):
    from qiskit import QuantumCircuit

    return keyword in inspect.signature(getattr(QuantumCircuit, method)).parameters


# =============================================================================================
# Strategies. A circuit is (plain, registers, phase, ops):
#   plain: QuantumCircuit(nq[, nc]); otherwise registers ((kind, size), ...), kind q / a / c
#   phase: float, or ("t", i, coeff, offset) = coeff * t[i] + offset (parametric circuits)
#   ops: ((gate name, qubits, angles), ...), an angle a float or a ("t", ...) expression

def _st():
    from hypothesis import strategies as st

    return st


def _layout(min_qubits, max_qubits, clbits):
    """Plain or register layouts with min_qubits..max_qubits qubits; classical registers only
    where `clbits` (the method's docs cover them)."""
    st = _st()

    def registers(nq):
        plain = st.tuples(st.just(True), st.tuples(st.just(("q", nq)),
                                                   st.just(("c", 0)) if not clbits else
                                                   st.integers(0, 2).map(lambda c: ("c", c))))
        # qubits split over one or two registers, the second may be an AncillaRegister
        split = st.integers(0, nq - 1).flatmap(lambda k: st.tuples(
            st.just(k), st.sampled_from(["q", "a"]), st.integers(0, 2 if clbits else 0)))

        def named(parts):
            k, kind, nc = parts
            regs = [("q", nq - k)] + ([(kind, k)] if k else [])
            if nc:
                regs.append(("c", nc))
            return (False, tuple(regs))

        return st.one_of(plain, split.map(named))

    return st.integers(min_qubits, max_qubits).flatmap(registers)


def _num_qubits(layout):
    return sum(size for kind, size in layout[1] if kind != "c")


def _num_clbits(layout):
    return sum(size for kind, size in layout[1] if kind == "c")


def _angle(parametric):
    st = _st()
    if not parametric:
        return angles()
    return st.one_of(angles(), st.tuples(st.just("t"), st.integers(0, 2), st.sampled_from([1.0, -1.0, 2.0, 0.5]),
                                         st.sampled_from([0.0, 0.25, -1.0])))


def _op(nq, parametric=False, table=None):
    st = _st()
    table = table or _gate_table()
    names = [name for name, (_, width, _) in table.items() if width <= nq]

    def build(name):
        _, width, count = table[name]
        return st.tuples(st.just(name), st.permutations(range(nq)).map(lambda p: tuple(p[:width])),
                         st.tuples(*[_angle(parametric) for _ in range(count)]) if count else st.just(()))

    return st.sampled_from(names).flatmap(build)


def _circuit(min_qubits=1, max_qubits=MAX_QUBITS, clbits=True, parametric=False, min_ops=0):
    st = _st()
    return _layout(min_qubits, max_qubits, clbits).flatmap(lambda layout: st.tuples(
        st.just(layout[0]), st.just(layout[1]), _angle(parametric),
        st.lists(_op(_num_qubits(layout), parametric), min_size=min_ops, max_size=MAX_OPS).map(tuple)))


# =============================================================================================
# Code: the reproducer is the law. `check` runs the very code the reproducer prints.

HELPERS = '''
def embed(u, qubits, n):
    """The matrix of u (its qubit i on qubits[i]) on n qubits, little-endian (qubit 0 lowest)."""
    k = len(qubits)
    state = np.eye(2 ** n, dtype=complex).reshape([2] * n + [2 ** n])
    axes = [n - 1 - q for q in reversed(qubits)]
    out = np.tensordot(np.asarray(u).reshape([2] * (2 * k)), state, axes=(list(range(k, 2 * k)), axes))
    return np.moveaxis(out, list(range(k)), axes).reshape(2 ** n, 2 ** n)


def assert_close(actual, expected, what):
    assert actual.shape == expected.shape, f"{what}: acts on a space of shape {actual.shape}, expected {expected.shape}"
    deviation = np.max(np.abs(actual - expected))
    assert deviation < %r, f"{what}: operator differs from the expected one by {deviation:.3g} (global phase included)"
''' % ATOL


def _value_text(value, symbols="t"):
    if isinstance(value, tuple):
        _, index, coeff, offset = value
        return f"{coeff!r} * {symbols}[{index}] + {offset!r}"
    return repr(float(value))


def _bound(value, values):
    if isinstance(value, tuple):
        _, index, coeff, offset = value
        return coeff * values[index] + offset
    return value


def _circuit_lines(var, circuit, values=None, phase=None, ops=None):
    """Lines building `circuit` in `var`, gate by gate (angles bound to `values` when given)."""
    plain, registers, circuit_phase, circuit_ops = circuit
    phase = circuit_phase if phase is None else phase
    ops = circuit_ops if ops is None else ops
    if values is not None:
        phase = _bound(phase, values)
    table = _gate_table()
    if plain:
        (_, nq), (_, nc) = registers
        head = f"{var} = QuantumCircuit({nq}{f', {nc}' if nc else ''}, global_phase={_value_text(phase)})"
    else:
        kinds = {"q": "QuantumRegister", "a": "AncillaRegister", "c": "ClassicalRegister"}
        regs = ", ".join(f"{kinds[kind]}({size}, '{var}_{kind}{i}')" for i, (kind, size) in enumerate(registers))
        head = f"{var} = QuantumCircuit({regs}, global_phase={_value_text(phase)})"
    lines = [head]
    for name, qubits, params in ops:
        if values is not None:
            params = tuple(_bound(p, values) for p in params)
        lines.append(f"{var}.append({table[name][0]}({', '.join(_value_text(p) for p in params)}), {list(qubits)})")
    return lines


def _gate_text(op):
    name, _, params = op
    return f"{_gate_table()[name][0]}({', '.join(_value_text(p) for p in params)})"


def _imports(circuits, gates=()):
    names = sorted({_gate_table()[name][0] for circuit in circuits for name, _, _ in circuit[3]}
                   | {_gate_table()[op[0]][0] for op in gates})
    lines = ["import numpy as np",
             "from qiskit import ClassicalRegister, QuantumCircuit, QuantumRegister",
             "from qiskit.circuit import AncillaRegister, Parameter"]
    if names:
        lines.append(f"from qiskit.circuit.library import {', '.join(names)}")
    lines.append("from qiskit.quantum_info import Operator")
    return "\n".join(lines) + "\n" + HELPERS + "\n"


# =============================================================================================
# The subjects: one per (method, variant) the release has.

class Variant:
    def __init__(self, name, method, strategy, body, circuits, available=lambda: True, source=""):
        self.name, self.method, self.strategy, self.body = name, method, strategy, body
        self.circuits, self.available, self.source = circuits, available, source


def _operator_lines(*names):
    return [f"{n.upper()} = Operator({n}).data" for n in names]


# -- compose ----------------------------------------------------------------------------------
def _compose_strategy(mode):
    """(a, b, qubits) with b no wider than a (clbits too); mode 'gate': b a single gate."""
    st = _st()

    def with_other(a):
        na, nca = _num_qubits(a[:2]), _num_clbits(a[:2])
        if mode == "gate":
            other = _op(na)
            return st.tuples(st.just(a), other).flatmap(lambda ab: st.tuples(
                st.just(ab[0]), st.just(ab[1]), st.permutations(range(na)).map(lambda p: tuple(p[:len(ab[1][1])]))))
        other = _layout(1, na, nca > 0).filter(lambda lay: _num_clbits(lay) <= nca).flatmap(
            lambda lay: st.tuples(st.just(lay[0]), st.just(lay[1]), angles(),
                                  st.lists(_op(_num_qubits(lay)), max_size=MAX_OPS).map(tuple)))
        if mode in ("default", "&"):
            return st.tuples(st.just(a), other, st.just(None))
        return st.tuples(st.just(a), other).flatmap(lambda ab: st.tuples(
            st.just(ab[0]), st.just(ab[1]),
            st.permutations(range(na)).map(lambda p, nb=_num_qubits(ab[1][:2]): tuple(p[:nb]))))

    # wrap=True turns other into a Gate / Instruction: Operator cannot take an instruction
    # with classical bits, so the wrapped variant draws circuits without them
    return lambda subject: _circuit(clbits=mode != "wrap").flatmap(with_other)


def _compose_body(mode):
    def body(example):
        a, b, qubits = example
        na = _num_qubits(a[:2])
        lines = _circuit_lines("a", a)
        if mode == "gate":
            lines.append(f"gate = {_gate_text(b)}")
            lines.append("B = Operator(gate).data")
            other = "gate"
        else:
            lines += _circuit_lines("b", b)
            lines.append("B = Operator(b).data")
            other = "b"
        lines.append("A = Operator(a).data")
        target = list(qubits) if qubits is not None else list(range(_num_qubits(b[:2])))
        if mode == "&":
            call = f"a & {other}"
        else:
            extra = {"front": ", front=True", "wrap": ", wrap=True", "inplace": ", inplace=True"}.get(mode, "")
            qarg = f", qubits={list(qubits)}" if qubits is not None else ""
            call = f"a.compose({other}{qarg}{extra})"
        if mode == "inplace":
            lines += [f"returned = {call}", f"assert returned is None, '{call} returned a circuit'", "result = a"]
        else:
            lines.append(f"result = {call}")
        if mode == "front":
            lines.append(f"expected = A @ embed(B, {target}, {na})  # other first, then self")
        else:
            lines.append(f"expected = embed(B, {target}, {na}) @ A  # self first, then other")
        lines.append(f"assert_close(Operator(result).data, expected, {call!r})")
        return lines

    return body


# -- tensor -----------------------------------------------------------------------------------
def _tensor_strategy(subject):
    st = _st()
    return st.integers(1, MAX_QUBITS - 1).flatmap(
        lambda na: st.tuples(_circuit(na, na), _circuit(1, MAX_QUBITS - na)))


def _tensor_body(mode):
    def body(example):
        a, b = example
        lines = _circuit_lines("a", a) + _circuit_lines("b", b) + _operator_lines("a", "b")
        call = {"default": "a.tensor(b)", "inplace": "a.tensor(b, inplace=True)", "^": "a ^ b"}[mode]
        if mode == "inplace":
            lines += [f"returned = {call}", f"assert returned is None, '{call} returned a circuit'", "result = a"]
        else:
            lines.append(f"result = {call}")
        lines.append("expected = np.kron(A, B)  # b on the low qubits, a above it")
        lines.append(f"assert_close(Operator(result).data, expected, {call!r})")
        return lines

    return body


# -- inverse / power / repeat -----------------------------------------------------------------
def _single(clbits=True, extra=None, max_qubits=MAX_QUBITS):
    st = _st()
    return lambda subject: st.tuples(_circuit(max_qubits=max_qubits, clbits=clbits), extra if extra is not None
                                     else st.just(None))


def _inverse_body(annotated):
    def body(example):
        a, _ = example
        call = "a.inverse(annotated=True)" if annotated else "a.inverse()"
        return _circuit_lines("a", a) + _operator_lines("a") + [
            f"result = {call}", "expected = A.conj().T",
            f"assert_close(Operator(result).data, expected, {call!r})"]

    return body


def _matrix_power_text(k):
    return f"np.linalg.matrix_power(A, {k})" if k >= 0 else f"np.linalg.matrix_power(A.conj().T, {-k})"


def _power_body(keyword):
    def body(example):
        a, k = example
        call = f"a.power({k}{keyword})"
        return _circuit_lines("a", a) + _operator_lines("a") + [
            f"result = {call}", f"expected = {_matrix_power_text(k)}",
            f"assert_close(Operator(result).data, expected, {call!r})"]

    return body


def _repeat_body(barriers):
    def body(example):
        a, reps = example
        call = f"a.repeat({reps}, insert_barriers=True)" if barriers else f"a.repeat({reps})"
        return _circuit_lines("a", a) + _operator_lines("a") + [
            f"result = {call}", f"expected = np.linalg.matrix_power(A, {reps})",
            f"assert_close(Operator(result).data, expected, {call!r})"]

    return body


# -- control ------------------------------------------------------------------------------------
def _control_strategy(subject):
    st = _st()
    return st.integers(1, 2).flatmap(lambda n: st.tuples(
        _circuit(max_qubits=MAX_QUBITS + 1 - n, clbits=False),
        st.tuples(st.just(n), st.one_of(st.none(), st.integers(0, 2 ** n - 1)))))


def _control_body(mode):
    def body(example):
        a, (n, state) = example
        s = 2 ** n - 1 if state is None else state
        if mode == "str":
            state_arg = f", ctrl_state={format(s, f'0{n}b')!r}"
        else:
            state_arg = "" if state is None else f", ctrl_state={state}"
        extra = {"annotated": ", annotated=True", "not-annotated": ", annotated=False"}.get(mode, "")
        call = f"a.control({n}{state_arg}{extra})"
        return _circuit_lines("a", a) + _operator_lines("a") + [
            f"result = {call}",
            f"# controls on the {n} low qubits, applied when they are in state {s} (little-endian)",
            f"projector = np.zeros(({2 ** n}, {2 ** n})); projector[{s}, {s}] = 1",
            f"expected = np.kron(A, projector) + np.kron(np.eye(A.shape[0]), np.eye({2 ** n}) - projector)",
            f"assert_close(Operator(result).data, expected, {call!r})"]

    return body


# -- reverse_bits / reverse_ops / decompose ----------------------------------------------------------
def _reverse_bits_body(example):
    a, _ = example
    n = _num_qubits(a[:2])
    return _circuit_lines("a", a) + _operator_lines("a") + [
        "result = a.reverse_bits()",
        f"expected = embed(A, {list(reversed(range(n)))}, {n})  # qubit i becomes qubit n-1-i",
        "assert_close(Operator(result).data, expected, 'a.reverse_bits()')"]


def _reverse_ops_body(example):
    a, _ = example
    return _circuit_lines("a", a) + _circuit_lines("reversed_by_hand", a, ops=tuple(reversed(a[3]))) + [
        "result = a.reverse_ops()",
        "expected = Operator(reversed_by_hand).data  # the same gates, last first, none inverted",
        "assert_close(Operator(result).data, expected, 'a.reverse_ops()')"]


def _decompose_strategy(subject):
    st = _st()
    base = _circuit(min_ops=1)
    if subject == "decompose[gates_to_decompose]":
        return base.flatmap(lambda a: st.tuples(st.just(a), st.lists(
            st.sampled_from(sorted({op[0] for op in a[3]})), min_size=1, max_size=2, unique=True).map(tuple)))
    return st.tuples(base, st.just(None))


def _decompose_body(mode):
    def body(example):
        a, names = example
        call = {"default": "a.decompose()", "reps": "a.decompose(reps=2)",
                "gates": f"a.decompose(gates_to_decompose={list(names or ())})"}[mode]
        return _circuit_lines("a", a) + _operator_lines("a") + [
            f"result = {call}", f"assert_close(Operator(result).data, A, {call!r})"]

    return body


# -- to_gate / to_instruction / copy_empty_like ----------------------------------------------------
def _to_operation_strategy(subject):
    st = _st()
    # Operator cannot take an instruction over classical bits: quantum-only circuits
    clbits = False

    def placed(a):
        na = _num_qubits(a[:2])
        return st.integers(na, MAX_QUBITS).flatmap(lambda m: st.tuples(
            st.just(a), st.tuples(st.just(m), st.permutations(range(m)).map(lambda p: tuple(p[:na])))))

    return _circuit(clbits=clbits).flatmap(placed)


def _to_operation_body(method):
    def body(example):
        a, (m, qubits) = example
        nc = _num_clbits(a[:2])
        clbits = f", {list(range(nc))}" if nc else ""
        return _circuit_lines("a", a) + _operator_lines("a") + [
            f"c = QuantumCircuit({m}{f', {nc}' if nc else ''})",
            f"c.append(a.{method}(), {list(qubits)}{clbits})",
            f"expected = embed(A, {list(qubits)}, {m})",
            f"assert_close(Operator(c).data, expected, 'a.{method}() appended on qubits {list(qubits)}')"]

    return body


def _copy_empty_body(named):
    def body(example):
        a, _ = example
        call = "a.copy_empty_like(name='copy')" if named else "a.copy_empty_like()"
        return _circuit_lines("a", a) + _operator_lines("a") + [
            f"result = {call}",
            "for instruction in a.data:",
            "    result.append(instruction.operation, instruction.qubits, instruction.clbits)",
            f"assert_close(Operator(result).data, A, {call + ' with the instructions re-appended'!r})"]

    return body


# -- assign_parameters / global_phase ---------------------------------------------------------------
def _assign_strategy(subject):
    st = _st()
    return st.tuples(_circuit(parametric=True, min_ops=1), st.tuples(angles(), angles(), angles()))


def _assign_body(mode):
    def body(example):
        a, values = example
        lines = ["t = [Parameter('t0'), Parameter('t1'), Parameter('t2')]"] + _circuit_lines("a", a)
        lines.append(f"values = {{t[0]: {values[0]!r}, t[1]: {values[1]!r}, t[2]: {values[2]!r}}}")
        lines.append("values = {p: v for p, v in values.items() if p in a.parameters}")
        if mode == "sequence":
            call = "a.assign_parameters([values[p] for p in a.parameters])"
        elif mode == "inplace":
            call = "a.assign_parameters(values, inplace=True)"
        else:
            call = "a.assign_parameters(values)"
        if mode == "inplace":
            lines += [f"returned = {call}", "assert returned is None, 'inplace assign_parameters returned a circuit'",
                      "result = a"]
        else:
            lines.append(f"result = {call}")
        lines += _circuit_lines("direct", a, values=values)
        lines.append(f"assert_close(Operator(result).data, Operator(direct).data, {call!r} + ' vs the circuit built with the numbers')")
        return lines

    return body


def _global_phase_strategy(subject):
    st = _st()
    return st.tuples(_circuit(), angles())


def _global_phase_body(example):
    a, phase = example
    return (_circuit_lines("a", a) + _circuit_lines("a0", a, phase=0.0) + [
        f"a.global_phase = {phase!r}",
        f"expected = np.exp(1j * {phase!r}) * Operator(a0).data",
        f"assert_close(Operator(a).data, expected, 'a.global_phase = {phase!r}')"])


# =============================================================================================

DOC = "documentation: qiskit.circuit.QuantumCircuit."
_POWER_K = {"repeat-path": (1, 3), "non-positive": (-3, 0), "matrix_power": (-2, 3), "annotated": (-2, 3)}


def _variants():
    st = _st()
    v = [
        Variant("compose", "compose", _compose_strategy("default"), _compose_body("default"), 2,
                source=DOC + "compose (other no wider than self; applied after self)"),
        Variant("compose[qubits]", "compose", _compose_strategy("qubits"), _compose_body("qubits"), 2,
                source=DOC + "compose (qubits: qubits of self to compose onto)"),
        Variant("compose[front]", "compose", _compose_strategy("front"), _compose_body("front"), 2,
                source=DOC + "compose (front=True: other applied first)"),
        Variant("compose[wrap]", "compose", _compose_strategy("wrap"), _compose_body("wrap"), 2,
                source=DOC + "compose (wrap=True: other wrapped into an instruction)"),
        Variant("compose[inplace]", "compose", _compose_strategy("inplace"), _compose_body("inplace"), 2,
                source=DOC + "compose (inplace=True modifies self, returns None)"),
        Variant("compose[gate]", "compose", _compose_strategy("gate"), _compose_body("gate"), 1,
                source=DOC + "compose (other: QuantumCircuit or Instruction)"),
        Variant("compose[&]", "compose", _compose_strategy("&"), _compose_body("&"), 2,
                source=DOC + "__and__ (overload & to implement self.compose)"),
        Variant("tensor", "tensor", _tensor_strategy, _tensor_body("default"), 2,
                source=DOC + "tensor (little-endian: self above other)"),
        Variant("tensor[inplace]", "tensor", _tensor_strategy, _tensor_body("inplace"), 2,
                source=DOC + "tensor (inplace=True)"),
        Variant("tensor[^]", "tensor", _tensor_strategy, _tensor_body("^"), 2,
                source=DOC + "__xor__ (overload ^ to implement self.tensor)"),
        Variant("inverse", "inverse", _single(), _inverse_body(False), 1,
                source=DOC + "inverse (the adjoint of this circuit)"),
        Variant("inverse[annotated]", "inverse", _single(), _inverse_body(True), 1,
                available=lambda: _has_keyword("inverse", "annotated"),
                source=DOC + "inverse (annotated=True)"),
        Variant("repeat", "repeat", _single(clbits=False, extra=st.integers(0, 3)), _repeat_body(False), 1,
                source=DOC + "repeat (a circuit containing reps repetitions of this circuit)"),
        Variant("repeat[insert_barriers]", "repeat", _single(clbits=False, extra=st.integers(0, 3)), _repeat_body(True), 1,
                available=lambda: _has_keyword("repeat", "insert_barriers"),
                source=DOC + "repeat (insert_barriers=True)"),
        Variant("control", "control", _control_strategy, _control_body("default"), 1,
                source=DOC + "control (ctrl_state as an integer; default all ones) and the ControlledGate "
                             "convention (controls first)"),
        Variant("control[ctrl_state-bitstring]", "control", _control_strategy, _control_body("str"), 1,
                source=DOC + "control (ctrl_state as a bitstring)"),
        Variant("control[annotated]", "control", _control_strategy, _control_body("annotated"), 1,
                available=lambda: _has_keyword("control", "annotated"),
                source=DOC + "control (annotated=True)"),
        Variant("control[not-annotated]", "control", _control_strategy, _control_body("not-annotated"), 1,
                available=lambda: _has_keyword("control", "annotated"),
                source=DOC + "control (annotated=False)"),
        Variant("reverse_bits", "reverse_bits", _single(), _reverse_bits_body, 1,
                source=DOC + "reverse_bits (opposite order of wires; little-endian <-> big-endian)"),
        Variant("reverse_ops", "reverse_ops", _single(), _reverse_ops_body, 1,
                source=DOC + "reverse_ops (reverses the order of instructions; does not invert any gate)"),
        Variant("decompose", "decompose", _decompose_strategy, _decompose_body("default"), 1,
                source=DOC + "decompose (one level of each instruction's definition)"),
        Variant("decompose[reps]", "decompose", _decompose_strategy, _decompose_body("reps"), 1,
                source=DOC + "decompose (reps=2)"),
        Variant("decompose[gates_to_decompose]", "decompose", _decompose_strategy, _decompose_body("gates"), 1,
                source=DOC + "decompose (gates_to_decompose: names of the gates to decompose)"),
        Variant("to_gate", "to_gate", _to_operation_strategy, _to_operation_body("to_gate"), 1,
                source=DOC + "to_gate (a Gate out of this unitary circuit)"),
        Variant("to_instruction", "to_instruction", _to_operation_strategy, _to_operation_body("to_instruction"), 1,
                source=DOC + "to_instruction (an Instruction out of this circuit)"),
        Variant("copy_empty_like", "copy_empty_like", _single(), _copy_empty_body(False), 1,
                source=DOC + "copy_empty_like (same qubits, clbits, registers and global phase, no instructions)"),
        Variant("copy_empty_like[name]", "copy_empty_like", _single(), _copy_empty_body(True), 1,
                source=DOC + "copy_empty_like (name=...)"),
        Variant("assign_parameters", "assign_parameters", _assign_strategy, _assign_body("mapping"), 1,
                source=DOC + "assign_parameters (mapping Parameter -> value; expressions and global phase)"),
        Variant("assign_parameters[sequence]", "assign_parameters", _assign_strategy, _assign_body("sequence"), 1,
                source=DOC + "assign_parameters (sequence bound in the order of circuit.parameters)"),
        Variant("assign_parameters[inplace]", "assign_parameters", _assign_strategy, _assign_body("inplace"), 1,
                source=DOC + "assign_parameters (inplace=True)"),
        Variant("global_phase", "global_phase", _global_phase_strategy, _global_phase_body, 1,
                source=DOC + "global_phase (the global phase of the circuit in radians)"),
    ]
    for mode, (low, high) in _POWER_K.items():
        keyword = {"matrix_power": ", matrix_power=True", "annotated": ", annotated=True"}.get(mode, "")
        v.append(Variant(f"power[{mode}]", "power", _single(clbits=False, extra=st.integers(low, high)),
                         _power_body(keyword), 1,
                         available=(lambda: _has_keyword("power", "annotated")) if mode == "annotated" else (lambda: True),
                         source=DOC + "power (integer power; positive integers via repeat, otherwise the circuit as "
                                      "a gate raised to the power" + (", annotated=True)" if mode == "annotated" else
                                                                       ", matrix_power=True)" if mode == "matrix_power"
                                                                       else ")")))
    return {variant.name: variant for variant in v}


def _subjects():
    _gate_table()  # ImportError / AttributeError on a release without the standard gate mapping
    return [name for name, variant in _variants().items() if variant.available()]


def _strategy(subject):
    return _variants()[subject].strategy(subject)


def _reproducer(subject, example):
    variant = _variants()[subject]
    circuits = [example[0]] + ([example[1]] if variant.circuits == 2 else [])
    gates = [example[1]] if subject == "compose[gate]" else []
    return _imports(circuits, gates) + "\n".join(variant.body(example)) + "\n"


def _check(subject, example):
    exec(compile(_reproducer(subject, example), "<law>", "exec"), {"__name__": "__main__"})


def _api(subject):
    method = _variants()[subject].method
    return f"qiskit.circuit.QuantumCircuit.{method}"


def _describe(subject, example):
    return "; ".join(line for line in _variants()[subject].body(example) if not line.startswith("assert_close"))


FAMILY = "circuit algebra"

CONTRACTS = [
    Contract("qiskit.circuit.methods-agree-with-operator-algebra", FAMILY,
             "each documented QuantumCircuit method that builds a circuit from others (compose, tensor, inverse, "
             "power, repeat, control, reverse_bits, reverse_ops, decompose, to_gate/to_instruction, "
             "copy_empty_like, assign_parameters, global_phase) gives the operator the algebra of the inputs' "
             "unitaries predicts, global phase included",
             "documentation: qiskit.circuit.QuantumCircuit (compose, tensor, inverse, power, repeat, control, "
             "reverse_bits, reverse_ops, decompose, to_gate, to_instruction, copy_empty_like, assign_parameters, "
             "global_phase); quantum semantics",
             _subjects, _strategy, _check, _reproducer, _api, describe=_describe),
]
