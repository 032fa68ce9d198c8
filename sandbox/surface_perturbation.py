"""A generic law over every documented example: the example with one number it passes to the
library changed, within its type, still runs without an internal error.

A documented example is valid input by definition (surface.examples-run checks that it runs);
its neighbours, the same program with one literal argument of a library call changed (an int by
one, a float to another value, a bool flipped), are inputs of the documented types that users
write every day: `qml.device("default.qubit", wires=3)` after the docs' `wires=2`,
`QFT(num_qubits=5)` after the docs' `QFT(4)`. The neighbour is not documented input itself, so a
finding is a potential bug (validity "undocumented"), and, as with the call laws, an
IndexError, KeyError or ValueError is set aside: a changed number can leave a range the docs
state in prose (a wire outside the device, an index past a size).

Only literals inside the arguments of a call of the library (a callee spelled through the
library's module, an alias of it such as `qml`, or a name the program imports from it) are
changed; the rest of the program is the documentation's. The unchanged example must run first
(else there is no neighbour of a valid input).

Standard library only beside the surface; runs inside the sandbox.
"""

import ast
import textwrap

from contract_runtime import Contract, TimeLimit, time_limit
from surface_explorer import TRIAGE_SOURCE, _quiet, internal_error

OUT_OF_RANGE = (IndexError, KeyError, ValueError, StopIteration, OverflowError)
PERTURBED_S = 5.0  # a neighbour that runs past this says nothing (a bigger size may be slower)
MAX_SITES = 6  # literals per example that are changed (the first ones, in reading order)


class Site:
    """One literal of a library call's arguments and the values it is changed to."""

    def __init__(self, index, node, callee, entry, beside=frozenset()):
        # callee: the call as written (`qc.rx`); entry: its library name (`qiskit.QuantumCircuit`
        # for an imported QuantumCircuit), or None for a call on an object the program holds
        self.index, self.node, self.callee, self.entry = index, node, callee, entry
        # the other int literals of the statement: an int changed into one of them would make
        # two distinct things one (`Z(0) @ Z(1)` -> `Z(1) @ Z(1)`: one wire, another operator)
        self.beside = beside

    def values(self):
        value = self.node.value
        if isinstance(value, bool):
            return [repr(not value)]
        if isinstance(value, int):
            return [repr(v) for v in [value + 1] + ([value - 1] if value >= 2 else []) if v not in self.beside]
        if isinstance(value, float):
            return [repr(round(value * 1.5 + 0.11, 6))] + ([repr(-value)] if value else [])
        return []


