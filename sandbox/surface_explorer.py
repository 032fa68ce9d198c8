"""The API-surface explorer: generic laws over every public entry of a library, judged by
oracles that need no knowledge of the function they check.

Where the law catalog states what one family of code must compute, these laws state what
any documented API must do, whatever it computes:

- *no internal error*: a call the documentation allows never dies of an error the library
  did not mean to raise (a builtin error raised by the interpreter or by a dependency inside
  the library's code, not by a ``raise`` statement of the library's own);
- *copies are equal*: ``copy.copy``, ``copy.deepcopy`` and a pickle round trip give back an
  object equal to the original, equal objects hash alike, and ``!=`` is the negation of ``==``;
- *queries are pure*: reading a property or calling a query method leaves the object equal
  to what it was, and asking twice gives the same answer;
- *round trips*: ``C.from_x(obj.to_x()) == obj`` for every ``to_x``/``from_x`` pair of a class.

Inputs are *specimens*: objects of the library's own types, built by code the library's
documentation holds (a docstring's doctest lines, or its ``code-block``/``plot`` blocks: valid
input by definition) or by a public constructor whose parameters have defaults or can be
filled from their names (an angle, a count, the wires of an operator). A specimen is named by
its *recipe* (the code that builds it) and the variable that holds it, so a reproducer builds
it with the very same code. Checks and reproducers run the recipe afresh each time: a call
under test may change the object it is given.

Standard library only at import time (and `contract_runtime`); the library is imported when a
`Surface` is first used. The per-library modules (contracts/<library>_surface.py) give the
modules to leave out, the preamble recipes run under and how to fill constructor parameters.
"""

import ast
import builtins
import contextlib
import copy
import doctest
import functools
import importlib
import inspect
import io
import itertools
import keyword
import linecache
import os
import pickle
import pkgutil
import re
import select
import signal
import sys
import time
import warnings

from contract_runtime import Contract, TimeLimit, public_names, time_limit

RECIPE_S = 3.0  # one recipe past this builds no specimen (a guard against optimiser loops, not a filter)
BUILD_BUDGET_S = 8.0  # all recipes of one check together
CALL_S = 5.0  # one call under test past this says nothing (it is not a hang finding)
DOC_RECIPES_PER_CLASS = 4  # documented recipes tried per class, its own docs first, then the shortest
CONSTRUCTOR_RECIPES_PER_CLASS = 16  # constructors of the class and its public subclasses, spread over them
COMPOSE_CHOICES = 3  # recipes or plain values tried for one argument of a composed constructor
COMPOSE_TRIES = 5  # constructor calls tried before a composed constructor is left to fail
SUBCLASS_ARGUMENTS = 3  # public subclasses whose constructors may give a constructor an argument of a base class
PRODUCER_RECIPES_PER_CLASS = 3  # documented programs tried for a class only what they build shows (producers)
SCAN_CHUNK = 40  # documented programs scanned for what they build in one forked child
SCAN_RECIPE_S = 0.5  # one program scanned past this shows nothing it builds (every check would rebuild it)
PARTS_S = 1.0  # reading the parts of one program's namespace (properties, queries) for what they are
PART_S = 0.3  # one property or query read while scanning
PART_ITEMS = 10  # items of a list read while scanning

# Recipes must be repeatable and harmless: no files, network, plotting, threads, interactive input,
# global mode switches or clocks. Randomness is allowed: documented examples seed it or draw valid input.
UNSAFE_RECIPE = re.compile(
    r"\bopen\(|urllib|requests|subprocess|shutil|\bos\.|savefig|to_file|filename|fname|\.write\(|"
    r"\.(?:save|load|dump)(?!s\()\w*\(|"
    r"data\.load|\bmpl\b|_mpl\b|matplotlib|plt\.|\b(?:enable|disable|activate|deactivate)\w*\(|"
    r"set_printoptions|\bthread|multiprocess|getpass|input\(|\bimport time\b|from time import|\btime\.\w+\(|"
    r"timeit|perf_counter|datetime|"
    r"QiskitRuntimeService|IBMProvider|ibm_|\bjax\b|\btorch\b|tensorflow|\btf\.|qml\.data|qp\.data|\.labs\b|"
    r"\blogging\b|getLogger|sys\.|import \*|exec\(|eval\(", re.IGNORECASE)
IDENTIFIER = re.compile(r"[A-Za-z_]\w*")

# A call whose answer depends on chance or the clock is no query to ask twice.
NONDETERMINISTIC = re.compile(r"random|sampl|seed|shot|time|uuid|clock|counter|^next|^iter|generat|^id$|_id$",
                              re.IGNORECASE)
# Methods whose name says they change the object or act outside it.
MUTATOR = re.compile(r"^(?:set|add|append|extend|insert|remove|delete|del|pop|clear|reset|update|apply|"
                     r"assign|push|discard|sort|reverse|shuffle|normalize|normalise|close|open|start|stop|"
                     r"run|execute|submit|cancel|wait|register|unregister|load|save|write|dump|flush|"
                     r"draw|plot|show|display|print|compile|evolve|fit|train|step|enable|disable|"
                     r"activate|deactivate|bind|unbind|release|acquire|finalize|refresh|queue|tape)",
                     re.IGNORECASE)
IN_PLACE = re.compile(r"in[- ]?place|modif|mutat|\bupdates\b|\bsets\b|\bremoves\b|\bclears\b|\bresets\b|"
                      r"\bappends\b|\badds\b|\bstores\b|\bcaches\b|\bsaves\b|\bwrites\b|\bprints\b|\bdisplays\b",
                      re.IGNORECASE)

# -- crash triage: written once; the checks run it and every reproducer embeds it verbatim ------------
TRIAGE_SOURCE = r'''
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
'''
exec(compile(TRIAGE_SOURCE, "<surface triage>", "exec"))  # noqa: S102 (our own source, shared with reproducers)

SAME_SOURCE = r'''
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
'''
exec(compile(SAME_SOURCE, "<surface same>", "exec"))  # noqa: S102


def constructor_signature(cls):
    """The parameters a call of `cls` takes. A metaclass whose __call__ forwards everything
    (Qiskit's passes: `(*args, **kwargs)`) hides them: then they are __init__'s."""
    signature = inspect.signature(cls)
    forwards = [p.kind for p in signature.parameters.values()] == [inspect.Parameter.VAR_POSITIONAL,
                                                                    inspect.Parameter.VAR_KEYWORD]
    init = cls.__init__
    if forwards and inspect.isfunction(init):
        own = inspect.signature(init)
        return own.replace(parameters=list(own.parameters.values())[1:])
    return signature


def take(namespace, variable):
    """A specimen's object in the namespace its recipe left: a variable, or an expression over
    the namespace (`ops[0]` an item of a list, `dag.op_nodes()[0]` a part a query of a
    documented object answers, `qp.workflow.construct_tape(circuit)(x).operations[0]`)."""
    if IDENTIFIER.fullmatch(variable):
        return namespace[variable]
    # the sandbox's own paths (_parts), over the objects the docs' code built
    return eval(compile(variable, "<part>", "eval"), namespace)  # noqa: S307


def holds_something(value):
    """Whether a bare-built object is more than an empty shell: it has items (len), qubits or
    wires. A configuration with nothing to count (a transpiler pass, a commutation checker, a
    synthesis method) holds what its defaults configure; a register, layout, target or
    blueprint circuit built bare holds nothing, and anything asked of it is asked of nothing."""
    try:
        if len(value) == 0:
            return False
    except Exception:  # noqa: BLE001, S110 (no length, or one that fails: not an empty container)
        pass
    for size in ("num_qubits", "num_wires"):
        try:
            count = getattr(value, size, NotImplemented)
        except Exception:  # noqa: BLE001 (a size that fails on a bare object: nothing to count)
            return False
        if count is None or count is not NotImplemented and type(count) is int and count == 0:
            return False
    return True


DENSE_QUBITS = 20  # past this many qubits no dense matrix or state fits in memory


def too_large_to_densify(exc, obj):
    """Whether `exc` is a size refusal (ValueError, MemoryError) of an object on more than
    DENSE_QUBITS qubits or wires: the docs build such objects (`identity(100)`), and a matrix
    of one is a resource limit ("100 is too many qubits to convert to a matrix"), not a defect."""
    if not isinstance(exc, (ValueError, MemoryError)):
        return False
    for size in ("num_qubits", "num_wires"):
        try:
            count = getattr(obj, size, None)
        except Exception:  # noqa: BLE001, S112 (a size that fails says nothing here)
            continue
        if type(count) is int and count > DENSE_QUBITS:
            return True
    return False


def _configures(default):
    """Whether a parameter's default makes the object hold something (recurse=True, a basis
    name, a count of 3) rather than leave it empty (None, 0, (), ''): a constructor whose
    defaults all configure builds a real object when called bare (CountOps()), one with an
    empty default builds a blueprint that holds nothing yet (Target(num_qubits=0), Result())."""
    if default is None or isinstance(default, bool):
        return default is not None
    if isinstance(default, (int, float, complex)):
        return default != 0
    try:
        return len(default) > 0
    except TypeError:
        return True




@functools.lru_cache(maxsize=None)  # read once per class: each crash of a method asks again
def _assigned_outside_init(cls):
    """Attribute names assigned after construction: by a method of `cls` other than __init__
    (`self.name = ...`, a property's setter included: `shots` fills `_shot_vector`), or by a
    function of the class's own package on an object it is given (`mol.mo_coefficients = ...`
    in the Hartree-Fock solver of the package that defines Molecule)."""
    names = set()
    for klass in cls.__mro__:
        if klass is object:
            continue
        for key, member in vars(klass).items():
            functions = [member.fget, member.fset] if isinstance(member, property) else \
                [getattr(member, "__func__", member)]
            for function in functions:
                if key == "__init__" or getattr(function, "__code__", None) is None:
                    continue
                try:
                    source = inspect.getsource(function)
                except (OSError, TypeError):
                    continue
                names.update(_SELF_ASSIGNED.findall(source))
    return names | _assigned_from_outside(".".join(cls.__module__.split(".")[:2]))


_SELF_ASSIGNED = re.compile(r"\bself\.(\w+)\s*(?:\[[^\]]*\]\s*)?=(?!=)")
_OTHER_ASSIGNED = re.compile(r"^\s*(?!self\.|cls\.)[A-Za-z_]\w*\.(\w+)\s*=(?!=)", re.MULTILINE)


@functools.lru_cache(maxsize=None)
def _assigned_from_outside(package):
    """Attribute names the modules of `package` assign on an object other than `self`
    (`mol.mo_coefficients = coeffs`): state a function of the package fills in."""
    names = set()
    for name, module in list(sys.modules.items()):
        if name != package and not name.startswith(package + "."):
            continue
        try:
            source = inspect.getsource(module)
        except (OSError, TypeError):
            continue
        names.update(_OTHER_ASSIGNED.findall(source))
    return names


