"""The circuit-library-function laws hold on the real release where it is right, catch a
planted wrong implementation (the library patched inside the test process), and enumerate
the names the release exports."""

import json

import pytest

ARITHMETIC = "qiskit.library.arithmetic-computes-function"
FOURIER = "qiskit.library.qft-is-dft"
BOOLEAN = "qiskit.library.boolean-truth-table"
PERMUTATION = "qiskit.library.permutation-maps-basis"
GRAPH = "qiskit.library.graph-state-stabilised"

HOLDS = [
    (ARITHMETIC, "CDKMRippleCarryAdder"),
    (ARITHMETIC, "DraperQFTAdder"),
    (ARITHMETIC, "adder_ripple_c04"),
    (ARITHMETIC, "IntegerComparator"),
    (ARITHMETIC, "WeightedAdder"),
    (ARITHMETIC, "RGQFTMultiplier"),
    (FOURIER, "QFTGate"),
    (FOURIER, "synth_qft_full"),
    (FOURIER, "QFT"),
    (BOOLEAN, "AndGate"),
    (BOOLEAN, "OR"),
    (BOOLEAN, "BitwiseXorGate"),
    (BOOLEAN, "InnerProductGate"),
    (PERMUTATION, "PermutationGate"),
    (PERMUTATION, "LinearFunction"),
    (PERMUTATION, "synth_permutation_acg"),
    (GRAPH, "GraphState"),
    (GRAPH, "GraphStateGate"),
]


@pytest.mark.parametrize("contract, subject", HOLDS)
def test_law_holds_on_the_release(qiskit_runtime, contract, subject):
    qiskit_runtime.assert_holds(contract=contract, subject=subject, examples=15)


# Each plant is a plausible wrong implementation of one documented function.
PLANTS = {
    # a half adder that loses its carry-out (computes the fixed-size sum only)
    "lost carry": (ARITHMETIC, "adder_ripple_c04", (
        "import qiskit.synthesis as S\n"
        "from qiskit.circuit import QuantumCircuit\n"
        "_orig = S.adder_ripple_c04\n"
        "def _bad(num_state_qubits, kind='half'):\n"
        "    circuit = _orig(num_state_qubits, kind=kind)\n"
        "    if kind != 'half':\n"
        "        return circuit\n"
        "    n = num_state_qubits\n"
        "    out = QuantumCircuit(*circuit.qregs)\n"
        "    out.compose(_orig(n, kind='fixed'), qubits=list(range(2 * n)) + [2 * n + 1], inplace=True)\n"
        "    return out\n"
        "S.adder_ripple_c04 = _bad\n")),
    # a comparator whose threshold is off by one
    "off-by-one comparator": (ARITHMETIC, "IntegerComparator", (
        "import qiskit.circuit.library as L\n"
        "_orig = L.IntegerComparator\n"
        "L.IntegerComparator = lambda num_state_qubits, value, geq=True: "
        "_orig(num_state_qubits, value + 1, geq=geq)\n")),
    # the QFT with the opposite sign convention
    "QFT sign": (FOURIER, "synth_qft_full", (
        "import qiskit.synthesis as S\n"
        "_orig = S.synth_qft_full\n"
        "S.synth_qft_full = lambda num_qubits, do_swaps=True, approximation_degree=0, insert_barriers=False, "
        "inverse=False, name=None: _orig(num_qubits, do_swaps=do_swaps, approximation_degree=approximation_degree, "
        "insert_barriers=insert_barriers, inverse=not inverse)\n")),
    # OR computed as AND
    "OR is AND": (BOOLEAN, "OrGate", (
        "import qiskit.circuit.library as L\n"
        "L.OrGate = lambda num_variable_qubits, flags=None: L.AndGate(num_variable_qubits, flags)\n")),
    # the permutation pattern read the other way round
    "inverse pattern": (PERMUTATION, "PermutationGate", (
        "import numpy as np\nimport qiskit.circuit.library as L\n"
        "_orig = L.PermutationGate\n"
        "L.PermutationGate = lambda pattern: _orig([int(k) for k in np.argsort(pattern)])\n")),
    # a stray Z on qubit 0: the state is stabilised by -K_0, not K_0
    "stray Z": (GRAPH, "GraphState", (
        "import qiskit.circuit.library as L\n"
        "_orig = L.GraphState\n"
        "def _bad(adjacency_matrix):\n"
        "    circuit = _orig(adjacency_matrix)\n"
        "    circuit.z(0)\n"
        "    return circuit\n"
        "L.GraphState = _bad\n")),
}


