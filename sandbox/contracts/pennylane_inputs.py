"""Robustness of inputs, PennyLane: a public function whose documentation types an argument as an
array / tensor / sequence of numbers gives the same result whether the caller passes that argument
as a list, a tuple or a numpy array of the same numbers, and never modifies the caller's argument.

The law is stated once for every public function whose own docstring example calls it with a
literal list / tuple / ``np.array([...])`` of numbers; the example is the seed. Subjects are
found in the live library: the plain functions of ``qml`` and of its public submodules
``qml.math``, ``qml.templates``, ``qml.qchem``, ``qml.transforms``, ``qml.fourier``,
``qml.kernels`` and ``qml.pauli`` (``qml.labs`` and ``qml.data`` are left out: experimental,
and downloads). A subject is one docstring example ("pennylane.math.fidelity#3": the fourth
``>>>`` example of that docstring). Which forms an argument may take comes from the type its
docstring's Args section gives it:

  - "tensor" (tensor_like, TensorLike), "array_like", "iterable": list, tuple or np.ndarray
    (pennylane.typing documents TensorLike as including lists and tuples);
  - "sequence": list or tuple (an ndarray is not a collections.abc.Sequence);
  - "list", "tuple", "array" / "ndarray" named in the type: that form; a type admits the union
    ("Union[list, tuple, array]": all three; "list[float] or array": list or array);
  - an argument whose type admits one form only ("array[float]", "np.ndarray", "list[int]"), or
    has no documented type, is left as written.

An example is a subject on a release only when its setup (the docstring's earlier ``>>>`` lines)
and the call with the literal as written run there, quickly, and give the same comparable result
twice from a fresh setup: examples that do not run on the release, and calls whose results are
random or cannot be compared, are rejected. The check re-runs the setup, calls the function with
the literal as written, re-runs the setup, calls it with hypothesis's choice of forms for the
documented array-like literals (same numbers; ``np.array`` of the nested lists, so numpy's dtype),
and compares the results: numerically, recursively through tuples / lists / dicts / arrays,
operators with ``qml.equal`` or, failing that, their matrices. Both arguments are compared with
deep copies taken before the calls. A call that raises on a converted form is not silent: it is
reported as raised, never judged here.
"""

import ast
import contextlib
import copy
import doctest
import functools
import inspect
import io
import re
import warnings

import numpy as np
from contract_runtime import Contract, public_objects, time_limit

MODULES = ["pennylane", "pennylane.math", "pennylane.templates", "pennylane.qchem", "pennylane.transforms",
           "pennylane.fourier", "pennylane.kernels", "pennylane.pauli"]
SHORT = {"pennylane": "qml"}
PRELUDES = ["import numpy as np\nimport pennylane as qml\n",
            # PennyLane's own docs often write np for its autograd-wrapped numpy
            "import pennylane as qml\nfrom pennylane import numpy as np\n"]
SETUP_BUDGET_S = 10.0    # an example whose setup + calls hang past this is not a seed (a guard, not a
                         # timing filter: a busy machine must not change the subject list)
# What a documented type admits: words of the type -> forms. A type admits the union of its words'
# forms; "array[float]" / "np.ndarray" alone admit only an array (PennyLane writes tensor_like or
# Sequence when it means any array-like), "list[int]" alone only a list.
FORMS_BY_DOC = [(r"tensor", ("list", "tuple", "array")), (r"array[_-]?like", ("list", "tuple", "array")),
                (r"iterable", ("list", "tuple", "array")), (r"sequence", ("list", "tuple")),
                (r"\blist\b", ("list",)), (r"\btuple\b", ("tuple",)), (r"array|ndarray", ("array",))]

# Setups that reach the network or the file system are never run (qml.data.load downloads).
UNSAFE_SETUP = re.compile(r"data\.load|\bopen\(|urllib|requests|subprocess|shutil|\bos\.|savefig|to_file|\.write")

