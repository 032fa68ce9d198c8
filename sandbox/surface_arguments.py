"""Arguments for any public callable, from what its signature and docstring say of each
parameter: the types a user is told to pass.

A parameter's *type text* is its annotation (an object or, under postponed evaluation, a
string) or else the type its docstring gives it (numpydoc ``name : type``, Google
``name (type): ...``, Sphinx ``:type name: type``). The words of that text are read as
types: ``int``, ``float``, ``bool``, sequences of them, and the library's own classes (an
argument of such a class is a specimen the surface can build). A parameter with no type
anywhere is filled from its name alone where the name is a count or an angle. Parameters
with defaults keep them: the defaults are the documented call.

An *option* is one way to fill one parameter: ("literal", source), ("specimen", (recipe id,
variable)) or ("specimens", (recipe id, variable)): a list holding that one specimen. A parameter no option fills makes the callable not callable by the
engine, with the reason (``qusema surface`` lists it).

Standard library only; runs inside the sandbox beside surface_explorer.
"""

import inspect
import os
import re
import sys

from surface_explorer import ANGLE_NAMES, ANGLE_VALUES, COUNT_NAMES

INDEX_NAMES = re.compile(r"qubit|wire|index|idx|position|bit$|target|control|^i$|^j$|^k$|axis|row|col", re.IGNORECASE)
INT_VALUES = ("1", "2", "3")  # not 0: a modulus, a size, a period of 0 is a refusal the docs rarely state
INDEX_VALUES = ("0", "1")
COUNT_VALUES = ("2", "1", "3")
SEQUENCE_WORDS = frozenset({"list", "sequence", "iterable", "tuple", "collection", "array", "arraylike",
                            "array_like", "ndarray", "set", "frozenset"})
# (not TensorLike: any array a framework holds, of a shape only the docs' prose gives)
FLOAT_WORDS = frozenset({"float", "real", "number", "parametervaluetype", "parameterexpression", "complex"})
INT_WORDS = frozenset({"int", "integer", "integral"})
# Array types that make a union of scalars an array-like alias (_array_alias)
ARRAY_WORDS = frozenset({"ndarray", "arraybox", "interfacetensor", "tensorlike", "tensor_like", "tensor"})

_NUMPYDOC_HEADER = re.compile(r"^\s*(Parameters|Args|Arguments|Keyword Args|Other Parameters)\s*:?\s*$")
_OTHER_HEADER = re.compile(r"^\s*(Returns|Return|Yields|Raises|Warns|Examples|Example|Notes|Note|See Also|"
                           r"References|Attributes|Methods|Usage Details|Details|Theory)\s*:?\s*$")
_NUMPYDOC_ENTRY = re.compile(r"^\s*\**(\w+)\s*:\s*(.+?)\s*$")
_GOOGLE_ENTRY = re.compile(r"^\s*\**(\w+)\s*\(([^)]*)\)\s*:")
_SPHINX_TYPE = re.compile(r":type\s+(\w+)\s*:\s*(.+)")
_SPHINX_PARAM = re.compile(r":param\s+([\w\[\], .|]+?)\s+(\w+)\s*:")
_WORD = re.compile(r"[A-Za-z_][\w.]*")


def documented_types(doc):
    """parameter name -> the type text its docstring gives it (all three styles)."""
    found = {}
    if not doc:
        return found
    lines = inspect.cleandoc(doc).splitlines()
    in_section = False
    for line in lines:
        if _NUMPYDOC_HEADER.match(line):
            in_section = True
            continue
        if _OTHER_HEADER.match(line):
            in_section = False  # the next heading ends the section
        if not in_section or set(line.strip()) <= {"-"}:
            continue
        match = _GOOGLE_ENTRY.match(line) or _NUMPYDOC_ENTRY.match(line)
        if match and match.group(1) not in found:
            found[match.group(1)] = match.group(2)
    for match in _SPHINX_TYPE.finditer(doc):
        found.setdefault(match.group(1), match.group(2))
    for match in _SPHINX_PARAM.finditer(doc):
        found.setdefault(match.group(2), match.group(1))
    return found


