import numpy as np
import pennylane as qml

wire_order = qml.wires.Wires([0])
# the data: raw samples (one column per wire of wire_order) and their counts
samples = np.array([[0]])
counts = {'0': 1}
mp = qml.sample(wires=[0])
try:
    result = mp.process_counts(counts, wire_order)
except Exception as exc:  # documented input: an exception is a failure of this form ...
    if type(exc).__name__ == 'EigvalsUndefinedError':
        raise  # ... except the library's own refusal: this observable has no eigenvalues
    raise AssertionError(f'process_counts raises {type(exc).__name__}: {exc}') from exc

# Law: every documented input form of a measurement process gives the same answer: the value
# computed with numpy from the same data (first wire of wire_order most significant; for an
# observable, outcome bits in its measurement basis stand for its eigenvalues)
expected = np.array([[0]])
actual = np.asarray(result)
from_samples = np.asarray(mp.process_samples(samples, wire_order))
assert actual.shape == from_samples.shape, f"process_counts returns shape {actual.shape}; process_samples on the same samples returns shape {from_samples.shape}"
assert actual.size == expected.size, f"process_counts returns {actual.size} values, expected {expected.size}"
def multiset(a):
    return np.array(sorted(np.asarray(a, dtype=float).reshape(expected.shape[0], -1).tolist()))
assert np.allclose(multiset(actual), multiset(expected), rtol=0, atol=1e-07), f"process_counts returns {actual.tolist()}, expected the samples {expected.tolist()} in some order"
