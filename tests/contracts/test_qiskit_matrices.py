"""The matrix-specified law holds on the real release where it is right, catches planted
wrong implementations (the library patched inside the test process), and its subjects are
the matrix-specified classes the release exports."""

import pytest

LAW = "qiskit.operation.matrix-specified-is-exact"


@pytest.mark.parametrize("subject", ["UnitaryGate", "DiagonalGate", "UCRYGate", "PermutationGate",
                                     "LinearFunction", "Isometry"])
def test_law_holds_on_the_release_for_instructions_it_is_right_for(qiskit_runtime, subject):
    result = qiskit_runtime.assert_holds(contract=LAW, subject=subject, examples=15)
    assert result["examples"] >= 5  # PermutationGate on 1-3 qubits has only 9 inputs
    assert result["api"] == f"qiskit.circuit.library.{subject}"


# Each plant breaks one view of one class the way a silent bug would.
PLANTS = {
    # the matrix itself: exp(+itH) instead of exp(-itH)
    "HamiltonianGate": (
        "import numpy as np\nfrom qiskit.circuit.library import HamiltonianGate\n"
        "def wrong(self, dtype=None, copy=None):\n"
        "    h, t = np.asarray(self.params[0]), float(self.params[1])\n"
        "    w, v = np.linalg.eigh(h)\n"
        "    return (v * np.exp(1j * t * w)) @ v.conj().T\n"
        "HamiltonianGate.__array__ = wrong\n"
        "HamiltonianGate.to_matrix = lambda self: wrong(self)\n"),
    # the decomposition: a global phase lost
    "DiagonalGate": (
        "from qiskit.circuit.library import DiagonalGate\n"
        "original = DiagonalGate._define\n"
        "def wrong(self):\n"
        "    original(self)\n"
        "    self._definition.global_phase = 0.25\n"
        "DiagonalGate._define = wrong\n"),
    # the decomposition of an isometry: a phase on the ancilla-|0> block only
    "Isometry": (
        "from qiskit.circuit.library import Isometry\n"
        "original = Isometry._define\n"
        "def wrong(self):\n"
        "    original(self)\n"
        "    self._definition.z(self._definition.num_qubits - 1)\n"
        "    self._definition.x(self._definition.num_qubits - 1)\n"
        "    self._definition.z(self._definition.num_qubits - 1)\n"
        "    self._definition.x(self._definition.num_qubits - 1)\n"
        "Isometry._define = wrong\n"),
}


@pytest.mark.parametrize("subject", sorted(PLANTS))
def test_law_catches_a_planted_wrong_implementation(qiskit_runtime, subject):
    result = qiskit_runtime.assert_caught(contract=LAW, subject=subject, patch=PLANTS[subject], examples=25)
    assert f"from qiskit.circuit.library import {subject}" in result["reproducer"]  # public API only


def test_reproducers_of_passing_inputs_pass(qiskit_runtime):
    """A reproducer asserts the law only: on inputs where the law held it must not fail."""
    code = ("import json, warnings\nwarnings.filterwarnings('ignore')\nimport contract_runtime as r\n"
            "from qiskit.circuit.library import HamiltonianGate as HG\n"
            "saved = (HG.__array__, HG.to_matrix)\n"
            + PLANTS["HamiltonianGate"] +
            f"res = r.check('qiskit', {LAW!r}, 'HamiltonianGate', 25, 0)\n"
            "HG.__array__, HG.to_matrix = saved  # the real library again\n"
            "ok = []\n"
            "for code in res.get('passing_reproducers', []) + [res['reproducer']]:\n"
            "    try:\n"
            "        exec(code, {'__name__': '__main__'})\n"
            "        ok.append(True)\n"
            "    except AssertionError as exc:\n"
            "        ok.append(str(exc))\n"
            "print(json.dumps({'outcome': res['outcome'], 'ok': ok}))\n")
    result = qiskit_runtime(code)
    assert result["outcome"] == "violated"
    assert result["ok"] and all(v is True for v in result["ok"]), result


def test_subjects_are_the_matrix_specified_classes_the_library_exports(qiskit_runtime):
    result = qiskit_runtime("import json, contract_runtime as r\n"
                            f"print(json.dumps(r.subjects('qiskit', {LAW!r})))")
    subjects = set(result["subjects"])
    assert {"UnitaryGate", "Isometry", "StatePreparation", "Initialize", "DiagonalGate", "UCGate",
            "UCRXGate", "UCRYGate", "UCRZGate", "HamiltonianGate", "PermutationGate", "LinearFunction",
            "PauliGate", "GraphStateGate"} <= subjects
    assert not {"HGate", "RZGate", "CXGate", "QFT"} & subjects  # not matrix-specified
    assert all(api == f"qiskit.circuit.library.{name}" for name, api in result["apis"].items())