_QUBIT_COUNT = re.compile(r"\b(single|one|two|three|four|1|2|3|4)[- ]qubits?\b", re.IGNORECASE)
_COUNT_WORDS = {"single": 1, "one": 1, "two": 2, "three": 3, "four": 4}


def documented_descriptions(doc):
    """parameter name -> the prose its docstring's entry gives it (the entry's first line after
    the type, and the lines indented under it), Google and numpydoc styles."""
    found = {}
    if not doc:
        return found
    lines = inspect.cleandoc(doc).splitlines()
    in_section, current, indent = False, None, 0
    for line in lines:
        if _NUMPYDOC_HEADER.match(line):
            in_section, current = True, None
            continue
        if _OTHER_HEADER.match(line):
            in_section, current = False, None
        if not in_section:
            continue
        width = len(line) - len(line.lstrip())
        match = _GOOGLE_ENTRY.match(line) or _NUMPYDOC_ENTRY.match(line)
        if match and (current is None or width <= indent):
            current, indent = match.group(1), width
            # Google: `name (type): prose` or `name: prose`; numpydoc: `name : type`, prose below
            found.setdefault(current, line[match.end(1):].lstrip(" *(:").strip())
        elif current is not None and line.strip() and width > indent:
            found[current] = (found[current] + " " + line.strip()).strip()
    return found


def documented_qubit_count(description):
    """The number of qubits a parameter's prose fixes ("Two-qubit gate to be used in the KAK
    decomposition" -> 2), or None."""
    counts = {_COUNT_WORDS.get(m.lower(), None) or int(m) if m.isdigit() else _COUNT_WORDS[m.lower()]
              for m in _QUBIT_COUNT.findall(description or "")}
    return counts.pop() if len(counts) == 1 else None


# Type words that hold items: "Iterable[Bit]", "list of int".
_CONTAINER_WORDS = r"(?:list|sequence|iterable|tuple|collection|set|frozenset)"
# A type text that is, as a whole, a container of items.
_CONTAINER_TEXT = re.compile(r"^\s*(?:typing\.|collections\.abc\.)?" + _CONTAINER_WORDS
                             + r"(?:\s*\[|s?\s+of\s+|\s*\(|\s*$)", re.IGNORECASE)


def type_text(parameter, doc_types, function=None):
    """The text of a parameter's type: its annotation (a postponed one resolved in the
    function's module, so an alias such as QubitSpecifier reads as the union it names), else
    its docstring's type, else ''. A docstring that gives a container of items wins over an
    annotation that does not: the annotation then names the items (a basis annotated
    `Operator` but documented `Iterable[Operator]`), and one item is not the container."""
    documented = doc_types.get(parameter.name, "")
    if parameter.annotation is parameter.empty:
        return documented
    annotated = _annotation_text(parameter.annotation, function)
    if documented and _CONTAINER_TEXT.match(documented) and not _CONTAINER_TEXT.match(annotated):
        return documented
    return annotated


def _annotation_text(annotation, function):
    if isinstance(annotation, str):
        resolved = _resolved(annotation, function)
        if resolved is None:
            return annotation
        annotation = resolved
    if isinstance(annotation, type):
        # a class of a library by its full name: two libraries may both have a `Prod`
        return annotation.__qualname__ if annotation.__module__ == "builtins" else \
            f"{annotation.__module__}.{annotation.__qualname__}"
    return str(annotation).replace("typing.", "")


def _resolved(annotation, function):
    """A string annotation evaluated in its function's module, as typing.get_type_hints does
    (the library's own code, in the sandbox), or None."""
    module = sys.modules.get(getattr(function, "__module__", None) or "")
    if module is None:
        return None
    try:
        return eval(annotation, dict(vars(module)))  # noqa: S307 (the library's annotation, in the sandbox)
    except Exception:  # noqa: BLE001 (a name only a type checker knows: keep the text)
        return None


