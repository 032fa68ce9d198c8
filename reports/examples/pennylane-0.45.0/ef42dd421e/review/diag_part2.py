"""Diagnostics for review part 2: 0074efc24007, 8acf777f999c, ee933f0bb420, 3fcfad81bfe6,
24ebac95c362, 320aad98f6e5. Each section prints evidence; exceptions are caught and printed."""
import inspect
import traceback

import numpy as np
import pennylane as qml


def attempt(label, fn):
    try:
        out = fn()
        print(f"  {label}: OK -> {out!r}")
        return out
    except Exception as exc:  # noqa: BLE001
        tb = traceback.extract_tb(exc.__traceback__)[-1]
        where = tb.filename.split("site-packages/")[-1] + ":" + str(tb.lineno)
        print(f"  {label}: {type(exc).__name__}: {exc} (innermost {where})")
        return None


print("=" * 20, "0074efc24007 op_to_adjvec(ops, basis=<single Operator>)")
from pennylane.liealg import op_to_adjvec

print("  signature:", inspect.signature(op_to_adjvec))
for line in inspect.getdoc(op_to_adjvec).splitlines():
    if "basis (" in line or "ops (" in line or "len(basis)" in line:
        print("  doc:", line.strip())
attempt("finding input op_to_adjvec([X(0)], X(0))", lambda: op_to_adjvec([qml.X(0)], qml.X(0)))
attempt("control op_to_adjvec([X(0)], [X(0)])", lambda: op_to_adjvec([qml.X(0)], [qml.X(0)]))
attempt("doc example op_to_adjvec([X+0.5Y], [X,Y,Z])",
        lambda: op_to_adjvec([qml.X(0) + 0.5 * qml.Y(0)], [qml.X(0), qml.Y(0), qml.Z(0)]))
attempt("annotation-allowed single PauliSentence basis",
        lambda: op_to_adjvec([qml.X(0).pauli_rep], qml.X(0).pauli_rep))

print("=" * 20, "8acf777f999c CompositeOp.map_wires keeps stale hyperparameters")
op = qml.ops.ChangeOpBasis(compute_op=qml.MultiRZ(0.0, wires=[0]), target_op=qml.MultiRZ(0.0, wires=[1]))
m = op.map_wires({0: "m1", 1: "m0"})
print("  mapped.wires:", m.wires)
print("  mapped.operands wires:", [list(o.wires) for o in m.operands])
print("  mapped.hyperparameters['operands'] wires:", [list(o.wires) for o in m.hyperparameters["operands"]])
print("  hyperparameters dict is the original's object:", m.hyperparameters is op.hyperparameters)
for name, o in [("Prod", qml.prod(qml.X(0), qml.Y(1))), ("Sum", qml.sum(qml.X(0), qml.Y(1)))]:
    mm = o.map_wires({0: 5, 1: 6})
    print(f"  {name}: operands wires {[list(x.wires) for x in mm.operands]}, "
          f"hyperparameters['operands'] wires {[list(x.wires) for x in mm.hyperparameters['operands']]}")
print("  consequence under graph decomposition (rules receive **op.hyperparameters):")
cob = qml.ops.ChangeOpBasis(qml.Hadamard(0), qml.Z(0))
cob_m = cob.map_wires({0: 1})
print("  mapped ChangeOpBasis wires:", cob_m.wires, " legacy decomposition():", cob_m.decomposition())
dev = qml.device("default.qubit", wires=2)


def make(opx):
    @qml.qnode(dev)
    def circ():
        qml.apply(opx)
        return qml.probs(wires=[0, 1])
    return circ


ref = qml.ops.ChangeOpBasis(qml.Hadamard(1), qml.Z(1))  # what the mapped op should be
qml.decomposition.enable_graph()
try:
    tape = qml.tape.QuantumScript([cob_m])
    [dt], _ = qml.transforms.decompose(tape, gate_set={"Hadamard", "PauliZ"})
    print("  graph decompose(mapped op) ->", dt.operations)
    [dt2], _ = qml.transforms.decompose(qml.tape.QuantumScript([ref]), gate_set={"Hadamard", "PauliZ"})
    print("  graph decompose(fresh op on wire 1) ->", dt2.operations)
    # Probability check with a state that distinguishes wire 0 from wire 1: |01>, H Z H = X
    @qml.qnode(dev)
    def c_mapped():
        qml.PauliX(1)
        qml.apply(cob_m)
        return qml.probs(wires=[0, 1])

    @qml.qnode(dev)
    def c_ref():
        qml.PauliX(1)
        qml.apply(ref)
        return qml.probs(wires=[0, 1])
    print("  graph on, probs with mapped op:", attempt("c_mapped", c_mapped))
    print("  graph on, probs with fresh op :", attempt("c_ref", c_ref))
finally:
    qml.decomposition.disable_graph()
print("  graph off, probs with mapped op (same circuit):", attempt("c_mapped(graph off)", c_mapped))
print("  graph off, probs with fresh op  (same circuit):", attempt("c_ref(graph off)", c_ref))
print("  expected: X(1) then H Z H = X on wire 1 -> |00> -> [1,0,0,0]")

print("=" * 20, "ee933f0bb420 AdaptiveOptimizer.step(circuit(x), [non-gate op])")
opt_doc = inspect.getdoc(qml.AdaptiveOptimizer.step_and_cost)
print("  step_and_cost source first line of body:",
      [l.strip() for l in inspect.getsource(qml.AdaptiveOptimizer.step_and_cost).splitlines() if "cost = circuit()" in l])
for line in opt_doc.splitlines():
    if "circuit (" in line or "operator_pool (" in line:
        print("  doc:", line.strip())
dev3 = qml.device("default.qubit", wires=2)


