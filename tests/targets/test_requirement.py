from __future__ import annotations

import pytest

from qusema.targets import PinnedRequirement, RequirementNotUnderstood, parse_requirement


@pytest.mark.parametrize(
    ("spec", "name", "version"),
    [
        ("qiskit==2.4.1", "qiskit", "2.4.1"),
        ("PennyLane==0.45.0", "pennylane", "0.45.0"),
        ("  qiskit_terra == 0.7.0 ", "qiskit-terra", "0.7.0"),
        ("qiskit==2.0.0rc1", "qiskit", "2.0.0rc1"),
    ],
)
def test_exact_pins_are_read(spec: str, name: str, version: str) -> None:
    assert parse_requirement(spec) == PinnedRequirement(name=name, version=version)


def test_pin_renders_back_and_parses_its_version() -> None:
    pin = parse_requirement("Qiskit==2.4")
    assert str(pin) == "qiskit==2.4"
    assert str(pin.parsed_version) == "2.4"


@pytest.mark.parametrize(
    ("spec", "why"),
    [
        ("qiskit", "no version"),
        ("qiskit>=2.4", "range"),
        ("qiskit~=2.4.0", "range"),
        ("qiskit!=2.4.1", "range"),
        ("qiskit==2.*", "range"),
        ("qiskit===2.4.1", "range"),
        ("qiskit==2.4.1,==2.4.2", "several"),
        ("qiskit[visualization]==2.4.1", "extras"),
        ("qiskit @ https://example.org/qiskit-2.4.1.tar.gz", "URL"),
        ("qiskit==2.4.1; python_version > '3.8'", "markers"),
        ("==2.4.1", "not a requirement"),
        ("", "empty"),
        ("qiskit==", "not a requirement"),
    ],
)
def test_anything_but_an_exact_pin_is_refused(spec: str, why: str) -> None:
    with pytest.raises(RequirementNotUnderstood) as caught:
        parse_requirement(spec)
    message = str(caught.value)
    assert "exact pin" in message
    assert why in message
    assert repr(spec) in message
