import numpy as np
import pennylane as qml

state = np.array([[[(0.1403209805135156+0j), (0.31112630396939844+0.15437430459627213j)], [(0.31112630396939844-0.15437430459627213j), (0.8596790194864838+0j)]]], dtype=np.complex128)
result = np.asarray(qml.math.min_entropy(state, indices=[0], check_state=True, c_dtype='complex128'))
# textbook value (-log(max eigenvalue of rho_A) / log(base), rho_A the state of the wires `indices`), computed with numpy; a list of acceptable values per batch entry
expected = [[4.440892098500627e-16]]
if result.shape[:1] != (1,) and result.size == 1:
    entries = [result.reshape(())] * 1  # one value for the whole batch: compare it with each entry
else:
    assert result.shape[:1] == (1,), f'batch dimension lost: shape {result.shape}'
    entries = list(result)
def close(actual, value):
    actual, value = np.asarray(actual), np.asarray(value)
    if value.size == 1 and actual.size == 1:
        actual, value = actual.reshape(()), value.reshape(())
        if np.isinf(value.real):
            return bool(np.isinf(actual.real) and actual.real > 0)
    return actual.shape == value.shape and bool(np.all(np.abs(actual - value) <= 1e-07))
for i, (actual, values) in enumerate(zip(entries, expected)):
    assert any(close(actual, v) for v in values), f'qml.math.min_entropy: entry {i} is {actual}, textbook value {values}'
assert result.shape[:1] == (1,), f'batch dimension lost: shape {result.shape}'
