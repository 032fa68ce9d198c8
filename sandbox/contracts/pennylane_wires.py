"""Wire hygiene of operators and templates, PennyLane: laws stated once for every operator class
the live library exports (qml.ops, qml and qml.templates), never for one class.

Constructor arguments are filled generically from their names: wire-type arguments (`wires`,
`control_wires`, `target_wires`, `work_wires`, `x_wires`, `work_wire`, `control`, ...) get
disjoint lists of wire labels, integers and strings mixed; angles and features get floats; small
integer parameters small integers; operator-valued arguments (`base`, `U`, `unitary`, `hamiltonian`,
`ops`, ...) an operator built on wires of their own. Which shape of arguments a class accepts is
found by constructing it (`_probe`); a class that accepts none is not a subject, and a drawn input
that the class refuses with an error is rejected, not judged.
Keyword options with documented values (a bool flag, a string option whose values a Literal
annotation or the docstring lists) are also set to their non-default values, one at a time.

Documentation the laws state:
  - `Operator.wires` ("Wires of this operator"), and the wire arguments each class documents
    ("wires on which the operator acts", "the wires the operation acts on"); auxiliary wires are
    named in hyperparameters (work wires) and are the user's to give;
  - `Operator.decomposition` ("Representation of the operator as a product of other operators")
    acts on the operator's wires, plus the auxiliary wires it was given, never on wires the user
    did not give;
  - `Operator.map_wires` ("Returns a copy of the current operator with its wires changed according
    to the given wire map"): the copy is the same operator on the relabelled wires, so each wire the
    operator stores (in `hyperparameters` too: control, target and work wires, a base operator) is
    relabelled and nothing else changes.
"""

import functools
import inspect
import itertools
import math

import numpy as np
import oracle_core
from contract_runtime import Contract

ATOL = 1e-7
MAX_ATTEMPTS = 60      # constructions tried per class when probing its argument shapes
MAX_CONFIGS = 6        # accepted argument shapes kept per class
MAX_OPTION_CONFIGS = 6  # shapes kept per class with a keyword option set to a non-default value
MAX_OPTION_VALUES = 3   # non-default values tried per keyword option
MAX_MATRIX_WIRES = 6   # the map_wires matrix check stays a small dense computation
# Wire labels: integers and strings, mixed; every wire argument takes disjoint labels from here.
POOL = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, "a", "b", "c", "d", "aux", "q0", "q1", "w"]
PROBE_FLOAT = 0.3

OPERATOR_NAMES = {"base", "U", "V", "unitary", "UA", "O", "generator", "target_op", "compute_op",
                  "uncompute_op", "then_op"}
HAMILTONIAN_NAMES = {"hamiltonian", "lcu"}
OPERATOR_LIST_NAMES = {"ops"}
INT_NAMES = {"k", "n", "mod", "order", "value", "dim", "index", "iters", "n_repeats", "num_wires", "shift",
             "n_block_wires", "n_params_block", "select_value", "delta_sz", "subspace", "bits", "num_steps"}
ARRAY_NAMES = {"features", "weights", "params", "state", "state_vector", "angles", "data", "coeffs", "basis_state",
               "probs", "init_state", "hf_state", "initial_layer_weights", "theta", "phi", "permutation"}
SKIP_NAMES = {"id", "_pauli_rep", "_grouping_indices"}


def _is_wires_name(name):
    return name.endswith("wires") or name in ("control", "wires1", "wires2")


def _is_wire_name(name):
    return name.endswith("_wire") or name == "wire"


def _acts_on(name):
    """Wire arguments the operator acts on; work (auxiliary) wires are named in hyperparameters."""
    return "work" not in name


# -- which classes: found in the live library -------------------------------------------------
@functools.lru_cache(maxsize=None)  # noqa: UP033 (older targets run Python 3.8)
def _exported_operator_classes():
    """name -> class, each class once, under its own __name__ when it is exported so."""
    import pennylane as qml
    from pennylane.operation import Operator

    names = {}
    for module in (qml.ops, qml, getattr(qml, "templates", qml)):
        for name in sorted(dir(module)):
            if name.startswith("_"):
                continue
            cls = getattr(module, name, None)
            if inspect.isclass(cls) and issubclass(cls, Operator) and cls.__module__ != "pennylane.operation":
                names.setdefault(cls, set()).add(name)
    return {(cls.__name__ if cls.__name__ in found else min(found)): cls for cls, found in names.items()}


def _qualified(name):
    import pennylane as qml

    cls = _exported_operator_classes()[name]
    for prefix, module in (("qml", qml), ("qml.ops", qml.ops), ("qml.templates", getattr(qml, "templates", None))):
        if module is not None and getattr(module, name, None) is cls:
            return f"{prefix}.{name}"
    return f"qml.{name}"


