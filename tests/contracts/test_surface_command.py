"""`qusema surface LIB==VER` on the real Qiskit release, as a user runs it: each entry says
which surface laws check it, how their inputs are built, and why none does where none does."""

import json

import pytest
from click.testing import CliRunner

from qusema.cli import main


def run(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.mark.release
def test_the_surface_of_a_release_names_the_laws_of_each_entry_and_why_not():
    result = run("surface", "qiskit==2.4.1", "--json", "--entries", "qiskit.quantum_info.Pauli*")
    assert result.exit_code == 0, result.output
    listing = json.loads(result.output[result.output.index("{"):])
    entries = {e["entry"]: e for e in listing["listing"]}
    assert "surface.no-internal-error" in entries["qiskit.quantum_info.Pauli.to_matrix"]["laws"]
    assert entries["qiskit.quantum_info.Pauli.to_matrix"]["inputs"] == "documented example"
    tensor = entries["qiskit.quantum_info.Pauli.tensor"]
    assert {"surface.calls-have-no-internal-error"} <= set(tensor["laws"]) and tensor["inputs"] == "typed arguments"
    assert "surface.copies-are-equal" in entries["qiskit.quantum_info.Pauli"]["laws"]
    unchecked = [e for e in listing["listing"] if not e["laws"]]
    assert unchecked and all(e["why_not"] for e in unchecked)  # every entry no law checks says why
    assert listing["checked"] == sum(bool(e["laws"]) for e in listing["listing"])


def test_a_target_that_is_no_exact_release_of_a_library_with_surface_laws_is_refused():
    unpinned = run("surface", "qiskit")
    assert unpinned.exit_code != 0 and "exact release" in unpinned.output
    unknown = run("surface", "numpy==2.2.6")
    assert unknown.exit_code != 0 and "has no surface laws" in unknown.output
