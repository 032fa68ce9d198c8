import numpy as np, pennylane as qml
# 3 qubits: Bell pair on positions 0,1; position 2 in |0>. wire_order [2,0,1]: position0=wire2, position1=wire0, position2=wire1
bell = np.zeros(8, complex); bell[0] = bell[6] = 1/np.sqrt(2)   # |000>+|110>
rho = np.outer(bell, bell.conj())
wo = qml.wires.Wires([2, 0, 1])
mp = qml.mutual_info(wires0=[0], wires1=[1])   # wire0 = position1 (Bell half), wire1 = position2 (|0>): expected 0
print("MutualInfoMP.process_density_matrix", mp.process_density_matrix(rho, wo), "expected 0")
print("MutualInfoMP.process_state", mp.process_state(bell, wo), "expected 0")
vn = qml.vn_entropy(wires=[1])   # wire1 = position2 in |0>: expected 0
print("VnEntropyMP.process_density_matrix", vn.process_density_matrix(rho, wo), "expected 0")
pu = qml.purity(wires=[1])
print("PurityMP.process_density_matrix", pu.process_density_matrix(rho, wo), "expected 1")
# the QNode path, for comparison (device maps wires)
dev = qml.device('default.qubit', wires=['a', 7])
@qml.qnode(dev)
def c():
    return qml.mutual_info(wires0=['a'], wires1=[7])
try:
    print("qnode with wires ['a',7]", c())
except Exception as e:
    print("qnode raised", type(e).__name__, e)
