"""Diagnostics for review part 1: d69f46df78fc, 3b123853c2ff, 499a6c6fe72d, 1aaa0626c773,
6ded60dfe0f2, 99cfee6b5ccf (PennyLane 0.45.0)."""
import copy
import inspect
import traceback

import numpy as np
import pennylane as qml
from pennylane.wires import Wires


def attempt(label, fn):
    try:
        out = fn()
        print(f"  {label}: OK -> {out!r}")
        return out
    except Exception as exc:  # noqa: BLE001
        print(f"  {label}: RAISES {type(exc).__name__}: {exc}")
        return None


print("=" * 30, "d69f46df78fc GroverOperator.map_wires", "=" * 30)
wire_map = {0: 101, 1: 2, 2: "m3", 3: "m0"}
op = qml.GroverOperator(wires=[0, 1], work_wires=[2, 3])
m = op.map_wires(wire_map)
print("  has own map_wires:", "map_wires" in vars(qml.GroverOperator))
print("  mapped.wires:", m.wires, " mapped.work_wires:", m.work_wires)
print("  matrix unchanged:", np.allclose(qml.matrix(op, wire_order=[0, 1]), qml.matrix(m, wire_order=[101, 2])))
attempt("mapped.decomposition()", lambda: m.decomposition())
attempt("control GroverOperator(wires=[101,2], work_wires=['m3','m0']).decomposition()",
        lambda: [type(o).__name__ for o in qml.GroverOperator(wires=[101, 2], work_wires=["m3", "m0"]).decomposition()])
# non-colliding map: decomposition silently uses the OLD work wire label
op3 = qml.GroverOperator(wires=[0, 1, 2], work_wires=[3])
m3 = op3.map_wires({0: "a", 1: "b", 2: "c", 3: "d"})
mcx = [o for o in m3.decomposition() if isinstance(o, qml.MultiControlledX)][0]
print("  GroverOperator([0,1,2], work=[3]).map_wires(a,b,c,d): work_wires", m3.work_wires,
      "-> MCX in decomposition: wires", mcx.wires, "work_wires", mcx.work_wires)
tape = qml.tape.QuantumScript([op3], [qml.expval(qml.Z(0))])
(mapped_tape,), _ = qml.map_wires(tape, {0: "a", 1: "b", 2: "c", 3: "d"})
print("  qml.map_wires(tape): op wires", mapped_tape.operations[0].wires,
      "work_wires", mapped_tape.operations[0].work_wires, " tape.wires", mapped_tape.wires)
# control: other ops with work wires do map them
cop = qml.ctrl(qml.RX(0.1, 2), [0, 1], work_wires=[3]).map_wires({0: "a", 1: "b", 2: "c", 3: "d"})
print("  control Controlled(RX).map_wires work_wires:", cop.work_wires)
sel = qml.Select([qml.X(2), qml.Y(2)], control=[0], work_wires=[3]).map_wires({0: "a", 2: "c", 3: "d"})
print("  control Select.map_wires work_wires:", sel.work_wires)

print("=" * 30, "3b123853c2ff MultiControlledX.map_wires", "=" * 30)
op = qml.MultiControlledX(wires=[0, 1], work_wires=[2, 3])
m = op.map_wires(wire_map)
print("  type(mapped):", type(m).__name__, " wires", m.wires, " work_wires", m.work_wires)
print("  matrix unchanged:", np.allclose(qml.matrix(op, wire_order=[0, 1]), qml.matrix(m, wire_order=[101, 2])))
print("  identity map -> type:", type(op.map_wires({})).__name__)
c1 = qml.ctrl(qml.X(1), 0, work_wires=[2, 3])
print("  qml.ctrl(X(1), 0, work_wires=[2,3]) ->", type(c1).__name__, "work_wires", c1.work_wires)
print("  decomposition of original 1-control MCX:", [type(o).__name__ for o in op.decomposition()])
op2 = qml.MultiControlledX(wires=[0, 1, 2], work_wires=[3, 4])
m2 = op2.map_wires({0: "a", 1: "b", 2: "c", 3: "d", 4: "e"})
print("  control 2-control MCX.map_wires ->", type(m2).__name__, "work_wires", m2.work_wires)

