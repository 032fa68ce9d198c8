import warnings
warnings.simplefilter("ignore")
import numpy as np
from qiskit.synthesis import adder_ripple_v95
from qiskit.circuit.library import VBERippleCarryAdder, ModularAdderGate
from qiskit.quantum_info import Operator
from qiskit import QuantumCircuit, transpile

def check(circ, n, kind):
    """Exhaustive basis-state check with a permutation-matrix read-out (independent of Statevector)."""
    from qiskit.quantum_info import Statevector
    nq0 = circ.num_qubits
    class _U:
        def __getitem__(self, k):
            return Statevector.from_int(k[1], 2**nq0).evolve(circ).data
    U = _U()
    nq = circ.num_qubits
    off = 1 if kind == "full" else 0
    bad = []
    for cin in ([0, 1] if kind == "full" else [0]):
        for a in range(2**n):
            for b in range(2**n):
                idx = cin | (a << off) | (b << (off + n))
                col = U[:, idx]
                out = int(np.argmax(np.abs(col)))
                s = a + b + cin
                if kind == "fixed":
                    exp = cin | (a << off) | ((s % 2**n) << (off + n))
                else:
                    exp = cin | (a << off) | ((s % 2**n) << (off + n)) | ((s >> n) << (off + 2 * n))
                if abs(abs(col[exp]) - 1) > 1e-9:
                    bad.append((cin, a, b, "got", out, "want", exp))
    return bad

for kind in ("fixed",):
    for n in (2,):
        c = adder_ripple_v95(n, kind=kind)
        bad = check(c, n, kind)
        print(f"adder_ripple_v95({n},{kind!r}) qubits={c.num_qubits} failures={len(bad)}/{2**(2*n)*(2 if kind=='full' else 1)}", bad[:2])
v = VBERippleCarryAdder(2, kind="fixed")
print("VBERippleCarryAdder(2,'fixed') failures:", len(check(v, 2, "fixed")), check(v, 2, "fixed")[:3])
print("VBE(2,fixed) ops:", dict(v.decompose().count_ops()))
# The non-deprecated route: ModularAdderGate synthesized with the ripple_v95 plugin
from qiskit.transpiler.passes import HighLevelSynthesis, HLSConfig
from qiskit.transpiler import PassManager
qc = QuantumCircuit(5); qc.append(ModularAdderGate(2), [0, 1, 2, 3])
try:
    out = PassManager([HighLevelSynthesis(hls_config=HLSConfig(ModularAdder=["ripple_v95"]), basis_gates=["cx","ccx","x"], qubits_initially_zero=True)]).run(qc)
    print("ModularAdderGate(2) via ripple_v95 plugin ops:", dict(out.count_ops()), "failures:", len(check(out, 2, "fixed")))
except Exception as e:
    print("plugin route:", type(e).__name__, e)
