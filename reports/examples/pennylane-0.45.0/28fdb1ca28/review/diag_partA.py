"""Diagnostics for part A of the review of run 28fdb1ca28 (pennylane 0.45.0).

Each section prints the values that decide one verdict. Run only in the sandbox:
    qusema run --env pennylane==0.45.0 --cold --timeout 300 diag_partA.py
"""
import copy
import warnings

import numpy as np
import scipy.linalg as sla
import pennylane as qml

warnings.simplefilter("ignore")


def attempt(label, fn):
    try:
        out = fn()
        print(f"  {label}: {out!r}")
        return out
    except Exception as exc:  # noqa: BLE001
        print(f"  {label}: RAISES {type(exc).__name__}: {exc}")
        return None


Y = np.array([[0, -1j], [1j, 0]])
Z = np.diag([1.0, -1.0])

# ---------------------------------------------------------------- liealg
print("== 121675edb580 (DIII) / 3fe6468c0dda (AII): liealg involutions on an Operator without pauli_rep")
from pennylane.liealg import AII, DIII, concurrence_involution

mrz = qml.MultiRZ(0.5, wires=[0, 1])
attempt("MultiRZ(0.5,[0,1]).pauli_rep", lambda: mrz.pauli_rep)
attempt("DIII(MultiRZ)", lambda: DIII(mrz))
attempt("DIII(qml.matrix(MultiRZ))", lambda: DIII(qml.matrix(mrz)))
attempt("AII(MultiRZ)", lambda: AII(mrz))
attempt("AII(qml.matrix(MultiRZ))", lambda: AII(qml.matrix(mrz)))
# A Hermitian algebra element (the kind of input the involutions are meant for), with and
# without a Pauli representation
hy = qml.Hermitian(Y, wires=0)
hz = qml.Hermitian(Z, wires=0)
attempt("Hermitian(Y,0).pauli_rep", lambda: hy.pauli_rep)
attempt("DIII(Y(0))", lambda: DIII(qml.Y(0)))
attempt("DIII(matrix of Y)", lambda: DIII(Y))
attempt("DIII(Hermitian(Y,0))", lambda: DIII(hy))
attempt("AII(Z(0) @ X(1))", lambda: AII(qml.Z(0) @ qml.X(1)))
attempt("AII(matrix of Z(0)@X(1))", lambda: AII(qml.matrix(qml.Z(0) @ qml.X(1), wire_order=[0, 1])))
attempt("AII(Hermitian(kron(Z,X),[0,1]))",
        lambda: AII(qml.Hermitian(np.kron(Z, [[0, 1], [1, 0]]), wires=[0, 1])))
attempt("sibling concurrence_involution(Hermitian(Y,0)) (falls back to the matrix)",
        lambda: concurrence_involution(hy))

# ---------------------------------------------------------------- IntegerComparator.map_wires
print("\n== 1bf4fc446187: IntegerComparator.map_wires leaves wire-valued hyperparameters unmapped")
op = qml.IntegerComparator(value=0, wires=[0, 1])
mapped = op.map_wires({0: "m1", 1: "m0"})
fresh = qml.IntegerComparator(value=0, wires=["m1", "m0"])
print("  overrides map_wires:", "map_wires" in type(op).__dict__)
print("  mapped.wires:", mapped.wires, "| mapped.control_wires (property):", mapped.control_wires)
print("  mapped.hyperparameters:", mapped.hyperparameters)
print("  fresh.hyperparameters: ", fresh.hyperparameters)
print("  mapped.hyperparameters is op.hyperparameters:", mapped.hyperparameters is op.hyperparameters)
attempt("qml.equal(mapped, fresh)", lambda: qml.equal(mapped, fresh))
attempt("hash(mapped) == hash(fresh)", lambda: hash(mapped) == hash(fresh))
attempt("matrix equal", lambda: bool(np.allclose(qml.matrix(mapped, wire_order=["m1", "m0"]),
                                                 qml.matrix(fresh, wire_order=["m1", "m0"]))))
# With work wires (documented constructor argument), the stale work wires enter the decomposition.
opw = qml.IntegerComparator(3, wires=[0, 1, 2], work_wires=[3])
wm = {0: "a", 1: "b", 2: "c", 3: "d"}
mw = opw.map_wires(wm)
print("  with work_wires=[3], map {0:a,1:b,2:c,3:d}: mapped.wires", mw.wires,
      "work_wires", mw.hyperparameters["work_wires"])
attempt("wires touched by mapped.decomposition()",
        lambda: sorted({str(w) for g in mw.decomposition() for w in
                        list(g.wires) + list(getattr(g, "work_wires", []))}))
attempt("wires touched by fresh op's decomposition",
        lambda: sorted({str(w) for g in qml.IntegerComparator(3, wires=["a", "b", "c"], work_wires=["d"]).decomposition()
                        for w in list(g.wires) + list(getattr(g, "work_wires", []))}))