def _parameters(cls):
    """[(name, required, var_positional)] of the constructor, or None when it has no signature."""
    try:
        parameters = list(inspect.signature(cls.__init__).parameters.values())[1:]
    except (TypeError, ValueError):
        return None
    found = []
    for p in parameters:
        if p.kind is p.VAR_KEYWORD or p.name in SKIP_NAMES:
            continue
        found.append((p.name, p.default is inspect.Parameter.empty and p.kind is not p.VAR_POSITIONAL,
                      p.kind is p.VAR_POSITIONAL))
    return found


def doc_entries(cls, lower=True):
    """name -> (type text, description) of each argument the class docstring lists under Args;
    the description runs on over the more deeply indented lines that follow. Lower-cased
    unless `lower` is False (documented option values keep their case)."""
    import re

    found = {}
    entry = re.compile(r"^([ \t]*)\*{0,2}(\w+)[ \t]*\(([^\n]*?)\)[ \t]*:[ \t]*(.*)$")
    for doc in (cls.__doc__ or "", getattr(cls.__init__, "__doc__", None) or ""):
        lines = doc.splitlines()
        for i, line in enumerate(lines):
            match = entry.match(line)
            if not match:
                continue
            indent, text = len(match.group(1).expandtabs()), [match.group(4)]
            for following in lines[i + 1:]:
                if not following.strip() or len(following) - len(following.lstrip()) <= indent:
                    break
                text.append(following.strip())
            described = (match.group(3), " ".join(text))
            found.setdefault(match.group(2), tuple(part.lower() for part in described) if lower else described)
    return found


def _documented_optional(cls, name):
    """Whether the docs let the user leave a wire argument out: they give its default or call it
    optional (an argument the docs list with neither, e.g. a control register, is required)."""
    if name == "wires":
        return False  # the wires an operator acts on are always the user's to give
    entry = doc_entries(cls).get(name)
    if entry is None:
        return True  # undocumented: the signature's default stands
    return any(word in entry[1] for word in ("default", "optional", "if not provided", "none", "not needed"))


SCALAR_KINDS = [("float", None), ("int", None)]
ARRAY_KINDS = [("vec", None), ("layers", None), ("layers3", None), ("bits", None), ("state", None),
               ("unitary", None)]


def _candidates(cls, name, required, var_positional):
    """Argument kinds to try for one parameter, most likely first: (kind, size). The class
    docstring's type for the argument, when it gives one, decides what kind of value it is."""
    if var_positional:
        count = cls.num_params if isinstance(getattr(cls, "num_params", None), int) else 0
        ndim = getattr(cls, "ndim_params", None)
        if isinstance(ndim, tuple) and any(ndim):
            return []  # positional array parameters (a matrix, a state): not generated by this family
        return [("floats", count)]
    if (_is_wires_name(name) or _is_wire_name(name)) and not required and not _documented_optional(cls, name):
        required = True
    if _is_wires_name(name):
        sizes = [("wires", 2), ("wires", 1), ("wires", 3), ("wires", 4)]
        return sizes if required else [("omit", None)] + sizes[:3]
    if _is_wire_name(name):
        return [("wire", 1)] if required else [("omit", None), ("wire", 1)]
    if not required:
        return [("omit", None)]
    if name == "permutation":
        return [("perm", None)]
    if name == "pauli_word":
        return [("pauli", None)]
    doc_type, description = doc_entries(cls).get(name, (None, ""))
    if doc_type is not None:
        if "operator" in doc_type or "operation" in doc_type or "hamiltonian" in doc_type:
            if any(word in doc_type for word in ("list", "sequence", "iterable", "tuple")):
                return [("oplist", 2), ("oplist", 4)]
            if name in HAMILTONIAN_NAMES or "hamiltonian" in doc_type or "linearcombination" in doc_type:
                return [("ham", 2), ("ham", 1)]
            return [("op", 1), ("op", 2)]
        if any(word in doc_type for word in ("array", "tensor", "matrix")):
            if "hermitian" in description:
                return [("hermitian", None)]
            if "covariance" in description:
                return [("eye2n", None)]
            if "matrix" in description or "matrix" in doc_type:
                return [("unitary", None)]
            return ARRAY_KINDS
        if "int" in doc_type and "float" not in doc_type:
            return [("int", None)]
        if any(word in doc_type for word in ("float", "complex", "int")):
            return SCALAR_KINDS
        return []  # a string, a callable, a measurement value, ...: not generated by this family
    if name in OPERATOR_NAMES:
        return [("op", 1), ("op", 2)]
    if name in HAMILTONIAN_NAMES:
        return [("ham", 2), ("ham", 1)]
    if name in OPERATOR_LIST_NAMES:
        return [("oplist", 2), ("oplist", 4)]
    if name in INT_NAMES:
        return [("int", None), ("float", None), ("vec", None)]
    if name in ARRAY_NAMES:
        return [("vec", None), ("float", None), ("layers", None), ("layers3", None), ("bits", None),
                ("state", None), ("int", None)]
    return [("float", None), ("int", None), ("vec", None), ("bits", None), ("state", None)]


