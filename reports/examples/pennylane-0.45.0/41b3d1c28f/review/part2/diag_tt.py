import numpy as np, pennylane as qml
dev = qml.device('default.qubit')
for meth in ('tree-traversal', 'deferred'):
    for ang in (0.0, 0.3, np.pi):
        @qml.qnode(dev, mcm_method=meth)
        def c():
            qml.RY(ang, wires=[0]); m0 = qml.measure(0)
            return qml.probs(wires=[0]), qml.probs(op=[m0])
        @qml.qnode(dev, mcm_method=meth)
        def c2():
            qml.RY(ang, wires=[0]); m0 = qml.measure(0)
            return qml.probs(wires=[0])
        @qml.qnode(dev, mcm_method=meth)
        def c3():
            qml.RY(ang, wires=[0]); m0 = qml.measure(0)
            return qml.expval(qml.Z(0)), qml.probs(wires=[0])
        print(meth, ang, c(), c2(), c3())