# permutation of labels: the stale work wire 3 collides with the new target wire 3
perm = {0: 3, 1: 1, 2: 2, 3: 0}
mp_ = opw.map_wires(perm)
print("  map {0:3,1:1,2:2,3:0}: mapped.wires", mp_.wires, "work_wires", mp_.hyperparameters["work_wires"])
attempt("mapped.decomposition()", lambda: mp_.decomposition())
attempt("fresh IntegerComparator(3, wires=[3,1,2], work_wires=[0]).decomposition() length",
        lambda: len(qml.IntegerComparator(3, wires=[3, 1, 2], work_wires=[0]).decomposition()))
# via qml.map_wires on a circuit, then a device that has to decompose it
dev = qml.device("default.qubit", wires=[0, 1, 2, 3])


def qfunc():
    qml.X(0); qml.X(1); qml.X(2)
    qml.IntegerComparator(3, wires=[0, 1, 2], work_wires=[3])
    return qml.probs(wires=[0, 1, 2])


for label, f in [("original", qfunc), ("qml.map_wires(perm)", qml.map_wires(qfunc, perm))]:
    q = qml.QNode(qml.transforms.decompose(f, gate_set={"MultiControlledX", "PauliX", "CNOT", "Toffoli"}), dev)
    attempt(f"decomposed QNode {label} probs", lambda q=q: np.round(q(), 6).tolist())

# ---------------------------------------------------------------- simplify of LinearCombination
print("\n== 06a9d2e30162: qml.simplify(LinearCombination) drops wires used only by Identity terms")
H = qml.ops.LinearCombination([1.0, 1.0], [qml.PauliX(0), qml.Identity([0, 1])])
S = qml.simplify(H)
print("  op:", H, "wires", H.wires, "| simplified:", S, "wires", S.wires, type(S).__name__)
attempt("qml.matrix(op).shape", lambda: qml.matrix(H).shape)
attempt("qml.matrix(simplified).shape", lambda: qml.matrix(S).shape)
attempt("matrix equal on wire_order [0,1]",
        lambda: bool(np.allclose(qml.matrix(H, wire_order=[0, 1]), qml.matrix(S, wire_order=[0, 1]))))
attempt("qml.eigvals(op)", lambda: np.round(qml.eigvals(H), 6).tolist())
attempt("qml.eigvals(simplified)", lambda: np.round(qml.eigvals(S), 6).tolist())
attempt("op.simplify().wires", lambda: H.simplify().wires)
attempt("qml.simplify(qml.sum(s_prod X0, s_prod I01)).wires",
        lambda: qml.simplify(qml.sum(qml.s_prod(1.0, qml.X(0)), qml.s_prod(1.0, qml.Identity([0, 1])))).wires)
attempt("qml.simplify(1.0*X(0) + 1.0*I([0,1])).wires", lambda: qml.simplify(1.0 * qml.X(0) + 1.0 * qml.Identity([0, 1])).wires)
attempt("H.pauli_rep.operation(wire_order=H.wires).wires", lambda: H.pauli_rep.operation(wire_order=H.wires).wires)
attempt("qml.simplify(qml.Hamiltonian([1.23],[qml.I(0)])).wires (issue #8746 example)",
        lambda: qml.simplify(qml.Hamiltonian([1.23], [qml.I(0)])).wires)
attempt("qml.simplify(1.23*qml.I(0)).wires", lambda: qml.simplify(1.23 * qml.I(0)).wires)

# ---------------------------------------------------------------- merge_rotations
print("\n== 4d72c249d843: merge_rotations empties the caller's tape")
tape = qml.tape.QuantumScript([qml.Hadamard(0), qml.Hadamard(0)], [qml.expval(qml.Z(0))])
before = list(tape.operations)
(out,), _ = qml.transforms.merge_rotations(tape)
print("  input before:", before, "| input after:", tape.operations, "| returned:", out.operations)
t2 = qml.tape.QuantumScript([qml.Hadamard(0)], [qml.expval(qml.Z(0))])
d1 = qml.device("default.qubit", wires=1)
print("  <Z> of [H] before transform:", qml.execute([t2], d1)[0])
qml.transforms.merge_rotations(t2)
print("  same tape after transform:", t2.operations, "<Z> =", qml.execute([t2], d1)[0], "(expected 0)")
t3 = qml.tape.QuantumScript([qml.RX(0.1, 0), qml.RX(0.2, 0)], [qml.expval(qml.Z(0))])
(o3,), _ = qml.transforms.merge_rotations(t3)
print("  [RX(0.1),RX(0.2)] input after:", t3.operations, "| returned:", o3.operations)

