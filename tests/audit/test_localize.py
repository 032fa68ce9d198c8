"""Spectrum-based localization: Ochiai scores by hand, and the mapping onto segments of a
real index (the fixture library)."""

import math
import shutil
from pathlib import Path

import pytest
from package_trees import index_tree, write_package

from qusema.units.index_db import IndexDB
from qusema.units.indexer import build_index, parser_tag
from qusema.units.layout import detect_scope
from qusema.verify.localize import CoverageRun, coverage_runs, lent_note, localize, ochiai, without_empty_lent_runs


def test_ochiai_by_hand():
    runs = [
        CoverageRun(passed=False, lines={"a.py": [1, 2, 3]}),
        CoverageRun(passed=True, lines={"a.py": [1, 2]}),
        CoverageRun(passed=True, lines={"a.py": [1]}),
    ]
    scores = ochiai(runs)
    assert scores[("a.py", 3)] == 1.0  # only the failing run executes it
    assert scores[("a.py", 2)] == pytest.approx(1 / math.sqrt(2))
    assert scores[("a.py", 1)] == pytest.approx(1 / math.sqrt(3))


def test_no_failing_run_localizes_nothing():
    assert ochiai([CoverageRun(passed=True, lines={"a.py": [1]})]) == {}


@pytest.fixture
def fixture_index(qfix_root: Path, tmp_path: Path) -> IndexDB:
    tree = tmp_path / "qfix"
    shutil.copytree(qfix_root, tree)
    db = IndexDB(tmp_path / "index.sqlite", parser_tag())
    build_index(tree, db, detect_scope(tree), workers=1)
    return db


def test_localize_picks_the_segment_only_failing_runs_execute(fixture_index: IndexDB):
    # Circuit.append (lines 39-42) runs in every run; Circuit._check (44-46) only fails.
    failing = CoverageRun(passed=False, lines={"qfix/circuit.py": [40, 41, 42, 45, 46]})
    passing = CoverageRun(passed=True, lines={"qfix/circuit.py": [40, 41, 42]})
    cause = localize([failing, passing], fixture_index)
    assert cause is not None
    assert cause.segment == "qfix.circuit.Circuit._check"
    assert (cause.file, cause.start_line, cause.end_line) == ("qfix/circuit.py", 44, 46)
    assert cause.score == 1.0


def test_a_second_failing_input_separates_the_fault_from_code_one_failure_happens_to_run(fixture_index: IndexDB):
    # One failing input runs the faulty Circuit._check and, because of what it is, the
    # label code of Gate.label; the passing neighbour runs neither. With that one failing
    # run the two tie, and only a line count decides. A second failing input
    # of the same law runs _check but builds no label: only the fault keeps the top score.
    failing = CoverageRun(passed=False, lines={"qfix/circuit.py": [27, 40, 45, 46]})
    neighbour = CoverageRun(passed=True, lines={"qfix/circuit.py": [40]})
    variant = CoverageRun(passed=False, lines={"qfix/circuit.py": [40, 45, 46]})
    tied = localize([failing, neighbour], fixture_index)
    assert tied.segment == "qfix.circuit.Circuit._check" and "2 segments tied" in tied.method
    separated = localize([failing, neighbour, variant], fixture_index)
    assert separated.segment == "qfix.circuit.Circuit._check" and "tied" not in separated.method
    assert separated.score == 1.0


def test_a_tie_goes_to_the_segment_nearest_the_entry_api(fixture_index: IndexDB):
    # Both runs execute the same lines of Circuit.append (entry) and Circuit._check (its
    # callee): coverage cannot tell them apart, and _check has more lines at the top score.
    lines = {"qfix/circuit.py": [40, 45, 46]}
    runs = [CoverageRun(passed=False, lines=lines), CoverageRun(passed=True, lines=lines)]
    assert localize(runs, fixture_index).segment == "qfix.circuit.Circuit._check"  # no entry given
    entered = localize(runs, fixture_index, entry=["qfix.circuit.Circuit.append"])
    assert entered.segment == "qfix.circuit.Circuit.append"
    # An entry the tied segments are not reachable from leaves the line count to decide.
    assert localize(runs, fixture_index, entry=["qfix.gates.HGate.__init__"]).segment == "qfix.circuit.Circuit._check"



