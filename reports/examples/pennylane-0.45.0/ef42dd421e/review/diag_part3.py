"""Part 3 diagnostics: 88f023bde699, b40b699c01a1, 17d90be429b0, fa30bb978d7a, 7a3d499e902e, 9f19a340a75b."""
import copy
import pickle
import warnings
import numpy as np
import pennylane as qml
from pennylane import numpy as pnp

warnings.filterwarnings("ignore")


def section(title):
    print("\n" + "=" * 20, title, "=" * 20)


def attempt(label, f):
    try:
        out = f()
        print(label, "->", out)
        return out
    except Exception as e:  # noqa
        print(label, "-> raised", type(e).__name__, ":", e)
        return None


# ---------------------------------------------------------------- 88f023bde699
section("88f023bde699 ParametrizedEvolution: == vs hash")


def f1(p, t):
    return p[0] * t  # never called here


def f2(p, t):
    return p * t  # never called here


H = 2 * qml.X(0) + f1 * qml.Y(0) + f2 * qml.Z(0)
ev = qml.evolve(H)
deep = copy.deepcopy(ev)
print("type(ev.H):", type(ev.H).__name__, "| defines own __hash__/__eq__:",
      "__hash__" in type(ev.H).__dict__, "__eq__" in type(ev.H).__dict__)
print("deepcopy: ev == deep:", ev == deep, "| ev.H is deep.H:", ev.H is deep.H,
      "| hash(ev)==hash(deep):", hash(ev) == hash(deep), "| len({ev, deep}):", len({ev, deep}))
shallow = copy.copy(ev)
print("copy.copy (control, shares H): ev == shallow:", ev == shallow,
      "| hash equal:", hash(ev) == hash(shallow))
# no copy at all: the same Hamiltonian written twice
H2 = 2 * qml.X(0) + f1 * qml.Y(0) + f2 * qml.Z(0)
ev2 = qml.evolve(H2)
print("two identical constructions: ev == ev2:", ev == ev2, "| qml.equal:", qml.equal(ev, ev2),
      "| hash equal:", hash(ev) == hash(ev2), "| {ev: 1}.get(ev2):", {ev: 1}.get(ev2))
ev_b = qml.evolve(H)
print("same H object (control): ev == ev_b:", ev == ev_b, "| hash equal:", hash(ev) == hash(ev_b))

# ---------------------------------------------------------------- b40b699c01a1
section("b40b699c01a1 Controlled: == vs hash with permuted control wires")
a = qml.ctrl(qml.CH(wires=[0, 1]), [2, 3], control_values=[False, False])
b = qml.ctrl(qml.CH(wires=[0, 1]), [3, 2], control_values=[False, False])
print("a:", repr(a), "control_wires", a.control_wires.tolist(), "control_values", a.control_values)
print("b:", repr(b), "control_wires", b.control_wires.tolist(), "control_values", b.control_values)
print("a == b:", a == b, "| hash equal:", hash(a) == hash(b), "| len({a, b}):", len({a, b}))
c = qml.ctrl(qml.Hadamard(0), [1, 2])
d = qml.ctrl(qml.Hadamard(0), [2, 1])
print("minimal: ctrl(H(0),[1,2]) == ctrl(H(0),[2,1]):", c == d, "| hash equal:", hash(c) == hash(d))
print("  matrices equal (same operator):",
      np.allclose(qml.matrix(c, wire_order=[0, 1, 2]), qml.matrix(d, wire_order=[0, 1, 2])))
print("  control: same order twice -> hash equal:", hash(c) == hash(qml.ctrl(qml.Hadamard(0), [1, 2])))
print("  qml.simplify(c + c):", qml.simplify(c + c))
print("  qml.simplify(c + d):", qml.simplify(c + d))

# ---------------------------------------------------------------- 17d90be429b0
section("17d90be429b0 reference.qubit expval(Hermitian)")
M = np.array([[0j, -0.5j], [0.5j, 0j]])  # = 0.5 * Y


def run(devname, obs_fn, shots=None, prep=None):
    dev = qml.device(devname, wires=[0])

    @qml.qnode(dev)
    def circ():
        if prep is not None:
            prep()
        return qml.expval(obs_fn())

    if shots is not None:
        circ = qml.set_shots(circ, shots=shots)
    return np.round(float(circ()), 4)


attempt("reference.qubit  <0|Hermitian(0.5Y)|0>", lambda: run("reference.qubit", lambda: qml.Hermitian(M, wires=0)))
attempt("default.qubit    <0|Hermitian(0.5Y)|0>", lambda: run("default.qubit", lambda: qml.Hermitian(M, wires=0)))
attempt("reference.qubit  <0|0.5*Y|0> (control)", lambda: run("reference.qubit", lambda: 0.5 * qml.Y(0)))
attempt("reference.qubit  shots=2000 Hermitian(0.5Y)", lambda: run("reference.qubit", lambda: qml.Hermitian(M, wires=0), shots=2000))
MX = np.array([[0.0, 1.0], [1.0, 0.0]])
prep = lambda: qml.RY(0.7, wires=0)
attempt("reference.qubit  RY(0.7) then Hermitian(X)", lambda: run("reference.qubit", lambda: qml.Hermitian(MX, wires=0), prep=prep))
attempt("default.qubit    RY(0.7) then Hermitian(X)", lambda: run("default.qubit", lambda: qml.Hermitian(MX, wires=0), prep=prep))
print("  exact sin(0.7) =", np.round(np.sin(0.7), 4))
dev = qml.device("reference.qubit", wires=[0])
prog, _ = dev.preprocess()
out, _ = prog((qml.tape.QuantumScript([], [qml.expval(qml.Hermitian(M, wires=0))]),))
print("tape after reference.qubit preprocess: ops", out[0].operations, "| meas obs type",
      type(out[0].measurements[0].obs).__name__)

