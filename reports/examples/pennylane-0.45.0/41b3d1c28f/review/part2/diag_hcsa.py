import pennylane as qml
from pennylane.pauli import PauliSentence, PauliWord
from pennylane.liealg import horizontal_cartan_subalgebra as h
def t(name, k, m):
    try:
        r = h(k, m); print(name, "ok a =", r[3])
    except Exception as e:
        print(name, "raised", type(e).__name__, e)
ps_c = PauliSentence({PauliWord({0:'X', 1:'Y'}): 0, PauliWord({2:'Z', 0:'Y'}): -0.45j})
ps_r = PauliSentence({PauliWord({0:'X', 1:'Y'}): 0, PauliWord({2:'Z', 0:'Y'}): -0.45})
t("k=m=[complex ps] (finding)", [ps_c], [ps_c])
t("k=m=[real ps]", [ps_r], [ps_r])
t("k=[], m=[complex ps]", [], [ps_c])
t("k=[], m=[real ps]", [], [ps_r])
g = [op.pauli_rep for op in list(qml.pauli.pauli_group(2))[1:]]
k, m = qml.liealg.cartan_decomp(g, qml.liealg.even_odd_involution)
t("docs example", k, m)
t("docs example times 1j", [1j*x for x in k], [1j*x for x in m])