# ---------------------------------------------------------------- relative_entropy
print("\n== c2543347f760: qml.math.relative_entropy gives NaN when eigh returns a roundoff-negative eigenvalue of rho")
state0 = np.array([[0.1403209805135156 + 0j, 0.31112630396939844 + 0.15437430459627213j],
                   [0.31112630396939844 - 0.15437430459627213j, 0.8596790194864838 + 0j]])
state1 = np.array([[0.576173560418711 - 2.6954317277040996e-17j, -0.14458891371477364 - 0.028422310094877473j],
                   [-0.14458891371477364 + 0.02842231009487746j, 0.42382643958128924 + 2.124171699851965e-17j]])
print("  eigvalsh(state0):", np.linalg.eigvalsh(state0), "| eigvalsh(state1):", np.linalg.eigvalsh(state1))
print("  trace(state0):", np.trace(state0).real, "rank-1 (pure) state")


def textbook(rho, sigma):
    w, v = np.linalg.eigh(rho)
    w = np.clip(w, 0, None)
    rho_log_rho = sum(p * np.log(p) for p in w if p > 1e-15)
    return float(np.real(rho_log_rho - np.trace(rho @ sla.logm(sigma))))


attempt("relative_entropy(state0,state1,check_state=True)",
        lambda: qml.math.relative_entropy(state0, state1, check_state=True, c_dtype="complex128"))
attempt("relative_entropy(state0,state1) (check_state=False)", lambda: qml.math.relative_entropy(state0, state1))
print("  independent: Tr rho log rho - Tr rho logm(sigma) =", textbook(state0, state1))
attempt("vn_entropy(state0, indices=[0]) (masks evs>0)", lambda: qml.math.vn_entropy(state0, indices=[0]))
# exactly rank-1 diag input works
attempt("relative_entropy(diag(1,0), state1)", lambda: qml.math.relative_entropy(np.diag([1.0, 0.0]).astype(complex), state1))
print("  independent for diag(1,0):", textbook(np.diag([1.0, 0.0]).astype(complex), state1))
# the documented way to build rho from a pure state
rng = np.random.default_rng(7)
nan_count = 0
trials = 200
for _ in range(trials):
    psi = rng.normal(size=2) + 1j * rng.normal(size=2)
    psi /= np.linalg.norm(psi)
    rho = qml.math.dm_from_state_vector(psi)
    a = rng.normal(size=(2, 2)) + 1j * rng.normal(size=(2, 2))
    sigma = a @ a.conj().T
    sigma /= np.trace(sigma)
    val = qml.math.relative_entropy(rho, sigma)
    if np.isnan(val):
        nan_count += 1
print(f"  random pure rho = dm_from_state_vector(psi) vs random full-rank sigma: {nan_count}/{trials} NaN")
psi = np.array([0.6, 0.8j])
rho = qml.math.dm_from_state_vector(psi)
sigma = np.diag([0.3, 0.7]).astype(complex)
print("  eigvalsh(dm_from_state_vector([0.6,0.8j])):", np.linalg.eigvalsh(rho))
attempt("relative_entropy(dm([0.6,0.8j]), diag(0.3,0.7))", lambda: qml.math.relative_entropy(rho, sigma))
print("  independent:", textbook(rho, sigma))

# ---------------------------------------------------------------- mutual_info
print("\n== 817916087fe4: MutualInfoMP.process_state ignores wire_order (wire labels used as positions)")
mp = qml.mutual_info(wires0=["a"], wires1=[7])
attempt("process_state(|00>, wire_order=['a',7])",
        lambda: mp.process_state(np.array([1, 0, 0, 0], dtype=complex), qml.wires.Wires(["a", 7])))
attempt("process_state(|00>, wire_order=['a','b']) with wires0=['a'], wires1=['b']",
        lambda: qml.mutual_info(["a"], ["b"]).process_state(np.array([1, 0, 0, 0], dtype=complex), qml.wires.Wires(["a", "b"])))
bell = np.array([1, 0, 0, 1], dtype=complex) / np.sqrt(2)
# Bell pair on wires 0,1 and |0> on wire 2, in wire order [2, 0, 1]
state = np.kron(np.array([1, 0], dtype=complex), bell)
attempt("mutual_info([0],[1]).process_state(|0>_2 (x) Bell_01, wire_order=[2,0,1]) (expected 2 ln 2 = 1.3863)",
        lambda: qml.mutual_info([0], [1]).process_state(state, qml.wires.Wires([2, 0, 1])))
attempt("control: Bell_01 (x) |0>_2 with wire_order=[0,1,2] (labels equal positions)",
        lambda: qml.mutual_info([0], [1]).process_state(np.kron(bell, np.array([1, 0], dtype=complex)), qml.wires.Wires([0, 1, 2])))
attempt("purity([0]).process_state(|0>_2 (x) Bell_01, wire_order=[2,0,1]) (expected 0.5)",
        lambda: qml.purity([0]).process_state(state, qml.wires.Wires([2, 0, 1])))
