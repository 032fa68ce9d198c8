"""Part B diagnostics (run 28fdb1ca28): one section per finding, printing the values that
decide each verdict. Runs only in the sandbox (qusema run --env pennylane==0.45.0 --cold)."""
import warnings
import traceback
import numpy as np
import pennylane as qml
from pennylane import numpy as pnp

warnings.filterwarnings("ignore")


def section(title):
    print("\n" + "=" * 10, title)


def attempt(label, fn):
    try:
        out = fn()
        print(f"{label}: {out!r}")
        return out
    except Exception as exc:  # noqa: BLE001
        tb = traceback.extract_tb(exc.__traceback__)[-1]
        where = tb.filename.split("site-packages/")[-1] + ":" + str(tb.lineno)
        print(f"{label}: RAISES {type(exc).__name__}: {exc} (at {where})")
        return None


# ---------------------------------------------------------------------------
section("12926afbec8f metric_tensor of CRX (control in |0>)")


def state_of(ops_fn, w, nw):
    dev = qml.device("default.qubit", wires=nw)

    @qml.qnode(dev)
    def st(w):
        ops_fn(w)
        return qml.state()

    return np.asarray(st(w))


def fs_metric(ops_fn, w, nw, h=1e-6):
    """Independent Fubini-Study metric from central differences of the state."""
    w = np.asarray(w, dtype=float)
    psi = state_of(ops_fn, w, nw)
    d = []
    for i in range(len(w)):
        e = np.zeros_like(w); e[i] = h
        d.append((state_of(ops_fn, w + e, nw) - state_of(ops_fn, w - e, nw)) / (2 * h))
    g = np.zeros((len(w), len(w)))
    for i in range(len(w)):
        for j in range(len(w)):
            g[i, j] = np.real(np.vdot(d[i], d[j]) - np.vdot(d[i], psi) * np.vdot(psi, d[j]))
    return g


def crx_cnot(w):
    qml.CRX(w[0], wires=[0, 1]); qml.CNOT(wires=[0, 1])


def crx_only(w):
    qml.CRX(w[0], wires=[0, 1])


def x_then_crx(w):
    qml.PauliX(0); qml.CRX(w[0], wires=[0, 1])


def rx_only(w):
    qml.RX(w[0], wires=1)


for name, fn in [("CRX;CNOT", crx_cnot), ("CRX only", crx_only), ("X(0);CRX", x_then_crx), ("RX(1) only", rx_only)]:
    for w0 in (0.0, 0.7):
        dev = qml.device("default.qubit", wires=2)

        @qml.qnode(dev)
        def circ(w, fn=fn):
            fn(w)
            return qml.expval(qml.PauliZ(0))

        dev3 = qml.device("default.qubit", wires=3)

        @qml.qnode(dev3)
        def circ3(w, fn=fn):
            fn(w)
            return qml.expval(qml.PauliZ(0))

        w = pnp.array([w0], requires_grad=True)
        bd = np.asarray(qml.metric_tensor(circ, approx="block-diag")(w)).round(6).tolist()
        dg = np.asarray(qml.metric_tensor(circ, approx="diag")(w)).round(6).tolist()
        full = np.asarray(qml.metric_tensor(circ3, approx=None, aux_wire=2)(w)).round(6).tolist()
        adj = np.asarray(qml.adjoint_metric_tensor(circ)(w)).round(6).tolist()
        ind = fs_metric(fn, [w0], 2).round(6).tolist()
        print(f"{name:11s} w={w0}: block-diag={bd} diag={dg} full(aux)={full} adjoint={adj} independent FS={ind}")
gen = qml.generator(qml.CRX(0.3, wires=[0, 1]), format="observable")
print("generator(CRX(0.3,[0,1])):", gen, "| wires", gen.wires.tolist(), "| eigvals", np.round(qml.eigvals(gen), 3).tolist())

# ---------------------------------------------------------------------------
section("587907295198 merge_rotations and the caller's tape")
dev = qml.device("default.qubit", wires=1)
tape = qml.tape.QuantumScript([qml.Hadamard(0)], [qml.expval(qml.PauliZ(0)), qml.expval(qml.PauliX(0))])
ops_list = tape.operations
print("before: ops", tape.operations, "| execute", [float(r) for r in qml.execute([tape], dev)[0]])
(out,), _ = qml.transforms.merge_rotations(tape)
print("after : ops", tape.operations, "| same list object:", tape.operations is ops_list,
      "| execute", [float(r) for r in qml.execute([tape], dev)[0]], "(exact <X>=1, <Z>=0)")
