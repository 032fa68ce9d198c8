"""Where an audit's time left goes: a bandit over checks (qusema/contracts/bandit.py) that
re-checks first what is expected to find the most violations per second."""

from qusema.contracts.bandit import CheckBandit, parse_key
from qusema.contracts.engine import WorkItem


def _held(examples: int, seconds: float, **extra) -> dict:
    return {"outcome": "holds", "examples": examples, "seconds": seconds, **extra}


def _pops(bandit: CheckBandit, cost: dict[str, float] | None = None, n: int = 100) -> list[WorkItem]:
    """Pull arms one at a time; each re-check holds on all its examples, at `cost[subject]`
    seconds an example (default 0.01)."""
    pulled = []
    for _ in range(n):
        item = bandit.pop()
        if item is None:
            break
        pulled.append(item)
        bandit.record(item.key, _held(item.examples, (cost or {}).get(item.subject, 0.01) * item.examples))
    return pulled


def test_a_key_is_read_back_into_law_subject_and_examples():
    assert parse_key(WorkItem("law.a", "pkg.f#doc0|circuit").key) == ("law.a", "pkg.f#doc0|circuit", None)
    assert parse_key(WorkItem("law.a", "Isometry", 400).key) == ("law.a", "Isometry", 400)


def test_a_cheap_check_goes_before_a_slow_one_of_an_equally_quiet_law():
    bandit = CheckBandit.from_results(25, 1, [("a::slow", _held(25, 50.0)), ("b::cheap", _held(25, 0.5))])
    assert bandit.pop() == WorkItem("b", "cheap", 100)
    assert bandit.pop() == WorkItem("a", "slow", 100)


def test_cost_is_measured_per_check_not_per_law():
    # one law, a cheap subject and a slow one: the cheap subject first, whatever the order given
    bandit = CheckBandit.from_results(25, 1, [("law::slow", _held(25, 30.0)), ("law::cheap", _held(25, 0.3))])
    assert bandit.pop().subject == "cheap"


def test_a_law_that_found_a_violation_gets_its_other_checks_deepened_first():
    results = [("quiet::q1", _held(25, 1.0)), ("quiet::q2", _held(25, 1.0)),
               ("paid::p1", {"outcome": "violated", "examples": 25, "seconds": 1.0}), ("paid::p2", _held(25, 1.0))]
    bandit = CheckBandit.from_results(25, 1, results)
    assert bandit.pop() == WorkItem("paid", "p2", 100)
    assert bandit.pop().contract == "quiet"


def test_a_violated_or_raised_check_is_never_re_checked():
    bandit = CheckBandit.from_results(25, 3, [("law::found", {"outcome": "violated", "examples": 3, "seconds": 0.1}),
                                             ("law::broken", {"outcome": "raised", "examples": 1, "seconds": 0.1})])
    assert bandit.pop() is None and bandit.remaining() == 0


def test_a_check_whose_inputs_ran_out_is_not_re_checked_but_one_cut_by_time_is():
    # hypothesis stopped at 4 of 25 without a time cut: it drew every input its strategy has
    bandit = CheckBandit.from_results(25, 2, [("law::exhausted", _held(4, 0.1)),
                                             ("law::cut", _held(7, 9.0, time_cut=True))])
    assert [i.subject for i in _pops(bandit)] == ["cut", "cut"]


def test_a_cheap_check_goes_deep_before_a_slow_one_gets_its_first_re_check():
    # 1 ms an example against 1 s: the cheap check's 100, 400 and 1,600 examples all cost less
    # per expected violation than the slow check's first 100
    bandit = CheckBandit.from_results(25, 3, [("law::slow", _held(25, 25.0)), ("law::cheap", _held(25, 0.025))])
    pulled = _pops(bandit, {"cheap": 0.001, "slow": 1.0})
    assert [(i.subject, i.examples) for i in pulled] == [
        ("cheap", 100), ("cheap", 400), ("cheap", 1600), ("slow", 100), ("slow", 400), ("slow", 1600)]


def test_depth_is_capped_by_max_level():
    bandit = CheckBandit.from_results(10, 2, [("law::s", _held(10, 0.1))])
    assert [i.examples for i in _pops(bandit)] == [40, 160]
    assert bandit.remaining() == 0


def test_a_violation_found_deeper_closes_the_check_and_raises_its_laws_rate():
    bandit = CheckBandit.from_results(25, 3, [("a::x", _held(25, 1.0)), ("a::y", _held(25, 1.0)),
                                             ("b::z", _held(25, 0.9))])
    first = bandit.pop()
    assert first == WorkItem("b", "z", 100)  # cheapest per example
    bandit.record(first.key, {"outcome": "violated", "examples": 60, "seconds": 0.9 * 60 / 25})
    # b::z is closed; a's checks come next
    assert bandit.pop().contract == "a"


def test_a_check_handed_out_is_not_handed_out_again_until_its_result_is_in():
    bandit = CheckBandit.from_results(25, 3, [("law::only", _held(25, 0.1))])
    item = bandit.pop()
    assert bandit.pop() is None  # the one check is running
    bandit.record(item.key, _held(100, 0.4))
    assert bandit.pop() == WorkItem("law", "only", 400)


def test_a_resumed_audit_goes_on_from_the_re_checks_done():
    done = [("law::s", _held(25, 0.1)), ("law::s @examples=100", _held(100, 0.4)),
            ("law::t", _held(25, 0.1))]
    bandit = CheckBandit.from_results(25, 2, done)
    assert bandit.remaining() == 3
    assert {i.key for i in _pops(bandit)} == {"law::s @examples=400", "law::t @examples=100", "law::t @examples=400"}


def test_remaining_counts_what_is_left_and_never_goes_negative():
    bandit = CheckBandit.from_results(5, 3, [("a::x", _held(5, 0.1)), ("a::y", _held(5, 0.1))])
    assert bandit.remaining() == 6
    item = bandit.pop()
    bandit.record(item.key, {"outcome": "violated", "examples": 9, "seconds": 0.2})
    assert bandit.remaining() == 3  # the violated check's two further levels are gone
    _pops(bandit)
    assert bandit.remaining() == 0


def test_at_equal_cost_every_check_gets_its_4x_before_any_gets_16x():
    # each 4x re-check is expected to find about as much as the one before, at 4x the cost
    bandit = CheckBandit.from_results(25, 2, [("a::x", _held(25, 0.25)), ("b::y", _held(25, 0.25)),
                                             ("c::z", _held(25, 0.25))])
    pulled = [(i.subject, i.examples) for i in _pops(bandit)]
    assert sorted(pulled[:3]) == [("x", 100), ("y", 100), ("z", 100)]
    assert sorted(pulled[3:]) == [("x", 400), ("y", 400), ("z", 400)]


def test_a_law_checked_little_gets_a_turn_before_one_checked_often_that_found_nothing():
    often = [(f"often::s{i}", _held(25, 0.25)) for i in range(40)]
    bandit = CheckBandit.from_results(25, 1, [*often, ("rare::r", _held(25, 0.25))])
    assert bandit.pop() == WorkItem("rare", "r", 100)
