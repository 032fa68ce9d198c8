"""The in-sandbox runtime itself, under a real release's Python."""

from qusema.contracts.engine import WorkItem

PANIC = """
import json, contract_runtime as r
from hypothesis import strategies as st

class PanicException(BaseException):  # what pyo3 raises for a Rust panic
    pass

def check(subject, example):
    if example > 3:
        raise PanicException("panicked at src/lib.rs")

law = r.Contract("t.panic", "f", "law", "src", lambda: ["s"], lambda s: st.integers(0, 10), check,
                 lambda s, e: "", lambda s: "api")
r._contracts = lambda library: {"t.panic": law}
print(json.dumps(r.check("t", "t.panic", "s", 30, 0)))
"""


def test_a_rust_panic_is_reported_as_raised_not_a_dead_check(qiskit_runtime):
    result = qiskit_runtime(PANIC)
    assert result["outcome"] == "raised"
    assert result["error"]["type"] == "RustPanic" and "panicked at" in result["error"]["message"]


REFUSING = """
import json, contract_runtime as r
from hypothesis import strategies as st

def check(subject, example):
    if example % 2:
        raise ValueError("odd input refused")  # the library refuses part of the input space
    assert subject != "violated" or example < 6, f"{example} is too large"

law = r.Contract("t.refuse", "f", "law", "src", lambda: ["holds", "violated", "refused"],
                 lambda s: st.integers(1, 1) if s == "refused" else st.integers(0, 20), check,
                 lambda s, e: f"assert {e} < 6", lambda s: "api")
r._contracts = lambda library: {"t.refuse": law}
print(json.dumps({s: r.check("t", "t.refuse", s, 60, 0) for s in ["holds", "violated", "refused"]}))
"""


def test_refused_inputs_are_skipped_and_the_law_is_still_checked_on_the_others(qiskit_runtime):
    results = qiskit_runtime(REFUSING)
    holds, violated, refused = results["holds"], results["violated"], results["refused"]
    # A refused input no longer ends the check: the law is judged on the inputs that ran.
    assert holds["outcome"] == "holds"
    assert holds["refused"]["examples"] >= 1 and holds["refused"]["first_error"]["type"] == "ValueError"
    assert violated["outcome"] == "violated" and violated["message"] == "6 is too large"  # shrunk past odd ones
    # Only a check where every input was refused reports "raised", with the error.
    assert refused["outcome"] == "raised" and refused["error"]["message"] == "odd input refused"


TWO_WAYS = """
import json, contract_runtime as r
from hypothesis import strategies as st

def check(subject, example):
    assert example < 50, f"{example} is too large"   # one way to break the law ...
    if subject == "two ways":
        assert example % 7 != 3, f"{example} leaves 3"   # ... and another, at another assertion

law = r.Contract("t.two", "f", "law", "src", lambda: ["one way", "two ways"], lambda s: st.integers(0, 100), check,
                 lambda s, e: f"assert {e} < 50 and {e} % 7 != 3", lambda s: "api")
r._contracts = lambda library: {"t.two": law}
print(json.dumps({s: r.check("t", "t.two", s, 100, 0) for s in ["one way", "two ways"]}))
"""


def test_a_law_broken_in_two_ways_reports_both_failures_each_shrunk(qiskit_runtime):
    results = qiskit_runtime(TWO_WAYS)
    one, two = results["one way"], results["two ways"]
    assert one["outcome"] == "violated" and one["message"] == "50 is too large"
    assert one["other_violations"] == []  # searched again: nothing else breaks the law
    assert two["outcome"] == "violated"
    # the first failure hypothesis settles on, then the other assertion's, shrunk on its own
    first, *others = [two["message"]] + [v["message"] for v in two["other_violations"]]
    assert first.endswith(" leaves 3") and int(first.split()[0]) % 7 == 3 and int(first.split()[0]) < 50, first
    assert others == ["50 is too large"], others
    assert all(v["reproducer"] and v["example"] for v in two["other_violations"])