# The result comparison, written once: the check runs it, the reproducer embeds it verbatim.
COMPARE_SOURCE = '''
def differs(a, b, path="result"):
    """None when a and b are the same result; else where and how they differ."""
    import numbers
    import numpy as np
    import pennylane as qml
    from pennylane.operation import Operator

    if isinstance(a, Operator) or isinstance(b, Operator):
        if not (isinstance(a, Operator) and isinstance(b, Operator)):
            return f"{path}: {type(a).__name__} vs {type(b).__name__}"
        if qml.equal(a, b):
            return None
        if set(a.wires) != set(b.wires):
            return f"{path}: operators on wires {list(a.wires)} vs {list(b.wires)}"
        order = list(a.wires)
        ma, mb = qml.matrix(a, wire_order=order), qml.matrix(b, wire_order=order)
        if np.shape(ma) != np.shape(mb) or not np.allclose(ma, mb, rtol=1e-6, atol=1e-8):
            return f"{path}: operator {a!r} vs {b!r} (different matrices)"
        return None
    if isinstance(a, dict) or isinstance(b, dict):
        if not (isinstance(a, dict) and isinstance(b, dict)):
            return f"{path}: {type(a).__name__} vs {type(b).__name__}"
        if set(a) != set(b):
            return f"{path}: keys {sorted(map(repr, a))} vs {sorted(map(repr, b))}"
        for key in a:
            found = differs(a[key], b[key], f"{path}[{key!r}]")
            if found:
                return found
        return None
    if a is None or b is None or isinstance(a, (str, bytes)) or isinstance(b, (str, bytes)):
        return None if (type(a) is type(b) and a == b) else f"{path}: {a!r} vs {b!r}"
    numeric = (numbers.Number, np.ndarray, np.generic, list, tuple)
    if isinstance(a, numeric) and isinstance(b, numeric):
        try:
            xa, xb = np.asarray(a), np.asarray(b)
        except Exception:
            xa = xb = None
        if xa is not None and xa.dtype != object and xb.dtype != object:
            if xa.shape != xb.shape:
                return f"{path}: shape {xa.shape} vs {xb.shape}"
            if not np.allclose(xa, xb, rtol=1e-6, atol=1e-8, equal_nan=True):
                return f"{path}: {a!r} vs {b!r}"
            return None
        if isinstance(a, (list, tuple, np.ndarray)) and isinstance(b, (list, tuple, np.ndarray)):
            if len(a) != len(b):
                return f"{path}: length {len(a)} vs {len(b)}"
            for i, (x, y) in enumerate(zip(a, b)):
                found = differs(x, y, f"{path}[{i}]")
                if found:
                    return found
            return None
    if type(a).__eq__ is object.__eq__:
        raise TypeError(f"cannot compare {type(a).__name__} results")
    return None if (type(a) is type(b) and bool(a == b)) else f"{path}: {a!r} vs {b!r}"


def unchanged(before, after):
    """True when the caller's argument is what it was before the call (type and values)."""
    import numpy as np

    if type(before) is not type(after):
        return False
    if isinstance(before, np.ndarray):
        return before.shape == after.shape and before.dtype == after.dtype and np.array_equal(before, after)
    if isinstance(before, (list, tuple)):
        return len(before) == len(after) and all(unchanged(x, y) for x, y in zip(before, after))
    return before == after
'''
_COMPARE = {}
exec(COMPARE_SOURCE, _COMPARE)  # noqa: S102 (the same source the reproducers embed)
differs, unchanged = _COMPARE["differs"], _COMPARE["unchanged"]


# -- literals of numbers -------------------------------------------------------------------
def _number_node(node):
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float, complex)) and not isinstance(node.value, bool)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return _number_node(node.operand)
    # 1 + 2j, and numbers docstrings write as arithmetic of constants: -1/2, 2 * 0.5, 2**-3
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow)):
        return _number_node(node.left) and _number_node(node.right)
    return False


