"""qiskit-14329: generate_preset_pass_manager(target=...) ignores the target's timing
constraints (pulse alignment) when scheduling.

A target whose pulse alignment is 16 dt: after ALAP scheduling every gate must start at a
multiple of 16 dt (the documented meaning of pulse_alignment)."""
from qiskit import QuantumCircuit
from qiskit.circuit import Delay
from qiskit.circuit.library import XGate
from qiskit.transpiler import InstructionProperties, Target, generate_preset_pass_manager

dt = 1e-9
target = Target(num_qubits=1, dt=dt, pulse_alignment=16, acquire_alignment=16)
target.add_instruction(XGate(), {(0,): InstructionProperties(duration=160 * dt)})
target.add_instruction(Delay(1), {(0,): None})

qc = QuantumCircuit(1)
qc.x(0)
qc.delay(3, 0, unit="dt")
qc.x(0)

assert target.timing_constraints().pulse_alignment == 16
pm = generate_preset_pass_manager(optimization_level=0, target=target, scheduling_method="alap")
out = pm.run(qc)
starts = [out.op_start_times[i] for i, inst in enumerate(out.data) if inst.operation.name == "x"]
misaligned = [t for t in starts if t % 16]
assert not misaligned, f"x gates start at {starts} dt; pulse_alignment=16 requires multiples of 16"
