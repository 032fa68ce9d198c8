"""Diagnostics for part B of the d5bab38c4f review (qiskit 2.4.1).

One section per finding; each prints the values that decide its verdict.
"""
import numpy as np
from qiskit import QuantumCircuit, transpile
from qiskit.quantum_info import Operator, Kraus, Stinespring, Choi, random_unitary


def attempt(label, fn):
    try:
        out = fn()
        print(f"  {label}: ok -> {out}")
    except BaseException as exc:  # PanicException derives from BaseException
        print(f"  {label}: {type(exc).__name__}: {str(exc)[:120]}")


def basis_action(circ, nbits):
    """Maps each computational basis input (ancillas 0) to its output index, or None if not classical."""
    u = Operator(circ).data
    res = {}
    for x in range(2 ** nbits):
        col = u[:, x]
        k = int(np.argmax(np.abs(col)))
        res[x] = k if abs(abs(col[k]) - 1) < 1e-9 else None
    return res


print("=== A. 584453c4ce09: ModularAdder.ripple_v95 plugin")
from qiskit.circuit.library import ModularAdderGate
from qiskit.transpiler.passes.synthesis.plugin import HighLevelSynthesisPluginManager
from qiskit.synthesis.arithmetic import adder_ripple_v95
from qiskit.transpiler.passes import HLSConfig, HighLevelSynthesis

plugin = HighLevelSynthesisPluginManager().method("ModularAdder", "ripple_v95")
for n in (1, 2, 3):
    gate = ModularAdderGate(n)
    out = plugin.run(gate, coupling_map=None, target=None, qubits=list(range(n * 2)),
                     num_clean_ancillas=max(n - 1, 0))
    direct = adder_ripple_v95(n, kind="fixed")
    print(f"  n={n}: plugin ops {dict(out.count_ops())}; same as adder_ripple_v95(n,'fixed'): "
          f"{out == direct}; width {out.num_qubits}")
    wrong = []
    act = basis_action(out, 2 * n)  # inputs with ancillas 0 are the first 2^(2n) columns
    for a in range(2 ** n):
        for b in range(2 ** n):
            x = a | (b << n)
            y = act[x]
            want = a | (((a + b) % 2 ** n) << n)
            if y != want:
                wrong.append((a, b, None if y is None else (y >> n) & (2 ** n - 1)))
    print(f"    wrong sums: {len(wrong)}/{4 ** n}; first: {wrong[:3]} (a, b, b_out)")
# independent check: the gate's own operator computes the modular sum
act = basis_action(ModularAdderGate(2).definition, 4)
print("  ModularAdderGate(2) own definition, a=1,b=1 ->",
      "b_out =", (act[1 | (1 << 2)] >> 2) & 3, "(expected 2)")
# the half adder from the same function (no 'fixed') is right on the low bits
half = adder_ripple_v95(2, kind="half")
act = basis_action(half, 5)
print("  adder_ripple_v95(2,'half') a=1,b=1 -> b_out(with carry) =", (act[1 | (1 << 2)] >> 2) & 7)
# the default plugin does not pick ripple_v95
from qiskit.transpiler.passes.synthesis.hls_plugins import ModularAdderSynthesisDefault
import inspect
print("  ModularAdder.default mentions V95:", "V95" in inspect.getsource(ModularAdderSynthesisDefault.run))

print("\n=== B. 1a11f4d33f1c: Stinespring.is_cptp(atol, rtol)")
K = np.array([[complex(0.080934, -0.344818), complex(-0.415036, 0.838031)],
              [complex(0.41225, 0.839405), complex(0.079789, 0.345085)]])
dev = np.max(np.abs(K.conj().T @ K - np.eye(2)))
print(f"  max|K^dag K - I| = {dev:.3e}")
st = Stinespring(Kraus([K]))
print("  Stinespring.is_cptp(atol=1e-3, rtol=0):", st.is_cptp(atol=1e-3, rtol=0.0))
print("  Stinespring.is_cptp(atol=1e-1, rtol=1e-1):", st.is_cptp(atol=1e-1, rtol=1e-1))
print("  Stinespring.is_cptp():", st.is_cptp(), " (default atol", st.atol, ")")
print("  Kraus.is_cptp(atol=1e-3, rtol=0):", Kraus([K]).is_cptp(atol=1e-3, rtol=0.0))
print("  Choi.is_cptp(atol=1e-3, rtol=0):", Choi(Kraus([K])).is_cptp(atol=1e-3, rtol=0.0))
print("  Stinespring.is_tp(atol=1e-3, rtol=0) (base class):", st.is_tp(atol=1e-3, rtol=0.0))
U = random_unitary(2, seed=1).data
print("  exact unitary Stinespring.is_cptp(atol=1e-3):", Stinespring(Kraus([U])).is_cptp(atol=1e-3))
src = inspect.getsource(Stinespring.is_cptp)
print("  source passes:", [l.strip() for l in src.splitlines() if "is_identity_matrix" in l])

print("\n=== C. 1ebe78cdfa61: OptimizeSwapBeforeMeasure on a measurement-free SWAP")
from qiskit.transpiler import PassManager
from qiskit.transpiler.passes import OptimizeSwapBeforeMeasure
from qiskit.quantum_info import Statevector

