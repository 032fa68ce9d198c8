"""The API surface, PennyLane: the generic laws of surface_explorer.py (no internal error,
documented examples run, copies are equal, queries are pure, round trips) over every public class,
method, property and documented example of the release's public modules (all of ``pennylane``
that imports, but labs, data, capture, the compiler and ML-framework layers, and drawing).
Constructors are filled from parameter names and annotations; an operator's ``wires`` are its
class's ``num_wires`` first wires when that is a number, else one wire."""

from surface_calls import CallLaws
from surface_perturbation import PerturbationLaw
from surface_regression import RegressionLaw
from surface_explorer import (ANGLE_VALUES, Surface, SurfaceLaws, constructor_signature, generic_parameter_value,
                              prepare_in_forking_parent)


def parameter_value(cls, parameter):
    if parameter.name == "wires":
        count = getattr(cls, "num_wires", None)
        return repr(list(range(count))) if isinstance(count, int) and 0 < count < 8 else "[0]"
    scalar = _scalar_parameter(cls, parameter)
    if scalar is not None:
        return scalar
    return generic_parameter_value(cls, parameter)


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


SURFACE = Surface(
    "pennylane",
    prelude="import numpy as np\nimport pennylane as qml\nimport pennylane as qp\n",  # the docs write both
    skip_modules=("labs", "pennylane.data", "capture", "compiler", "qnn", "drawer", "pennylane.io", "pennylane.ftqc"),
    parameter_value=parameter_value,
    # Operator.map_wires and every override: "wire_map (dict): dictionary containing the old wires
    # as keys and the new wires as values"; labels for every wire an operator here may act on
    named_values={"wire_map": ("{0: 'a', 1: 'b', 2: 'c', 3: 'd', 4: 'e', 5: 'f', 6: 'g', 7: 'h'}",)},
)

SOURCE = (
    "the Python data model and the public API of every module of pennylane that imports on the release "
    "(its docstring examples are valid input by definition)")
CALLS = CallLaws(SURFACE)
CONTRACTS = (SurfaceLaws(SURFACE).contracts(SOURCE) + CALLS.contracts(SOURCE)
             + PerturbationLaw(SURFACE, aliases=("qml", "qp")).contracts(SOURCE)
             + RegressionLaw(SURFACE, CALLS).contracts(SOURCE))
prepare_in_forking_parent(SURFACE, CALLS)