print("returned tape ops:", out.operations)
tape2 = qml.tape.QuantumScript([qml.RX(0.3, 0), qml.RX(0.4, 0), qml.Hadamard(0)], [qml.expval(qml.PauliZ(0))])
merged, _ = qml.transforms.merge_rotations(tape2)
print("RX,RX,H input after:", tape2.operations, "| returned:", merged[0].operations)
tape3 = qml.tape.QuantumScript([qml.Hadamard(0), qml.Hadamard(0), qml.RX(0.2, 0)], [qml.expval(qml.PauliZ(0))])
qml.transforms.cancel_inverses(tape3)
print("control cancel_inverses: input after:", tape3.operations)

# ---------------------------------------------------------------------------
section("ef90433ebd6d DefaultQubit.compute_jvp: tangents per circuit")
from pennylane.devices import DefaultQubit, ExecutionConfig

devq = DefaultQubit()
angles = qml.numpy.array([1.2, 2.3, 3.4])
circuit = qml.tape.QuantumScript([qml.Rot(*angles, 0)], [qml.expval(qml.Z(0))])
config = ExecutionConfig(gradient_method="adjoint")
program, new_config = devq.preprocess(config)
new_circuit, _ = program([circuit])
c = new_circuit[0]
print("new_circuit[0]:", c.operations, "| trainable params", c.trainable_params, "| n params", c.num_params)
jac = np.asarray(devq.compute_derivatives(c, new_config), dtype=float)
t = (0.37, 1.19, -0.5)
print("jacobian:", jac.round(6).tolist(), "| J @ t =", round(float(jac @ np.array(t)), 6))
attempt("batch  compute_jvp([c], [(0.37, 1.19, -0.5)], cfg)", lambda: devq.compute_jvp([c], [t], new_config))
attempt("single compute_jvp(c, (0.37, 1.19, -0.5), cfg)", lambda: devq.compute_jvp(c, t, new_config))
attempt("finding: compute_jvp([c], [0.37, 1.19])  (flat tangents for a batch)", lambda: devq.compute_jvp([c], [0.37, 1.19]))
attempt("flat tangents, right length: compute_jvp([c], [0.37, 1.19, -0.5])", lambda: devq.compute_jvp([c], list(t)))

# ---------------------------------------------------------------------------
section("cedb8863b7e0 reference.qubit var/expval of a non-diagonal Hermitian")
Y = np.array([[0, -1j], [1j, 0]])
for label, prep in [("|0>", lambda: None), ("RY(0.7)", lambda: qml.RY(0.7, 0)), ("H", lambda: qml.Hadamard(0))]:
    rows = []
    for dname in ("reference.qubit", "default.qubit"):
        d = qml.device(dname, wires=[0])

        @qml.qnode(d)
        def c1(prep=prep):
            prep()
            return qml.var(qml.Hermitian(0.5 * Y, wires=[0])), qml.expval(qml.Hermitian(0.5 * Y, wires=[0]))

        @qml.qnode(d)
        def c2(prep=prep):
            prep()
            return qml.var(0.5 * qml.PauliY(0)), qml.var(qml.Hermitian(np.array([[0, 1], [1, 0]]), wires=[0]))

        rows.append((dname, [round(float(v), 6) for v in c1()], [round(float(v), 6) for v in c2()]))
    # independent: state vector with numpy
    st = state_of(lambda w, prep=prep: prep(), [0.0], 1)
    A = 0.5 * Y
    ev = np.real(np.vdot(st, A @ st)); var = np.real(np.vdot(st, A @ A @ st)) - ev ** 2
    Xm = np.array([[0, 1], [1, 0]])
    evx = np.real(np.vdot(st, Xm @ st)); varx = 1 - evx ** 2
    print(f"{label:8s} [var H(0.5Y), expval H(0.5Y)] / [var 0.5*Y, var H(X)]:", rows,
          f"| numpy: var={var:.6f} expval={ev:.6f} varX={varx:.6f}")

