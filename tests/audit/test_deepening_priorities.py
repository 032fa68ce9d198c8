"""Which laws get the time left after every check is done: a bandit over laws that pays for
what is cheap per example and for what has found violations (qusema/audit.py)."""

from qusema.audit import deepening_priorities


def _result(contract: str, outcome: str, examples: int, seconds: float) -> dict:
    return {"contract": contract, "outcome": outcome, "examples": examples, "seconds": seconds}


def test_a_cheap_law_goes_before_a_slow_one_that_found_as_much():
    priority = deepening_priorities([_result("cheap", "holds", 25, 0.5), _result("slow", "holds", 25, 50.0)])
    assert priority["cheap"] > priority["slow"]


def test_a_law_that_found_violations_goes_before_an_equally_cheap_one_that_found_none():
    results = [_result("paid", "violated", 25, 2.0), _result("paid", "holds", 25, 2.0),
               _result("quiet", "holds", 25, 2.0), _result("quiet", "holds", 25, 2.0)]
    priority = deepening_priorities(results)
    assert priority["paid"] > priority["quiet"] > 0


def test_a_law_with_no_examples_counted_still_gets_a_turn():
    assert deepening_priorities([_result("unmeasured", "holds", 0, 0.0)])["unmeasured"] > 0