LABELLED = """
import json, os, sys, tempfile, contract_runtime as r
from hypothesis import strategies as st

LAW_SOURCE = '''
def check(subject, example):
    if subject == "two ways":
        assert example < 50, "too large"
        assert example % 7 != 3, "leaves 3"
    else:  # a program written for each input: its assertion's line moves with the input
        program = "x = 1\\\\n" * (example % 5) + f"assert {example} < 20, 'generated'"
        exec(compile(program, "<law>", "exec"))
'''
laws = tempfile.mkdtemp()
with open(os.path.join(laws, "labelled_law.py"), "w") as module:
    module.write(LAW_SOURCE)
sys.path.insert(0, laws)
import labelled_law
r.LAWS_DIR = laws + os.sep
law = r.Contract("t.labelled", "f", "law", "src", lambda: ["two ways", "generated"], lambda s: st.integers(0, 100),
                 labelled_law.check, lambda s, e: "", lambda s: "api")
r._contracts = lambda library: {"t.labelled": law}
print(json.dumps({s: r.check("t", "t.labelled", s, 100, 0) for s in ["two ways", "generated"]}))
"""


def test_each_failure_names_the_law_line_that_failed_and_a_generated_programs_line_does_not_count(qiskit_runtime):
    results = qiskit_runtime(LABELLED)
    two = results["two ways"]
    labels = [two["assertion"]] + [v["assertion"] for v in two["other_violations"]]
    # two assertions of the law's file: two labels, each naming the file and its line
    assert sorted(labels) == ["AssertionError at labelled_law.py:4", "AssertionError at labelled_law.py:5"], labels
    # A generated program fails at lines that move with the input (the search for other
    # failures tells those apart): they are one assertion, named by the line that ran it.
    generated = results["generated"]
    labels = [generated["assertion"]] + [v["assertion"] for v in generated["other_violations"]]
    assert set(labels) == {"AssertionError at labelled_law.py:8"}, labels
    assert len(labels) > 1  # the search did tell the moved lines apart: the label is what folds them


PANIC_BEHIND_A_FAILURE = """
import json, contract_runtime as r
from hypothesis import strategies as st

class PanicException(BaseException):  # what pyo3 raises for a Rust panic
    pass

def check(subject, example):
    assert example < 50, f"{example} is too large"   # found first: half the inputs break it
    if example % 10 == 7:
        raise PanicException("panicked at src/lib.rs")  # a few of the others make it panic

law = r.Contract("t.both", "f", "law", "src", lambda: ["s"], lambda s: st.integers(0, 100), check,
                 lambda s, e: f"assert {e} < 50", lambda s: "api")
r._contracts = lambda library: {"t.both": law}
print(json.dumps(r.check("t", "t.both", "s", 100, 0)))
"""


def test_a_panic_behind_an_assertion_failure_is_reported_as_its_own_violation(qiskit_runtime):
    result = qiskit_runtime(PANIC_BEHIND_A_FAILURE)
    assert result["outcome"] == "violated" and result["message"] == "50 is too large"
    assert not result.get("panic")  # the first failure is the law's, not a panic
    panics = [v for v in result["other_violations"] if v.get("panic")]
    assert len(panics) == 1, result["other_violations"]
    assert "panicked at" in panics[0]["message"]
    # the reproducer fails exactly when the library panics (the law's assertion is not its subject)
    assert "PanicException" in panics[0]["reproducer"] and int(panics[0]["example"]) % 10 == 7


REJECTING = """
import json, contract_runtime as r
from hypothesis import reject, strategies as st

def check(subject, example):
    try:
        if example % 2:
            raise ValueError("odd input refused by the library")
    except ValueError:
        reject()  # the law itself sets the refused input aside

law = r.Contract("t.reject", "f", "law", "src", lambda: ["s"], lambda s: st.integers(0, 20), check,
                 lambda s, e: "", lambda s: "api")
r._contracts = lambda library: {"t.reject": law}
print(json.dumps(r.check("t", "t.reject", "s", 40, 0)))
"""


def test_an_input_the_law_rejects_keeps_the_librarys_error_as_the_reason(qiskit_runtime):
    result = qiskit_runtime(REJECTING)
    assert result["outcome"] == "holds"
    first = result["refused"]["first_error"]
    assert first["type"] == "ValueError" and first["message"] == "odd input refused by the library", first


TIME_LIMITED = """
import json, time, contract_runtime as r
from hypothesis import strategies as st

def check(subject, example):
    time.sleep(0.05)  # each input costs time: a limit of 1 s leaves room for about 20 of 400
    assert subject != "violated" or example < 3, f"{example} is too large"

law = r.Contract("t.slow", "f", "law", "src", lambda: ["holds", "violated"], lambda s: st.integers(0, 1000), check,
                 lambda s, e: f"assert {e} < 3", lambda s: "api")
r._contracts = lambda library: {"t.slow": law}
print(json.dumps({"holds": r.check("t", "t.slow", "holds", 400, 0, 1.0),
                  "violated": r.check("t", "t.slow", "violated", 400, 0, 1.0),
                  "unlimited": r.check("t", "t.slow", "holds", 30, 0)}))
"""


