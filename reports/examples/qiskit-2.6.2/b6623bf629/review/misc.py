import warnings, numpy as np
from qiskit.quantum_info import (Statevector, DensityMatrix, concurrence, purity, partial_trace,
    SparsePauliOp, Operator, Kraus, Stinespring)
from qiskit.synthesis import OneQubitEulerDecomposer
from qiskit.circuit import Parameter

print("== concurrence (92f2489e9e5a)")
psi = Statevector(np.array([0, complex(0.869911951232611, 0.4932070529733649), 0, 0]))
print("norm^2 - 1 =", np.vdot(psi.data, psi.data).real - 1)
rho = partial_trace(psi, [1])
print("purity - 1 =", np.real(purity(rho)) - 1)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    c = concurrence(psi)
print("concurrence:", c, "warnings:", [str(x.message) for x in w])
# independent: pure-state concurrence for 2 qubits = 2|ad - bc|
a, b, cc, d = psi.data
print("numpy 2|ad-bc| =", 2 * abs(a * d - b * cc))
print("concurrence(DensityMatrix(psi)) =", concurrence(DensityMatrix(psi)))
print("is_valid:", psi.is_valid())

print("== Euler ZSX/ZSXX/PSX/U1X (b8e7b383f98c)")
rng = np.random.default_rng(0)
m = rng.normal(size=(2, 2)) + 1j * rng.normal(size=(2, 2)); q, r = np.linalg.qr(m); U = q * (np.diag(r) / np.abs(np.diag(r)))
X = np.array([[0, 1], [1, 0]], complex); Z = np.diag([1, -1]).astype(complex)
rz = lambda t: np.diag([np.exp(-1j * t / 2), np.exp(1j * t / 2)])
u1 = lambda t: np.diag([1, np.exp(1j * t)])
rx = lambda t: np.cos(t / 2) * np.eye(2) - 1j * np.sin(t / 2) * X
sx = np.array([[1 + 1j, 1 - 1j], [1 - 1j, 1 + 1j]]) / 2
for basis in ("ZSX", "ZSXX", "PSX", "U1X"):
    dec = OneQubitEulerDecomposer(basis)
    th, ph, lam, g = dec.angles_and_phase(U)
    if basis in ("ZSX", "ZSXX"):
        reb = np.exp(1j * g) * rz(ph + np.pi) @ sx @ rz(th + np.pi) @ sx @ rz(lam)
    else:
        reb = np.exp(1j * g) * u1(ph + np.pi) @ rx(np.pi / 2) @ u1(th + np.pi) @ rx(np.pi / 2) @ u1(lam)
    ratio = (U @ np.linalg.inv(reb))[0, 0]
    circ_gap = max(np.abs(Operator(dec(U, simplify=s)).data - U).max() for s in (True, False))
    print(f"{basis}: table-circuit gap {np.abs(reb - U).max():.3g}, U/rebuilt = phase {np.angle(ratio):.6f}, "
          f"predicted -(phi+theta+lam)/2 - pi/2 = {np.angle(np.exp(1j*(-(ph+th+lam)/2 - np.pi/2))):.6f}; __call__ circuit gap {circ_gap:.2g}")

print("== SparsePauliOp.equiv (c629ef4d747b)")
A = np.array([[0.080934 - 0.344818j, -0.415036 + 0.838031j], [0.41225 + 0.839405j, 0.079789 + 0.345085j]])
B = np.array([[0.080933999929 - 0.344818000071j, -0.41503599992 + 0.83803099994j],
              [0.412250000016 + 0.839404999901j, 0.079789000016 + 0.345085000099j]])
a, b = SparsePauliOp.from_operator(Operator(A)), SparsePauliOp.from_operator(Operator(B))
diff = (a - b)
print("raw coefficient differences (numpy):", np.abs(diff.simplify(atol=0, rtol=0).coeffs).max())
for atol in (0.0, 1e-12, 1e-10, 1e-9, 1e-8):
    print(f"equiv(atol={atol}) ->", a.equiv(b, atol=atol))
print("Operator(A).equiv(Operator(B), atol=0, rtol=0) ->", Operator(A).equiv(Operator(B), atol=0, rtol=0))

print("== Stinespring.is_cptp (1a11f4d33f1c)")
K = A
print("max|K^dag K - I| =", np.abs(K.conj().T @ K - np.eye(2)).max())
print("Stinespring.is_cptp(atol=1e-3, rtol=0) ->", Stinespring(Kraus([K])).is_cptp(atol=0.001, rtol=0.0))
print("Kraus.is_cptp(atol=1e-3, rtol=0) ->", Kraus([K]).is_cptp(atol=0.001, rtol=0.0))

print("== ParameterExpression.sign (60ef0e334a46)")
x = Parameter("x")
for expr_s, expr in (("(1.0*x+0.0).sign()", (1.0 * x + 0.0).sign()), ("x.sign()", x.sign())):
    for v in (0.5, 0.5 + 0j, -2 + 0j, 3 + 4j, -0.5):
        val = expr.bind({x: v}).numeric()
        print(f"{expr_s} at x={v!r}: {val!r}; numpy.sign -> {np.sign(np.complex128(v)) if isinstance(v, complex) else np.sign(v)!r}")
print("x.sign() bound then via assign in abs:", abs((x.sign()).bind({x: 3+4j}).numeric()))
