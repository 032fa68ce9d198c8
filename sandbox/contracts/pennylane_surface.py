"""The API surface, PennyLane: the generic laws of surface_explorer.py (no internal error,
documented examples run, copies are equal, queries are pure, round trips) over every public class,
method, property and documented example of the release's public modules (all of ``pennylane``
that imports, but labs, data, capture, and the compiler and ML-framework layers).
Constructors are filled from parameter names and annotations; an operator's ``wires`` are its
class's ``num_wires`` first wires when that is a number, else one wire; a template that declares
its tensors' shapes gets TEMPLATE_WIRES wires and tensors of those shapes."""

import functools
import inspect
import math

from surface_calls import CallLaws
from surface_perturbation import PerturbationLaw
from surface_regression import RegressionLaw
from surface_explorer import (ANGLE_VALUES, Surface, SurfaceLaws, constructor_signature, generic_parameter_value,
                              prepare_in_forking_parent)


def parameter_value(cls, parameter):
    shapes = _declared_shapes(cls)
    if parameter.name == "wires":
        count = getattr(cls, "num_wires", None)
        if shapes:
            count = TEMPLATE_WIRES
        return repr(list(range(count))) if isinstance(count, int) and 0 < count < 8 else "[0]"
    scalar = _scalar_parameter(cls, parameter)
    if scalar is not None:
        return scalar
    if parameter.name in shapes:
        shape = shapes[parameter.name]
        return f"np.linspace(0.37, 1.19, {math.prod(shape)}).reshape({shape!r})"
    return generic_parameter_value(cls, parameter)


TEMPLATE_WIRES = 2  # wires given to a template that declares its tensors' shapes by its wire count
SHAPE_ARGUMENTS = {"n_layers": 1, "n_wires": TEMPLATE_WIRES, "n_rotations": 2, "k": 1, "delta_sz": 0}


@functools.lru_cache(maxsize=None)  # asked for every parameter of every class while the surface prepares
def _declared_shapes(cls):
    """parameter name -> shape, for a template that declares the shapes of its trainable tensors
    (PennyLane's template protocol: a static ``shape(n_layers, n_wires)`` "returns the expected
    shape of the weights tensor", or a list of shapes, one per tensor the constructor takes
    before its wires). Empty for any other class, or when the declaration needs more than a
    layer count and a wire count."""
    declared = vars(cls).get("shape") if isinstance(cls, type) else None
    if not isinstance(declared, staticmethod):
        return {}
    try:
        needed = inspect.signature(declared.__func__).parameters.values()
        arguments = {p.name: SHAPE_ARGUMENTS[p.name] for p in needed if p.default is p.empty}
        shapes = declared.__func__(**arguments)
        names = [p.name for p in constructor_signature(cls).parameters.values()]
    except (KeyError, TypeError, ValueError):  # a parameter we have no value for, or a refusal
        return {}
    tensors = names[:names.index("wires")] if "wires" in names else []
    if _is_shape(shapes):
        return {"weights": tuple(shapes)} if "weights" in names else {}
    if isinstance(shapes, (list, tuple)) and all(_is_shape(s) for s in shapes) and len(shapes) == len(tensors):
        return {name: tuple(shape) for name, shape in zip(tensors, shapes)}
    return {}


def _is_shape(value):
    return isinstance(value, tuple) and all(isinstance(n, int) and n > 0 for n in value)


def _scalar_parameter(cls, parameter):
    """A real for one of an operator's trainable parameters when the class declares them
    scalars: PennyLane's Operator protocol documents ``num_params`` (how many trainable
    parameters come first in the constructor) and ``ndim_params`` (the dimensions of each; 0
    is a scalar), so ``Displacement(a, phi, wires)`` takes two reals whatever they are named."""
    count, dims = getattr(cls, "num_params", None), getattr(cls, "ndim_params", None)
    if not isinstance(count, int) or not isinstance(dims, tuple) or len(dims) != count:
        return None
    names = [p.name for p in constructor_signature(cls).parameters.values()]
    index = names.index(parameter.name) if parameter.name in names else count
    if index >= count or dims[index] != 0:
        return None
    return ANGLE_VALUES[index % len(ANGLE_VALUES)]


