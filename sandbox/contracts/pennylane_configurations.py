"""Equivalent configurations, PennyLane: a documented QNode computes one function, whatever
documented configuration runs it.

A QNode's documentation (``qp.QNode``) offers ways of running the same circuit that differ
in how, not in what: the differentiation method (``"backprop"``, ``"adjoint"``,
``"parameter-shift"``, ``"hadamard"``, ``"finite-diff"``: routes to the same derivative), the
mid-circuit-measurement method (``"deferred"``, ``"tree-traversal"``: the same analytic
statistics), whether the device's VJP is used, whether gradients run on execution, caching,
and the simulator (default.qubit, default.mixed, lightning.qubit and reference.qubit simulate
one model, noiseless qubits; compared only for a device with wires, whose order both answer
in). ``QNode.update(**settings)`` documents the change of one setting as "a new QNode instance
but with updated settings", its transforms kept.

Law ``pennylane.surface.configurations-agree``: for every documented program that builds a
QNode and calls it (the program's own call and arguments, analytic: no shots), the QNode
updated with one other documented setting gives the same results as the QNode as documented,
and the same Jacobian (``qp.jacobian``) with respect to the call's real arguments (floats and
float arrays, named by ``argnums``: a plain float is no trainable argument by default).
Numbers agree to 1e-6 (absolute and relative); 1e-4 where a finite-difference derivative is
one side. A setting the release refuses for that circuit (an error) gives no verdict, nor does
a QNode that answers differently when called twice, nor a simulator that answers in another
shape (default.mixed's ``state()`` is a density matrix), nor, on a device without wires (whose
docs fix no order of a state's wires), the same numbers in another order.

No oracle of QuSema's own says which of the two configurations is right: the documentation
makes them equal, so a difference is a defect of one of them. The finding names both.

Every check runs the program text its reproducer prints.
"""

import re
from typing import NamedTuple

from contract_runtime import Contract, TimeLimit, time_limit
from surface_explorer import _quiet

RUN_S = 20.0  # a documented QNode, its variant and both Jacobians within this
EXACT = 1e-6
APPROXIMATE = 1e-4  # a first-order finite difference with PennyLane's default step
# Simulators of one model (noiseless qubits, exact statistics without shots), by device name.
QUBIT_SIMULATORS = ("default.qubit", "default.mixed", "lightning.qubit", "reference.qubit")

COMPARE_SOURCE = r'''
def _leaves(value):
    """A QNode's answer as a flat list of numpy arrays (tuples and lists of results opened)."""
    import numpy as _np
    if isinstance(value, (tuple, list)):
        return [leaf for item in value for leaf in _leaves(item)]
    return [_np.asarray(value)]


def _same_shape(a, b):
    first, second = _leaves(a), _leaves(b)
    return len(first) == len(second) and all(x.shape == y.shape for x, y in zip(first, second))


def _agree(a, b, tolerance):
    """Whether two answers are the same numbers to `tolerance` (absolute and relative)."""
    import numpy as _np
    first, second = _leaves(a), _leaves(b)
    return _same_shape(a, b) and all(
        _np.allclose(_np.asarray(x, dtype=complex), _np.asarray(y, dtype=complex), atol=tolerance, rtol=tolerance)
        for x, y in zip(first, second))
'''
# our own source, shared with the reproducers
exec(compile(COMPARE_SOURCE, "<configurations compare>", "exec"))  # noqa: S102


