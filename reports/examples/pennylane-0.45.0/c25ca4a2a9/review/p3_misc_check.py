import warnings; warnings.filterwarnings('ignore')
import numpy as np
import pennylane as qml
from pennylane.liealg import BD
from pennylane.pauli import PauliSentence, PauliWord
def tryit(label, f):
    try: print(label, "->", f())
    except Exception as e: print(label, "-> EXC", type(e).__name__, e)
op = qml.MultiRZ(0.5, wires=[0, 1])
print("MultiRZ pauli_rep:", op.pauli_rep)
tryit("BD(MultiRZ)", lambda: BD(op))
tryit("BD(Hermitian(Z))", lambda: BD(qml.Hermitian(np.diag([1., -1.]), wires=0)))
tryit("BD(Z(0)) ", lambda: BD(qml.Z(0)))
tryit("BD(matrix MultiRZ)", lambda: BD(qml.matrix(op, wire_order=[0,1])))
pw1 = PauliWord({0:"X"}); pw2 = PauliWord({1:"X"})
ps2 = PauliSentence({pw1: 0.5j, pw2: 1j})
tryit("lie_closure([ps2])", lambda: qml.lie_closure([ps2]))
tryit("lie_closure([ps2], matrix=True)", lambda: qml.lie_closure([ps2], matrix=True).shape)
tryit("lie_closure([1j*X(0)])", lambda: qml.lie_closure([1j*qml.X(0)]))
tryit("lie_closure([-1j*ps2]) hermitian", lambda: qml.lie_closure([-1j*ps2]))
# commute_controlled alone on the compile input
tape = qml.tape.QuantumScript([qml.PauliZ(0), qml.Toffoli([0,1,2])], [qml.expval(qml.PauliZ(0))], shots=50)
ops_id = id(tape.operations)
(t2,), _ = qml.transforms.commute_controlled(tape)
print("commute_controlled: input now", tape.operations, "same list obj returned:", t2.operations is tape.operations)
tape = qml.tape.QuantumScript([qml.Hadamard(0), qml.Hadamard(0)], [qml.expval(qml.PauliZ(0))])
(t3,), _ = qml.transforms.merge_rotations(tape)
print("merge_rotations: input now", tape.operations, "output", t3.operations)
