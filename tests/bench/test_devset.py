"""benchmarks/devset.py: which release-note fixes name a public entry, and how pairs are read.
The audits it runs are the CLI's own (tests/audit); here, the scoring it adds around them."""

import argparse
import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "devset.py"


@pytest.fixture(scope="module")
def devset():
    spec = importlib.util.spec_from_file_location("devset", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules["devset"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    yield module
    del sys.modules["devset"]


def test_a_note_names_a_public_entry_through_its_cross_references(devset):
    tails = devset.dotted_tails(["qiskit.circuit.QuantumCircuit.compose", "qiskit.transpile", "pennylane.adjoint"])
    notes = ["Fixed :meth:`.QuantumCircuit.compose` dropping the global phase.",  # a method of a public class
             "Fixed a bug where ``qml.adjoint`` of a template lost its wires.",
             "Improved the error message raised when an optional dependency is missing.",  # nothing named
             "Fixed `SomethingPrivate` in the build."]
    assert devset.naming_public_api(notes, tails) == 2


def test_a_note_naming_a_method_of_another_class_does_not_count(devset):
    tails = devset.dotted_tails(["qiskit.circuit.QuantumCircuit.compose"])
    assert devset.naming_public_api(["Fixed :meth:`.Target.compose`."], tails) == 0


def test_pairs_are_library_release_and_the_release_that_fixed(devset):
    assert devset._pairs("qiskit==2.3.0:2.3.1, pennylane==0.43.0:0.44.0") == [
        ("qiskit", "2.3.0", "2.3.1"), ("pennylane", "0.43.0", "0.44.0")]
    with pytest.raises(argparse.ArgumentTypeError):
        devset._pairs("qiskit 2.3.0")


def test_fix_notes_are_those_of_the_release_that_fixed(devset):
    if not devset.DEVSET.exists():
        pytest.skip("the shared development set is not on this machine")
    notes = devset.fix_notes("qiskit", "2.3.1")
    assert notes and all(isinstance(n, str) for n in notes)
    assert not set(notes) & set(devset.fix_notes("qiskit", "2.3.0"))
