"""The API surface, Qiskit: the generic laws of surface_explorer.py (no internal error, documented
examples run, copies are equal, queries are pure, round trips) over every public class, method,
property and documented example of the release's public modules (all of ``qiskit`` that imports,
but the visualization and test helpers). Constructors are filled from parameter names and
annotations alone (a count is 2, an angle a real): Qiskit needs nothing of its own here."""

from surface_calls import CallLaws
from surface_perturbation import PerturbationLaw
from surface_regression import RegressionLaw
from surface_explorer import Surface, SurfaceLaws, generic_parameter_value, prepare_in_forking_parent

SURFACE = Surface(
    "qiskit",
    prelude="import numpy as np\nimport qiskit\nfrom qiskit import QuantumCircuit\n",
    skip_modules=("visualization", ".test", "qiskit.tools"),
    parameter_value=generic_parameter_value,
)

SOURCE = (
    "the Python data model and the public API of every module of qiskit that imports on the release "
    "(its docstring examples are valid input by definition)")
CALLS = CallLaws(SURFACE)
CONTRACTS = (SurfaceLaws(SURFACE).contracts(SOURCE) + CALLS.contracts(SOURCE)
             + PerturbationLaw(SURFACE, aliases=()).contracts(SOURCE)
             + RegressionLaw(SURFACE, CALLS).contracts(SOURCE))
prepare_in_forking_parent(SURFACE, CALLS)