def test_a_tie_goes_first_to_the_unit_under_audit(fixture_index: IndexDB):
    lines = {"qfix/circuit.py": [40, 45, 46]}
    runs = [CoverageRun(passed=False, lines=lines), CoverageRun(passed=True, lines=lines)]
    entry = ["qfix.circuit.Circuit.append"]
    audited = localize(runs, fixture_index, entry=entry, prefer=frozenset({"qfix.circuit.Circuit._check"}))
    assert audited.segment == "qfix.circuit.Circuit._check"
    assert "the unit under audit chosen over the closest to the API, qfix.circuit.Circuit.append" in audited.method
    # When the preference does not change the choice, the method says so.
    same = localize(runs, fixture_index, entry=entry, prefer=frozenset({"qfix.circuit.Circuit.append"}))
    assert same.segment == "qfix.circuit.Circuit.append"
    assert "the closest to the API chosen (also the unit under audit)" in same.method
    # A preferred unit that is not among the top suspects changes nothing.
    failing = CoverageRun(passed=False, lines={"qfix/circuit.py": [40, 41, 42, 45, 46]})
    passing = CoverageRun(passed=True, lines={"qfix/circuit.py": [40, 41, 42]})
    cause = localize([failing, passing], fixture_index, entry=entry, prefer=frozenset({"qfix.circuit.Circuit.append"}))
    assert cause.segment == "qfix.circuit.Circuit._check"


def test_a_compiled_callee_of_a_suspect_line_stands_in_the_tie(fixture_index: IndexDB):
    # Circuit.shifted (lines 60-61) hands its input to the Rust apply_phase on line 61. A
    # failing and a passing input run exactly that line: the failure depends on data, and the
    # computation it depends on ran in Rust, where line coverage sees nothing.
    rust, wrapper = "qfix_core::phase::apply_phase", "qfix.circuit.Circuit.shifted"
    lines = {"qfix/circuit.py": [61]}
    runs = [CoverageRun(False, lines), CoverageRun(True, lines)]
    plain = localize(runs, fixture_index, entry=[wrapper])
    assert plain.segment == wrapper  # with nothing else to go on, the segment nearest the API
    assert "1 compiled (Rust) callee(s) of suspect lines" in plain.method and rust in plain.method
    audited = localize(runs, fixture_index, entry=[wrapper], prefer=frozenset({rust}))
    assert (audited.segment, audited.file) == (rust, fixture_index.segment(rust).file)
    assert "the segment chosen is compiled code (Rust)" in audited.method
    # A suspect line that calls no compiled code brings no Rust segment into the tie.
    other = [CoverageRun(False, {"qfix/circuit.py": [40, 41]}), CoverageRun(True, {"qfix/circuit.py": [40, 41]})]
    kept = localize(other, fixture_index, entry=["qfix.circuit.Circuit.append"], prefer=frozenset({rust}))
    assert kept.segment == "qfix.circuit.Circuit.append" and "compiled" not in kept.method