# The three functions below are printed into the reproducers of inputs that set a documented
# option (_options_source), so a reproducer reads the same on a release that renamed the
# option's values (PennyLane's work_wire_type "clean" became "zeroed"): there the literal
# would be refused, and a version flip could not show whether the defect was fixed.
def option_values(cls, name, limit):
    """The documented values of the constructor's keyword option `name` other than its
    default (at most `limit`): a bool flag's other value, a string option's other values (from
    a Literal annotation, else the strings quoted in the class docstring's entry for it)."""
    import inspect
    import re
    import typing

    try:
        parameter = inspect.signature(cls.__init__).parameters[name]
    except (TypeError, ValueError, KeyError):
        return []
    default = parameter.default
    if isinstance(default, bool):
        return [not default]
    if not isinstance(default, str):
        return []
    values = []
    annotations = [parameter.annotation]
    while annotations:
        annotation = annotations.pop()
        if typing.get_origin(annotation) is typing.Literal:
            values.extend(v for v in typing.get_args(annotation) if isinstance(v, str))
        elif typing.get_args(annotation):
            annotations.extend(typing.get_args(annotation))
    if not values:
        entry = doc_entries(cls, lower=False).get(name)
        # the Args entry, else the prose that spells the option out (``rotation='X'``)
        text = " ".join(entry) if entry is not None else ""
        text += " " + " ".join(re.findall(rf"""{name}\s*=\s*(["'][A-Za-z][\w-]*["'])""", cls.__doc__ or ""))
        values = re.findall(r"""["'`]+([A-Za-z][\w-]*)["'`]+""", text)
    return [v for v in dict.fromkeys(values) if v != default][:limit]


def documented_option(cls, name, value, audited, limit):
    """`value` where this release documents it for option `name`; where it does not, the
    value at the same place among this release's documented alternatives to the default, if
    they are as many as `audited` (the alternatives where the input was drawn): the values
    were renamed, not added or removed. Anything else keeps `value`, to be refused loudly."""
    import inspect

    here = option_values(cls, name, limit)
    default = inspect.signature(cls.__init__).parameters[name].default
    if value == default or value in here or value not in audited or len(here) != len(audited):
        return value
    return here[audited.index(value)]


def _option_values(cls, parameter):
    """The documented values of a keyword option other than its default. Defaults alone would
    hide a copy (map_wires, an adjoint) that resets an option the user set."""
    if parameter.name in SKIP_NAMES:
        return []
    return option_values(cls, parameter.name, MAX_OPTION_VALUES)


@functools.lru_cache(maxsize=None)  # noqa: UP033
def _options_source():
    return "\n\n" + "\n\n".join(inspect.getsource(f) for f in (doc_entries, option_values, documented_option))


def _options(cls):
    """(name, other values) of each keyword option of the constructor with documented values."""
    try:
        parameters = list(inspect.signature(cls.__init__).parameters.values())[1:]
    except (TypeError, ValueError):
        return []
    found = []
    for parameter in parameters:
        if parameter.kind is parameter.VAR_KEYWORD or parameter.kind is parameter.VAR_POSITIONAL:
            continue
        values = _option_values(cls, parameter)
        if values:
            found.append((parameter.name, values))
    return found


def _configs_of(cls):
    """Every combination of candidate kinds, most likely first, as ((name, kind, size), ...)."""
    parameters = _parameters(cls)
    if parameters is None:
        return None, []
    if not any(_is_wires_name(n) or _is_wire_name(n) for n, _, _ in parameters) and \
            not any(n in OPERATOR_NAMES | HAMILTONIAN_NAMES | OPERATOR_LIST_NAMES for n, _, _ in parameters):
        return None, []  # no wire argument and no operator argument: nothing of this family
    options = [[(name, kind, size) for kind, size in _candidates(cls, name, required, var)]
               for name, required, var in parameters]
    return parameters, itertools.islice(itertools.product(*options), MAX_ATTEMPTS)


# -- drawn values: (kind, ...) tuples, built into objects and written down as source -----------
def _n_wires(config, labels):
    """The width array arguments are sized by: the first plural wire argument's."""
    for name, kind, size in config:
        if kind == "wires":
            return size
    return max(1, sum(size for _, kind, size in config if kind in ("op", "ham")))


def _unitary(size, seed):
    return oracle_core.haar_unitary(np.random.default_rng(seed), size)