def needs_another_call_first(exc, obj, bare=False):
    """Whether `exc` is a None-error of a method of `obj` reading an attribute that `obj` holds
    as None now and that another of its methods assigns: state that method fills (a device's
    samples before it executed anything). The call was made too early, a precondition the
    engine cannot know to meet, not a defect. For a `bare` object (built by a constructor
    called with nothing, its defaults leaving that attribute None) any such attribute counts:
    what the object was not configured with (a scheduling pass given no durations) is a
    configuration the engine did not give, not a defect."""
    if obj is None or "NoneType" not in str(exc):
        return False
    if _reads_a_property_left_none(exc, obj):
        return True
    # the object, or one it holds and hands the call to (a facade over a legacy device)
    try:
        held = [value for value in vars(obj).values() if hasattr(value, "__dict__") and not inspect.isclass(value)
                and not inspect.ismodule(value) and not callable(value)]
    except TypeError:  # no __dict__
        return False
    for owner in [obj, *held]:
        unfilled = {name for name, value in vars(owner).items() if value is None}
        if not unfilled:
            continue
        filled_elsewhere = unfilled if bare and owner is obj else unfilled & _assigned_outside_init(type(owner))
        tb = exc.__traceback__
        while tb is not None and filled_elsewhere:
            frame = tb.tb_frame
            if frame.f_locals.get("self") is owner and filled_elsewhere & set(frame.f_code.co_names):
                return True
            tb = tb.tb_next
    return False


def _reads_a_property_left_none(exc, obj):
    """Whether a method of `obj` on the failing path reads one of its public properties that
    answers None: what the object does not have (a target's `dt`, "None if not set"), handed
    on to code that needs a number. An absent configuration, not a defect of the call."""
    tb = exc.__traceback__
    while tb is not None:
        frame = tb.tb_frame
        if frame.f_locals.get("self") is obj:
            for name in frame.f_code.co_names:
                if name.startswith("_") or not _is_property(type(obj), name):
                    continue
                try:
                    if getattr(obj, name) is None:
                        return True
                except Exception:  # noqa: BLE001, S112 (a property that fails says nothing here)
                    continue
        tb = tb.tb_next
    return False


def _is_property(kind, name):
    raw = next((vars(k)[name] for k in kind.__mro__ if name in vars(k)), None)
    return isinstance(raw, (property, functools.cached_property)) or type(raw).__name__ == "getset_descriptor"


def symbolic_where_numbers_needed(exc, objects):
    """Whether `exc` is a TypeError about symbols an input holds unbound: an object whose own
    `parameters` lists objects that are no numbers (a circuit or operator with free Parameters)
    asked for something only numbers give (a matrix, a comparison with a tolerance), and the
    error names the symbols' class ("Parameter expression with unbound parameters ... is not
    numeric", "'>' not supported between instances of 'ParameterExpression' and 'float'") or
    says the holder must hold numbers ("only 'SparsePauliOp' with complex-typed coefficients").
    A template the user is documented to bind first, not a defect."""
    if not isinstance(exc, TypeError):
        return False
    message = str(exc)
    for obj in objects:
        try:
            held = list(getattr(obj, "parameters", None) or ())
        except Exception:  # noqa: BLE001, S112 (a property that cannot answer holds nothing we can tell)
            continue
        symbols = [p for p in held if not isinstance(p, (int, float, complex)) and not hasattr(p, "shape")]
        names = {k.__name__ for p in symbols for k in type(p).__mro__ if k is not object}
        holder = type(obj).__name__
        numbers_wanted = holder in message and re.search(r"\b(?:numeric|number|complex|float|real)", message)
        if symbols and ("unbound" in message or numbers_wanted or
                        any(re.search(rf"\b{re.escape(n)}\b", message) for n in names)):
            return True
    return False


def _delegated_to_what_lacks_it(exc, member):
    """An AttributeError for the very name asked (`SymbolicOp.basis` returning `self.base.basis`
    on a base without one: "'MyOp' object has no attribute 'basis'"): the member hands the
    question to an object it holds, and that object has no answer; Python's way of saying the
    attribute is not there (hasattr is False), not a crash inside the library."""
    return isinstance(exc, AttributeError) and f"has no attribute '{member.name}'" in str(exc)


CAPABILITY_PREFIXES = ("supports_", "has_")


def capability_denied(obj, member_name):
    """The documented capability predicate of `obj` that says it lacks what `member_name`
    needs, or None. A class that declares `supports_X` or `has_X` documents that its members
    about X are defined only where the predicate holds (`heisenberg_obs` on an operator whose
    `supports_heisenberg` is False, `matrix` where `has_matrix` is False): asking there is
    asking the undefined. A predicate itself is always a question to ask (its answer, False
    too, is what it documents: `supports_gate_errors_by_qubit` beside a False
    `supports_gate_errors`)."""
    if member_name.startswith(CAPABILITY_PREFIXES):
        return None
    words = set(member_name.lower().strip("_").split("_"))
    for attribute in dir(type(obj)):
        for prefix in CAPABILITY_PREFIXES:
            if not attribute.startswith(prefix):
                continue
            wanted = set(attribute[len(prefix):].split("_"))
            if not wanted or not wanted <= words:
                continue
            try:
                value = getattr(obj, attribute)
            except Exception:  # noqa: BLE001 (a predicate that fails says nothing)
                continue
            if value is False:
                return attribute
    return None


class Recipe:
    """Code that builds specimens: a docstring's examples, or a constructor call."""

    def __init__(self, id, code, origin, documented, shown="", configured=False):
        self.id, self.code, self.origin, self.documented = id, code, origin, documented
        # what the object is, is fixed by the call: the docs' code, or a constructor given each
        # required argument (RXGate(0.37)) or taking none at all (HGate()); not a bare
        # default-built object (Target(), PassManager()) that holds nothing yet
        self.trusted = documented or configured
        self.shown = shown  # the output the documentation shows for it (doctest lines), if any
        self.words = frozenset(IDENTIFIER.findall(code))

    @property
    def bare(self):
        """A constructor called bare whose defaults leave something unset (None): what it builds
        is used only when it is not empty (holds_something), and then only as a receiver."""
        return not self.trusted


class Member:
    """A public method or property, reached through public class `owner`, defined by `defining`."""

    def __init__(self, subject, owner, defining, name, kind, doc):
        self.subject, self.owner, self.defining, self.name, self.kind, self.doc = (
            subject, owner, defining, name, kind, doc)

    def call_code(self, target="obj"):
        return f"{target}.{self.name}" + ("()" if self.kind == "method" else "")


RECIPE_FILE = "<recipe {}>"  # the filename a recipe's code is compiled under (calls_from_recipes reads it)


@contextlib.contextmanager
def calls_from_recipes(surface, found):
    """Add to `found` the dotted name of each call of the library a recipe's own lines make
    while the block runs: a Python function or method by its defining module and qualified
    name (`qiskit.circuit.quantumcircuit.QuantumCircuit.h`), a compiled one through the public
    class it is called on (`qiskit.quantum_info.SparsePauliOp.from_list`). sys.setprofile sees
    every call with its caller's frame; only calls from a frame of recipe code count."""
    prefix = surface.library + "."
    recipe_file = RECIPE_FILE.split("{", 1)[0]

    def profile(frame, event, arg):
        if event == "call":
            caller = frame.f_back
            if caller is None or not caller.f_code.co_filename.startswith(recipe_file):
                return
            module = frame.f_globals.get("__name__") or ""
            qualname = getattr(frame.f_code, "co_qualname", "<>")  # Python 3.11 on
            if module.startswith(prefix) and "<" not in qualname:
                found.add(f"{module}.{qualname}")
        elif event == "c_call" and frame.f_code.co_filename.startswith(recipe_file):
            owner = getattr(arg, "__self__", None)
            cls = owner if inspect.isclass(owner) else type(owner)
            dotted = surface.classes.get(cls) if owner is not None else surface.public.get(arg)
            if dotted is not None and owner is not None:
                found.add(f"{dotted}.{arg.__name__}")

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        yield found
    finally:
        sys.setprofile(previous)


def _quiet():
    """Output and warnings of recipes and calls are not the law's business."""
    stack = contextlib.ExitStack()
    stack.enter_context(contextlib.redirect_stdout(io.StringIO()))
    stack.enter_context(contextlib.redirect_stderr(io.StringIO()))
    stack.enter_context(warnings.catch_warnings())
    warnings.simplefilter("ignore")
    return stack


def _code_blocks(doc):
    """The Python of a docstring's ``.. code-block:: python``, ``.. plot::`` and
    ``.. jupyter-execute::`` blocks (option lines dropped), dedented."""
    blocks, lines, i = [], doc.splitlines(), 0
    start = re.compile(r"^(\s*)\.\. (?:code-block|code|sourcecode|testcode|plot|jupyter-execute)::\s*(\w*)\s*$")
    while i < len(lines):
        match = start.match(lines[i])
        i += 1
        if not match or match.group(2) not in ("", "python", "python3", "py", "ipython", "ipython3"):
            continue
        indent = len(match.group(1))
        body = []
        while i < len(lines):
            line = lines[i]
            if line.strip() and len(line) - len(line.lstrip()) <= indent:
                break
            if not (line.strip().startswith(":") and not body):  # options come before the code
                body.append(line)
            i += 1
        text = inspect.cleandoc("\n".join(body))
        if text.strip() and ">>>" not in text and not (match.group(2) == "" and _only_expressions(text)):
            blocks.append(text + "\n")
    return blocks