def documented_options(doc, parameter):
    """The string options a QNode's docstring names under `parameter` (at the heads of a list's
    items, or in prose), with the text that follows each up to the next; options that
    text calls approximate, stochastic or random are left out (spsa: another answer on each
    call)."""
    section = re.search(rf"^\s*{parameter} \(.*?\):(.*?)(?=^\s*\w+ \(|^\s*\w+=|\Z)", doc, re.MULTILINE | re.DOTALL)
    if section is None:
        return {}
    text = section.group(1)
    named = list(re.finditer(r'``"([\w.-]+)"``', text))
    found = {}
    for k, match in enumerate(named):
        end = named[k + 1].start() if k + 1 < len(named) else len(text)
        item = " ".join(text[match.end():end].split())
        if not re.search(r"\bapproximat|\bstochastic|\brandom", item, re.IGNORECASE):
            found.setdefault(match.group(1), item)
    # a list of items names its options at their heads; a name inside an item's text (a
    # ``"mode"`` of gradient_kwargs) is another parameter's
    heads = re.findall(r'^\s*\*\s+``"([\w.-]+)"``', text, re.MULTILINE)
    return {name: item for name, item in found.items() if name in heads} if heads else found


def _same_numbers(a, b, tolerance):
    """Whether two answers hold the same numbers, each answer's arrays in any order."""
    import numpy as np

    first, second = _leaves(a), _leaves(b)  # noqa: F821 (defined by COMPARE_SOURCE)
    if not _same_shape(a, b):  # noqa: F821
        return False
    return all(np.allclose(np.sort_complex(np.ravel(x).astype(complex)), np.sort_complex(np.ravel(y).astype(complex)),
                           atol=tolerance, rtol=tolerance) for x, y in zip(first, second))


KINDS = ("results", "jacobian")  # what is compared: the QNode's answer, or its Jacobian (qp.jacobian)


class Program(NamedTuple):
    """A documented program that calls its QNode, as its checks need it."""
    namespace: dict       # what the program leaves
    variable: str         # the QNode's name in it
    qnode: object
    arguments: str        # the program's first call of the QNode, as written
    differentiated: str   # `argnums=[...]` of the call's real arguments, or ''
    analytic: bool        # the recorded tape has no shots
    mid_measured: bool    # ... and mid-circuit measurements


