"""The PennyLane quantum-chemistry laws (spin and number observables, Hartree-Fock state,
excitations, Givens decomposition, double factorization) hold on the real release for the subjects
they are right for, catch planted wrong implementations (the library patched inside the test
process) with reproducers that fail too, find the release's own defects, and take their subjects
from what the live library exports."""

import pytest

PREFIX = "pennylane.qchem."
OBSERVABLES = PREFIX + "number-and-spin-observables"
HF = PREFIX + "hf-state-encodes-occupation"
EXCITATIONS = PREFIX + "excitations-enumerate-selection-rules"
GIVENS = PREFIX + "givens-decomposition-reconstructs"
FACTORIZE = PREFIX + "factorize-reconstructs"

HOLDS = [(OBSERVABLES, "particle_number"), (OBSERVABLES, "spinz"), (OBSERVABLES, "spin2"),
         (HF, "hf_state[occupation_number]"), (HF, "hf_state[parity]"), (HF, "hf_state[bravyi_kitaev]"),
         (EXCITATIONS, "excitations"), (EXCITATIONS, "excitations_to_wires"),
         (FACTORIZE, "factorize"), (FACTORIZE, "factorize[cholesky]")]


def _wrap(name, body):
    """Patch source replacing qml.qchem.<name> by `body` (a function of the original `_orig`)."""
    return ("import functools\nimport numpy as np\nimport pennylane as qml\n"
            f"_orig = qml.qchem.{name}\n"
            f"@functools.wraps(_orig)\ndef _planted(*args, **kwargs):\n    {body}\n"
            f"qml.qchem.{name} = _planted\n")


# Each plant breaks one documented promise of one function.
PLANTS = {
    # spin up and spin down swapped (odd spin orbitals taken as spin up)
    (OBSERVABLES, "spinz"): _wrap("spinz", "return -1.0 * _orig(*args, **kwargs)"),
    # the particle number counted twice for spin orbital 0 (an extra n_0 = (1 - Z_0)/2)
    (OBSERVABLES, "particle_number"): _wrap("particle_number",
                                            "return _orig(*args, **kwargs) + 0.5 * qml.Identity(0) - 0.5 * qml.Z(0)"),
    # the parity basis answered with the Bravyi-Kitaev encoding
    (HF, "hf_state[parity]"): _wrap("hf_state", "if kwargs.get('basis') == 'parity':\n"
                                    "        kwargs['basis'] = 'bravyi_kitaev'\n"
                                    "    return _orig(*args, **kwargs)"),
    # the delta_sz selection rule ignored
    (EXCITATIONS, "excitations"): _wrap("excitations", "kwargs['delta_sz'] = 0\n    return _orig(*args, **kwargs)"),
    # the double-excitation wires of the occupied pair only
    (EXCITATIONS, "excitations_to_wires"): _wrap("excitations_to_wires",
                                                  "s, d = _orig(*args, **kwargs)\n"
                                                  "    return s, [[w[0], w[0]] for w in d]"),
    # the rotations handed back in reverse order
    (GIVENS, "givens_decomposition"): _wrap("givens_decomposition",
                                            "d, rots = _orig(*args, **kwargs)\n    return d, list(reversed(rots))"),
    # the last factor dropped
    (FACTORIZE, "factorize"): _wrap("factorize", "f, c, l = _orig(*args, **kwargs)\n"
                                    "    return f[:-1], c[:-1], l[:-1]"),
}


@pytest.mark.parametrize(("law", "subject"), HOLDS)
def test_law_holds_on_the_release_for_subjects_it_is_right_for(pennylane_runtime, law, subject):
    pennylane_runtime.assert_holds(contract=law, subject=subject, examples=12)


@pytest.mark.parametrize(("law", "subject"), sorted(PLANTS))
def test_law_catches_a_planted_wrong_implementation(pennylane_runtime, law, subject):
    result = pennylane_runtime.assert_caught(contract=law, subject=subject, patch=PLANTS[(law, subject)], examples=40)
    assert f"qml.qchem.{subject.split('[')[0]}(" in result["reproducer"]


def test_law_finds_the_givens_defects_of_the_release(pennylane_runtime):
    # pennylane 0.45.0: a complex diagonal unitary gets NaN phases; a real orthogonal matrix of even size
    # and determinant -1 comes back as T ... D, not the documented D T ... (0.42.3 reconstructs both)
    result = pennylane_runtime.assert_caught(contract=GIVENS, subject="givens_decomposition", patch="", examples=60,
                                             other_failures=True)
    messages = [result["message"]] + [v["message"] for v in result["other_violations"]]
    assert any("nan" in m for m in messages) or any("differs from U" in m for m in messages), messages


SUBJECTS = """
import json, contract_runtime as r
print(json.dumps({law: r.subjects("pennylane", law)["subjects"] for law in %r}))
"""


def test_subjects_are_what_the_live_library_exports(pennylane_runtime):
    found = pennylane_runtime(SUBJECTS % [OBSERVABLES, HF, EXCITATIONS, GIVENS, FACTORIZE])
    assert found[OBSERVABLES] == ["particle_number", "spinz", "spin2"]
    assert found[HF] == ["hf_state[occupation_number]", "hf_state[parity]", "hf_state[bravyi_kitaev]"]
    assert found[EXCITATIONS] == ["excitations", "excitations_to_wires"]
    assert found[GIVENS] == ["givens_decomposition"]
    assert found[FACTORIZE] == ["factorize", "factorize[cholesky]"]
