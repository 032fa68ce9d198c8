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


# qiskit.circuit.library.IntegerComparatorGate, built by its constructor
import numpy as np
import qiskit
from qiskit import QuantumCircuit
from qiskit.circuit.library import IntegerComparatorGate
obj = IntegerComparatorGate(num_state_qubits=2, value=2)
op = obj
from qiskit.transpiler.passes.synthesis.plugin import HighLevelSynthesisPluginManager
plugin = HighLevelSynthesisPluginManager().method('IntComp', 'noaux')
try:
    plugin.run(op, coupling_map=None, target=None, qubits=list(range(op.num_qubits)), **{})
except Exception as exc:
    where = internal_error(exc, 'qiskit')
    if where is None:
        raise  # the library's own refusal: not this defect
    raise AssertionError(f'plugin IntComp.noaux raised an internal error: {type(exc).__name__}: {exc} (at {where})') from exc