def _value(name, kind, size, n, labels, floats, ints):
    """One argument's value spec from drawn labels (an iterator), floats and small ints."""
    if kind == "option":  # a keyword option's documented value, carried in the size slot
        return ("literal", size)
    if kind == "floats":
        return ("floats", [next(floats) for _ in range(size)])
    if kind == "wires":
        return ("wires", [next(labels) for _ in range(size)])
    if kind == "wire":
        return ("wire", next(labels))
    if kind == "float":
        return ("float", next(floats))
    if kind == "int":
        return ("int", next(ints))
    if kind == "vec":
        return ("array", [next(floats) for _ in range(n)])
    if kind == "bits":
        return ("array", [next(ints) % 2 for _ in range(n)])
    if kind == "layers":
        return ("array", [[next(floats) for _ in range(n)]])
    if kind == "layers3":
        return ("array", [[[next(floats) for _ in range(3)] for _ in range(n)]])
    if kind == "state":
        vector = np.array([abs(next(floats)) + 0.1 for _ in range(2 ** n)])
        return ("array", (vector / np.linalg.norm(vector)).tolist())
    if kind == "pauli":
        return ("str", "".join("XYZ"[next(ints) % 3] for _ in range(n)))
    if kind == "unitary":
        return ("array", np.round(_unitary(2 ** n, next(ints)), 12).tolist())
    if kind == "hermitian":
        u = np.round(_unitary(2 ** n, next(ints)), 12)
        return ("array", (u + u.conj().T).tolist())
    if kind == "eye2n":
        return ("array", np.eye(2 * n).tolist())
    if kind == "op":
        return ("op", next(floats), [next(labels) for _ in range(size)])
    if kind == "ham":
        wires = [next(labels) for _ in range(size)]
        return ("ham", [next(floats) for _ in wires], wires)
    if kind == "oplist":
        wires = [next(labels)]
        return ("oplist", [(next(floats), wires) for _ in range(size)])
    raise ValueError(kind)


def _object(spec):
    import pennylane as qml

    kind = spec[0]
    if kind in ("wires", "floats"):
        return list(spec[1])
    if kind in ("wire", "float", "int", "str", "literal"):
        return spec[1]
    if kind == "array":
        return np.array(spec[1])
    if kind == "op":
        return qml.MultiRZ(spec[1], wires=list(spec[2]))
    if kind == "ham":
        return qml.dot(list(spec[1]), [qml.PauliZ(w) for w in spec[2]])
    if kind == "oplist":
        return [qml.MultiRZ(theta, wires=list(wires)) for theta, wires in spec[1]]
    raise ValueError(kind)


def _text(spec):
    kind = spec[0]
    if kind in ("wires", "floats"):
        return repr(list(spec[1]))
    if kind in ("wire", "float", "int", "str", "literal"):
        return repr(spec[1])
    if kind == "array":
        return f"np.array({spec[1]!r})"
    if kind == "op":
        return f"qml.MultiRZ({spec[1]!r}, wires={list(spec[2])!r})"
    if kind == "ham":
        return f"qml.dot({list(spec[1])!r}, [{', '.join(f'qml.PauliZ({w!r})' for w in spec[2])}])"
    if kind == "oplist":
        return "[" + ", ".join(f"qml.MultiRZ({t!r}, wires={list(w)!r})" for t, w in spec[1]) + "]"
    raise ValueError(kind)


def _spec_wires(spec):
    """The wire labels one argument names (an operator argument: its operator's wires)."""
    kind = spec[0]
    if kind in ("wires", "op"):
        return list(spec[-1])
    if kind == "wire":
        return [spec[1]]
    if kind == "ham":
        return list(spec[2])
    if kind == "oplist":
        return list(dict.fromkeys(w for _, wires in spec[1] for w in wires))
    return []


def _draw(config, labels, floats, ints):
    labels, floats, ints = iter(labels), itertools.cycle(floats), itertools.cycle(ints)
    n = _n_wires(config, labels)
    args = []
    for name, kind, size in config:
        if kind == "omit":
            continue
        if kind != "perm":
            args.append((name, _value(name, kind, size, n, labels, floats, ints)))
    for name, kind, size in config:
        if kind == "perm":  # a permutation of the operator's wires: its first wire argument, reversed
            wires = next((spec[1] for _, spec in args if spec[0] == "wires"), [])
            args.append((name, ("wires", list(wires)[::-1])))
    return tuple(args)


def _construct(subject, args):
    import warnings

    cls = _exported_operator_classes()[subject]
    positional, keywords = [], {}
    for (name, _, var) in _parameters(cls):
        for arg_name, spec in args:
            if arg_name == name:
                if var:
                    positional.extend(_object(spec))
                else:
                    keywords[name] = _object(spec)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cls(*positional, **keywords)


def _call_text(subject, args, portable=False):
    """The constructor call, as source. `portable`: for a reproducer, with each documented
    option value looked up on the release that runs it (documented_option), so a renamed value
    does not turn a version flip into a refusal."""
    cls = _exported_operator_classes()[subject]
    var_names = {name for name, _, var in _parameters(cls) if var}
    parameters = dict(inspect.signature(cls.__init__).parameters) if portable else {}
    parts = []
    for name, spec in args:
        if name in var_names:
            parts.extend(repr(x) for x in spec[1])
        elif spec[0] == "literal" and isinstance(spec[1], str) and name in parameters:
            audited = _option_values(cls, parameters[name])
            parts.append(f"{name}=documented_option({_qualified(subject)}, {name!r}, {spec[1]!r}, {audited!r}, "
                         f"{MAX_OPTION_VALUES})")
        else:
            parts.append(f"{name}={_text(spec)}")
    return f"{_qualified(subject)}({', '.join(parts)})"


