import pennylane as qml
class MyOp(qml.operation.Operator):
    pass
op = MyOp(wires=0)
print("hasattr(MyOp op,'basis')", hasattr(op, 'basis'))
cs = qml.ControlledSequence(base=op, control=[1, 2])
print("hasattr(ControlledSequence(MyOp),'basis')", hasattr(cs, 'basis'), "getattr default", getattr(cs, 'basis', 'absent'))
print("ControlledSequence(RX).basis", qml.ControlledSequence(base=qml.RX(0.2, 0), control=[1]).basis)
print("Adjoint(MyOp) hasattr basis", hasattr(qml.adjoint(op), 'basis'))
