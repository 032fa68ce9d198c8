"""Diagnostics for findings 7a01849a6dbb, 2db384097276, 592e4a085b5f, 4b5e27ea98ef,
1c87305fbe7d, 55a45cb1a978 (qiskit 2.4.1). Prints the values that decide each verdict."""
import copy
import numpy as np
from qiskit import QuantumCircuit, QuantumRegister, ClassicalRegister
from qiskit.circuit import Delay, Measure, Parameter
from qiskit.circuit.library import UnitaryGate, get_standard_gate_name_mapping, CRZGate, iSwapGate, CZGate, RZGate
from qiskit.quantum_info import Operator, random_unitary, SparsePauliOp, SparseObservable
from qiskit.transpiler import InstructionProperties, PassManager, Target

print("=" * 30, "A. 7a01849a6dbb metadata round trip")
from qiskit.converters import circuit_to_dag, dag_to_circuit
qc = QuantumCircuit(QuantumRegister(1, "q"), ClassicalRegister(1, "c"), name="circuit_7", metadata={"tags": [1, 2]})
dag = circuit_to_dag(qc)
out = dag_to_circuit(dag)
print("dag.metadata is qc.metadata:", dag.metadata is qc.metadata)
print("out.metadata is qc.metadata:", out.metadata is qc.metadata)
out.metadata["added"] = 1
print("qc.metadata after out.metadata['added']=1:", qc.metadata)
qc2 = QuantumCircuit(1, metadata={"tags": [1, 2]})
c2 = qc2.copy()
print("qc.copy(): metadata is shared:", c2.metadata is qc2.metadata,
      "| nested shared:", c2.metadata["tags"] is qc2.metadata["tags"])
qc3 = QuantumCircuit(1, metadata={"tags": [1, 2]})
out3 = dag_to_circuit(circuit_to_dag(qc3, copy_operations=True), copy_operations=True)
print("copy_operations=True both ways, still shared:", out3.metadata is qc3.metadata)

print("=" * 30, "B. 2db384097276 sampled_expectation_value with complex coefficients")
from qiskit.result import sampled_expectation_value
def by_hand(dist, labels_coeffs):
    tot = sum(dist.values())
    val = 0j
    for label, coeff in labels_coeffs:
        avg = 0.0
        for bits, w in dist.items():
            e = 1.0
            for ch, b in zip(label, bits):
                if ch == "Z":
                    e *= 1 - 2 * int(b)
            avg += w * e / tot
        val += coeff * avg
    return val
cases = [
    ({"0": 1}, [("I", 0.5j)]),
    ({"0": 1}, [("I", 0.5 + 0j)]),
    ({"0": 1}, [("I", 0.3 + 0.5j)]),
    ({"1": 1}, [("Z", -1j)]),
    ({"0": 3, "1": 1}, [("Z", 1.0), ("I", 0.25j)]),
]
for dist, terms in cases:
    got = sampled_expectation_value(dist, SparsePauliOp.from_list(terms))
    print(f"dist={dist} terms={terms}: library={got!r} ({type(got).__name__}), by hand={by_hand(dist, terms)}")
# independent: <0| 0.5j I |0> from the operator matrix
print("Operator matrix <0|0.5j I|0> =", Operator(SparsePauliOp.from_list([("I", 0.5j)])).data[0, 0])
got = sampled_expectation_value({"0": 1}, SparseObservable.from_list([("I", 0.5j)]))
print("SparseObservable path 0.5j*I:", got)
import inspect
print("annotation of return:", inspect.signature(sampled_expectation_value).return_annotation)

print("=" * 30, "C. 592e4a085b5f CommutationChecker CRZ(a) vs iSwap")
from qiskit.circuit import CommutationChecker
cc = CommutationChecker()
a = Parameter("a0")
print("commute(CRZ(a0), iSwap) on [0,1]:", cc.commute(CRZGate(a), [0, 1], [], iSwapGate(), [0, 1], []))
for th in (0.3, 1.0, np.pi / 2):
    A = Operator(CRZGate(th)).data
    B = Operator(iSwapGate()).data
    comm = np.max(np.abs(A @ B - B @ A))
    fid = abs(np.trace((A @ B) @ (B @ A).conj().T) / 4) ** 2
    print(f"theta={th:.4f}: commute(CRZ(theta), iSwap)={cc.commute(CRZGate(th), [0,1], [], iSwapGate(), [0,1], [])}, "
          f"commute(UnitaryGate(CRZ(theta)), iSwap)={cc.commute(UnitaryGate(A), [0,1], [], iSwapGate(), [0,1], [])}, "
          f"max|AB-BA|={comm:.4f}, avg gate fidelity AB vs BA={(4*fid+1)/5:.6f}")