devs = qml.device("default.qubit", wires=["a", 7])


@qml.qnode(devs)
def mi_circuit():
    qml.Hadamard("a")
    qml.CNOT(["a", 7])
    return qml.mutual_info(wires0=["a"], wires1=[7])


attempt("QNode on wires ['a',7], Bell pair, mutual_info(['a'],[7])", mi_circuit)

# ---------------------------------------------------------------- FockStateProjector.label
print("\n== cbebbf23de4e: FockStateProjector(n=2, wires=[0]).label()")
attempt("FockStateProjector([2], wires=[0]).label()", lambda: qml.FockStateProjector([2], wires=[0]).label())
attempt("FockStateProjector(np.array([2]), wires=[0]).label()", lambda: qml.FockStateProjector(np.array([2]), wires=[0]).label())
attempt("FockStateProjector([1,2,3], wires=(0,1,2)).label() (docstring example)",
        lambda: qml.FockStateProjector([1, 2, 3], wires=(0, 1, 2)).label())
attempt("FockStateProjector(2, wires=[0]).label() (scalar n)", lambda: qml.FockStateProjector(2, wires=[0]).label())

# ---------------------------------------------------------------- AbstractArray
print("\n== c79a99a2c352: AbstractArray(shape=list) vs AbstractArray(shape=tuple)")
from pennylane.templates import AbstractArray

a_list, a_tup = AbstractArray([1, 2]), AbstractArray((1, 2))
print("  reprs:", a_list, "|", a_tup)
attempt("AbstractArray([1,2]) == AbstractArray((1,2))", lambda: a_list == a_tup)
attempt("hash(AbstractArray([1,2]))", lambda: hash(a_list))
attempt("hash(AbstractArray((1,2)))", lambda: hash(a_tup))
attempt("len() list/tuple", lambda: (len(a_list), len(a_tup)))
print("  dataclass field annotation:", AbstractArray.__dataclass_fields__["shape"].type)

# ---------------------------------------------------------------- estimator RY.resource_decomp
print("\n== 9ba3fb172f87: qre.RY.resource_decomp() with its signature's default precision=None")
import inspect
import pennylane.estimator as qre
from pennylane.estimator.ops.qubit import parametric_ops_single_qubit as psq

print("  signature:", inspect.signature(qre.RY.resource_decomp))
print("  _rotation_resources signature:", inspect.signature(psq._rotation_resources))
attempt("qre.RY.resource_decomp()", lambda: qre.RY.resource_decomp())
attempt("qre.RY.resource_decomp(precision=None)", lambda: qre.RY.resource_decomp(precision=None))
attempt("qre.RY.resource_decomp(precision=1e-9)", lambda: qre.RY.resource_decomp(precision=1e-9))
attempt("qre.RY.resource_decomp(precision=1e-4) (docstring example: [(24 x T)])", lambda: qre.RY.resource_decomp(precision=1e-4))
attempt("qre.RX.resource_decomp()", lambda: qre.RX.resource_decomp())
attempt("qre.RZ.resource_decomp()", lambda: qre.RZ.resource_decomp())
attempt("qre.PhaseShift.resource_decomp() (documented with no argument)", lambda: qre.PhaseShift.resource_decomp())
attempt("ResourceConfig().resource_op_precisions[qre.RY]", lambda: qre.ResourceConfig().resource_op_precisions[qre.RY])
attempt("qre.estimate(qre.RY()).gate_counts (config fills precision)",
        lambda: dict(qre.estimate(qre.RY()).gate_counts))

# ---------------------------------------------------------------- SProd with InterfaceTensor()
print("\n== 5f2656c37340: SProd(scalar=InterfaceTensor(), base=custom op)")
from pennylane.typing import InterfaceTensor, TensorLike

obj = InterfaceTensor()
print("  isinstance(InterfaceTensor(), InterfaceTensor):", isinstance(obj, InterfaceTensor),
      "| isinstance(.., TensorLike):", isinstance(obj, TensorLike), "| float-convertible:",
      attempt("float(obj)", lambda: float(obj)) is not None)


class MyOp(qml.operation.Operator):
    def __init__(self, data, wires):
        self.data = data
        super().__init__(wires=wires)


base = MyOp(qml.numpy.array(0.5), wires=0)
attempt("SProd(0.5, MyOp).has_decomposition", lambda: qml.ops.op_math.SProd(0.5, base).has_decomposition)
attempt("SProd(InterfaceTensor(), X(0)).has_decomposition", lambda: qml.ops.op_math.SProd(obj, qml.X(0)).has_decomposition)
attempt("SProd(InterfaceTensor(), MyOp).has_decomposition", lambda: qml.ops.op_math.SProd(obj, base).has_decomposition)
print("\ndone")