qc = QuantumCircuit(2)
qc.swap(0, 1)
out = PassManager([OptimizeSwapBeforeMeasure()]).run(qc)
print("  output ops:", dict(out.count_ops()), " layout:", out.layout)
print("  Operator(out) == Operator(qc):", Operator(out) == Operator(qc))
qc2 = QuantumCircuit(2)
qc2.x(0)
qc2.swap(0, 1)
out2 = PassManager([OptimizeSwapBeforeMeasure()]).run(qc2)
print("  X(0);SWAP: statevector in", Statevector(qc2).probabilities_dict(), "out",
      Statevector(out2).probabilities_dict())
# with measurements the pass is correct (retargets the clbits)
qm = QuantumCircuit(2, 2)
qm.x(0)
qm.swap(0, 1)
qm.measure([0, 1], [0, 1])
om = PassManager([OptimizeSwapBeforeMeasure()]).run(qm)
print("  measured variant out:", [(i.operation.name, [om.find_bit(q).index for q in i.qubits],
                                     [om.find_bit(c).index for c in i.clbits]) for i in om.data])
# partially measured: swap then measure only qubit 0
qp = QuantumCircuit(2, 1)
qp.x(0)
qp.swap(0, 1)
qp.measure(0, 0)
op_ = PassManager([OptimizeSwapBeforeMeasure()]).run(qp)
print("  partially measured out:", [(i.operation.name, [op_.find_bit(q).index for q in i.qubits]) for i in op_.data])
print("  pass docstring:", OptimizeSwapBeforeMeasure.__doc__.strip().splitlines()[0])

print("\n=== D. 177e5846d394: UnitarySynthesis basis ['rz','sx','cp']")
from qiskit.circuit.library import UnitaryGate
from qiskit.converters import circuit_to_dag, dag_to_circuit
from qiskit.transpiler.passes import UnitarySynthesis

for basis in (["rz", "sx", "cp"], ["rz", "sx", "x", "cp"], ["rz", "sx", "cx"]):
    qu = QuantumCircuit(2)
    qu.append(UnitaryGate(random_unitary(4, seed=0)), [0, 1])
    o = dag_to_circuit(UnitarySynthesis(basis_gates=basis).run(circuit_to_dag(qu)))
    print(f"  {basis}: ops {dict(o.count_ops())}; outside basis "
          f"{sorted(set(o.count_ops()) - set(basis))}; operator equal {Operator(o) == Operator(qu)}")

print("\n=== E. ee00553ababe: DAGCircuit.node")
from qiskit.dagcircuit import DAGCircuit

print("  docstring:", " ".join((DAGCircuit.node.__doc__ or "").split())[:300])
d0 = DAGCircuit()
attempt("empty DAG node(0)", lambda: d0.node(0))
attempt("empty DAG node(1)", lambda: d0.node(1))
qd = QuantumCircuit(1)
qd.h(0)
d1 = circuit_to_dag(qd)
print("  1-qubit DAG node ids:", [n._node_id for n in d1.nodes()])
attempt("1q DAG node(2) (exists)", lambda: d1.node(2))
attempt("1q DAG node(7) (no such id)", lambda: d1.node(7))
hnode = d1.op_nodes()[0]
hid = hnode._node_id
d1.remove_op_node(hnode)
attempt(f"1q DAG node({hid}) after removing that node", lambda: d1.node(hid))
attempt("node(-1)", lambda: d1.node(-1))

print("\n=== F. 7a1e19df77d9: SolovayKitaevDecomposition.query_basic_approximation")
from qiskit.synthesis import SolovayKitaevDecomposition
from qiskit.circuit.library import CXGate, HGate, RXGate
from qiskit.circuit import Gate, Parameter

sk = SolovayKitaevDecomposition()
swapish = UnitaryGate([[0, 0, 0, 1], [0, 0, 1, 0], [1, 0, 0, 0], [0, 1, 0, 0]])
u1 = UnitaryGate(random_unitary(2, seed=3))
attempt("1q UnitaryGate", lambda: dict(sk.query_basic_approximation(u1).count_ops()))
attempt("RXGate(0.3)", lambda: dict(sk.query_basic_approximation(RXGate(0.3)).count_ops()))
attempt("1q 2x2 matrix", lambda: dict(sk.query_basic_approximation(random_unitary(2, seed=3).data).count_ops()))
attempt("2q UnitaryGate (the finding)", lambda: sk.query_basic_approximation(swapish))
attempt("CXGate", lambda: sk.query_basic_approximation(CXGate()))
attempt("4x4 matrix", lambda: sk.query_basic_approximation(np.eye(4)))
attempt("run(2q UnitaryGate, 1)", lambda: sk.run(swapish, 1))
attempt("run(4x4 matrix, 1)", lambda: sk.run(np.eye(4), 1))
attempt("1q RXGate(Parameter)", lambda: sk.query_basic_approximation(RXGate(Parameter("t"))))
attempt("1q opaque Gate('g',1,[])", lambda: sk.query_basic_approximation(Gate("g", 1, [])))
print("  query docstring:", " ".join(SolovayKitaevDecomposition.query_basic_approximation.__doc__.split()))
print("  run docstring gate_matrix:",
      [l.strip() for l in SolovayKitaevDecomposition.run.__doc__.splitlines() if "single-qubit" in l])
