import numpy as np
import pennylane as qml
pairs = {
 "1c50 ham-like-terms": (qml.Hamiltonian([0.125, 0.125], [qml.PauliX(0), qml.PauliX(0) @ qml.Identity('a')]), qml.Hamiltonian([0.25], [qml.PauliX(0)])),
 "b40b ctrl-order": (qml.ctrl(qml.CH(wires=[0, 1]), [2, 3], control_values=[False, False]), qml.ctrl(qml.CH(wires=[0, 1]), [3, 2], control_values=[False, False])),
 "b40b ctrl-order, X base": (qml.ctrl(qml.X(0), [1, 2]), qml.ctrl(qml.X(0), [2, 1])),
 "b9b7 int-data": (qml.CPhaseShift00(0, wires=[0, 1]), qml.CPhaseShift00(0.0, wires=[0, 1])),
 "b9b7 int-data RX": (qml.RX(1, 0), qml.RX(1.0, 0)),
 "b9b7 int-data IsingXX": (qml.IsingXX(1, [0,1]), qml.IsingXX(1.0, [0,1])),
 "ce24 expval prod order": (qml.expval(qml.PauliX(0) @ qml.PauliX(1)), qml.expval(qml.PauliX(1) @ qml.PauliX(0))),
 "ce24 the Prods themselves": (qml.PauliX(0) @ qml.PauliX(1), qml.PauliX(1) @ qml.PauliX(0)),
 "tolerance (by construction)": (qml.RX(0.3, 0), qml.RX(0.3 + 1e-12, 0)),
}
for k, (a, b) in pairs.items():
    print(f"{k:30s} eq={a == b} hash_eq={hash(a) == hash(b)} set={len({a, b})}")
m1 = qml.expval(qml.PauliX(0) @ qml.PauliX(1)); m2 = qml.expval(qml.PauliX(1) @ qml.PauliX(0))
print("MP wires", m1.wires, m2.wires)
# does PennyLane itself rely on hash-of-equal? e.g. Sum hash uses Counter of operands
s1 = qml.sum(qml.CPhaseShift00(0, wires=[0,1]), qml.Z(0)); s2 = qml.sum(qml.CPhaseShift00(0.0, wires=[0,1]), qml.Z(0))
print("Sum of int/float:", s1 == s2, hash(s1) == hash(s2))