def test_a_passing_twin_makes_every_line_the_failure_ran_a_suspect(fixture_index: IndexDB):
    # The failing input and a passing one run exactly the same lines (the same call on other
    # data): the fault is in how one of them computes. A third input, passing, builds no
    # label, so Ochiai alone ranks Gate.label's line above the entry's and _check's — a
    # ranking the twin shows to be coincidence. Every segment the failure ran then ties.
    ran = {"qfix/circuit.py": [27, 40, 41, 42, 45, 46]}
    failing, twin = CoverageRun(passed=False, lines=ran), CoverageRun(passed=True, lines=ran)
    other_path = CoverageRun(passed=True, lines={"qfix/circuit.py": [40, 41, 42, 45, 46]})
    entry = ["qfix.circuit.Circuit.append"]
    assert localize([failing, other_path], fixture_index, entry=entry).segment == "qfix.circuit.Gate.label"
    cause = localize([failing, twin, other_path], fixture_index, entry=entry)
    assert cause.segment == "qfix.circuit.Circuit.append"
    assert "executed exactly the lines of a passing run" in cause.method
    assert "3 segments tied (no score ranks them)" in cause.method
    assert cause.score == pytest.approx(1 / math.sqrt(3), abs=1e-4)  # append's own lines: 1 failing, 2 passing runs
    # Only a failing variant has a twin: the suspects are what every failure ran, never code
    # the reported reproducer did not run (Gate.label, though preferred, is out).
    main = CoverageRun(passed=False, lines={"qfix/circuit.py": [40, 41, 42, 45, 46]})
    variant = CoverageRun(passed=False, lines={"qfix/circuit.py": [27, 40, 41, 42]})
    variant_twin = CoverageRun(passed=True, lines={"qfix/circuit.py": [27, 40, 41, 42]})
    chosen = localize([main, variant, variant_twin], fixture_index, entry=entry,
                      prefer=frozenset({"qfix.circuit.Gate.label"}))
    assert chosen.segment == "qfix.circuit.Circuit.append" and "no score ranks them" not in chosen.method
    # Failing runs that share no line leave the scores to rank.
    apart = localize([CoverageRun(passed=False, lines={"qfix/circuit.py": [27]}),
                      CoverageRun(passed=False, lines={"qfix/circuit.py": [45, 46]}),
                      CoverageRun(passed=True, lines={"qfix/circuit.py": [45, 46]})], fixture_index, entry=entry)
    assert apart.segment == "qfix.circuit.Gate.label" and "exactly the lines" not in apart.method
    # A passing run that ran one more line is no twin: Ochiai ranks as before.
    near = CoverageRun(passed=True, lines={"qfix/circuit.py": [27, 40, 41, 42, 44, 45, 46]})
    assert localize([failing, near, other_path], fixture_index, entry=entry).segment == "qfix.circuit.Gate.label"


MESSAGE_PACKAGE = {
    "__init__.py": "from msgpkg.core import compute, render\n",
    "core.py": "def compute(x):\n    return x + 1\n\n\ndef render(value):\n    return f'<{value}>'\n",
}
# The assertion message renders the result with the library: only a failing run executes render.
FAILING = "from msgpkg import compute, render\nr = compute(1)\nassert r == 3, f'got {render(r)}'\n"
PASSING = "from msgpkg import compute, render\nr = compute(2)\nassert r == 3, f'got {render(r)}'\n"


def test_assertion_messages_are_not_part_of_the_spectrum(tmp_path: Path, monkeypatch):
    import sys

    from qusema.verify.localize import coverage_runs

    for name, text in MESSAGE_PACKAGE.items():
        (tmp_path / "msgpkg").mkdir(exist_ok=True)
        (tmp_path / "msgpkg" / name).write_text(text)
    sandbox_dir = Path(__file__).resolve().parents[2] / "sandbox"
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.syspath_prepend(str(sandbox_dir))
    import contract_runtime

    def trace(code: str) -> dict:
        return contract_runtime.trace_lines(code, "msgpkg")

    # Traced as written, the failing run's message executes render (core.py line 6): the
    # spectrum would single it out.
    assert 6 in trace(FAILING)["lines"]["msgpkg/core.py"]
    runs = coverage_runs(trace, FAILING, [PASSING])
    assert [r.passed for r in runs] == [False, True]  # the verdicts are unchanged
    assert all(6 not in r.lines.get("msgpkg/core.py", []) for r in runs)
    assert all(2 in r.lines["msgpkg/core.py"] for r in runs)  # compute runs in both
    sys.modules.pop("msgpkg", None), sys.modules.pop("msgpkg.core", None)


