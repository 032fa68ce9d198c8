import numpy as np, warnings
from qiskit import QuantumCircuit, transpile
from qiskit.quantum_info import Clifford, Pauli, Operator, Statevector
from qiskit.synthesis import OneQubitEulerDecomposer, adder_ripple_v95
from qiskit.result import marginal_memory

print("== names-are-labels: which name matters")
def b_cliff(N):
    qc = QuantumCircuit(2, name=N[0]); qc.cx(0,1); qc.cx(0,1); qc.cx(0,1)
    c1 = QuantumCircuit(1, name=N[1]); c1.h(0); g = c1.to_gate(); qc.append(g, [0]); return qc, g
for N in (["n0","n1"], ["x","n1"], ["n0","x"]):
    qc, g = b_cliff(N)
    print(N, "inner op name", g.name, type(g).__name__, "| Clifford==neutral:", Clifford(qc)==Clifford(b_cliff(["n0","n1"])[0]),
          "| Clifford==Operator-derived:", Clifford(qc)==Clifford.from_operator(Operator(b_cliff(["n0","n1"])[0])))
def b_pauli(N):
    qc = QuantumCircuit(1, name=N[0]); qc.h(0); qc.h(0); qc.h(0)
    c1 = QuantumCircuit(1, name=N[1]); c1.h(0); qc.append(c1.to_gate(), [0]); return qc
for N in (["n0","n1"], ["x","n1"], ["n0","x"]):
    print(N, "Pauli X evolve s:", Pauli("X").evolve(b_pauli(N), frame="s"))
def b_tr(N):
    qc = QuantumCircuit(3, name=N[0]); c1 = QuantumCircuit(1, name=N[1]); c2 = QuantumCircuit(1, name=N[2])
    c2.h(0); c1.append(c2.to_gate(), [0]); c1.h(0); c1.h(0); qc.append(c1.to_gate(), [0]); return qc
ref = Operator(b_tr(["n0","n1","n2"]))
for N in (["x","n1","x"], ["n0","u1","n2"], ["n0","n1","x"]):
    try:
        out = transpile(b_tr(N), basis_gates=['cx','rz','sx','x'], optimization_level=2, seed_transpiler=0)
        print(N, "transpile ok, equiv:", Operator(out).equiv(ref), dict(out.count_ops()))
    except Exception as e:
        print(N, "transpile raised", type(e).__name__, str(e)[:90])

print("== ZSX angles_and_phase")
rng = np.random.default_rng(0)
m = rng.normal(size=(2,2)) + 1j*rng.normal(size=(2,2)); q, r = np.linalg.qr(m); u = q*(np.diag(r)/np.abs(np.diag(r)))
X = np.array([[0,1],[1,0]],complex); Z = np.diag([1,-1]).astype(complex)
rz = lambda t: np.diag([np.exp(-1j*t/2), np.exp(1j*t/2)]); u1 = lambda t: np.diag([1, np.exp(1j*t)])
sx = np.array([[1+1j,1-1j],[1-1j,1+1j]])/2
for basis in ("ZSX","ZSXX","PSX","U1X"):
    th, ph, la, g = OneQubitEulerDecomposer(basis).angles_and_phase(u)
    rz_reb = np.exp(1j*g)*rz(ph+np.pi)@sx@rz(th+np.pi)@sx@rz(la)
    u1_reb = np.exp(1j*g)*u1(ph+np.pi)@sx@u1(th+np.pi)@sx@u1(la)
    ov = np.vdot(rz_reb.ravel(), u.ravel()); off = np.angle(ov)
    circ = OneQubitEulerDecomposer(basis)(u)
    print(basis, "RZ-table gap %.3g" % np.abs(rz_reb-u).max(), "U1-circuit gap %.3g" % np.abs(u1_reb-u).max(),
          "missing phase %.6f vs (th+ph+la)/2 mod 2pi %.6f" % (off % (2*np.pi), ((th+ph+la)/2 + np.pi) % (2*np.pi)),
          "| __call__ gap %.3g" % np.abs(Operator(circ).data-u).max())

print("== adder_ripple_v95 exhaustive")
for n in (1,2,3):
    for kind in ("fixed","half","full"):
        c = adder_ripple_v95(n, kind=kind); nq = c.num_qubits; U = Operator(c).data
        off = 1 if kind=="full" else 0; bad = 0; tot = 0
        for cin in ([0,1] if kind=="full" else [0]):
            for a in range(2**n):
                for b in range(2**n):
                    idx = cin | (a << off) | (b << (off+n))
                    s = a+b+cin
                    if kind=="fixed": out = (a<<off) | ((s % 2**n) << (off+n))
                    else: out = cin | (a<<off) | ((s % 2**n) << (off+n)) | ((s>>n) << (off+2*n))
                    tot += 1; bad += abs(U[out, idx]) < 1-1e-9
        print(f"n={n} {kind}: wrong on {bad}/{tot}")

print("== marginal_memory")
for mem in (['0x0','0x10'], ['0x10','0x0'], ['0x00','0x10'], ['0x1','0x10']):
    print(mem, [0], marginal_memory(mem, [0]), [4], marginal_memory(mem, [4]))
