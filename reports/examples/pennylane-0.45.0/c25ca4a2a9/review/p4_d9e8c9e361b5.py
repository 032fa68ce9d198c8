import linecache as _linecache
import traceback as _traceback

# Errors the interpreter and dependencies raise when code misuses them. A library's own
# error classes are its documented refusals, even those deriving from one of these.
INTERNAL = (TypeError, AttributeError, IndexError, KeyError, ZeroDivisionError, ValueError,
            UnboundLocalError, NameError, RecursionError, OverflowError, StopIteration)


def internal_error(exc, package):
    """Where `exc` was raised inside `package` without the package meaning to: "file:line in
    function" of the innermost frame of the package, or None for the package's own refusal
    (its error classes, or a raise statement in its code) and for errors raised outside it,
    including in the caller's code the package called back."""
    if not isinstance(exc, INTERNAL) or type(exc).__module__.split(".")[0] == package:
        return None
    frames = _traceback.extract_tb(exc.__traceback__)
    mine = [f for f in frames if ("/" + package + "/") in f.filename.replace("\\", "/")]
    if not mine:
        return None
    last = mine[-1]
    program = frames[0].filename
    if any(f.filename.startswith("<") or f.filename == program for f in frames[frames.index(last) + 1:]):
        return None  # raised in the caller's own code that the library called back (a QNode's function)
    if last is frames[-1]:
        line = (last.line or _linecache.getline(last.filename, last.lineno)).strip()
        if line.startswith("raise") or line.startswith("assert"):
            return None  # the library's own raise: a refusal it chose, with its message
    where = last.filename.replace("\\", "/").split("/" + package + "/", 1)[-1]
    return package + "/" + where + ":" + str(last.lineno) + " in " + last.name


# the documented example of pennylane.OutPoly.compute_decomposition
EXAMPLE = 'import numpy as np\nimport pennylane as qml\nimport pennylane as qp\nfrom pennylane.estimator import Adjoint\nfrom pennylane.estimator import Controlled\nfrom pennylane import PhaseAdder\nfrom pennylane import QFT\n[QFT(wires=[4, 5]),\nControlled(PhaseAdder(wires=[4, 5]), control_wires=[3]),\nControlled(PhaseAdder(wires=[4, 5]), control_wires=[2]),\nControlled(PhaseAdder(wires=[4, 5]), control_wires=[1]),\nControlled(PhaseAdder(wires=[4, 5]), control_wires=[0]),\nAdjoint(QFT(wires=[4, 5]))]\n'
try:
    exec(compile(EXAMPLE, '<documented example>', 'exec'), {'__name__': '__main__'})
except Exception as exc:
    where = internal_error(exc, 'pennylane')
    if where is None:
        raise  # the library's own refusal: not this defect
    raise AssertionError(f'the documented example of pennylane.OutPoly.compute_decomposition raised an internal error: {type(exc).__name__}: {exc} (at {where})') from exc
