"""The regression oracle: a documented example that builds the same objects with the same code
on two releases should give the same answers on both.

`observe(library)` runs, on the release of this environment, every documented program of the
surface (surface_explorer.Recipe) and up to two typed calls of every callable the call laws
check (surface_calls.py, its first options, no chance), twice, and records each answer that is
the same both times and is plain data (numbers, booleans, arrays and containers of them): the
values a program leaves in its variables, what every query member (a property, or a method
whose summary asks) answers on each object of the library it built, and what each call returns.
An answer is keyed by a digest of the code that produced it, so two releases are compared only
where the very same code runs.

The host (qusema/contracts/regression.py) compares the observations of the audited release
with a reference release's and hands each answer that changed to the law
`LIB.surface.agrees-with-reference` as a subject carrying the reference answer. The law runs the
program again on the audited release and holds when the answer agrees with the reference
(numbers to a relative 1e-6). A violation is a *regression candidate*: no oracle of QuSema says
which release is right, so it is a potential bug, with both answers in the report.
"""

import hashlib
import inspect
import json
import re

from contract_runtime import Contract, TimeLimit
from surface_calls import NO_SIZE, _qubits, is_panic
from surface_explorer import CALL_S, _is_query, _quiet, time_limit

MAX_ITEMS = 4096  # an answer with more numbers than this is not recorded (memory, report size)
# Query members are not asked of an object on more qubits than this: a channel's members on six
# qubits run for minutes inside numpy, where no time limit reaches (a signal waits for it).
MAX_OBSERVED_QUBITS = 4

OBSERVE_SOURCE = r'''
def observed(value, _depth=0):
    """An answer as plain JSON data, or None when it is not plain data: numbers (complex as
    {"complex": [re, im]}, NaN and infinities as their repr), booleans, numeric arrays as
    {"shape", "values"}, and lists, tuples and dicts (string or integer keys) of those."""
    import math as _math
    import numbers as _numbers
    if _depth > 6:
        return None
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        return None  # names, labels and printouts change between releases by design
    if isinstance(value, _numbers.Integral):
        return int(value)
    if isinstance(value, _numbers.Real):
        number = float(value)
        return number if _math.isfinite(number) else repr(number)
    if isinstance(value, _numbers.Complex):
        return {"complex": [observed(value.real), observed(value.imag)]}
    if type(value).__module__ == "numpy" and hasattr(value, "dtype") and hasattr(value, "shape"):
        if value.dtype.kind not in "biufc" or value.size > 4096:
            return None
        flat = [observed(v.item()) for v in value.reshape(-1)]
        return {"shape": list(value.shape), "values": flat}
    if type(value) in (list, tuple):
        if len(value) > 4096:
            return None
        items = [observed(v, _depth + 1) for v in value]
        return None if any(i is None and v is not None for i, v in zip(items, value)) else items
    if type(value) is dict:
        if not all(isinstance(k, (str, int)) and not isinstance(k, bool) for k in value) or len(value) > 4096:
            return None
        items = {str(k): observed(v, _depth + 1) for k, v in value.items()}
        if any(items[str(k)] is None and v is not None for k, v in value.items()):
            return None
        return {"dict": sorted(items.items())}
    return None


def agree(a, b, rtol=1e-6, atol=1e-9):
    """Whether two observed answers are the same answer (numbers to a relative 1e-6)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if a is None or b is None or isinstance(a, str):
        return a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return abs(a - b) <= atol + rtol * max(abs(a), abs(b))
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(agree(x, y, rtol, atol) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(agree(a[k], b[k], rtol, atol) for k in a)
    return a == b
'''
exec(compile(OBSERVE_SOURCE, "<surface observe>", "exec"))  # noqa: S102 (our own source, shared with reproducers)


def code_digest(code, shown=""):
    """A digest of a program and the output its documentation shows: when a release changes
    the output its docs show for the same code, the change is documented, not a regression,
    and the two releases' answers are not compared."""
    return hashlib.sha256((code + "\0" + shown).encode()).hexdigest()[:12]


def recipe_digest(recipe):
    return code_digest(recipe.code, recipe.shown)


