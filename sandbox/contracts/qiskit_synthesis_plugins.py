"""High-level-synthesis plugins implement what they synthesize, Qiskit: one law for every plugin
the release registers, however many it ships (the entry-point group ``qiskit.synthesis``; a
plugin's name is ``<operation name>.<method>``, HighLevelSynthesisPluginManager lists them).

HighLevelSynthesisPlugin.run documents: "Run synthesis for the given Operation ... Returns:
QuantumCircuit: The quantum circuit representation of the Operation when successful, and
``None`` otherwise." A plugin may decline (``None``: no verdict) or use extra qubits; what it
returns must act as the operation does.

Inputs: operations of the release's public classes whose ``name`` is the plugin's operation
name, as the API surface builds them (qiskit_surface.SURFACE: documented examples and configured
constructors), up to MAX_QUBITS qubits. Nothing here names an operation or a plugin: the pairing
is the release's own (``op.name`` against the registered name).

Oracle: the returned circuit's unitary, computed gate by gate (oracle_core's matrices for
standard gates, Qiskit's Operator for the rest), equals ``Operator(op)`` on every input whose
extra qubits are |0>, and returns them to |0> (qiskit_transformation.synthesis_gap); global phase
included, except for operations Qiskit documents as defined only up to a global phase
(PHASELESS_OPERATIONS: Clifford).
"""

import functools
import inspect
import re

import numpy as np

from contract_runtime import Contract
from surface_explorer import TRIAGE_SOURCE, internal_error
from contracts.qiskit_surface import SURFACE
from contracts.qiskit_transformation import (ATOL, PHASELESS_OPERATIONS, _helpers_source, oracle_matrix,
                                             synthesis_gap)

MAX_QUBITS = 5
SPECIMENS_PER_OPERATION = 6


def _manager():
    from qiskit.transpiler.passes.synthesis.plugin import HighLevelSynthesisPluginManager

    return HighLevelSynthesisPluginManager()


@functools.lru_cache(maxsize=None)
def _operations_by_name():
    """{operation name: [specimen]} over the public Operation classes the surface can build."""
    from qiskit.circuit import Operation

    found = {}
    for cls in sorted(SURFACE.classes, key=lambda c: SURFACE.classes[c]):
        if not issubclass(cls, Operation):
            continue
        for specimen in SURFACE.specimens(cls, trusted=True)[:SPECIMENS_PER_OPERATION]:
            try:
                op = SURFACE.build(specimen)
                name, size = op.name, op.num_qubits
            except Exception:  # noqa: BLE001 (it built when listed; here it did not: not an input)
                continue
            if isinstance(name, str) and isinstance(size, int) and 0 < size <= MAX_QUBITS:
                bucket = found.setdefault(name, [])
                if specimen not in bucket:
                    bucket.append(specimen)
    return found


def _subjects():
    try:
        names = sorted(_manager().plugins.names())
    except Exception:  # noqa: BLE001 (a release without the plugin manager has no subjects)
        return []
    operations = _operations_by_name()
    return [name for name in names if name.split(".", 1)[0] in operations]


# "The plugin supports the following plugin-specific options:  * num_clean_ancillas: ..."
_OPTIONS_HEAD = re.compile(r"plugin-specific options", re.IGNORECASE)
_OPTION = re.compile(r"^\s*[*-]\s*`*(\w+)`*\s*:", re.MULTILINE)


def _count_options(subject):
    """{option: 2} for the options a plugin's docstring lists whose names are counts (the
    auxiliary qubits it may use: `num_clean_ancillas`); {} when it lists none. A plugin that
    needs ancillas declines without them; given them, it returns a circuit on more qubits."""
    operation, method = subject.split(".", 1)
    doc = inspect.getdoc(type(_manager().method(operation, method))) or ""
    head = _OPTIONS_HEAD.search(doc)
    if head is None:
        return {}
    return {name: 2 for name in _OPTION.findall(doc[head.end():]) if name.startswith("num_")}


def _strategy(subject):
    from hypothesis import strategies as st

    options = _count_options(subject)
    return st.tuples(st.sampled_from(_operations_by_name()[subject.split(".", 1)[0]]),
                     st.sampled_from([{}, options] if options else [{}]))


def _run_plugin(subject, op, options):
    from qiskit.converters import dag_to_circuit
    from qiskit.dagcircuit import DAGCircuit

    operation, method = subject.split(".", 1)
    plugin = _manager().method(operation, method)
    out = plugin.run(op, coupling_map=None, target=None, qubits=list(range(op.num_qubits)), **options)
    return dag_to_circuit(out) if isinstance(out, DAGCircuit) else out


def _approximated_by_its_own_definition(op, expected):
    """Whether the operation takes the synthesis that defines it as a parameter (a Pauli
    evolution's `synthesis`: "the default is the Lie-Trotter product formula with a single
    repetition") and its definition differs from its matrix: it approximates by design, and a
    plugin's circuit can only be held to the same. An operation whose definition is fixed is
    held to its matrix (a faulty default synthesis is then a finding, not an excuse)."""
    try:
        if "synthesis" not in inspect.signature(type(op)).parameters:
            return False
        definition = op.definition
        if definition is None:
            return False
        gap = synthesis_gap(definition, np.asarray(expected, dtype=complex), op.name in PHASELESS_OPERATIONS,
                            oracle_matrix)
    except Exception:  # noqa: BLE001 (a definition that cannot be read says nothing either way)
        return False
    return gap >= ATOL


