import numpy as np, pennylane as qml
from pennylane import numpy as pnp
for wires in ([0,1],[1,0]):
    gen, s = qml.generator(qml.CRX(0.4, wires=wires))
    print(wires, repr(gen), gen.wires.tolist(), np.round(gen.eigvals(),3).tolist(), gen.diagonalizing_gates())
    t = qml.tape.QuantumScript([qml.CRX(pnp.array(0.4, requires_grad=True), wires=wires)], [qml.expval(qml.Z(0))])
    tapes, fn = qml.metric_tensor(t, approx='block-diag')
    print("  tape ops", tapes[0].operations, tapes[0].measurements)
    r = qml.execute(tapes, qml.device('default.qubit', wires=2))
    print("  probs", r, fn(r))
    gm = qml.matrix(gen, wire_order=[0,1])
    print("  matrix gen diag in H basis ->", np.round(np.linalg.eigvalsh(gm),3))