# Queries that measure how a result is built (its depth, its gate count) rather than what it
# is: a release that synthesizes the same operation with other gates answers them differently,
# and only a documented optimum would make that a regression. What the object is (its size in
# qubits, its operator, its parameters) is still compared.
COST_MEASURE = re.compile(r"\b(?:depth|critical path|number of (?:instructions|gates|operations|non-?local)|"
                          r"count each operation|count the operations|tensor factors|factored|longest path)\b",
                          re.IGNORECASE)


def _query_members(surface):
    by_owner = {}
    for member in surface.members.values():
        summary = inspect.cleandoc(member.doc).split("\n\n")[0] if member.doc else ""
        if _is_query(member) and not COST_MEASURE.search(summary):
            by_owner.setdefault(member.owner, []).append(member)
    return by_owner


def _answers(surface, recipe, queries):
    """expression -> observed answer, for one run of the program."""
    found = {}
    try:
        namespace = surface.run_recipe(recipe)
    except BaseException as exc:  # noqa: BLE001 (a program that does not run here answers nothing)
        if not _unanswered(exc):
            raise
        return found
    for variable, value in sorted(namespace.items()):
        if variable.startswith("_") or callable(value) and not surface._defined_here(type(value)):
            continue
        answer = observed(value)  # noqa: F821 (defined by OBSERVE_SOURCE)
        if answer is not None:
            found[variable] = answer
            continue
        found.update(_member_answers(surface, queries, value, variable))
    return found


def _member_answers(surface, queries, value, expression):
    """expression.member -> observed answer of each query member of a library object."""
    found = {}
    if not surface._defined_here(type(value)):
        return found
    size = _qubits(value)
    if size is not NO_SIZE and size is not None and size > MAX_OBSERVED_QUBITS:
        return found
    members = [m for owner, ms in queries.items() if isinstance(value, owner) for m in ms]
    for member in sorted(members, key=lambda m: m.name):
        try:
            with _quiet(), time_limit(CALL_S):
                raw = getattr(value, member.name)
                raw = raw() if member.kind == "method" else raw
            answer = observed(raw)  # noqa: F821
        except BaseException as exc:  # noqa: BLE001 (an error or a panic is the crash laws' business)
            if not _unanswered(exc):
                raise
            continue
        if answer is not None:
            found[f"{expression}.{member.call_code('')[1:]}"] = answer
    return found


def _unanswered(exc):
    """Whether what a program or call raised only means it gave no answer to compare: an
    error, our time limit, or PyO3's panic. Not an interrupt or exit."""
    return isinstance(exc, (Exception, TimeLimit)) or is_panic(exc)


CALL_KEY = "call"  # the first part of the key of a typed call's answer (else a program's id)


def _call_examples(calls, subject):
    """Up to two calls of a callable, chosen without chance: the first object and the first
    option of every parameter, then the second of each where there is one."""
    planned = calls.plan(subject)
    if isinstance(planned, str):
        return []
    receivers, options = planned
    examples = []
    for k in range(2):
        receiver = receivers[min(k, len(receivers) - 1)] if receivers else None
        arguments = [found[min(k, len(found) - 1)] for _, found in options]
        example = [receiver, arguments, None]
        if example not in examples:
            examples.append(example)
    return examples


def call_digest(calls, subject, example):
    """A digest of the code a typed call runs before the call: the documented programs that
    build its object and arguments, and the literals; and of the callable's documentation. A
    change of answer whose documentation changed with it is a documented behaviour change
    (a synthesis function whose docstring came to say it uses no ancilla for small inputs when
    its circuits for them lost one), not a regression: the two releases' keys then differ."""
    receiver, arguments, _ = example
    target = calls.targets().get(subject)
    documentation = " ".join((target.doc if target is not None else "").split())
    parts = [subject, json.dumps(example), documentation]
    built = [value[0] if kind == "property" else value for kind, value in arguments if kind != "literal"]
    for specimen in [receiver, *built]:
        if specimen is not None:
            recipe = calls.surface.recipes[specimen[0]]
            parts.append(recipe.code + "\0" + recipe.shown)
    return code_digest("\0".join(parts))