def _only_expressions(text):
    """Whether a block is bare expressions (or not Python at all): a language-less block that
    binds nothing and calls nothing on its own line is the printed result of the example before
    it (`Controlled(Adjoint(...))`), not a program."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return True
    return all(isinstance(node, ast.Expr) and (not isinstance(node.value, ast.Call) or _looks_like_a_repr(node.value))
               for node in tree.body)


def _looks_like_a_repr(call):
    """A call whose arguments are all literals or reprs themselves (`X(0)`, `Adjoint(S(0))`,
    `tensor([1., 0.])`): how an object prints, not a statement anyone writes alone."""
    def plain(node):
        if isinstance(node, ast.Call):
            return _looks_like_a_repr(node)
        return isinstance(node, (ast.Constant, ast.List, ast.Tuple, ast.UnaryOp, ast.Name, ast.Dict, ast.BinOp))
    return isinstance(call.func, ast.Name) and call.func.id[:1].isupper() and \
        all(plain(a) for a in call.args) and all(plain(k.value) for k in call.keywords)


_PACKAGE_NAMED = re.compile(r"pip install ([A-Za-z][\w.-]*)|\b([A-Z][A-Za-z]*-[A-Za-z][\w-]*) plugin\b")


def _names_a_missing_package(doc):
    """Whether a docstring says it needs a package (`pip install X`, "the PennyLane-Rigetti
    plugin") that is not installed here: its examples would fail on the environment, not on
    the library (a plugin's converter missing from the registry is a KeyError)."""
    from importlib import metadata

    for match in _PACKAGE_NAMED.finditer(doc):
        name = (match.group(1) or match.group(2)).rstrip(".").lower()
        try:
            metadata.distribution(name)
        except metadata.PackageNotFoundError:
            return True
        except ValueError:  # not a distribution name at all
            continue
    return False


def _with_other_blocks_definitions(programs):
    """A docstring's programs, each preceded by the others that define (`class`, `def`, a
    top-level assignment) a name it uses and does not bind itself: the docs read as one session
    (a block defines `class QFT(...)` or `dev = qml.device(...)`, a later one uses it), and a
    program run alone would take the name from the library instead, or fail on it. Programs in
    the docstring's order (its doctest lines first)."""
    found = []
    for k, program in enumerate(programs):
        used = set(_BARE_NAME.findall(program)) - set(_ASSIGNED.findall(program)) - set(_BOUND.findall(program))
        others = [(j, {a or b for a, b in _DEFINED.findall(p)} & used) for j, p in enumerate(programs) if j != k]
        # a name two other programs define is ambiguous (Prod's docs define `circuit(theta)` in
        # one block and `circuit(weights)` in another, and its doctest lines, gathered into one
        # program, lost which came first): it is left undefined rather than guessed
        definers = {}
        for j, names in others:
            for name in names:
                definers.setdefault(name, []).append(j)
        chosen = sorted({js[0] for js in definers.values() if len(js) == 1})
        found.append("".join(programs[j] if programs[j].endswith("\n") else programs[j] + "\n" for j in chosen)
                     + program)
    return found


def _values_named(program):
    """The program with each top-level expression statement's value bound to a name of its own
    (`value1 = QubitSparsePauli.identity(100)`): a doctest shows what such a line computes, and
    the object it shows is one the docs build, as much a specimen as an assigned one. Calls that
    print, bare names and constants are left as they are; a program that does not parse, too."""
    try:
        tree = ast.parse(program)
    except SyntaxError:
        return program
    lines = program.splitlines(keepends=True)
    taken = set(IDENTIFIER.findall(program))
    counter = 0
    for node in tree.body:
        value = node.value if isinstance(node, ast.Expr) else None
        if value is None or node.col_offset != 0 or isinstance(value, (ast.Constant, ast.Name)) or \
                isinstance(value, ast.Call) and _called_name(value.func) in _SHOWING_CALLS:
            continue
        if any(other is not node and (node.lineno <= other.lineno <= node.end_lineno or
                                      other.lineno <= node.lineno <= other.end_lineno) for other in tree.body):
            continue  # statements sharing a line (`a = 1; a`): leave the line alone
        counter += 1
        while f"value{counter}" in taken:
            counter += 1
        lines[node.lineno - 1] = f"value{counter} = " + lines[node.lineno - 1]
    return "".join(lines)


def _elides(program):
    """Whether a program leaves parts out with `...`, an argument or a value the reader is to
    supply (`create_executor(...)`, `x = ...`): a sketch, not an example a user runs. Not a
    stub's body (`def f(): ...`) nor numpy's `x[..., 0]`."""
    try:
        tree = ast.parse(program)
    except SyntaxError:
        return False
    for node in ast.walk(tree):
        values = [*node.args, *(k.value for k in node.keywords)] if isinstance(node, ast.Call) else \
            [node.value] if isinstance(node, (ast.Assign, ast.AnnAssign, ast.Return)) else []
        if any(isinstance(v, ast.Constant) and v.value is Ellipsis for v in values):
            return True
    return False


def _without_doc_machinery(program):
    """The program without its top-level statements that only call a private function
    (`_generate_circuit_library_visualization(circuit)`: the documentation's build machinery),
    or only draw (`circuit.draw("mpl")`, `plt.show()`: a statement whose value nothing keeps,
    a picture for the rendered page), and without the imports of plotting modules that no
    remaining line uses. Such lines need what renders the docs (matplotlib) and, kept, would
    take the whole example with them (a recipe must not plot): what the example builds is the
    same without them."""
    try:
        tree = ast.parse(program)
    except SyntaxError:
        return program
    lines = program.splitlines(keepends=True)
    dropped = set()
    for node in tree.body:
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and node.col_offset == 0:
            name = _called_name(node.value.func)
            if name.startswith("_") and not name.startswith("__") or \
                    DRAWING.search(ast.get_source_segment(program, node) or ""):
                dropped.update(range(node.lineno - 1, node.end_lineno))
    kept = [node for node in tree.body if node.lineno - 1 not in dropped]
    used = {n.id for node in kept for n in ast.walk(node) if isinstance(n, ast.Name)}
    for node in kept:
        if isinstance(node, (ast.Import, ast.ImportFrom)) and node.col_offset == 0 and \
                DRAWING.search(ast.get_source_segment(program, node) or "") and \
                not any((alias.asname or alias.name.split(".")[0]) in used for alias in node.names):
            dropped.update(range(node.lineno - 1, node.end_lineno))
    if any(other.lineno - 1 in dropped and not all(k in dropped for k in range(other.lineno - 1, other.end_lineno))
           for other in tree.body):
        return program  # statements sharing a line with a dropped one (`qc.draw("mpl"); x = 1`): as written
    return "".join(line for k, line in enumerate(lines) if k not in dropped)


# What only draws: a matplotlib figure, a circuit drawn by it, a plotting function's picture,
# a drawer's (`timeline_drawer(...)`, `dag_drawer`: their optional renderers may be absent),
# an object's `.draw()` left unkept (text, or an image that needs pillow/graphviz)
DRAWING = re.compile(r"\bmpl\b|_mpl\b|matplotlib|\bplt\.|savefig|\bplot_\w+\(|\b\w+_drawer\b|\.draw\(")


_SHOWING_CALLS = frozenset({"print", "pprint", "display", "help", "show", "plot", "savefig"})


def _called_name(func):
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _doctest_program(doc):
    """A docstring's doctest examples as one program (each example's setup is the ones before
    it), without the examples documented to raise or skipped; None if there are none."""
    try:
        parsed = doctest.DocTestParser().get_examples(inspect.cleandoc(doc))
    except ValueError:
        return None
    kept = [e.source for e in parsed if e.exc_msg is None and not e.options.get(doctest.SKIP)]
    return "".join(kept) if kept else None


def _doctest_shown(doc):
    """The outputs a docstring's doctest examples show, as one text ('' if none)."""
    try:
        parsed = doctest.DocTestParser().get_examples(inspect.cleandoc(doc))
    except ValueError:
        return ""
    return "".join(e.want for e in parsed if e.exc_msg is None and not e.options.get(doctest.SKIP))


def _own_doc(obj):
    if isinstance(obj, (staticmethod, classmethod)):
        obj = obj.__func__
    if isinstance(obj, property):
        obj = obj.fget
    if isinstance(obj, functools.cached_property):
        obj = obj.func
    doc = obj.__dict__.get("__doc__") if inspect.isclass(obj) else getattr(obj, "__doc__", None)
    return doc if isinstance(doc, str) else None


class Surface:
    """The public surface of one library on the release that runs it, and its specimens."""

    def __init__(self, library, prelude, skip_modules=(), parameter_value=None, named_values=None,
                 filled_when_none=(), recorded_by=None, implied_imports=()):
        self.library = library
        self.prelude = prelude  # run before every recipe (the imports the docs take for granted)
        self.skip_modules = skip_modules
        # (class, parameter) -> source of a value for a required constructor parameter, or None
        self.parameter_value = parameter_value or (lambda cls, parameter: None)
        # parameter name -> sources of values of a kind the library's own protocol defines for
        # that name everywhere it is used (PennyLane's `wire_map`: old wire -> new wire)
        self.named_values = dict(named_values or {})
        # parameter names a constructor defaults to None but cannot build without (PennyLane's
        # `wires`: `Operator.__init__(*params, wires=None)` raises "Must specify the wires"):
        # a constructor recipe of a class that declares how many it takes (`num_wires`) fills
        # them as if they were required; a measurement's `wires=None` means something else
        self.filled_when_none = frozenset(filled_when_none)
        # (variable, value, program) -> expressions that record what a documented program's
        # value builds when called as the program calls it (PennyLane: the tape of a QNode,
        # whose operators the docs build only inside the QNode's function)
        self.recorded_by = recorded_by or (lambda variable, value, program: [])
        # (pattern, import line): a program whose code matches takes the import for granted
        # (PennyLane's docs write `np.array(x, requires_grad=True)`: `np` is pennylane.numpy there)
        self.implied_imports = tuple((re.compile(pattern), line) for pattern, line in implied_imports)

    def prepare(self):
        """Compute the surface now. The sandbox's warm worker, which forks a child per check,
        calls this once, so no child walks it again (seconds each for PennyLane). Failures are
        left for the checks to meet and report."""
        try:
            self.members, self.recipes, self.produced  # noqa: B018 (cached properties: computed here)
        except Exception:  # noqa: BLE001, S110 (a check meets the same error and reports it)
            pass

    # -- the surface ------------------------------------------------------------------------------
    @functools.cached_property
    def modules(self):
        """Public modules of the library (none under a private name, none skipped): those that
        importing it loads, and the public subpackages and modules a user imports by name
        (qiskit.primitives, qiskit.qasm3: `import qiskit` loads neither). The warm worker
        computes this once before it forks a child per check (prepare)."""
        importlib.import_module(self.library)
        self._import_submodules(self.library)
        return sorted(name for name in list(sys.modules)
                      if (name == self.library or name.startswith(self.library + "."))
                      and self._is_public_module(name))

    def _is_public_module(self, name):
        parts = name.split(".")
        return not any(part.startswith("_") or part in ("test", "tests") for part in parts) and \
            not any(s in name for s in self.skip_modules)

    def _import_submodules(self, package_name):
        """Import every public module under a package, depth first; one that does not import
        here (an optional dependency absent) is left out."""
        package = sys.modules.get(package_name)
        for info in pkgutil.iter_modules(getattr(package, "__path__", None) or []):
            name = f"{package_name}.{info.name}"
            if not self._is_public_module(name):
                continue
            if name not in sys.modules:
                try:
                    with _quiet():
                        importlib.import_module(name)
                except Exception:  # noqa: BLE001, S112 (an optional dependency missing, or a module refusing to load)
                    continue
            if info.ispkg:
                self._import_submodules(name)

    def _defined_here(self, obj):
        owner = getattr(obj, "__module__", None)
        return isinstance(owner, str) and (owner == self.library or owner.startswith(self.library + ".")) and not \
            any(s in owner for s in self.skip_modules)

    @functools.cached_property
    def public(self):
        """Public classes and functions defined in the library -> their shortest public dotted name."""
        names = {}
        for module_name in self.modules:
            module = sys.modules.get(module_name)
            for name in public_names(module):
                try:
                    obj = getattr(module, name)
                except Exception:  # noqa: BLE001, S112 (a lazy attribute that does not import)
                    continue
                if not (inspect.isclass(obj) or inspect.isfunction(obj)) or not self._defined_here(obj):
                    continue
                if getattr(obj, "__name__", name) != name:
                    continue  # an alias under another name: the object's own name is the API
                dotted = f"{module_name}.{name}"
                known = names.get(obj)
                if known is None or _name_rank(obj, dotted) < _name_rank(obj, known):
                    names[obj] = dotted
        return names

    @functools.cached_property
    def _documented_objects(self):
        """What a user reaches from the package, one of its subpackages (qml.math,
        qiskit.quantum_info) or a deeper package whose docstring is a page of the API reference
        (qiskit.circuit.library, qml.ops.op_math): the API the guides teach. Not every package
        Stage I's public-API map counts: the helpers of an algorithm's own package
        (template_matching's MatchingScenariosList, TemplateMatching) run only in states the
        library prepares, and the first complete audit's one rejected surface finding was one."""
        found = set()
        for name in self.modules:
            module = sys.modules.get(name)
            if name.count(".") > 1 and not _is_reference_page(module):
                continue
            for attribute in public_names(module):
                try:
                    value = getattr(module, attribute)
                    hash(value)
                except Exception:  # noqa: BLE001, S112 (a lazy attribute that does not import)
                    continue
                found.add(value)
        return found

    def is_documented(self, obj):
        """Whether `obj` is reached through the documented namespaces (_documented_objects)."""
        try:
            return obj in self._documented_objects
        except TypeError:  # unhashable
            return False

    @functools.cached_property
    def classes(self):
        return {obj: dotted for obj, dotted in self.public.items() if inspect.isclass(obj)}

    @functools.cached_property
    def members(self):
        """subject -> Member, for every public method and property of every public class: a
        member defined by a public class once (its specimens are instances of any subclass),
        one defined by a private base through each public class that inherits it."""
        found = {}
        for cls, dotted in sorted(self.classes.items(), key=lambda item: item[1]):
            for name in dir(cls):
                if name.startswith("_"):
                    continue
                defining = next((k for k in cls.__mro__ if name in vars(k)), None)
                if defining is None or not self._defined_here(defining):
                    continue
                kind = _member_kind(defining, name)
                if kind is None:
                    continue
                owner = defining if defining in self.classes else cls
                subject = f"{self.classes[owner]}.{name}"
                if subject not in found:
                    found[subject] = Member(subject, owner, defining, name, kind, _own_doc(vars(defining)[name]) or "")
        return found

    # -- recipes ----------------------------------------------------------------------------------
    @functools.cached_property
    def recipes(self):
        """id -> Recipe: the documentation's programs (of the public classes, functions and
        members, and of the public modules, whose docstrings are the API reference's pages:
        `qiskit.primitives` shows how a job is run and read), then one constructor call per
        class that can be built from its signature."""
        found = {}
        documented = list(self.public.items()) + [(sys.modules[name], name) for name in self.modules
                                                  if name in sys.modules]
        for cls, dotted in self.classes.items():
            documented += [(member, f"{dotted}.{name}") for name, member in sorted(vars(cls).items())
                           if not name.startswith("_")]
        seen = set()
        for obj, dotted in sorted(documented, key=lambda item: item[1]):
            doc = _own_doc(obj)
            if not doc or doc in seen:
                continue
            seen.add(doc)
            if _names_a_missing_package(doc):
                continue  # its examples need a package this environment does not have
            programs = _with_other_blocks_definitions([p for p in [_doctest_program(doc), *_code_blocks(doc)] if p])
            for k, program in enumerate(programs):
                program = _without_doc_machinery(program)
                if UNSAFE_RECIPE.search(program) or _elides(program):
                    continue
                program = self._with_imports(_values_named(program), dotted)
                if program is None:
                    continue
                # a module's page and a function of the same name (pennylane.fourier.reconstruct) are two docs
                recipe_id = f"{dotted}#{'moduledoc' if inspect.ismodule(obj) else 'doc'}{k}"
                found[recipe_id] = Recipe(recipe_id, program, dotted, documented=True,
                                          shown=_doctest_shown(doc) if k == 0 else "")
        for cls, dotted in sorted(self.classes.items(), key=lambda item: item[1]):
            built = self._constructor_code(cls, dotted)
            if built is None or not built[1]:
                built = self._factory_code(cls, dotted) or built  # CouplingMap.from_line(2), not CouplingMap()
            if built is not None:
                recipe_id = f"{dotted}#new"
                found[recipe_id] = Recipe(recipe_id, built[0], dotted, documented=False, configured=built[1])
        # then the classes whose constructor takes objects of the library's own classes
        # (SabreLayout(coupling_map), SetLayout(layout)): each such argument built by a recipe of
        # the first round, its code before the call (one level: no argument built this way)
        for cls, dotted in sorted(self.classes.items(), key=lambda item: item[1]):
            if f"{dotted}#new" not in found:
                code = self._composed_constructor_code(cls, dotted, found)
                if code is not None:
                    found[f"{dotted}#new"] = Recipe(f"{dotted}#new", code, dotted, documented=False, configured=True)
        # and a class whose constructor, called bare, leaves it unconfigured (VF2Layout(): no
        # coupling map, so every call of its methods is refused) also gets one configured
        # through an optional parameter a recipe of the first round builds an object for. It
        # stays a bare object that holds more: one parameter given does not make it hold
        # anything (CompilePipeline(cotransform_cache=...) holds no transform), so it is used
        # as a bare object is, as a receiver, only when it is not empty
        for cls, dotted in sorted(self.classes.items(), key=lambda item: item[1]):
            bare = found.get(f"{dotted}#new")
            if bare is not None and bare.bare:
                code = self._composed_constructor_code(cls, dotted, found, optional=True)
                if code is not None:
                    found[f"{dotted}#filled"] = Recipe(f"{dotted}#filled", code, dotted, documented=False)
        return found

    def _factory_code(self, cls, dotted):
        """(code, True) calling the first public `from_*` class method of `cls` whose required
        parameters are all filled from their names or annotations (an alternative constructor
        given each argument: `CouplingMap.from_line(num_qubits=2)`), or None."""
        if inspect.isabstract(cls):
            return None
        for name, raw in sorted(vars(cls).items()):
            if not name.startswith("from_") or not isinstance(raw, classmethod):
                continue
            try:
                parameters = list(inspect.signature(raw.__func__).parameters.values())[1:]
            except (TypeError, ValueError):
                continue
            arguments = []
            for parameter in parameters:
                if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD) or \
                        parameter.default is not parameter.empty:
                    continue
                value = self.parameter_value(cls, parameter)
                if value is None:
                    break
                arguments.append(value if parameter.kind == parameter.POSITIONAL_ONLY else f"{parameter.name}={value}")
            else:
                if arguments:
                    module, short = dotted.rsplit(".", 1)
                    return f"from {module} import {short}\nobj = {short}.{name}({', '.join(arguments)})\n", True
        return None

    def _composed_constructor_code(self, cls, dotted, recipes, optional=False):
        """A constructor call whose arguments are library objects other recipes build and plain
        values of the documented types, verified to build an instance: when the first choice of
        every argument does not (a circuit with measurements given to a channel, a Pauli with a
        complex phase to an evolution gate), each argument in turn takes its next choice, up to
        COMPOSE_TRIES calls. The first choice's code when none builds (the checks then say so).
        With `optional`, also the first optional parameter defaulted to None whose documented
        type a recipe builds an object of, or else that is a count (one only: two such, a
        coupling map and a target, are alternatives the docs do not promise to agree), and None
        unless one builds."""
        from surface_arguments import (ArgumentOptions, _alternatives, _array_alias, documented_types, is_count,
                                       type_text)

        if inspect.isabstract(cls) or any(c is not cls and _subclass(c, cls) for c in self.classes):
            return None
        try:
            signature = constructor_signature(cls)
        except (TypeError, ValueError):
            return None
        init = cls.__init__ if inspect.isfunction(cls.__init__) else cls
        docs = documented_types("\n\n".join(d for d in (_own_doc(cls), _own_doc(cls.__init__)) if d))
        options = ArgumentOptions(self)
        choices = []  # per argument: (keyword or None, [(setup code, value source)])
        composed = False
        filled_optional = False
        for parameter in signature.parameters.values():
            keyword = None if parameter.kind == parameter.POSITIONAL_ONLY else parameter.name
            if not self._fills(cls, parameter):
                if optional and not filled_optional and parameter.default is None and \
                        parameter.kind not in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
                    text = type_text(parameter, docs, init)
                    built = [] if _array_alias(_alternatives(text)) else \
                        list(itertools.islice(self._arguments_from_recipes(text, init, recipes), COMPOSE_CHOICES))
                    if not built and is_count(parameter.name):
                        # or a count, the size a blueprint left unset (IntegerComparator(): no
                        # qubits until num_state_qubits is given)
                        built = [("", v) for v in options.literals(parameter, docs, init)][:COMPOSE_CHOICES]
                    if built:
                        choices.append((keyword, built))
                        composed = filled_optional = True
                continue
            value = self.parameter_value(cls, parameter)
            if value is not None:
                choices.append((keyword, [("", value)]))
                continue
            text = type_text(parameter, docs, init)
            if _array_alias(_alternatives(text)):
                # an array-like alias (TensorLike): its library classes are markers of
                # array types, not values (an InterfaceTensor() as SProd's scalar), and its
                # scalars a guess at a shape (ArgumentOptions.options says the same)
                return None
            built = list(itertools.islice(self._arguments_from_recipes(text, init, recipes), COMPOSE_CHOICES))
            # a plain value of the documented type (a list of floats for UCRXGate's angle_list)
            # when no recipe builds one: the constructor's own validation says whether it is one
            literals = [("", v) for v in options.literals(parameter, docs, init)][:COMPOSE_CHOICES] if not built else []
            if not built and not literals:
                return None
            composed = True
            choices.append((keyword, built or literals))
        if not composed:
            return None
        module, name = dotted.rsplit(".", 1)

        def code(picks):
            lines, arguments = [], []
            for (keyword, options_), pick in zip(choices, picks):
                setup, value = options_[pick]
                if setup:
                    variable = f"_argument{len(lines)}"
                    lines.append(f"{setup.rstrip()}\n{variable} = {value}\n")
                    value = variable
                arguments.append(value if keyword is None else f"{keyword}={value}")
            return "".join(lines) + f"from {module} import {name}\nobj = {name}({', '.join(arguments)})\n"

        first = [0] * len(choices)
        tries = [first] + [first[:i] + [k] + first[i + 1:]
                           for i, (_, options_) in enumerate(choices) for k in range(1, len(options_))]
        for picks in tries[:COMPOSE_TRIES]:
            candidate = code(picks)
            recipe = Recipe(f"{dotted}#new", candidate, dotted, documented=False, configured=True)
            try:
                if self.probe(recipe, lambda namespace: isinstance(namespace.get("obj"), cls)):
                    return candidate
            except (Exception, TimeLimit):  # noqa: BLE001, S112 (this choice builds nothing: the next)
                continue
        return None if optional else code(first)  # a bare constructor already builds one

    def _arguments_from_recipes(self, text, function, recipes):
        """(code, variable) of first-round recipes that build one object of a library class the
        type text names as a plain argument (an alternative of a union), each a different
        recipe, taking the named classes in turn (a circuit, then an instruction, then an
        operator, then a second circuit): for each, its constructor recipe, then documented
        programs that name it, then its public subclasses' constructors."""
        from surface_arguments import ArgumentOptions, _alternatives, _item_place

        options = ArgumentOptions(self)
        sources = []
        for alternative in _alternatives(text or ""):
            match = re.fullmatch(r"\s*~?\.?([A-Za-z_][\w.]*)\s*", alternative)
            if match is None or match.group(1).lower() == "none" or _item_place(alternative, match.start(1)) != "plain":
                continue
            sources += [self._instances_built(cls, recipes) for cls in options._classes_named(match.group(1), function)]
        while sources:
            for source in list(sources):
                built = next(source, None)
                if built is None:
                    sources.remove(source)
                else:
                    yield built

    def _instances_built(self, cls, recipes):
        dotted = self.classes.get(cls)
        # an abstract or base class (Operation, Modifier) is given one of its public
        # subclasses' constructors, as recipes_for spreads a class over them, when
        # neither its own constructor nor a documented program builds one
        kinds = sorted((c for c in self.classes if c is not cls and _subclass(c, cls)),
                       key=lambda c: self.classes[c])[:SUBCLASS_ARGUMENTS]
        candidates = [recipes.get(f"{dotted}#new")] + sorted(
            (r for r in recipes.values() if r.documented and cls.__name__ in r.words),
            key=lambda r: (not r.origin.startswith(dotted), len(r.code)))[:6] + \
            [recipes.get(f"{self.classes[c]}#new") for c in kinds]

        def first_instance(namespace):
            return next((variable for variable, value in sorted(namespace.items())
                         if not variable.startswith("_") and isinstance(value, cls)
                         and not inspect.isclass(value)), None)
        for recipe in candidates:
            if recipe is None or not recipe.trusted:
                continue
            try:
                variable = self.probe(recipe, first_instance)
            except (Exception, TimeLimit):  # noqa: BLE001, S112 (a recipe that does not run here builds nothing)
                continue
            if variable is not None:
                yield recipe.code, variable

    def _with_imports(self, program, origin):
        """A documented program with the imports of the library's public names it takes for
        granted (the docs of compiled classes write `SparseObservable.from_list(...)`, Exp's
        write `Exp(qml.X(0), 1j)`, and leave the import to the reader); None when it names
        nothing of the library's. A name several objects share is the one nearest `origin`."""
        mentions_library = re.search(rf"\b{self.library}\b|\bqml\b|\bqp\b", program)
        assigned = set(_ASSIGNED.findall(program)) | set(_BOUND.findall(program))
        imports = []
        for word in sorted(set(_BARE_NAME.findall(program)) - assigned - _BUILTIN_NAMES):
            candidates = self._public_by_name.get(word, [])
            if not candidates:
                continue
            if self._exported_at_top(word):
                dotted = f"{self.library}.{word}"  # what `qml.X` or `from LIB import X` gives the reader
            else:
                dotted = max(candidates, key=lambda d: (_shared_prefix(d, origin), -len(d)))
            module, name = dotted.rsplit(".", 1)
            imports.append(f"from {module} import {name}\n")
        imports += [line for pattern, line in self.implied_imports if pattern.search(program)]
        return "".join(imports) + program if imports or mentions_library else None

    def _exported_at_top(self, word):
        """Whether the package itself exports a public class or function of this name."""
        value = getattr(sys.modules.get(self.library), word, None)
        try:
            return value is not None and value in self.public
        except TypeError:  # unhashable
            return False

    @functools.cached_property
    def _public_by_name(self):
        found = {}
        for obj, dotted in self.public.items():
            found.setdefault(dotted.rsplit(".", 1)[1], []).append(dotted)
        return found

    def _fills(self, cls, parameter):
        """Whether a constructor recipe gives `parameter` a value: a required one, or one
        defaulted to None the class cannot build without (filled_when_none); not *args/**kwargs."""
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            return False
        return parameter.default is parameter.empty or parameter.default is None and \
            parameter.name in self.filled_when_none and hasattr(cls, f"num_{parameter.name}")

    def _constructor_code(self, cls, dotted):
        if inspect.isabstract(cls) or any(c is not cls and _subclass(c, cls) for c in self.classes):
            # a base class is built through its public subclasses: a bare base (QuantumState(),
            # DAGNode()) is no object a user is documented to hold
            return None
        try:
            signature = constructor_signature(cls)
        except (TypeError, ValueError):
            return None
        arguments = []
        for parameter in signature.parameters.values():
            if not self._fills(cls, parameter):
                continue
            value = self.parameter_value(cls, parameter)
            if value is None:
                return None
            arguments.append(value if parameter.kind == parameter.POSITIONAL_ONLY else f"{parameter.name}={value}")
        module, name = dotted.rsplit(".", 1)
        configured = bool(arguments) or all(_configures(p.default) for p in signature.parameters.values()
                                             if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD))
        return f"from {module} import {name}\nobj = {name}({', '.join(arguments)})\n", configured

    def recipes_for(self, cls):
        """The recipes that may build instances of `cls`: constructor calls of the class and of
        its public subclasses (spread over them), then the documentation's programs that name
        the class or a subclass (those documenting the class itself first, then the shortest)."""
        kinds = sorted((c for c in self.classes if _subclass(c, cls)), key=lambda c: self.classes[c])
        # a configured constructor before the bare one it configures: searches start there
        constructors = [self.recipes.get(f"{self.classes[c]}#{how}") for c in kinds for how in ("filled", "new")]
        constructors = [r for r in constructors if r is not None]
        if len(constructors) > CONSTRUCTOR_RECIPES_PER_CLASS:
            step = len(constructors) / CONSTRUCTOR_RECIPES_PER_CLASS
            constructors = [constructors[int(i * step)] for i in range(CONSTRUCTOR_RECIPES_PER_CLASS)]
        names = {c.__name__ for c in kinds}
        own = self.classes.get(cls, "")
        # a program of the class's own documentation builds it even when it calls a factory
        # (qml.exp builds an Exp) and never writes the class's name
        documented = [r for r in self._documented_recipes
                      if r.words & names or own and (r.origin == own or r.origin.startswith(own + "."))]
        documented.sort(key=lambda r: (not r.origin.startswith(own + ".") and r.origin != own,
                                       "#moduledoc" in r.id, len(r.code), r.id))
        # documented programs first: a search shrinks towards the first specimens, and an input
        # the docs build is valid by definition where a bare constructor's may not be. A
        # module's page (a tour of many objects) after the programs of the objects themselves
        return documented[:DOC_RECIPES_PER_CLASS] + constructors

    @functools.cached_property
    def _documented_recipes(self):
        return [r for r in self.recipes.values() if r.documented]

    def run_recipe(self, recipe, seconds=RECIPE_S):
        """The namespace the recipe leaves (the prelude run first); raises what the recipe raises."""
        namespace = {"__name__": "__surface_recipe__"}
        with _quiet(), time_limit(seconds):
            exec(compile(self.prelude, "<prelude>", "exec"), namespace)  # noqa: S102
            filename = RECIPE_FILE.format(recipe.id)
            # the docs' code readable by inspect, as a file's is: what reads a user function's
            # source (PennyLane's autograph) fails on code that exists only as a string
            linecache.cache[filename] = (len(recipe.code), None, recipe.code.splitlines(True), filename)
            try:
                exec(compile(recipe.code, filename, "exec"), namespace)  # noqa: S102 (the docs' code)
            except BaseException as exc:
                if type(exc).__name__ != "PanicException":
                    raise
                # a Rust panic (a BaseException) while building: the recipe builds nothing, as
                # for any error; the laws that call the library judge panics, not the builder
                raise RuntimeError(f"recipe {recipe.id} panicked: {exc}") from exc
        return namespace

    def probe(self, recipe, select):
        """select(namespace the recipe leaves): what a caller needs to know of what a recipe
        builds (variable names, a property's keys), as plain data. While `isolated_builds` is on
        (the warm worker preparing the surface before it forks a child per check), the recipe runs
        in a forked child and only the answer comes back: a recipe that starts threads (Qiskit's
        Rust code starts its thread pool on first use) would leave the parent with threads that
        deadlock every child it forks. Raises RuntimeError when the recipe fails."""
        if not self._isolated:
            return select(self.run_recipe(recipe))
        return _in_forked_child(lambda: select(self.run_recipe(recipe)), RECIPE_S + 5)

    @contextlib.contextmanager
    def isolated_builds(self):
        """Run every recipe `probe` runs in a child of its own, for the duration."""
        self._isolated = True
        try:
            yield
        finally:
            self._isolated = False

    _isolated = False

    def specimens(self, cls, exact=False, documented=False, trusted=False, usable=False):
        """[(recipe id, variable)] of the objects of `cls` (of exactly that type with `exact`)
        the class's recipes (documented programs only, with `documented`; those and configured
        constructors, with `trusted`; those and what a bare constructor builds that is not
        empty, with `usable`) build on this release, within BUILD_BUDGET_S."""
        found = []
        with time_limit(BUILD_BUDGET_S + RECIPE_S):
            deadline = _now() + BUILD_BUDGET_S
            for recipe in self.recipes_for(cls):
                if documented and not recipe.documented or trusted and not recipe.trusted:
                    continue
                keep = holds_something if usable and recipe.bare else (lambda value: True)
                if _now() > deadline:
                    break

                def instances(namespace, keep=keep):
                    return [variable for variable, value in sorted(namespace.items())
                            if not (variable.startswith("_") or inspect.isclass(value) or inspect.ismodule(value))
                            and self._of_kind(value, cls, exact) and keep(value)]
                try:
                    found += [(recipe.id, variable) for variable in self.probe(recipe, instances)]
                except (Exception, TimeLimit):  # noqa: BLE001 (a recipe that does not run here builds nothing)
                    continue
        if found:
            return found
        self.produced  # noqa: B018 (the scan has its own limits; in the warm worker it is done already)
        with time_limit(BUILD_BUDGET_S + RECIPE_S):
            return self._produced_specimens(cls, exact, _now() + BUILD_BUDGET_S)

    def _of_kind(self, value, cls, exact):
        """Whether `value` is an object of `cls`; with `exact`, of no public subclass of it: its
        nearest public class is `cls` (Qiskit hands out `CXGate()` as a private singleton
        subclass of CXGate, which is still a CXGate to its user)."""
        if not exact:
            return isinstance(value, cls)
        return next((k for k in type(value).__mro__ if k in self.classes), None) is cls

    # -- what documented programs build beyond what they name -------------------------------------
    def producers(self, cls, exact=False):
        """[(recipe, path)]: documented programs whose namespace holds an object of `cls`, as a
        variable or one query away (`expr.bit_not(cr)` builds a `Unary` its docs never name;
        `dag.op_nodes()[0]` is a `DAGOpNode`), the shortest programs first; from the scan of
        every documented program (`produced`)."""
        by_name = {dotted: kind for kind, dotted in self.classes.items()}
        found = []
        for recipe_id, parts in self.produced.items():
            path = next((path for dotted, path in parts.items() if dotted in by_name and
                         (by_name[dotted] is cls if exact else _subclass(by_name[dotted], cls))), None)
            if path is not None:
                found.append((self.recipes[recipe_id], path))
        found.sort(key=lambda item: (len(item[0].code), item[0].id))
        return found[:PRODUCER_RECIPES_PER_CLASS]

    def can_build(self, cls):
        """Whether a recipe names `cls` (its constructor, a program that mentions it) or a
        documented program builds one without naming it."""
        return bool(self.recipes_for(cls)) or bool(self.producers(cls))

    def _produced_specimens(self, cls, exact, deadline):
        found = []
        for recipe, path in self.producers(cls, exact):
            if _now() > deadline:
                break

            def at_path(namespace, path=path):
                try:
                    value = take(namespace, path)
                except Exception:  # noqa: BLE001 (the part is not there on this run: nothing built)
                    return []
                return [path] if self._of_kind(value, cls, exact) else []
            try:
                found += [(recipe.id, path) for path in self.probe(recipe, at_path)]
            except (Exception, TimeLimit):  # noqa: BLE001 (a recipe that does not run here builds nothing)
                continue
        return found

    @functools.cached_property
    def produced(self):
        """recipe id -> {public class's dotted name: path}: what each documented program leaves
        in its namespace, read once (the warm worker computes it before it forks a child per
        check; a process without one computes it when a class has no other recipe). The
        programs run in forked children, SCAN_CHUNK at a time, when builds are isolated."""
        documented = [r for r in self._documented_recipes]
        found = {}
        for start in range(0, len(documented), SCAN_CHUNK):
            chunk = documented[start:start + SCAN_CHUNK]
            compute = functools.partial(self._scan, chunk)
            try:
                found.update(_in_forked_child(compute, SCAN_CHUNK * (SCAN_RECIPE_S + PARTS_S) + 5) if self._isolated
                             else compute())
            except RuntimeError:  # the chunk's child died or outran its time: those build nothing known
                continue
        return found

    def _scan(self, recipes):
        found = {}
        for recipe in recipes:
            try:
                namespace = self.run_recipe(recipe, SCAN_RECIPE_S)
            except (Exception, TimeLimit):  # noqa: BLE001 (a program that does not run builds nothing)
                continue
            parts = self._parts(namespace, recipe.code)
            if parts:
                found[recipe.id] = parts
        return found

    def _parts(self, namespace, program):
        """{public class's dotted name: path} of the objects a namespace holds: its variables,
        the items of a list or tuple, what the library's recorder makes of a value as the
        program calls it (`recorded_by`), what a property or a query method (no arguments, a
        question by its docs: `_is_query`) of a library object answers, and that answer's
        items. The first path found for each class, within PARTS_S."""
        found = {}
        deadline = _now() + PARTS_S

        def note(value, path):
            kind = next((k for k in type(value).__mro__ if k in self.classes), None)
            if kind is not None and not inspect.isclass(value):
                found.setdefault(self.classes[kind], path)
            elif isinstance(value, (list, tuple)) and not path.endswith("]"):
                for k, item in enumerate(value[:PART_ITEMS]):
                    note(item, f"{path}[{k}]")

        def read(expression, compute):
            try:
                with _quiet(), time_limit(PART_S):
                    value = compute()
                    note(value, expression)
                    if not isinstance(value, (list, tuple, str, dict)) and hasattr(value, "__getitem__") \
                            and hasattr(value, "__len__") and len(value):
                        note(value[0], f"{expression}[0]")  # a sequence of the library's own (CircuitData)
                return value
            except (Exception, TimeLimit):  # noqa: BLE001 (a part that is not there)
                return None

        values = [(v, value) for v, value in sorted(namespace.items())
                  if not (v.startswith("_") or inspect.isclass(value) or inspect.ismodule(value))]
        for variable, value in values:
            note(value, variable)
        for variable, value in list(values):
            for expression in self.recorded_by(variable, value, program):
                recorded = read(expression, lambda e=expression: take(namespace, e))
                if recorded is not None:
                    values.append((expression, recorded))
        for variable, value in values:
            if not self._defined_here(type(value)):
                continue
            for member in self._queries_of(type(value)):
                if _now() > deadline:
                    return found
                read(f"{variable}.{member.call_code('')[1:]}", lambda v=value, m=member: _access(v, m))
        return found

    @functools.lru_cache(maxsize=None)  # noqa: B019 (one Surface per library, alive as long as the process)
    def _queries_of(self, kind):
        """The query members (properties, questions by their docs) of a class and its public bases."""
        owners = [k for k in kind.__mro__ if k in self.classes]
        chosen = {}
        for member in self.members.values():
            if member.owner in owners and member.name not in chosen and _is_query(member) and \
                    not MUTATOR.match(member.name) and not NONDETERMINISTIC.search(member.name):
                chosen[member.name] = member
        return [chosen[name] for name in sorted(chosen)]

    def is_bare(self, specimen):
        """Whether a specimen is what a bare constructor built (its defaults left something unset)."""
        return specimen is not None and self.recipes[specimen[0]].bare

    def build(self, specimen):
        recipe_id, variable = specimen
        return take(self.run_recipe(self.recipes[recipe_id]), variable)

    def specimen_code(self, specimen, target="obj"):
        """Standalone source that builds the specimen into `target`."""
        recipe_id, variable = specimen
        recipe = self.recipes[recipe_id]
        source = (f"# {variable}, as the documentation of {recipe.origin} builds it" if recipe.documented else
                  f"# {recipe.origin}, built by its constructor")
        lines = [source, self.prelude.rstrip("\n"), recipe.code.rstrip("\n")]
        if variable != target:
            lines.append(f"{target} = {variable}")
        return "\n".join(line for line in lines if line) + "\n"

    def describe(self, specimen):
        recipe_id, variable = specimen
        recipe = self.recipes[recipe_id]
        return (f"{variable} from the documentation of {recipe.origin}" if recipe.documented
                else recipe.code.strip().splitlines()[-1].replace("obj = ", ""))