def _reproducer_header(subject, args):
    """The imports and helpers a reproducer of `args` starts with."""
    call = _call_text(subject, args, portable=True)
    return HEADER + HELPERS_SOURCE + (_options_source() if "documented_option(" in call else ""), call


# -- probing: which argument shapes each class accepts ------------------------------------------
@functools.lru_cache(maxsize=None)  # noqa: UP033
def _accepted_configs(subject):
    """Argument shapes the class accepts on plain integer wires (at most MAX_CONFIGS)."""
    cls = _exported_operator_classes()[subject]
    parameters, configs = _configs_of(cls)
    if parameters is None:
        return ()
    accepted = []
    for config in configs:
        args = _draw(config, range(len(POOL)), [PROBE_FLOAT, 0.7, 0.2], [1, 2, 3])
        try:
            op = _construct(subject, args)
        except Exception:  # noqa: BLE001, S112 (a refusal: this shape is not one the class takes)
            continue
        if not _given_wires(args):
            continue
        try:
            op.wires  # noqa: B018 (an operator that cannot report its wires is not of this family)
        except Exception:  # noqa: BLE001, S112
            continue
        accepted.append(config)
        if len(accepted) >= MAX_CONFIGS:
            break
    return tuple(accepted) + _option_configs(subject, accepted)


def _option_configs(subject, accepted):
    """Accepted shapes with one keyword option set to another documented value, for each
    option and value the class takes there (at most MAX_OPTION_CONFIGS): an option can matter
    only together with other arguments (a work wire type with work wires)."""
    cls = _exported_operator_classes()[subject]
    variants = []
    for config in accepted:
        for name, values in _options(cls):
            for value in values:
                if len(variants) >= MAX_OPTION_CONFIGS:
                    return tuple(variants)
                variant = tuple(item for item in config if item[0] != name) + ((name, "option", value),)
                try:
                    _construct(subject, _draw(variant, range(len(POOL)), [PROBE_FLOAT, 0.7, 0.2], [1, 2, 3]))
                except Exception:  # noqa: BLE001, S112 (a value this shape does not take)
                    continue
                variants.append(variant)
    return tuple(variants)


@functools.lru_cache(maxsize=None)  # noqa: UP033
def _subjects():
    return sorted(name for name in _exported_operator_classes() if _accepted_configs(name))


def _strategy(subject):
    from hypothesis import strategies as st

    configs = _accepted_configs(subject)
    floats = st.one_of(st.sampled_from([0.0, 0.5, 1.0, math.pi / 2]),
                       st.floats(min_value=-math.pi, max_value=math.pi, allow_nan=False))
    return st.tuples(st.sampled_from(configs), st.permutations(POOL),
                     st.lists(floats, min_size=3, max_size=3),
                     st.lists(st.integers(min_value=0, max_value=3), min_size=3, max_size=3)
                     ).map(lambda t: _draw(*t))


def _build(subject, args):
    """The operator, or a rejected draw when the class refuses these arguments with an error."""
    from hypothesis import assume

    try:
        return _construct(subject, args)
    except Exception:  # noqa: BLE001 (a documented refusal is out of the law's domain)
        assume(False)


def _given_wires(args):
    return list(dict.fromkeys(w for _, spec in args for w in _spec_wires(spec)))


def _acted_wires(args):
    return list(dict.fromkeys(w for name, spec in args if _acts_on(name) for w in _spec_wires(spec)))


# Printed into reproducers, so they compare exactly as the checks do.
HELPERS_SOURCE = """
def leaves(value, depth=0):
    if isinstance(value, (list, tuple)) and depth < 4:
        return [leaf for v in value for leaf in leaves(v, depth + 1)]
    return [value]


def same(a, b, depth=0):
    if depth > 6:
        return True
    if isinstance(a, qml.operation.Operator) or isinstance(b, qml.operation.Operator):
        return isinstance(a, qml.operation.Operator) and isinstance(b, qml.operation.Operator) and qml.equal(a, b)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k], depth + 1) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same(x, y, depth + 1) for x, y in zip(a, b))
    if callable(a) and not isinstance(a, np.ndarray):
        return a is b or a == b
    try:
        if isinstance(a, str) or isinstance(b, str) or a is None or b is None:
            return a == b
        return bool(np.array_equal(np.asarray(a), np.asarray(b)))
    except Exception:
        return a is b or a == b
"""


def _helpers():
    import pennylane as qml

    namespace = {"np": np, "qml": qml}
    exec(HELPERS_SOURCE, namespace)  # noqa: S102 (our own source, shared with the reproducers)
    return namespace


def _leaves(value):
    return _helpers()["leaves"](value)