# ---------------------------------------------------------------------------
section("b9b7f6c3d0dd Operator hash vs == for int/float data")
for cls, args in [(qml.CPhaseShift00, {"wires": [0, 1]}), (qml.IsingXX, {"wires": [0, 1]}),
                  (qml.RX, {"wires": 0}), (qml.PhaseShift, {"wires": 0}), (qml.CRX, {"wires": [0, 1]})]:
    a, b = cls(0, **args), cls(0.0, **args)
    a1, b1 = cls(1, **args), cls(1.0, **args)
    print(f"{cls.__name__:14s} (0 vs 0.0): eq={a == b} same hash={hash(a) == hash(b)} set size={len({a, b})}"
          f" | (1 vs 1.0): eq={a1 == b1} same hash={hash(a1) == hash(b1)}"
          f" | matrices equal={np.allclose(qml.matrix(a), qml.matrix(b))}")
from pennylane.operation import _process_data

print("_process_data:", _process_data(qml.CPhaseShift00(0, wires=[0, 1])), "vs", _process_data(qml.CPhaseShift00(0.0, wires=[0, 1])))
a, b = qml.CPhaseShift00(1, wires=[0, 1]), qml.CPhaseShift00(1.0, wires=[0, 1])
print("qml.simplify(a + b):", qml.simplify(a + b), "| qml.simplify(b + b):", qml.simplify(b + b))

# ---------------------------------------------------------------------------
section("04c8d6cc8179 qml.pow(TAdd, 0, lazy=False)")
op = qml.TAdd(wires=[0, 1])
p0 = qml.pow(op, 0, lazy=False)
print("result:", repr(p0), "| type", type(p0).__name__, "| TAdd.pow(0) ->", op.pow(0), "| TAdd.pow(3) ->", op.pow(3))
print("qml.matrix(result).shape:", qml.matrix(p0, wire_order=[0, 1]).shape)
attempt("lazy qml.pow(TAdd,0).matrix().shape", lambda: qml.matrix(qml.pow(op, 0)).shape)
dq = qml.device("default.qutrit", wires=2)


@qml.qnode(dq)
def qt(with_pow):
    qml.TShift(0); qml.THadamard(1)
    if with_pow:
        qml.pow(qml.TAdd(wires=[0, 1]), 0, lazy=False)
    return qml.state()


s1, s0 = qt(True), qt(False)
print("default.qutrit state with pow(TAdd,0) == without:", np.allclose(s1, s0), "| state dim", np.shape(s1))
print("qml.Identity in default.qutrit operations:", "Identity" in qml.device("default.qutrit", wires=1).operations)

# ---------------------------------------------------------------------------
section("03c83357d685 QNSPSA with expval(Z(1) @ Z(1)): complex-typed loss")
dev2 = qml.device("default.qubit", wires=2)


def make_cost(obs_fn):
    @qml.qnode(dev2)
    def cost(params):
        qml.RX(params[0], wires=0)
        qml.CRY(params[1], wires=[0, 1])
        return qml.expval(obs_fn())
    return cost


params = pnp.array([0.3, 0.4], requires_grad=True)
H = qml.Hamiltonian([0.5, 0.8], [qml.Z(0), qml.X(1)])
observables = {
    "Z(0)@Z(1)": lambda: qml.Z(0) @ qml.Z(1),
    "Z(1)@Z(1)": lambda: qml.Z(1) @ qml.Z(1),
    "Y(0)@Y(0)": lambda: qml.Y(0) @ qml.Y(0),
    "Identity(1)": lambda: qml.Identity(1),
    "prod(H, H) (H=0.5Z0+0.8X1)": lambda: qml.prod(H, H),
    "S@S (S=qml.sum(0.5Z0, 0.8X1))": lambda: qml.sum(0.5 * qml.Z(0), 0.8 * qml.X(1)) @ qml.sum(0.5 * qml.Z(0), 0.8 * qml.X(1)),
    "simplify(Z(1)@Z(1))": lambda: qml.simplify(qml.Z(1) @ qml.Z(1)),
}
for name, obs_fn in observables.items():
    cost = make_cost(obs_fn)
    r = attempt(f"  {name}: cost(params)", lambda cost=cost: cost(params))
    o = obs_fn()
    ev = attempt(f"  {name}: eigvals", lambda o=o: np.round(qml.eigvals(o), 3).tolist())
    print(f"  {name}: result dtype {np.asarray(r).dtype} | type {type(o).__name__} | pauli_rep {o.pauli_rep}")
    opt = qml.QNSPSAOptimizer(stepsize=5e-2, seed=1)
    attempt(f"  {name}: QNSPSA step_and_cost", lambda cost=cost, opt=opt: opt.step_and_cost(cost, params)[1])
    attempt(f"  {name}: GradientDescent step_and_cost",
            lambda cost=cost: qml.GradientDescentOptimizer(0.1).step_and_cost(cost, params)[1])
