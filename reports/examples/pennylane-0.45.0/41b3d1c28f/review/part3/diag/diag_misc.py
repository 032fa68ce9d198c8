import warnings; warnings.filterwarnings('ignore')
import numpy as np, pennylane as qml, importlib.metadata as md
print("lightning", md.version("pennylane_lightning"))
# --- fa14: tree traversal probs shape
for devname in ['default.qubit','lightning.qubit']:
    for mm in ['tree-traversal','deferred','one-shot']:
        for th in [0.0, 0.5]:
            try:
                dev = qml.device(devname, shots=None if mm!='one-shot' else 100)
                @qml.qnode(dev, mcm_method=mm)
                def c():
                    qml.RY(th, wires=[0]); m0 = qml.measure(0)
                    return qml.probs(wires=[0]), qml.probs(op=[m0])
                r = c(); print('TT', devname, mm, th, [np.shape(x) for x in r], r)
            except Exception as e: print('TT', devname, mm, th, 'ERR', type(e).__name__, e)
# --- ce24: hash
a = qml.expval(qml.PauliX(0) @ qml.PauliX(1)); b = qml.expval(qml.PauliX(1) @ qml.PauliX(0))
oa, ob = qml.PauliX(0) @ qml.PauliX(1), qml.PauliX(1) @ qml.PauliX(0)
print('HASH ops eq', oa == ob, 'op hash eq', oa.hash == ob.hash, 'mp eq', a == b, 'mp hash eq', hash(a) == hash(b), 'mp wires', a.wires, b.wires, 'len set', len({a,b}))
# --- ba1d: commute_controlled alone mutates input
tape = qml.tape.QuantumScript([qml.PauliZ(0), qml.Toffoli([0,1,2])], [qml.expval(qml.Z(0))])
ops_before = list(tape.operations)
qml.transforms.commute_controlled(tape)
print('CC mutated', tape.operations != ops_before, tape.operations)
# parameterised: stale par info
tape = qml.tape.QuantumScript([qml.RZ(0.1, 0), qml.CRX(0.2, [0,1])], [qml.expval(qml.Z(1))])
qml.transforms.commute_controlled(tape)
print('CC param tape ops', tape.operations, 'get_parameters', tape.get_parameters(), 'par info ops', [p['op'].name for p in tape.par_info])
# --- cea5: vn_entropy ignores wire_order (integer labels)
bell = np.array([1,0,0,1])/np.sqrt(2); zero=np.array([1,0])
state = np.kron(zero, bell)  # position0 |0>, positions1,2 Bell
wo = qml.wires.Wires([1,0,2])  # label 1 at pos 0 (|0>), label 0 at pos 1 (Bell)
print('VN label0 (expect ln2=0.6931)', qml.vn_entropy(wires=[0]).process_state(state, wo), 'purity label0 (expect 0.5)', qml.purity(wires=[0]).process_state(state, wo))
print('VN via density_matrix', qml.math.vn_entropy(qml.density_matrix(wires=[0]).process_state(state, wo), indices=[0]))
# --- 6084: MCX map_wires type
op = qml.MultiControlledX(wires=[0,1,2], work_wire_type='zeroed'); m = op.map_wires({0:'m1',1:'m2',2:2})
print('MCX', type(m).__name__, m.work_wires, m.work_wire_type, 'eq', qml.equal(op.map_wires({0:0}), op))
op3 = qml.MultiControlledX(wires=[0,1,2,3], work_wires=[4], work_wire_type='zeroed'); m3 = op3.map_wires({0:'a'})
print('MCX3', type(m3).__name__, m3.work_wires, m3.work_wire_type)
# --- liealg MultiRZ pauli_rep
print('MultiRZ pauli_rep', qml.MultiRZ(0.5, wires=[0,1]).pauli_rep)
# --- GQSP through estimate with default precision
import pennylane.estimator as qre
try:
    print('GQSP estimate default', qre.estimate(qre.GQSPTimeEvolution(qre.RX(0.1, wires=0), 1.0, 1.0)))
except Exception as e:
    import traceback; print('GQSP estimate default ERR', type(e).__name__, e); traceback.print_exc()
print('GQSP estimate with precision', qre.estimate(qre.GQSPTimeEvolution(qre.RX(0.1, wires=0), 1.0, 1.0, 0.01)).gate_counts if hasattr(qre.Resources,'gate_counts') else 'ok')