def _check(subject, example):
    from hypothesis import reject
    from qiskit.exceptions import QiskitError
    from qiskit.quantum_info import Operator

    specimen, options = example
    op = SURFACE.build(specimen)
    try:
        expected = Operator(op).data
    except (QiskitError, TypeError):  # no matrix (free parameters, a non-unitary instruction): no oracle
        reject()
    try:
        out = _run_plugin(subject, op, options)
    except QiskitError:
        reject()  # the library's documented refusal of this input
    if out is None:
        reject()  # "None otherwise": the plugin declined
    if _approximated_by_its_own_definition(op, expected):
        reject()  # a product formula (PauliEvolutionGate's Lie-Trotter): no exact matrix is promised
    gap = synthesis_gap(out, np.asarray(expected, dtype=complex), op.name in PHASELESS_OPERATIONS, oracle_matrix)
    assert gap < ATOL, (f"plugin {subject} returns a circuit that does not implement "
                        f"{_describe(subject, example)} (max deviation {gap:.3g})")


def _reproduce(subject, example):
    specimen, options = example
    operation, method = subject.split(".", 1)
    up_to_phase = operation in PHASELESS_OPERATIONS
    return (SURFACE.specimen_code(specimen, target="op") +
            "import numpy as np\n"
            "from qiskit.converters import dag_to_circuit\n"
            "from qiskit.dagcircuit import DAGCircuit\n"
            "from qiskit.quantum_info import Operator\n"
            "from qiskit.transpiler.passes.synthesis.plugin import HighLevelSynthesisPluginManager\n"
            f"plugin = HighLevelSynthesisPluginManager().method({operation!r}, {method!r})\n"
            f"out = plugin.run(op, coupling_map=None, target=None, qubits=list(range(op.num_qubits)), **{options!r})\n"
            "out = dag_to_circuit(out) if isinstance(out, DAGCircuit) else out\n"
            "assert out is not None, 'the plugin declined this input (no verdict)'\n"
            + _helpers_source() + inspect.getsource(synthesis_gap) +
            f"gap = synthesis_gap(out, np.asarray(Operator(op).data, dtype=complex), {up_to_phase}, library_matrix)\n"
            f"assert gap < {ATOL}, f'plugin {subject} does not implement the operation: max deviation {{gap}}'\n")


def _describe(subject, example):
    specimen, options = example
    return SURFACE.describe(specimen) + (f" with options {options}" if options else "")


def _api(subject):
    """The plugin class's run, by its public name where it has one."""
    operation, method = subject.split(".", 1)
    try:
        cls = type(_manager().method(operation, method))
    except Exception:  # noqa: BLE001 (named as registered)
        return f"qiskit.transpiler.passes.synthesis.plugin.HighLevelSynthesisPlugin.run ({subject})"
    dotted = SURFACE.classes.get(cls, f"{cls.__module__}.{cls.__qualname__}")
    return f"{dotted}.run"


def _validity(subject, example):
    specimen = example[0]
    # an operation the docs build is documented input; one a configured constructor builds
    # (a count of 2, an angle of 0.37) is of documented types but not itself documented
    return "documented" if SURFACE.recipes[specimen[0]].documented else "undocumented"


def _check_runs(subject, example):
    from hypothesis import reject

    specimen, options = example
    op = SURFACE.build(specimen)
    try:
        _run_plugin(subject, op, options)
    except Exception as exc:  # noqa: BLE001 (triaged: only an internal error is a finding)
        where = internal_error(exc, "qiskit")
        if where is None:
            reject()  # the library's own refusal (QiskitError, a raise statement): not a crash
        raise AssertionError(f"plugin {subject} on {_describe(subject, example)} raised an internal error: "
                             f"{type(exc).__name__}: {exc} (raised at {where})") from exc


def _reproduce_runs(subject, example):
    specimen, options = example
    operation, method = subject.split(".", 1)
    return (TRIAGE_SOURCE.strip("\n") + "\n\n\n" + SURFACE.specimen_code(specimen, target="op") +
            "from qiskit.transpiler.passes.synthesis.plugin import HighLevelSynthesisPluginManager\n"
            f"plugin = HighLevelSynthesisPluginManager().method({operation!r}, {method!r})\n"
            "try:\n"
            f"    plugin.run(op, coupling_map=None, target=None, qubits=list(range(op.num_qubits)), **{options!r})\n"
            "except Exception as exc:\n"
            "    where = internal_error(exc, 'qiskit')\n"
            "    if where is None:\n"
            "        raise  # the library's own refusal: not this defect\n"
            f"    raise AssertionError(f'plugin {subject} raised an internal error: {{type(exc).__name__}}: {{exc}} "
            "(at {where})') from exc\n")


CONTRACTS = [
    Contract("qiskit.transform.synthesis-plugin-runs", "transformation, synthesis, compilation",
             "every registered high-level-synthesis plugin, given an operation of its name (and the auxiliary "
             "qubits its documented options offer), runs without an internal error (a builtin error raised inside "
             "the library, not by its own raise statement)",
             "documentation: HighLevelSynthesisPlugin.run, the qiskit.synthesis entry points",
             _subjects, _strategy, _check_runs, _reproduce_runs, _api, validity="undocumented", describe=_describe,
             validity_of=_validity, kind="crash"),
    Contract("qiskit.transform.synthesis-plugin-implements-operation", "transformation, synthesis, compilation",
             "every registered high-level-synthesis plugin, given an operation of its name, returns None or a "
             "circuit with the operation's unitary (ancillas from |0> back to |0>; Clifford up to global phase)",
             "documentation: HighLevelSynthesisPlugin.run, the qiskit.synthesis entry points, Operator",
             _subjects, _strategy, _check, _reproduce, _api, validity="undocumented", describe=_describe,
             validity_of=_validity),
]
