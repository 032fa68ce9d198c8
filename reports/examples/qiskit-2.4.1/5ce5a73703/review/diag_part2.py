import math, numpy as np
from qiskit import QuantumCircuit, transpile
from qiskit.circuit import Parameter, library
from qiskit.quantum_info import Operator
from qiskit.transpiler import PassManager, passes

def tryit(label, f):
    try:
        print(label, '->', f())
    except BaseException as e:
        print(label, '-> RAISES', type(e).__name__, str(e)[:120])

# --- 75a588ccb271: SubstitutePi4Rotations + GlobalPhaseGate
def pi4(ops, n=1):
    qc = QuantumCircuit(n)
    for op, qs in ops:
        qc.append(op, qs)
    out = PassManager([passes.SubstitutePi4Rotations()]).run(qc)
    return dict(out.count_ops()), Operator(out).equiv(Operator(qc))
tryit('pi4 GlobalPhase(0.3) alone', lambda: pi4([(library.GlobalPhaseGate(0.3), [])]))
tryit('pi4 RZ(pi/4) alone', lambda: pi4([(library.RZGate(math.pi/4), [0])]))
tryit('pi4 RZ(0.1)+GlobalPhase(0.3)', lambda: pi4([(library.RZGate(0.1), [0]), (library.GlobalPhaseGate(0.3), [])]))
tryit('pi4 RZ(pi/4)+GlobalPhase(0.3)', lambda: pi4([(library.RZGate(math.pi/4), [0]), (library.GlobalPhaseGate(0.3), [])]))
tryit('pi4 CP(0)+GlobalPhase(0) (finding)', lambda: pi4([(library.CPhaseGate(0.0), [0, 1]), (library.GlobalPhaseGate(0.0), [])], 2))
def viatranspile():
    qc = QuantumCircuit(1); qc.rz(math.pi/4, 0); qc.append(library.GlobalPhaseGate(0.3), [])
    out = transpile(qc, basis_gates=['h', 's', 'sdg', 't', 'tdg', 'cx'], optimization_level=0)
    return dict(out.count_ops()), Operator(out).equiv(Operator(qc))
tryit('transpile clifford+t rz(pi/4)+GlobalPhase', viatranspile)

# --- 6d5ffa8d888c: which name matters
def build(N):
    qc = QuantumCircuit(1, name=N[0]); c1 = QuantumCircuit(1, name=N[1]); c1.h(0)
    qc.append(c1.to_gate(label=N[2] if len(N) > 2 else None), [0]); return qc
def dev(N):
    f = lambda qc: Operator(transpile(qc, basis_gates=['u', 'cx'], optimization_level=2, seed_transpiler=0))
    return round(float(np.max(np.abs(f(build(N)).data - f(build(['n0', 'n1'])).data))), 3)
for N in (['x', 'x'], ['x', 'n1'], ['n0', 'x'], ['n0', 'n1', 'x']):
    tryit('names %s deviation' % N, lambda: dev(N))
g = build(['n0', 'x']).data[0].operation
print('inner gate name/type:', g.name, type(g).__name__)
for lvl in (0, 1):
    tryit('level %d names [n0,x] dev' % lvl, lambda: round(float(np.max(np.abs(Operator(transpile(build(['n0','x']), basis_gates=['u','cx'], optimization_level=lvl)).data - Operator(build(['n0','n1'])).data))), 3))

# --- 7d39ee9ce421: gradient variants
x = Parameter('x')
for name, e, exact in [('(2x)^0.3', (2.0*x)**0.3, 0.3*(0.6)**(-0.7)*2), ('(2x)^3', (2*x)**3, 3*(0.6)**2*2), ('x^0.3', x**0.3, 0.3*0.3**(-0.7)), ('(2x+0)^0.3 (finding)', (2.0*x+0.0)**0.3, 0.3*(0.6)**(-0.7)*2)]:
    gr = e.gradient(x)
    tryit('grad %s at 0.3' % name, lambda: (str(gr), complex(gr.bind({x: 0.3}).numeric()), 'exact', exact))

# --- 4a636c0f9cc8: MatchingScenariosList
from qiskit.transpiler.passes.optimization.template_matching import MatchingScenariosList, MatchingScenarios
import qiskit.transpiler.passes as P
print('MatchingScenariosList in qiskit.transpiler.passes:', hasattr(P, 'MatchingScenariosList'), '| TemplateOptimization there:', hasattr(P, 'TemplateOptimization'))
l = MatchingScenariosList(); l.append_scenario(MatchingScenarios([], [], [], [], [], 0))
tryit('pop nonempty', lambda: type(l.pop_scenario()).__name__)
tryit('pop empty again', lambda: l.pop_scenario())
tryit('builtin [].pop(0)', lambda: [].pop(0))