INPUT_PACKAGE = {
    "__init__.py": "from inpkg.core import make, total\n",
    "core.py": ("def make(values, weighted=False):\n"
                "    if weighted:\n"
                "        values = [2 * v for v in values]\n"
                "    return list(values)\n\n\n"
                "def total(values):\n"
                "    result = 0\n"
                "    for v in values[1:]:  # the defect: the first value is left out\n"
                "        result += v\n"
                "    return result\n"),
}
# Failing inputs happen to be built with weighted=True: `make`'s branch runs only in failing
# runs, though the defect is in `total`, which runs the same lines in every run.
FAILING_INPUT = "from inpkg import make, total\nv = make([1, 2], weighted=True)\nassert total(v) == sum(v)\n"
PASSING_INPUTS = ["from inpkg import make, total\nv = make([0, 5])\nassert total(v) == sum(v)\n",
                  "from inpkg import make, total\nv = make([0])\nassert total(v) == sum(v)\n"]


def _real_package(tmp_path: Path, monkeypatch, name: str, files: dict[str, str]):
    """The Stage I index of a package written from `files`, and the sandbox's own tracer
    for it (code -> what trace_lines reports), with the package importable."""
    tree = write_package(tmp_path / name, {f"{name}/{relative}": text for relative, text in files.items()})
    db = index_tree(tree, tmp_path / "index.sqlite")
    monkeypatch.syspath_prepend(str(tree))
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[2] / "sandbox"))
    import contract_runtime

    return db, lambda code: contract_runtime.trace_lines(code, name)


def test_the_spectrum_is_narrowed_to_the_call_of_the_api_under_test(tmp_path: Path, monkeypatch):
    from qusema.verify.localize import coverage_runs, under_entry

    db, trace = _real_package(tmp_path, monkeypatch, "inpkg", INPUT_PACKAGE)

    runs = coverage_runs(trace, FAILING_INPUT, PASSING_INPUTS)
    assert [r.passed for r in runs] == [False, True, True]
    # The whole spectrum blames the input's construction.
    assert localize(runs, db).segment == "inpkg.core.make"
    # Narrowed to what the call of total executed, the tie goes to total itself.
    narrowed = under_entry(runs, db, ["inpkg.core.total"])
    assert all(set(r.lines) == {"inpkg/core.py"} and min(r.lines["inpkg/core.py"]) >= 8 for r in narrowed)
    assert localize(narrowed, db, entry=["inpkg.core.total"]).segment == "inpkg.core.total"
    # An entry the failing run never called leaves the spectrum whole.
    assert under_entry(runs, db, ["inpkg.core.nothing"]) == runs
    # A passing run lent by another subject that only called `make` is no evidence about
    # `total`: narrowing drops it; an own passing run that called `total` stays.
    lent = coverage_runs(trace, FAILING_INPUT, [],
                         lent=[("builder", "from inpkg import make\nassert make([1]) == [1]\n"),
                               ("summer", PASSING_INPUTS[0])])
    assert [r.lent_from for r in lent] == [None, "builder", "summer"]
    assert [r.lent_from for r in under_entry(lent, db, ["inpkg.core.total"])] == [None, "summer"]


DEVICE_PACKAGE = {
    "__init__.py": "from devpkg.core import device\n",
    "core.py": ("class Device:\n"
                "    def __init__(self, seed):\n"
                "        self.seed = seed\n\n"
                "    def draw(self, n):\n"
                "        return [self.seed] * n  # the defect: every draw is the seed\n\n\n"
                "def device(seed):\n"
                "    return Device(seed)\n"),
}
# Every input fails (no passing run), and the defect runs after the API's own call returned.
DEVICE_FAILING = "from devpkg import device\nd = device(3)\nassert len(set(d.draw(4))) > 1\n"


