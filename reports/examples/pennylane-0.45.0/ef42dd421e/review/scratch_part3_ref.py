import numpy as np
import pennylane as qml
M = np.array([[0j, -0.5j], [0.5j, 0j]])
H = qml.Hermitian(M, wires=[0])
print("eigvals", H.eigvals())
print("diag gates", H.diagonalizing_gates())
tape = qml.tape.QuantumScript([], [qml.expval(H)])
dev = qml.device('reference.qubit', wires=[0])
prog, cfg = dev.preprocess()
tapes = [tape]
for t in prog:
    print("--", t)
    new = []
    for tp in tapes:
        out, _ = t(tp)
        new.extend(out)
    tapes = new
    for tp in tapes:
        print("   ops", tp.operations, "meas", tp.measurements)
print(dev.execute(tapes))
print("default.qubit", qml.execute([tape], qml.device('default.qubit', wires=[0])))
