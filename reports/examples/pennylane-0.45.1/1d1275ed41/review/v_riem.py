import itertools, numpy as onp
from scipy.linalg import expm
import pennylane as qml
I=onp.eye(2); X=onp.array([[0,1],[1,0]],complex); Y=onp.array([[0,-1j],[1j,0]]); Z=onp.diag([1.,-1]).astype(complex)
P1={'I':I,'X':X,'Y':Y,'Z':Z}
def kron(a,b): return onp.kron(a,b)  # wire 0 most significant
H = -kron(X,I) - kron(I,Z) - kron(Y,X)
print("ground energy:", onp.linalg.eigvalsh(H)[0])
# initial state by PennyLane matrix of the gates (for the state only) -- cross-checked by hand below
def RX(t): return expm(-1j*t/2*X)
def RY(t): return expm(-1j*t/2*Y)
CNOT = onp.array([[1,0,0,0],[0,1,0,0],[0,0,0,1],[0,0,1,0]],complex)
psi = onp.zeros(4,complex); psi[0]=1
psi = kron(RX(0.1),I)@psi; psi = kron(I,RY(0.5))@psi; psi = CNOT@psi; psi = kron(RY(0.6),I)@psi
E = lambda s: float(onp.real(s.conj()@H@s))
print("step0 cost:", E(psi))
words = [a+b for a in "IXYZ" for b in "IXYZ"][1:]
mats = {w: kron(P1[w[0]],P1[w[1]]) for w in words}
def step(psi, order, eps=0.1, exact=False):
    om = {}
    for w in words:
        Up, Um = expm(-1j*(onp.pi/2)/2*mats[w]), expm(1j*(onp.pi/2)/2*mats[w])
        om[w] = E(Up@psi) - E(Um@psi)
    terms = [(w, -om[w]) for w in order if abs(om[w]) > 1e-12]
    if exact:
        G = sum(c*mats[w] for w,c in terms); return expm(-1j*eps*G)@psi
    for w,c in terms:
        psi = expm(-1j*eps*c*mats[w])@psi
    return psi
def traj(order, exact=False):
    s = psi.copy(); out=[]
    for k in range(6):
        out.append(E(s)); s = step(s, order, exact=exact)
    return out, E(s)
print("exact exp        :", traj(words, exact=True))
print("lexicographic    :", traj(words))
print("reversed         :", traj(words[::-1]))
pg = [qml.pauli.pauli_word_to_string(p, wire_map={0:0,1:1}) for p in qml.pauli.pauli_group(2)]
print("pauli_group order:", pg)
pgw = [w for w in pg if w != 'II']
print("pauli_group traj :", traj(pgw))
# PennyLane itself with exact=True and default
for ex in (False, True):
    dev = qml.device("default.qubit", wires=2)
    hamiltonian = qml.Hamiltonian([-1.,-1.,-1.], [qml.X(0), qml.Z(1), qml.Y(0)@qml.X(1)])
    @qml.qnode(dev)
    def f():
        qml.RX(0.1, wires=[0]); qml.RY(0.5, wires=[1]); qml.CNOT(wires=[0,1]); qml.RY(0.6, wires=[0])
        return qml.expval(hamiltonian)
    opt = qml.RiemannianGradientOptimizer(circuit=f, stepsize=0.1, exact=ex)
    cs=[]
    for _ in range(6):
        c, cost = opt.step_and_cost(); cs.append(float(cost))
    print("PennyLane exact=%s:"%ex, cs, float(c()))