# ---------------------------------------------------------------- fa30bb978d7a
section("fa30bb978d7a DefaultQutrit.sample before any execution")
from pennylane.devices import DefaultQutrit

dq = DefaultQutrit(wires=[0])
print("fresh device: shots =", dq.shots, "| _samples is None:", dq._samples is None)
attempt("fresh device .sample(qml.RX(0.2, 0))", lambda: dq.sample(qml.RX(0.2, wires=[0])))
attempt("fresh device .sample(qml.GellMann(0, 3))", lambda: dq.sample(qml.GellMann(0, 3)))


def after_execution():
    dev = DefaultQutrit(wires=[0], shots=5)
    tape = qml.tape.QuantumScript([qml.TShift(0)], [qml.sample(qml.GellMann(0, 3))], shots=5)
    dev.execute(tape)
    return dev.sample(qml.GellMann(0, 3))


attempt("control: after dev.execute(tape) with shots=5, .sample(GellMann(0,3))", after_execution)

# ---------------------------------------------------------------- 7a3d499e902e
section("7a3d499e902e metric_tensor block-diag with CRX")
dev2 = qml.device("default.qubit", wires=2)


def make(wires):
    @qml.qnode(dev2, interface="autograd")
    def circuit(weights):
        qml.CRX(weights[0], wires=wires)
        return qml.expval(qml.PauliZ(0))

    @qml.qnode(dev2)
    def state(weights):
        qml.CRX(weights[0], wires=wires)
        return qml.state()

    return circuit, state


w = pnp.array([0.4], requires_grad=True)
for wires in ([0, 1], [1, 0]):
    circuit, state = make(wires)
    bd = qml.metric_tensor(circuit, approx="block-diag")(w)
    dg = qml.metric_tensor(circuit, approx="diag")(w)
    # exact Fubini-Study metric from finite differences of the state
    eps = 1e-6
    psi = np.asarray(state(np.array([0.4])))
    dpsi = (np.asarray(state(np.array([0.4 + eps]))) - np.asarray(state(np.array([0.4 - eps])))) / (2 * eps)
    fs = np.real(np.vdot(dpsi, dpsi) - np.vdot(dpsi, psi) * np.vdot(psi, dpsi))
    print(f"CRX(w) on |00>, wires={wires}: block-diag={np.round(bd, 6).tolist()} diag={np.round(dg, 6).tolist()}"
          f"  exact FS={np.round(fs, 6)}")

circuit3 = qml.QNode(make([0, 1])[0].func, qml.device("default.qubit", wires=3), interface="autograd")
print("approx=None with aux wire (3-wire device), wires=[0,1]:",
      np.round(qml.metric_tensor(circuit3, approx=None)(w), 6).tolist())
gen, s = qml.generator(qml.CRX(0.4, wires=[0, 1]))
print("qml.generator(CRX on [0,1]):", repr(gen), "prefactor", s, "| gen.wires", gen.wires.tolist())
print("gen.eigvals() (ordered by gen.wires):", np.round(gen.eigvals(), 3).tolist())
p = np.array([0.5, 0.5, 0.0, 0.0])  # probs over wires [0,1] after H(1) on |00>
idx = qml.wires.Wires([0, 1]).indices(gen.wires)
print("wires.indices(gen.wires) =", idx, "| marginal_prob(p, idx) =", qml.math.marginal_prob(p, idx).tolist(),
      "| marginal_prob(p,[1,0]) == marginal_prob(p,[0,1]):",
      np.allclose(qml.math.marginal_prob(p, [1, 0]), qml.math.marginal_prob(p, [0, 1])))
print("cov_matrix(p, [gen], wires=[0,1]) =", qml.math.cov_matrix(p, [gen], wires=qml.wires.Wires([0, 1])).tolist(),
      "(exact variance of gen in |0,+>: 0)")

# ---------------------------------------------------------------- 9f19a340a75b
section("9f19a340a75b merge_rotations mutates the tape it is given")
tape = qml.tape.QuantumScript([qml.RX(0.1, 0), qml.RX(0.2, 0)], [qml.expval(qml.Z(0))])
ops_list = tape.operations
print("before: tape.operations =", tape.operations, "| num_params", tape.num_params)
dq2 = qml.device("default.qubit", wires=1)
print("before: execute(tape) =", qml.execute([tape], dq2), "| exact cos(0.3) =", np.round(np.cos(0.3), 6))
tapes, fn = qml.transforms.merge_rotations(tape)
print("returned tape ops:", tapes[0].operations)
print("after: tape.operations =", tape.operations, "| same list object as before:", tape.operations is ops_list,
      "| num_params (cached)", tape.num_params)
print("after: execute(tape) =", qml.execute([tape], dq2))
tape_adj = qml.tape.QuantumScript([qml.RX(0.1, 0), qml.adjoint(qml.RX(0.2, 0))], [qml.expval(qml.Z(0))])
qml.transforms.merge_rotations(tape_adj)
print("control (tape with an Adjoint, decomposed first): after transform tape.operations =", tape_adj.operations)
tape_c = qml.tape.QuantumScript([qml.RX(0.1, 0), qml.RX(0.2, 0)], [qml.expval(qml.Z(0))])
qml.transforms.cancel_inverses(tape_c)
print("control (cancel_inverses on same kind of tape): tape.operations =", tape_c.operations)