ANGLE_NAMES = frozenset({"theta", "phi", "lam", "lambda_", "gamma", "beta", "alpha", "angle", "omega", "delta",
                         "phase", "rotation", "x", "y", "z", "t"})
COUNT_NAMES = frozenset({"num_qubits", "n_qubits", "num_wires", "n_wires", "n", "size", "width", "num_clbits",
                         "num_bits", "dim", "num_ctrl_qubits", "num_variable_qubits", "num_state_qubits"})
ANGLE_VALUES = ("0.37", "1.19", "-0.61", "2.03")


def generic_parameter_value(cls, parameter):
    """A value for a required constructor parameter from its annotation, its name or the type
    the class's docs give it: a count is 2, an angle one of a few distinct irrational-looking
    reals; else None. A name says nothing where the docs type the parameter as no number at all
    (FockStateProjector's `n (array)`: occupation numbers, one per wire)."""
    from surface_arguments import FLOAT_WORDS, INT_WORDS

    annotation = parameter.annotation
    name = parameter.name.lower()
    words = _documented_words(cls, parameter)
    by_name = not words or bool(words & (FLOAT_WORDS | INT_WORDS | {"number", "numbers", "numeric"}))
    if annotation in (int, "int") or by_name and (name in COUNT_NAMES or name.startswith("num_")):  # "int": postponed
        return "2"
    if annotation in (float, "float") or by_name and (name in ANGLE_NAMES or name.endswith("_angle")):
        return _angle_value(cls, parameter)
    # the docs (class docstring, numpydoc; __init__'s, Google) type it as a plain int or float:
    # `a (float): displacement magnitude` is a real
    if words and words <= INT_WORDS:
        return "2"
    if words and words <= FLOAT_WORDS | INT_WORDS:
        return _angle_value(cls, parameter)
    return None