print("=" * 30, "499a6c6fe72d givens_decomposition", "=" * 30)
U = np.diag([(-0.6520162635843662 - 0.7582049802141122j), (-0.12400357169577353 + 0.9922817715783613j),
             (0.9670438565151509 + 0.25460985757881444j)])


def rebuild(phases, rots, n):
    R = np.diag(np.asarray(phases)).astype(complex)
    for t, (i, j) in rots:
        full = np.eye(n, dtype=complex)
        full[np.ix_([i, j], [i, j])] = np.asarray(t)
        R = R @ full
    return R


import warnings
warnings.simplefilter("ignore")
for name, mat in [("finding's complex diagonal unitary", U),
                  ("np.eye(3, complex)", np.eye(3, dtype=complex)),
                  ("np.eye(2, complex)", np.eye(2, dtype=complex)),
                  ("real diag(1,-1,-1) (control, real path)", np.diag([1.0, -1.0, -1.0])),
                  ("complex X-permutation [[0,1],[1,0]]", np.array([[0, 1], [1, 0]], dtype=complex))]:
    ph, rots = qml.qchem.givens_decomposition(mat)
    err = np.abs(rebuild(ph, rots, len(mat)) - mat).max()
    print(f"  {name}: phases={np.round(np.asarray(ph), 4)}  reconstruction err={err}")
from scipy.stats import unitary_group
V = unitary_group.rvs(3, random_state=0)
ph, rots = qml.qchem.givens_decomposition(V)
print("  control random U(3): reconstruction err=", np.abs(rebuild(ph, rots, 3) - V).max())
doc = np.array([[0.73678 + 0.27511j, -0.5095 + 0.10704j, -0.06847 + 0.32515j],
                [-0.21271 + 0.34938j, -0.38853 + 0.36497j, 0.61467 - 0.41317j],
                [0.41356 - 0.20765j, -0.00651 - 0.66689j, 0.32839 - 0.48293j]])
ph, rots = qml.qchem.givens_decomposition(doc)
print("  control docstring example: phases", np.round(np.asarray(ph), 5))
g = qml.math.decomposition._givens_matrix(np.complex128(0.3 + 0.1j), np.complex128(0.0), left=False)
print("  _givens_matrix(a, 0, left=False) (already-zero entry) =", np.round(g, 4).tolist(),
      "-> |col0| =", np.abs(g[:, 0]))

print("=" * 30, "1aaa0626c773 VnEntropyMP.process_density_matrix", "=" * 30)
rho_a = np.array([[1, 0], [0, 0]], dtype=complex)
attempt("vn_entropy(['a']).process_density_matrix(|0><0|, ['a'])",
        lambda: qml.vn_entropy(wires=["a"]).process_density_matrix(rho_a, Wires(["a"])))
attempt("control purity(['a']).process_density_matrix(|0><0|, ['a'])",
        lambda: qml.purity(wires=["a"]).process_density_matrix(rho_a, Wires(["a"])))
# silent: wire_order [1, 0] means the first tensor factor is wire 1
rho = np.kron(np.eye(2) / 2, np.array([[1, 0], [0, 0]])).astype(complex)  # wire1 mixed, wire0 pure
attempt("vn_entropy([0]).process_density_matrix(rho, wire_order=[1,0]) (expect 0: wire 0 is pure)",
        lambda: float(qml.vn_entropy(wires=[0]).process_density_matrix(rho, Wires([1, 0]))))
attempt("control purity([0]).process_density_matrix(rho, wire_order=[1,0]) (expect 1)",
        lambda: float(qml.purity(wires=[0]).process_density_matrix(rho, Wires([1, 0]))))
bell = np.zeros(8, dtype=complex)
bell[[0, 6]] = 1 / np.sqrt(2)  # wire_order [2,1,0]: Bell on wires (2,1), wire 0 in |0>
attempt("vn_entropy([0]).process_state(state, wire_order=[2,1,0]) (expect 0)",
        lambda: float(qml.vn_entropy(wires=[0]).process_state(bell, Wires([2, 1, 0]))))
