import pennylane.estimator as qre

class QFT(qre.ResourceOperator):
    resource_keys = {"num_wires"}
    def __init__(self, num_wires, wires=None):
        self.num_wires = num_wires
        super().__init__(wires=wires)
    @property
    def resource_params(self) -> dict:
        return {"num_wires": self.num_wires}
    @classmethod
    def resource_rep(cls, num_wires):
        params = {"num_wires": num_wires}
        return qre.CompressedResourceOp(cls, num_wires, params)
    @classmethod
    def resource_decomp(cls, num_wires):
        swap = qre.resource_rep(qre.SWAP)
        hadamard = qre.resource_rep(qre.Hadamard)
        ctrl_phase_shift = qre.resource_rep(qre.ControlledPhaseShift)
        return [qre.GateCount(swap, num_wires // 2), qre.GateCount(hadamard, num_wires),
                qre.GateCount(ctrl_phase_shift, num_wires*(num_wires - 1) // 2)]

op = QFT(num_wires=3)
print(qre.estimate(op, gate_set={'Hadamard', 'SWAP', 'ControlledPhaseShift'}))