def _angle_value(cls, parameter):
    """One of ANGLE_VALUES, a different one for each parameter of the constructor."""
    names = list(constructor_signature(cls).parameters)
    index = names.index(parameter.name) if parameter.name in names else 0  # a factory's own parameter
    return ANGLE_VALUES[index % len(ANGLE_VALUES)]


def _documented_words(cls, parameter):
    """The words of the type the class's docs give a constructor parameter (none when untyped)."""
    from surface_arguments import documented_types

    docs = "\n\n".join(d for d in (_own_doc(cls), _own_doc(cls.__init__)) if d)
    text = documented_types(docs).get(parameter.name, "")
    return {w.lower() for w in re.findall(r"[A-Za-z_]\w*", text)} - {"optional"}


# A package docstring that is a page of the library's API reference (Sphinx directives or a
# reStructuredText title): what it exports is documented API, however deep the package.
REFERENCE_PAGE = re.compile(r"\.\. (?:autosummary|currentmodule|automodule)::|^={3,}\s*$", re.MULTILINE)


def _is_reference_page(module):
    return hasattr(module, "__path__") and bool(REFERENCE_PAGE.search(getattr(module, "__doc__", None) or ""))


_BUILTIN_NAMES = frozenset(dir(builtins)) | frozenset(keyword.kwlist)  # `sum` is Python's, not qml.sum
_ASSIGNED = re.compile(r"^\s*(\w+)\s*=", re.MULTILINE)
_BARE_NAME = re.compile(r"(?<![\w.])([A-Za-z_]\w*)")  # a name, not an attribute (qml.X is no X)
# names a program defines at its top level: a class, a function, or a name assigned (`dev = ...`)
_DEFINED = re.compile(r"^(?:(?:class|def)\s+(\w+)|(\w+)\s*=(?!=))", re.MULTILINE)
_BOUND = re.compile(r"(?:\bimport|\bas|\bdef|\bclass|\bfor)\s+(\w+)")  # names the program binds itself


