"""Construction and operations, Qiskit: laws every gate class must obey, stated once for all
gate classes the live library exports (qiskit.circuit.library), never for one gate.

Qiskit tracks global phase, so every law here is exact, global phase included:
  - the gate's matrix is unitary;
  - inverse() is the adjoint of the gate;
  - the definition (decomposition) has the gate's matrix;
  - power(k) for integer k is the k-th matrix power;
  - control(n, ctrl_state=s) is |s><s| (x) U + (I - |s><s|) (x) I on the controls —
    built here with numpy, independently of the library's own controlled-gate code.
"""

import inspect
import math

import numpy as np

from contract_runtime import Contract, angles

ATOL = 1e-7
ANGLE_NAMES = {"theta", "phi", "lam", "gamma", "beta", "alpha", "angle", "delta", "lambda_"}
COUNT_NAMES = {"num_ctrl_qubits", "num_qubits", "num_target_qubits"}
# Constructor arguments that change what a gate is, besides its angles, and stay in range.
SKIP_ARGS = {"label", "duration", "unit", "ctrl_state", "_base_label"}


def _gate_classes():
    import qiskit.circuit.library as library
    from qiskit.circuit import Gate

    found = {}
    for name in sorted(dir(library)):
        cls = getattr(library, name)
        if inspect.isclass(cls) and issubclass(cls, Gate) and not inspect.isabstract(cls):
            signature = _constructor_parameters(cls)
            if signature is not None:
                found[name] = (cls, signature)
    return found


def _constructor_parameters(cls):
    """(name, kind) of the required constructor arguments, when all are angles or small
    counts; None when the gate needs something else (a matrix, a label string, ...)."""
    try:
        parameters = inspect.signature(cls.__init__).parameters
    except (TypeError, ValueError):
        return None
    required = []
    for name, parameter in list(parameters.items())[1:]:
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        if parameter.default is not inspect.Parameter.empty:
            continue
        if name in SKIP_ARGS:
            return None  # a required label or unit: not a family this module generates
        if name in ANGLE_NAMES:
            required.append((name, "angle"))
        elif name in COUNT_NAMES:
            required.append((name, "count"))
        else:
            return None
    return required


def _arguments(subject):
    from hypothesis import strategies as st

    _, parameters = _gate_classes()[subject]
    parts = [angles() if kind == "angle" else st.integers(min_value=1, max_value=3) for _, kind in parameters]
    return st.tuples(*parts) if parts else st.just(())


def _build(subject, arguments):
    cls, _ = _gate_classes()[subject]
    return cls(*arguments)


def _call_text(subject, arguments):
    return f"{subject}({', '.join(repr(a) for a in arguments)})"


def _matrix(gate):
    from qiskit.quantum_info import Operator

    return Operator(gate).data


def _distance(a, b):
    return float(np.max(np.abs(a - b))) if a.shape == b.shape else math.inf


def _header(subject):
    return ("import numpy as np\n"
            f"from qiskit.circuit.library import {subject}\n"
            "from qiskit.quantum_info import Operator\n\n")


def _subjects():
    return sorted(_gate_classes())


def _api(subject):
    return f"qiskit.circuit.library.{subject}"


# -- unitarity ---------------------------------------------------------------------------
def _check_unitary(subject, arguments):
    u = _matrix(_build(subject, arguments))
    identity = np.eye(u.shape[0])
    deviation = _distance(u @ u.conj().T, identity)
    assert deviation < ATOL, f"{_call_text(subject, arguments)} is not unitary: |U U^dag - I| = {deviation:.3g}"


def _reproduce_unitary(subject, arguments):
    return _header(subject) + (
        f"u = Operator({_call_text(subject, arguments)}).data\n"
        "deviation = np.max(np.abs(u @ u.conj().T - np.eye(u.shape[0])))\n"
        f"assert deviation < {ATOL}, f'{_call_text(subject, arguments)} is not unitary: {{deviation}}'\n")


# -- inverse -----------------------------------------------------------------------------
def _check_inverse(subject, arguments):
    gate = _build(subject, arguments)
    u = _matrix(gate)
    inverse = _matrix(gate.inverse())
    deviation = _distance(inverse, u.conj().T)
    assert deviation < ATOL, (f"{_call_text(subject, arguments)}.inverse() is not the adjoint of the gate "
                              f"(max deviation {deviation:.3g}, global phase included)")


