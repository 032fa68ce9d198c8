"""pennylane-7344: qml.counts(obs).process_counts returns bitstring counts instead of
counts of the observable's eigenvalues.

For the observable Z(0) @ Z(1), the bitstrings 00 and 11 give eigenvalue +1, 01 and 10
give -1: counts {00: 3, 01: 1, 10: 2} are {+1: 3, -1: 3}, the same as counts(obs) of a
QNode returns for an observable (eigenvalues as keys)."""
import pennylane as qml

counts = {"00": 3, "01": 1, "10": 2}
result = qml.counts(qml.Z(0) @ qml.Z(1)).process_counts(counts, wire_order=[0, 1])
as_floats = {float(k): int(v) for k, v in result.items()} if all(
    not isinstance(k, str) for k in result) else None
assert as_floats == {1.0: 3, -1.0: 3}, f"process_counts returned {result}, expected eigenvalue counts {{1: 3, -1: 3}}"
