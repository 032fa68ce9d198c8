"""The regression oracle on the real Qiskit release: an answer observed on this release agrees
with itself given as the reference, and a reference that answered otherwise (what an earlier
release that computed differently would have recorded) is caught, with a standalone
reproducer that fails; the host compares observations with the same `agree` the law uses."""

import json

import pytest

from qusema.contracts.regression import _agree_function, parse_reference

LAW = "qiskit.surface.agrees-with-reference"
OBSERVE = ("import json, warnings\nwarnings.filterwarnings('ignore')\nimport surface_regression as r\n"
           "print(json.dumps(r.observe('qiskit', {first}, {count})))\n")


def _numeric(observations: dict, call: bool) -> tuple[str, float]:
    for key, answer in sorted(observations.items()):
        if key.startswith("call|") == call and isinstance(answer, (int, float)) and not isinstance(answer, bool) \
                and answer != 0:
            return key, answer
    raise AssertionError(f"no numeric answer among {len(observations)} observations")


@pytest.mark.release
@pytest.mark.parametrize("call", [False, True], ids=["documented program", "typed call"])
def test_the_law_holds_on_the_releases_own_answer_and_catches_another(qiskit_runtime, call):
    programs = qiskit_runtime(OBSERVE.format(first=0, count=1))["total_programs"]
    first = 120 if call else 0  # the calls come after the ~130 documented programs
    observed = qiskit_runtime(OBSERVE.format(first=first, count=programs - first if call else 40))
    key, answer = _numeric(observed["observations"], call)
    same = json.dumps({"key": key, "reference": answer, "against": "qiskit==0.0"})
    held = qiskit_runtime.check_law(LAW, same, examples=1)
    assert held["outcome"] == "holds", held
    other = json.dumps({"key": key, "reference": answer * 2 + 1, "against": "qiskit==0.0"})
    caught = qiskit_runtime.check_law(LAW, other, examples=1, other_failures=False)
    assert caught["outcome"] == "violated" and caught["reproducer_fails"], caught
    assert "qiskit==0.0" in caught["message"] and "contract_runtime" not in caught["reproducer"]


def test_answers_agree_to_a_relative_tolerance_and_nothing_else():
    agree = _agree_function()
    assert agree(1.0, 1.0 + 1e-9) and not agree(1.0, 1.001)
    assert agree({"shape": [2], "values": [0.5, 1.0]}, {"shape": [2], "values": [0.5, 1.0 + 1e-10]})
    assert not agree({"shape": [2], "values": [0.5, 1.0]}, {"shape": [1, 2], "values": [0.5, 1.0]})
    assert not agree([1, 2], [1, 2, 3]) and not agree(True, 1) and agree(None, None)


def test_a_reference_must_be_an_exact_release_of_the_same_library():
    assert parse_reference("qiskit", "2.4.1", "qiskit==2.3.1") == "qiskit==2.3.1"
    for wrong in ("pennylane==0.44.0", "qiskit", "qiskit==not-a-version"):
        with pytest.raises(Exception, match="--reference"):
            parse_reference("qiskit", "2.4.1", wrong)


DIGESTS = ("import json, warnings\nwarnings.filterwarnings('ignore')\n"
           "import surface_regression as r\n"
           "from contracts.qiskit_surface import CALLS\n"
           "import qiskit.synthesis as s\n"
           "subject = 'qiskit.synthesis.synth_qft_full'\n"
           "(example, *_) = list(r._call_examples(CALLS, subject))\n"
           "before = r.call_digest(CALLS, subject, example)\n"
           "again = r.call_digest(CALLS, subject, example)\n"
           "s.synth_qft_full.__doc__ += '\\n    For one qubit the circuit is now empty.\\n'\n"
           "after = r.call_digest(CALLS, subject, example)\n"
           "print(json.dumps({'before': before, 'again': again, 'after': after}))\n")


@pytest.mark.release
def test_a_typed_calls_key_changes_with_the_callables_documentation(qiskit_runtime):
    """An answer that changed together with the callable's docstring is a documented behaviour
    change: the two releases' keys differ, so the oracle never compares them."""
    digests = qiskit_runtime(DIGESTS)
    assert digests["before"] == digests["again"] != digests["after"], digests