def _same(a, b):
    return _helpers()["same"](a, b)


def _wire_valued(cls, key, value, given):
    """Whether a hyperparameter that is neither Wires nor an operator holds wire labels: its key
    names wires (work_wire, control_wires, ...; not a count such as n_wires), or it is a list of
    given wire labels whose docstring type or description says it is wires (IQPEmbedding's pattern:
    "specifies the wires ...", Permute's permutation: "a list of wire labels"; not a value that is
    only about wires, such as control_values: "the values on the control wires")."""
    import re

    if value is None or re.match(r"^(n|num)_", key):
        return False
    if "wire" in key or key in ("control", "controls"):
        # a string that is no given wire is an option about wires (work_wire_type='zeroed')
        return not (isinstance(value, str) and value not in given)
    if isinstance(value, (list, tuple)) and value:
        doc_type, description = doc_entries(cls).get(key, ("", ""))
        labels = _leaves(value)
        says_wires = ("wire" in doc_type or "wire label" in description
                      or re.match(r"^(specifies |list containing |a list of |list of )?(the )?wires?\b", description))
        return bool(says_wires) and all(
            not isinstance(w, (bool, np.bool_)) and _hashable(w) and w in given for w in labels)
    return False


def _hashable(value):
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _hyperparameter_wires(cls, hyperparameters, given):
    """Wires named in op.hyperparameters: Wires objects, operators' wires, wire-valued lists."""
    from pennylane.operation import Operator
    from pennylane.wires import Wires

    found = []
    for key, value in hyperparameters.items():
        items = value if isinstance(value, (list, tuple)) else [value]
        for item in items:
            if isinstance(item, Wires):
                found.extend(item)
            elif isinstance(item, Operator):
                found.extend(item.wires)
        if not isinstance(value, Wires) and _wire_valued(cls, key, value, given):
            found.extend(w for w in _leaves(value) if not isinstance(w, (Wires, Operator)))
    return found


def _api(subject):
    return f"pennylane.{_qualified(subject)[len('qml.'):]}"


HEADER = "import numpy as np\nimport pennylane as qml\n\n"


# -- law 1: wires are declared ----------------------------------------------------------------------
def _decomposition(op):
    """op.decomposition(), or None when the class defines none or refuses loudly for this input."""
    from pennylane.operation import DecompositionUndefinedError

    try:
        return op.decomposition()
    except DecompositionUndefinedError:
        return None
    except Exception:  # noqa: BLE001 (a loud refusal is not a silent wrong result: nothing to judge)
        return None


def _check_declared(subject, args):
    op = _build(subject, args)
    text = _call_text(subject, args)
    wires = list(op.wires)
    assert None not in wires, f"{text}.wires contains None: {wires}"
    missing = [w for w in _acted_wires(args) if w not in wires]
    assert not missing, f"{text}.wires is {wires}: the wires {missing} it was given to act on are missing"
    given = set(_given_wires(args))
    invented = [w for w in wires if w not in given]
    assert not invented, f"{text}.wires is {wires}: it names wires {invented} the user did not give"
    decomposition = _decomposition(op)
    if decomposition is None:
        return
    named = set(wires) | set(_hyperparameter_wires(type(op), dict(op.hyperparameters), given))
    for inner in decomposition:
        used = list(inner.wires)
        outside = [w for w in used if w not in given]
        assert not outside, (f"{text}.decomposition() has {inner!r} acting on wires {outside} that the user did "
                             f"not give (given: {sorted(given, key=repr)})")
        unnamed = [w for w in used if w not in named]
        assert not unnamed, (f"{text}.decomposition() has {inner!r} acting on wires {unnamed} that are neither "
                             f"in op.wires {wires} nor named in op.hyperparameters")


def _wire_keys(op, given):
    """Hyperparameters holding wire labels other than as Wires objects or operators."""
    from pennylane.operation import Operator
    from pennylane.wires import Wires

    return sorted(key for key, value in op.hyperparameters.items()
                  if not isinstance(value, (Wires, Operator)) and _wire_valued(type(op), key, value, given))


def _reproducer_wire_keys(subject, args):
    """The wire-valued hyperparameter keys a reproducer checks; none when the op cannot be
    built here (the reproducer then states the law on op.wires alone)."""
    try:
        return _wire_keys(_construct(subject, args), set(_given_wires(args)))
    except Exception:  # noqa: BLE001
        return []