class ConfigurationLaw:
    """`pennylane.surface.configurations-agree` over the documented programs holding a QNode."""

    def __init__(self, surface, recorded_calls):
        self.surface = surface
        # (variable, value, program) -> argument texts of the program's calls of its QNode
        self.recorded_calls = recorded_calls
        self._programs = {}

    # -- subjects and settings ---------------------------------------------------------------
    def subjects(self):
        """"<recipe id>|<variable>": a documented program and the QNode it leaves in a variable."""
        import pennylane

        qnode = self.surface.classes.get(pennylane.QNode)
        found = []
        for recipe_id, parts in sorted(self.surface.produced.items()):
            path = parts.get(qnode)
            # a program that defines a QNode and never calls it gives no arguments to hold it to
            if path is not None and path.isidentifier() and \
                    self.recorded_calls(path, None, self.surface.recipes[recipe_id].code):
                found.append(f"{recipe_id}|{path}")
        return found

    @staticmethod
    def settings():
        """(setting, value source) pairs the QNode's documentation offers, in a fixed order."""
        import pennylane

        doc = pennylane.QNode.__doc__ or ""
        # "best" resolves to one of the others; "device" names the device's own, which none of
        # these simulators documents for every circuit
        found = [("diff_method", repr(name)) for name in documented_options(doc, "diff_method")
                 if name not in ("best", "device")]
        found += [("mcm_method", repr(name)) for name, text in documented_options(doc, "mcm_method").items()
                  if "finite shots" not in text]
        found += [(name, value) for name in ("device_vjp", "grad_on_execution", "cache") for value in ("True", "False")
                  if re.search(rf"^\s*{name}\b", doc, re.MULTILINE)]
        found += [("device", repr(name)) for name in QUBIT_SIMULATORS]
        return found

    def strategy(self, subject):
        from hypothesis import strategies as st

        return st.sampled_from([(setting, value, kind) for setting, value in self.settings() for kind in KINDS])

    # -- the program -------------------------------------------------------------------------
    def _parts(self, subject):
        recipe_id, variable = subject.split("|")
        return self.surface.recipes[recipe_id], variable

    def _program(self, subject):
        """What a subject's checks share, read once per subject in this process (a check's
        examples differ only in the setting): None when the program does not run here or never
        calls its QNode."""
        if subject not in self._programs:
            self._programs[subject] = self._read(subject)
        return self._programs[subject]

    def _read(self, subject):
        import inspect

        import pennylane

        recipe, variable = self._parts(subject)
        try:
            namespace = self.surface.run_recipe(recipe)
        except (Exception, TimeLimit):  # noqa: BLE001 (surface.examples-run judges the program)
            return None
        if variable not in namespace:
            return None
        calls = self.recorded_calls(variable, namespace[variable], recipe.code)
        if not calls:
            return None
        arguments = calls[0]
        try:
            with _quiet(), time_limit(RUN_S):
                tape = eval(f"qp.workflow.construct_tape({variable})({arguments})", namespace)  # noqa: S307
                positional = eval(f"(lambda *a, **k: a)({arguments})", dict(namespace))  # noqa: S307
        except (Exception, TimeLimit):  # noqa: BLE001 (no tape, or arguments that do not evaluate twice: no verdict)
            tape = positional = None
        # the positions of the call's real arguments (floats, float arrays), named explicitly to
        # qp.jacobian: a plain float or numpy array is no trainable argument to it by default,
        # and most documented calls pass those (`argnum` before PennyLane named it `argnums`)
        real = [k for k, value in enumerate(positional or ())
                if type(value) is float or getattr(getattr(value, "dtype", None), "kind", "") == "f"]
        keyword = "argnums" if "argnums" in inspect.signature(pennylane.jacobian).parameters else "argnum"
        return Program(namespace, variable, namespace[variable], arguments,
                       f"{keyword}={real!r}" if real else "",
                       tape is not None and getattr(tape.shots, "total_shots", None) is None,
                       tape is not None and any(type(op).__name__ == "MidMeasureMP" for op in tape.operations))

    @staticmethod
    def _tolerance(program, example):
        _, value, _ = example
        approximate = "finite" in value or getattr(program.qnode, "diff_method", None) == "finite-diff"
        return APPROXIMATE if approximate else EXACT

    @staticmethod
    def expressions(program, example):
        """(update, documented, other): the expression that builds the QNode with the other
        setting, and what is compared of the QNode as documented and of that one."""
        variable, arguments = program.variable, program.arguments
        setting, value, kind = example
        if setting == "device":
            update = f"{variable}.update(device=qp.device({value}, wires={variable}.device.wires))"
        else:
            update = f"{variable}.update({setting}={value})"
        if kind == "results":
            return update, f"{variable}({arguments})", f"configured({arguments})"
        return (update, f"qp.jacobian({variable}, {program.differentiated})({arguments})",
                f"qp.jacobian(configured, {program.differentiated})({arguments})")

    def statements(self, program, example):
        """(setup, comparison): what computes both answers, and the assertion that compares them."""
        setting, value, kind = example
        update, documented, other = self.expressions(program, example)
        what = f"{program.variable}({program.arguments})"
        what = what if kind == "results" else f"the Jacobian of {what}"
        setup = f"configured = {update}\ndocumented = {documented}\nother = {other}\n"
        comparison = (f"assert _agree(documented, other, {self._tolerance(program, example)!r}), (\n"
                      f"    f\"{what} is {{documented!r}} as documented, but {{other!r}} with {setting}={value}\")\n")
        return setup, comparison

    @staticmethod
    def _applies(program, example):
        """Whether the setting is another one than the QNode's, and one that can differ from it:
        analytic results (no shots), a mid-circuit-measurement method only for a circuit with
        mid-circuit measurements, a simulator only for a QNode on one of the same model, a
        Jacobian only of real arguments."""
        setting, value, kind = example
        qnode = program.qnode
        name = value.strip("'\"")
        if not program.analytic or kind == "jacobian" and not program.differentiated:
            return False
        if setting == "device":
            # a device without wires orders a state's wires as its own preprocessing meets them
            # (default.qubit and reference.qubit differently; neither the circuit's order): only
            # a device with wires fixes the order both answer in
            return getattr(qnode.device, "name", None) in QUBIT_SIMULATORS and qnode.device.name != name and \
                qnode.device.wires is not None
        if setting == "mcm_method":
            return program.mid_measured
        if setting == "diff_method":
            return qnode.diff_method != name
        return True

    # -- the law -----------------------------------------------------------------------------
    def check(self, subject, example):
        from hypothesis import reject

        program = self._program(subject)
        if program is None or not self._applies(program, example):
            reject()
        tolerance = self._tolerance(program, example)
        setup, comparison = self.statements(program, example)
        run = {**program.namespace, "_agree": _agree}  # noqa: F821 (defined by COMPARE_SOURCE)
        try:
            with _quiet(), time_limit(RUN_S):
                # our statements over the docs' names
                exec(compile(setup, "<configurations>", "exec"), run)  # noqa: S102
                again = eval(self.expressions(program, example)[1], run)  # noqa: S307 (the documented call again)
        except (Exception, TimeLimit):  # noqa: BLE001 (a setting refused for this circuit: no verdict)
            reject()
        if not _agree(run["documented"], again, 0.0):  # noqa: F821
            reject()  # not one function of its arguments: nothing to hold another setting to
        if example[0] == "device" and not _same_shape(run["documented"], run["other"]):  # noqa: F821
            reject()  # another representation of the same state (default.mixed's density matrix)
        if program.qnode.device.wires is None and not _agree(run["documented"], run["other"], tolerance) \
                and _same_numbers(run["documented"], run["other"], tolerance):  # noqa: F821
            # a device without wires orders a state's wires as the preprocessing of each setting
            # meets them (adjoint's decomposition meets them in another order), and its docs fix
            # no order: the same numbers in another order are no verdict
            reject()
        try:
            exec(compile(comparison, "<configurations>", "exec"), run)  # noqa: S102
        except AssertionError as exc:
            raise AssertionError(f"{self.describe(subject, example)}: {exc}") from None

    def describe(self, subject, example):
        recipe, variable = self._parts(subject)
        setting, value, kind = example
        return (f"the QNode {variable} of the documented example of {recipe.origin}, updated to {setting}={value} "
                f"({'its results' if kind == 'results' else 'its Jacobian'})")

    def reproducer(self, subject, example):
        recipe, _ = self._parts(subject)
        setup, comparison = self.statements(self._program(subject), example)
        return (COMPARE_SOURCE.strip("\n") + "\n\n\n"
                + f"# the documented example of {recipe.origin}\n"
                + self.surface.prelude + recipe.code.rstrip("\n") + "\n\n"
                + f"# the same QNode with one documented setting changed: QNode.update gives \"a new QNode\n"
                + "# instance but with updated settings\", and the settings compute one function\n"
                + setup + comparison)

    def api(self, subject):
        recipe, _ = self._parts(subject)
        return recipe.origin

    def contracts(self, source):
        return [Contract(
            "pennylane.surface.configurations-agree", "API surface",
            "a documented QNode, updated with one other documented setting (differentiation method, "
            "mid-circuit-measurement method, device VJP, gradient on execution, caching, or a simulator of the "
            "same model), gives the documented call the same results and the same Jacobian (numbers to 1e-6, "
            "1e-4 beside a finite difference); a setting refused for the circuit gives no verdict",
            source, self.subjects, self.strategy, self.check, self.reproducer, self.api,
            describe=self.describe)]


def _contracts():
    from contracts.pennylane_surface import SOURCE, SURFACE, recorded_calls

    return ConfigurationLaw(SURFACE, recorded_calls).contracts(SOURCE)


CONTRACTS = _contracts()