def _reproduce_inverse(subject, arguments):
    call = _call_text(subject, arguments)
    return _header(subject) + (
        f"gate = {call}\n"
        "u = Operator(gate).data\n"
        "inverse = Operator(gate.inverse()).data\n"
        "deviation = np.max(np.abs(inverse - u.conj().T))\n"
        f"assert deviation < {ATOL}, f'{call}.inverse() differs from the adjoint by {{deviation}}'\n")


# -- definition ----------------------------------------------------------------------------
def _check_definition(subject, arguments):
    gate = _build(subject, arguments)
    if gate.definition is None:
        return
    from qiskit.quantum_info import Operator

    u = _matrix(gate)
    defined = Operator(gate.definition).data
    deviation = _distance(defined, u)
    assert deviation < ATOL, (f"the definition of {_call_text(subject, arguments)} does not implement its matrix "
                              f"(max deviation {deviation:.3g}, global phase included)")


def _reproduce_definition(subject, arguments):
    call = _call_text(subject, arguments)
    return _header(subject) + (
        f"gate = {call}\n"
        "deviation = np.max(np.abs(Operator(gate.definition).data - Operator(gate).data))\n"
        f"assert deviation < {ATOL}, f'the definition of {call} differs from its matrix by {{deviation}}'\n")


# -- power ----------------------------------------------------------------------------------
def _power_strategy(subject):
    from hypothesis import strategies as st

    return st.tuples(_arguments(subject), st.sampled_from([-2, -1, 0, 2, 3]))


def _check_power(subject, example):
    arguments, exponent = example
    gate = _build(subject, arguments)
    u = _matrix(gate)
    expected = np.linalg.matrix_power(u, exponent) if exponent >= 0 else \
        np.linalg.matrix_power(u.conj().T, -exponent)
    deviation = _distance(_matrix(gate.power(exponent)), expected)
    assert deviation < ATOL, (f"{_call_text(subject, arguments)}.power({exponent}) is not the matrix power "
                              f"(max deviation {deviation:.3g}, global phase included)")


def _reproduce_power(subject, example):
    arguments, exponent = example
    call = _call_text(subject, arguments)
    power = (f"np.linalg.matrix_power(u, {exponent})" if exponent >= 0
             else f"np.linalg.matrix_power(u.conj().T, {-exponent})")
    return _header(subject) + (
        f"gate = {call}\n"
        "u = Operator(gate).data\n"
        f"deviation = np.max(np.abs(Operator(gate.power({exponent})).data - {power}))\n"
        f"assert deviation < {ATOL}, f'{call}.power({exponent}) differs from the matrix power by {{deviation}}'\n")


# -- control ---------------------------------------------------------------------------------
def _control_strategy(subject):
    from hypothesis import strategies as st

    return st.tuples(_arguments(subject), st.integers(min_value=1, max_value=2)).flatmap(
        lambda pair: st.tuples(st.just(pair[0]), st.just(pair[1]),
                               st.integers(min_value=0, max_value=2 ** pair[1] - 1)))


def controlled_matrix(u, num_controls, ctrl_state):
    """Controls on the low qubits (Qiskit's order), little-endian ctrl_state."""
    projector = np.zeros((2 ** num_controls, 2 ** num_controls))
    projector[ctrl_state, ctrl_state] = 1.0
    rest = np.eye(2 ** num_controls) - projector
    return np.kron(u, projector) + np.kron(np.eye(u.shape[0]), rest)


