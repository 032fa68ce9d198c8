"""Diagnostics for review part A (findings 78596c73eb8f, ddf499feb35d, dd9e8c236e30,
ebf84f39a434, 4d65dec0aacf, 4c0ab586b81f, aff693f867a7). Prints the values deciding each verdict."""
import traceback
import numpy as np


def section(title):
    print("\n==== " + title)


def guard(fn):
    try:
        fn()
    except Exception as exc:  # print, keep going
        print("  EXCEPTION:", type(exc).__name__, str(exc)[:300])


# ---------------------------------------------------------------- 78596c73eb8f
def commutation():
    from qiskit import QuantumCircuit
    from qiskit.circuit import CommutationChecker
    from qiskit.circuit.library import (CRZGate, CZGate, SwapGate, XXPlusYYGate, UnitaryGate,
                                        CRXGate, CPhaseGate)
    from qiskit.quantum_info import Operator, average_gate_fidelity

    def truth(a, qa, b, qb):
        ab = QuantumCircuit(2); ab.append(b, qb); ab.append(a, qa)
        ba = QuantumCircuit(2); ba.append(a, qa); ba.append(b, qb)
        A, B = Operator(ab), Operator(ba)
        return float(np.max(np.abs(A.data - B.data))), float(average_gate_fidelity(A, B))

    xy = XXPlusYYGate(np.pi / 4, 0.0)
    crz = CRZGate(1.0)
    print("  avg fidelity XXPlusYY(pi/4) vs I:", average_gate_fidelity(Operator(xy)))
    print("  avg fidelity CRZ(1.0) vs I:", average_gate_fidelity(Operator(crz)))
    print("  truth XXPlusYY vs CRZ(1.0): (max|AB-BA|, avg fid AB vs BA) =", truth(xy, [0, 1], crz, [0, 1]))
    for deg in (0.999, 1.0):
        print(f"  commute(XXPlusYY, CRZ(1.0), approximation_degree={deg}) ->",
              CommutationChecker().commute(xy, [0, 1], [], crz, [0, 1], [], approximation_degree=deg))
    print("  commute(XXPlusYY, UnitaryGate(CRZ(1.0) matrix)) [matrix path] ->",
          CommutationChecker().commute(xy, [0, 1], [], UnitaryGate(Operator(crz).data), [0, 1], []))
    print("  commute(XXPlusYY, CZ) ->", CommutationChecker().commute(xy, [0, 1], [], CZGate(), [0, 1], []),
          " truth:", truth(xy, [0, 1], CZGate(), [0, 1]))
    print("  commute(SWAP, CRZ(1.0)) default degree ->",
          CommutationChecker().commute(SwapGate(), [0, 1], [], crz, [0, 1], []),
          " truth:", truth(SwapGate(), [0, 1], crz, [0, 1]))
    print("  commute(SWAP, CPhase(1.0)) default degree ->",
          CommutationChecker().commute(SwapGate(), [0, 1], [], CPhaseGate(1.0), [0, 1], []),
          " truth:", truth(SwapGate(), [0, 1], CPhaseGate(1.0), [0, 1]))
    # transpiler impact: CommutativeInverseCancellation on SWAP . CRZ . SWAP
    from qiskit.transpiler import PassManager
    from qiskit.transpiler.passes import CommutativeInverseCancellation
    qc = QuantumCircuit(2); qc.swap(0, 1); qc.crz(1.0, 0, 1); qc.swap(0, 1)
    out = PassManager(CommutativeInverseCancellation()).run(qc)
    print("  CommutativeInverseCancellation(SWAP CRZ SWAP) ops:", dict(out.count_ops()),
          " operator equal:", Operator(out).equiv(Operator(qc)))


section("78596c73eb8f CommutationChecker XXPlusYY vs CRZ")
guard(commutation)


# ---------------------------------------------------------------- ddf499feb35d
def us_clifford():
    from qiskit import QuantumCircuit, transpile
    from qiskit.circuit.library import UnitaryGate, HGate
    from qiskit.converters import circuit_to_dag, dag_to_circuit
    from qiskit.quantum_info import Operator, random_unitary
    from qiskit.transpiler.passes import UnitarySynthesis

    def run(basis, mat):
        qc = QuantumCircuit(1); qc.append(UnitaryGate(mat), [0])
        out = dag_to_circuit(UnitarySynthesis(basis_gates=basis).run(circuit_to_dag(qc)))
        gap = float(np.max(np.abs(Operator(out).data - Operator(qc).data)))
        return dict(out.count_ops()), gap

    u = random_unitary(2, seed=0).data
    for basis in (['h', 's', 'sdg', 'cx'], ['h', 't', 'tdg', 'cx'], ['rz', 'sx', 'cx']):
        ops, gap = run(basis, u)
        print(f"  UnitarySynthesis(basis={basis}) on random 1q unitary: ops={ops}, max|dU|={gap:.3g}",
              " outside basis:", sorted(set(ops) - set(basis)))
    ops, gap = run(['h', 's', 'sdg', 'cx'], HGate().to_matrix())
    print(f"  basis h,s,sdg,cx on UnitaryGate(H matrix) (exactly expressible): ops={ops}, gap={gap:.3g}")
    qc = QuantumCircuit(1); qc.append(UnitaryGate(u), [0])

    def tr():
        out = transpile(qc, basis_gates=['h', 's', 'sdg', 'cx'], optimization_level=0)
        print("  transpile(basis h,s,sdg,cx) ops:", dict(out.count_ops()))
    guard(tr)


