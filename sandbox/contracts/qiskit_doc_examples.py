"""Documented examples, Qiskit: a public function's or class's docstring example (doctest ``>>>``
lines followed by an expected-output block) prints, on the release, the numbers its
documentation shows.

The documentation is the oracle. Subjects are found in the live library: the docstring
examples of the public functions, classes and class members (methods, properties) of
qiskit, qiskit.circuit, qiskit.circuit.library, qiskit.quantum_info, qiskit.transpiler,
qiskit.transpiler.passes, qiskit.synthesis, qiskit.result, qiskit.primitives,
qiskit.converters and qiskit.dagcircuit. A subject is "<dotted api>#<k>": the k-th ``>>>``
example of that docstring (doctest's own parsing). An example is a subject on a release only
when it has an expected output, its setup (the docstring's earlier ``>>>`` examples) and
itself run there quickly (a time guard, not a timing filter), the output is the same twice
from a fresh setup, nothing in it is random, seeded sampling, timing, a memory address, the
network, files or plotting, and the output's non-numeric skeleton (the normalised text with
every number replaced by a placeholder) is the documented one's: a reformatted repr is out of
the law's domain, never a finding.

Only numbers are judged. Both texts are normalised (whitespace, commas, parentheses,
``tensor(...)`` / ``array(...)`` / ``Array(...)`` / ``np.float64(...)`` wrappers,
``requires_grad=...``, dtype annotations, ``np.True_``), then each number the documentation
prints must match the release's within what its printed precision allows: 1.5 units of its
last printed digit plus 1e-6 of the output's scale (its largest documented number, or the
number itself if larger: round-off and solver noise, e.g. a 2e-17 imaginary part or a 1e-9
"zero" a minimiser printed beside numbers of order 1, is no documented value) (a number printed with a bare trailing point, numpy's
style for a whole value in an array, carries the precision of the most precise number of the
documented output, else numpy's 8 digits; an integer must round to the same integer); complex
numbers part by part. A sign or global phase is part of the number: a difference there is a
difference. Hypothesis draws nothing but the subject (``st.just(None)``); the check runs the
example once, as written.

The engine (`DocExampleLaw`) imports no quantum library at import time: the PennyLane module
(pennylane_doc_examples.py) builds its law from it with PennyLane's modules and preludes.
"""

import contextlib
import doctest
import functools
import importlib
import inspect
import io
import re
import sys
import warnings

from contract_runtime import Contract, public_names, public_objects, time_limit

RUN_BUDGET_S = 5.0  # one run of setup + example past this is not a subject: a guard against hangs and
                    # optimiser loops, far above the ~0.1 s most examples take (ones near it may come and go with load)

# Examples whose text says their output is random, seeded, timed, sampled, about memory, or that reach
# the network, files, plotting, or switch global modes for everything after them, are never run.
UNSAFE = re.compile(r"random|seed|shots|sampl|\brng\b|\btime\b|timeit|perf_counter|datetime|memory|getsizeof|"
                    r"\bid\(|hash\(|\bopen\(|urllib|requests|subprocess|shutil|\bos\.|savefig|to_file|\.write\(|"
                    r"data\.load|draw_mpl|mpl|matplotlib|plt\.|\b(?:enable|disable|activate|deactivate)\w*\(|"
                    r"set_printoptions|\bthread|multiprocess|getpass|input\(|qml\.data|\.labs\b", re.IGNORECASE)
ADDRESS = re.compile(r"0x[0-9a-fA-F]{4,}| at 0x|object at ")

# -- the comparison, written once: the check runs it, every reproducer embeds it verbatim --------------
COMPARE_SOURCE = r'''
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
'''
_COMPARE = {}
exec(COMPARE_SOURCE, _COMPARE)  # noqa: S102 (the same source the reproducers embed)
normalise, skeleton, numbers = _COMPARE["normalise"], _COMPARE["skeleton"], _COMPARE["numbers"]
tolerances, mismatches = _COMPARE["tolerances"], _COMPARE["mismatches"]