def _sequence_literal(node):
    """A non-empty list / tuple display of numbers, nested to any depth."""
    if isinstance(node, (ast.List, ast.Tuple)) and node.elts:
        return all(_number_node(e) or _sequence_literal(e) for e in node.elts)
    return False


def _literal_form(node):
    """'list' / 'tuple' / 'array' for a literal of numbers written as such, else None."""
    if _sequence_literal(node):
        return "list" if isinstance(node, ast.List) else "tuple"
    if (isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords
            and isinstance(node.func, ast.Attribute) and node.func.attr in ("array", "asarray")
            and isinstance(node.func.value, ast.Name) and node.func.value.id in ("np", "numpy", "onp")
            and _sequence_literal(node.args[0])):
        return "array"
    return None


def _convert(value, form):
    """The same numbers as a nested list, a nested tuple or a plain numpy array."""
    if form == "array":
        return np.array(value)
    nested = np.asarray(value).tolist() if isinstance(value, np.ndarray) else value

    def walk(x):
        if isinstance(x, (list, tuple)):
            items = [walk(y) for y in x]
            return items if form == "list" else tuple(items)
        return x

    return walk(nested)


def _can_take(value, form):
    if form != "array":
        return True
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            return np.array(value).dtype != object
    except Exception:  # noqa: BLE001 (a ragged literal has no array form)
        return False


# -- which functions and examples -----------------------------------------------------------
@functools.lru_cache(maxsize=None)  # noqa: UP033 (older targets run Python 3.8)
def _functions():
    """public dotted name -> function, each function once (its first public name)."""
    found, seen = {}, set()
    for module_name, name, obj in public_objects(MODULES):
        if not inspect.isfunction(inspect.unwrap(obj)) or id(obj) in seen:
            continue
        if not (getattr(obj, "__module__", "") or "").startswith("pennylane"):
            continue
        if "pennylane.labs" in obj.__module__ or "pennylane.data" in obj.__module__:
            continue
        seen.add(id(obj))
        found[f"{module_name}.{name}"] = obj
    return found


class Seed:
    """A docstring example call with at least one literal of numbers."""

    def __init__(self, dotted, function, setup, call, literals):
        self.dotted, self.function, self.setup, self.call = dotted, function, setup, call
        self.literals = literals  # [(key, node, form as written)], key = position int or keyword name
        self.forms = {}           # key -> forms the docs allow (filled in when validated)
        self.prelude = PRELUDES[0]

    @property
    def short(self):
        module, name = self.dotted.rsplit(".", 1)
        return f"{SHORT.get(module, module.replace('pennylane.', 'qml.'))}.{name}".replace("qml.qml", "qml")


def _calls_outside_definitions(tree):
    """Call nodes of top-level statements, not inside function bodies, lambdas or comprehensions."""
    skip = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.ListComp, ast.SetComp,
            ast.DictComp, ast.GeneratorExp)
    stack = list(reversed(tree.body))
    while stack:
        node = stack.pop()
        if isinstance(node, skip):
            continue
        if isinstance(node, ast.Call):
            yield node
        stack.extend(reversed(list(ast.iter_child_nodes(node))))


def _seeds_of(dotted, function):
    """index of example -> Seed, for the examples of the docstring that call `function` with literals."""
    doc = inspect.getdoc(function) or ""
    name = dotted.rsplit(".", 1)[1]
    try:
        examples = doctest.DocTestParser().get_examples(doc)
    except ValueError:
        return {}
    seeds = {}
    bound = {}  # variable -> the literal of numbers the setup so far assigned to it
    for index, example in enumerate(examples):
        try:
            tree = ast.parse(example.source)
        except SyntaxError:
            continue
        for call in _calls_outside_definitions(tree):
            callee = call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", None)
            if callee != name or any(isinstance(a, ast.Starred) for a in call.args):
                continue
            arguments = list(enumerate(call.args)) + [(k.arg, k.value) for k in call.keywords if k.arg]
            literals = []
            for key, node in arguments:
                if isinstance(node, ast.Name) and node.id in bound:
                    node = bound[node.id]  # x = [0.1, 0.2] earlier in the example, then f(x)
                if _literal_form(node):
                    literals.append((key, node, _literal_form(node)))
            setup = "".join(e.source for e in examples[:index])
            if literals and not UNSAFE_SETUP.search(setup):
                seeds[index] = Seed(dotted, function, setup, call, literals)
            break  # the first call of the function in an example is its seed
        for statement in tree.body:
            for target in _assigned_names(statement):
                bound.pop(target, None)
            if (isinstance(statement, ast.Assign) and len(statement.targets) == 1
                    and isinstance(statement.targets[0], ast.Name) and _literal_form(statement.value)):
                bound[statement.targets[0].id] = statement.value
    return seeds


