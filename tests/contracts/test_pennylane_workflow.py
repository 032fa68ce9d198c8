"""The workflow-inspection law (queries are pure and agree with execution) holds on the real
PennyLane release where it is right, and catches planted wrong query implementations (the
library patched inside the test process): each of its four parts can fail."""

import pytest

LAW = "pennylane.workflow.queries-are-pure"

# Each plant breaks one part of the law, for one query API.
PLANTS = {
    # (a) a query whose answer depends on how often it was called before
    "construct_batch(level='device')": (
        "import pennylane as qml\n"
        "original = qml.workflow.construct_batch\n"
        "calls = []\n"
        "def leaky(qnode, level='user'):\n"
        "    def inner(*args, **kwargs):\n"
        "        batch, fn = original(qnode, level)(*args, **kwargs)\n"
        "        calls.append(1)\n"
        "        extra = [qml.Identity(w) for w in qnode.device.wires] * (len(calls) - 1)\n"
        "        return tuple(t.copy(operations=list(t.operations) + extra) for t in batch), fn\n"
        "    return inner\n"
        "qml.workflow.construct_batch = leaky"),
    # (b) a query that changes the QNode it draws: later executions apply an extra gate
    "draw": (
        "import pennylane as qml\n"
        "original = qml.draw\n"
        "def draw(qnode, *args, **kwargs):\n"
        "    func = qnode.func\n"
        "    def changed(*a, **k):\n"
        "        qml.RY(0.7, wires=qnode.device.wires[0])\n"
        "        return func(*a, **k)\n"
        "    qnode.func = changed\n"
        "    return original(qnode, *args, **kwargs)\n"
        "qml.draw = draw"),
    # (b) only: the answer stays the same, but the QNode it inspected executes differently after
    "get_best_diff_method": (
        "import pennylane as qml\n"
        "original = qml.workflow.get_best_diff_method\n"
        "def best(qnode):\n"
        "    func = qnode.func\n"
        "    def changed(*a, **k):\n"
        "        qml.RY(0.7, wires=qnode.device.wires[0])\n"
        "        return func(*a, **k)\n"
        "    qnode.func = changed\n"
        "    return original(qnode)\n"
        "qml.workflow.get_best_diff_method = best"),
    # (c) qml.matrix answers the transpose of the circuit's matrix
    "matrix": (
        "import pennylane as qml\n"
        "original = qml.matrix\n"
        "def matrix(op, wire_order=None):\n"
        "    if isinstance(op, qml.QNode):\n"
        "        return lambda *a, **k: original(op, wire_order=wire_order)(*a, **k).T\n"
        "    return original(op, wire_order=wire_order)\n"
        "qml.matrix = matrix"),
    # (d) a query that builds the batch twice (the second for nothing): the same answer, but
    # the QNode's transforms run twice
    "construct_batch(level='user')": (
        "import pennylane as qml\n"
        "original = qml.workflow.construct_batch\n"
        "def twice(qnode, level='user'):\n"
        "    def inner(*args, **kwargs):\n"
        "        original(qnode, level)(*args, **kwargs)\n"
        "        return original(qnode, level)(*args, **kwargs)\n"
        "    return inner\n"
        "qml.workflow.construct_batch = twice"),
}

HOLDS_ON = ["draw", "specs(level='device')", "construct_batch(level='device')",
            "construct_tape(level='top')", "get_transform_program(level='user')", "snapshots"]


@pytest.mark.parametrize("subject", HOLDS_ON)
def test_law_holds_on_the_release_for_a_query_it_is_right_for(pennylane_runtime, subject):
    result = pennylane_runtime.assert_holds(LAW, subject, examples=15)
    assert result["examples"] >= 10


@pytest.mark.parametrize("subject", sorted(PLANTS))
def test_law_catches_a_planted_wrong_query(pennylane_runtime, subject):
    result = pennylane_runtime.assert_caught(LAW, subject, patch=PLANTS[subject], examples=25)
    assert "import pennylane as qml" in result["reproducer"]  # public API only
    assert "contract" not in result["reproducer"] and "hypothesis" not in result["reproducer"]  # standalone