def _shared_prefix(a, b):
    """How many leading dotted parts two names share."""
    count = 0
    for x, y in zip(a.split("."), b.split(".")):
        if x != y:
            break
        count += 1
    return count


def _name_rank(obj, dotted):
    """Which public name of an object is its API: one under the package that defines it
    (qml.operation.Operator, not a module that re-exports it), then the shortest."""
    module = dotted.rsplit(".", 1)[0]
    return (not obj.__module__.startswith(module), dotted.count("."), dotted)


def _subclass(kind, cls):
    try:
        return issubclass(kind, cls)
    except TypeError:  # a Protocol with data members refuses issubclass: no specimens through it
        return kind is cls


FORKING_PARENTS = ("warm_worker.py",)


def prepare_in_forking_parent(*prepared):
    """`.prepare()` of each (a Surface, a CallLaws) when this process is the sandbox's warm
    worker, which imports the law modules once and forks a child per check. Not in a process
    that imports them per child (the tests' fork server): there each child would pay for the
    whole surface, surface law or not. The recipes preparing runs, it runs in children of
    their own (Surface.probe): the parent must stay free of threads to fork safely."""
    main = getattr(sys.modules.get("__main__"), "__file__", "") or ""
    if main.rsplit("/", 1)[-1] in FORKING_PARENTS:
        surfaces = {id(t): t for t in prepared if isinstance(t, Surface)}
        surfaces.update({id(t.surface): t.surface for t in prepared if isinstance(getattr(t, "surface", None), Surface)})
        with contextlib.ExitStack() as stack:
            for surface in surfaces.values():
                stack.enter_context(surface.isolated_builds())
            for thing in prepared:
                thing.prepare()


