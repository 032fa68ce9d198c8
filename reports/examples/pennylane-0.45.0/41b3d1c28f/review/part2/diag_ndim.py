import pennylane as qml
for mk in (lambda: qml.s_prod(2.0, qml.X(0)), lambda: 1j * (qml.X(0) @ qml.Y(0)), lambda: qml.exp(qml.X(0), 0.5), lambda: qml.pow(qml.RX(0.3, 0), 2), lambda: qml.sum(qml.X(0), qml.Z(1)), lambda: qml.RX(0.2, 0)):
    op = mk()
    try:
        print(type(op).__name__, "fresh", op.ndim_params)
    except Exception as e:
        print(type(op).__name__, "fresh raised", type(e).__name__, e)
    op = mk(); op.batch_size
    try:
        print(type(op).__name__, "after batch_size", op.ndim_params)
    except Exception as e:
        print(type(op).__name__, "after batch_size raised", type(e).__name__, e)