class ArgumentOptions:
    """How a surface fills the parameters of its callables."""

    def __init__(self, surface):
        self.surface = surface

    def _classes_named(self, word, function=None):
        """The public class of the library a type word names: the object the word is in the
        function's module (`qml.Prod`, an imported `Operator`), else the public class of that
        name nearest the function's module (two libraries' `Prod` are two classes)."""
        module = sys.modules.get(getattr(function, "__module__", None) or "")
        if module is not None:
            try:
                named = eval(word, dict(vars(module)))  # noqa: S307 (a type name, in the library's own namespace)
            except Exception:  # noqa: BLE001 (not a name there)
                named = None
            if inspect.isclass(named):
                return [named] if named in self.surface.classes else []
        name = word.rsplit(".", 1)[-1]
        candidates = [cls for cls in self.surface.classes if cls.__name__ == name]
        exact = [cls for cls in candidates if f"{cls.__module__}.{cls.__qualname__}" == word
                 or self.surface.classes[cls] == word]
        if exact or len(candidates) <= 1:
            return exact or candidates
        home = (getattr(function, "__module__", None) or "").split(".")

        def shared(cls):
            return len(os.path.commonprefix([cls.__module__.split("."), home]))
        nearest = max(shared(c) for c in candidates)
        return [c for c in candidates if shared(c) == nearest][:1]

    def classes_of(self, text, function=None):
        """The library's classes a type text names."""
        return [cls for word in _WORD.findall(text) for cls in self._classes_named(word, function)]

    def options(self, parameter, doc_types, specimens, function=None):
        """[option] for one required parameter, or a reason why none (a string).
        `specimens(cls)` lists the specimens of a class the surface can build."""
        text = type_text(parameter, doc_types, function)
        words = [w.lower().rsplit(".", 1)[-1] for w in _WORD.findall(text)]
        name = parameter.name.lower()
        found = []
        named = getattr(self.surface, "named_values", {})
        if parameter.name in named:
            return [("literal", v) for v in named[parameter.name]]
        if text:
            for match in _WORD.finditer(text):
                where = _item_place(text, match.start())
                if where is None:
                    continue  # a key of a mapping, an item of a tuple inside a list: shapes we do not guess
                if text[match.end():].lstrip().startswith("["):
                    continue  # a generic's head (`Type[Instruction]`: a class, no object of a class named Type)
                in_sequence = where == "sequence"
                for cls in self._classes_named(match.group(), function):
                    if _is_array_class(cls):
                        continue  # an array of the library's (pennylane.numpy.tensor): a shape only prose gives
                    found += [("specimens" if in_sequence else "specimen", s) for s in specimens(cls)[:4]]
            # literals for each alternative of a union that is numbers or a flat list of them; a
            # matrix, a mapping, a string, a callable, a nested list would be a guess at a shape.
            # A union that holds an array type is an array-like alias (PennyLane's TensorLike
            # resolves to int | float | ... | ndarray | ArrayBox): its scalars are 0-d arrays,
            # and a scalar where the function wants a state or a matrix is a guess at a shape too.
            alternatives = _alternatives(text)
            if not _array_alias(alternatives):
                for alternative in alternatives:
                    found += self._literals(alternative, name)
                if len(alternatives) == 1:  # the whole type is one sequence (of a union, perhaps)
                    found += self._sequence_of_union_literals(alternatives[0], name)
            elif name in ANGLE_NAMES and len(name) > 1 or name.endswith("_angle"):
                # unless the parameter's name says it is an angle (RX.compute_matrix(theta:
                # TensorLike)): a real is then the alias's own scalar, no guess at a shape
                # (not a one-letter name: qml.math's `x` is any tensor)
                found += [("literal", v) for v in ANGLE_VALUES[:2]]
            if not found:
                return f"parameter {parameter.name!r}: no way to build a {text[:80]!r}"
            return found
        if name in COUNT_NAMES or name.startswith(("num_", "n_")):
            return [("literal", v) for v in COUNT_VALUES]
        if name in ANGLE_NAMES or name.endswith("_angle"):
            return [("literal", v) for v in ANGLE_VALUES[:2]]
        return f"parameter {parameter.name!r}: no annotation or documented type"


    def literals(self, parameter, doc_types, function=None):
        """The plain values (numbers, bools, flat lists of numbers) `options` gives a parameter,
        in its order: what a constructor needs to build an object whose other arguments come
        from recipes (round two of Surface.recipes)."""
        found = self.options(parameter, doc_types, lambda cls: [], function)
        return [] if isinstance(found, str) else [v for kind, v in found if kind == "literal"]

    @classmethod
    def _sequence_of_union_literals(cls, text, name):
        """A parameter typed as a sequence whose items are a union (`control_qubits:
        Sequence[Qubit | QuantumRegister | int | ...]`, qubits given as objects or positions):
        the literals of a sequence of each plain alternative of the items (`[0, 1]` for the
        int). Not deeper: a sequence inside the items is a shape of its own."""
        match = _SEQUENCE_HEAD.match(text)
        if match is None:
            return []
        items = _alternatives(match.group(2))
        if len(items) < 2 or _array_alias(items):
            return []  # a list of tensors (PennyLane's TensorLike items): its scalars are shapes guessed
        found = []
        for item in items:
            if "[" not in item:
                found += [option for option in cls._literals(f"{match.group(1)}[{item}]", name) if option not in found]
        return found

    @staticmethod
    def _literals(text, name):
        words = [w.lower().rsplit(".", 1)[-1] for w in _WORD.findall(text)]
        if not _plain_numbers(text, words):
            return []
        sequence = bool(SEQUENCE_WORDS.intersection(words))
        tuples = _only_tuples(words)
        found = []
        if "bool" in words and not sequence:
            found += [("literal", "True"), ("literal", "False")]
        if INT_WORDS.intersection(words):
            found += [("literal", v) for v in (_sequence_of(_int_values(name), tuples) if sequence
                                               else _int_values(name))]
        if FLOAT_WORDS.intersection(words):
            values = ANGLE_VALUES[:2]
            # a plural name typed as one number documents each item (`coeffs (Union[float,
            # callable])`): the parameter is a sequence of them
            plural = not sequence and _plural(name)
            found += [("literal", v) for v in (_sequence_of(values, tuples) if sequence or plural else values)]
        return found


