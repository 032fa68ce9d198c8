import numpy as np, pennylane as qp
from pennylane.optimize import riemannian_gradient as rg
coeffs = [-1., -1., -1.]
observables = [qp.X(0), qp.Z(1), qp.Y(0) @ qp.X(1)]
H = qp.Hamiltonian(coeffs, observables)
def make():
    @qp.qnode(qp.device("default.qubit", wires=2))
    def f():
        qp.RX(0.1, wires=[0]); qp.RY(0.5, wires=[1]); qp.CNOT(wires=[0,1]); qp.RY(0.6, wires=[0])
        return qp.expval(H)
    return f
for label, kw in [("default", {}), ("exact", {"exact": True}), ("trotter50", {"trottersteps": 50})]:
    opt = qp.RiemannianGradientOptimizer(circuit=make(), stepsize=0.1, **kw)
    print(label, [round(float(opt.step_and_cost()[1]), 6) for _ in range(3)])
# reversed term order in the first-order Trotter product
orig = rg.ApproxTimeEvolution
def rev(h, t, n):
    c, o = h.terms()
    return orig(qp.ops.LinearCombination(c[::-1], o[::-1]), t, n)
rg.ApproxTimeEvolution = rev
opt = qp.RiemannianGradientOptimizer(circuit=make(), stepsize=0.1)
print("reversed", [round(float(opt.step_and_cost()[1]), 6) for _ in range(3)])
print("documented", [-1.335187, -1.993789, -2.152423])
