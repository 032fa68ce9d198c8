"""Every registered stage plugin compiles correctly, Qiskit: documented equivalent
configurations of one compiler.

``transpile`` and ``generate_preset_pass_manager`` document ``init_method``, ``layout_method``,
``routing_method``, ``translation_method`` and ``optimization_method`` as the name of the pass
manager plugin to use for that stage, and ``qiskit.transpiler.preset_passmanagers.plugin``
documents ``list_stage_plugins(stage_name)`` as the names of the plugins installed for a stage
(built-in ones and any entry point of ``qiskit.transpiler.<stage>``). Each is one configuration
of the same compiler, documented to return a circuit equivalent to its input that the target
can run: whichever plugin is chosen, the output must keep the input's operator up to the
returned layout (global phase included) or, with measurements, its exact outcome distribution,
and use only instructions the target supports. A plugin that refuses a circuit (raises, as
``routing_method='none'`` does for a circuit the coupling map does not fit) gives no verdict.

Subjects are (entry, optimization level, one stage plugin), read from the live registry: no
list here names a plugin. The ``default`` plugin of each stage is what the compile laws of
qiskit_transformation already check; ``scheduling`` plugins need instruction durations, which
qiskit_targets' scheduling routes supply. Inputs, programs and oracles are those of
qiskit_transformation's compile laws (drawn circuits, targets of a drawn basis and coupling map,
oracle_core matrices in the check, qiskit.quantum_info.Operator in the reproducer).
"""

from contract_runtime import Contract
from contracts.qiskit_transformation import (COMPILER_SOURCE, COMPILERS, LEVELS, _check_compiler, _compiler_api,
                                             _compiler_strategy, _describe_compiler, _reproduce_compiler,
                                             measured_circuits, unitary_circuits)

FAMILY = "transformation, synthesis, compilation"
STAGES = ("init", "layout", "routing", "translation", "optimization")
SOURCE = (COMPILER_SOURCE + "; transpile's <stage>_method arguments name a stage plugin, "
          "qiskit.transpiler.preset_passmanagers.plugin.list_stage_plugins lists those installed")


def stage_settings():
    """(stage, plugin) for every plugin the release has installed for a stage, but `default`."""
    from qiskit.transpiler.preset_passmanagers.plugin import list_stage_plugins

    return [(stage, name) for stage in STAGES for name in sorted(list_stage_plugins(stage)) if name != "default"]


def _subjects():
    return [f"{entry}@{level}|{stage}_method={name}"
            for stage, name in stage_settings() for entry in COMPILERS for level in LEVELS]


CONTRACTS = [
    Contract("qiskit.transform.stage-plugins-preserve-operator", FAMILY,
             "transpile and generate_preset_pass_manager with any installed plugin chosen for a stage (init, "
             "layout, routing, translation, optimization), at every optimization level, return a circuit with "
             "the input's operator up to the output's layout (global phase included) that only uses "
             "instructions the target supports",
             SOURCE, _subjects, _compiler_strategy(unitary_circuits(max_qubits=3, max_ops=6)),
             lambda s, e: _check_compiler(s, e, False), lambda s, e: _reproduce_compiler(s, e, False),
             _compiler_api, describe=_describe_compiler),
    Contract("qiskit.transform.stage-plugins-preserve-outcome-distribution", FAMILY,
             "transpile and generate_preset_pass_manager with any installed plugin chosen for a stage preserve "
             "the exact outcome distribution of circuits with mid-circuit measurements, resets and if_test "
             "blocks, and only use instructions the target supports",
             SOURCE + "; measurement semantics", _subjects,
             _compiler_strategy(measured_circuits(max_qubits=3, max_ops=6)),
             lambda s, e: _check_compiler(s, e, True), lambda s, e: _reproduce_compiler(s, e, True),
             _compiler_api, describe=_describe_compiler),
]