def _reproduce_declared(subject, args):
    header, call = _reproducer_header(subject, args)
    wire_keys = _reproducer_wire_keys(subject, args)
    return header + (
        f"\n\nop = {call}\n"
        f"given = {_given_wires(args)!r}  # every wire label passed to the constructor\n"
        f"acted_on = {_acted_wires(args)!r}  # the wire arguments the operator acts on\n"
        "assert None not in list(op.wires), f'op.wires contains None: {op.wires}'\n"
        "assert all(w in op.wires for w in acted_on), f'op.wires {op.wires} misses some of {acted_on}'\n"
        "assert all(w in given for w in op.wires), f'op.wires {op.wires} names wires not given: {given}'\n"
        "named = set(op.wires)\n"
        "for key, value in op.hyperparameters.items():\n"
        "    for item in (value if isinstance(value, (list, tuple)) else [value]):\n"
        "        if isinstance(item, (qml.wires.Wires, qml.operation.Operator)):\n"
        "            named |= set(item if isinstance(item, qml.wires.Wires) else item.wires)\n"
        f"    if key in {wire_keys!r}:  # wire-valued hyperparameters (by name or docstring)\n"
        "        named |= set(leaves(value))\n"
        "try:\n"
        "    decomposition = op.decomposition()\n"
        "except qml.operation.DecompositionUndefinedError:\n"
        "    decomposition = []\n"
        "for inner in decomposition:\n"
        "    assert all(w in given for w in inner.wires), f'{inner} acts on wires the user did not give: {given}'\n"
        "    assert all(w in named for w in inner.wires), (\n"
        "        f'{inner} acts on wires neither in op.wires {op.wires} nor in op.hyperparameters')\n")


# -- law 2: map_wires maps hyperparameters ----------------------------------------------------------
def _map_strategy(subject):
    from hypothesis import strategies as st

    return st.tuples(_strategy(subject), st.integers(min_value=0, max_value=2 ** 16))


def _wire_map(args, seed):
    """An injective relabelling of every given wire: shuffled among themselves and onto new labels."""
    given = _given_wires(args)
    fresh = [f"m{i}" for i in range(len(given))] + [100 + i for i in range(len(given))]
    rng = np.random.default_rng(seed)
    targets = list(given) + fresh
    order = rng.permutation(len(targets))[:len(given)]
    return {w: targets[i] for w, i in zip(given, order)}


def _is_wire_key(key):
    return "wire" in key or key in ("control", "controls")


def _mapped_value(value, wire_map, depth=0):
    """The wire-valued hyperparameter `value` with each wire relabelled, as a list of labels
    (operators: their wires), or None when the value holds no wires."""
    from pennylane.operation import Operator
    from pennylane.wires import Wires

    if isinstance(value, Operator):
        return [wire_map.get(w, w) for w in value.wires]
    if isinstance(value, Wires):
        return [wire_map.get(w, w) for w in value]
    return None


def _check_map(subject, example):
    import pennylane as qml
    from pennylane.operation import Operator
    from pennylane.wires import Wires

    args, seed = example
    op = _build(subject, args)
    wire_map = _wire_map(args, seed)
    text = f"{_call_text(subject, args)}.map_wires({wire_map!r})"
    before = dict(op.hyperparameters)
    try:
        mapped = op.map_wires(wire_map)
    except NotImplementedError:
        return  # a loud refusal (e.g. HilbertSchmidt): no silent result to judge

    expected = [wire_map.get(w, w) for w in op.wires]
    assert list(mapped.wires) == expected, f"{text}.wires is {list(mapped.wires)}, expected {expected}"
    hyper = dict(mapped.hyperparameters)
    # a map that hands back another class (a controlled X on two controls and no work wires is
    # a Toffoli: PennyLane's canonical form) has that class's hyperparameters; the matrix below
    # still says whether it is the same operator on the new wires
    same_class = type(mapped) is type(op)
    assert not same_class or hyper.keys() == before.keys(), (
        f"{text} has hyperparameters {sorted(hyper)}, expected {sorted(before)}")
    for key, value in before.items() if same_class else ():
        new = hyper[key]
        if isinstance(value, (Wires, Operator)):
            want = _mapped_value(value, wire_map)
            got = _mapped_value(new, {}) if isinstance(new, (Wires, Operator)) else \
                list(new) if isinstance(new, (list, tuple)) else new
            assert got == want, f"{text}: hyperparameter {key!r} is {new!r}, expected wires {want}"
            if isinstance(value, Operator):
                assert _same(list(value.data), list(new.data)), f"{text}: hyperparameter {key!r} changed its data"
        elif isinstance(value, (list, tuple)) and value and all(isinstance(v, Operator) for v in value):
            assert isinstance(new, (list, tuple)) and len(new) == len(value), f"{text}: {key!r} is {new!r}"
            for a, b in zip(value, new):
                want = [wire_map.get(w, w) for w in a.wires]
                assert list(b.wires) == want, f"{text}: operator {a!r} in {key!r} became {b!r}, expected wires {want}"
        elif _wire_valued(type(op), key, value, set(wire_map)):
            want = [wire_map.get(w, w) for w in _leaves(value)]
            assert new is not None and _leaves(new) == want, (
                f"{text}: wire hyperparameter {key!r} is {new!r}, expected the wires {want}")
        else:
            assert _same(value, new), f"{text}: hyperparameter {key!r} changed from {value!r} to {new!r}"
    assert _same(list(op.data), list(mapped.data)), f"{text} changed the data from {op.data} to {mapped.data}"
    if len(op.wires) <= MAX_MATRIX_WIRES and op.has_matrix:
        try:
            original = np.asarray(qml.matrix(op, wire_order=list(op.wires)), dtype=complex)
        except Exception:  # noqa: BLE001 (no matrix after all: nothing to compare)
            return
        relabelled = np.asarray(qml.matrix(mapped, wire_order=expected), dtype=complex)
        deviation = float(np.max(np.abs(original - relabelled))) if original.shape == relabelled.shape else math.inf
        assert deviation < ATOL, f"{text} changed the matrix beyond relabelling (max deviation {deviation:.3g})"


