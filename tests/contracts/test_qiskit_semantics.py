"""The semantic-query, parameter, structure and robustness laws hold on the real release where
it is right, and catch a planted wrong implementation (the library patched inside the test
process): each law can fail, and its reproducer fails with it."""

import pytest


# contract -> (subject the law is right for on qiskit 2.4.1, plant breaking what the law is about)
PLANTS = {
    "qiskit.query.commutation-checker": (
        "h", "from qiskit.circuit import CommutationChecker\n"
             "CommutationChecker.commute = lambda self, *args, **kwargs: True"),
    "qiskit.query.commutation-checker-complete": (
        "cx", "from qiskit.circuit import CommutationChecker\n"
              "CommutationChecker.commute = lambda self, *args, **kwargs: False"),
    "qiskit.query.commutation-checker-symbolic": (
        "cu3", "from qiskit.circuit import CommutationChecker\n"
              "CommutationChecker.commute = lambda self, *args, **kwargs: True"),
    "qiskit.query.pauli-commutation": (
        "Pauli.commutes", "from qiskit.quantum_info import Pauli\n"
                          "Pauli.commutes = lambda self, other, qargs=None: True"),
    "qiskit.query.equality-matches-data": (
        "Operator.equiv", "from qiskit.quantum_info import Operator\n"
                          "Operator.equiv = lambda self, other, rtol=None, atol=None: bool((abs(self.data - other.data) < 1e-8).all())"),
    "qiskit.query.structural-equality-matches-operator": (
        "Clifford.__eq__", "from qiskit.quantum_info import Clifford\n"
                           "Clifford.__eq__ = lambda self, other: True"),
    "qiskit.query.property-predicates": (
        "Operator.is_unitary", "from qiskit.quantum_info import Operator\n"
                               "Operator.is_unitary = lambda self, atol=None, rtol=None: True"),
    "qiskit.param.assign-equals-direct": (
        "rz", "from qiskit import QuantumCircuit\n"
              "original = QuantumCircuit.assign_parameters\n"
              "def assign(self, parameters, *args, **kwargs):\n"
              "    if isinstance(parameters, dict):\n"
              "        parameters = {k: (-v if isinstance(v, float) else v) for k, v in parameters.items()}\n"
              "    else:\n"
              "        parameters = [-v for v in parameters]\n"
              "    return original(self, parameters, *args, **kwargs)\n"
              "QuantumCircuit.assign_parameters = assign"),
    "qiskit.param.expression-value": (
        "sin", "from qiskit.circuit import ParameterExpression\n"
               "ParameterExpression.sin = lambda self: self.cos()"),
    "qiskit.param.gradient-finite-difference": (
        "cos", "from qiskit.circuit import ParameterExpression\n"
               "original = ParameterExpression.gradient\n"
               "ParameterExpression.gradient = lambda self, p: -original(self, p)"),
    "qiskit.param.simplification-preserves-value": (
        "SparsePauliOp.simplify", "from qiskit.quantum_info import SparsePauliOp\n"
                                  "original = SparsePauliOp.simplify\n"
                                  "SparsePauliOp.simplify = lambda self, *a, **k: original(self, *a, **k) * 2"),
    "qiskit.structure.metrics-count-instructions": (
        "QuantumCircuit.depth", "from qiskit import QuantumCircuit\n"
                                "original = QuantumCircuit.depth\n"
                                "QuantumCircuit.depth = lambda self, *a, **k: original(self, *a, **k) + (len(self.data) > 2)"),
    "qiskit.structure.dag-order-respects-dependencies": (
        "DAGCircuit.topological_op_nodes", "from qiskit.dagcircuit import DAGCircuit\n"
                                           "original = DAGCircuit.topological_op_nodes\n"
                                           "DAGCircuit.topological_op_nodes = lambda self, key=None, reverse=False: "
                                           "iter(sorted(original(self), key=lambda n: n.name))"),
    "qiskit.structure.dag-order-respects-keys": (
        "DAGCircuit.topological_op_nodes(key)", "from qiskit.dagcircuit import DAGCircuit\n"
                                                "original = DAGCircuit.topological_op_nodes\n"
                                                "DAGCircuit.topological_op_nodes = lambda self, key=None, reverse=False: "
                                                "original(self, reverse=reverse)"),
    "qiskit.robust.no-argument-mutation": (
        "QuantumCircuit.inverse", "from qiskit import QuantumCircuit\n"
                                  "original = QuantumCircuit.inverse\n"
                                  "def inverse(self, annotated=False):\n"
                                  "    self.global_phase = 0.125\n"
                                  "    return original(self, annotated)\n"
                                  "QuantumCircuit.inverse = inverse"),
}


@pytest.mark.parametrize("contract", sorted(PLANTS))
def test_law_holds_on_the_release_for_a_subject_it_is_right_for(qiskit_runtime, contract):
    subject, _ = PLANTS[contract]
    qiskit_runtime.assert_holds(contract=contract, subject=subject, examples=15)


