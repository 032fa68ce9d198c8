import numpy as np, pennylane as qml
for name in ('reference.qubit', 'default.qubit'):
    dev = qml.device(name, wires=[0, 1, 2])
    def body():
        qml.BasisState(np.array([0, 1, 0]), wires=[0, 1, 2])
        qml.IsingXX(0.7853981633974483, wires=[0, 2])
    @qml.qnode(dev)
    def mi():
        body(); return qml.mutual_info(wires0=[0], wires1=[1, 2])
    @qml.qnode(dev)
    def mi2():
        body(); return qml.mutual_info(wires0=[0], wires1=[2])
    @qml.qnode(dev)
    def vn():
        body(); return qml.vn_entropy(wires=[0])
    @qml.qnode(dev)
    def st():
        body(); return qml.state()
    print(name, mi(), mi2(), vn(), np.round(st(), 4))