print("  process_density_matrix source:\n   ",
      inspect.getsource(qml.measurements.VnEntropyMP.process_density_matrix).strip().replace("\n", "\n    "))
dev = qml.device("default.qubit", wires=["a"])


@qml.qnode(dev)
def circ():
    return qml.vn_entropy(wires=["a"])


attempt("control QNode on wires ['a'] returning vn_entropy(['a'])", lambda: float(circ()))

print("=" * 30, "6ded60dfe0f2 CotransformCache copy equality", "=" * 30)
from pennylane.transforms.core.cotransform_cache import CotransformCache


@qml.gradients.param_shift
@qml.transforms.split_non_commuting
@qml.qnode(qml.device("default.qubit"))
def c(x, y):
    qml.RX(2 * x, 0)
    qml.RY(x * y, 0)
    return qml.expval(qml.Z(0)), qml.expval(qml.X(0))


x, y = qml.numpy.array(0.5), qml.numpy.array(3.0)
cc = CotransformCache(c, (x, y), {})
dc = copy.deepcopy(cc)
print("  CotransformCache.__eq__ source:\n   ",
      inspect.getsource(CotransformCache.__eq__).strip().replace("\n", "\n    "))
print("  copy.copy(cc) == cc:", copy.copy(cc) == cc, "  deepcopy(cc) == cc:", dc == cc)
print("  QNode defines __eq__:", type(c).__eq__ is not object.__eq__,
      " deepcopy(qnode) == qnode:", copy.deepcopy(c) == c, " copy.copy(qnode) == qnode:", copy.copy(c) == c)
print("  dc.args == cc.args:", dc.args == cc.args, " dc.kwargs == cc.kwargs:", dc.kwargs == cc.kwargs)
ps = c.compile_pipeline[-1]
j1 = cc.get_classical_jacobian(ps, tape_idx=0)
j2 = dc.get_classical_jacobian(dc.qnode.compile_pipeline[-1], tape_idx=0)
print("  classical jacobian original:", [np.round(np.asarray(a), 4).tolist() for a in j1],
      " deepcopy:", [np.round(np.asarray(a), 4).tolist() for a in j2])

print("=" * 30, "99cfee6b5ccf AdaptiveOptimizer.step_and_cost", "=" * 30)
print("  step_and_cost calls:", [l.strip() for l in inspect.getsource(qml.AdaptiveOptimizer.step_and_cost).splitlines()
                                 if "circuit()" in l])
dev2 = qml.device("default.qubit", wires=2)
H = qml.Hamiltonian([1.0, 0.5], [qml.Z(0), qml.X(0) @ qml.X(1)])


@qml.qnode(dev2)
def circuit0():
    qml.PauliX(0)
    return qml.expval(H)


@qml.qnode(dev2, diff_method="parameter-shift")
def circuit1(x):
    qml.RZ(x, wires=0)
    qml.CNOT(wires=[0, 1])
    qml.RY(x, wires=1)
    return qml.expval(qml.PauliZ(1))


pool = [qml.RY(0.0, wires=0), qml.RX(0.0, wires=1), qml.IsingXX(0.0, wires=[0, 1])]
opt = qml.AdaptiveOptimizer()
attempt("control: zero-arg circuit + parametrised gate pool",
        lambda: tuple(float(v) if i else type(v).__name__ for i, v in enumerate(opt.step_and_cost(circuit0, pool))))
attempt("one-arg circuit(x) + same valid pool", lambda: opt.step_and_cost(circuit1, pool))
attempt("user calls circuit1() directly (same error outside the optimizer)", lambda: circuit1())
op_h = (qml.X(0) @ qml.Y(0) - qml.X(0) @ qml.Z(0)) * 1j
print("  pool element from is_verified_hermitian doc:", type(op_h).__name__, "parameters", op_h.parameters,
      "is a gate (Operation):", isinstance(op_h, qml.operation.Operation))
