from qiskit import QuantumCircuit, transpile
from qiskit.circuit import Delay, Measure, Parameter
from qiskit.circuit.library import get_standard_gate_name_mapping
from qiskit.transpiler import InstructionProperties, PassManager, Target, generate_preset_pass_manager
from qiskit.transpiler.passes import (ALAPScheduleAnalysis, ASAPScheduleAnalysis, BasisTranslator,
    ConstrainedReschedule, HighLevelSynthesis, PadDelay, TimeUnitConversion, UnitarySynthesis, InstructionDurationCheck)
from qiskit.circuit.equivalence_library import SessionEquivalenceLibrary
gates = get_standard_gate_name_mapping()
dt = 2.2222222222222221e-10
def mk():
    target = Target(num_qubits=2, dt=dt, granularity=1, min_length=1, pulse_alignment=1, acquire_alignment=2)
    edges = [[0, 1], [1, 0]]
    target.add_instruction(gates['u'], {(q,): InstructionProperties(duration=2 * dt, error=0.0001) for q in range(2)})
    target.add_instruction(gates['cx'], {tuple(q): InstructionProperties(duration=2 * dt, error=0.001) for q in edges})
    target.add_instruction(Measure(), {(q,): InstructionProperties(duration=100 * dt, error=1e-2) for q in range(2)})
    target.add_instruction(Delay(Parameter('t')), {(q,): None for q in range(2)})
    return target
target = mk()

def walk(out):
    clock = [0]*out.num_qubits; res=[]
    for it in out.data:
        qs=[out.find_bit(q).index for q in it.qubits]; s=max(clock[q] for q in qs)
        op=it.operation
        if op.name=='delay': d=int(op.duration)
        else: d=round(target[op.name][tuple(qs)].duration/dt)
        res.append((op.name, tuple(qs), s, d))
        for q in qs: clock[q]=s+d
    return res

def dump(label, pm, qc):
    out = pm.run(qc) if pm is not None else None
    print(label)
    for r in walk(out): print("   ", r)
    print("    reschedule_required:", pm.property_set['reschedule_required'] if hasattr(pm,'property_set') else None)
    return out

# Scenario A (dd9e8c236e30 / 4b5e27ea98ef)
qcA = QuantumCircuit(1, 1)
for _ in range(3): qcA.h(0)
qcA.delay(1, 0, unit='dt'); qcA.h(0); qcA.measure(0, 0)
out = transpile(qcA, target=target, optimization_level=0, scheduling_method='alap', seed_transpiler=0)
print("A transpile alap:"); [print("   ", r) for r in walk(out)]
out = transpile(qcA, target=target, optimization_level=0, scheduling_method='asap', seed_transpiler=0)
print("A transpile asap:"); [print("   ", r) for r in walk(out)]
# the preset scheduling stage: inspect InstructionDurationCheck
pm = generate_preset_pass_manager(optimization_level=0, target=target, scheduling_method='alap', seed_transpiler=0)
print("scheduling stage passes:", [type(t).__name__ for t in pm.scheduling.to_flow_controller().tasks])
out = pm.run(qcA)
print("gppm property reschedule_required:", pm.property_set['reschedule_required'])
print("gppm node_start_time:", sorted((n.name, t) for n,t in pm.property_set['node_start_time'].items()) if pm.property_set['node_start_time'] else None)
# the same after basis translation, with explicit ConstrainedReschedule (no condition)
pmA = PassManager([BasisTranslator(SessionEquivalenceLibrary, target_basis=list(target.operation_names), target=target),
    TimeUnitConversion(target=target), ALAPScheduleAnalysis(target=target), ConstrainedReschedule(target=target), PadDelay(target=target)])
o = pmA.run(qcA); print("A explicit PM alap+ConstrainedReschedule:"); [print("   ", r) for r in walk(o)]

# Scenario B (98796a15fd76 / 89b35f375a5b)
qcB = QuantumCircuit(2, 1)
qcB.delay(1, 0, unit='dt'); qcB.measure(0, 0); qcB.delay(0, 0, unit='dt')
for _ in range(3): qcB.ch(0, 1)
for name, S in (("ASAP", ASAPScheduleAnalysis), ("ALAP", ALAPScheduleAnalysis)):
    passes = [UnitarySynthesis(target=target), HighLevelSynthesis(target=target),
        BasisTranslator(SessionEquivalenceLibrary, target_basis=list(target.operation_names), target=target),
        TimeUnitConversion(target=target), S(target=target)]
    pm0 = PassManager(passes)
    pm0.run(qcB)
    print(name, "start times before reschedule:", [(n.name, t) for n, t in pm0.property_set['node_start_time'].items() if n.name in ('measure','delay')])
    pm = PassManager(passes + [ConstrainedReschedule(target=target)])
    pm.run(qcB)
    print(name, "start times after reschedule:", [(n.name, t) for n, t in pm.property_set['node_start_time'].items() if n.name in ('measure','delay')])
    o = PassManager(passes + [ConstrainedReschedule(target=target), PadDelay(target=target)]).run(qcB)
    print(name, "walk:"); [print("   ", r) for r in walk(o) if r[0] in ('measure','delay') or True][:6]
# Variant: drop the zero-length delay
qcC = QuantumCircuit(2, 1)
qcC.delay(1, 0, unit='dt'); qcC.measure(0, 0)
for _ in range(3): qcC.ch(0, 1)
pm = PassManager([BasisTranslator(SessionEquivalenceLibrary, target_basis=list(target.operation_names), target=target),
        TimeUnitConversion(target=target), ASAPScheduleAnalysis(target=target), ConstrainedReschedule(target=target), PadDelay(target=target)])
o = pm.run(qcC); print("C (no zero delay) walk:", [r for r in walk(o) if r[0] in ('measure','delay')])
