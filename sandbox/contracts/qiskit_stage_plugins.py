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

from contracts.qiskit_transformation import COMPILER_SOURCE, COMPILERS, LEVELS, compiler_laws

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


CONTRACTS = compiler_laws(
    "qiskit.transform.stage-plugins-preserve-operator", "qiskit.transform.stage-plugins-preserve-outcome-distribution",
    "transpile and generate_preset_pass_manager with any installed plugin chosen for a stage (init, layout, routing, "
    "translation, optimization), at every optimization level,", SOURCE, _subjects)
