import pennylane as qp
class Subroutine:
    def __repr__(self):
        return f"<Subroutine: {self.ops}>"
    def __init__(self, ops):
        self.ops = ops
from pennylane.transforms.core import Transform
@Transform.generic_register
def apply_to_subroutine(obj: Subroutine, transform, *targs, **tkwargs):
    targs, tkwargs = transform.setup_inputs(*targs, **tkwargs)
    tape = qp.tape.QuantumScript(obj.ops)
    batch, _ = transform(tape, *targs, **tkwargs)
    return Subroutine(batch[0].operations)
print(qp.transforms.cancel_inverses(Subroutine([qp.Y(0), qp.X(0), qp.X(0)])))
