import warnings, pennylane as qp
from pennylane.pauli import PauliSentence, PauliWord, PauliVSpace
ps = PauliSentence({PauliWord({0:'X', 1:'Y'}): 0, PauliWord({2:'Z', 0:'Y'}): -0.45j}); ps.prune()
for dt in (float, complex):
    vs = PauliVSpace([qp.X(0), qp.X(1)], dtype=dt); vs.add(qp.Y(0)); vs.add([qp.Z(0), qp.X(0)])
    try: print(dt.__name__, "is_independent:", vs.is_independent(ps))
    except Exception as e: print(dt.__name__, "FAIL", type(e).__name__, e)