def _assigned_names(statement):
    """Names a statement (re)binds or changes in place, anywhere in it."""
    names = set()
    for node in ast.walk(statement):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(node.ctx, (ast.Store, ast.Del)):
            base = node.value
            while isinstance(base, (ast.Subscript, ast.Attribute)):
                base = base.value
            if isinstance(base, ast.Name):
                names.add(base.id)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
    return names


def _documented_types(function):
    """parameter name -> the type its docstring's Args section gives it."""
    doc = inspect.getdoc(function) or ""
    types = {}
    for match in re.finditer(r"^\s*\**(\w+)\s*\(([^\n]*?)\)\s*:", doc, re.MULTILINE):
        types.setdefault(match.group(1), match.group(2))
    return types


def _allowed_forms(doc_type):
    lowered = doc_type.lower()
    allowed = set()
    for word, forms in FORMS_BY_DOC:
        if re.search(word, lowered):
            allowed.update(forms)
    return tuple(f for f in ("list", "tuple", "array") if f in allowed)


# -- running an example ---------------------------------------------------------------------
def _fresh(seed, prelude):
    """A namespace with the prelude and the example's setup run in it."""
    namespace = {"__name__": "__docstring_example__"}
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        exec(compile(prelude + seed.setup, "<docstring setup>", "exec"), namespace)  # noqa: S102 (the docs' own lines)
    return namespace


def _call_text(seed, names):
    """The example's call with the literal arguments in `names` (key -> variable) replaced."""
    call = copy.deepcopy(seed.call)
    for i, argument in enumerate(call.args):
        if i in names:
            call.args[i] = ast.Name(id=names[i], ctx=ast.Load())
    for keyword in call.keywords:
        if keyword.arg in names:
            keyword.value = ast.Name(id=names[keyword.arg], ctx=ast.Load())
    return ast.unparse(call)


def _literal_value(node, prelude=PRELUDES[0]):
    """The literal as the example's prelude evaluates it (np.array is PennyLane's under its numpy)."""
    written_np = np
    if "from pennylane import numpy as np" in prelude:
        from pennylane import numpy as written_np
    return eval(compile(ast.Expression(body=node), "<literal>", "eval"), {"np": written_np, "numpy": np, "onp": np})


def _run(seed, prelude, arguments):
    """(result, arguments after) of the example's call, from a fresh setup, with the literal
    arguments given by `arguments` (key -> value); the callee must be the subject's function."""
    namespace = _fresh(seed, prelude)
    callee = eval(compile(ast.Expression(body=seed.call.func), "<callee>", "eval"), namespace)
    if inspect.unwrap(callee) is not inspect.unwrap(seed.function):
        raise LookupError(f"{ast.unparse(seed.call.func)} is not {seed.dotted} in the example")
    names = {key: f"_arg_{key}" for key in arguments}
    for key, value in arguments.items():
        namespace[names[key]] = value
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        result = eval(_call_text(seed, names), namespace)
    return result, {key: namespace[names[key]] for key in arguments}


