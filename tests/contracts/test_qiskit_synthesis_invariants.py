"""The qiskit.synthesis decomposition-invariant laws hold on the real release (qiskit 2.4.1) for the
subjects they are right for, catch planted wrong implementations (the library patched inside the test
process) with reproducers that fail too, report the release's own mismatch, and take their subjects
from what the live library exports."""

import pytest

WEYL_REBUILD = "qiskit.synthesis.weyl-rebuilds-input"
WEYL_INVARIANTS = "qiskit.synthesis.weyl-coordinates-are-local-invariants"
BASIS_COUNT = "qiskit.synthesis.basis-count-is-minimal"
EULER = "qiskit.synthesis.euler-angles-rebuild-input"
XX = "qiskit.synthesis.xx-decomposer-implements-input"
CONTROLLED_U_GATES = ("RXXGate", "RZZGate", "RYYGate", "RZXGate", "CPhaseGate", "CRXGate", "CRYGate", "CRZGate")

HOLDS = [(WEYL_REBUILD, "TwoQubitWeylDecomposition"), (WEYL_INVARIANTS, "TwoQubitWeylDecomposition")]
HOLDS += [(BASIS_COUNT, gate) for gate in ("CXGate", "CZGate", "CYGate", "ECRGate")]
HOLDS += [(EULER, basis) for basis in ("ZYZ", "ZXZ", "XYX", "XZX", "U3", "U321", "U", "PSX", "U1X", "RR")]
HOLDS += [(XX, "XXDecomposer"), (XX, "TwoQubitControlledUDecomposer.RZZGate"), (XX, "TwoQubitControlledUDecomposer.CRXGate")]


def _weyl_plant(body):
    """Replace qiskit.synthesis.TwoQubitWeylDecomposition by a subclass whose __init__ then runs `body`."""
    return ("import qiskit.synthesis as S\n_Orig = S.TwoQubitWeylDecomposition\n"
            "class TwoQubitWeylDecomposition(_Orig):\n"
            "    def __init__(self, *args, **kwargs):\n"
            "        super().__init__(*args, **kwargs)\n"
            f"        {body}\n"
            "S.TwoQubitWeylDecomposition = TwoQubitWeylDecomposition\n")


def _method_plant(cls, method, body):
    """Wrap qiskit.synthesis.<cls>.<method> (the original is `_orig`) with `body`."""
    return (f"import functools\nimport numpy as np\nimport qiskit.synthesis as S\n_orig = S.{cls}.{method}\n"
            f"@functools.wraps(_orig)\ndef _planted(self, *args, **kwargs):\n    {body}\n"
            f"S.{cls}.{method} = _planted\n")


# (law, subject, patch): each breaks one documented promise.
PLANTS = {
    # the chamber's c coordinate with the wrong sign: another gate (a mirror image) for a < pi/4
    "weyl-c-sign": (WEYL_INVARIANTS, "TwoQubitWeylDecomposition", _weyl_plant("self.c = -self.c")),
    # a global phase off by a quarter turn
    "weyl-phase": (WEYL_REBUILD, "TwoQubitWeylDecomposition", _weyl_plant("self.global_phase += 1.5707963")),
    # the local factors of the two qubits exchanged
    "weyl-factors": (WEYL_REBUILD, "TwoQubitWeylDecomposition",
                     _weyl_plant("self.K1l, self.K1r = self.K1r, self.K1l")),
    # a decomposer that always reports (and uses) the generic three CNOTs
    "basis-count-always-3": (BASIS_COUNT, "CXGate", _method_plant("TwoQubitBasisDecomposer", "num_basis_gates",
                                                                  "return 3")),
    # Euler angles phi and lambda exchanged
    "euler-swapped": (EULER, "ZYZ", _method_plant("OneQubitEulerDecomposer", "angles_and_phase",
                                                  "t, p, l, g = _orig(self, *args, **kwargs)\n    return t, l, p, g")),
    # the unsimplified circuit without its global phase
    "euler-unsimplified-phase": (EULER, "U3", _method_plant(
        "OneQubitEulerDecomposer", "__call__",
        "circuit = _orig(self, *args, **kwargs)\n"
        "    if kwargs.get('simplify', True) is False:\n"
        "        circuit.global_phase = 0\n"
        "    return circuit")),
    # the Weyl circuit of an RXX-equivalent basis without its global phase
    "controlled-u-phase": (XX, "TwoQubitControlledUDecomposer.CPhaseGate", _method_plant(
        "TwoQubitControlledUDecomposer", "__call__",
        "circuit = _orig(self, *args, **kwargs)\n"
        "    circuit.global_phase = 0\n"
        "    return circuit")),
    # an sx . sxdg pair (the identity) in a ZYZ circuit: gates outside the basis (rz, ry)
    "euler-foreign-gate": (EULER, "ZYZ", _method_plant(
        "OneQubitEulerDecomposer", "__call__",
        "circuit = _orig(self, *args, **kwargs)\n"
        "    circuit.sx(0)\n"
        "    circuit.sxdg(0)\n"
        "    return circuit")),
}