def test_subjects_are_the_query_variants_the_release_offers(pennylane_runtime):
    result = pennylane_runtime(
        "import json, warnings\nwarnings.filterwarnings('ignore')\nimport contract_runtime as r\n"
        f"print(json.dumps(r.subjects('pennylane', {LAW!r})))")
    subjects = set(result["subjects"])
    assert {"specs", "specs(level='device')", "draw(level='top')", "matrix", "construct_tape(level='gradient')",
            "construct_batch(level='user')", "get_transform_program(level='top')", "make_qscript",
            "get_best_diff_method", "snapshots"} <= subjects
    # expansion_strategy is no longer a documented argument of qml.specs / qml.draw on 0.45
    assert not any("expansion_strategy" in s for s in subjects)
    # qml.matrix documents no level argument: one subject only
    assert [s for s in subjects if s.startswith("matrix")] == ["matrix"]
    assert result["apis"]["construct_batch(level='user')"] == "pennylane.workflow.construct_batch"
    assert result["apis"]["specs(level='top')"] == "pennylane.specs"


def test_the_release_shows_the_matrix_of_a_split_qnode_violation(pennylane_runtime):
    """A violation the real release shows (kept: the law is right, see the family report):
    qml.matrix of a QNode under split_non_commuting whose two commuting measurements stay on
    one tape answers two rows of the matrix, not the circuit's matrix."""
    result = pennylane_runtime(
        "import json, warnings\nwarnings.filterwarnings('ignore')\n"
        "import contracts.pennylane_workflow as m\n"
        "example = m.Example(2, (m.Gate('Hadamard', (), (0,)), m.Gate('RY', (0.4,), (1,))),\n"
        "                    (('probs', (0,)), ('expval_X', (1,))), ('split_non_commuting',))\n"
        "try:\n"
        "    m._check('matrix', example)\n"
        "    checked = 'holds'\n"
        "except AssertionError as exc:\n"
        "    checked = str(exc)\n"
        "try:\n"
        "    exec(m._reproduce('matrix', example), {'__name__': '__main__'})\n"
        "    reproduced = 'passes'\n"
        "except AssertionError:\n"
        "    reproduced = 'fails'\n"
        "print(json.dumps([checked, reproduced]))")
    checked, reproduced = result
    assert "does not answer a matrix of the circuit" in checked
    assert reproduced == "fails"


def test_law_finds_specs_running_the_transform_program_twice_on_0_42(pennylane_release):
    # Not planted: qml.specs on 0.42.3 runs a QNode's transforms twice per call (a user's
    # transform sees two calls where executing the QNode makes one); 0.45.0 runs them once.
    old = pennylane_release("pennylane==0.42.3").check_law(LAW, "specs(level='user')", examples=25,
                                                           other_failures=False)
    assert old["outcome"] == "violated", old
    assert "ran the transform program more often than an execution" in old["message"], old["message"]
    assert old["reproducer_fails"], old["reproducer"]
    new = pennylane_release("pennylane==0.45.0").check_law(LAW, "specs(level='user')", examples=25,
                                                           other_failures=False)
    assert new["outcome"] == "holds", new


def test_the_counting_transform_is_accepted_by_releases_that_check_transform_signatures(pennylane_release):
    # 0.33.1 refuses a transform without the (tape: QuantumTape) -> (Sequence[QuantumTape], Callable)
    # annotations; had the QNode's counting transform lacked them, no query would be a subject there.
    subjects = pennylane_release("pennylane==0.33.1")(
        "import json, warnings\nwarnings.filterwarnings('ignore')\nimport contract_runtime as r\n"
        f"print(json.dumps(r.subjects('pennylane', {LAW!r})['subjects']))")
    assert {"specs", "draw", "matrix", "snapshots"} <= set(subjects)