def _in_forked_child(compute, timeout):
    """compute() run in a forked child; its answer (pickled through a pipe), or RuntimeError
    when it raised, died or outran `timeout` seconds."""
    read_end, write_end = os.pipe()
    child = os.fork()
    if child == 0:  # the child: answer, then leave without running the parent's exit handlers
        os.close(read_end)
        try:
            payload = pickle.dumps(("answer", compute()))
        except BaseException as exc:  # noqa: BLE001 (anything the recipe raised, a panic included)
            payload = pickle.dumps(("error", f"{type(exc).__name__}: {exc}"[:500]))
        with os.fdopen(write_end, "wb") as out:
            out.write(payload)
        os._exit(0)
    os.close(write_end)
    chunks = []
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([read_end], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                break
            chunk = os.read(read_end, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    finally:  # an answer, a deadline, or the caller's own time limit firing here: the child goes
        os.close(read_end)
        with contextlib.suppress(ProcessLookupError):
            os.kill(child, signal.SIGKILL)
        os.waitpid(child, 0)
    try:
        kind, value = pickle.loads(b"".join(chunks))
    except (pickle.UnpicklingError, EOFError, ValueError) as exc:
        raise RuntimeError(f"the build died or outran {timeout} s") from exc
    if kind == "error":
        raise RuntimeError(value)
    return value


def _now():
    return time.perf_counter()


def _member_kind(defining, name):
    """'property' or 'method' (an instance method callable with no arguments), else None."""
    raw = vars(defining)[name]
    if isinstance(raw, (property, functools.cached_property)):
        return "property"
    if type(raw).__name__ == "getset_descriptor":  # a compiled class's attribute
        return "property"
    if isinstance(raw, (staticmethod, classmethod)) or not callable(raw) or inspect.isclass(raw):
        return None
    try:
        signature = inspect.signature(raw)
    except (TypeError, ValueError):
        return None
    parameters = list(signature.parameters.values())
    if not parameters or parameters[0].kind not in (parameters[0].POSITIONAL_ONLY, parameters[0].POSITIONAL_OR_KEYWORD):
        return None
    rest = parameters[1:]
    if any(p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
           for p in rest):
        return None
    if rest and all(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in rest):
        # a pure forwarder: what it needs is not in its signature, but in that of the method it
        # overrides, when there is one (BlueprintCircuit.depth(*args, **kwargs) builds the
        # circuit, then asks QuantumCircuit.depth(filter_function=...))
        base = next((k for k in defining.__mro__[1:] if name in vars(k)), None)
        return _member_kind(base, name) if base is not None and base is not object else None
    return "method"


def has_value_equality(cls, surface):
    """Whether instances compare by value: an __eq__ defined by the library, not object's."""
    defining = next((k for k in cls.__mro__ if "__eq__" in vars(k)), object)
    return defining is not object and surface._defined_here(defining)


def _access(obj, member):
    value = getattr(obj, member.name)
    return value() if member.kind == "method" else value


def _call(obj, member):
    """The member's answer; TimeLimit past CALL_S."""
    with _quiet(), time_limit(CALL_S):
        return _access(obj, member)


# -- the laws -----------------------------------------------------------------------------------------
class SurfaceLaws:
    """The generic laws over one library's surface."""

    def __init__(self, surface):
        self.surface = surface
        self._entered = {}  # documented example -> names of the library calls its lines made

    # shared parts
    def _member(self, subject):
        member = self.surface.members.get(subject)
        if member is None:
            raise LookupError(f"{subject} is not a public member on this release")
        return member

    def _specimens_strategy(self, cls, exact=False, documented=False, trusted=False, usable=False):
        from hypothesis import strategies as st

        found = self.surface.specimens(cls, exact=exact, documented=documented, trusted=trusted, usable=usable)
        # None: no recipe builds one here; every check then refuses it, and the check reads
        # "raised" with the reason, never "holds"
        return st.sampled_from(found) if found else st.just(None)

    def _built(self, specimen):
        from hypothesis import reject

        if specimen is None:
            raise LookupError("no recipe (documented example or constructor) builds an instance on this release")
        try:
            return self.surface.build(specimen)
        except (Exception, TimeLimit):  # noqa: BLE001 (it built when listed; here it did not: say nothing)
            reject()

    @functools.lru_cache(maxsize=None)  # noqa: B019 (one SurfaceLaws per library, alive as long as the process)
    def _has_recipe(self, cls, documented=False, trusted=False):
        return any((r.documented or not documented) and (r.trusted or not trusted)
                   for r in self.surface.recipes_for(cls)) or bool(self.surface.producers(cls))

    def _internal(self, exc):
        return internal_error(exc, self.surface.library)  # noqa: F821 (defined by TRIAGE_SOURCE)

    def _not_of_the_object(self, exc, obj, specimen):
        """An error a documented object's state explains, not a defect the call shows: state
        another method fills first (or a bare object's unset configuration), symbols left
        unbound where numbers are needed, a dense matrix of too many qubits."""
        return needs_another_call_first(exc, obj, self.surface.is_bare(specimen)) or \
            symbolic_where_numbers_needed(exc, [obj]) or too_large_to_densify(exc, obj)

    def specimen_validity(self, subject, specimen):
        """A specimen a documented program builds is documented valid input; one a bare
        constructor builds is an object the docs do not promise to be usable (a blueprint
        circuit with no qubits yet), so what it triggers is a potential bug at most."""
        if specimen is None or not self.surface.recipes[specimen[0]].documented:
            return "undocumented"
        return "documented"

    def _reproducer(self, specimen, body):
        return ("import copy\nimport pickle\n" + TRIAGE_SOURCE.strip("\n") + "\n" + SAME_SOURCE.strip("\n")
                + "\n\n\n" + self.surface.specimen_code(specimen) + body)

    # 1. no internal error ---------------------------------------------------------------------------
    # Objects the documentation or a configured constructor builds, and what a bare constructor
    # builds that is not empty (holds_something: a pass, a checker, a synthesis method with
    # its defaults): a bare object that holds nothing (a blueprint circuit with no qubits yet,
    # Target() with no qubits, an empty Layout) asked for what it does not yet hold fails in
    # ways a maintainer calls misuse far more often than a defect, and so does a bare object
    # asked for what its defaults left unset (needs_another_call_first, `bare`).
    # And of classes a user reaches through the documented namespaces: an internal helper's
    # container popped empty (qiskit's MatchingScenariosList) is the library's own plumbing,
    # called only in states the library prepares (rejected in the first complete audit's review).
    def member_subjects(self):
        return [s for s, m in self.surface.members.items()
                if self.surface.is_documented(m.owner) and self._has_recipe(m.owner)]

    def member_api(self, subject):
        return subject

    def member_strategy(self, subject):
        return self._specimens_strategy(self._member(subject).owner, usable=True)

    def any_member_strategy(self, subject):
        return self._specimens_strategy(self._member(subject).owner)

    def member_check(self, subject, specimen):
        from hypothesis import reject

        member = self._member(subject)
        obj = self._built(specimen)
        if capability_denied(obj, member.name):
            reject()  # the object documents that it lacks what this member needs
        try:
            _call(obj, member)
        except TimeLimit:
            reject()
        except Exception as exc:  # noqa: BLE001 (triaged below: only internal errors are findings)
            where = self._internal(exc)
            if where is None or self._not_of_the_object(exc, obj, specimen) or _delegated_to_what_lacks_it(exc, member):
                reject()  # the library's own refusal, or state another method fills: not this law's business
            raise AssertionError(f"{subject} ({'property' if member.kind == 'property' else 'called with no '}"
                                 f"{'' if member.kind == 'property' else 'arguments'}) on "
                                 f"{self.surface.describe(specimen)} raised an internal error: "
                                 f"{type(exc).__name__}: {exc} (raised at {where})") from exc

    def member_reproducer(self, subject, specimen):
        member = self._member(subject)
        return self._reproducer(specimen, (
            "try:\n"
            f"    {member.call_code()}\n"
            "except Exception as exc:\n"
            f"    where = internal_error(exc, {self.surface.library!r})\n"
            "    if where is None:\n"
            "        raise  # the library's own refusal: not this defect\n"
            f"    raise AssertionError(f'{subject} raised an internal error: {{type(exc).__name__}}: {{exc}} "
            "(at {where})') from exc\n"))

    # 2. documented examples run without internal error ----------------------------------------------
    def example_subjects(self):
        return [r.id for r in self.surface.recipes.values() if r.documented]

    def example_api(self, subject):
        return self.surface.recipes[subject].origin

    def example_check(self, subject, _=None):
        from hypothesis import reject

        recipe = self.surface.recipes[subject]
        entered = self._entered.setdefault(subject, set())
        try:
            with calls_from_recipes(self.surface, entered):
                self.surface.run_recipe(recipe)
        except TimeLimit:
            reject()
        except Exception as exc:  # noqa: BLE001 (triaged below)
            where = self._internal(exc)
            if where is None:
                reject()
            raise AssertionError(f"the documented example of {recipe.origin} raised an internal error: "
                                 f"{type(exc).__name__}: {exc} (raised at {where})") from exc

    def example_entered(self, subject):
        """The library's functions and methods the documented example called itself (its own
        lines, not the library's calls beneath them), by name: each ran on documented input
        under this law's judgement."""
        return sorted(self._entered.get(subject, ()))

    def example_reproducer(self, subject, _=None):
        recipe = self.surface.recipes[subject]
        return (TRIAGE_SOURCE.strip("\n") + "\n\n\n" + f"# the documented example of {recipe.origin}\n"
                + f"EXAMPLE = {(self.surface.prelude + recipe.code)!r}\n"
                + "import linecache  # the example's source readable by inspect, as a file's is\n"
                + "linecache.cache['<documented example>'] = (len(EXAMPLE), None, EXAMPLE.splitlines(True), "
                + "'<documented example>')\n"
                + "try:\n"
                + "    exec(compile(EXAMPLE, '<documented example>', 'exec'), {'__name__': '__main__'})\n"
                + "except Exception as exc:\n"
                + f"    where = internal_error(exc, {self.surface.library!r})\n"
                + "    if where is None:\n"
                + "        raise  # the library's own refusal: not this defect\n"
                + f"    raise AssertionError(f'the documented example of {recipe.origin} raised an internal error: "
                + "{type(exc).__name__}: {exc} (at {where})') from exc\n")

    def example_describe(self, subject, _=None):
        recipe = self.surface.recipes[subject]
        return recipe.code.strip()[:600]

    # 3. copies are equal ----------------------------------------------------------------------------
    def copy_subjects(self):
        return [dotted for cls, dotted in sorted(self.surface.classes.items(), key=lambda item: item[1])
                if has_value_equality(cls, self.surface) and self._has_recipe(cls)]

    def _class(self, dotted):
        for cls, name in self.surface.classes.items():
            if name == dotted:
                return cls
        raise LookupError(f"{dotted} is not a public class on this release")

    def copy_strategy(self, subject):
        return self._specimens_strategy(self._class(subject), exact=True)

    def copy_check(self, subject, specimen):
        from hypothesis import reject

        obj = self._built(specimen)
        with _quiet():
            if _equal(obj, obj) is not True:
                reject()  # an object unequal to itself (NaN inside) has no copies to compare
            for how in ("copy.copy", "copy.deepcopy", "pickle"):
                try:
                    other = _copied(obj, how)
                except Exception as exc:  # noqa: BLE001 (a copy the object refuses says nothing)
                    if how == "pickle" and self._internal(exc) and "dumps" not in str(exc):
                        raise
                    continue
                equal = _equal(obj, other)
                if equal is None or (equal is False and _part_unequal_to_its_copy(obj, how)):
                    # A part that is not equal to its own copy (a function, a QNode: compared by
                    # identity) makes any copy of the whole unequal, as the data model allows.
                    continue
                assert equal, f"{subject}: {how} of {self.surface.describe(specimen)} is not equal to it"
                assert _equal_hashes(obj, other), (f"{subject}: {self.surface.describe(specimen)} and its {how} are "
                                                   f"equal but hash differently ({hash(obj)} != {hash(other)})")
                assert _not_equal(obj, other) is not True, (f"{subject}: {self.surface.describe(specimen)} == its {how}, "
                                                         "yet != says they differ")

    def copy_reproducer(self, subject, specimen):
        return self._reproducer(specimen, (
            "for how, make in [('copy.copy', copy.copy), ('copy.deepcopy', copy.deepcopy),\n"
            "                  ('pickle', lambda o: pickle.loads(pickle.dumps(o)))]:\n"
            "    try:\n"
            "        other = make(obj)\n"
            "    except Exception:\n"
            "        continue  # a copy the object refuses says nothing\n"
            "    equal = as_truth(obj == other)\n"
            "    if equal is None:\n"
            "        continue\n"
            f"    assert equal, f'{subject}: {{how}} of the object is not equal to it'\n"
            "    if type(obj).__hash__ is not None:\n"
            f"        assert hash(obj) == hash(other), f'{subject}: equal to its {{how}} but hashes differently'\n"
            f"    assert as_truth(obj != other) is not True, f'{subject}: == its {{how}}, yet != says they differ'\n"))

    # 4. queries are pure ----------------------------------------------------------------------------
    def query_subjects(self):
        return [s for s, m in self.surface.members.items() if _is_query(m)
                and has_value_equality(m.owner, self.surface) and self._has_recipe(m.owner)]

    def query_check(self, subject, specimen):
        from hypothesis import reject

        member = self._member(subject)
        obj = self._built(specimen)
        try:
            with _quiet():
                before = copy.deepcopy(obj)
                unchanged = _equal(before, obj)
        except Exception:  # noqa: BLE001 (an object that cannot be copied cannot be compared with its past)
            reject()
        if unchanged is not True:
            reject()
        try:
            first = _call(obj, member)
        except (Exception, TimeLimit):  # noqa: BLE001 (an error here is the no-internal-error law's)
            reject()
        with _quiet():
            changed = _equal(obj, before) is False
        if changed and first is None and member.kind != "property":
            # a method that answers nothing and changed its object is a command, whatever its
            # summary's verb ("Convert uni-directional edges into bi-directional.")
            reject()
        assert not changed, (
                f"{subject} changed the object it was asked about ({self.surface.describe(specimen)}): "
                "it no longer equals a copy taken before")
        if NONDETERMINISTIC.search(member.name):
            return
        try:
            second = _call(obj, member)
        except TimeLimit:
            reject()
        except Exception as exc:  # noqa: BLE001
            raise AssertionError(f"{subject} answered once, then raised {type(exc).__name__}: {exc} when asked "
                                 "again") from exc
        with _quiet():
            agree = same(first, second)  # noqa: F821 (defined by SAME_SOURCE)
        assert agree, (f"{subject} gives two answers when asked twice about {self.surface.describe(specimen)}: "
                       f"{_short(first)} then {_short(second)}")

    def query_reproducer(self, subject, specimen):
        member = self._member(subject)
        again = "" if NONDETERMINISTIC.search(member.name) else (
            f"second = {member.call_code()}\n"
            f"assert same(first, second), f'{subject} gives two answers when asked twice: {{first!r}} then "
            "{second!r}'\n")
        return self._reproducer(specimen, (
            "before = copy.deepcopy(obj)\n"
            "assert as_truth(before == obj)  # the copy is equal before the query\n"
            f"first = {member.call_code()}\n"
            f"assert as_truth(obj == before) is not False, '{subject} changed the object it was asked about'\n" + again))

    # 5. round trips ---------------------------------------------------------------------------------
    def round_trip_subjects(self):
        found = []
        for subject, member in self.surface.members.items():
            pair = _round_trip_pair(member)
            if pair and has_value_equality(member.owner, self.surface) and self._has_recipe(member.owner):
                found.append(subject)
        return found

    def round_trip_strategy(self, subject):
        return self._specimens_strategy(self._member(subject).owner)

    def round_trip_check(self, subject, specimen):
        from hypothesis import reject

        member = self._member(subject)
        back = _round_trip_pair(member)
        obj = self._built(specimen)
        try:
            with _quiet(), time_limit(CALL_S):
                form = getattr(obj, member.name)()
                again = getattr(type(obj), back)(form)
        except TimeLimit:
            reject()
        except Exception as exc:  # noqa: BLE001
            where = self._internal(exc)
            if where is None or self._not_of_the_object(exc, obj, specimen):
                reject()
            raise AssertionError(f"{type(obj).__name__}.{back}({member.name}()) of {self.surface.describe(specimen)} "
                                 f"raised an internal error: {type(exc).__name__}: {exc} (at {where})") from exc
        with _quiet():
            equal = _equal(again, obj)
            if equal is False and callable(getattr(obj, "equiv", None)):
                # another representation of the same thing: the class's own documented equivalence
                equal = _equal_by(obj.equiv, again)
        if equal is None:
            reject()
        assert equal, (f"{type(obj).__name__}.{back}(obj.{member.name}()) is not equal to obj, for "
                       f"{self.surface.describe(specimen)}: {_short(again)} instead of {_short(obj)}")

    def round_trip_reproducer(self, subject, specimen):
        member = self._member(subject)
        back = _round_trip_pair(member)
        return self._reproducer(specimen, (
            f"again = type(obj).{back}(obj.{member.name}())\n"
            "equal = as_truth(again == obj)\n"
            "if equal is False and callable(getattr(obj, 'equiv', None)):\n"
            "    equal = as_truth(obj.equiv(again))  # the class's own equivalence\n"
            f"assert equal, f'{{type(obj).__name__}}.{back}(obj.{member.name}()) is not equal to obj: "
            "{again!r} instead of {obj!r}'\n"))

    # -- the contracts -------------------------------------------------------------------------------
    def contracts(self, source):
        lib = self.surface.library
        described = lambda subject, specimen: self.surface.describe(specimen)  # noqa: E731
        return [
            Contract(f"{lib}.surface.no-internal-error", "API surface",
                     "a public property, or a public method called with no arguments (its signature allows it), "
                     "on an object the documentation builds never fails with an internal error: a builtin error "
                     "raised inside the library by the interpreter or a dependency, not by a raise statement of "
                     "its own", source, self.member_subjects, self.member_strategy, self.member_check,
                     self.member_reproducer, self.member_api, validity="documented", describe=described, kind="crash",
                     validity_of=self.specimen_validity),
            Contract(f"{lib}.surface.examples-run", "API surface",
                     "a documented example (a docstring's doctest lines or code block) runs on the release without "
                     "an internal error (a builtin error raised inside the library, not by its own raise "
                     "statement)", source, self.example_subjects, lambda subject: _nothing(),
                     self.example_check, self.example_reproducer, self.example_api,
                     validity="documented example", describe=self.example_describe, kind="crash",
                     entered=self.example_entered),
            Contract(f"{lib}.surface.copies-are-equal", "API surface",
                     "copy.copy, copy.deepcopy and a pickle round trip of an object of a class with value equality "
                     "give back an equal object; equal objects hash alike; != is the negation of ==",
                     source + "; Python data model (object.__hash__: objects which compare equal have the same "
                     "hash value)", self.copy_subjects, self.copy_strategy, self.copy_check,
                     self.copy_reproducer, lambda subject: subject, validity="documented", describe=described,
                     validity_of=self.specimen_validity),
            Contract(f"{lib}.surface.queries-are-pure", "API surface",
                     "reading a property or calling a query method (no arguments, a name and documentation that "
                     "say nothing of changing the object) leaves the object equal to what it was, and asking "
                     "twice gives the same answer", source, self.query_subjects, self.any_member_strategy,
                     self.query_check, self.query_reproducer, self.member_api, validity="undocumented",
                     describe=described),
            Contract(f"{lib}.surface.round-trips", "API surface",
                     "for a class with value equality that has both obj.to_X() and the class's from_X(...), "
                     "from_X(obj.to_X()) equals obj", source, self.round_trip_subjects, self.round_trip_strategy,
                     self.round_trip_check, self.round_trip_reproducer, self.member_api, validity="documented",
                     describe=described,
                     validity_of=self.specimen_validity),
        ]


def _nothing():
    from hypothesis import strategies as st

    return st.just(None)


QUERY_VERBS = frozenset({"return", "get", "compute", "calculate", "count", "check", "test", "determine", "find",
                         "convert", "evaluate", "estimate", "obtain", "give", "list", "tell", "whether", "is",
                         "retrieve", "look", "extract"})


def _is_query(member):
    """A property, or a method whose summary begins with a verb of asking ("Return ...",
    "Compute ...", "Whether ...") and says nothing of changing the object: what a reader
    takes for a question, not a command. A name alone is no guide (QuantumCircuit.barrier)."""
    if member.kind == "property":
        return True
    summary = inspect.cleandoc(member.doc).split("\n\n")[0] if member.doc else ""
    words = summary.split()
    first = words[0].lower().rstrip(".,:") if words else ""
    first = first[:-1] if first.endswith("s") and first[:-1] in QUERY_VERBS else first
    return first in QUERY_VERBS and not MUTATOR.search(member.name) and not IN_PLACE.search(summary)


def _round_trip_pair(member):
    """The name of the class's from_X for a to_X method with no required arguments, or None."""
    if member.kind != "method" or not member.name.startswith("to_"):
        return None
    back = "from_" + member.name[3:]
    raw = next((vars(k)[back] for k in member.owner.__mro__ if back in vars(k)), None)
    return back if isinstance(raw, (classmethod, staticmethod)) else None


def _copied(obj, how):
    if how == "copy.copy":
        return copy.copy(obj)
    if how == "copy.deepcopy":
        return copy.deepcopy(obj)
    return pickle.loads(pickle.dumps(obj))  # noqa: S301 (our own bytes)


def _part_unequal_to_its_copy(obj, how):
    """Whether one of the object's attributes is unequal to its own copy made the same way."""
    try:
        parts = list(vars(obj).values())
    except TypeError:  # no __dict__ (slots, builtins): no parts to blame
        return False
    for part in parts:
        if part is None or isinstance(part, (bool, int, float, complex, str, bytes)):
            continue
        try:
            copied = _copied(part, how)
        except Exception:  # noqa: BLE001 (a part that cannot be copied explains nothing here)
            continue
        if _equal(part, copied) is False:
            return True
    return False


def _equal(a, b):
    """a == b as a bool, or None when equality does not answer with one."""
    try:
        return as_truth(a == b)  # noqa: F821 (defined by SAME_SOURCE)
    except Exception:  # noqa: BLE001 (an equality that cannot answer: no verdict)
        return None


def _not_equal(a, b):
    try:
        return as_truth(a != b)  # noqa: F821
    except Exception:  # noqa: BLE001
        return None


def _equal_by(relation, other):
    try:
        return as_truth(relation(other))  # noqa: F821
    except Exception:  # noqa: BLE001 (an equivalence that cannot answer: no verdict)
        return None


def _equal_hashes(a, b):
    if type(a).__hash__ is None or type(b).__hash__ is None:
        return True
    try:
        return hash(a) == hash(b)
    except TypeError:  # unhashable in this state (a mutable instance): nothing to compare
        return True


def _short(value, limit=300):
    try:
        text = repr(value)
    except Exception as exc:  # noqa: BLE001
        text = f"<repr raised {type(exc).__name__}>"
    return text if len(text) <= limit else text[:limit] + "..."