def _is_array_class(cls):
    numpy = sys.modules.get("numpy")
    return numpy is not None and isinstance(cls, type) and issubclass(cls, numpy.ndarray)


_SEQUENCE_HEAD = re.compile(r"^\s*((?:collections\.abc\.|typing\.)?(?:Sequence|Iterable|List|list|Collection))\s*"
                            r"\[(.*)\]\s*$", re.S)
_UNION_HEAD = re.compile(r"^\s*(?:typing\.)?(?:Union|Optional)\s*\[(.*)\]\s*$", re.S)


def _alternatives(text):
    """The alternatives of a union type: Union[a, b], Optional[a], a | b, "a or b"; else [text]."""
    match = _UNION_HEAD.match(text)
    parts = _split_top(match.group(1), ",") if match else [text]
    found = []
    for part in parts:
        for piece in _split_top(part, "|"):
            pieces = re.split(r"\s+or\s+|,\s+", piece) if "[" not in piece else [piece]
            found += [p.strip() for p in pieces if p.strip()]
    if len(found) > 1 or found != [text.strip()]:
        return [alt for part in found for alt in (_alternatives(part) if _UNION_HEAD.match(part) else [part])]
    return found


def _split_top(text, separator):
    """`text` split at `separator` where no bracket is open."""
    parts, depth, current = [], 0, ""
    for char in text:
        depth += char == "["
        depth -= char == "]"
        if char == separator and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    return [*parts, current]


_SEQUENCE_OPEN = re.compile(_CONTAINER_WORDS + r"\s*\[|"
                            r"(?:list|sequence|iterable|tuple|collection|set)s?\s+of\s+$", re.IGNORECASE)


_UNION_OPEN = re.compile(r"(?:union|optional)\s*\[$", re.IGNORECASE)


def _item_place(text, position):
    """Where the type word at `position` stands: "plain" (the parameter is one of it),
    "sequence" (inside list[...]/Sequence[...]/Iterable[...] or after "list of": a list of
    it), or None (inside any other brackets, or two sequences deep)."""
    before = text[:position]
    opened = []
    for i, char in enumerate(before):
        if char == "[":
            opened.append(i)
        elif char == "]" and opened:
            opened.pop()
    kinds = []
    for i in opened:
        head = before[:i + 1][-30:]
        if _UNION_OPEN.search(head):
            continue  # Union[...] and Optional[...] wrap alternatives, not items
        kinds.append("sequence" if _SEQUENCE_OPEN.search(head) else None)
    if not kinds:
        return "sequence" if _SEQUENCE_OPEN.search(before[-30:]) else "plain"
    return "sequence" if kinds == ["sequence"] else None