def test_a_unit_under_audit_outside_the_apis_call_is_found_in_the_whole_spectrum(tmp_path: Path, monkeypatch):
    from qusema.audit import AuditConfig, _AuditContext, _root_cause
    from qusema.verify.localize import coverage_runs

    db, trace = _real_package(tmp_path, monkeypatch, "devpkg", DEVICE_PACKAGE)

    runs = coverage_runs(trace, DEVICE_FAILING, [])
    entry = ["devpkg.core.device"]

    def context(focus: frozenset[str]) -> _AuditContext:
        return _AuditContext(AuditConfig("devpkg==0.1"), env=None, db=db, contracts={}, run_id="r",
                             focus_units=focus)

    # Unfocused: the spectrum is narrowed to the call of device(), and the tie goes to it.
    assert _root_cause(context(frozenset()), runs, "devpkg.device", entry).segment == "devpkg.core.device"
    # Asked to look at Device.draw, which ran in the failing run after device() returned.
    cause = _root_cause(context(frozenset({"devpkg.core.Device.draw"})), runs, "devpkg.device", entry)
    assert cause.segment == "devpkg.core.Device.draw"
    assert "whole spectrum" in cause.method
    # A unit under audit the failing run never executed is never blamed.
    other = _root_cause(context(frozenset({"devpkg.core.Device.missing"})), runs, "devpkg.device", entry)
    assert other.segment == "devpkg.core.device"


def test_only_lent_runs_that_pass_are_kept_and_a_lent_run_outside_the_api_call_is_dropped():
    # What the sandbox's tracer reports, per reproducer: the failing input, a lent input of
    # another subject that passes, one that fails (another subject's own failure is not this
    # failure's spectrum), and one that raised.
    traced = {"fail": {"passed": False, "lines": {"m.py": [1, 2]}},
              "lent-pass": {"passed": True, "lines": {"m.py": [1]}},
              "lent-fail": {"passed": False, "lines": {"m.py": [1, 2, 3]}},
              "lent-raised": {"passed": None, "lines": {}}}
    runs = coverage_runs(lambda code: traced[code], "fail", [], [],
                         [("a", "lent-pass"), ("b", "lent-fail"), ("c", "lent-raised")])
    assert [(r.passed, r.lent_from) for r in runs] == [(False, None), (True, "a")]
    assert "1 passing run(s) lent by the law's other subjects (a)" in lent_note(runs)
    assert lent_note(runs[:1]) == ""
    # Narrowed to the API's call, a lent run entering another API ran none of its lines:
    # it is no passing evidence, and an own passing run with no lines is kept as it was.
    narrowed = [CoverageRun(False, {"m.py": [2]}), CoverageRun(True, {}, lent_from="a"), CoverageRun(True, {})]
    assert without_empty_lent_runs(narrowed) == [narrowed[0], narrowed[2]]
    assert narrowed[1].within([("m.py", 1, 9)]).lent_from == "a"  # narrowing keeps the lender


TALLY_PACKAGE = {
    "__init__.py": "from tallypkg.core import Relabel, Tally\n",
    "core.py": ("class Relabel:\n"
                "    def __init__(self, wires, values):\n"
                "        self._wires = wires\n"
                "        self.values = values\n\n"
                "    @property\n"
                "    def wires(self):\n"
                "        return self._wires\n\n\n"
                "class Tally:\n"
                "    def __init__(self, wires=None, relabel=None):\n"
                "        self.relabel = relabel\n"
                "        self._wires = wires\n\n"
                "    @property\n"
                "    def wires(self):\n"
                "        if self.relabel is not None:\n"
                "            return self.relabel.wires\n"
                "        return self._wires\n\n"
                "    def process(self, counts):\n"
                "        out = {}\n"
                "        for key, n in counts.items():\n"
                "            bits = key[: len(self.wires)]\n"
                "            out[bits] = out.get(bits, 0) + n  # the defect: relabel.values never used\n"
                "        return out\n"),
}
TALLY_FAILING = ("from tallypkg import Relabel, Tally\n"
                 "t = Tally(relabel=Relabel([0], {'0': 1, '1': -1}))\n"
                 "assert t.process({'0': 3, '1': 1}) == {1: 3, -1: 1}\n")
TALLY_PASSING = ["from tallypkg import Tally\nassert Tally(wires=[0]).process({'0': 3, '1': 1}) == {'0': 3, '1': 1}\n",
                 "from tallypkg import Tally\nassert Tally(wires=[0]).process({'1': 2}) == {'1': 2}\n"]


