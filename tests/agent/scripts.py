"""Scripted model exchanges for the agent tests, on a real historical bug: qiskit 1.0.2's
`BasePauli._append_circuit` dispatches on the *name* of the instruction it is given, so a
QuantumCircuit whose user-chosen name is a gate name ("x") is treated as that gate
(Qiskit issue #12093, fixed in 1.1.0). The scripted model's text names it: this is a
fixture of the LLM path, not a contract."""

from __future__ import annotations

import json
from typing import Any

TARGET = "qiskit==1.0.2"
FIXED = "qiskit==1.1.0"
UNIT = "qiskit.quantum_info.operators.symplectic.base_pauli.BasePauli._append_circuit"
UNIT_SUFFIX = "BasePauli._append_circuit"
STAGE2 = f"Audit the unit `{UNIT}`"  # in the Stage II opening message
STAGE3 = "## The defect (verified in the sandbox)"  # in the Stage III opening message
REVISE2 = "The sandbox did not confirm your hypothesis."
FORMAT_ERROR = "Your last answer could not be used"

_ORACLE = '''
H = np.array([[1, 1], [1, -1]]) / np.sqrt(2)
Z = np.diag([1.0, -1.0])
expected = H @ Z @ H.conj().T  # Schrodinger frame: C P C^dagger, from exact matrices
'''

STAGE2_TEST = '''import numpy as np
from qiskit import QuantumCircuit
from qiskit.quantum_info import Pauli

qc = QuantumCircuit(1, name="x")  # a Hadamard circuit whose name happens to be a gate name
qc.h(0)
observed = Pauli("Z")._append_circuit(qc).to_matrix()
''' + _ORACLE + '''
def check(value):
    assert np.allclose(value, expected), f"got {np.round(value, 3).tolist()}, expected {np.round(expected, 3).tolist()}"

check(observed)
'''

TRIGGER_TEST = '''import numpy as np
from qiskit import QuantumCircuit
from qiskit.quantum_info import Pauli

qc = QuantumCircuit(1, name="x")  # any name is allowed; this one equals a gate name
qc.h(0)
observed = Pauli("Z").evolve(qc, frame="s").to_matrix()
''' + _ORACLE + '''
def check(value):
    assert np.allclose(value, expected), f"Pauli.evolve gave {np.round(value, 3).tolist()}, expected {np.round(expected, 3).tolist()}"

check(observed)
'''

# A false claim: a circuit with an ordinary name is handled correctly on this release.
FALSE_TEST = TRIGGER_TEST.replace('name="x"', 'name="my_clifford"')

# A check that cannot fail: every unitary passes it, the wrong ones included.
VACUOUS_TEST = TRIGGER_TEST.replace(
    '    assert np.allclose(value, expected), f"Pauli.evolve gave {np.round(value, 3).tolist()}, expected '
    '{np.round(expected, 3).tolist()}"',
    '    assert np.allclose(value @ value.conj().T, np.eye(2)), "not unitary"')
assert VACUOUS_TEST != TRIGGER_TEST


def claim(test_code: str, api: str = "qiskit.quantum_info.operators.symplectic.base_pauli.BasePauli._append_circuit",
          **extra: Any) -> dict[str, Any]:
    return {"law_id": "pauli.evolve-conjugates-by-circuit",
            "violated_constraint": "evolving a Pauli P by a Clifford circuit C in the Schrodinger frame gives C P C^dagger, "
                                   "whatever the circuit is named",
            "constraint_source": "documentation: Pauli.evolve ('Schrödinger picture evolves the Pauli as C.P.C^dagger')",
            "triggering_input": "Pauli('Z') and a one-qubit circuit named 'x' holding a single H gate",
            "predicted_behaviour": "the circuit is treated as an X gate because of its name: Z evolves to -Z instead of X",
            "api": api, "test_code": test_code, **extra}


def answer(value: dict[str, Any]) -> dict[str, Any]:
    return {"text": "```json\n" + json.dumps(value, indent=1) + "\n```"}


def defect(test_code: str, **kw: Any) -> dict[str, Any]:
    return answer({"defect": claim(test_code, **kw), "no_defect_reason": None})


def no_defect(reason: str = "no valid input violates a constraint") -> dict[str, Any]:
    return answer({"defect": None, "no_defect_reason": reason})


TRIGGER = claim(TRIGGER_TEST, api="qiskit.quantum_info.Pauli.evolve",
                input_validity="documented",
                validity_evidence="other (Pauli or Clifford or QuantumCircuit): The Clifford operator to evolve by.",
                explanation="BasePauli._append_circuit converts the circuit to an instruction and dispatches on its "
                            "name, so a circuit named like a basis gate is applied as that gate and its contents "
                            "are ignored.")


def bug_script() -> list[dict[str, Any]]:
    """Stage II with a tool call, then the hypothesis; Stage III with the trigger."""
    return [
        {"label": "stage2: look at the callers", "match": {"conversation_contains": STAGE2, "last_role": "user"},
         "response": {"text": "", "tool_calls": [{"name": "list_callers", "arguments": {"name": UNIT_SUFFIX}}]}},
        {"label": "stage2: hypothesis", "match": {"conversation_contains": STAGE2, "last_role": "tool"},
         "response": defect(STAGE2_TEST)},
        {"label": "stage3: trigger", "match": {"conversation_contains": STAGE3},
         "response": answer(TRIGGER)},
    ]