def _check_control(subject, example):
    arguments, num_controls, ctrl_state = example
    gate = _build(subject, arguments)
    if gate.num_qubits + num_controls > 6 or _ancilla_qubits(gate):
        # A gate with ancilla qubits documents that its controlled version brings the
        # ancillas its own construction needs: its width is not the law's to predict.
        return
    controlled = gate.control(num_controls, ctrl_state=ctrl_state)
    if _ancilla_qubits(controlled):
        return  # e.g. MCXRecursive: more controls documentedly need an ancilla
    expected = controlled_matrix(_matrix(gate), num_controls, ctrl_state)
    actual = _matrix(controlled)
    assert actual.shape == expected.shape, (
        f"{_call_text(subject, arguments)}.control({num_controls}, ctrl_state={ctrl_state}) acts on "
        f"{int(np.log2(actual.shape[0]))} qubits, expected {gate.num_qubits} + {num_controls}")
    deviation = _distance(actual, expected)
    assert deviation < ATOL, (f"{_call_text(subject, arguments)}.control({num_controls}, ctrl_state={ctrl_state}) "
                              f"is not the controlled gate (max deviation {deviation:.3g}, global phase included)")


def _ancilla_qubits(gate):
    """Qubits a controlled gate has beyond its controls and its base gate's targets."""
    base = getattr(gate, "base_gate", None)
    controls = getattr(gate, "num_ctrl_qubits", 0)
    return gate.num_qubits - controls - base.num_qubits if base is not None else 0


def _reproduce_control(subject, example):
    arguments, num_controls, ctrl_state = example
    call = _call_text(subject, arguments)
    return _header(subject) + (
        f"gate = {call}\n"
        "u = Operator(gate).data\n"
        f"# expected: |s><s| (x) U + (I - |s><s|) (x) I, controls on the low qubits, s = {ctrl_state}\n"
        f"projector = np.zeros(({2 ** num_controls}, {2 ** num_controls}))\n"
        f"projector[{ctrl_state}, {ctrl_state}] = 1.0\n"
        f"expected = np.kron(u, projector) + np.kron(np.eye(u.shape[0]), np.eye({2 ** num_controls}) - projector)\n"
        f"actual = Operator(gate.control({num_controls}, ctrl_state={ctrl_state})).data\n"
        f"assert actual.shape == expected.shape, f'{call}.control({num_controls}) acts on "
        "{actual.shape} qubits-space, expected {expected.shape}'\n"
        "deviation = np.max(np.abs(actual - expected))\n"
        f"assert deviation < {ATOL}, f'{call}.control({num_controls}, ctrl_state={ctrl_state}) "
        "differs from the controlled gate by {deviation}'\n")


def _describe(subject, example):
    """The call as written: RZGate(0.5), or RZGate(0.5) with power 2 / 1 control in state 0."""
    if not example or not isinstance(example[0], tuple):
        return _call_text(subject, example)
    arguments, *rest = example
    extra = {1: "exponent {}", 2: "{} controls in state {}"}.get(len(rest), "{}")
    return f"{_call_text(subject, arguments)}, {extra.format(*rest)}"


FAMILY = "construction and operations"
SEMANTICS = "quantum semantics (Qiskit tracks global phase: equality is exact)"

CONTRACTS = [
    Contract("qiskit.operation.unitary", FAMILY, "a gate's matrix is unitary", "quantum semantics",
             _subjects, _arguments, _check_unitary, _reproduce_unitary, _api, describe=_describe),
    Contract("qiskit.operation.inverse-is-adjoint", FAMILY,
             "Gate.inverse() implements the adjoint of the gate, global phase included", SEMANTICS,
             _subjects, _arguments, _check_inverse, _reproduce_inverse, lambda s: f"{_api(s)}.inverse", describe=_describe),
    Contract("qiskit.operation.definition-matches-matrix", FAMILY,
             "a gate's definition implements the gate's matrix, global phase included", SEMANTICS,
             _subjects, _arguments, _check_definition, _reproduce_definition, lambda s: f"{_api(s)}.definition", describe=_describe),
    Contract("qiskit.operation.power-is-matrix-power", FAMILY,
             "Gate.power(k) for integer k implements the k-th matrix power, global phase included", SEMANTICS,
             _subjects, _power_strategy, _check_power, _reproduce_power, lambda s: f"{_api(s)}.power", describe=_describe),
    Contract("qiskit.operation.control-is-controlled-matrix", FAMILY,
             "Gate.control(n, ctrl_state=s) applies the gate exactly when the controls are in state s",
             "documentation: Gate.control (ctrl_state) and quantum semantics",
             _subjects, _control_strategy, _check_control, _reproduce_control, lambda s: f"{_api(s)}.control", describe=_describe),
]