def documented_numbers(want):
    found = numbers(normalise(want, documented=True))
    return [(r, i, tr, ti) for (r, i, _, _), (tr, ti) in zip(found, tolerances(found))]


# -- running an example -----------------------------------------------------------------------------
@contextlib.contextmanager
def _isolated_printing():
    """numpy's print options and the display hook as they were, whatever the example does."""
    import numpy as np

    options = np.get_printoptions()
    hook = sys.displayhook
    sys.displayhook = sys.__displayhook__
    try:
        yield
    finally:
        sys.displayhook = hook
        np.set_printoptions(**options)


def run_example(prelude, setup_sources, source):
    """What the example prints (doctest's way: 'single' mode, expression values displayed), from a
    fresh namespace with the prelude and the setup examples run first."""
    namespace = {"__name__": "__docstring_example__"}
    out = io.StringIO()
    with _isolated_printing(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(prelude, "<prelude>", "exec"), namespace)  # noqa: S102
            for text in setup_sources:
                exec(compile(text, "<docstring setup>", "single"), namespace)  # noqa: S102 (the docs' own lines)
        with contextlib.redirect_stdout(out):
            exec(compile(source, "<docstring example>", "single"), namespace)  # noqa: S102
    return out.getvalue()


# -- which callables and examples -------------------------------------------------------------------
def _own_doc(obj):
    """The docstring an object itself carries (never one inherited from a base class)."""
    if isinstance(obj, (staticmethod, classmethod)):
        obj = obj.__func__
    if isinstance(obj, property):
        obj = obj.fget
    if inspect.isclass(obj):
        doc = obj.__dict__.get("__doc__")
    elif inspect.isfunction(obj) or inspect.ismethod(obj) or inspect.isbuiltin(obj):
        doc = getattr(obj, "__doc__", None)
    else:
        doc = getattr(obj, "__dict__", {}).get("__doc__") if hasattr(obj, "__dict__") else None
    return doc if isinstance(doc, str) and ">>>" in doc else None


class Example:
    def __init__(self, dotted, index, setup, source, want):
        self.dotted, self.index, self.setup, self.source, self.want = dotted, index, setup, source, want
        self.prelude = ""
        self.documented = documented_numbers(want)