def test_lines_that_only_hand_on_a_stored_value_are_not_suspects(tmp_path: Path, monkeypatch):
    # An omission: process never applies the relabelling. What only the failing input runs
    # is the two getters of the relabelling's wires, which compute nothing; the code that
    # should have used the values ran in the passing runs too.
    from qusema.verify.localize import under_entry

    db, trace = _real_package(tmp_path, monkeypatch, "tallypkg", TALLY_PACKAGE)

    runs = coverage_runs(trace, TALLY_FAILING, TALLY_PASSING)
    assert [r.passed for r in runs] == [False, True, True]
    entry = ["tallypkg.core.Tally.process"]
    narrowed = under_entry(runs, db, entry)
    # The getters' return lines are the only lines with Ochiai 1.0: plain Ochiai blames a getter.
    top = {key for key, score in ochiai(narrowed).items() if score == 1.0}
    assert top == {("tallypkg/core.py", 8), ("tallypkg/core.py", 19)}
    cause = localize(narrowed, db, entry=entry)
    assert cause.segment == "tallypkg.core.Tally.process"
    assert "2 line(s) ranked at or above the line blamed only forward" in cause.method
    assert cause.score == pytest.approx(1 / math.sqrt(3), abs=1e-4)  # ran in all three runs


SHORTCUT_PACKAGE = {
    "__init__.py": "from shortpkg.core import Op\n",
    "core.py": ("class Op:\n"
                "    def __init__(self, angle):\n"
                "        self.angle = angle\n\n"
                "    def simplify(self):\n"
                "        if self.angle % 1 == 0:\n"
                "            return self  # the defect: a whole turn should reduce to 0\n"
                "        return Op(self.angle % 1)\n\n"
                "    def run(self):\n"
                "        return self.simplify().angle\n"),
}


def test_an_early_return_behind_a_computed_condition_stays_a_suspect(tmp_path: Path, monkeypatch):
    # `return self` forwards stored data too, but the branch it ends is decided by a
    # computation: the fault may be the condition, and it is here.
    db, trace = _real_package(tmp_path, monkeypatch, "shortpkg", SHORTCUT_PACKAGE)
    runs = coverage_runs(trace, "from shortpkg import Op\nassert Op(2).run() == 0\n",
                         ["from shortpkg import Op\nassert Op(2.5).run() == 0.5\n",
                          "from shortpkg import Op\nassert Op(0.25).run() == 0.25\n"])
    assert [r.passed for r in runs] == [False, True, True]
    cause = localize(runs, db, entry=["shortpkg.core.Op.run"])
    assert cause.segment == "shortpkg.core.Op.simplify" and cause.score == 1.0
    assert "forward stored data" not in cause.method


def test_forwarding_lines_are_suspects_again_under_a_twin_and_when_nothing_else_is_left(tmp_path: Path,
                                                                                         monkeypatch):
    db, _ = _real_package(tmp_path, monkeypatch, "tallypkg", TALLY_PACKAGE)
    getter, process = ("tallypkg/core.py", 8), ("tallypkg/core.py", 26)
    # A passing twin ran the same lines: every segment the failure ran ties, getters
    # included, and the unit under audit wins the tie.
    lines = {"tallypkg/core.py": [getter[1], process[1]]}
    twin = [CoverageRun(passed=False, lines=lines), CoverageRun(passed=True, lines=lines)]
    cause = localize(twin, db, prefer=frozenset({"tallypkg.core.Relabel.wires"}))
    assert cause.segment == "tallypkg.core.Relabel.wires" and "no score ranks them" in cause.method
    # Only getter lines failed alone, and no line of another segment ran: the getter is blamed.
    alone = [CoverageRun(passed=False, lines={"tallypkg/core.py": [getter[1]]}),
             CoverageRun(passed=True, lines={"tallypkg/core.py": []})]
    assert localize(alone, db).segment == "tallypkg.core.Relabel.wires"
    # A getter line tied with a computing line at the top is set aside, and the method says so.
    tied = [CoverageRun(passed=False, lines={"tallypkg/core.py": [getter[1], process[1]]}),
            CoverageRun(passed=True, lines={"tallypkg/core.py": [25]})]
    cause = localize(tied, db, prefer=frozenset({"tallypkg.core.Relabel.wires"}))
    assert cause.segment == "tallypkg.core.Tally.process"
    assert "1 line(s) ranked at or above the line blamed only forward" in cause.method


