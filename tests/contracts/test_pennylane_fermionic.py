"""The PennyLane fermionic laws hold on the real release for every mapping and operator API it exports,
catch planted wrong implementations (the library patched inside the test process) with reproducers that
fail too, and their subjects are the mappings and fermionic operator APIs the live library exports."""

import pytest

ENCODING = "pennylane.fermi.mapping-matches-documented-encoding"
HOMOMORPHISM = "pennylane.fermi.mapping-is-algebra-homomorphism"
CAR = "pennylane.fermi.ladder-images-satisfy-car"
OPTIONS = "pennylane.fermi.mapping-options-agree"
ALGEBRA = "pennylane.fermi.operator-algebra-matches-numpy"
LAWS = [ENCODING, HOMOMORPHISM, CAR, OPTIONS, ALGEBRA]

# Every subject of a law, checked in one process (one import of pennylane per law).
ALL_SUBJECTS = """
import json, warnings
warnings.filterwarnings("ignore")
import contract_runtime as r
out = {}
for subject in r.subjects("pennylane", %r)["subjects"]:
    result = r.check("pennylane", %r, subject, %d, 0)
    out[subject] = [result["outcome"], result["examples"], result.get("message")]
print(json.dumps(out))
"""


@pytest.mark.parametrize("law", LAWS)
def test_law_holds_on_the_release_for_every_subject(pennylane_runtime, law):
    results = pennylane_runtime(ALL_SUBJECTS % (law, law, 12))
    assert results, law
    for subject, (outcome, examples, message) in results.items():
        assert outcome == "holds" and examples >= 1, (subject, outcome, message)


IMPORTS = "import pennylane as qml\n"


def _wrap_mapping(name, body):
    """Patch source replacing qml.fermi.<name> (and the qml.<name> alias) by `body`, a function of the
    original `_orig`, keeping the signature so that subject discovery and the calls still work."""
    return (IMPORTS + f"import functools\n_orig = qml.fermi.{name}\n"
            f"@functools.wraps(_orig)\ndef {name}(*args, **kwargs):\n    {body}\n"
            f"qml.fermi.{name} = {name}\nqml.{name} = {name}\n")


# Each plant breaks one documented promise.
PLANTS = {
    # Jordan-Wigner images transposed (Y -> -Y: a_p and a_p^dagger exchange their imaginary parts)
    (ENCODING, "jordan_wigner"): _wrap_mapping(
        "jordan_wigner",
        "kwargs['ps'] = True\n"
        "    out = _orig(*args, **kwargs)\n"
        "    return qml.pauli.PauliSentence({w: c * (-1) ** list(w.values()).count('Y') for w, c in out.items()})"),
    # the same transpose breaks map(a b) = map(a) map(b): (AB)^T = B^T A^T
    (HOMOMORPHISM, "jordan_wigner"): _wrap_mapping(
        "jordan_wigner",
        "kwargs['ps'] = True\n"
        "    out = _orig(*args, **kwargs)\n"
        "    return qml.pauli.PauliSentence({w: c * (-1) ** list(w.values()).count('Y') for w, c in out.items()})"),
    # imaginary parts of the Bravyi-Kitaev coefficients dropped (a huge tol)
    (ENCODING, "bravyi_kitaev"): _wrap_mapping(
        "bravyi_kitaev", "kwargs['tol'] = 10.0\n    return _orig(*args, **kwargs)"),
    # parity images built for too few qubits (n taken as the highest mode of the operator + 1):
    # the X strings of the update set are cut and a_p no longer anticommutes with a_q
    (CAR, "parity_transform"): _wrap_mapping(
        "parity_transform",
        "op = args[0]\n"
        "    modes = [o for (_, o) in op.keys()] if isinstance(op, qml.fermi.FermiWord) else "
        "[o for w in op for (_, o) in w.keys()]\n"
        "    kwargs.pop('n', None)\n"
        "    return _orig(op, max(modes) + 1, *args[2:], **kwargs)"),
    # wire_map ignored
    (OPTIONS, "parity_transform"): _wrap_mapping(
        "parity_transform", "kwargs.pop('wire_map', None)\n    return _orig(*args, **kwargs)"),
    # a FermiSentence product taken in the reverse order (b a instead of a b)
    (ALGEBRA, "FermiSentence.__mul__"): (
        IMPORTS + "_orig = qml.fermi.FermiSentence.__mul__\n"
        "def _mul(self, other):\n"
        "    if isinstance(other, qml.fermi.FermiSentence):\n"
        "        return _orig(other, self)\n"
        "    return _orig(self, other)\n"
        "qml.fermi.FermiSentence.__mul__ = _mul\n"),
    # the adjoint of a word with its signs flipped but its order kept
    (ALGEBRA, "FermiWord.adjoint"): (
        IMPORTS + "def _adjoint(self):\n"
        "    return qml.fermi.FermiWord({k: '-' if v == '+' else '+' for k, v in self.items()})\n"
        "qml.fermi.FermiWord.adjoint = _adjoint\n"),
    # to_mat on little-endian wires (mode 0 the least significant bit)
    (ALGEBRA, "FermiSentence.to_mat"): (
        IMPORTS + "import numpy as np\n_orig = qml.fermi.FermiSentence.to_mat\n"
        "def _to_mat(self, n_orbitals=None, **kwargs):\n"
        "    m = np.asarray(_orig(self, n_orbitals, **kwargs))\n"
        "    n = int(np.log2(m.shape[0]))\n"
        "    t = m.reshape([2] * (2 * n)).transpose(list(range(n))[::-1] + list(range(n, 2 * n))[::-1])\n"
        "    return t.reshape(2 ** n, 2 ** n)\n"
        "qml.fermi.FermiSentence.to_mat = _to_mat\n"),
}


@pytest.mark.parametrize(("law", "subject"), sorted(PLANTS))
def test_law_catches_a_planted_wrong_implementation(pennylane_runtime, law, subject):
    result = pennylane_runtime.assert_caught(contract=law, subject=subject, patch=PLANTS[(law, subject)], examples=40)
    reproducer = result["reproducer"]
    assert "pennylane_fermionic" not in reproducer and "contract" not in reproducer  # public API only


SUBJECTS = """
import json, contract_runtime as r
print(json.dumps({law: r.subjects("pennylane", law)["subjects"] for law in %r}))
"""


def test_subjects_are_what_the_library_exports(pennylane_runtime):
    found = pennylane_runtime(SUBJECTS % LAWS)
    mappings = {"jordan_wigner", "parity_transform", "bravyi_kitaev"}
    observable = {"qubit_observable:jordan_wigner", "qubit_observable:parity", "qubit_observable:bravyi_kitaev"}
    assert set(found[ENCODING]) == set(found[HOMOMORPHISM]) == mappings | observable
    # ladder operators alone are not observables: qubit_observable is no subject of these
    assert set(found[CAR]) == set(found[OPTIONS]) == mappings
    assert {"FermiC", "FermiA", "from_string", "FermiWord.__mul__", "FermiSentence.__add__", "FermiWord.adjoint",
            "FermiSentence.adjoint", "FermiWord.to_mat", "FermiSentence.to_mat"} <= set(found[ALGEBRA])