def _reproduce_map(subject, example):
    args, seed = example
    header, call = _reproducer_header(subject, args)
    wire_map = _wire_map(args, seed)
    wire_keys = _reproducer_wire_keys(subject, args)
    return header + (
        f"\n\nop = {call}\n"
        f"wire_map = {wire_map!r}\n"
        "before = dict(op.hyperparameters)\n"
        "mapped = op.map_wires(wire_map)\n"
        "expected = [wire_map.get(w, w) for w in op.wires]\n"
        "assert list(mapped.wires) == expected, f'mapped wires {mapped.wires}, expected {expected}'\n"
        "assert mapped.hyperparameters.keys() == before.keys(), 'map_wires changed the hyperparameter keys'\n"
        "for key, value in before.items():\n"
        "    new = mapped.hyperparameters[key]\n"
        "    if isinstance(value, qml.wires.Wires):\n"
        "        want = [wire_map.get(w, w) for w in value]\n"
        "        assert list(new) == want, f'hyperparameter {key}: {new!r}, expected wires {want}'\n"
        "    elif isinstance(value, qml.operation.Operator):\n"
        "        want = [wire_map.get(w, w) for w in value.wires]\n"
        "        assert list(new.wires) == want, f'hyperparameter {key}: {new!r}, expected wires {want}'\n"
        "        assert same(list(value.data), list(new.data)), f'hyperparameter {key} changed its data'\n"
        "    elif isinstance(value, (list, tuple)) and value and all(isinstance(v, qml.operation.Operator) for v in value):\n"
        "        assert len(new) == len(value), f'hyperparameter {key}: {new!r}'\n"
        "        for a, b in zip(value, new):\n"
        "            assert list(b.wires) == [wire_map.get(w, w) for w in a.wires], f'{key}: {a!r} became {b!r}'\n"
        f"    elif key in {wire_keys!r}:  # wire-valued hyperparameters (by name or docstring)\n"
        "        want = [wire_map.get(w, w) for w in leaves(value)]\n"
        "        assert new is not None and leaves(new) == want, f'hyperparameter {key}: {new!r}, expected {want}'\n"
        "    else:\n"
        "        assert same(value, new), f'hyperparameter {key} changed from {value!r} to {new!r}'\n"
        "assert same(list(op.data), list(mapped.data)), 'map_wires changed the data'\n"
        f"if len(op.wires) <= {MAX_MATRIX_WIRES} and op.has_matrix:\n"
        "    original = qml.matrix(op, wire_order=list(op.wires))\n"
        "    relabelled = qml.matrix(mapped, wire_order=expected)\n"
        "    deviation = np.max(np.abs(original - relabelled))\n"
        f"    assert deviation < {ATOL}, f'map_wires changed the matrix by {{deviation}}'\n")


def _describe(subject, args):
    return _call_text(subject, args)


def _describe_map(subject, example):
    args, seed = example
    return f"{_call_text(subject, args)}.map_wires({_wire_map(args, seed)!r})"


FAMILY = "construction and operations"

CONTRACTS = [
    Contract("pennylane.operation.wires-are-declared", FAMILY,
             "an operator or template built from wire arguments has no None in op.wires, contains every wire it "
             "was given to act on and no wire it was not given; its decomposition() acts only on given wires that "
             "are in op.wires or named in op.hyperparameters (work wires) — defaults (work_wires=None) invent none",
             "documentation: Operator.wires, Operator.decomposition, Operator.hyperparameters; each class's "
             "wire arguments ('the wires the operation acts on', 'auxiliary wires')",
             _subjects, _strategy, _check_declared, _reproduce_declared, _api, describe=_describe),
    Contract("pennylane.operation.map-wires-maps-hyperparameters", FAMILY,
             "op.map_wires(m) relabels op.wires and every wire-valued hyperparameter (Wires, wire lists, "
             "operators) by m, leaves every other hyperparameter and the data unchanged, and has the original "
             "matrix on the relabelled wires",
             "documentation: Operator.map_wires ('a copy of the current operator with its wires changed according "
             "to the given wire map'), Operator.hyperparameters",
             _subjects, _map_strategy, _check_map, _reproduce_map, lambda s: f"{_api(s)}.map_wires",
             describe=_describe_map),
]