def test_a_time_limited_check_stops_drawing_inputs_but_still_reports_a_failure(qiskit_runtime):
    results = qiskit_runtime(TIME_LIMITED)
    holds, violated, unlimited = results["holds"], results["violated"], results["unlimited"]
    # The limit ends the search short of the 400 inputs asked for, and says so.
    assert holds["outcome"] == "holds" and holds.get("time_cut") is True
    assert 0 < holds["examples"] < 400
    # A failure found before the limit is still shrunk and reported.
    assert violated["outcome"] == "violated" and violated["message"] == "3 is too large"
    # Without a limit every input asked for is checked.
    assert unlimited["examples"] == 30 and "time_cut" not in unlimited


NEIGHBOURS = """
import json, contract_runtime as r
from hypothesis import strategies as st

def check(subject, example):
    a, b = example
    assert not (a >= 1000 and b % 2 == 0), "even b with a large a"   # one assertion, one origin

law = r.Contract("t.near", "f", "law", "src", lambda: ["s"],
                 lambda s: st.tuples(st.integers(0, 10**6), st.integers(0, 10**6)), check,
                 lambda s, e: f"x = {e!r}", lambda s: "api")
r._contracts = lambda library: {"t.near": law}
print(json.dumps(r.check("t", "t.near", "s", 200, 0)))
"""


def _pair(reproducer: str) -> tuple[int, int]:
    a, b = reproducer.removeprefix("x = (").removesuffix(")").split(", ")
    return int(a), int(b)


def test_a_violation_carries_its_nearest_passing_neighbours_and_other_failing_inputs(qiskit_runtime):
    result = qiskit_runtime(NEIGHBOURS)
    assert result["outcome"] == "violated" and _pair(result["reproducer"]) == (1000, 0)
    passing = [_pair(code) for code in result["passing_reproducers"]]
    failing = [_pair(code) for code in result["failing_variants"]]
    # Every passing input passes the law, every variant breaks it, none is the minimal one.
    assert passing and all(a < 1000 or b % 2 for a, b in passing), passing
    assert failing and all(a >= 1000 and b % 2 == 0 for a, b in failing) and (1000, 0) not in failing, failing
    assert len(set(passing)) == len(passing)
    # The passing inputs start with shrink candidates next to the minimal failure (1000, 0):
    # the same large a, or a step away. Inputs drawn before any failure are random (or the
    # simplest, (0, 0)) and come after them.
    def neighbour(a: int, b: int) -> bool:
        return a == 1000 or abs(a - 1000) + abs(b) <= 2

    assert neighbour(*passing[0]) and sum(neighbour(*p) for p in passing) >= 2, passing
    assert "lent_passing" not in result  # its own passing inputs: nothing is borrowed


SIBLINGS = """
import json, contract_runtime as r
from hypothesis import strategies as st

# Subject "broken" fails on every input, in two ways (two assertions, two findings);
# "twin" shares its API and holds on one input; "other-api" holds but enters another API;
# "also-broken" fails everywhere too; "undrawable" cannot even build its inputs here. Tried
# in the order twin, undrawable, also-broken, other-api.
def check(subject, example):
    assert subject not in ("broken", "also-broken") or example % 2, f"{subject} fails on even {example}"
    assert subject not in ("broken", "also-broken") or not example % 2, f"{subject} fails on odd {example}"
    assert subject != "twin" or example == 0, "twin holds on 0 alone"

def strategy(subject):
    if subject == "undrawable":
        raise ImportError("this release has no such module")
    return st.integers(0, 50)

apis = {"twin": "lib.f on lib.dev('x')", "other-api": "lib.g on lib.dev('y')", "undrawable": "lib.f",
        "broken": "lib.f on lib.dev('y')", "also-broken": "lib.f"}
law = r.Contract("t.sib", "f", "law", "src", lambda: list(apis), strategy, check, lambda s, e: f"{s}:{e}",
                 lambda s: apis[s])
alone = r.Contract("t.alone", "f", "law", "src", lambda: ["broken"], strategy, check, lambda s, e: f"{s}:{e}",
                   lambda s: "lib.f")
r._contracts = lambda library: {"t.sib": law, "t.alone": alone}
print(json.dumps({"sib": r.check("t", "t.sib", "broken", 40, 0), "alone": r.check("t", "t.alone", "broken", 40, 0)}))
"""


