"""pennylane-8366: with postselect_mode="fill-shots", mid-circuit measurements lose their
correlation: a measurement repeated on the same qubit can disagree with itself.

Measuring qubit 0 twice in a row gives the same outcome both times, so after postselecting
the second measurement on 1 the only possible joint outcome is "11". The fixed release
refuses this combination on default.qubit with a DeviceError naming 'fill-shots'; a
refusal is not a wrong answer, so it passes."""
import warnings

import pennylane as qml

try:  # where DeviceError lives moved between releases
    from pennylane.exceptions import DeviceError
except ImportError:
    DeviceError = qml.DeviceError

warnings.simplefilter("ignore")  # shots-on-device deprecation in newer releases
dev = qml.device("default.qubit", wires=1, shots=200, seed=42)


@qml.qnode(dev, postselect_mode="fill-shots")
def circuit():
    qml.Hadamard(0)
    m0 = qml.measure(0)
    m1 = qml.measure(0, postselect=1)
    return qml.counts([m0, m1])


try:
    counts = circuit()
except DeviceError as refused:
    assert "fill-shots" in str(refused), refused
else:
    outcomes = {k: int(v) for k, v in counts.items() if int(v) > 0}
    assert set(outcomes) == {"11"}, f"repeated measurement disagreed with itself: {outcomes}"