class DocExampleLaw:
    """The law 'documented examples give their documented output' for one library."""

    def __init__(self, library, modules, preludes, names, excluded_modules=()):
        self.library, self.modules, self.preludes = library, modules, preludes
        self.names = names  # how examples name the library (a regular expression)
        self.excluded_modules = excluded_modules
        self.validated = functools.lru_cache(maxsize=None)(self._validated)

    @functools.cached_property
    def callables(self):
        """public dotted name -> its docstring, for every documented callable once (its first public name)."""
        found, seen = {}, set()
        for module_name, name, obj in public_objects(self.modules):
            if inspect.ismodule(obj) or not callable(obj):
                continue
            owner = getattr(obj, "__module__", None) or type(obj).__module__ or ""
            if not isinstance(owner, str) or not owner.startswith(self.library):
                continue
            if any(part in owner for part in self.excluded_modules):
                continue
            members = [(f"{module_name}.{name}", obj)]
            if inspect.isclass(obj):
                members += [(f"{module_name}.{name}.{k}", v) for k, v in sorted(vars(obj).items())
                            if not k.startswith("_")]
            for dotted, member in members:
                doc = _own_doc(member)
                key = id(member.__func__ if isinstance(member, (staticmethod, classmethod)) else member)
                if doc is None or key in seen or doc in seen:
                    continue  # each docstring once: a subclass repeating its base's doc is not new
                seen.update((key, doc))
                found[dotted] = doc
        return found

    def examples(self, dotted):
        """index -> Example, for the docstring's examples with an expected output."""
        doc = self.callables.get(dotted)
        if doc is None:
            return {}
        try:
            parsed = doctest.DocTestParser().get_examples(inspect.cleandoc(doc))
        except ValueError:
            return {}
        found = {}
        for index, example in enumerate(parsed):
            setup = parsed[:index]
            if not example.want.strip() or example.exc_msg is not None:
                continue
            if any(e.exc_msg is not None or e.options.get(doctest.SKIP) for e in setup + [example]):
                continue
            text = "".join(e.source for e in setup + [example])
            if UNSAFE.search(text) or UNSAFE.search(example.want) or ADDRESS.search(example.want):
                continue
            found[index] = Example(dotted, index, [e.source for e in setup], example.source, example.want)
        return found

    def _preludes(self, example):
        """The preludes to try, in order: the library's usual imports, then those plus the public
        names of the documented callable's own module that the example uses bare (the docs
        write them as the module's page has them in scope)."""
        yield from self.preludes
        owner, _ = self._owner(example.dotted)
        used = self._bare_names(example)
        if used:
            extra = f"from {owner} import {', '.join(used)}\n"
            for prelude in self.preludes:
                yield prelude + extra

    def _bare_names(self, example):
        """Public names of the documented callable's module that the example uses without importing them."""
        owner, _ = self._owner(example.dotted)
        text = "".join(example.setup) + example.source
        try:
            public = public_names(importlib.import_module(owner))
        except ImportError:
            return []
        return [n for n in public if re.search(rf"(?<![\w.]){re.escape(n)}\b", text)
                and not re.search(rf"import[^\n]*\b{re.escape(n)}\b", text)]

    def _owner(self, dotted):
        """(module, top-level public name) of a dotted api."""
        for module_name in sorted(self.modules, key=len, reverse=True):
            if dotted.startswith(module_name + "."):
                return module_name, dotted[len(module_name) + 1:].split(".")[0]
        return dotted.rsplit(".", 1)

    def _validated(self, subject):
        """The Example of a subject when it is in the law's domain on this release, else None."""
        dotted, _, index = subject.rpartition("#")
        example = self.examples(dotted).get(int(index))
        if example is None:
            return None
        wanted = skeleton(normalise(example.want, documented=True))
        text = "".join(example.setup) + example.source
        if not (re.search(self.names, text) or self._bare_names(example)):
            return None  # the example exercises no API of the library (a numpy aside in its docs)
        for prelude in self._preludes(example):
            try:
                with time_limit(RUN_BUDGET_S):
                    first = run_example(prelude, example.setup, example.source)
                with time_limit(RUN_BUDGET_S):
                    second = run_example(prelude, example.setup, example.source)
            except BaseException as exc:
                if isinstance(exc, KeyboardInterrupt):
                    raise
                continue
            if first != second or ADDRESS.search(first):
                return None  # not the same output twice: random, or an address
            if skeleton(normalise(first)) != wanted:
                continue  # another print style (or another prelude's numpy): out of the domain
            example.prelude = prelude
            return example
        return None

    # -- the contract's parts -----------------------------------------------------------------------
    def subjects(self):
        candidates = [f"{dotted}#{index}" for dotted in self.callables for index in self.examples(dotted)]
        return [s for s in candidates if self.validated(s) is not None]

    def api(self, subject):
        return subject.rpartition("#")[0]

    def strategy(self, subject):
        from hypothesis import strategies as st

        if self.validated(subject) is None:
            raise LookupError(f"{subject} is not a runnable documented example on this release")
        return st.just(None)

    def check(self, subject, _=None):
        from hypothesis import reject

        example = self.validated(subject)
        with time_limit(RUN_BUDGET_S):
            actual = run_example(example.prelude, example.setup, example.source)
        if skeleton(normalise(actual)) != skeleton(normalise(example.want, documented=True)):
            reject()  # reformatted output: out of the law's domain
        bad = mismatches(example.documented, actual)
        assert not bad, (f"{self.short(example.dotted)} docstring example #{example.index} prints numbers other "
                         f"than its documentation shows ({self._describe_mismatches(bad)})\n"
                         f">>> {example.source.rstrip()}\ndocumented:\n{example.want.rstrip()}\n"
                         f"actual:\n{actual.rstrip()}")

    @staticmethod
    def _describe_mismatches(bad):
        shown = ", ".join(f"number {i}: documented {d!r}, actual {a!r}" for i, d, a in bad[:4])
        return shown + (f", and {len(bad) - 4} more" if len(bad) > 4 else "")

    def short(self, dotted):
        return dotted

    def reproducer(self, subject, _=None):
        example = self.validated(subject)
        lines = ["import contextlib", "import io", COMPARE_SOURCE.strip("\n"), "", "",
                 f"# the docstring example #{example.index} of {example.dotted}"]
        if example.prelude.strip():
            lines.append(example.prelude.rstrip("\n"))
        if example.setup:
            lines.append("# its setup: the docstring's earlier examples")
            lines += [text.rstrip("\n") for text in example.setup]
        lines += ["# the example, run as doctest runs it (expression values are displayed)",
                  f"EXAMPLE = {example.source!r}",
                  "printed = io.StringIO()",
                  "with contextlib.redirect_stdout(printed):",
                  "    exec(compile(EXAMPLE, '<docstring example>', 'single'))",
                  "actual = printed.getvalue()",
                  "",
                  f"DOCUMENTED = {example.want!r}",
                  "# the documented numbers: (real, imag, real tolerance, imag tolerance) from its printed precision",
                  f"DOCUMENTED_NUMBERS = {example.documented!r}",
                  "if skeleton(normalise(actual)) != skeleton(normalise(DOCUMENTED, documented=True)):",
                  "    raise RuntimeError('the output is formatted differently: out of the law\\'s domain')",
                  "bad = mismatches(DOCUMENTED_NUMBERS, actual)",
                  (f"assert not bad, (f'{example.dotted} docstring example prints other numbers than documented "
                   "(number, documented, actual): {bad}\\ndocumented:\\n{DOCUMENTED}\\nactual:\\n{actual}')")]
        return "\n".join(lines) + "\n"

    def describe(self, subject, _=None):
        example = self.validated(subject)
        if example is None:
            return subject
        return ">>> " + example.source.rstrip().replace("\n", "\n... ")

    def contract(self, id, source):
        return Contract(id, "documented examples",
                        "a public function's or class's docstring example gives, on the release, the numbers its "
                        "documented expected output shows (within the printed precision; output formatting aside)",
                        source, self.subjects, self.strategy, self.check, self.reproducer, self.api,
                        validity="documented example", describe=self.describe)


QISKIT = DocExampleLaw(
    "qiskit",
    ["qiskit", "qiskit.circuit", "qiskit.circuit.library", "qiskit.quantum_info", "qiskit.transpiler",
     "qiskit.transpiler.passes", "qiskit.synthesis", "qiskit.result", "qiskit.primitives", "qiskit.converters",
     "qiskit.dagcircuit"],
    ["import numpy as np\n", "import numpy as np\nimport qiskit\nfrom qiskit import QuantumCircuit\n"],
    r"\bqiskit\b|\bQuantumCircuit\b", excluded_modules=("qiskit.visualization",))

CONTRACTS = [
    QISKIT.contract("qiskit.docs.examples-give-documented-output",
                    "documentation: the docstrings' own doctest examples (>>> lines and the expected output "
                    "shown under them) of the public API in qiskit, qiskit.circuit(.library), qiskit.quantum_info, "
                    "qiskit.transpiler(.passes), qiskit.synthesis, qiskit.result, qiskit.primitives, "
                    "qiskit.converters, qiskit.dagcircuit"),
]
