"""Part B diagnostics: prints the values that decide each verdict."""
import inspect
import math
import traceback

import numpy as np
import qiskit
from qiskit import QuantumCircuit
from qiskit.circuit import Parameter, library
from qiskit.circuit.library import RGate, CUGate, StatePreparation, Isometry
from qiskit.quantum_info import Operator, Statevector
from qiskit.transpiler import CouplingMap, PassManager, passes
from qiskit.converters import circuit_to_dag

print("qiskit", qiskit.__version__, "numpy", np.__version__)


def section(title):
    print("\n=====", title)


# ---------------------------------------------------------------- A: RGate / CUGate float64
section("A 24bbe69d21a6 / ddb433300ae9: RGate / CUGate with np.float64 angle")
print("isinstance(np.float64(0.37), float):", isinstance(np.float64(0.37), float))
print("np.float64(0.37) == 0.37:", np.float64(0.37) == 0.37)
a = Parameter("a")
r_py, r_np = RGate(a, 0.37), RGate(a, np.float64(0.37))
print("shared Parameter: RGate(a,0.37) == RGate(a,np.float64(0.37)):", r_py == r_np)
print("  param types:", [type(p).__name__ for p in r_py.params], [type(p).__name__ for p in r_np.params])
print("fresh Parameter('a') each: RGate(Parameter('a'),0.37) == RGate(Parameter('a'),0.37):",
      RGate(Parameter("a"), 0.37) == RGate(Parameter("a"), 0.37))
c_py, c_np = CUGate(a, a, a, 0.37), CUGate(a, a, a, np.float64(0.37))
print("shared Parameter: CUGate(a,a,a,0.37) == CUGate(a,a,a,np.float64(0.37)):", c_py == c_np)
print("fresh Parameter('a') each: CUGate == CUGate (same float):",
      CUGate(Parameter("a"), Parameter("a"), Parameter("a"), 0.37)
      == CUGate(Parameter("a"), Parameter("a"), Parameter("a"), 0.37))
print("bound RGate operators equal:",
      np.array_equal(Operator(RGate(0.5, 0.37)).data, Operator(RGate(0.5, np.float64(0.37))).data))
print("bound CUGate operators equal:",
      np.array_equal(Operator(CUGate(0.1, 0.2, 0.3, 0.37)).data,
                     Operator(CUGate(0.1, 0.2, 0.3, np.float64(0.37))).data))
qc1 = QuantumCircuit(1); qc1.append(r_np, [0])
print("param type inside a circuit:", type(qc1.data[0].operation.params[1]).__name__)
bound = qc1.assign_parameters({a: 0.5})
print("circuit bound with float64 angle == with float angle:",
      Operator(bound) == Operator(QuantumCircuit(1).compose(RGate(0.5, 0.37), [0])))
print("repr float vs float64:", repr(0.37), repr(np.float64(0.37)))

# ---------------------------------------------------------------- B: StatePreparation phase
section("B bc6dcd83a219: StatePreparation / Isometry global phase")
s2 = 1 / math.sqrt(2)
for vec in ([-1, 0], [1j, 0], [np.exp(1j * np.pi * 0.9999), 0], [0, -1], [-s2, -s2],
            [-1, 0, 0, 0], [1, 0]):
    vec = np.array(vec, dtype=complex)
    sp = StatePreparation(vec)
    col = Operator(sp).data[:, 0]
    iso = Statevector(Isometry(vec, 0, 0).definition).data
    print(f"vec={np.round(vec, 4)}  Operator(SP)[:,0]={np.round(col, 4)}  dev={np.max(np.abs(col - vec)):.3g}"
          f"  Isometry dev={np.max(np.abs(iso - vec)):.3g}  same-up-to-phase={abs(abs(np.vdot(col, vec)) - 1) < 1e-9}")
print("definition of StatePreparation([-1,0]):")
print(StatePreparation([-1, 0]).definition.decompose(reps=3))

# ---------------------------------------------------------------- C: BasicSwap global phase
section("C 081aeced7072: BasicSwap global phase")


def run_swap(qc, swap):
    out = PassManager([swap]).run(qc)
    return out