# Mismatches of qiskit 2.4.1 the law reports (each reproducer re-run by hand; the same on 1.0.2 and
# 2.6.0): for ZSX / ZSXX, angles_and_phase returns the phase of the PSX form (U1 gates), so
# e^{i gamma} Rz(phi+pi) sqrt(X) Rz(theta+pi) sqrt(X) Rz(lam) -- the class docstring's table row --
# is the input only up to a global phase (the circuits themselves are right).
RELEASE_FINDINGS = [(EULER, "ZSX"), (EULER, "ZSXX")]


@pytest.mark.parametrize(("law", "subject"), HOLDS)
def test_law_holds_on_the_release(qiskit_runtime, law, subject):
    qiskit_runtime.assert_holds(contract=law, subject=subject, examples=25)


@pytest.mark.parametrize("plant", sorted(PLANTS))
def test_law_catches_a_planted_wrong_implementation(qiskit_runtime, plant):
    law, subject, patch = PLANTS[plant]
    result = qiskit_runtime.assert_caught(contract=law, subject=subject, patch=patch, examples=40)
    assert "from qiskit.synthesis import" in result["reproducer"]


@pytest.mark.parametrize(("law", "subject"), RELEASE_FINDINGS)
def test_law_reports_the_release_phase_mismatch(qiskit_runtime, law, subject):
    result = qiskit_runtime.assert_caught(contract=law, subject=subject, patch="", examples=25)
    assert "angles_and_phase" in result["message"]


SUBJECTS = """
import json, contract_runtime as r
print(json.dumps({law: r.subjects("qiskit", law)["subjects"] for law in %r}))
"""


def test_subjects_are_what_the_release_exports(qiskit_runtime):
    found = qiskit_runtime(SUBJECTS % [WEYL_REBUILD, WEYL_INVARIANTS, BASIS_COUNT, EULER, XX])
    assert found[WEYL_REBUILD] == found[WEYL_INVARIANTS] == ["TwoQubitWeylDecomposition"]
    assert set(found[BASIS_COUNT]) == {"CXGate", "CZGate", "CYGate", "ECRGate"}
    # every basis of OneQubitEulerDecomposer's documented table
    assert set(found[EULER]) == {s for law, s in HOLDS + RELEASE_FINDINGS if law == EULER}
    # XXDecomposer and one subject per RXX-equivalent gate TwoQubitControlledUDecomposer documents
    assert set(found[XX]) == {"XXDecomposer"} | {f"TwoQubitControlledUDecomposer.{g}" for g in CONTROLLED_U_GATES}


NO_SUBJECTS = """
import json, contract_runtime as r
import qiskit.synthesis as S
del S.TwoQubitWeylDecomposition
print(json.dumps(r.subjects("qiskit", %r)))
"""


def test_a_release_without_the_class_has_no_subjects(qiskit_runtime):
    assert qiskit_runtime(NO_SUBJECTS % WEYL_REBUILD)["subjects"] == []
