"""Qualify a reproduced defect by what the API documentation permits."""

from __future__ import annotations

from dataclasses import dataclass

from qusema.defects import Classification


@dataclass(frozen=True)
class Qualification:
    classification: Classification
    reason: str


# The validity of a law whose input and expected output are both the documentation's own
# example: the input is documented, but a mismatch may be the docs' (an example left stale by
# an intended change), so it is never more than a potential bug.
DOCUMENTED_EXAMPLE = "documented example"
# The validity of a law that expects more than the documentation promises: the input is
# documented, but the documentation also allows the answer seen (a check it may skip, an
# optimization it may miss), so a violation is a missed result, never more than a potential bug.
ANSWER_PERMITTED = "answer permitted"
# The validity of the regression oracle's input: a documented example whose answer differs
# from a reference release's. No oracle says which release is right (an intended change the
# release notes name is no defect), so it is never more than a potential bug.
REGRESSION_CANDIDATE = "regression candidate"


def qualify(api_is_public: bool, input_validity: str, deprecations: list[str]) -> Qualification:
    """`bug` needs a documented public API, an input the documentation establishes as valid,
    and an API not on its way out; otherwise the defect is real but its standing is not."""
    if not api_is_public:
        return Qualification("potential bug", "the entry point is not in the documented public API map")
    if input_validity == DOCUMENTED_EXAMPLE:
        return Qualification("potential bug", "the release does not do what its own documentation shows "
                                              "for this example: the code or the documentation is wrong")
    if input_validity == REGRESSION_CANDIDATE:
        return Qualification("potential bug", "the same documented code answers differently on a reference release, "
                                              "and no oracle decides which release is right: a regression, unless "
                                              "the release notes name the change")
    if input_validity == ANSWER_PERMITTED:
        return Qualification("potential bug", "the documentation allows this answer (it may skip or miss what "
                                              "the law expects): a missed result, not a wrong one")
    if input_validity != "documented":
        return Qualification("potential bug", "the documentation neither allows nor forbids the triggering input")
    if deprecations:
        return Qualification("potential bug", f"the API is deprecated: {deprecations[0][:300]}")
    return Qualification("bug", "documented public API, documented valid input, wrong result without an error")


DEPRECATION_PROBE = """
import warnings
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        exec(compile({code!r}, "<reproducer>", "exec"), {{"__name__": "__main__"}})
    except AssertionError:
        pass
report("deprecations", sorted({{str(w.message) for w in caught if issubclass(w.category, DeprecationWarning)
                                and "{package}" in (w.filename or "") + str(w.message)}}))
"""