cases = {}
qc = QuantumCircuit(1, global_phase=math.pi / 4); qc.append(library.GlobalPhaseGate(0.0), [])
cases["phase pi/4 + GlobalPhaseGate(0)"] = qc
qc = QuantumCircuit(1, global_phase=math.pi / 4); qc.x(0)
cases["phase pi/4 + X"] = qc
qc = QuantumCircuit(1, global_phase=math.pi / 4)
cases["phase pi/4, empty"] = qc
qc = QuantumCircuit(1); qc.append(library.GlobalPhaseGate(math.pi / 4), [])
cases["phase 0 + GlobalPhaseGate(pi/4)"] = qc
qc = QuantumCircuit(2, global_phase=math.pi / 4); qc.h(0); qc.cx(0, 1); qc.x(1)
cases["2q phase pi/4 + H,CX,X"] = qc
for name, qc in cases.items():
    out = run_swap(qc, passes.BasicSwap(coupling_map=CouplingMap.from_line(qc.num_qubits)))
    same = Operator(out) == Operator(qc)
    print(f"{name:35s} in.phase={float(qc.global_phase):.4f} out.phase={float(out.global_phase):.4f}"
          f" out.ops={dict(out.count_ops())} Operator equal={same}")
    dag = circuit_to_dag(qc)
    print(f"{'':35s} dag.global_phase={float(dag.global_phase):.4f} serial layer phases="
          f"{[round(float(l['graph'].global_phase), 4) for l in dag.serial_layers()]}")
qc = cases["phase pi/4 + GlobalPhaseGate(0)"]
for other in ("LookaheadSwap", "SabreSwap", "StochasticSwap"):
    cls = getattr(passes, other, None)
    if cls is None:
        continue
    try:
        out = PassManager([cls(CouplingMap.from_line(1))]).run(qc)
        print(f"{other}: out.phase={float(out.global_phase):.4f} Operator equal={Operator(out) == Operator(qc)}")
    except Exception as exc:  # noqa: BLE001
        print(f"{other}: {type(exc).__name__}: {exc}")
print("Operator(qc) data:", np.round(Operator(qc).data, 4).tolist(),
      "expected e^{i pi/4} =", np.round(np.exp(1j * math.pi / 4), 4))

# ---------------------------------------------------------------- D: PiecewisePolynomialPauliRotationsGate
section("D 27884611bc73: PiecewisePolynomialPauliRotationsGate defaults")
from qiskit.circuit.library import PiecewisePolynomialPauliRotationsGate, PiecewisePolynomialPauliRotations
print("signature:", inspect.signature(PiecewisePolynomialPauliRotationsGate.__init__))
doc = PiecewisePolynomialPauliRotationsGate.__init__.__doc__
print("doc lines:", [l.strip() for l in doc.splitlines() if "Defaults" in l])
for kwargs in ({}, {"coeffs": [[1]]}, {"breakpoints": [0]}, {"breakpoints": [0], "coeffs": [[1]]}):
    try:
        g = PiecewisePolynomialPauliRotationsGate(2, **kwargs)
        print(f"Gate(2, {kwargs}) -> ok, breakpoints={g.breakpoints}, coeffs={g.coeffs}, num_qubits={g.num_qubits}")
    except Exception as exc:  # noqa: BLE001
        tb = traceback.extract_tb(exc.__traceback__)[-1]
        print(f"Gate(2, {kwargs}) -> {type(exc).__name__}: {exc} at {tb.filename.split('site-packages/')[-1]}:{tb.lineno}: {tb.line}")
try:
    c = PiecewisePolynomialPauliRotations(2)
    print("circuit class PiecewisePolynomialPauliRotations(2): breakpoints", c.breakpoints, "coeffs", c.coeffs)
except Exception as exc:  # noqa: BLE001
    print("circuit class:", type(exc).__name__, exc)

# ---------------------------------------------------------------- E: ParameterExpression.sign complex
section("E ec4dc50fc89a: ParameterExpression.sign on complex values")
x = Parameter("x")


def ev(expr, val):
    try:
        return complex(expr.bind({x: val}).numeric())
    except Exception as exc:  # noqa: BLE001
        return f"{type(exc).__name__}: {exc}"


for val in (0.5, -0.5, 0.5 + 0j, -0.5 + 0j, 3 + 4j, 2j, -2 + 0j):
    z = complex(val)
    ref = z / abs(z) if z != 0 else 0
    print(f"val={val!r:10s} x.sign()={ev(x.sign(), val)}  (1.0*x+0.0).sign()={ev((1.0 * x + 0.0).sign(), val)}"
          f"  numpy.sign={np.sign(np.complex128(val)) if isinstance(val, complex) else np.sign(val)}  z/|z|={ref}")
print("abs at 3+4j (for contrast):", ev(x.abs(), 3 + 4j), " exp at 1j:", ev(x.exp(), 1j))
print("sign docstring:", type(x).sign.__doc__)
