import contextlib
import io
import re as _re

_PART = r"(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?"
NUMBER = _re.compile(r"(?<![^\W_])(?<!\.)(?P<re>[+-]?" + _PART + r")(?:(?P<im>[+-]" + _PART + r")j|(?P<j>j))?(?![\w.])")
_WRAPPER = _re.compile(r"\b(?:np\.|numpy\.|onp\.|jnp\.)?(?:tensor|array|Array|float(?:16|32|64|128)|"
                       r"u?int(?:8|16|32|64)|complex(?:64|128|256)|longdouble|str_)\(")


def normalise(text, documented=False):
    """The text with print-style details removed: wrappers, keyword annotations, commas,
    parentheses and whitespace; a docstring's <BLANKLINE> and '0.707...' truncations too."""
    if documented:
        text = text.replace("<BLANKLINE>", "")
        text = _re.sub(r"(\d)\.\.\.", r"\1", text)
    text = _WRAPPER.sub("(", text)
    text = _re.sub(r"\bnp\.(True|False)_", r"\1", text)
    text = _re.sub(r"\b(?:np\.|numpy\.)?bool_\((True|False)\)", r"\1", text)
    text = _re.sub(r",?\s*(?:requires_grad|weak_type)=(?:True|False)", "", text)
    text = _re.sub(r",?\s*dtype=[\w.'\"\[\]]+", "", text)
    text = text.replace('"', "'").replace("(", " ").replace(")", " ").replace(",", " ")
    text = _re.sub(r"\s+", " ", text)
    text = _re.sub(r"([\[{]) ", r"\1", text)
    text = _re.sub(r" ([\]}])", r"\1", text)
    return text.strip()


def skeleton(text):
    """The normalised text with every number (real or complex) replaced by '#'."""
    return NUMBER.sub("#", text)


RELATIVE = 1e-6  # relative slack for round-off and iterative-solver noise (of the output's scale)
# Absolute slack: a number this small printed alone (an expectation value of exactly 0 shown as
# -2.2e-17) is double-precision round-off, which the relative slack of an output whose only
# number it is cannot absorb. Documented values that differ are far larger (1e-3 and up so far).
ROUND_OFF = 1e-12


def _decimals(part):
    mantissa = _re.split(r"[eE]", part)[0]
    return len(mantissa.split(".")[1]) if "." in mantissa else None


def numbers(text):
    """[(real, imag, real text, imag text)] of the numbers of a normalised text, in order."""
    found = []
    for match in NUMBER.finditer(text):
        real, imag = match.group("re"), match.group("im")
        if match.group("j"):
            found.append((0.0, float(real), None, real))  # a part not printed is held to the printed one's precision
        else:
            found.append((float(real), float(imag) if imag else 0.0, real, imag))
    return found


def tolerances(documented_numbers):
    """The tolerance each documented number's printed precision allows, part by part."""
    places = [d for _, _, r, i in documented_numbers for d in (_decimals(r or ""), _decimals(i or "")) if d]
    widest = min(max(places), 8) if places else 8
    # floating-point round-off and solver noise: a 2e-17 imaginary part or a 1e-9 "zero" printed in
    # full precision beside numbers of order 1 is no documented value, so the relative slack is
    # taken of the output's scale (its largest number), never below the number's own size
    scale = max([abs(x) for r, i, _, _ in documented_numbers for x in (r, i)] or [0.0])

    def tolerance(part, value):
        if not _re.search(r"[.eE]", part):
            return 0.5  # an integer: the value rounds to it
        decimals = _decimals(part) or widest  # '1.' : numpy's whole value at its array's precision
        exponent = int(_re.split(r"[eE]", part)[1]) if _re.search(r"[eE]", part) else 0
        return 1.5 * 10.0 ** (exponent - decimals) + RELATIVE * max(abs(value), scale) + ROUND_OFF

    found = []
    for re_, im, r, i in documented_numbers:
        tr = tolerance(r, re_) if r is not None else tolerance(i, im)
        found.append((tr, tolerance(i, im) if i is not None else tr))
    return found


def mismatches(documented, actual_text):
    """(index, documented number, actual number) of the numbers outside the documented precision.
    `documented` is [(real, imag, real tolerance, imag tolerance)]."""
    actual = numbers(normalise(actual_text))
    if len(actual) != len(documented):
        raise RuntimeError("the example prints another number of numbers: out of the law's domain")
    bad = []
    for index, ((dr, di, tr, ti), (ar, ai, _, _)) in enumerate(zip(documented, actual)):
        if abs(ar - dr) > tr or abs(ai - di) > ti:
            bad.append((index, complex(dr, di) if di else dr, complex(ar, ai) if ai else ar))
    return bad


# the docstring example #5 of pennylane.RiemannianGradientOptimizer
import numpy as np
import pennylane as qml
import pennylane as qp
# its setup: the docstring's earlier examples
coeffs = [-1., -1., -1.]
observables = [qp.X(0), qp.Z(1), qp.Y(0) @ qp.X(1)]
hamiltonian = qp.Hamiltonian(coeffs, observables)
@qp.qnode(qp.device("default.qubit", wires=2))
def quant_fun():
    qp.RX(0.1, wires=[0])
    qp.RY(0.5, wires=[1])
    qp.CNOT(wires=[0,1])
    qp.RY(0.6, wires=[0])
    return qp.expval(hamiltonian)
opt = qp.RiemannianGradientOptimizer(circuit=quant_fun, stepsize=0.1)
# the example, run as doctest runs it (expression values are displayed)
EXAMPLE = 'for step in range(6):\n   circuit, cost = opt.step_and_cost()\n   print(f"Step {step} - cost {cost}")\n'
printed = io.StringIO()
with contextlib.redirect_stdout(printed):
    exec(compile(EXAMPLE, '<docstring example>', 'single'))
actual = printed.getvalue()

DOCUMENTED = 'Step 0 - cost -1.3351865007304005\nStep 1 - cost -1.9937887238935206\nStep 2 - cost -2.1524234485729834\nStep 3 - cost -2.1955105378898487\nStep 4 - cost -2.2137628169764256\nStep 5 - cost -2.2234364822091575\n'
# the documented numbers: (real, imag, real tolerance, imag tolerance) from its printed precision
DOCUMENTED_NUMBERS = [(0.0, 0.0, 0.5, 0.5), (-1.3351865007304005, 0.0, 5.00000100015e-06, 5.00000100015e-06), (1.0, 0.0, 0.5, 0.5), (-1.9937887238935206, 0.0, 5.00000100015e-06, 5.00000100015e-06), (2.0, 0.0, 0.5, 0.5), (-2.1524234485729834, 0.0, 5.00000100015e-06, 5.00000100015e-06), (3.0, 0.0, 0.5, 0.5), (-2.1955105378898487, 0.0, 5.00000100015e-06, 5.00000100015e-06), (4.0, 0.0, 0.5, 0.5), (-2.2137628169764256, 0.0, 5.00000100015e-06, 5.00000100015e-06), (5.0, 0.0, 0.5, 0.5), (-2.2234364822091575, 0.0, 5.00000100015e-06, 5.00000100015e-06)]
if skeleton(normalise(actual)) != skeleton(normalise(DOCUMENTED, documented=True)):
    raise RuntimeError('the output is formatted differently: out of the law\'s domain')
bad = mismatches(DOCUMENTED_NUMBERS, actual)
assert not bad, (f'pennylane.RiemannianGradientOptimizer docstring example prints other numbers than documented (number, documented, actual): {bad}\ndocumented:\n{DOCUMENTED}\nactual:\n{actual}')