@pytest.mark.parametrize("contract", sorted(PLANTS))
def test_law_catches_a_planted_wrong_implementation(qiskit_runtime, contract):
    subject, patch = PLANTS[contract]
    result = qiskit_runtime.assert_caught(contract=contract, subject=subject, patch=patch, examples=40)
    assert "from qiskit" in result["reproducer"]  # public API only


def test_stinespring_tolerance_finding_is_reproduced_on_the_release(qiskit_runtime):
    """A violation the release shows: the law, not a plant, fails there (kept as a finding)."""
    result = qiskit_runtime.check_law(patch="", contract="qiskit.query.property-predicates",
                                         subject="Stinespring.is_cptp", examples=40)
    assert result["outcome"] == "violated", result
    assert result["reproducer_fails"], result["reproducer"]


def test_each_commutation_law_judges_only_its_own_direction(qiskit_runtime):
    """The soundness law never files a missed commutation, the completeness law never a wrong
    True: each plant is caught by one and passes the other."""
    always_false = PLANTS["qiskit.query.commutation-checker-complete"][1]
    always_true = PLANTS["qiskit.query.commutation-checker"][1]
    qiskit_runtime.assert_holds(contract="qiskit.query.commutation-checker", subject="cx", patch=always_false,
                                examples=30)
    qiskit_runtime.assert_holds(contract="qiskit.query.commutation-checker-complete", subject="cx",
                                patch=always_true, examples=30)


def test_subjects_are_enumerated_from_the_live_library(qiskit_runtime):
    code = ("import json, contract_runtime as r\n"
            "print(json.dumps({c: r.subjects('qiskit', c)['subjects'] for c in "
            "['qiskit.query.commutation-checker', 'qiskit.query.pauli-commutation', "
            "'qiskit.query.property-predicates', 'qiskit.param.expression-value']}))")
    result = qiskit_runtime(code)
    assert {"h", "cx", "rzz", "xx_plus_yy", "ccx"} <= set(result["qiskit.query.commutation-checker"])
    assert {"Pauli.commutes", "PauliList.group_commuting", "SparseObservable.commutes"} <= set(
        result["qiskit.query.pauli-commutation"])
    assert {"Choi.is_cptp", "Kraus.is_tp", "Operator.is_unitary"} <= set(result["qiskit.query.property-predicates"])
    assert {"sin", "__pow__", "__rtruediv__"} <= set(result["qiskit.param.expression-value"])


@pytest.mark.parametrize("budget, cut", [(0.0, True), (600.0, False)])
def test_shrinking_stops_at_its_budget_and_still_reports_a_failing_input(qiskit_runtime, budget, cut):
    # The planted depth bug fails on every circuit of more than two instructions: hypothesis
    # would shrink toward three; with no budget it keeps the first failure it found.
    subject, patch = PLANTS["qiskit.structure.metrics-count-instructions"]
    result = qiskit_runtime.assert_caught(contract="qiskit.structure.metrics-count-instructions", subject=subject,
                                          patch=f"{patch}\nr.SHRINK_BUDGET_S = {budget}", examples=40)
    assert result["shrink_cut"] is cut


def test_a_spent_shrink_budget_ends_the_search_instead_of_drawing_more_candidates(qiskit_runtime):
    # Counting as passing every candidate drawn after the budget still let hypothesis go on
    # shrinking (minutes of its own work over a large input, and every candidate that repeated
    # a failing input ran the law again). Once the budget is spent, nothing more is drawn:
    # every input drawn is one the law checked, up to the one candidate that meets the cut.
    subject, patch = PLANTS["qiskit.structure.metrics-count-instructions"]
    result = qiskit_runtime(
        "import json, contract_runtime as r\n"
        f"{patch}\n"
        "r.SHRINK_BUDGET_S = 0.0\n"
        "r.MORE_FAILURE_SEARCHES = 0\n"
        "law = r._contracts('qiskit')['qiskit.structure.metrics-count-instructions']\n"
        "drawn, strategy_of = [], law.strategy\n"
        "law.strategy = lambda s: strategy_of(s).map(lambda e: drawn.append(e) or e)\n"
        f"result = r.check('qiskit', law.id, {subject!r}, 40, 0)\n"
        "print(json.dumps({'outcome': result['outcome'], 'checked': result['examples'], 'drawn': len(drawn),\n"
        "                  'cut': result.get('shrink_cut'), 'reproducer': result.get('reproducer', ''),\n"
        "                  'error': result.get('error') or result.get('refused')}))")
    assert result["outcome"] == "violated" and result["cut"], result
    assert "QuantumCircuit" in result["reproducer"]
    assert result["drawn"] <= result["checked"] + 1, result


KEYED_ORDER = "qiskit.structure.dag-order-respects-keys"


