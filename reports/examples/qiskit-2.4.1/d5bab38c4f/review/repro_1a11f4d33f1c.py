import numpy as np
from qiskit.quantum_info import (Chi, Choi, DensityMatrix, Kraus, Operator, PTM, ScalarOp, SparsePauliOp, Statevector, Stinespring, SuperOp)

answer = Stinespring(Kraus([np.array([[complex(0.080934, -0.344818), complex(-0.415036, 0.838031)],
          [complex(0.41225, 0.839405), complex(0.079789, 0.345085)]])])).is_cptp(atol=0.001, rtol=0.0)
assert answer == True, f'Stinespring.is_cptp returned {answer}, expected True'