PLAIN_WORDS = (INT_WORDS | FLOAT_WORDS | {"bool", "optional", "union", "none", "list", "sequence", "tuple",
                                         "iterable", "collection", "of", "or", "the", "a", "an", "default",
                                         "typing", "builtins", "numbers", "int64", "float64"})


def _array_alias(alternatives):
    """Whether a union is an array-like alias: an array type beside scalars of several kinds
    (int | float | complex | ... | ndarray); `float | ndarray` is an angle or a batch of them."""
    kinds = [{w.lower().rsplit(".", 1)[-1] for w in _WORD.findall(a)} for a in alternatives]
    scalars = [k for k in kinds if len(k) == 1 and k & (INT_WORDS | FLOAT_WORDS | {"bool"})]
    return any(k & ARRAY_WORDS for k in kinds) and len(scalars) >= 2


def _plain_numbers(text, words):
    """Whether a type is numbers or a flat sequence of numbers and nothing else."""
    return text.count("[") <= 1 and not re.search(r"\[\s*\[|of\s+lists", text) and \
        set(words) <= PLAIN_WORDS


def is_count(name):
    """A count by its name: `num_*` and `n_*` ("number of": `n_block_wires` is no wire index), or
    a plural that names no index."""
    name = name.lower()
    return name in COUNT_NAMES or name.startswith(("num_", "n_")) or \
        name.endswith("s") and not INDEX_NAMES.search(name)


def _int_values(name):
    if is_count(name):
        return COUNT_VALUES
    return INDEX_VALUES if INDEX_NAMES.search(name) else INT_VALUES


def _sequence_of(values, tuples=False):
    if tuples:
        return [f"({values[0]}, {values[1]})" if len(values) > 1 else f"({values[0]},)", f"({values[0]},)"]
    return [f"[{values[0]}, {values[1]}]" if len(values) > 1 else f"[{values[0]}]", f"[{values[0]}]"]


def _plural(name):
    """Whether a number-typed parameter's name is a plural noun (`coeffs`, `angles`, `times`),
    not a count (`num_layers`, `n_wires`) nor a singular that ends in s (`eps`, `bias`, `axis`,
    `basis`, `radius`)."""
    last = name.lower().split("_")[-1]
    return len(last) > 3 and last.endswith("s") and not last.endswith(("ss", "as", "is", "us")) and \
        name.lower() not in COUNT_NAMES and not name.lower().startswith(("num_", "n_"))


def _only_tuples(words):
    """Whether the type names a tuple and no other kind of sequence: `tuple(int)` takes a
    tuple, and a list in its place is another input (a frozen record stores what it is given)."""
    return "tuple" in words and not (SEQUENCE_WORDS - {"tuple"}).intersection(words)


# Equivalent forms of a literal argument: the same value as a user may hold it. A float as
# numpy's float64 (a subclass of float), an int as numpy's int64 (what indexing an array
# gives) and as an equal float where floats are documented, a list as a tuple or an array.
def equivalent_forms(source, text):
    words = {w.lower().rsplit(".", 1)[-1] for w in _WORD.findall(text)}
    forms = []
    if re.fullmatch(r"-?\d+\.\d+", source):
        forms.append(f"np.float64({source})")
    elif re.fullmatch(r"-?\d+", source):
        forms.append(f"np.int64({source})")
        if FLOAT_WORDS.intersection(words) and not INT_WORDS.intersection(words):
            forms.append(f"{source}.0")
    elif source.startswith("[") and source.endswith("]"):
        inner = source[1:-1]
        if "tuple" in words or words & {"iterable", "sequence", "collection"}:
            forms.append(f"({inner},)" if "," not in inner else f"({inner})")
        if words & {"array", "arraylike", "array_like", "ndarray", "tensorlike", "iterable", "sequence"}:
            forms.append(f"np.array({source})")
    return forms
