"""The PennyLane quantum-information law holds on the real release for the qml.math functions it is right
for, catches a planted wrong implementation (the library patched inside the test process) with a
reproducer that fails too, finds the release's own defects, and its subjects are the quantum-information
functions the live library exports."""

import pytest

LAW = "pennylane.math.quantum-info-matches-textbook"
IMPORTS = "import numpy as np\nimport pennylane as qml\n"

HOLDS = ["fidelity", "fidelity_statevector", "trace_distance", "vn_entropy", "mutual_info", "purity", "reduce_dm",
         "reduce_statevector", "partial_trace", "max_entropy", "expectation_value", "sqrt_matrix",
         "dm_from_state_vector", "vn_entanglement_entropy"]


def _replace(name, home, body):
    """Patch source replacing qml.math.<name> by `body` (a function of the original `_orig`), wrapping
    it (same signature) in the library's own module so that subject discovery still finds it."""
    return (IMPORTS + f"import functools\n_orig = qml.math.{name}\n"
            f"@functools.wraps(_orig)\ndef {name}(*args, **kwargs):\n    {body}\n"
            f"{name}.__module__ = {home!r}\n"
            f"qml.math.{name} = {name}\n")


# Each plant breaks one documented promise of one function.
PLANTS = {
    # the fidelity without the docstring's square
    "fidelity": _replace("fidelity", "pennylane.math.fidelity", "return np.sqrt(_orig(*args, **kwargs))"),
    # the reduced state of the complementary subsystem (wires traced instead of kept)
    "reduce_dm": _replace("reduce_dm", "pennylane.math.quantum",
                          "n = int(np.log2(np.shape(args[0])[-1]))\n"
                          "    rest = [i for i in range(n) if i not in kwargs['indices']] or kwargs['indices']\n"
                          "    kwargs['indices'] = rest\n"
                          "    return _orig(*args, **kwargs)"),
    # the base option ignored (always the natural logarithm)
    "vn_entropy": _replace("vn_entropy", "pennylane.math.quantum",
                           "kwargs.pop('base', None)\n    return _orig(*args, **kwargs)"),
    # |psi*><psi|: the conjugate on the wrong side (the transpose of the right matrix)
    "dm_from_state_vector": _replace("dm_from_state_vector", "pennylane.math.quantum",
                                     "return np.swapaxes(np.asarray(_orig(*args, **kwargs)), -1, -2)"),
    # every batch entry given the first entry's value
    "purity": _replace("purity", "pennylane.math.quantum",
                       "out = np.asarray(_orig(*args, **kwargs))\n"
                       "    return np.full_like(out, out.flat[0]) if out.ndim else out"),
}

# Defects of pennylane 0.45.0 the law finds (each confirmed by running its reproducer by hand).
REAL_DEFECTS = ["min_entropy", "relative_entropy"]


@pytest.mark.parametrize("subject", HOLDS)
def test_law_holds_on_the_release_for_functions_it_is_right_for(pennylane_runtime, subject):
    pennylane_runtime.assert_holds(contract=LAW, subject=subject, examples=15)


@pytest.mark.parametrize("subject", sorted(PLANTS))
def test_law_catches_a_planted_wrong_implementation(pennylane_runtime, subject):
    result = pennylane_runtime.assert_caught(contract=LAW, subject=subject, patch=PLANTS[subject], examples=40)
    reproducer = result["reproducer"]
    assert f"qml.math.{subject}(" in reproducer
    assert "contract" not in reproducer and "oracle_core" not in reproducer  # public API only


@pytest.mark.parametrize("subject", REAL_DEFECTS)
def test_law_finds_the_defects_of_the_release(pennylane_runtime, subject):
    # min_entropy on a batch returns one number (the max eigenvalue over the whole batch);
    # relative_entropy of a rounded pure state (a zero eigenvalue of -1e-17) is nan
    pennylane_runtime.assert_caught(contract=LAW, subject=subject, patch="", examples=40)


SUBJECTS = """
import json, contract_runtime as r
print(json.dumps(r.subjects("pennylane", %r)["subjects"]))
"""


def test_subjects_are_the_quantum_information_functions_the_library_exports(pennylane_runtime):
    found = set(pennylane_runtime(SUBJECTS % LAW))
    assert set(HOLDS) | set(REAL_DEFECTS) <= found
    # other qml.math functions (array dispatch, helpers, channels) are not subjects
    assert not found & {"dot", "marginal_prob", "cov_matrix", "choi_matrix", "allclose", "sqrt_matrix_sparse", "eye"}
