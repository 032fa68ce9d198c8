"""The transforms law holds on the real release where it is right, catches a planted transform
that changes its input (the library patched inside the test process), and finds the transforms
the release exports."""

import pytest

LAW = "pennylane.transform.inputs-unchanged"

# A transform that does its job but then resets the trainable parameters of the tape it was given.
PLANT = """
import functools
import pennylane as qml
_transform = qml.transforms.{name}
_original = _transform._tape_transform

@functools.wraps(_original)
def _changing_input(tape, *args, **kwargs):
    out = _original(tape, *args, **kwargs)
    tape.trainable_params = []
    return out

_transform._tape_transform = _changing_input
"""


@pytest.mark.parametrize("subject", ["cancel_inverses", "commute_controlled", "defer_measurements"])
def test_law_holds_on_the_release_for_transforms_it_is_right_for(pennylane_runtime, subject):
    result = pennylane_runtime.assert_holds(LAW, subject, examples=20)
    assert result["examples"] >= 20


@pytest.mark.parametrize("subject", ["cancel_inverses", "undo_swaps"])
def test_law_catches_a_transform_that_changes_its_input(pennylane_runtime, subject):
    result = pennylane_runtime.assert_caught(LAW, subject, patch=PLANT.format(name=subject), examples=30)
    assert "trainable_params" in result["message"]
    assert f"qml.transforms.{subject}(tape" in result["reproducer"]  # public API only


def test_law_reports_merge_rotations_emptying_its_input_tape(pennylane_runtime):
    """On 0.45.0 merge_rotations pops the operations out of the tape it is given (found by this law)."""
    result = pennylane_runtime.check_law(LAW, "merge_rotations", examples=25)
    assert result["outcome"] == "violated", result
    assert result["reproducer_fails"], result["reproducer"]


def test_subjects_are_the_transforms_the_release_exports(pennylane_runtime):
    result = pennylane_runtime("import json, contract_runtime as r\n"
                               f"print(json.dumps(r.subjects('pennylane', {LAW!r})))")
    subjects = set(result["subjects"])
    assert {"cancel_inverses", "merge_rotations", "compile", "defer_measurements", "metric_tensor",
            "map_wires", "split_non_commuting", "decompose", "commutation_dag"} <= subjects
    # inputs the law cannot build generically: left out
    assert not {"batch_params", "batch_input", "pattern_matching_optimization", "add_noise",
                "cut_circuit"} & subjects
    assert "richardson_extrapolate" not in subjects  # a function, not a transform
    assert result["apis"]["compile"] == "pennylane.transforms.compile"
    assert result["apis"]["map_wires"] == "pennylane.map_wires"
