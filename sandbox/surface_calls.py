"""Generic laws over every public function and method that takes arguments: called with
arguments of the types its signature and docstring give (surface_arguments.py), it

- *has no internal error* (the crash oracle of surface_explorer, on these calls), and
- *gives equal answers for equal inputs*: called twice on inputs built afresh, a call that
  answers the same both times (it is deterministic here) answers the same again when one
  argument is passed in an equivalent form (a float as numpy's float64, an int as numpy's
  int64, a list as a tuple or an array).

Objects (the receiver, and arguments of the library's own classes) are built by documented
examples, or by a constructor given each required argument (RXGate(0.37)) or taking none
(HGate()); never a bare default-built one (Target()). The other values are of the documented
types but not themselves documented (a qubit index of 1, an
angle of 0.37): every finding of these laws is a potential bug until a person agrees the input
is one a user may pass (validity "undocumented").
"""

import functools
import inspect
import re
import sys

from contract_runtime import Contract, TimeLimit, time_limit
from surface_arguments import (INDEX_NAMES, ArgumentOptions, documented_descriptions, documented_qubit_count,
                               documented_types, equivalent_forms, is_count, type_text)
from surface_explorer import (CALL_S, SAME_SOURCE, TRIAGE_SOURCE, _configures, _own_doc, _quiet, _short,
                              capability_denied, constructor_signature, internal_error, needs_another_call_first, same,
                              symbolic_where_numbers_needed,
                              take)

MAX_CALLABLES_PER_CLASS = 120  # a class with hundreds of methods does not take the whole budget
# Callables whose effect is outside their answer (files, screens, processes, the network) or
# that wait on something: the sandbox contains them, but their answers say nothing.
OUTSIDE = ("draw", "plot", "save", "dump", "write", "load", "file", "show", "display", "print", "visual",
           "serve", "connect", "download", "upload", "open", "close", "wait", "sleep", "submit", "retrieve",
           "latex", "qasm_file", "to_mpl", "animate", "interact", "jupyter", "widget",
           # calls that change the process rather than answer: debuggers, editors, global
           # switches, registries reread, worker pools started
           "breakpoint", "debug", "edit_", "enable_", "disable_", "refresh", "executor")

# With values of the documented types that the docs do not give themselves (an index of 1, two
# operators of different sizes), an IndexError, KeyError or ValueError most often says the value
# was out of a range the docs leave unstated: no evidence. Type, attribute and name errors, and
# runaway recursion, are not explained by a value in range or out of it.
OUT_OF_RANGE = (IndexError, KeyError, ValueError, StopIteration, OverflowError)
OUT_OF_RANGE_SOURCE = "(IndexError, KeyError, ValueError, StopIteration, OverflowError)"
# The same for compiled code: a Rust panic on an index past the end of an array, on arrays of
# shapes that do not fit (ndarray's "inputs 4 × 4 and 2 × 2 are not compatible"), or on a lookup
# that found nothing (`Option::unwrap()` on `None`: a node id that names no node of an empty DAG,
# a two-qubit gate looked up in a one-qubit table): Rust's IndexError, ValueError and KeyError,
# which a guessed value of a range or size the docs leave unstated explains. Panics of
# documented programs stay evidence (examples-run and the other laws do not set them aside).
OUT_OF_BOUNDS_PANIC = re.compile(r"index out of bounds|out of range|out of bounds|are not compatible|"
                                 r"shape mismatch|incompatible shapes?|`Option::unwrap\(\)` on a `None` value",
                                 re.IGNORECASE)


NO_SIZE = object()


def _qubits(value):
    """An object's num_qubits (None for one on qudits), or NO_SIZE when it has none to say."""
    try:
        count = getattr(value, "num_qubits", NO_SIZE)
    except Exception:  # noqa: BLE001 (a property that fails on this object: no size)
        return NO_SIZE
    return count if count is None or type(count) is int else NO_SIZE


# A docstring's type, not prose: names, brackets, commas, `or` and `|` (`float`, `list[int] or None`).
_TYPE_TEXT = re.compile(r"[\w.\[\]|,~ ]{1,60}")