@pytest.mark.parametrize("body, forwarding", [
    ("return self._wires", [1]),
    ('"""The wires."""\nreturn self.obs.wires', [2]),
    ("if self.obs is not None:\n    return self.obs.wires\nreturn self._wires", [2]),
    ("if self.obs:\n    return self.obs\nreturn self._wires", [2]),
    ("if self.mv is None:\n    pass\nelif self.obs is not None:\n    return self.obs.wires\nreturn 0", [4]),
    ("# a comment at column 0 of the file\nreturn self._wires", [2]),  # the text cannot be dedented
    ("return self", []),  # a decision: an operator that is its own adjoint
    ("return out", []),
    ("if self.angle % 1 == 0:\n    return self\nreturn Op(0)", []),  # a computed condition
    ("if self.inverse:\n    return self._matrix\nreturn self._matrix.T", []),  # a flag, not a presence test
    ("if self.cache is None:\n    return self.default\nreturn self.cache", []),  # returns something else
    ("for op in self.ops:\n    if op.wires:\n        return op.wires\nreturn None", []),  # ends a search
    ("def inner(op):\n    if op.params:\n        return op.params\nreturn inner(self)", []),  # nested
    ("return self._wires[::-1]", []),  # computes: a slice
    ('return self.hyperparameters["base"]', [1]),  # a stored entry under a constant key
    ("return self.data[0]", []),  # an index is a choice (control or target wire)
    ("return self.data[i]", []),  # a computed index
    ("return self.data[-1]", []),  # an expression, not a constant
    ('if self._h is not None:\n    return self._h["base"]\nreturn None', [2]),
    ("return len(self.wires)", []),
    ("x = self._wires\nreturn x", []),  # not an accessor: two statements
    ("return (\n    self._wires\n)", []),  # spans lines
    # a lazily filled default: the constant depends on no input
    ('if hasattr(self, "_h"):\n    return self._h\nself._h = {}\nreturn self._h', [1, 2, 3, 4]),
    ('x = 1\nif hasattr(self, "_h"):\n    return self._h\nself._h = {}\nreturn self._h', [3, 4, 5]),
    ("if self._h is None:\n    self._h = []\nreturn self._h", [1, 2, 3]),
    ('if not hasattr(self, "_h"):\n    self._h = dict()\nreturn self._h', [1, 2, 3]),
    ("if self._h is not None:\n    return self._h\nself._h = None\nreturn self._h", [1, 2, 3, 4]),
    ("if self._h is None:\n    self._h = self.compute()\nreturn self._h", []),  # computed: a suspect
    ("if self._h is None:\n    self._h = {}\nreturn self._g", []),  # returns another chain
    ("if self._h is not None:\n    self._h = {}\nreturn self._h", []),  # resets a present value
    ("if self._h is None:\n    return self._h\nself._h = {}\nreturn self._h", [2]),  # resets a present value
    ("if self._h:\n    log(self._h)\nself._h = {}\nreturn self._h", []),  # always resets
    ("if self._h is None:\n    self._h = [1]\nreturn self._h", []),  # only empty containers count
    ('if hasattr(self, name):\n    return self._h\nself._h = {}\nreturn self._h', []),  # a computed name: not a presence test
    # the default's guard is not the function's first statement: that one may be the fault
    ("if self.flag:\n    self.reset()\nif self._h is None:\n    self._h = {}\nreturn self._h", [4, 5]),
    ("if not self._h is None:\n    self._h = {}\nreturn self._h", []),  # tests presence: a reset
    ("if self._shots:\n    return self._shots\nself._shots = 1000\nreturn self._shots", [2]),  # a number is a choice
    ("if not self._shots:\n    self._shots = []\nreturn self._shots", []),  # truthiness: replaces shots=0
    ("if self._shots is None:\n    self._shots = 1000\nreturn self._shots", []),
    ("if self._flag is None:\n    self._flag = True\nreturn self._flag", []),
    ("if (\n    self._h is None\n):\n    self._h = {}\nreturn self._h", [4, 5]),  # a wrapped test: its line is not one
    # behind a test for absence only the tested value itself is handed on
    ("if self.obs is None:\n    return self.obs\nreturn 0", [2]),
    ("if self.obs is None:\n    return self.obs.wires\nreturn 0", []),
    ('if not hasattr(self, "_h"):\n    return self._h\nreturn 0', []),
])
def test_which_lines_only_forward_stored_data(body: str, forwarding: list[int]):
    from qusema.units.records import Segment
    from qusema.verify.localize import _forwarding_lines

    # A method as the index stores it: from its first decorator, indented as in its class.
    # The decorator is line 10 of the file, the def line 11, the first body line 12.
    lines = ["    @property", "    def f(self):"] + [
        ("" if line.startswith("# a comment at column 0") else "        ") + line for line in body.split("\n")]
    segment = Segment(qualname="m.C.f", language="python", kind="method", name="f", file="m.py", start_line=10,
                      end_line=10 + len(lines) - 1, signature="def f(self)", source="\n".join(lines))
    assert _forwarding_lines(segment) == {11 + n for n in forwarding}