def _parameter_names(seed):
    """literal key -> the parameter it binds to in the function's signature."""
    signature = inspect.signature(seed.function)
    placeholders = [object() for _ in seed.call.args]
    keywords = {k.arg: object() for k in seed.call.keywords if k.arg}
    bound = signature.bind(*placeholders, **keywords)
    by_id = {}
    for name, value in bound.arguments.items():
        values = value if isinstance(value, tuple) and signature.parameters[name].kind is inspect.Parameter.VAR_POSITIONAL \
            else value.values() if isinstance(value, dict) else [value]
        for v in values:
            by_id[id(v)] = name
    keys = {}
    for i, p in enumerate(placeholders):
        keys[i] = by_id.get(id(p))
    for k, p in keywords.items():
        keys[k] = by_id.get(id(p))
    return keys


def _preludes(seed):
    """The imports the example takes for granted: numpy as np (plain, else PennyLane's), qml
    (and qp, the newer docs' alias), and a bare callee imported from its module."""
    text = seed.setup + ast.unparse(seed.call)
    extra = "import pennylane as qp\n" if re.search(r"\bqp\.", text) else ""
    if isinstance(seed.call.func, ast.Name):
        module, name = seed.dotted.rsplit(".", 1)
        extra += f"from {module} import {name}\n"
    return [prelude + extra for prelude in PRELUDES]


@functools.lru_cache(maxsize=None)  # noqa: UP033
def _validated(subject):
    """The Seed of a subject when its example is a valid seed on this release, else None."""
    dotted, index = subject.rsplit("#", 1)
    function = _functions().get(dotted)
    if function is None:
        return None
    seed = _seeds_of(dotted, function).get(int(index))
    if seed is None:
        return None
    types = _documented_types(function)
    try:
        parameters = _parameter_names(seed)
    except (TypeError, ValueError):
        return None
    for key, node, form in seed.literals:
        value = _literal_value(node)
        forms = _allowed_forms(types.get(parameters.get(key) or "", ""))
        forms = tuple(f for f in forms if _can_take(value, f))
        if form in forms and len(forms) > 1:
            seed.forms[key] = forms
    if not seed.forms:
        return None
    for prelude in _preludes(seed):
        originals = {key: _literal_value(node, prelude) for key, node, _ in seed.literals if key in seed.forms}
        try:
            with time_limit(SETUP_BUDGET_S):
                namespace = _fresh(seed, prelude)
                for key, node, _ in seed.literals:
                    argument = seed.call.args[key] if isinstance(key, int) else \
                        next(k.value for k in seed.call.keywords if k.arg == key)
                    if isinstance(argument, ast.Name) and not unchanged(_literal_value(node, prelude),
                                                                          namespace.get(argument.id)):
                        raise ValueError(f"the setup changed {argument.id} after assigning it")
                first, _ = _run(seed, prelude, copy.deepcopy(originals))
                second, _ = _run(seed, prelude, copy.deepcopy(originals))
            if differs(first, second) is not None:
                return None  # random, or not the same result twice: not a seed
        except Exception:  # noqa: BLE001, S112 (the example does not run here, or its result is not comparable)
            continue
        seed.prelude = prelude
        return seed
    return None


def _subjects():
    candidates = [f"{dotted}#{index}" for dotted, function in _functions().items()
                  for index in _seeds_of(dotted, function)]
    return [s for s in candidates if _validated(s) is not None]


def _api(subject):
    return subject.rsplit("#", 1)[0]


# -- the law --------------------------------------------------------------------------------
def _strategy(subject):
    from hypothesis import strategies as st

    seed = _validated(subject)
    if seed is None:
        raise LookupError(f"{subject} is not a runnable docstring example on this release")
    written = {key: form for key, _, form in seed.literals}
    keys = sorted(seed.forms, key=str)
    return st.tuples(*[st.tuples(st.just(key), st.sampled_from(seed.forms[key])) for key in keys]).filter(
        lambda choice: any(form != written[key] for key, form in choice))


