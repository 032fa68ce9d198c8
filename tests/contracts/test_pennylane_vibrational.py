"""The PennyLane vibrational-structure laws hold on the real release where they are right, and
catch a planted wrong implementation (the library patched inside the test process): each law
can fail, and its reproducer fails with it."""

import pytest

VIB = "import numpy as np\nimport pennylane as qml\nimport pennylane.qchem.vibrational.vscf as vscf\n"

# vscf_integrals rotates dipoles correctly only for 3 modes on the fixture release (it reads the
# number of modes off the x/y/z axis), so the vscf plants are checked on examples drawn by the law
# and the "holds" tests use laws and subjects unaffected by that.
PLANTS = {
    # one-mode integrals rotated with the transpose of each mode's rotation
    "pennylane.qchem.vibrational-vscf-decoupled": (
        "vscf_integrals",
        VIB + "_one = vscf._rotate_one_body\n"
              "vscf._rotate_one_body = lambda h1, nmodes, rots, modals: _one(h1, nmodes, [r.T for r in rots], modals)\n"),
    # shapes: the Hamiltonian output keeps the input's modal count instead of max(modals)
    "pennylane.qchem.vibrational-vscf-shapes": (
        "vscf_integrals",
        VIB + "_rot = vscf._rotate_hamiltonian\n"
              "vscf._rotate_hamiltonian = lambda h, rots, modals: _rot(h, rots, [np.shape(h[0])[1]] * len(modals))\n"),
    # two-mode Hamiltonian integrals scaled: not an orthogonal change of basis
    "pennylane.qchem.vibrational-vscf-basis-change": (
        "vscf_integrals",
        VIB + "_two = vscf._rotate_two_body\n"
              "vscf._rotate_two_body = lambda h2, nmodes, rots, modals: 1.5 * _two(h2, nmodes, rots, modals)\n"),
    # one-mode terms of the Christiansen operator written as b+(l) b(k) with coefficient C[k, l] + C[l, k]/2
    "pennylane.qchem.vibrational-bosonic-hermitian": (
        "christiansen_bosonic",
        "import numpy as np\nimport pennylane as qml\nimport pennylane.qchem.vibrational.christiansen_ham as ch\n"
        "_cb = ch.christiansen_bosonic\n"
        "def _wrong(one, two=None, three=None, ordered=True):\n"
        "    one = np.array(one, copy=True)\n"
        "    n = one.shape[1]\n"
        "    one = one + np.triu(np.ones((n, n)), 1)[None] * 0.01\n"
        "    return _cb(one, two, three, ordered)\n"
        "qml.qchem.christiansen_bosonic = _wrong\n"),
    # taylor_bosonic normalizes the caller's coefficients in place
    "pennylane.qchem.vibrational-no-mutation": (
        "taylor_bosonic",
        "import numpy as np\nimport pennylane as qml\n"
        "_tb = qml.qchem.taylor_bosonic\n"
        "def _wrong(coeffs, freqs, is_local=True, uloc=None):\n"
        "    freqs *= 1.0 + 1e-9\n"
        "    return _tb(coeffs, freqs, is_local=is_local, uloc=uloc)\n"
        "qml.qchem.taylor_bosonic = _wrong\n"),
    # mode 0 of the one-mode integrals scaled: the operator then depends on which mode is labelled 0
    "pennylane.qchem.vibrational-mode-relabelling": (
        "christiansen_bosonic",
        "import numpy as np\nimport pennylane as qml\n"
        "_cb = qml.qchem.christiansen_bosonic\n"
        "def _wrong(one, two=None, three=None, ordered=True):\n"
        "    one = np.array(one, copy=True)\n"
        "    one[0] = one[0] * 1.01  # mode 0 treated differently from the others\n"
        "    return _cb(one, two, three, ordered)\n"
        "qml.qchem.christiansen_bosonic = _wrong\n"),
}

HOLDS = [
    ("pennylane.qchem.vibrational-vscf-decoupled", "vscf_integrals"),
    ("pennylane.qchem.vibrational-bosonic-hermitian", "christiansen_bosonic"),
    ("pennylane.qchem.vibrational-bosonic-hermitian", "taylor_bosonic"),
    ("pennylane.qchem.vibrational-mode-relabelling", "christiansen_bosonic"),
    ("pennylane.qchem.vibrational-no-mutation", "christiansen_bosonic"),
    ("pennylane.qchem.vibrational-no-mutation", "taylor_bosonic"),
]


@pytest.mark.parametrize("contract,subject", HOLDS)
def test_law_holds_on_the_release_for_a_subject_it_is_right_for(pennylane_runtime, contract, subject):
    pennylane_runtime.assert_holds(contract=contract, subject=subject, examples=15)


@pytest.mark.parametrize("contract", sorted(PLANTS))
def test_law_catches_a_planted_wrong_implementation(pennylane_runtime, contract):
    subject, patch = PLANTS[contract]
    result = pennylane_runtime.assert_caught(contract=contract, subject=subject, patch=patch, examples=15)
    assert f"qml.qchem.{subject}(" in result["reproducer"]  # public API only
    assert "vibrational.vscf" not in result["reproducer"] and "christiansen_ham" not in result["reproducer"]


def test_vscf_dipoles_of_three_modes_are_transformed_like_the_hamiltonian(pennylane_runtime):
    """On three modes (where the release's dipole rotation indexes modes right) the components law
    holds exactly for a fixed coupled example."""
    result = pennylane_runtime(
        "import json, contract_runtime as r\n"
        "from contracts import pennylane_vibrational as v\n"
        "c = r._contracts('pennylane')['pennylane.qchem.vibrational-vscf-dipole-components']\n"
        "outcomes = []\n"
        "for example in [(5, 3, 2, 2, 0, None, None), (6, 3, 3, 3, 0, [2, 3, 1], None)]:\n"
        "    try:\n"
        "        c.check('vscf_integrals', example); outcomes.append('holds')\n"
        "    except AssertionError as exc:\n"
        "        outcomes.append(str(exc))\n"
        "print(json.dumps(outcomes))")
    assert result == ["holds", "holds"]


def test_subjects_are_the_vibrational_functions_the_release_exports(pennylane_runtime):
    result = pennylane_runtime(
        "import json, contract_runtime as r\n"
        "print(json.dumps({c: r.subjects('pennylane', c)['subjects'] for c in ["
        "'pennylane.qchem.vibrational-no-mutation', 'pennylane.qchem.vibrational-bosonic-hermitian',"
        "'pennylane.qchem.vibrational-mode-relabelling', 'pennylane.qchem.vibrational-vscf-shapes']}))")
    assert result["pennylane.qchem.vibrational-no-mutation"] == ["vscf_integrals", "christiansen_bosonic",
                                                                 "taylor_bosonic"]
    assert result["pennylane.qchem.vibrational-bosonic-hermitian"] == ["christiansen_bosonic", "taylor_bosonic"]
    assert result["pennylane.qchem.vibrational-mode-relabelling"] == ["vscf_integrals", "christiansen_bosonic"]
    assert result["pennylane.qchem.vibrational-vscf-shapes"] == ["vscf_integrals"]
