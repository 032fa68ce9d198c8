import numpy as np
import pennylane as qml

dev = qml.device('default.qubit', wires=[0])

@qml.qnode(dev)
def circuit():
    pass
    return qml.probs()

text = qml.to_openqasm(circuit, wires=dev.wires)()

# an independent reading of the exported qelib1 gates (numpy), q[0] most significant

def read(text):
    import math, re
    c, s = math.cos, math.sin
    I2 = np.eye(2, dtype=complex)
    X = np.array([[0, 1], [1, 0]], dtype=complex); Y = np.array([[0, -1j], [1j, 0]]); Z = np.diag([1, -1]).astype(complex)
    def u(t, p, l):
        return np.array([[c(t / 2), -np.exp(1j * l) * s(t / 2)], [np.exp(1j * p) * s(t / 2), np.exp(1j * (p + l)) * c(t / 2)]])
    def ctrl(m, k=1):
        d = m.shape[0]; full = np.eye(d * 2 ** k, dtype=complex); full[-d:, -d:] = m; return full
    def rot(P, t):
        return c(t / 2) * np.eye(P.shape[0]) - 1j * s(t / 2) * P
    rx = lambda t: rot(X, t); ry = lambda t: rot(Y, t); rz = lambda t: rot(Z, t); p = lambda t: np.diag([1, np.exp(1j * t)])
    H = np.array([[1, 1], [1, -1]]) / math.sqrt(2); S = np.diag([1, 1j]); T = np.diag([1, np.exp(1j * math.pi / 4)])
    SX = np.array([[1 + 1j, 1 - 1j], [1 - 1j, 1 + 1j]]) / 2
    SW = np.eye(4)[[0, 2, 1, 3]]
    gates = {"h": lambda: H, "x": lambda: X, "y": lambda: Y, "z": lambda: Z, "s": lambda: S, "sdg": lambda: S.conj().T,
             "t": lambda: T, "tdg": lambda: T.conj().T, "sx": lambda: SX, "id": lambda: I2, "rx": rx, "ry": ry, "rz": rz,
             "u1": p, "p": p, "u3": u, "u": u, "u2": lambda a, b: u(math.pi / 2, a, b), "cx": lambda: ctrl(X),
             "cy": lambda: ctrl(Y), "cz": lambda: ctrl(Z), "ch": lambda: ctrl(H), "swap": lambda: SW,
             "crx": lambda t: ctrl(rx(t)), "cry": lambda t: ctrl(ry(t)), "crz": lambda t: ctrl(rz(t)),
             "cu1": lambda t: ctrl(p(t)), "cp": lambda t: ctrl(p(t)), "ccx": lambda: ctrl(X, 2), "cswap": lambda: ctrl(SW),
             "rxx": lambda t: rot(np.kron(X, X), t), "ryy": lambda t: rot(np.kron(Y, Y), t), "rzz": lambda t: rot(np.kron(Z, Z), t)}
    n, unitary = 0, np.eye(1, dtype=complex)  # no qreg: a program on zero qubits
    for statement in text.replace("\n", " ").split(";"):
        statement = statement.strip()
        if not statement or statement.startswith(("OPENQASM", "include", "creg", "measure", "barrier", "gphase")):
            continue
        m = re.match(r"qreg\s+\w+\[(\d+)\]", statement)
        if m:
            n = int(m.group(1)); unitary = np.eye(2 ** n, dtype=complex); continue
        m = re.match(r"(\w+)\s*(\(([^)]*)\))?\s+(.*)", statement)
        params = [float(eval(v, {"__builtins__": {}}, {"pi": math.pi})) for v in (m.group(3) or "").split(",") if v.strip()]
        qubits = [int(q) for q in re.findall(r"\[(\d+)\]", m.group(4))]
        gate = np.asarray(gates[m.group(1)](*params), dtype=complex)
        # embed on the qubits (q[0] most significant), then apply
        k = len(qubits); rest = [q for q in range(n) if q not in qubits]
        full = np.kron(gate, np.eye(2 ** (n - k))).reshape((2,) * (2 * n))
        order = qubits + rest
        inverse = [order.index(q) for q in range(n)]
        full = full.transpose(inverse + [n + i for i in inverse]).reshape(2 ** n, 2 ** n)
        unitary = full @ unitary
    return unitary

imported = read(text)
# expected: the circuit's unitary from a numpy simulation of its gates
expected = np.array([[(1+0j), 0j], [0j, (1+0j)]], dtype=complex)
assert imported.shape == expected.shape, ('not the same number of qubits', imported.shape, expected.shape)
overlap = np.vdot(expected.ravel(), imported.ravel())
phase = overlap / abs(overlap) if abs(overlap) > 0 else 1.0
assert np.max(np.abs(imported - phase * expected)) < 1e-07, 'not the same operator, even up to global phase'