@pytest.mark.parametrize("plant", sorted(PLANTS))
def test_law_catches_a_planted_wrong_implementation(qiskit_runtime, plant):
    contract, subject, patch = PLANTS[plant]
    # the plant breaks nothing before it is planted
    qiskit_runtime.assert_holds(contract=contract, subject=subject, examples=10)
    result = qiskit_runtime.assert_caught(contract=contract, subject=subject, patch=patch, examples=25)
    module = "qiskit.synthesis" if subject.islower() or subject.startswith("synth_") else "qiskit.circuit.library"
    assert f"from {module} import {subject}" in result["reproducer"]  # public API only


def test_vbe_fixed_adder_violation_on_the_release_has_a_failing_reproducer(qiskit_runtime):
    # Found on the release itself (no plant): VBERippleCarryAdder(2, kind='fixed') never adds
    # into the top bit of b. The reproducer fails without any patch.
    result = qiskit_runtime.check_law(contract=ARITHMETIC, subject="VBERippleCarryAdder", examples=25)
    assert result["outcome"] == "violated", result
    assert "kind='fixed'" in result["example"], result
    assert result["reproducer_fails"], result["reproducer"]


def _subjects(runtime, contract):
    return runtime("import json, contract_runtime as r\n"
                   f"print(json.dumps(r.subjects('qiskit', {contract!r})))")


def test_subjects_are_the_names_the_release_exports(qiskit_runtime):
    arithmetic = _subjects(qiskit_runtime, ARITHMETIC)
    names = set(arithmetic["subjects"])
    assert {"CDKMRippleCarryAdder", "VBERippleCarryAdder", "DraperQFTAdder", "HalfAdderGate", "FullAdderGate",
            "ModularAdderGate", "adder_ripple_c04", "adder_qft_d00", "RGQFTMultiplier", "MultiplierGate",
            "IntegerComparator", "IntegerComparatorGate", "WeightedAdder", "synth_weighted_sum_carry"} <= names
    # WeightedSumGate has no definition on this release (synthesis plugins only): nothing to simulate
    assert "WeightedSumGate" not in names
    assert arithmetic["apis"]["adder_ripple_c04"] == "qiskit.synthesis.adder_ripple_c04"
    assert arithmetic["apis"]["CDKMRippleCarryAdder"] == "qiskit.circuit.library.CDKMRippleCarryAdder"
    assert set(_subjects(qiskit_runtime, FOURIER)["subjects"]) == {"QFT", "QFTGate", "synth_qft_full", "synth_qft_line"}
    assert set(_subjects(qiskit_runtime, BOOLEAN)["subjects"]) == {
        "AND", "AndGate", "OR", "OrGate", "XOR", "BitwiseXorGate", "InnerProduct", "InnerProductGate"}
    assert "LinearFunction" in _subjects(qiskit_runtime, PERMUTATION)["subjects"]


def test_reference_functions_follow_the_documented_conventions():
    """The law's own references, on small cases worked by hand (no library needed)."""
    import math
    import sys
    from pathlib import Path

    import numpy as np

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "sandbox"))
    from contracts import qiskit_library_functions as law

    assert np.allclose(law.dft_matrix(1), np.array([[1, 1], [1, -1]]) / math.sqrt(2))
    f = law.dft_matrix(2)
    assert np.isclose(f[1, 1], 1j / 2)  # e^{2 pi i / 4} / 2
    assert np.isclose(law.dft_matrix(2, do_swaps=False)[2, 1], 1j / 2)  # output 1 = 0b01 reversed is 2
    # pattern [2, 0, 1]: qubit 2 goes to position 0; |q2 q1 q0> = |100> -> |001>
    assert law._permutation_image("PermutationGate", (3, (2, 0, 1)), 0b100) == 0b001
    # CX(0 -> 1) is the matrix [[1, 0], [1, 1]]: |01> -> |11>
    assert law._permutation_image("LinearFunction", (2, (0, 1), [(1, 0)]), 0b01) == 0b11
    # |+> on one vertex is stabilised by X
    plus = np.array([1, 1]) / math.sqrt(2)
    assert np.allclose(law.stabiliser_image(plus, 0, [[0]]), plus)
    assert json.dumps(law._index([(3, 2), (1, 1)])) == "7"
