import numpy as np, pennylane as qml
dev = qml.device('default.qubit')
def mk(meas):
    @qml.qnode(dev, mcm_method='tree-traversal')
    def c():
        qml.RY(0.5, wires=[0]); qml.RX(0.3, wires=[1]); m0 = qml.measure(0)
        return meas(m0)
    return c
for name, meas in {'probs0 alone': lambda m: qml.probs(wires=[0]),
                   'probs0 + probs m0': lambda m: (qml.probs(wires=[0]), qml.probs(op=[m])),
                   'probs1 + probs m0': lambda m: (qml.probs(wires=[1]), qml.probs(op=[m])),
                   'probs01 + expval m0': lambda m: (qml.probs(wires=[0,1]), qml.expval(m)),
                   'probs0 + expval Z1': lambda m: (qml.probs(wires=[0]), qml.expval(qml.Z(1)))}.items():
    r = mk(meas)(); print(name, [np.shape(x) for x in (r if isinstance(r, tuple) else (r,))], r)