@pytest.mark.parametrize("release, subjects", [
    ("old", {"DAGCircuit.topological_nodes", "DAGCircuit.topological_nodes(key)",
             "DAGCircuit.topological_op_nodes", "DAGCircuit.topological_op_nodes(key)"}),
    ("new", {"DAGCircuit.topological_nodes", "DAGCircuit.topological_nodes(key)",
             "DAGCircuit.topological_nodes(reverse)", "DAGCircuit.topological_nodes(key, reverse)",
             "DAGCircuit.topological_op_nodes", "DAGCircuit.topological_op_nodes(key)",
             "DAGCircuit.topological_op_nodes(reverse)", "DAGCircuit.topological_op_nodes(key, reverse)"}),
])
def test_keyed_orders_hold_for_every_subject_of_an_old_and_a_new_release(request, release, subjects):
    runtime = request.getfixturevalue("old_qiskit_runtime" if release == "old" else "qiskit_runtime")
    code = ("import json, warnings\nwarnings.filterwarnings('ignore')\nimport contract_runtime as r\n"
            f"names = r.subjects('qiskit', {KEYED_ORDER!r})['subjects']\n"
            f"print(json.dumps({{s: r.check('qiskit', {KEYED_ORDER!r}, s, 15, 0)['outcome'] for s in names}}))")
    outcomes = runtime(code)
    assert set(outcomes) == subjects  # reverse= only where the release has it
    assert set(outcomes.values()) == {"holds"}, outcomes


def test_keyed_order_law_catches_an_ignored_key_on_the_old_release(old_qiskit_runtime):
    patch = ("from qiskit.dagcircuit import DAGCircuit\n"
             "original = DAGCircuit.topological_nodes\n"
             "DAGCircuit.topological_nodes = lambda self, key=None: original(self)")
    old_qiskit_runtime.assert_caught(contract=KEYED_ORDER, subject="DAGCircuit.topological_nodes(key)", patch=patch,
                                     examples=40)


def test_order_variants_need_the_arguments_they_pass(qiskit_runtime):
    # A release whose topological_op_nodes takes no reverse= (1.x) has no "(reverse)" subject:
    # checking it would only raise TypeError on every input.
    result = qiskit_runtime(
        "import json, contract_runtime as r\n"
        "from qiskit.dagcircuit import DAGCircuit\n"
        "full = r.subjects('qiskit', 'qiskit.structure.dag-order-respects-dependencies')['subjects']\n"
        "original = DAGCircuit.topological_op_nodes\n"
        "DAGCircuit.topological_op_nodes = lambda self, key=None: original(self, key=key)\n"
        "older = r.subjects('qiskit', 'qiskit.structure.dag-order-respects-dependencies')['subjects']\n"
        "print(json.dumps({'full': full, 'older': older}))")
    assert "DAGCircuit.topological_op_nodes(reverse)" in result["full"]
    assert set(result["full"]) - set(result["older"]) == {"DAGCircuit.topological_op_nodes(reverse)"}


@pytest.mark.parametrize("contract, subjects", [
    ("qiskit.query.pauli-commutation", {"Pauli.commutes", "PauliList.commutes", "SparsePauliOp.group_commuting"}),
    ("qiskit.param.simplification-preserves-value", {"SparsePauliOp.simplify", "SparsePauliOp.sort"}),
])
def test_laws_naming_newer_classes_still_check_the_older_ones_on_qiskit_1_0(old_qiskit_runtime, contract, subjects):
    # SparseObservable (1.3) and QubitSparsePauli (2.1) are missing on 1.0.2: importing them
    # made every check of the commutation law raise there, and looking one up without a
    # default dropped the whole simplification law.
    listed = old_qiskit_runtime("import json, contract_runtime as r\n"
                                f"print(json.dumps(r.subjects('qiskit', {contract!r})))")
    assert listed["reason"] is None and subjects <= set(listed["subjects"]), listed
    assert not any(s.startswith(("SparseObservable", "QubitSparsePauli")) for s in listed["subjects"])
    for subject in sorted(subjects):
        old_qiskit_runtime.assert_holds(contract, subject, examples=5)


def test_data_equal_up_to_phase_within_atol_are_never_said_to_differ(qiskit_runtime):
    # A unitary and e^{i pi/4} times it, rounded to 12 digits: 5.7e-13 apart after the best phase,
    # within atol=1e-12. The lower bound once came from |a|^2 + |b|^2 - 2|<a,b>|, whose rounding
    # error (~1e-16) has a square root of ~1e-8, and the law said "False" where Qiskit rightly
    # said True (found at 160 and 640 examples by deeper re-checks).
    found = qiskit_runtime(
        "import json\nimport numpy as np\nfrom contracts.qiskit_semantics import _distance_bounds, _tolerance_truth\n"
        "a = np.array([[0.298918+0.783101j, 0.065265+0.541425j], [0.285816-0.464446j, -0.599154+0.586185j]])\n"
        "b = np.round(a * np.exp(1j * np.pi / 4), 12)\n"
        "upper, lower = _distance_bounds(a, b, True)\n"
        "far = np.round(a * np.exp(1j * np.pi / 4) + 1e-6, 12)\n"
        "print(json.dumps({'upper': upper, 'lower': lower, 'truth': _tolerance_truth(a, b, True, 0.0, 1e-12),\n"
        "                  'far': _tolerance_truth(a, far, True, 0.0, 1e-12)}))")
    assert found["lower"] <= found["upper"] < 1e-12, found
    assert found["truth"] is not False, found
    assert found["far"] is False, found  # a real difference far outside atol is still told