def _check(subject, choice):
    seed = _validated(subject)
    originals = {key: _literal_value(node, seed.prelude) for key, node, _ in seed.literals if key in seed.forms}
    converted = {key: _convert(originals[key], form) for key, form in choice}
    before_original, before_converted = copy.deepcopy(originals), copy.deepcopy(converted)
    expected, after_original = _run(seed, seed.prelude, originals)
    actual, after_converted = _run(seed, seed.prelude, converted)
    how = ", ".join(f"argument {key!r} as a {form}" for key, form in choice)
    for key in originals:
        assert unchanged(before_original[key], after_original[key]), (
            f"{seed.short} modified the caller's argument {key!r}: {before_original[key]!r} became "
            f"{after_original[key]!r}")
        assert unchanged(before_converted[key], after_converted[key]), (
            f"{seed.short} modified the caller's argument {key!r}: {before_converted[key]!r} became "
            f"{after_converted[key]!r}")
    difference = differs(expected, actual)
    assert difference is None, (f"{seed.short} gives a different result with {how} than with the documented "
                                f"example's literal ({difference})")


def _source(value):
    """Source for a literal value: a plain numpy array as numpy.array, the example's np.array as np.array."""
    if type(value) is np.ndarray:
        return f"numpy.array({value.tolist()!r})"
    if isinstance(value, np.ndarray):
        return f"np.array({value.tolist()!r})"
    return repr(value)


def _reproduce(subject, choice):
    seed = _validated(subject)
    originals = {key: _literal_value(node, seed.prelude) for key, node, _ in seed.literals if key in seed.forms}
    converted = {key: _convert(originals[key], form) for key, form in choice}
    first_names = {key: f"original_{key}" for key in originals}
    second_names = {key: f"converted_{key}" for key in originals}
    setup = seed.setup if seed.setup.endswith("\n") or not seed.setup else seed.setup + "\n"
    lines = ["import copy", "import numpy", COMPARE_SOURCE.strip("\n"), "", "", "# the docstring example of " + seed.short,
             seed.prelude.rstrip("\n"), setup.rstrip("\n")]
    for key, value in originals.items():
        lines.append(f"{first_names[key]} = {_source(value)}  # as the example writes it")
        lines.append(f"before_{first_names[key]} = copy.deepcopy({first_names[key]})")
    lines.append(f"expected = {_call_text(seed, first_names)}")
    if seed.setup.strip():
        lines += ["", "# the same setup again, fresh", setup.rstrip("\n")]
    for key in originals:
        lines.append(f"{second_names[key]} = {_source(converted[key])}  # the same numbers")
        lines.append(f"before_{second_names[key]} = copy.deepcopy({second_names[key]})")
    lines.append(f"actual = {_call_text(seed, second_names)}")
    lines.append("")
    for key in originals:
        for name in (first_names[key], second_names[key]):
            lines.append(f"assert unchanged(before_{name}, {name}), "
                         f"f'{seed.short} modified its argument: {{before_{name}!r}} became {{{name}!r}}'")
    lines.append("difference = differs(expected, actual)")
    lines.append(f"assert difference is None, f'{seed.short} gives a different result for the same numbers "
                 "in another array-like form: {difference}'")
    return "\n".join(line for line in lines if line is not None) + "\n"


def _describe(subject, choice):
    seed = _validated(subject)
    return f"{ast.unparse(seed.call)} with " + ", ".join(f"argument {key!r} as a {form}" for key, form in choice)


CONTRACTS = [
    Contract("pennylane.robust.inputs-are-array-likes", "robustness of inputs",
             "a public function whose docs type an argument as an array / tensor / sequence of numbers gives the "
             "same result for a list, a tuple or a numpy array of the same numbers, and does not modify the "
             "caller's argument (seeded by the function's own docstring examples)",
             "documentation: each function's Args section (array / tensor_like / Sequence types) and its "
             "docstring examples; pennylane.typing.TensorLike ('including lists and tuples: any argument "
             "accepted by qml.numpy.array is tensor-like'); numpy's array_like convention",
             _subjects, _strategy, _check, _reproduce, _api, describe=_describe),
]