print("commute(CZ, iSwap):", cc.commute(CZGate(), [0, 1], [], iSwapGate(), [0, 1], []),
      "| max|[CZ,iSwap]| =", np.max(np.abs(Operator(CZGate()).data @ Operator(iSwapGate()).data - Operator(iSwapGate()).data @ Operator(CZGate()).data)))
print("commute(RZ(a0) on q1, iSwap) (control case):", cc.commute(RZGate(a), [1], [], iSwapGate(), [0, 1], []))

print("=" * 30, "D. timing constraints (4b5e27ea98ef, 1c87305fbe7d, 55a45cb1a978)")
from qiskit.circuit.equivalence_library import SessionEquivalenceLibrary
from qiskit.transpiler.passes import (ASAPScheduleAnalysis, ALAPScheduleAnalysis, BasisTranslator,
                                      ConstrainedReschedule, HighLevelSynthesis, PadDelay,
                                      TimeUnitConversion, UnitarySynthesis, InstructionDurationCheck)
from qiskit.transpiler import generate_preset_pass_manager
gates = get_standard_gate_name_mapping()

def make_target(pulse, acq, gate_dt, dt=2.2222222222222221e-10):
    t = Target(num_qubits=2, dt=dt, granularity=1, min_length=1, pulse_alignment=pulse, acquire_alignment=acq)
    t.add_instruction(gates["u"], {(q,): InstructionProperties(duration=gate_dt * dt, error=1e-4) for q in range(2)})
    t.add_instruction(gates["cx"], {e: InstructionProperties(duration=gate_dt * dt, error=1e-3) for e in [(0, 1), (1, 0)]})
    t.add_instruction(Measure(), {(q,): InstructionProperties(duration=100 * dt, error=1e-2) for q in range(2)})
    t.add_instruction(Delay(Parameter("t")), {(q,): None for q in range(2)})
    return t

def starts(circuit):
    """Start time of each op walking the padded circuit (dt units)."""
    clock = [0] * circuit.num_qubits
    res = []
    tgt = circuit._review_target
    for item in circuit.data:
        qs = [circuit.find_bit(q).index for q in item.qubits]
        s = max(clock[q] for q in qs)
        if item.operation.name == "delay":
            d = int(item.operation.duration)
        else:
            p = tgt[item.operation.name][tuple(qs)]
            d = round(p.duration / tgt.dt)
        res.append((item.operation.name, tuple(qs), s))
        for q in qs:
            clock[q] = s + d
    return res

def explicit_pm(target, scheduler=ASAPScheduleAnalysis, reschedule=True, record=None):
    passes = [UnitarySynthesis(target=target), HighLevelSynthesis(target=target),
              BasisTranslator(SessionEquivalenceLibrary, target_basis=list(target.operation_names), target=target),
              TimeUnitConversion(target=target), scheduler(target=target)]
    if reschedule:
        passes.append(ConstrainedReschedule(target=target))
    passes.append(PadDelay(target=target))
    return PassManager(passes)

def recorder(store):
    def cb(pass_, dag, time, property_set, count):
        name = type(pass_).__name__
        if name in ("ASAPScheduleAnalysis", "ALAPScheduleAnalysis", "ConstrainedReschedule"):
            nst = property_set["node_start_time"]
            store[name] = sorted(((n.op.name, tuple(dag.find_bit(q).index for q in n.qargs), t)
                                  for n, t in nst.items()), key=lambda x: (x[2], x[0]))
    return cb

def run(pm, qc, target):
    store = {}
    out = pm.run(qc, callback=recorder(store))
    out._review_target = target
    return out, store

def delays_total(c):
    return sum(int(i.operation.duration) for i in c.data if i.operation.name == "delay")

print("-- D1 4b5e27ea98ef: gppm alap, pulse=2 acq=1, delay(1) then h")
qc = QuantumCircuit(1)
qc.delay(1, 0, unit="dt")
qc.h(0)
for pulse, acq in [(2, 1), (2, 2), (1, 1)]:
    t = make_target(pulse, acq, 2)
    pm0 = PassManager([InstructionDurationCheck(target=t)])
    pm0.run(qc)
    flag = pm0.property_set["reschedule_required"]
    out = generate_preset_pass_manager(optimization_level=0, target=t, scheduling_method="alap", seed_transpiler=0).run(qc)
    out._review_target = t
    print(f"(pulse={pulse}, acq={acq}) InstructionDurationCheck.reschedule_required={flag}; gppm output starts={starts(out)}")
