import linecache as _linecache
import re as _re
import traceback as _traceback

# Errors the interpreter and dependencies raise when code misuses them. A library's own
# error classes are its documented refusals, even those deriving from one of these.
INTERNAL = (TypeError, AttributeError, IndexError, KeyError, ZeroDivisionError, ValueError,
            UnboundLocalError, NameError, RecursionError, OverflowError, StopIteration)

# Python's own message when a call's arguments do not bind to the callee's signature. The
# callee's frame never exists, so the error seems raised at the call site, in the library.
_BINDING = _re.compile(r"^([\w.<>]+)\(\) (?:missing \d+ required (?:positional|keyword-only) arguments?|"
                       r"takes (?:from \d+ to )?\d+ (?:positional )?arguments? but \d+ (?:was|were) given|"
                       r"got an unexpected keyword argument|got multiple values for argument)")
# getattr(obj, name) with a name that is not a literal: the library looks up what it was told to.
_GETATTR_BY_NAME = _re.compile(r"\bgetattr\(\s*[\w.]+\s*,\s*([A-Za-z_]\w*)\s*[,)]")


def _in_package(filename, package):
    return ("/" + package + "/") in filename.replace("\\", "/")


def _innermost_frame_in(exc, package):
    found = None
    tb = exc.__traceback__
    while tb is not None:
        if _in_package(tb.tb_frame.f_code.co_filename, package):
            found = tb.tb_frame
        tb = tb.tb_next
    return found


def _calls_a_callers_function(exc, frame, package):
    """A binding TypeError naming a function the caller wrote (found among the calling frame's
    values, or what they wrap, and defined outside `package`): the caller gave the library a
    callable that does not take what the library documents it passes. A caller error."""
    named = _BINDING.match(str(exc)) if isinstance(exc, TypeError) else None
    if named is None or frame is None:
        return False
    name = named.group(1).rsplit(".", 1)[-1]
    for value in list(frame.f_locals.values()):
        for candidate in (value, getattr(value, "func", None), getattr(value, "__wrapped__", None),
                          getattr(value, "__func__", None)):
            code = getattr(candidate, "__code__", None)
            if code is None or getattr(candidate, "__name__", None) != name:
                continue
            if not _in_package(code.co_filename, package):
                return True
    return False


def _looks_up_a_named_option(exc, frame, line):
    """An AttributeError of `getattr(obj, name)` where `name` is a parameter of the function:
    the caller named a method or option the object does not have (a device asked for a
    `jacobian` it does not provide). Unsupported, not broken."""
    found = _GETATTR_BY_NAME.search(line) if isinstance(exc, AttributeError) else None
    if found is None or frame is None:
        return False
    code = frame.f_code
    parameters = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
    return found.group(1) in parameters


def internal_error(exc, package):
    """Where `exc` was raised inside `package` without the package meaning to: "file:line in
    function" of the innermost frame of the package, or None for the package's own refusal
    (its error classes, or a raise statement in its code) and for errors raised outside it,
    including in the caller's code the package called back."""
    if not isinstance(exc, INTERNAL) or type(exc).__module__.split(".")[0] == package:
        return None
    frames = _traceback.extract_tb(exc.__traceback__)
    mine = [f for f in frames if _in_package(f.filename, package)]
    if not mine:
        return None
    if isinstance(exc, TypeError) and frames[-1].filename.replace("\\", "/").endswith("/inspect.py"):
        return None  # arguments checked against a signature (inspect.Signature.bind): a refusal with its message
    last = mine[-1]
    program = frames[0].filename
    if any(f.filename.startswith("<") or f.filename == program for f in frames[frames.index(last) + 1:]):
        return None  # raised in the caller's own code that the library called back (a QNode's function)
    if last is frames[-1]:
        line = (last.line or _linecache.getline(last.filename, last.lineno)).strip()
        if line.startswith("raise") or line.startswith("assert"):
            return None  # the library's own raise: a refusal it chose, with its message
        frame = _innermost_frame_in(exc, package)
        if _calls_a_callers_function(exc, frame, package) or _looks_up_a_named_option(exc, frame, line):
            return None
    where = last.filename.replace("\\", "/").split("/" + package + "/", 1)[-1]
    return package + "/" + where + ":" + str(last.lineno) + " in " + last.name
def as_truth(answer):
    """An equality's answer as a bool (numpy's scalar booleans included), or None for any
    other answer (an array, NotImplemented): no verdict."""
    if isinstance(answer, bool):
        return answer
    if getattr(answer, "shape", None) == () and getattr(getattr(answer, "dtype", None), "kind", "") == "b":
        return bool(answer)
    return None


