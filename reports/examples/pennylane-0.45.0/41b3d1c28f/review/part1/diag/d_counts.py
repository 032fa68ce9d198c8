import numpy as np, pennylane as qml
dev = qml.device('default.qubit', wires=2)
@qml.set_shots(3)
@qml.qnode(dev)
def c():
    qml.X(0)
    return qml.sample(wires=[0])
print("qnode sample shape", np.shape(c()))
mp = qml.sample(wires=[0])
print("process_samples", np.shape(mp.process_samples(np.array([[1, 0]]*3), qml.wires.Wires([0, 1]))))
print("process_counts", np.shape(mp.process_counts({'10': 3}, qml.wires.Wires([0, 1]))))
mp2 = qml.sample(wires=[0, 1])
print("2 wires: process_samples", np.shape(mp2.process_samples(np.array([[1, 0]]*3), qml.wires.Wires([0, 1]))), "process_counts", np.shape(mp2.process_counts({'10': 3}, qml.wires.Wires([0, 1]))))