def test_a_stored_text_that_does_not_match_the_file_numbering_forwards_nothing():
    from qusema.units.records import Segment
    from qusema.verify.localize import _forwarding_lines

    text = "    def f(self):\n        return self._wires"
    aligned = Segment(qualname="m.C.f", language="python", kind="method", name="f", file="m.py", start_line=5,
                      end_line=6, signature="def f(self)", source=text)
    assert _forwarding_lines(aligned) == {6}
    # A window cut one line too early (as a parser that counted a form feed as a line end
    # did): the text no longer starts with the function, and no line of it is trusted.
    shifted = Segment(qualname="m.C.f", language="python", kind="method", name="f", file="m.py", start_line=5,
                      end_line=7, signature="def f(self)", source="    x = 1\n" + text)
    assert _forwarding_lines(shifted) == set()
    other = Segment(qualname="m.C.g", language="python", kind="method", name="g", file="m.py", start_line=5,
                    end_line=6, signature="def g(self)", source=text)
    assert _forwarding_lines(other) == set()


def test_a_compiled_api_with_no_python_suspect_is_localized_to_its_rust_entry(qfix_root: Path, tmp_path: Path):
    from qusema.audit import AuditConfig, _AuditContext, _root_cause

    db = index_tree(qfix_root, tmp_path / "index.sqlite")
    context = _AuditContext(AuditConfig("qfix==0.1"), env=None, db=db, contracts={}, run_id="r")
    rust, python = "qfix_core::phase::apply_phase", "qfix.circuit.Circuit.shifted"
    assert db.segment(rust).language == "rust" and db.segment(python).language == "python"
    # The failing and the passing input ran the same Python lines, none of them in a segment
    # (module-level code): coverage names no suspect.
    silent = [CoverageRun(False, {"qfix/__init__.py": [1, 2]}), CoverageRun(True, {"qfix/__init__.py": [1, 2]})]
    cause = _root_cause(context, silent, "qfix.apply_phase", [rust])
    assert (cause.segment, cause.file, cause.score) == (rust, db.segment(rust).file, 0.0)
    assert "compiled code (Rust)" in cause.method
    # A Python API with the same silent spectrum stays without a root cause.
    assert _root_cause(context, silent, "qfix.Circuit.shifted", [python]) is None
    # A Python line only the failing run executed is the suspect, Rust entry or not (a line
    # that calls no compiled code: one that does brings its callee into the tie, see
    # test_a_compiled_callee_of_a_suspect_line_stands_in_the_tie).
    append = "qfix.circuit.Circuit.append"
    start = db.segment(append).start_line
    spoken = [CoverageRun(False, {"qfix/circuit.py": [start + 1]}), CoverageRun(True, {"qfix/__init__.py": [1]})]
    assert _root_cause(context, spoken, "qfix.apply_phase", [rust]).segment == append
