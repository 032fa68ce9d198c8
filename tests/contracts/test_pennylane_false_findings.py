"""The generic laws on PennyLane 0.45.0 after the review of audit ef42dd421e (5 of its 8 false
findings, each for a reason that is no property of one function): a basis documented as an
iterable is given one; a circuit function from other documentation that does not take the
arguments the optimizer passes is the caller's error; a class whose equality compares a part
by identity has copies that may differ; a device asked for samples before it ran anything was
asked too early. The real findings beside them are still found."""

import pytest

pytestmark = pytest.mark.release

LAW = "pennylane.surface.calls-have-no-internal-error"
COPIES = "pennylane.surface.copies-are-equal"


@pytest.mark.parametrize("subject", ["pennylane.AdaptiveOptimizer.step", "pennylane.AdaptiveOptimizer.step_and_cost"])
def test_a_borrowed_circuit_of_the_wrong_arity_is_no_finding(pennylane_runtime, subject):
    result = pennylane_runtime.check_law(LAW, subject, examples=10)
    assert result["outcome"] != "violated", result["message"]


def test_a_real_internal_error_is_still_found(pennylane_runtime):
    result = pennylane_runtime.check_law(LAW, "pennylane.liealg.C", examples=10)
    assert result["outcome"] == "violated", result
    assert "_DIII_ps" in result["message"] and "TypeError" in result["message"], result["message"]


def test_a_basis_documented_as_an_iterable_is_passed_as_one(pennylane_runtime):
    # annotated `PauliSentence | Operator | TensorLike`, documented `Iterable[Union[...]]`: one
    # Operator as the basis was a false finding; a list of them is checked and holds
    pennylane_runtime.assert_holds(LAW, "pennylane.liealg.op_to_adjvec", examples=10)


def test_copies_of_an_object_with_an_identity_compared_part_are_no_finding(pennylane_runtime):
    # CotransformCache compares its QNode, which has no __eq__: no copy can equal it
    pennylane_runtime.assert_holds(COPIES, "pennylane.transforms.core.cotransform_cache.CotransformCache", examples=10)


def test_equal_copies_that_hash_apart_are_still_found(pennylane_runtime):
    result = pennylane_runtime.check_law(COPIES, "pennylane.pulse.ParametrizedEvolution", examples=10)
    assert result["outcome"] == "violated", result
    assert "hash differently" in result["message"], result["message"]


@pytest.mark.parametrize("subject", ["pennylane.devices.QubitDevice.sample", "pennylane.devices.QutritDevice.sample"])
def test_a_device_asked_for_samples_before_it_ran_anything_is_no_finding(pennylane_runtime, subject):
    # `_samples` is None until execute() fills it: the call came before its precondition
    result = pennylane_runtime.check_law(LAW, subject, examples=10)
    assert result["outcome"] != "violated", result["message"]


# After the review of audit 28fdb1ca28: a resource method called without the precision its docs
# type as a float (None is "the precision stated in the ResourceConfig", which only an estimate
# holds), spread with a compressed operator whose parameters still hold that None, and
# measurement post-processing given a list where its code reads an array's `shape`.
@pytest.mark.parametrize("subject", ["pennylane.estimator.RZ.resource_decomp", "pennylane.estimator.RY.resource_decomp",
                                     "pennylane.estimator.Adjoint.resource_decomp",
                                     "pennylane.measurements.ProbabilityMP.process_samples"])
def test_a_placeholder_left_for_later_and_a_list_read_as_an_array_are_no_findings(pennylane_runtime, subject):
    result = pennylane_runtime.check_law(LAW, subject, examples=10)
    assert result["outcome"] != "violated", result["message"]