# exact value of <psi|(0.5 Z0 + 0.8 X1)^2|psi> with numpy
st = state_of(lambda w: (qml.RX(w[0], 0), qml.CRY(w[1], wires=[0, 1])), [0.3, 0.4], 2)
Hm = qml.matrix(H, wire_order=[0, 1])
print("numpy <H^2> =", round(float(np.real(np.vdot(st, Hm @ Hm @ st))), 6))

# ---------------------------------------------------------------------------
section("99399ee22989 / 5cd6cc1d46de / 15cec4ca0ee7 estimator precision=None")
import pennylane.estimator as qre

attempt("qre.RZ.resource_decomp(precision=1e-4)  (docstring example)", lambda: qre.RZ.resource_decomp(precision=1e-4))
attempt("qre.RZ.resource_decomp()  (finding)", lambda: qre.RZ.resource_decomp())
attempt("qre.estimate(qre.RZ()).gate_counts", lambda: dict(qre.estimate(qre.RZ()).gate_counts))
attempt("qre.estimate(qre.RZ(precision=1e-4)).gate_counts", lambda: dict(qre.estimate(qre.RZ(precision=1e-4)).gate_counts))
attempt("RZ resource_decomp signature", lambda: str(__import__("inspect").signature(qre.RZ.resource_decomp)))
print("RZ.resource_decomp docstring Args:", [l.strip() for l in qre.RZ.resource_decomp.__doc__.splitlines() if "precision (" in l])
print("RZ class docstring Args:", [l.strip() for l in qre.RZ.__doc__.splitlines() if "precision (" in l or "ResourceConfig" in l])
al = qre.AliasSampling(num_coeffs=2)
print("AliasSampling(num_coeffs=2).resource_params:", al.resource_params)
attempt("qre.AliasSampling.resource_decomp(**params)", lambda: qre.AliasSampling.resource_decomp(**al.resource_params))
adj = qre.Adjoint(qre.AliasSampling(num_coeffs=2))
attempt("qre.Adjoint.resource_decomp(**adj.resource_params)  (finding 5cd6)",
        lambda: qre.Adjoint.resource_decomp(**qre.Adjoint(qre.AliasSampling(num_coeffs=2)).resource_params))
attempt("qre.Adjoint.resource_decomp(**params, precision=1e-3)",
        lambda: len(qre.Adjoint.resource_decomp(**qre.Adjoint(qre.AliasSampling(num_coeffs=2)).resource_params, precision=1e-3)))
attempt("qre.Adjoint(AliasSampling(2, precision=1e-3)).resource_decomp",
        lambda: len(qre.Adjoint.resource_decomp(**qre.Adjoint(qre.AliasSampling(num_coeffs=2, precision=1e-3)).resource_params)))
attempt("qre.estimate(qre.Adjoint(qre.AliasSampling(num_coeffs=2))).gate_counts",
        lambda: dict(qre.estimate(qre.Adjoint(qre.AliasSampling(num_coeffs=2))).gate_counts))
ctl = lambda prec=None: qre.Controlled(qre.Adjoint(qre.AliasSampling(num_coeffs=2, precision=prec)), num_ctrl_wires=2, num_zero_ctrl=2)
attempt("qre.Controlled.resource_decomp(**ctrl.resource_params)  (finding 15ce)", lambda: qre.Controlled.resource_decomp(**ctl().resource_params))
attempt("same with base precision=1e-3", lambda: len(qre.Controlled.resource_decomp(**ctl(1e-3).resource_params)))
attempt("qre.estimate(Controlled(Adjoint(AliasSampling(2)),2,2)).gate_counts", lambda: dict(qre.estimate(ctl()).gate_counts))
attempt("qre.estimate(qre.Adjoint(qre.AliasSampling(num_coeffs=2, precision=1e-3))).gate_counts  (ValueError independent of precision?)",
        lambda: dict(qre.estimate(qre.Adjoint(qre.AliasSampling(num_coeffs=2, precision=1e-3))).gate_counts))