section("ddf499feb35d UnitarySynthesis Clifford-only basis")
guard(us_clifford)


# ---------------------------------------------------------------- aff693f867a7
def us_cp():
    from qiskit import QuantumCircuit
    from qiskit.circuit.library import UnitaryGate, CPhaseGate
    from qiskit.converters import circuit_to_dag, dag_to_circuit
    from qiskit.quantum_info import Operator, random_unitary
    from qiskit.transpiler.passes import UnitarySynthesis
    from qiskit.synthesis import TwoQubitControlledUDecomposer

    u = random_unitary(4, seed=0)
    for basis in (['rz', 'sx', 'cp'], ['rz', 'sx', 'x', 'cp'], ['rz', 'sx', 'rzz'], ['rz', 'sx', 'cx'],
                  ['u', 'cp']):
        qc = QuantumCircuit(2); qc.append(UnitaryGate(u), [0, 1])
        out = dag_to_circuit(UnitarySynthesis(basis_gates=basis).run(circuit_to_dag(qc)))
        ops = dict(out.count_ops())
        print(f"  basis={basis}: ops={ops} outside={sorted(set(ops) - set(basis))}",
              " operator equiv:", Operator(out).equiv(Operator(qc)))
    d = TwoQubitControlledUDecomposer(CPhaseGate, euler_basis="ZSX")
    circ = d(u.data)
    print("  TwoQubitControlledUDecomposer(CPhaseGate,'ZSX') ops:", dict(circ.count_ops()))


section("aff693f867a7 UnitarySynthesis rz,sx,cp")
guard(us_cp)


# ---------------------------------------------------------------- dd9e8c236e30
def scheduling():
    from qiskit import QuantumCircuit, transpile
    from qiskit.circuit import Delay, Measure, Parameter
    from qiskit.circuit.library import get_standard_gate_name_mapping
    from qiskit.converters import circuit_to_dag
    from qiskit.transpiler import InstructionProperties, PassManager, Target
    from qiskit.transpiler.passes import (InstructionDurationCheck, ALAPScheduleAnalysis,
                                          ConstrainedReschedule, PadDelay)
    gates = get_standard_gate_name_mapping()
    dt = 2.2222222222222221e-10

    def make_target(pa, aa):
        t = Target(num_qubits=2, dt=dt, granularity=1, min_length=1, pulse_alignment=pa, acquire_alignment=aa)
        t.add_instruction(gates['u'], {(q,): InstructionProperties(duration=2 * dt, error=1e-4) for q in range(2)})
        t.add_instruction(gates['cx'], {e: InstructionProperties(duration=2 * dt, error=1e-3) for e in [(0, 1), (1, 0)]})
        t.add_instruction(Measure(), {(q,): InstructionProperties(duration=100 * dt, error=1e-2) for q in range(2)})
        t.add_instruction(Delay(Parameter('t')), {(q,): None for q in range(2)})
        return t

    qc = QuantumCircuit(1); qc.delay(1, 0, unit='dt'); qc.h(0)

    def starts(out):
        t, res = {}, []
        qidx = {b: i for i, b in enumerate(out.qubits)}
        for inst in out.data:
            qs = [qidx[q] for q in inst.qubits]
            s = max(t.get(q, 0) for q in qs)
            res.append((inst.operation.name, tuple(qs), s))
            dur = inst.operation.params[0] if inst.operation.name == 'delay' else 2
            for q in qs:
                t[q] = s + dur
        return res

    for pa, aa in ((2, 1), (2, 2)):
        target = make_target(pa, aa)
        out = transpile(qc, target=target, optimization_level=0, scheduling_method='alap', seed_transpiler=0)
        print(f"  pulse_alignment={pa}, acquire_alignment={aa}: transpile alap -> (name, qubits, start dt):",
              starts(out))
        chk = InstructionDurationCheck(target=target)
        chk.run(circuit_to_dag(qc))
        print(f"    InstructionDurationCheck reschedule_required on delay(1dt): {chk.property_set['reschedule_required']}"
              f"  (correct: 1 % {pa} != 0 -> True)")
    # forced reschedule with pulse_alignment=2, acquire_alignment=1
    target = make_target(2, 1)
    tq = transpile(qc, target=target, optimization_level=0, seed_transpiler=0)
    pm = PassManager([ALAPScheduleAnalysis(target=target), ConstrainedReschedule(target=target), PadDelay(target=target)])
    out = pm.run(tq)
    print("  forced ALAP+ConstrainedReschedule+PadDelay (2,1):", starts(out))
    # ConstrainedReschedule alone, explicit alignments, no target (durations from InstructionDurations)
    from qiskit.transpiler import InstructionDurations
    durs = InstructionDurations([('u', 0, 2), ('u', 1, 2)], dt=dt)
    for pa, aa in ((2, 1), (1, 2)):
        cr = ConstrainedReschedule(acquire_alignment=aa, pulse_alignment=pa)
        cr.target = None  # 2.4.1 leaves .target unset without a target (separate known issue)
        pm = PassManager([ALAPScheduleAnalysis(durs), cr, PadDelay(durations=durs)])
        print(f"  no-target ConstrainedReschedule(pulse_alignment={pa}, acquire_alignment={aa}):",
              starts(pm.run(tq)), " (correct: u start multiple of", pa, ")")