def _call_answers(calls, subject, queries):
    """key -> observed answer of the typed calls of a callable: what it returns when that is
    plain data, else what the query members of the library object it returns answer."""
    found = {}
    for example in _call_examples(calls, subject):
        try:
            with _quiet():
                obj, values = calls._values(subject, example)
                raw = calls._call(subject, obj, values)
        except BaseException as exc:  # noqa: BLE001 (an error, a panic, or a call the law would set aside)
            if not _unanswered(exc):
                raise
            continue
        key = f"{CALL_KEY}|{call_digest(calls, subject, example)}|{json.dumps([subject, *example])}"
        answer = observed(raw)  # noqa: F821
        if answer is not None:
            found[key] = answer
        else:
            found.update(_member_answers(calls.surface, queries, raw, key))
    return found


def observe(library, first=0, count=None):
    """{key: answer} of the documented programs and the typed calls [first, first + count) of
    the surface (programs by id, then calls by name), each answer recorded only when two
    runs agree on it."""
    import importlib

    module = importlib.import_module(f"contracts.{library}_surface")
    surface, calls = module.SURFACE, module.CALLS
    queries = _query_members(surface)
    recipes = sorted((r for r in surface.recipes.values() if r.documented), key=lambda r: r.id)
    # typed calls of functions and methods: what a release computes; a constructor's answer is
    # the object itself, whose queries the documented programs that build it already observe,
    # and observing every class and static method too doubled the stage's time on PennyLane
    observables = [("program", r) for r in recipes] + [
        ("call", s) for s in sorted(calls.subjects()) if calls.targets()[s].kind in ("function", "method")]
    chosen = observables[first:] if count is None else observables[first:first + count]
    observations = {}
    for kind, what in chosen:
        if kind == "program":
            once, twice = _answers(surface, what, queries), _answers(surface, what, queries)
            prefix = f"{what.id}|{recipe_digest(what)}|"
        else:
            once, twice = _call_answers(calls, what, queries), _call_answers(calls, what, queries)
            prefix = ""
        for expression, answer in once.items():
            if expression in twice and agree(answer, twice[expression]):  # noqa: F821
                observations[prefix + expression] = answer
    return {"observations": observations, "programs": len(chosen), "total_programs": len(observables)}