def _dotted(node):
    """`qml.templates.QFT` -> "qml.templates.QFT"; None for anything but a name chain."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return ".".join([node.id, *reversed(parts)])
    return None


class ExampleNeighbours:
    """The literal sites of one documented program."""

    def __init__(self, code, library, aliases, prelude=""):
        self.code = code
        self.tree = ast.parse(code)
        imported = self._library_names(library, ast.parse(prelude)) | self._library_names(library, self.tree)
        roots = {library, *aliases}
        # a call on an object the program holds (`qc.rx(0.5, 1)`, a QNode `circuit(0.3)`) is a
        # library call too; calls of other modules (np, math) and builtins (range) are not
        bound = {t.id for n in ast.walk(self.tree) if isinstance(n, (ast.Assign, ast.For, ast.With))
                 for t in ast.walk(n) if isinstance(t, ast.Name) and isinstance(t.ctx, ast.Store)}
        bound |= {n.name for n in ast.walk(self.tree) if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
        self.sites = []
        statement_of = {child: statement for statement in self.tree.body for child in ast.walk(statement)}
        for node in ast.walk(self.tree):
            if not isinstance(node, ast.Call):
                continue
            callee = _dotted(node.func)
            head = callee.split(".")[0] if callee else None
            if head in roots:
                entry = callee
            elif head in imported:
                entry = imported[head] + callee[len(head):]
            elif head in bound:
                entry = None
            else:
                continue
            statement = statement_of.get(node)
            ints = [n for n in ast.walk(statement) if isinstance(n, ast.Constant) and type(n.value) is int] \
                if statement is not None else []
            for argument in [*node.args, *(k.value for k in node.keywords)]:
                for literal in self._literals(argument):
                    beside = frozenset(n.value for n in ints if n is not literal)
                    self.sites.append(Site(len(self.sites), literal, callee, entry, beside))
        self.sites.sort(key=lambda s: (s.node.lineno, s.node.col_offset))
        self.sites = [s for s in self.sites if s.values()][:MAX_SITES]
        for i, site in enumerate(self.sites):
            site.index = i

    @staticmethod
    def _library_names(library, tree):
        """name -> dotted origin for `from LIB... import name [as alias]` in a program."""
        found = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == library:
                for alias in node.names:
                    found[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        return found

    @staticmethod
    def _literals(argument):
        """Number and bool literals in an argument, not inside a nested call's callee; a
        negative number is its own literal (-0.5 is one value)."""
        found = []
        stack = [argument]
        while stack:
            node = stack.pop()
            if isinstance(node, ast.Constant) and isinstance(node.value, (bool, int, float)):
                found.append(node)
            elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and \
                    isinstance(node.operand, ast.Constant):
                continue  # -x: changing x alone would change its sign's meaning; left as written
            elif isinstance(node, ast.Call):
                stack.extend([*node.args, *(k.value for k in node.keywords)])
            elif isinstance(node, (ast.List, ast.Tuple, ast.Set)):
                stack.extend(node.elts)
            elif isinstance(node, ast.Dict):
                stack.extend(v for v in node.values if v is not None)
            elif isinstance(node, ast.BinOp):
                stack.extend([node.left, node.right])
        return found

    def changed(self, index, value):
        """The program with site `index` set to `value` (source of a literal)."""
        site = self.sites[index]
        original = site.node.value
        site.node.value = ast.literal_eval(value)
        try:
            return ast.unparse(self.tree) + "\n"
        finally:
            site.node.value = original


class PerturbationLaw:
    """`LIB.surface.perturbed-examples-run` over one library's documented examples."""

    def __init__(self, surface, aliases=()):
        self.surface = surface
        self.aliases = tuple(aliases)
        self._neighbours = {}
        self._runs_cleanly = {}

    def neighbours(self, recipe_id):
        if recipe_id not in self._neighbours:
            try:
                found = ExampleNeighbours(self.surface.recipes[recipe_id].code, self.surface.library, self.aliases,
                                          self.surface.prelude)
            except SyntaxError:
                found = None
            self._neighbours[recipe_id] = found
        return self._neighbours[recipe_id]

    def subjects(self):
        return [r.id for r in sorted(self.surface.recipes.values(), key=lambda r: r.id)
                if r.documented and self.neighbours(r.id) is not None and self.neighbours(r.id).sites]

    def strategy(self, subject):
        from hypothesis import strategies as st

        sites = self.neighbours(subject).sites
        return st.sampled_from([(site.index, value) for site in sites for value in site.values()])

    def api(self, subject):
        """The library call whose argument changes is the entry; the example's origin when the
        sites are spread over several calls."""
        entries = {site.entry for site in self.neighbours(subject).sites}
        return entries.pop() if len(entries) == 1 and None not in entries else self.surface.recipes[subject].origin

    def _run(self, code, seconds):
        namespace = {"__name__": "__surface_recipe__"}
        with _quiet(), time_limit(seconds):
            exec(compile(self.surface.prelude, "<prelude>", "exec"), namespace)  # noqa: S102
            exec(compile(code, "<documented example, one literal changed>", "exec"), namespace)  # noqa: S102

    def check(self, subject, example):
        from hypothesis import reject

        recipe = self.surface.recipes[subject]
        if subject not in self._runs_cleanly:
            try:
                self.surface.run_recipe(recipe)
                self._runs_cleanly[subject] = True
            except (Exception, TimeLimit):  # noqa: BLE001 (the examples-run law judges the example itself)
                self._runs_cleanly[subject] = False
        if not self._runs_cleanly[subject]:
            reject()
        index, value = example
        program = self.neighbours(subject).changed(index, value)
        try:
            self._run(program, PERTURBED_S)
        except TimeLimit:
            reject()
        except Exception as exc:  # noqa: BLE001 (triaged below)
            where = internal_error(exc, self.surface.library)
            if where is None or isinstance(exc, OUT_OF_RANGE):
                reject()
            raise AssertionError(f"{self.describe(subject, example)} raised an internal error: "
                                 f"{type(exc).__name__}: {exc} (raised at {where})") from exc

    def describe(self, subject, example):
        index, value = example
        site = self.neighbours(subject).sites[index]
        return (f"the documented example of {self.surface.recipes[subject].origin} with the argument "
                f"{site.node.value!r} of {site.callee}(...) (line {site.node.lineno}) changed to {value}")

    def reproducer(self, subject, example):
        index, value = example
        recipe = self.surface.recipes[subject]
        original = textwrap.indent(self.surface.prelude + recipe.code, "    ")
        changed = textwrap.indent(self.surface.prelude + self.neighbours(subject).changed(index, value), "    ")
        return (TRIAGE_SOURCE.strip("\n") + "\n\n\n"
                + f"def documented():\n    # the documented example of {recipe.origin}\n{original}\n\n"
                + f"def changed():\n    # the same with one argument changed\n{changed}\n\n"
                + "documented()  # runs as documented\n"
                + "try:\n"
                + "    changed()\n"
                + "except Exception as exc:\n"
                + f"    where = internal_error(exc, {self.surface.library!r})\n"
                + "    if where is None or isinstance(exc, (IndexError, KeyError, ValueError, StopIteration, "
                  "OverflowError)):\n"
                + "        raise  # the library's own refusal, or a value out of a range the docs state: not this\n"
                + f"    raise AssertionError({self.describe(subject, example) + ' raised an internal error: '!r}"
                + " + f'{type(exc).__name__}: {exc} (at {where})') from exc\n")

    def contracts(self, source):
        lib = self.surface.library
        return [Contract(
            f"{lib}.surface.perturbed-examples-run", "API surface",
            "a documented example with one number or bool it passes to the library changed within its type (an "
            "int by one, a float to another value, a bool flipped) runs without an internal error (a builtin "
            "error raised inside the library, not by its own raise statement; index, key and value errors set "
            "aside)", source, self.subjects, self.strategy, self.check, self.reproducer, self.api,
            validity="undocumented", describe=self.describe, kind="crash")]