section("dd9e8c236e30 scheduling pulse_alignment")
guard(scheduling)


# ---------------------------------------------------------------- ebf84f39a434 / 4d65dec0aacf
def u2u3():
    from qiskit.circuit import Parameter
    from qiskit.circuit.library import U2Gate, U3Gate
    a = Parameter('a')
    g1, g2 = U2Gate(a, 0.37), U2Gate(a, np.float64(0.37))
    print("  same Parameter: U2Gate(a,0.37) == U2Gate(a,np.float64(0.37)) ->", g1 == g2)
    print("  0.37 == np.float64(0.37) ->", 0.37 == np.float64(0.37), "; isinstance(np.float64, float):",
          isinstance(np.float64(0.37), float))
    print("  reprs:", repr(g1), "|", repr(g2))
    from qiskit import QuantumCircuit
    from qiskit.quantum_info import Operator
    c1 = QuantumCircuit(1); c1.append(g1, [0]); c2 = QuantumCircuit(1); c2.append(g2, [0])
    print("  operators equal after binding a=0.1:",
          np.allclose(Operator(c1.assign_parameters({a: 0.1})).data, Operator(c2.assign_parameters({a: 0.1})).data))
    h1, h2 = U3Gate(a, a, 0.37), U3Gate(a, a, np.float64(0.37))
    print("  same Parameter: U3Gate(a,a,0.37) == U3Gate(a,a,np.float64(0.37)) ->", h1 == h2)
    print("  fresh Parameter('a') twice: U2Gate(P('a'),0.37) == U2Gate(P('a'),0.37) ->",
          U2Gate(Parameter('a'), 0.37) == U2Gate(Parameter('a'), 0.37),
          "; Parameter('a') == Parameter('a') ->", Parameter('a') == Parameter('a'))
    from qiskit.circuit.library import RXGate
    print("  plain-number control: RXGate(np.float64(0.37)).params ->", RXGate(np.float64(0.37)).params,
          "; RXGate(0.37)==RXGate(np.float64(0.37)) ->", RXGate(0.37) == RXGate(np.float64(0.37)))


section("ebf84f39a434 / 4d65dec0aacf U2Gate/U3Gate np.float64")
guard(u2u3)


# ---------------------------------------------------------------- 4c0ab586b81f
def multiplier():
    from qiskit import QuantumCircuit, transpile
    from qiskit.circuit.library import MultiplierGate
    from qiskit.quantum_info import Statevector
    from qiskit.synthesis.arithmetic import multiplier_qft_r17
    for n, t in ((1, 1), (1, 2), (2, 3), (2, 4)):
        g = MultiplierGate(n, t)
        print(f"  MultiplierGate({n},{t}): num_qubits={g.num_qubits}, definition qubits={g.definition.num_qubits}",
              f"; multiplier_qft_r17({n},{t}) qubits={multiplier_qft_r17(n, t).num_qubits}")

    def decomp():
        g = MultiplierGate(1, 1)
        qc = QuantumCircuit(3); qc.append(g, range(3)); qc.decompose()
        print("  decompose() of MultiplierGate(1,1): ok")
    guard(decomp)

    def evolve():
        g = MultiplierGate(1, 1)
        Statevector.from_int(0, 8).evolve(g)
        print("  Statevector.evolve(MultiplierGate(1,1)): ok")
    guard(evolve)

    # transpile path (HLS plugin passes num_result_qubits): does it compute a*b mod 2?
    g = MultiplierGate(1, 1)
    qc = QuantumCircuit(3); qc.append(g, range(3))
    tq = transpile(qc, basis_gates=['u', 'cx'], optimization_level=0)
    res = []
    for a in (0, 1):
        for b in (0, 1):
            idx = a | (b << 1)
            p = Statevector.from_int(idx, 8).evolve(tq).probabilities_dict()
            res.append(((a, b), p))
    print("  transpiled MultiplierGate(1,1) outputs (little endian a,b,out):", res)


section("4c0ab586b81f MultiplierGate(1, num_result_qubits=1)")
guard(multiplier)