attempt("qre.estimate(Controlled(Adjoint(AliasSampling(2, precision=1e-3)),2,2)).gate_counts", lambda: dict(qre.estimate(ctl(1e-3)).gate_counts))
print("-- estimate() on nested symbolic ops whose innermost base has precision=None (documented default):")
for label, mk in [
    ("Controlled(AliasSampling(2),1,0)", lambda: qre.Controlled(qre.AliasSampling(num_coeffs=2), 1, 0)),
    ("Controlled(Adjoint(AliasSampling(2)),1,0)", lambda: qre.Controlled(qre.Adjoint(qre.AliasSampling(num_coeffs=2)), 1, 0)),
    ("Controlled(Adjoint(AliasSampling(2,precision=1e-9)),1,0)", lambda: qre.Controlled(qre.Adjoint(qre.AliasSampling(num_coeffs=2, precision=1e-9)), 1, 0)),
    ("Controlled(RZ(),1,0)", lambda: qre.Controlled(qre.RZ(), 1, 0)),
    ("Controlled(Adjoint(RZ()),1,0)", lambda: qre.Controlled(qre.Adjoint(qre.RZ()), 1, 0)),
    ("Controlled(Adjoint(RZ(precision=1e-9)),1,0)", lambda: qre.Controlled(qre.Adjoint(qre.RZ(precision=1e-9)), 1, 0)),
    ("Adjoint(Adjoint(RZ()))", lambda: qre.Adjoint(qre.Adjoint(qre.RZ()))),
    ("Pow(Adjoint(RZ()),2)", lambda: qre.Pow(qre.Adjoint(qre.RZ()), 2)),
    ("Adjoint(Controlled(RZ(),1,0))", lambda: qre.Adjoint(qre.Controlled(qre.RZ(), 1, 0))),
    ("Adjoint(QubitUnitary(num_wires=2))", lambda: qre.Adjoint(qre.QubitUnitary(num_wires=2))),
    ("Controlled(QubitUnitary(num_wires=2),1,0)", lambda: qre.Controlled(qre.QubitUnitary(num_wires=2), 1, 0)),
    ("Controlled(Adjoint(QubitUnitary(num_wires=2)),1,0)", lambda: qre.Controlled(qre.Adjoint(qre.QubitUnitary(num_wires=2)), 1, 0)),
    ("Controlled(Adjoint(QubitUnitary(num_wires=2, precision=1e-9)),1,0)", lambda: qre.Controlled(qre.Adjoint(qre.QubitUnitary(num_wires=2, precision=1e-9)), 1, 0)),
    ("Pow(Adjoint(QubitUnitary(num_wires=2)),2)", lambda: qre.Pow(qre.Adjoint(qre.QubitUnitary(num_wires=2)), 2)),
]:
    attempt("   estimate " + label, lambda mk=mk: dict(qre.estimate(mk()).gate_counts))
print("Adjoint.resource_decomp docstring mentions kwargs/precision:",
      "precision" in qre.Adjoint.resource_decomp.__doc__, "| signature:", __import__("inspect").signature(qre.Adjoint.resource_decomp))

# ---------------------------------------------------------------------------
section("bc0f8f3a8d32 CountsMP.process_samples")
from pennylane.measurements import CountsMP
from pennylane.wires import Wires

from pennylane.measurements import SampleMeasurement
print("CountsMP.process_samples has own docstring:", CountsMP.process_samples.__doc__ is not None,
      "| SampleMeasurement.process_samples doc:", [l.strip() for l in SampleMeasurement.process_samples.__doc__.splitlines() if "samples (" in l or "wire_order (" in l])
w3 = Wires([1, 2, 3])
attempt("finding: CountsMP().process_samples([0.37, 1.19], Wires([1,2,3]))", lambda: CountsMP().process_samples([0.37, 1.19], w3))
attempt("ndarray of the same floats", lambda: CountsMP().process_samples(np.array([0.37, 1.19]), w3))
good = np.array([[0, 1, 1], [1, 0, 0], [0, 1, 1]])
attempt("valid basis samples (ndarray, shape (3 shots, 3 wires))", lambda: CountsMP().process_samples(good, w3))
attempt("valid basis samples as nested list", lambda: CountsMP().process_samples(good.tolist(), w3))
attempt("CountsMP(wires=[2]) on valid ndarray", lambda: CountsMP(wires=[2]).process_samples(good, w3))
dshots = qml.device("default.qubit", wires=[1, 2, 3])


@qml.set_shots(5)
@qml.qnode(dshots)
def cnt():
    qml.PauliX(2)
    return qml.counts()


print("QNode counts() path:", cnt())
