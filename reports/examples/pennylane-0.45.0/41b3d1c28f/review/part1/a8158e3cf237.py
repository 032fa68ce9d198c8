import numpy as np
import pennylane as qml

wire_order = qml.wires.Wires(['a', 7])
weights = [1.0]
vectors = [
    np.array([(1+0j), 0j, 0j, 0j], dtype=complex),
]
density_matrix = sum(w * np.outer(v, v.conj()) for w, v in zip(weights, vectors)) / sum(weights)
mp = qml.mutual_info(wires0=['a'], wires1=[7])
try:
    result = mp.process_density_matrix(density_matrix, wire_order)
except Exception as exc:  # documented input: an exception is a failure of this form ...
    if type(exc).__name__ == 'EigvalsUndefinedError':
        raise  # ... except the library's own refusal: this observable has no eigenvalues
    raise AssertionError(f'process_density_matrix raises {type(exc).__name__}: {exc}') from exc

# Law: every documented input form of a measurement process gives the same answer: the value
# computed with numpy from the same data (first wire of wire_order most significant; for an
# observable, outcome bits in its measurement basis stand for its eigenvalues)
expected = 0.0
actual = np.asarray(result)
assert actual.shape == (), f"process_density_matrix returns shape {actual.shape}, expected a scalar"
assert abs(complex(actual) - expected) < 1e-07, f"process_density_matrix returns {complex(actual)!r}, expected {expected!r}"