def test_a_subject_failing_on_every_input_borrows_passing_runs_from_the_laws_other_subjects(qiskit_runtime):
    result = qiskit_runtime(SIBLINGS)
    sib, alone = result["sib"], result["alone"]
    assert sib["outcome"] == "violated" and sib["reproducer"].startswith("broken:")
    # Both ways the subject fails are reported, and neither has a passing input of its own.
    (other,) = sib["other_violations"]
    assert sib["passing_reproducers"] == [] and other["passing_reproducers"] == []
    lent = [(p["subject"], p["reproducer"]) for p in sib["lent_passing"]]
    assert other["lent_passing"] == sib["lent_passing"]
    # Only inputs on which the law holds are lent: none from a subject failing everywhere
    # or one whose inputs cannot be drawn (which does not end the check either); the
    # subject sharing the failing one's API names comes before the one listed nearer.
    assert lent and len(lent) == len(set(lent)) <= 3, lent
    assert all(subject in ("twin", "other-api") and code.startswith(f"{subject}:") for subject, code in lent), lent
    assert lent[0] == ("twin", "twin:0") and ("twin", "twin:0") not in lent[1:], lent
    assert any(subject == "other-api" for subject, _ in lent), lent  # tried after the undrawable one
    # A law with no other subject has nothing to lend, and says nothing about lending.
    assert alone["outcome"] == "violated" and alone["passing_reproducers"] == []
    assert "lent_passing" not in alone


DRAWS = """
import json, contract_runtime as r
from hypothesis import strategies as st

seen = []
law = r.Contract("t.draws", "f", "law", "src", lambda: ["s"], lambda s: st.integers(0, 10 ** 9),
                 lambda s, e: seen.append(e), lambda s, e: "", lambda s: "api")
r._contracts = lambda library: {"t.draws": law}
rounds = {}
for name, examples, seed in ROUNDS:
    seen.clear()
    r.check("t", "t.draws", "s", examples, seed)
    rounds[name] = list(seen)
print(json.dumps(rounds))
"""


def test_a_deeper_round_draws_new_inputs_instead_of_replaying_the_round_before(qiskit_runtime):
    first, deeper = WorkItem("t.draws", "s"), WorkItem("t.draws", "s", examples=100)
    rounds = [("first", 25, first.seed(0)), ("deeper", 100, deeper.seed(0))]
    seen = qiskit_runtime(DRAWS.replace("ROUNDS", repr(rounds)))
    assert len(seen["first"]) == 25 and len(seen["deeper"]) == 100
    # Why the deeper round has a seed of its own: with the audit's seed, hypothesis (6.x, as
    # installed in the audit environments) replays the same stream, re-checking the inputs
    # that already held. Not asserted: that is hypothesis's behaviour, not ours.
    # Every search also tries a few simple inputs (0, round numbers); beyond those, all are new.
    again = set(seen["first"]) & set(seen["deeper"])
    assert len(again) <= 3, sorted(again)
    assert deeper.seed(0) == WorkItem("other.law", "other", examples=100).seed(0)  # one seed per round
    assert deeper.seed(0) != deeper.seed(1) and deeper.seed(0) != WorkItem("t", "s", examples=400).seed(0)


LITERALS = """
import json, sys, tempfile, importlib
from pathlib import Path
import contract_runtime as r
from hypothesis import strategies as st

seen = []
law = r.Contract("t.draws", "f", "law", "src", lambda: ["s"], lambda s: st.integers(0, 10 ** 9),
                 lambda s, e: seen.append(e), lambda s, e: "", lambda s: "api")
r._contracts = lambda library: {"t.draws": law}
r.check("t", "t.draws", "s", 300, 7)
before = list(seen)
# another module outside site-packages, as a law file is, full of integer literals
folder = Path(tempfile.mkdtemp())
(folder / "other_law_literals.py").write_text("VALUES = [" + ", ".join(str(7919 * k) for k in range(400)) + "]\\n")
sys.path.insert(0, str(folder))
importlib.import_module("other_law_literals")
seen.clear()
r.check("t", "t.draws", "s", 300, 7)
print(json.dumps({"before": before, "after": list(seen), "literals": [7919 * k for k in range(400)]}))
"""


def test_a_laws_draws_do_not_depend_on_literals_in_other_modules(qiskit_runtime):
    # Editing one law file must not change what another law explores with the same seed.
    seen = qiskit_runtime(LITERALS)
    assert len(seen["before"]) == 300
    assert seen["after"] == seen["before"]
    assert not set(seen["after"]) & set(seen["literals"][1:])
