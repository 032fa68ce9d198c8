import numpy as np
import pennylane as qml

wire_order = qml.wires.Wires(['a'])
state = np.array([(1+0j), 0j], dtype=complex)
mp = qml.vn_entropy(wires=['a'])
try:
    result = mp.process_state(state, wire_order)
except Exception as exc:  # documented input: an exception is a failure of this form ...
    if type(exc).__name__ == 'EigvalsUndefinedError':
        raise  # ... except the library's own refusal: this observable has no eigenvalues
    raise AssertionError(f'process_state raises {type(exc).__name__}: {exc}') from exc

# Law: every documented input form of a measurement process gives the same answer: the value
# computed with numpy from the same data (first wire of wire_order most significant; for an
# observable, outcome bits in its measurement basis stand for its eigenvalues)
expected = -0.0
actual = np.asarray(result)
assert actual.shape == (), f"process_state returns shape {actual.shape}, expected a scalar"
assert abs(complex(actual) - expected) < 1e-07, f"process_state returns {complex(actual)!r}, expected {expected!r}"
