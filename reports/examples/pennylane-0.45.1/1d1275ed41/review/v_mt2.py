import warnings; warnings.filterwarnings("ignore")
import numpy as np
import pennylane as qml
from pennylane import numpy as pnp
from pennylane.gradients.metric_tensor import _multipar_stopping_fn, _expand_metric_tensor
op = qml.CRX(0.3, wires=[0, 1])
print("CRX generator terms:", op.generator().terms())
print("stopping fn (kept undecomposed?)", _multipar_stopping_fn(op))
tape = qml.tape.QuantumScript([qml.CRX(0.0, [0, 1]), qml.CNOT([0, 1])], [qml.expval(qml.Z(0))], trainable_params=[0])
[t2], _ = _expand_metric_tensor(tape)
print("expanded tape:", t2.operations, "trainable", t2.trainable_params)
def FS(statefn, x, h=1e-6):
    s = statefn(x); d = (statefn(x + h) - statefn(x - h)) / (2 * h)
    return (d.conj() @ d - abs(s.conj() @ d) ** 2).real
for prep, a in (("none", 0.0), ("RY(1.1) on control", 0.7), ("RY(2.0) ctrl, RY(0.4) tgt", -0.5)):
    for w, approx in ((2, "block-diag"), (2, "diag"), (3, None)):
        dev = qml.device("default.qubit", wires=w)
        def body(weights):
            if prep != "none": qml.RY(1.1 if "1.1" in prep else 2.0, wires=0)
            if "tgt" in prep: qml.RY(0.4, wires=1)
            qml.CRX(weights[0], wires=[0, 1])
        @qml.qnode(dev)
        def c(weights):
            body(weights); return qml.expval(qml.PauliZ(0))
        @qml.qnode(qml.device("default.qubit", wires=2))
        def st(weights):
            body(weights); return qml.state()
        x = pnp.array([a], requires_grad=True)
        exact = FS(lambda v: np.asarray(st(pnp.array([v]))), a)
        print(f"{prep:28s} approx={approx!s:10s} metric={float(qml.metric_tensor(c, approx=approx)(x)[0,0]):.6f} adjoint={float(qml.adjoint_metric_tensor(c)(x)[0,0]):.6f} numpy FS={exact:.6f}")
