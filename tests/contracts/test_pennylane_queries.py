"""The law that PennyLane's workflow queries report a QNode's transform program applied exactly
once holds on the real release where it is right, and catches planted wrong queries (the library
patched inside the test process) that apply the program twice or not at all."""

import pytest

LAW = "pennylane.workflow.queries-apply-program-once"

PLANTS = {
    # construct_batch applies the QNode's user transforms a second time to the tapes it gives
    "construct_batch:user-append": (
        "import pennylane as qml\n"
        "original = qml.workflow.construct_batch\n"
        "def twice(qnode, level='user'):\n"
        "    batch = original(qnode, level)\n"
        "    def inner(*args, **kwargs):\n"
        "        tapes, fn = batch(*args, **kwargs)\n"
        "        again, _ = qml.workflow.get_transform_program(qnode, level='user')(tapes)\n"
        "        return again, fn\n"
        "    return inner\n"
        "qml.workflow.construct_batch = twice"),
    # qml.matrix of a QNode is the unitary of its circuit with the user program applied twice
    "matrix:user-double": (
        "import pennylane as qml\n"
        "original = qml.matrix\n"
        "def matrix(op, wire_order=None):\n"
        "    if isinstance(op, qml.QNode):\n"
        "        def inner(*args, **kwargs):\n"
        "            tape = qml.workflow.construct_tape(op, level='user')(*args, **kwargs)\n"
        "            (tape,), _ = qml.workflow.get_transform_program(op, level='user')((tape,))\n"
        "            return original(tape, wire_order=wire_order)\n"
        "        return inner\n"
        "    return original(op, wire_order=wire_order)\n"
        "qml.matrix = matrix"),
    # qml.specs ignores the QNode's transforms (reports level 'top' whatever it is asked)
    "specs:user-append": (
        "import pennylane as qml\n"
        "original = qml.specs\n"
        "def specs(qnode, level=None, **kwargs):\n"
        "    return original(qnode, level='top', **kwargs)\n"
        "qml.specs = specs"),
    # qml.draw draws the circuit with the user program applied twice
    "draw:mixed": (
        "import pennylane as qml\n"
        "original = qml.draw\n"
        "def draw(qnode, *args, level='gradient', **kwargs):\n"
        "    def inner(*a, **k):\n"
        "        tape = qml.workflow.construct_tape(qnode, level=level)(*a, **k)\n"
        "        (tape,), _ = qml.workflow.get_transform_program(qnode, level='user')((tape,))\n"
        "        @qml.qnode(qnode.device)\n"
        "        def plain():\n"
        "            for op in tape.operations:\n"
        "                qml.apply(op)\n"
        "            return [qml.apply(m) for m in tape.measurements][0]\n"
        "        return original(plain, *args, **kwargs)()\n"
        "    return inner\n"
        "qml.draw = draw"),
}

HOLDS_ON = ["construct_batch:user-append", "construct_tape:user-double", "draw:user-double", "specs:mixed",
            "matrix:builtin", "get_transform_program:mixed", "get_compile_pipeline:user-append"]


@pytest.mark.parametrize("subject", HOLDS_ON)
def test_law_holds_on_the_release_for_a_query_it_is_right_for(pennylane_runtime, subject):
    result = pennylane_runtime.assert_holds(LAW, subject, examples=15)
    assert result["examples"] >= 10


@pytest.mark.parametrize("subject", sorted(PLANTS))
def test_law_catches_a_planted_query_that_applies_the_program_twice_or_never(pennylane_runtime, subject):
    result = pennylane_runtime.assert_caught(LAW, subject, patch=PLANTS[subject], examples=25)
    assert "applied once" in result["message"]
    assert "import pennylane as qml" in result["reproducer"]  # public API only
    assert "contract" not in result["reproducer"] and "hypothesis" not in result["reproducer"]  # standalone


def test_subjects_are_the_queries_and_transform_kinds_the_release_offers(pennylane_runtime):
    result = pennylane_runtime(
        "import json, warnings\nwarnings.filterwarnings('ignore')\nimport contract_runtime as r\n"
        "import contracts.pennylane_queries as m\n"
        f"found = r.subjects('pennylane', {LAW!r})\n"
        "found['levels'] = {q: [repr(v) for v in m._levels(q)] for q in ('specs', 'draw', 'matrix', 'construct_tape')}\n"
        "print(json.dumps(found))")
    subjects = set(result["subjects"])
    queries = {"specs", "draw", "matrix", "construct_batch", "construct_tape", "get_transform_program",
               "get_compile_pipeline"}
    kinds = {"user-append", "user-double", "builtin", "mixed"}
    assert subjects == {f"{q}:{k}" for q in queries for k in kinds}
    assert result["apis"]["specs:mixed"] == "pennylane.specs"
    assert result["apis"]["construct_batch:builtin"] == "pennylane.workflow.construct_batch"
    assert result["apis"]["matrix:user-append"] == "pennylane.matrix"
    # 0.45 documents `level` for specs, draw and construct_tape; qml.matrix takes none
    for query in ("specs", "draw", "construct_tape"):
        assert result["levels"][query] == ["'<default>'", "'top'", "'user'", "'gradient'", "'device'", "'int'"]
    assert result["levels"]["matrix"] == ["'<default>'"]


def test_the_oracle_counts_a_non_idempotent_transform_once_per_application(pennylane_runtime):
    """Two stacked @append_gate decorators append two gates; level=1 applies only the first."""
    result = pennylane_runtime(
        "import json, warnings\nwarnings.filterwarnings('ignore')\n"
        "import contracts.pennylane_queries as m\n"
        "out = {}\n"
        "for level in (m.DEFAULT, 1, 'top'):\n"
        "    example = m.Example(1, (m.Gate('Hadamard', (), (0,)),), ('expval', 0), ('append_gate', 'append_gate'), level)\n"
        "    ns = {'__name__': '__main__'}\n"
        "    exec(m._setup(example), ns)\n"
        "    out[repr(level)] = [name for name, _, _ in ns['wanted_ops']]\n"
        "print(json.dumps(out))")
    assert result == {"'<default>'": ["Hadamard", "RX", "RX"], "1": ["Hadamard", "RX"], "'top'": ["Hadamard"]}