def _innermost_locals(exc):
    """The local variables of the frame an exception was raised in."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return dict(tb.tb_frame.f_locals) if tb is not None else {}


def _holds_none(mapping, depth=3):
    """Whether a mapping holds None, itself or in a mapping it holds, or in the `params`
    mapping of an object it holds (a compressed operator's parameters): a value left for a
    later stage to fill (PennyLane's precision from the estimate's config)."""
    for value in mapping.values():
        if value is None:
            return True
        inner = value if isinstance(value, dict) else getattr(value, "params", None)
        if depth > 0 and isinstance(inner, dict) and _holds_none(inner, depth - 1):
            return True
    return False


_ITEM = re.compile(r"[A-Za-z_]\w*(?:\[\d+\])?")


def _part_of_another_object(path):
    """Whether a specimen is a part a query of another object answered (`dag.op_nodes()[0]`),
    not an object of its own (`circuit`, `ops[0]`): given to a method of some other object (a
    node of one DAG to another DAG's `ancestors`), it breaks a precondition no signature states
    and the first audit that built such parts found only that (Rust panics on foreign nodes)."""
    return not _ITEM.fullmatch(path)


def _failed_on_a_held_none(exc, options, values):
    """A None-error of a call given a mapping an instance holds (`**op.hyperparameters`,
    `**op.resource_params`) that holds None: the None stands for a value a later stage fills
    (PennyLane's precision from the estimate's config), and the call was made without it. The
    call is still made: most held Nones are what the library itself passes (`subspace=None`)."""
    if "NoneType" not in str(exc):
        return False
    return any(kind == "property" and isinstance(value, dict) and _holds_none(value)
               for (kind, _), value in zip(options, values))


_SEQUENCE_READ_AS_ARRAY = re.compile(r"^'(?:list|tuple)' object has no attribute '(\w+)'")


def _our_sequence_read_as_an_array(exc, values):
    """An AttributeError of a list or tuple asked for an array's attribute (`shape`) when the
    call was given a list or tuple: the docs said Sequence and the code reads an array, a form
    we chose among those the docs allow, not a defect shown on a value a user holds."""
    return isinstance(exc, AttributeError) and bool(_SEQUENCE_READ_AS_ARRAY.match(str(exc))) and \
        any(isinstance(value, (list, tuple)) for value in values)


def _leaf_values(values):
    """The arguments of a call, a list or tuple argument's items among them."""
    found = []
    for value in values:
        found += list(value) if isinstance(value, (list, tuple)) else [value]
    return found


def _is_index(name):
    """A parameter that names a position (a qubit, a wire, an index) and does not count them
    (num_qubits names qubits but counts them)."""
    return bool(INDEX_NAMES.search(name)) and not is_count(name)


def _ints_in(value):
    """The ints a literal holds: itself, or the items of a flat list or tuple of them."""
    if type(value) is int:
        return [value]
    if isinstance(value, (list, tuple)):
        return [item for item in value if type(item) is int]
    return []


_INT_LITERAL = re.compile(r"\d+")
_INT_LIST_LITERAL = re.compile(r"[\[(]\s*\d+(?:\s*,\s*\d+)*\s*,?\s*[\])]")


def _room_for_distinct_indices(options):
    """Options where the index parameters of one call can name different positions: a call
    takes its indices distinct (a control and a target are two qubits; `_same_kind` sets the
    others aside), so three index parameters (`ccx(control_qubit1, control_qubit2,
    target_qubit)`), or a list of two beside a single one (`mcx(control_qubits,
    target_qubit)`), need more values than the first two positions. A single index parameter
    is offered the positions up to the number of indices the call takes at most."""
    slots = 0
    for parameter, found in options:
        if not _is_index(parameter.name):
            continue
        sizes = [len(_INT_LITERAL.findall(value)) for kind, value in found if kind == "literal"
                 and (_INT_LITERAL.fullmatch(value) or _INT_LIST_LITERAL.fullmatch(value))]
        slots += max(sizes, default=0)
    widened = []
    for parameter, found in options:
        singles = {value for kind, value in found if kind == "literal" and _INT_LITERAL.fullmatch(value)}
        if _is_index(parameter.name) and singles:
            found = found + [("literal", str(k)) for k in range(slots) if str(k) not in singles]
        widened.append((parameter, found))
    return widened


def is_panic(exc):
    """PyO3's PanicException (a BaseException), matched by name as contract_runtime does: its
    module loads with the library."""
    return type(exc).__name__ == "PanicException"

COMPARE_SOURCE = r'''
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
'''
exec(compile(COMPARE_SOURCE, "<surface compare>", "exec"))  # noqa: S102 (our own source, shared with reproducers)


def _constructible(cls):
    """Whether calling a public class is a call a user makes: not an abstract class (it
    refuses by design), not an exception (raised by the library, not built by users), not an
    enumeration (its members are its instances)."""
    import enum

    return not (inspect.isabstract(cls) or issubclass(cls, (BaseException, enum.Enum)))


class CallTarget:
    """A public callable that takes arguments: a module function, or a method (instance,
    class or static) of a public class."""

    def __init__(self, subject, owner, name, kind, function, module=None):
        self.subject, self.owner, self.name, self.kind, self.function, self.module = (
            subject, owner, name, kind, function, module)

    @property
    def doc(self):
        if self.kind == "constructor":
            # numpydoc documents a constructor's parameters in the class docstring, Google style
            # in __init__'s: read both
            return "\n\n".join(d for d in (_own_doc(self.owner), _own_doc(self.function)) if d)
        return _own_doc(self.function) or ""

    def signature(self):
        return constructor_signature(self.owner) if self.kind == "constructor" else inspect.signature(self.function)

    def required(self):
        """The parameters a call must fill (after self/cls)."""
        parameters = list(self.signature().parameters.values())
        if self.kind in ("method", "classmethod"):
            parameters = parameters[1:]
        return [p for p in parameters if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]

    def doc_types(self):
        """parameter name -> type text: the docstring's, then, for a parameter neither its
        annotation nor its docstring types, the type the method it overrides gives the same
        parameter (BasePass.run's `dag: DAGCircuit` for every pass's undocumented run(dag)):
        an override takes what the method it replaces takes."""
        found = documented_types(self.doc)
        if self.owner is None or self.kind == "constructor":
            return found
        for base in self.owner.__mro__[1:]:
            raw = vars(base).get(self.name)
            function = getattr(raw, "__func__", raw)
            if function is None or not callable(function):
                continue
            try:
                parameters = inspect.signature(function).parameters
            except (TypeError, ValueError):
                continue
            inherited = documented_types(_own_doc(function))
            for name, parameter in parameters.items():
                text = type_text(parameter, inherited, function)
                if text:
                    found.setdefault(name, text)
        try:
            parameters = inspect.signature(self.function).parameters.values()
        except (TypeError, ValueError):
            return found
        siblings = _sibling_types(self.owner)
        for parameter in parameters:
            if parameter.name not in found and parameter.annotation is parameter.empty and parameter.name in siblings:
                found[parameter.name] = siblings[parameter.name]
        return found


@functools.lru_cache(maxsize=None)  # one reading per class: every method of it asks
def _sibling_types(owner):
    """parameter name -> the type the class's other methods document for a parameter of that
    name, where those that type it agree (DAGCircuit documents `node (DAGOpNode)` on two
    methods and leaves it untyped on ten): a class's docs use one name for one kind of thing.
    Prose the parser took for a type ("the variable to add.") is no type."""
    seen = {}
    for klass in owner.__mro__:
        for name, raw in vars(klass).items():
            function = getattr(raw, "__func__", raw)
            if name.startswith("_") or not callable(function):
                continue
            for parameter, text in documented_types(_own_doc(function) or "").items():
                if _TYPE_TEXT.fullmatch(text) and len(text.split()) <= 5:
                    seen.setdefault(parameter, set()).add(text.strip())
    return {parameter: texts.pop() for parameter, texts in seen.items() if len(texts) == 1}


class CallLaws:
    """The laws over one library's callables with arguments."""

    def __init__(self, surface):
        self.surface = surface
        self.arguments = ArgumentOptions(surface)
        self.left_out = {}  # subject -> why a public callable with arguments is not checked

    def prepare(self):
        """Find the callables and which of them the engine can fill, now (see
        surface_explorer.prepare_in_forking_parent). Failures are left for the checks."""
        try:
            self.subjects()
        except Exception:  # noqa: BLE001, S110 (a check meets the same error and reports it)
            pass

    # -- the callables --------------------------------------------------------------------------
    def targets(self):
        try:
            return self._targets
        except AttributeError:
            self._targets = self._find_targets()
            return self._targets

    def _find_targets(self):
        found = {}
        for obj, dotted in sorted(self.surface.public.items(), key=lambda item: item[1]):
            if inspect.isfunction(obj):
                module, name = dotted.rsplit(".", 1)
                self._add(found, CallTarget(dotted, None, name, "function", obj, module))
        for cls, dotted in sorted(self.surface.classes.items(), key=lambda item: item[1]):
            if _constructible(cls):
                init = cls.__init__  # a compiled class's is a slot wrapper: read the class then
                self._add(found, CallTarget(dotted, cls, cls.__name__, "constructor",
                                            init if inspect.isfunction(init) else cls))
            added = 0
            for name, raw in sorted(vars(cls).items()):
                if name.startswith("_") or added >= MAX_CALLABLES_PER_CLASS:
                    continue
                if isinstance(raw, staticmethod):
                    kind, function = "staticmethod", raw.__func__
                elif isinstance(raw, classmethod):
                    kind, function = "classmethod", raw.__func__
                elif inspect.isfunction(raw) or inspect.ismethoddescriptor(raw) and callable(raw):
                    kind, function = "method", raw  # a compiled class's methods are descriptors
                elif type(raw).__name__ == "classmethod_descriptor":
                    kind, function = "classmethod", raw
                else:
                    continue
                added += self._add(found, CallTarget(f"{dotted}.{name}", cls, name, kind, function))
        return found

    def _add(self, found, target):
        reason = self._left_out(target)
        if reason is None:
            found[target.subject] = target
        elif reason:
            self.left_out[target.subject] = reason
        return reason is None

    def _left_out(self, target):
        """Why a callable is not a subject ('' when it takes no arguments: the explorer's
        laws call it), or None when it is one."""
        if any(word in target.name.lower() for word in OUTSIDE):
            return "acts outside its answer (files, screens, processes) or waits"
        if not self.surface.is_documented(target.owner or target.function):
            # helpers deeper down (qml.math.single_dispatch, qiskit.transpiler.passes.layout.disjoint_utils)
            # are called by the library with inputs it prepares: our typed guesses at them were
            # misuse far more often than a defect
            return "a helper outside the documented namespaces"
        try:
            required = target.required()
            signature = target.signature()
        except (TypeError, ValueError):
            return "no signature to read"
        if any(p.kind == p.VAR_POSITIONAL for p in signature.parameters.values()):
            return "takes *args: what it needs is not in its signature"
        # a function, constructor, static or class method with nothing to fill is still a call
        # to check (clifford_2_1(), Cls(), Cls.resource_rep()); an instance method with none is
        # the member laws'
        return None if required or target.kind in ("function", "constructor", "staticmethod", "classmethod") else ""

    def plan(self, subject):
        """(receiver specimens or None, [options per required parameter]) or a reason (str)
        why the engine cannot call it."""
        target = self.targets().get(subject)
        if target is None:
            return f"{subject} is not a public callable with arguments on this release"
        doc_types = target.doc_types()
        bare = self._bare_reason(target)
        if bare:
            return bare
        receivers = None
        if target.kind == "method":
            receivers = self.surface.specimens(target.owner, usable=True)
            if not receivers:
                return (f"no documented example, configured constructor or bare constructor (of something not "
                        f"empty) builds an instance of {target.owner.__name__}")
        options = []
        for parameter in self._parameters(target):
            held = (parameter.kind == parameter.VAR_KEYWORD or self._property_named(target.owner, parameter.name)
                    and target.kind in ("classmethod", "staticmethod"))
            if held:
                found = self._property_options(target, parameter, self._trusted_specimens)
                if found is None and (parameter.kind == parameter.VAR_KEYWORD or
                                      parameter.default is not parameter.empty):
                    found = "no instance to take it from"
                elif found is None:
                    # no instance holds it: a value of its documented type, as for any parameter
                    found = self.arguments.options(parameter, doc_types, self._own_first(target), target.function)
            else:
                found = self.arguments.options(parameter, doc_types, self._own_first(target), target.function)
                if isinstance(found, str):
                    found = self._property_options(target, parameter, self._trusted_specimens) or found
            if isinstance(found, str):
                return found
            if target.kind == "method":
                found = [(kind, value) for kind, value in found
                         if kind not in ("specimen", "specimens") or not _part_of_another_object(value[1])]
                if not found:
                    return (f"parameter {parameter.name!r}: only parts of other objects (a node of another DAG) "
                            "build one")
            options.append((parameter, self._own_where_any(target, found)))
        return receivers, _room_for_distinct_indices(options)

    def _own_where_any(self, target, found):
        """A parameter's options narrowed to the objects the callable's own documentation
        builds, when it builds any of the parameter's kinds (else all of them)."""
        homes = tuple(h for h in (target.subject, self.surface.classes.get(target.owner)) if h)
        own = [(kind, value) for kind, value in found if kind in ("specimen", "specimens")
               and self.surface.recipes[value[0]].origin.startswith(homes)]
        return own + [(kind, value) for kind, value in found if kind == "literal"] if own else found

    def _parameters(self, target):
        """The parameters a call fills: the required ones; for a class's own static or class
        method, also the optional ones named after a property of its instances (a default of
        None there stands for "what the instance holds"); and when every parameter it requires
        is a key of a mapping its instances hold (`resource_params`, `hyperparameters`), that
        mapping spread as keywords instead (`Cls.resource_decomp(**op.resource_params)`, the
        protocol such methods document), as one VAR_KEYWORD parameter named after it."""
        cache = self.__dict__.setdefault("_parameter_cache", {})
        if target.subject in cache:
            return cache[target.subject]
        required = target.required()
        found = required
        if target.owner is not None and target.kind in ("classmethod", "staticmethod"):
            spread = self._spread_property(target, {p.name for p in required})
            if spread is not None:
                found = [inspect.Parameter(spread, inspect.Parameter.VAR_KEYWORD)]
            else:
                optional = [p for p in target.signature().parameters.values()
                            if p.default is not p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
                            and self._property_named(target.owner, p.name)]
                found = required + [p.replace(kind=p.KEYWORD_ONLY) for p in optional]
        cache[target.subject] = found
        return found

    def _bare_reason(self, target):
        """Why a call with nothing to fill is no call to check, or None: one whose defaults
        leave something empty (None, 0, ()) is a blueprint asked for what it does not hold
        (Adjoint(), RX.resource_decomp(precision=None)); defaults that configure are a call."""
        if target.kind == "method" or self._parameters(target):
            return None
        defaults = [p.default for p in target.signature().parameters.values()
                    if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD) and p.name != "cls"]
        if all(_configures(d) for d in defaults) or self._shown_bare(target):
            return None
        return "only a bare call: its defaults leave it empty"

    def _shown_bare(self, target):
        """Whether a documented program calls it with nothing (`CommutationChecker()`): then the
        docs show the bare call is how it is used, whatever its defaults."""
        callee = target.owner.__name__ if target.kind == "constructor" else target.name
        bare = re.compile(rf"\b{re.escape(callee)}\(\s*\)")
        return any(bare.search(r.code) for r in self.surface.recipes.values() if r.documented)

    def _spread_property(self, target, required):
        """The name of a mapping property of the class's instances whose keys cover every
        parameter the method requires and are all parameters it takes, or None."""
        try:
            parameters = target.signature().parameters
        except (TypeError, ValueError):
            return None
        named = {n for n, p in parameters.items() if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)} - {"cls"}
        open_keywords = any(p.kind == p.VAR_KEYWORD for p in parameters.values())
        for name, keys in self._mapping_properties(target.owner).items():
            if required <= keys and (keys <= named or open_keywords) and (keys or not required):
                return name
        return None

    def _mapping_properties(self, cls):
        """{property name: its keys} for the public properties of `cls` whose value on its
        first trusted specimen is a dict with string keys (built once per class)."""
        cache = self.__dict__.setdefault("_mapping_cache", {})
        if cls in cache:
            return cache[cls]
        found = {}
        specimens = self._trusted_specimens(cls)[:1]

        def keys_of_mappings(namespace):
            obj = take(namespace, specimens[0][1])
            held = {}
            for name in dir(cls):
                if name.startswith("_") or not isinstance(inspect.getattr_static(cls, name, None),
                                                          (property, functools.cached_property)):
                    continue
                try:
                    with _quiet(), time_limit(CALL_S):
                        value = getattr(obj, name)
                except (Exception, TimeLimit):  # noqa: BLE001 (a property that fails here spreads nothing)
                    continue
                if isinstance(value, dict) and all(isinstance(k, str) for k in value):
                    held[name] = set(value)
            return held
        if specimens:
            try:
                found = self.surface.probe(self.surface.recipes[specimens[0][0]], keys_of_mappings)
            except (Exception, TimeLimit):  # noqa: BLE001 (nothing built: no mapping to spread)
                found = {}
        cache[cls] = found
        return found

    @staticmethod
    def _property_named(cls, parameter_name):
        """The public property of `cls` a parameter is named after (`target_resource_params`
        -> `resource_params`: the longest tail of its words that names one; `wires` -> `wires`,
        an operator's static `compute_decomposition(phi, wires)` beside its `wires`), or None."""
        words = parameter_name.split("_")
        # the whole name, or a tail of two words or more: `n_wires` is no `wires`
        for start in range(max(1, len(words) - 1)):
            name = "_".join(words[start:])
            if isinstance(inspect.getattr_static(cls, name, None), (property, functools.cached_property)):
                return name
        return None

    def _property_options(self, target, parameter, specimens):
        """A class's own method that takes what its instances hold: a parameter named after a
        public property of the class (`target_resource_params` beside `resource_params`), or
        the VAR_KEYWORD stand-in of a spread mapping, is that property of an instance,
        [("property", (specimen, name))], or None."""
        if target.owner is None or target.kind not in ("classmethod", "staticmethod"):
            return None
        # instances of the class itself: a base class's method given a subclass's mapping is
        # a call no one makes (ResourceOperator.adjoint_resource_decomp(**BasisEmbedding's))
        own = [s for s in specimens(target.owner) if s is None or self._exactly(s, target.owner)][:4]
        if parameter.kind == parameter.VAR_KEYWORD:
            return [("property", (specimen, parameter.name)) for specimen in own] or None
        name = self._property_named(target.owner, parameter.name)
        return [("property", (specimen, name)) for specimen in own] or None if name else None

    def _exactly(self, specimen, cls):
        try:
            return type(self.surface.build(specimen)) is cls
        except (Exception, TimeLimit):  # noqa: BLE001 (does not build: not an instance to take from)
            return False

    def _own_first(self, target):
        """specimens(cls) for the arguments of `target`: those its own documentation builds (the
        docstrings of the callable and of its class) when there are any, else any trusted ones.
        What a callable's docs pass it is what it accepts; an object borrowed from another API's
        docs is of the right type but may break a constraint the callee states in prose (a
        complex-coefficient sentence for a real vector space, unnormalized coefficients)."""
        homes = tuple(h for h in (target.subject, self.surface.classes.get(target.owner)) if h)

        own_recipes = sorted((r for r in self.surface.recipes.values() if r.documented and r.origin.startswith(homes)),
                             key=lambda r: r.id)[:4]

        def specimens(cls):
            own = []
            for recipe in own_recipes:
                try:
                    namespace = self.surface.run_recipe(recipe)
                except (Exception, TimeLimit):  # noqa: BLE001 (a program that does not run here builds nothing)
                    continue
                for variable, value in sorted(namespace.items()):
                    if variable.startswith("_") or inspect.isclass(value):
                        continue
                    if isinstance(value, cls):
                        own.append((recipe.id, variable))
                    elif isinstance(value, (list, tuple)):  # `ops = [qp.X(0), qp.X(1)]`: its items
                        own += [(recipe.id, f"{variable}[{i}]") for i, item in enumerate(value[:4])
                                if isinstance(item, cls) and not inspect.isclass(item)]
            return own or self._trusted_specimens(cls)
        return specimens

    def _recipe_stand_ins(self, cls):
        """One stand-in per trusted recipe of `cls`: whether something would build it, without building."""
        return [None for r in self.surface.recipes_for(cls) if r.trusted][:1] or \
            [None for _ in self.surface.producers(cls)][:1]

    def _trusted_specimens(self, cls):
        """Objects the documentation or a configured constructor (RXGate(0.37)) builds: with
        arguments of our own choosing beside them, a bare default-built object (a Target with
        no qubits, an empty Result) makes a call a maintainer would call misuse far more often
        than a defect."""
        return self.surface.specimens(cls, trusted=True)

    def fillable(self, subject):
        """Whether every required parameter has a type the engine reads (without building
        anything: what `qusema surface` and the subject list need), or the reason why not."""
        target = self.targets()[subject]
        doc_types = target.doc_types()
        bare = self._bare_reason(target)
        if bare:
            return bare
        for parameter in self._parameters(target):
            if parameter.kind == parameter.VAR_KEYWORD:
                found = "spread"  # a mapping an instance holds: fillable when something builds one
            else:
                found = self.arguments.options(parameter, doc_types, lambda cls: [None], target.function)
            if isinstance(found, str) and not self._property_options(target, parameter, self._recipe_stand_ins):
                return found
        if target.kind == "method" and not self.surface.can_build(target.owner):
            return f"no documented example or constructor builds a {target.owner.__name__}"
        return True

    # -- building and calling -------------------------------------------------------------------
    def subjects(self):
        try:
            return self._subjects
        except AttributeError:
            self._subjects = [s for s in self.targets() if self.fillable(s) is True]
            return self._subjects

    def form_subjects(self):
        """The callables one of whose arguments can be a literal with an equivalent form."""
        return [s for s in self.subjects() if self._has_forms(s)]

    def _has_forms(self, subject):
        target = self.targets()[subject]
        doc_types = target.doc_types()
        bare = self._bare_reason(target)
        if bare:
            return bare
        for parameter in self._parameters(target):
            found = self.arguments.options(parameter, doc_types, lambda cls: [], target.function)
            text = type_text(parameter, doc_types, target.function)
            if not isinstance(found, str) and any(kind == "literal" and equivalent_forms(value, text)
                                                  for kind, value in found):
                return True
        return False

    def api(self, subject):
        return subject

    def strategy(self, subject, with_form=False):
        from hypothesis import strategies as st

        planned = self.plan(subject)
        if isinstance(planned, str):
            return st.just(planned)  # the check raises it: "raised" with the reason
        receivers, options = planned
        receiver = st.sampled_from(receivers) if receivers else st.just(None)
        arguments = st.tuples(*[st.sampled_from(found) for _, found in options])
        target = self.targets()[subject]
        texts = [type_text(p, target.doc_types(), target.function) for p, _ in options]
        plain = st.tuples(receiver, arguments)
        if not with_form:
            return plain.map(lambda pair: (pair[0], pair[1], None))

        def with_a_form(pair):
            forms = [(i, form) for i, (kind, value) in enumerate(pair[1]) if kind == "literal"
                     for form in equivalent_forms(value, texts[i])]
            return st.sampled_from(forms).map(lambda form: (pair[0], pair[1], form)) if forms else \
                st.just((pair[0], pair[1], None))
        return plain.flatmap(with_a_form)

    def _values(self, subject, example):
        from hypothesis import reject

        receiver, options, form = example
        try:
            obj = self.surface.build(receiver) if receiver is not None else None
            values = []
            for i, (kind, value) in enumerate(options):
                source = form[1] if form is not None and form[0] == i else value
                if kind == "literal":
                    values.append(self._literal(source))
                elif kind == "property":
                    specimen, name = value
                    values.append(getattr(self.surface.build(specimen), name))
                else:
                    built = self.surface.build(value)
                    values.append([built] if kind == "specimens" else built)
        except (Exception, TimeLimit):  # noqa: BLE001 (it built when listed; here it did not: no verdict)
            reject()
        if obj is not None and capability_denied(obj, self.targets()[subject].name):
            reject()  # the receiver documents that it lacks what this method needs (supports_X False)
        if not self._same_kind(subject, obj, options, values):
            reject()
        return obj, values

    def _same_kind(self, subject, obj, options, values):
        """A parameter typed by a base class of the object itself (`other: QuantumState` on a
        state) means an object of the same kind: a density matrix given to a stabilizer
        state's `tensor` is two kinds no one documented to mix."""
        target = self.targets()[subject]
        doc_types = target.doc_types()
        indices = [index for parameter, (kind, _), value in zip(self._parameters(target), options, values)
                   if kind == "literal" and _is_index(parameter.name) for index in _ints_in(value)]
        if len(indices) != len(set(indices)):
            return False  # two qubits (a control, a target) of one call are two different ones
        counts = [value for parameter, (kind, _), value in zip(self._parameters(target), options, values)
                  if kind == "literal" and type(value) is int and is_count(parameter.name)]
        if counts and indices and max(indices) >= min(counts):
            return False  # an index past a count given beside it
        size = _qubits(obj)
        descriptions = documented_descriptions(target.doc)
        for parameter, (kind, _), value in zip(self._parameters(target), options, values):
            if kind != "specimen":
                continue
            fixed = documented_qubit_count(descriptions.get(parameter.name))
            if fixed is not None and _qubits(value) not in (NO_SIZE, fixed):
                return False  # "Two-qubit gate to be used ...": the docs fix its size
            if size is not NO_SIZE and _qubits(value) not in (NO_SIZE, size):
                return False  # an operator of 3 qubits on a state of 2 (or of qutrits): sizes never mixed
            classes = self.arguments.classes_of(type_text(parameter, doc_types, target.function), target.function)
            if obj is not None and any(isinstance(obj, cls) for cls in classes) and type(value) is not type(obj):
                return False
        return True

    def _literal(self, source):
        return eval(source, self._prelude_namespace)  # noqa: S307 (our own literal)

    @functools.cached_property
    def _prelude_namespace(self):
        """The names literals use (np), from the prelude run once, not once per argument."""
        namespace = {}
        exec(compile(self.surface.prelude, "<prelude>", "exec"), namespace)  # noqa: S102
        return namespace

    def _call(self, subject, obj, values):
        target = self.targets()[subject]
        parameters = self._parameters(target)
        positional = [v for p, v in zip(parameters, values) if p.kind not in (p.KEYWORD_ONLY, p.VAR_KEYWORD)]
        keywords = {p.name: v for p, v in zip(parameters, values) if p.kind == p.KEYWORD_ONLY}
        for p, v in zip(parameters, values):
            if p.kind == p.VAR_KEYWORD:
                keywords.update(v)  # what an instance holds, spread: Cls.resource_decomp(**op.resource_params)
        if target.kind == "method":
            function = getattr(obj, target.name)
        elif target.kind == "function":
            function = getattr(sys.modules[target.module], target.name)
        elif target.kind == "constructor":
            function = target.owner
        else:
            function = getattr(target.owner, target.name)
        with _quiet(), time_limit(CALL_S):
            return function(*positional, **keywords)

    # 1. no internal error -------------------------------------------------------------------------
    def crash_check(self, subject, example):
        from hypothesis import reject

        if isinstance(example, str):
            raise LookupError(example)
        obj, values = self._values(subject, example)
        try:
            self._call(subject, obj, values)
        except TimeLimit:
            reject()
        except BaseException as exc:  # noqa: BLE001 (a panic is a BaseException: triaged like the rest)
            if is_panic(exc):
                if OUT_OF_BOUNDS_PANIC.search(str(exc)):
                    reject()  # Rust's IndexError: with guessed values, an unstated range explains it
                raise  # any other panic: the runtime files it under the no-panic law
            if not isinstance(exc, Exception):
                raise
            where = internal_error(exc, self.surface.library)
            if where is None or isinstance(exc, OUT_OF_RANGE) or \
                    needs_another_call_first(exc, obj, self.surface.is_bare(example[0])) or \
                    self._left_a_placeholder(subject, exc) or _our_sequence_read_as_an_array(exc, values) or \
                    _failed_on_a_held_none(exc, example[1], values) or \
                    symbolic_where_numbers_needed(exc, [obj, *_leaf_values(values)]):
                reject()
            raise AssertionError(f"{self.describe(subject, example)} raised an internal error: "
                                 f"{type(exc).__name__}: {exc} (raised at {where})") from exc

    def _left_a_placeholder(self, subject, exc):
        """A None-error of a call that left an optional parameter at a default of None its
        docs type as something None is not (`precision (float)`): that None stands for a value
        the caller or a configuration gives (PennyLane's resource estimates fill precision from
        the estimate's config), and the call was made without it."""
        if "NoneType" not in str(exc):
            return False
        target = self.targets()[subject]
        filled = {p.name for p in self._parameters(target)}
        doc_types = target.doc_types()
        prose = documented_descriptions(target.doc)
        try:
            parameters = target.signature().parameters.values()
        except (TypeError, ValueError):
            return False
        innermost = _innermost_locals(exc)
        for parameter in parameters:
            if parameter.name in filled or parameter.default is not None:
                continue
            if parameter.name not in innermost or innermost[parameter.name] is not None:
                continue  # the None that failed is not this default's (liealg.C's `wire`)
            if re.search(r"\bNone\b|\bdefaults?\b", prose.get(parameter.name, ""), re.IGNORECASE):
                continue  # the docs say what None does ("will default to 0 if None", "Defaults to [0]")
            # the docstring's type first: an annotation `float | None` beside docs that say
            # `precision (float)` and define None as "the configured precision" is the sentinel;
            # but not prose the parser took for a type (`breakpoints: The breakpoints to ...`)
            documented = doc_types.get(parameter.name, "")
            looks_typed = bool(_TYPE_TEXT.fullmatch(documented)) and len(documented.split()) <= 5
            text = documented if looks_typed else type_text(parameter, {}, target.function)
            if text and not re.search(r"\bNone\b|optional|Optional", text):
                return True
        return False

    # 2. equal inputs, equal answers -------------------------------------------------------------------
    def agree_check(self, subject, example):
        from hypothesis import reject

        if isinstance(example, str):
            raise LookupError(example)
        if example[2] is None:
            reject()  # no argument has another form
        answers = []
        for form in (None, None, example[2]):
            obj, values = self._values(subject, (example[0], example[1], form))
            try:
                answers.append(self._call(subject, obj, values))
            except BaseException as exc:  # noqa: BLE001 (errors and panics are the crash law's; no verdict here)
                if isinstance(exc, (Exception, TimeLimit)) or is_panic(exc):
                    reject()
                raise
        with _quiet():
            if not same_value(answers[0], answers[1]):  # noqa: F821 (defined by COMPARE_SOURCE)
                reject()  # not deterministic on equal inputs: no answer to hold it to
            agree = same_value(answers[0], answers[2])  # noqa: F821
        index, form = example[2]
        assert agree, (f"{self.describe(subject, example)} answers {_short(answers[0])}, but with argument "
                       f"{index + 1} given as {form} it answers {_short(answers[2])}")

    # -- reproducers and descriptions ------------------------------------------------------------------
    def describe(self, subject, example):
        if isinstance(example, str):
            return example
        receiver, options, _ = example
        target = self.targets()[subject]
        arguments = ", ".join(v if k == "literal" else
                              f"({self.surface.describe(v[0])}).{v[1]}" if k == "property" else
                              f"[{self.surface.describe(v)}]" if k == "specimens" else self.surface.describe(v)
                              for k, v in options)
        on = f" on {self.surface.describe(receiver)}" if receiver is not None else ""
        return f"{target.subject}({arguments}){on}"

    def _build_source(self, subject, example, form):
        """Source of a function `build()` returning (receiver, [arguments]) built afresh."""
        receiver, options, _ = example
        lines = []
        if receiver is not None:
            lines.append(self.surface.specimen_code(receiver, target="obj"))
        else:
            lines.append("obj = None\n")
        names = []
        for i, (kind, value) in enumerate(options):
            name = f"arg{i}"
            names.append(name)
            if kind == "property":
                lines.append(self.surface.specimen_code(value[0], target=f"{name}_of"))
                lines.append(f"{name} = {name}_of.{value[1]}\n")
            elif kind != "literal":
                lines.append(self.surface.specimen_code(value, target=name))
                if kind == "specimens":
                    lines.append(f"{name} = [{name}]\n")
            else:
                lines.append(f"{name} = {form[1] if form is not None and form[0] == i else value}\n")
        body = "".join(lines) + f"return obj, [{', '.join(names)}]\n"
        return "def build():\n" + "".join("    " + line + "\n" for line in body.splitlines())

    def _call_source(self, subject):
        target = self.targets()[subject]
        parameters = self._parameters(target)
        parts = [f"**values[{i}]" if p.kind == p.VAR_KEYWORD else f"values[{i}]" if p.kind != p.KEYWORD_ONLY
                 else f"{p.name}=values[{i}]" for i, p in enumerate(parameters)]
        if target.kind == "method":
            head = ""
            callee = f"obj.{target.name}"
        elif target.kind == "function":
            head = f"from {target.module} import {target.name}\n"
            callee = target.name
        elif target.kind == "constructor":
            head = f"from {target.owner.__module__} import {target.owner.__name__}\n"
            callee = target.owner.__name__
        else:
            module = target.owner.__module__
            head = f"from {module} import {target.owner.__name__}\n"
            callee = f"{target.owner.__name__}.{target.name}"
        return head, f"def call(obj, values):\n    return {callee}({', '.join(parts)})\n"

    def _reproducer_head(self, subject, example, forms):
        head, call = self._call_source(subject)
        builds = "".join(self._build_source(subject, example, form).replace("def build():", f"def build{k}():", 1)
                         for k, form in enumerate(forms))
        return (TRIAGE_SOURCE.strip("\n") + "\n" + SAME_SOURCE.strip("\n") + "\n" + COMPARE_SOURCE.strip("\n")
                + "\n\n\n" + self.surface.prelude + head + builds + call)

    def crash_reproducer(self, subject, example):
        if isinstance(example, str):
            return f"raise LookupError({example!r})\n"
        return self._reproducer_head(subject, example, [None]) + (
            "obj, values = build0()\n"
            "try:\n"
            "    call(obj, values)\n"
            "except Exception as exc:\n"
            f"    where = internal_error(exc, {self.surface.library!r})\n"
            f"    if where is None or isinstance(exc, {OUT_OF_RANGE_SOURCE}):\n"
            "        raise  # the library's own refusal, or a value out of an unstated range: not this defect\n"
            f"    raise AssertionError(f'{subject} raised an internal error: {{type(exc).__name__}}: {{exc}} "
            "(at {where})') from exc\n")

    def agree_reproducer(self, subject, example):
        if isinstance(example, str) or example[2] is None:
            return f"raise LookupError({str(example)!r})\n"
        index, form = example[2]
        return self._reproducer_head(subject, example, [None, example[2]]) + (
            "first = call(*build0())\n"
            "again = call(*build0())\n"
            "if same_value(first, again):  # deterministic on equal inputs: hold it to that\n"
            "    other = call(*build1())\n"
            f"    assert same_value(first, other), f'{subject}: {{first!r}}, but with argument {index + 1} given "
            f"as {form} instead: {{other!r}}'\n")

    def contracts(self, source):
        lib = self.surface.library
        return [
            Contract(f"{lib}.surface.calls-have-no-internal-error", "API surface",
                     "a public function or method called with arguments of the types its signature or docstring "
                     "gives never fails with an internal error (a builtin error raised inside the library by the "
                     "interpreter or a dependency, not by a raise statement of its own)", source, self.subjects,
                     self.strategy, self.crash_check, self.crash_reproducer, self.api, validity="undocumented",
                     describe=self.describe, kind="crash"),
            Contract(f"{lib}.surface.equal-inputs-agree", "API surface",
                     "a public function or method that answers the same twice on equal inputs answers the same "
                     "again when an argument is given in an equivalent form (a float as numpy's float64, an int as "
                     "numpy's int64, a list as a tuple or an array)", source, self.form_subjects,
                     lambda subject: self.strategy(subject, with_form=True), self.agree_check,
                     self.agree_reproducer, self.api, validity="undocumented", describe=self.describe),
        ]