def recorded_by(variable, value, program):
    """How the program records its QNode `variable` (PennyLane's `qp.workflow.construct_tape`,
    "the tape a QNode builds for these arguments"): once per call of it the program makes, with
    that call's arguments, or with none when the QNode's function takes none. A template or
    operator the docs show only inside a QNode (`AmplitudeEmbedding(features=f, wires=...)`)
    is an operation of that tape."""
    return [f"qp.workflow.construct_tape({variable})({arguments})"
            for arguments in recorded_calls(variable, value, program)]


def recorded_calls(variable, value, program):
    """The argument texts of the program's own top-level calls of its QNode `variable` (up to
    three, each once), else of its calls of a wrapper of it (`qp.grad(circuit)(x)`), or [""]
    when it makes none and the QNode's function needs no argument. `value` None: the program
    is read, not run (whether it calls its QNode at all)."""
    import ast

    import pennylane

    if value is not None and not isinstance(value, pennylane.QNode):
        return []
    try:
        tree = ast.parse(program)
    except SyntaxError:
        return []
    calls, wrapped = [], []
    for statement in tree.body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue  # a call inside another function's body is made with that function's names
        for node in ast.walk(statement):
            if not isinstance(node, ast.Call):
                continue
            arguments = ", ".join([ast.unparse(a) for a in node.args] + [ast.unparse(k) for k in node.keywords])
            if isinstance(node.func, ast.Name) and node.func.id == variable:
                calls.append(arguments)
            elif isinstance(node.func, ast.Call) and node.func.args and \
                    isinstance(node.func.args[0], ast.Name) and node.func.args[0].id == variable:
                # `qp.grad(circuit)(x)`, `qp.draw(circuit)(x)`: a wrapper of the QNode called
                # as the QNode is, with the QNode's arguments
                wrapped.append(arguments)
    calls = calls or wrapped
    if not calls:
        try:
            needed = [p for p in _signature(value, variable, tree).parameters.values()
                      if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        except (TypeError, ValueError):
            return []
        calls = [] if needed else [""]
    return list(dict.fromkeys(calls))[:3]


def _signature(value, variable, tree):
    """The signature of the QNode's function: of the object, or (`value` None: the program read
    without running it) of the program's last top-level definition of `variable`."""
    import ast

    if value is not None:
        return inspect.signature(value.func)
    defined = [node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == variable]
    if not defined:
        raise ValueError(f"no definition of {variable}")
    arguments = defined[-1].args
    required = len(arguments.args) - len(arguments.defaults)
    return inspect.Signature([inspect.Parameter(a.arg, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                                default=inspect.Parameter.empty if k < required else None)
                              for k, a in enumerate(arguments.args)])


SURFACE = Surface(
    "pennylane",
    # the docs write qml and qp, and pnp for PennyLane's numpy
    prelude="import numpy as np\nimport pennylane as qml\nimport pennylane as qp\nfrom pennylane import numpy as pnp\n",
    skip_modules=("labs", "pennylane.data", "capture", "compiler", "qnn"),
    parameter_value=parameter_value,
    # Operator.map_wires and every override: "wire_map (dict): dictionary containing the old wires
    # as keys and the new wires as values"; labels for every wire an operator here may act on
    named_values={"wire_map": ("{0: 'a', 1: 'b', 2: 'c', 3: 'd', 4: 'e', 5: 'f', 6: 'g', 7: 'h'}",)},
    # Operator.__init__(*params, wires=None, id=None): an operator without its own constructor
    # (qml.S, qml.ECR) refuses to be built without wires
    filled_when_none=("wires",),
    recorded_by=recorded_by,
    # a trainable array (`np.array(x, requires_grad=True)`) is PennyLane's numpy's: the docs that
    # write one import it as np, the examples leave that out
    implied_imports=((r"\bnp\.\w+\([^)]*requires_grad", "from pennylane import numpy as np\n"),),
)

SOURCE = (
    "the Python data model and the public API of every module of pennylane that imports on the release "
    "(its docstring examples are valid input by definition)")
CALLS = CallLaws(SURFACE)
CONTRACTS = (SurfaceLaws(SURFACE).contracts(SOURCE) + CALLS.contracts(SOURCE)
             + PerturbationLaw(SURFACE, aliases=("qml", "qp")).contracts(SOURCE)
             + RegressionLaw(SURFACE, CALLS).contracts(SOURCE))
prepare_in_forking_parent(SURFACE, CALLS)
