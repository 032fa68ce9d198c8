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


# the docstring example #5 of pennylane.qchem.moment_integral
import pennylane as qml
import pennylane as qp
from pennylane import numpy as np
from pennylane.qchem import moment_integral
# its setup: the docstring's earlier examples
symbols  = ['H', 'Li']
geometry = np.array([[0.0, 0.0, 0.0], [2.0, 0.0, 0.0]], requires_grad = True)
mol = qp.qchem.Molecule(symbols, geometry)
args = [mol.r] # initial values of the differentiable parameters
order, idx =  1, 0
# the example, run as doctest runs it (expression values are displayed)
EXAMPLE = 'moment_integral(mol.basis_set[0], mol.basis_set[1], order, idx)(*args)\n'
printed = io.StringIO()
with contextlib.redirect_stdout(printed):
    exec(compile(EXAMPLE, '<docstring example>', 'single'))
actual = printed.getvalue()

DOCUMENTED = '3.12846324e-01\n'
# the documented numbers: (real, imag, real tolerance, imag tolerance) from its printed precision
DOCUMENTED_NUMBERS = [(0.312846324, 0.0, 3.14347324e-07, 3.14347324e-07)]
if skeleton(normalise(actual)) != skeleton(normalise(DOCUMENTED, documented=True)):
    raise RuntimeError('the output is formatted differently: out of the law\'s domain')
bad = mismatches(DOCUMENTED_NUMBERS, actual)
assert not bad, (f'pennylane.qchem.moment_integral docstring example prints other numbers than documented (number, documented, actual): {bad}\ndocumented:\n{DOCUMENTED}\nactual:\n{actual}')