def same(a, b, plain=False):
    """Whether two answers of one query are the same answer: numbers and arrays exactly (NaN
    equal to NaN), containers item by item, objects by their own equality when they define
    one. Objects compared only by identity, and iterators, cannot be told apart: same."""
    import math as _math
    if type(a) is not type(b):
        # a class made afresh by each call (an iterator class defined in the method) is one kind
        if (type(a).__module__, type(a).__qualname__) != (type(b).__module__, type(b).__qualname__):
            return False
    if hasattr(a, "__array__") and hasattr(a, "shape") and hasattr(a, "dtype"):
        import numpy as _np
        x, y = _np.asarray(a), _np.asarray(b)
        if x.shape != y.shape:
            return False
        if x.dtype.kind in "fc":
            return bool(_np.array_equal(x, y, equal_nan=True))
        if x.dtype.kind == "O":
            return all(same(p, q, plain) for p, q in zip(x.ravel().tolist(), y.ravel().tolist()))
        return bool(_np.array_equal(x, y))
    if isinstance(a, float):
        return a == b or (_math.isnan(a) and _math.isnan(b))
    if isinstance(a, complex):
        return same(a.real, b.real) and same(a.imag, b.imag)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(p, q, plain) for p, q in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k], plain) for k in a)
    if type(a).__eq__ is object.__eq__ or hasattr(a, "__next__") or (not plain and type(a).__module__ != "builtins"):
        # A library object built afresh by each call (a gate with a new name, a circuit with
        # new parameters) differs from the last by identity-like parts no one asked about.
        return True
    try:
        answer = as_truth(a == b)
    except Exception:  # an equality that cannot answer cannot tell them apart
        return True
    if answer is False:
        # Unequal objects that print alike (fresh symbols with the same names, NaN inside)
        # are not told apart by the reader either: only a difference that shows counts. A
        # number printed as numpy prints its scalars (np.float64(0.37)) is the same number.
        import re as _re
        try:
            text, other = (_re.sub(r"np\.(?:float|int|uint|complex|bool_?)\d*\(([^()]*)\)", r"\1", str(x))
                           for x in (a, b))
            return text == other and " at 0x" not in text
        except Exception:
            return False
    return True if answer is None else answer
def same_value(a, b):
    """same() up to the form of a value: numpy scalars as Python numbers, tuples as lists, a
    list beside an array as an array (an equivalent input may come back in its own form)."""
    import numpy as _np
    def plain(x):
        if isinstance(x, _np.generic):
            return x.item()
        if isinstance(x, tuple):
            return [plain(v) for v in x]
        if isinstance(x, list):
            return [plain(v) for v in x]
        if type(x) is dict:
            return {k: plain(v) for k, v in x.items()}
        return x
    a, b = plain(a), plain(b)
    if isinstance(a, _np.ndarray) != isinstance(b, _np.ndarray) and isinstance(a, (list, _np.ndarray)) \
            and isinstance(b, (list, _np.ndarray)):
        try:
            a, b = _np.asarray(a), _np.asarray(b)
        except Exception:
            return True
    if isinstance(a, (int, float, complex)) and isinstance(b, (int, float, complex)) and \
            not isinstance(a, bool) and not isinstance(b, bool):
        return a == b or (a != a and b != b)
    return same(a, b, plain=True)


import numpy as np
import qiskit
from qiskit import QuantumCircuit
def build0():
    # qiskit.transpiler.passes.Optimize1qGatesSimpleCommutation, built by its constructor
    import numpy as np
    import qiskit
    from qiskit import QuantumCircuit
    from qiskit.circuit import Parameter
    from qiskit import QuantumCircuit
    from qiskit.circuit import Qubit
    from qiskit.transpiler import WrapAngleRegistry
    from qiskit.circuit import Gate, Parameter, Qubit, QuantumCircuit
    from qiskit.circuit.library import RZGate
    from qiskit.dagcircuit import DAGCircuit
    from qiskit.transpiler.passes import WrapAngles
    from qiskit.transpiler import Target, WrapAngleRegistry
    
    param = Parameter("a")
    circuit = QuantumCircuit(1)
    value1 = circuit.rz(6.8, 0)
    target = Target(num_qubits=1)
    value2 = target.add_instruction(RZGate(param), angle_bounds=[(0, 0.5)])
    
    def callback(angles, _qubits):
        angle = angles[0]
        if angle > 0:
            number_of_gates = angle / 0.5
        else:
            number_of_gates = (6.28 - angle) / 0.5
        dag = DAGCircuit()
        dag.add_qubits([Qubit()])
        for _ in range(int(number_of_gates)):
            dag.apply_operation_back(RZGate(0.5), [dag.qubits[0]])
        return dag
    
    registry = WrapAngleRegistry()
    value3 = registry.add_wrapper("rz", callback)
    wrap_pass = WrapAngles(target, registry)
    res = wrap_pass(circuit)
    _argument0 = target
    from qiskit.transpiler.passes import Optimize1qGatesSimpleCommutation
    obj = Optimize1qGatesSimpleCommutation(target=_argument0)
    # dag, as the documentation of qiskit.converters.circuit_to_dag builds it
    import numpy as np
    import qiskit
    from qiskit import QuantumCircuit
    from qiskit import ClassicalRegister
    from qiskit import QuantumCircuit
    from qiskit import QuantumRegister, ClassicalRegister, QuantumCircuit
    from qiskit.dagcircuit import DAGCircuit
    from qiskit.converters import circuit_to_dag
    
    q = QuantumRegister(3, 'q')
    c = ClassicalRegister(3, 'c')
    circ = QuantumCircuit(q, c)
    value1 = circ.h(q[0])
    value2 = circ.cx(q[0], q[1])
    value3 = circ.measure(q[0], c[0])
    value4 = circ.rz(0.5, q[1])
    dag = circuit_to_dag(circ)
    arg0 = dag
    return obj, [arg0]
def call(obj, values):
    return obj.run(values[0])
obj, values = build0()
try:
    call(obj, values)
except Exception as exc:
    where = internal_error(exc, 'qiskit')
    if where is None or isinstance(exc, (IndexError, KeyError, ValueError, StopIteration, OverflowError)):
        raise  # the library's own refusal, or a value out of an unstated range: not this defect
    raise AssertionError(f'qiskit.transpiler.passes.Optimize1qGatesSimpleCommutation.run raised an internal error: {type(exc).__name__}: {exc} (at {where})') from exc
