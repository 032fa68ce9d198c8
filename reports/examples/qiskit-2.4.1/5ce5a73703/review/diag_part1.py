"""Reviewer diagnostics for part 1 (qiskit 2.4.1). Prints the values that decide each verdict."""
import numpy as np
from qiskit import QuantumCircuit, qasm2
from qiskit.circuit import CommutationChecker, Parameter
from qiskit.circuit.library import RZGate, SGate, SwapGate, CRZGate, CZGate
from qiskit.quantum_info import Operator, average_gate_fidelity
from qiskit.primitives import StatevectorSampler, StatevectorEstimator

print("== 07cf79bcbddf: CommutationChecker")
g = RZGate(np.pi / 4).control(1, ctrl_state=1)
print("RZ(pi/4).control(1) ->", type(g).__name__, g.name)
fresh = CommutationChecker().commute(g, [0, 1], [], SwapGate(), [0, 1], [], approximation_degree=1.0)
ch = CommutationChecker()
ch.commute(RZGate(0.0), [0], [], SGate(), [0], [], approximation_degree=1.0)
after = ch.commute(g, [0, 1], [], SwapGate(), [0, 1], [], approximation_degree=1.0)
print("fresh checker:", fresh, "| after RZ(0)/S query:", after)
ab = QuantumCircuit(2); ab.append(SwapGate(), [0, 1]); ab.append(g, [0, 1])
ba = QuantumCircuit(2); ba.append(g, [0, 1]); ba.append(SwapGate(), [0, 1])
print("AB vs BA avg gate fidelity:", average_gate_fidelity(Operator(ab), Operator(ba)))
print("CRZ(1.0)/SWAP:", CommutationChecker().commute(CRZGate(1.0), [0, 1], [], SwapGate(), [0, 1], []),
      "| CZ/SWAP:", CommutationChecker().commute(CZGate(), [0, 1], [], SwapGate(), [0, 1], []))

print("== 14bc27e5ef8c: StatevectorSampler sweep points")
qc = QuantumCircuit(3); qc.h(range(3)); t = Parameter("t"); qc.rz(t, 0); qc.measure_all()
for seed in (0, np.random.default_rng(0)):
    d = StatevectorSampler(seed=seed).run([(qc, [[0.0], [0.0]])], shots=64).result()[0].data.meas
    print(" seed", type(seed).__name__, "sweep points identical:", d.get_bitstrings(0) == d.get_bitstrings(1))
qm = QuantumCircuit(3); qm.h(range(3)); qm.measure_all()
r = StatevectorSampler(seed=0).run([qm, qm], shots=64).result()
print(" int seed, two pubs identical:", r[0].data.meas.get_bitstrings() == r[1].data.meas.get_bitstrings())

print("== 14ecfc7c464f: StatevectorEstimator pubs")
qe = QuantumCircuit(3); qe.h(range(3))
obs = ["ZZZ", "XXX", "III"]
for seed in (0, np.random.default_rng(0)):
    res = StatevectorEstimator(seed=seed).run([(qe, obs), (qe, obs)], precision=0.1).result()
    print(" seed", type(seed).__name__, "pubs identical:", res[0].data.evs.tolist() == res[1].data.evs.tolist(),
          res[0].data.evs.round(4).tolist(), res[1].data.evs.round(4).tolist())

print("== 3a14b016476b: which field triggers (circuit name vs to_gate label)")
def ctrl(name, label):
    c = QuantumCircuit(1, name=name); c.h(0)
    return Operator(c.to_gate(label=label).control(1, ctrl_state=0))
ref = ctrl("neutral", "neutral")
for name, label in (("x", "neutral"), ("neutral", "x"), ("x", "x")):
    print(f" name={name!r} label={label!r}: max dev {np.max(np.abs(ctrl(name, label).data - ref.data)):.3g}")

print("== 0ec1770433ef: which field triggers the crash")
def build3(n0, n1, n2):
    q = QuantumCircuit(3, name=n0); c1 = QuantumCircuit(2, name=n1)
    for _ in range(4):
        c1.ch(0, 1)
    q.append(c1.to_gate(), [0, 1]); q.ccx(0, 1, 2); q.ccx(0, 1, 2)
    return Operator(q.to_gate(label=n2).control(2, ctrl_state=0))
ref3 = build3("a", "b", "c")
for names in (("x", "b", "c"), ("a", "x", "c"), ("a", "b", "x")):
    try:
        print(f" {names}: max dev {np.max(np.abs(build3(*names).data - ref3.data)):.3g}")
    except Exception as e:
        print(f" {names}: raised {type(e).__name__}: {str(e)[:60]!r}")

print("== 4857c2eca9ac: qasm2 export")
def q2(n0, n1):
    q = QuantumCircuit(1, name=n0); c1 = QuantumCircuit(1, name=n1); c1.h(0); q.append(c1.to_gate(), [0])
    return qasm2.dumps(q)
for names in (("x", "neutral"), ("neutral", "x")):
    txt = q2(*names)
    back = qasm2.loads(txt, custom_instructions=qasm2.LEGACY_CUSTOM_INSTRUCTIONS)
    print(f" names {names}: body {txt.splitlines()[2:]!r}; loaded ops {[i.name for i in back.data]}")
