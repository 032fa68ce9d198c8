import numpy as np, pennylane as qml
# 1) to_openqasm: empty tape with explicit wires / measure_all
dev = qml.device('default.qubit', wires=[0])
@qml.qnode(dev)
def c():
    return qml.probs()
print("QASM empty, wires=[0]:", repr(qml.to_openqasm(c, wires=[0], measure_all=True)()))
@qml.qnode(dev)
def c2():
    qml.Identity(0)
    return qml.probs()
print("QASM Identity(0):", repr(qml.to_openqasm(c2, wires=[0])()))
print("device result empty circuit:", c())
# 2) vscf: dipole with n=4 truncated, n=2 crashes
rng = np.random.default_rng(0)
for n in (4, 2):
    h1 = np.zeros((n, 2, 2)); 
    for i in range(n): h1[i] = np.diag([0.5, 1.5]) * (i + 1)
    d1 = rng.uniform(-1, 1, (3, n, 2, 2)); d1 = (d1 + d1.transpose(0, 1, 3, 2)) / 2
    try:
        h, d = qml.qchem.vscf_integrals([h1], [d1])
        print("vscf n=%d: h shape" % n, h[0].shape, "d shape", d[0].shape)
    except Exception as e:
        print("vscf n=%d raises" % n, type(e).__name__, e)
# 3) hash: more data pairs
for a, b in [(qml.IsingXX(1, wires=[0, 1]), qml.IsingXX(1.0, wires=[0, 1])), (qml.RX(1, 0), qml.RX(1.0, 0))]:
    print(repr(a), a == b, hash(a) == hash(b), len({a, b}))
# 4) Hamiltonian like-terms
a = qml.Hamiltonian([0.125, 0.125], [qml.PauliX(0), qml.PauliX(0) @ qml.Identity('a')])
b = qml.Hamiltonian([0.25], [qml.PauliX(0)])
print("H:", a == b, hash(a) == hash(b), len({a, b}), type(a).__name__)
a2 = qml.Hamiltonian([0.5, 0.5], [qml.PauliX(0), qml.PauliX(0)])
print("H2 dup terms:", a2 == b*2, hash(a2) == hash(qml.Hamiltonian([1.0],[qml.PauliX(0)])))
# 5) mutual_info process_density_matrix: integer labels silently wrong
bell = np.zeros(8, complex); bell[0] = bell[5] = 1/np.sqrt(2)  # wire order [2,0,1]: |000>+|101> -> wires 2 and 1 entangled? 
# build Bell on wires 2 and 0 in wire_order [2, 0, 1]: |x y 0>
psi = np.zeros(8, complex); psi[0b000] = psi[0b110] = 1/np.sqrt(2)
rho = np.outer(psi, psi.conj())
wo = qml.wires.Wires([2, 0, 1])
mp = qml.mutual_info(wires0=[0], wires1=[2])
print("MI pdm (expect 1.386):", mp.process_density_matrix(rho, wo))
print("MI math with positions [1],[0] (expect 1.386):", qml.math.mutual_info(rho, indices0=[1], indices1=[0]))