@qml.qnode(dev3, diff_method="parameter-shift")
def circuit_x(x):
    qml.RZ(x, wires=0)
    qml.CNOT(wires=[0, 1])
    qml.RY(x, wires=1)
    return qml.expval(qml.PauliZ(1))


@qml.qnode(dev3)
def circuit0():
    qml.PauliX(0)
    return qml.expval(qml.PauliZ(0) @ qml.PauliZ(1))


pool = [qml.SingleExcitation(0.0, wires=[0, 1]), qml.RY(0.0, wires=1)]
odd = (qml.X(0) @ qml.Y(0) - qml.X(0) @ qml.Z(0)) * 1j
attempt("finding input step(circuit_x, [odd])", lambda: qml.AdaptiveOptimizer().step(circuit_x, [odd]))
attempt("circuit(x) with a gate pool", lambda: qml.AdaptiveOptimizer().step(circuit_x, pool))
attempt("calling circuit_x() directly (what step_and_cost does first)", lambda: circuit_x())
r = attempt("control: no-arg circuit with a gate pool, step_and_cost",
            lambda: qml.AdaptiveOptimizer(param_steps=2).step_and_cost(circuit0, pool)[1:])
attempt("no-arg circuit with the finding's operator (not a parametrized gate)",
        lambda: qml.AdaptiveOptimizer(param_steps=2).step_and_cost(circuit0, [odd])[1:])

print("=" * 20, "3fcfad81bfe6 liealg.C(Operator without pauli_rep)")
from pennylane.liealg import C, DIII, AI

for line in inspect.getdoc(C).splitlines():
    if "op (" in line or "bool:" in line or "Whether or not" in line or "involution :math" in line:
        print("  doc:", line.strip())
mrz = qml.MultiRZ(0.5, wires=[0, 1])
print("  MultiRZ.pauli_rep:", mrz.pauli_rep)
attempt("finding input C(MultiRZ(0.5,[0,1]))", lambda: C(mrz))
attempt("same operator as matrix C(qml.matrix(MultiRZ))", lambda: C(qml.matrix(mrz, wire_order=[0, 1])))
herm_y = qml.Hermitian(qml.matrix(qml.Y(0)), wires=0)
print("  Hermitian(Y).pauli_rep:", herm_y.pauli_rep)
attempt("Hermitian-Y operator C(Hermitian(Y,0))", lambda: C(herm_y))
attempt("control C(Y(0)) (has pauli_rep)", lambda: C(qml.Y(0)))
attempt("control C(matrix of Y(0))", lambda: C(qml.matrix(qml.Y(0))))
attempt("control C(Z(0))", lambda: C(qml.Z(0)))
attempt("sibling AI(Hermitian(Y,0))", lambda: AI(herm_y))
attempt("mixed parity C(X(0)+Y(0)) (library's own assert)", lambda: C(qml.X(0) + qml.Y(0)))

print("=" * 20, "24ebac95c362 DefaultGaussian.execute_and_gradients default method='jacobian'")
from pennylane.devices import DefaultGaussian

g = DefaultGaussian(wires=[0])
print("  capabilities provides_jacobian:", g.capabilities().get("provides_jacobian"))
print("  hasattr(dev, 'jacobian'):", hasattr(g, "jacobian"))
print("  execute_and_gradients signature:", inspect.signature(g.execute_and_gradients))
for line in inspect.getdoc(g.execute_and_gradients).splitlines():
    if "method (" in line or "plugin developers" in line:
        print("  doc:", line.strip())
with qml.tape.QuantumTape() as tape1:
    with qml.QueuingManager.stop_recording():
        with qml.tape.QuantumTape() as tape2:
            qml.RX(0.123, wires=0)
print("  tape1 operations:", tape1.operations, "measurements:", tape1.measurements)
attempt("finding input execute_and_gradients([tape1])", lambda: g.execute_and_gradients([tape1]))
attempt("control batch_execute([tape1])", lambda: g.batch_execute([tape1]))
cv = qml.tape.QuantumScript([qml.Displacement(0.3, 0.0, wires=0)], [qml.expval(qml.QuadX(0))])
attempt("control batch_execute([CV tape])", lambda: g.batch_execute([cv]))
attempt("gradients([CV tape]) (same default)", lambda: g.gradients([cv]))
fd = qml.device("default.gaussian", wires=1)
print("  via qml.device: type", type(fd).__name__, ", supports_derivatives:", fd.supports_derivatives())

print("=" * 20, "320aad98f6e5 debug_expval outside a debugging context")
for line in inspect.getdoc(qml.debug_expval).splitlines():
    if "debugging context" in line or "current point" in line:
        print("  doc:", line.strip())
print("  QueuingManager.active_context() outside:", qml.QueuingManager.active_context())
op_h = (qml.X(0) @ qml.Y(0) - qml.X(0) @ qml.Z(0)) * 1j
attempt("finding input debug_expval(op) at top level", lambda: qml.debug_expval(op_h))
attempt("debug_expval(Z(0)) at top level", lambda: qml.debug_expval(qml.Z(0)))
attempt("debug_state() at top level", lambda: qml.debug_state())
attempt("breakpoint() at top level (documented guard)", lambda: qml.breakpoint())
dev5 = qml.device("default.qubit", wires=2)
seen = {}


@qml.qnode(dev5)
def circ5(x):
    qml.RX(x, wires=0)
    qml.Hadamard(wires=1)
    seen["expval_Z0"] = qml.debug_expval(qml.Z(0))
    seen["expval_op"] = qml.debug_expval(qml.X(1))
    qml.CNOT(wires=[0, 1])
    return qml.state()


circ5(1.23)
print("  inside a QNode execution (debugging context):", seen, " cos(1.23) =", np.cos(1.23))