class RegressionLaw:
    """The law the host hands changed answers to (its subjects come from the host alone)."""

    def __init__(self, surface, calls):
        self.surface = surface
        self.calls = calls

    @staticmethod
    def _payload(subject):
        payload = json.loads(subject)
        recipe_id, digest, expression = payload["key"].split("|", 2)
        return payload, recipe_id, digest, expression

    def _call(self, recipe_id, digest, expression):
        """(subject, example, member) of a typed call's key (member: the query asked of what the
        call returns, or ''), its code checked to be the same here."""
        cut = expression.rfind("].")
        text, member = (expression[:cut + 1], expression[cut + 2:]) if cut != -1 else (expression, "")
        subject, *example = json.loads(text)
        if subject not in self.calls.targets() or call_digest(self.calls, subject, example) != digest:
            raise LookupError(f"the call {subject} is not built by the same code on this release")
        return subject, example, member

    def api(self, subject):
        _, recipe_id, _, expression = self._payload(subject)
        if recipe_id == CALL_KEY:
            return json.loads(expression[:expression.rfind("]") + 1])[0]
        variable, _, member = expression.partition(".")
        if member:
            value_type = self._type_of(recipe_id, variable)
            if value_type is not None:
                return f"{self.surface.classes.get(value_type, value_type.__qualname__)}.{member.split('(')[0]}"
        return self.surface.recipes[recipe_id].origin if recipe_id in self.surface.recipes else recipe_id

    def _type_of(self, recipe_id, variable):
        try:
            return type(self.surface.run_recipe(self.surface.recipes[recipe_id])[variable])
        except (Exception, TimeLimit):  # noqa: BLE001
            return None

    def _program(self, recipe_id, digest):
        recipe = self.surface.recipes.get(recipe_id)
        if recipe is None or recipe_digest(recipe) != digest:
            raise LookupError(f"the documented program {recipe_id} is not the same code on this release")
        return recipe

    def check(self, subject, _=None):
        from hypothesis import reject

        payload, recipe_id, digest, expression = self._payload(subject)
        if recipe_id == CALL_KEY:
            name, example, member = self._call(recipe_id, digest, expression)
            try:
                obj, values = self.calls._values(name, example)
                with _quiet(), time_limit(CALL_S + 10):
                    result = self.calls._call(name, obj, values)
                    answer = observed(eval(f"result.{member}", {"result": result}) if member else result)  # noqa: S307, F821
            except (Exception, TimeLimit):  # noqa: BLE001 (an error is the crash laws' business)
                reject()
            asked = f".{member} of what it returns" if member else ""
            assert agree(answer, payload["reference"]), (  # noqa: F821
                f"{self.calls.describe(name, example)}{asked} answers {_short(answer)} on this release but "
                f"{_short(payload['reference'])} on {payload['against']}")
            return
        recipe = self._program(recipe_id, digest)
        try:
            with _quiet(), time_limit(CALL_S + 10):
                namespace = self.surface.run_recipe(recipe)
                answer = observed(eval(expression, namespace))  # noqa: S307, F821 (our expression over the docs' names)
        except (Exception, TimeLimit):  # noqa: BLE001 (an error is the crash laws' business)
            reject()
        assert agree(answer, payload["reference"]), (  # noqa: F821
            f"{expression} of the documented example of {recipe.origin} answers {_short(answer)} on this release "
            f"but {_short(payload['reference'])} on {payload['against']}")

    def reproducer(self, subject, _=None):
        payload, recipe_id, digest, expression = self._payload(subject)
        if recipe_id == CALL_KEY:
            name, example, member = self._call(recipe_id, digest, expression)
            return ("import json\n" + OBSERVE_SOURCE.strip("\n") + "\n"
                    + self.calls._reproducer_head(name, example, [None])
                    + f"# what {payload['against']} answers for the same call\n"
                    + f"REFERENCE = json.loads({json.dumps(payload['reference'])!r})\n"
                    + f"answer = observed(call(*build0()){'.' + member if member else ''})\n"
                    + f"assert agree(answer, REFERENCE), f'{name} answers {{answer!r}}, but "
                      f"{payload['against']} answered {{REFERENCE!r}}'\n")
        recipe = self._program(recipe_id, digest)
        return ("import json\n" + OBSERVE_SOURCE.strip("\n") + "\n\n\n"
                + f"# the documented example of {recipe.origin}\n"
                + self.surface.prelude + recipe.code.rstrip("\n") + "\n\n"
                + f"# what {payload['against']} answers for the same code\n"
                + f"REFERENCE = json.loads({json.dumps(payload['reference'])!r})\n"
                + f"answer = observed({expression})\n"
                + f"assert agree(answer, REFERENCE), f'{expression} answers {{answer!r}}, but "
                  f"{payload['against']} answered {{REFERENCE!r}}'\n")

    def describe(self, subject, _=None):
        payload, recipe_id, _, expression = self._payload(subject)
        if recipe_id == CALL_KEY:
            cut = expression.rfind("].")
            name, *example = json.loads(expression[:cut + 1] if cut != -1 else expression)
            asked = f", then .{expression[cut + 2:]}" if cut != -1 else ""
            return (f"{self.calls.describe(name, example)}{asked} (on {payload['against']}: "
                    f"{_short(payload['reference'])})")
        return f"{expression} after the documented example {recipe_id} (on {payload['against']}: " \
               f"{_short(payload['reference'])})"

    def contracts(self, source):
        from surface_explorer import _nothing

        lib = self.surface.library
        return [Contract(
            f"{lib}.surface.agrees-with-reference", "API surface",
            "the same documented example, run with the same code on the audited release and on a reference "
            "release, gives the same plain-data answers (numbers to a relative 1e-6); a difference is a "
            "regression candidate: no oracle says which release is right", source + "; the reference release",
            lambda: [], lambda subject: _nothing(), self.check, self.reproducer, self.api,
            validity="regression candidate", describe=self.describe, kind="regression candidate")]


def _short(value, limit=300):
    text = json.dumps(value)
    return text if len(text) <= limit else text[:limit] + "..."