t = make_target(2, 1, 2)
out, st = run(explicit_pm(t, ALAPScheduleAnalysis), qc, t)
print("(2,1) forced ConstrainedReschedule(target): before", st.get("ALAPScheduleAnalysis"), "after", st.get("ConstrainedReschedule"))
print("   output starts", starts(out))
print("   pre-port Python rule 'not (d%acq==0 and d%pulse==0)' for d=1,(2,1):", not (1 % 1 == 0 and 1 % 2 == 0),
      "| Rust rule 'not (d%acq==0 or d%pulse==0)':", not (1 % 1 == 0 or 1 % 2 == 0))

print("-- D2 1c87305fbe7d: explicit ASAP + ConstrainedReschedule, pulse=1 acq=2, delay(1) then measure on q1")
qc = QuantumCircuit(2, 1)
qc.delay(1, 1, unit="dt")
qc.delay(0, 0, unit="dt")
for _ in range(3):
    qc.append(UnitaryGate(random_unitary(2, seed=0)), [0])
qc.measure(1, 0)
for pulse, acq in [(1, 2), (2, 1), (2, 2)]:
    t = make_target(pulse, acq, 2)
    out, st = run(explicit_pm(t), qc, t)
    m_before = [x for x in st["ASAPScheduleAnalysis"] if x[0] == "measure"]
    m_after = [x for x in st["ConstrainedReschedule"] if x[0] == "measure"]
    u_after = [x for x in st["ConstrainedReschedule"] if x[0] == "u"]
    print(f"(pulse={pulse}, acq={acq}) measure before={m_before} after={m_after}; u after={u_after}")
# ConstrainedReschedule without a target (explicit alignments) in 2.4.1
qcm = QuantumCircuit(1, 1)
qcm.delay(1, 0, unit="dt")
qcm.measure(0, 0)
from qiskit.transpiler import InstructionDurations
durs = InstructionDurations([("measure", (0,), 100)], dt=1)
try:
    PassManager([ASAPScheduleAnalysis(durations=durs), ConstrainedReschedule(acquire_alignment=2, pulse_alignment=1)]).run(qcm)
    print("ConstrainedReschedule without target: ran")
except Exception as exc:  # noqa: BLE001
    print("ConstrainedReschedule without target ->", type(exc).__name__, exc)

print("-- D3 55a45cb1a978: pulse=1 acq=1, 2q unitary then delay(1) on q0")
qc = QuantumCircuit(2)
qc.append(UnitaryGate(random_unitary(4, seed=0)), [0, 1])
qc.delay(1, 0, unit="dt")
for dt, label in [(2.2222222222222221e-10, "dt=2.2e-10 (as in finding)"), (1.0, "dt=1.0 (seconds == dt counts)")]:
    t = make_target(1, 1, 1, dt=dt)
    for resched in (True, False):
        out, st = run(explicit_pm(t, reschedule=resched), qc, t)
        before = st["ASAPScheduleAnalysis"]
        after = st.get("ConstrainedReschedule")
        dl_b = [x for x in before if x[0] == "delay"]
        dl_a = [x for x in after if x[0] == "delay"] if after else None
        last_q0_b = max((x for x in before if 0 in x[1] and x[0] != "delay"), key=lambda x: x[2])
        print(f"{label}, ConstrainedReschedule={resched}: delay start ASAP={dl_b} after reschedule={dl_a}; "
              f"last q0 gate (ASAP)={last_q0_b}; output delays total={delays_total(out)} dt")
print("-- D3b: a 1-qubit chain after delay(1): target durations are seconds, truncated to 0 in the reschedule")
for dt in (2.2222222222222221e-10, 1.0):
    t = make_target(1, 1, 2, dt=dt)
    print(f"dt={dt}: target['u'][(0,)].duration = {t['u'][(0,)].duration!r} (as u64: {int(t['u'][(0,)].duration)})")
    qc = QuantumCircuit(1)
    qc.delay(1, 0, unit="dt")
    for _ in range(3):
        qc.u(0.1, 0.2, 0.3, 0)
    st = {}
    out = PassManager([TimeUnitConversion(target=t), ASAPScheduleAnalysis(target=t), ConstrainedReschedule(target=t),
                       PadDelay(target=t)]).run(qc, callback=recorder(st))
    print("   ASAP:", st["ASAPScheduleAnalysis"])
    print("   after ConstrainedReschedule:", st["ConstrainedReschedule"])
