"""Spectrum-based fault localization: which library segment does the failing input run
that the passing inputs do not? Line coverage of the failing reproducer and of passing
variants (the same law on inputs where it held), scored with Ochiai, mapped onto Stage I
segments."""

from __future__ import annotations

import ast
import math
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field

from qusema.defects import RootCause
from qusema.units.call_graph import call_distances
from qusema.units.index_db import IndexDB
from qusema.units.records import Segment
from qusema.units.segment_locator import SegmentLocator

Coverage = dict[str, list[int]]  # library file -> executed lines


@dataclass(frozen=True)
class CoverageRun:
    passed: bool
    lines: Coverage
    # The same lines by the library call they ran under ("<file>:<first line>" of the call
    # entered from the reproducer's own code).
    calls: dict[str, Coverage] = field(default_factory=dict)
    # The other subject of the law a passing run was lent by (see `coverage_runs`), or None
    # for the failing input's own subject.
    lent_from: str | None = None

    def within(self, spans: list[tuple[str, int, int]]) -> CoverageRun:
        """Only the lines run under calls into the given (file, first line, last line) spans."""
        lines: dict[str, set[int]] = {}
        for key, coverage in self.calls.items():
            file, _, first = key.rpartition(":")
            if any(file == f and start <= int(first) <= end for f, start, end in spans):
                for name, numbers in coverage.items():
                    lines.setdefault(name, set()).update(numbers)
        return CoverageRun(self.passed, {f: sorted(v) for f, v in lines.items()}, lent_from=self.lent_from)


def ochiai(runs: list[CoverageRun]) -> dict[tuple[str, int], float]:
    """score(line) = failed(line) / sqrt(total failed * (failed(line) + passed(line)))."""
    total_failed = sum(1 for r in runs if not r.passed)
    if total_failed == 0:
        return {}
    failed: dict[tuple[str, int], int] = {}
    passed: dict[tuple[str, int], int] = {}
    for run in runs:
        counter = passed if run.passed else failed
        for file, lines in run.lines.items():
            for line in lines:
                counter[(file, line)] = counter.get((file, line), 0) + 1
    return {key: count / math.sqrt(total_failed * (count + passed.get(key, 0))) for key, count in failed.items()}


def under_entry(runs: list[CoverageRun], db: IndexDB, entry: list[str]) -> list[CoverageRun]:
    """The spectrum of the API under test only: each run's lines executed under calls into
    the entry segments. The reproducer also runs library code to build the input and to
    compute the expected value, and inputs that fail differ from inputs that pass (an
    observable instead of wires), so that code would otherwise single itself out. Kept whole
    when the failing run made no such call (the entry was reached some other way). A lent
    passing run that made no such call (a subject entering another API) is dropped: it
    would count as passing evidence about this API without being any."""
    spans = [(s.file, s.start_line, s.end_line) for s in (db.segment(q) for q in entry) if s is not None]
    narrowed = [run.within(spans) for run in runs]
    if not any(run.lines for run in narrowed if not run.passed):
        return runs
    return without_empty_lent_runs(narrowed)


# The words a root cause's `method` uses when the tie-break toward the audited units changed
# the attribution (qusema.bench.table counts such scores apart).
TIE_TO_FOCUS = "the unit under audit chosen"


def localize(runs: list[CoverageRun], db: IndexDB, entry: list[str] | None = None,
             prefer: frozenset[str] = frozenset(), twins: bool = True) -> RootCause | None:
    """The segment holding the most suspicious lines. Segments tied at that score ran in
    exactly the same runs, so coverage cannot tell them apart: the tie goes first to a
    segment in `prefer` (the units an audit was asked to look at: among suspects the
    evidence cannot separate, the hypothesis being tested was about those), then to the one
    fewest calls from the entry segments (`entry`, the reproducer's public API) — the
    root cause is the first segment along the call chain that turns valid input into a
    wrong output, and shared machinery every run passes through is a worse guess than the
    entry's own code — then to the one with more lines at that score. A preferred segment
    never wins against a higher score.

    Without a twin, lines that only forward stored data are not suspects (see
    `_forwarding_lines`).

    With `twins`, when a failing run has a passing twin (see `twinned_failures`) the scores
    do not rank: every segment all failing runs executed is tied, and the same tie-break
    decides. The score reported is then the chosen segment's own, not a rank."""
    scores = ochiai(runs)
    if not scores:
        return None
    locator = SegmentLocator(db)
    twinned = twinned_failures(runs) if twins else []
    # With a passing twin, a line every failing run executed is as suspicious as any other
    # such line (the fault runs in every failure); their Ochiai values only say which other
    # passing inputs took other paths.
    tied = (set.intersection(*(_line_set(run) for run in runs if not run.passed and run.lines)) if twinned
            else set())
    set_aside = 0  # forwarding lines set aside that ranked at or above every line kept
    if not tied:
        twinned = []
        scores, set_aside = _without_forwarding(scores, db, locator)
        top = max(scores.values())
        tied = {key for key, score in scores.items() if score >= top - 1e-12}
    # qualname -> (file, start, end, lines in the tied set, the segment's best score)
    by_segment: dict[str, tuple[str, int, int, int, float]] = {}
    for file, line in tied:
        segment = locator.at(file, line)
        if segment is None:
            continue
        start, end, qualname = segment
        _, _, _, count, best = by_segment.get(qualname, (file, start, end, 0, 0.0))
        by_segment[qualname] = (file, start, end, count + 1, max(best, scores[(file, line)]))
    if not by_segment:
        return None
    compiled = _compiled_callees(tied, scores, db, locator)
    for qualname, row in compiled.items():
        by_segment.setdefault(qualname, row)
    distance = call_distances(db, entry) if entry else {}
    far = len(distance) + 1
    def closest(kv: tuple[str, tuple[str, int, int, int, float]]) -> tuple:
        return distance.get(kv[0], far), -kv[1][3], kv[1][2] - kv[1][1]

    qualname, (file, start, end, _, score) = min(by_segment.items(),
                                                key=lambda kv: (kv[0] not in prefer, *closest(kv)))
    method = (f"ochiai over line coverage of {sum(not r.passed for r in runs)} failing and "
              f"{sum(r.passed for r in runs)} passing runs")
    if set_aside:
        method += (f"; {set_aside} line(s) ranked at or above the line blamed only forward stored data (an "
                   "accessor's `return self.x`, such a return behind a presence test, or a lazily filled default of None or "
                   "an empty container) and were set aside: that "
                   "they ran says what the failing input holds, not what computed wrongly")
    if twinned:
        method += (f"; {len(twinned)} failing run(s) executed exactly the lines of a passing run, so the failure "
                   "depends on data, not on which lines run, and every segment all failing runs executed is a "
                   "suspect")
    if qualname in compiled:
        method += ("; the segment chosen is compiled code (Rust) called through PyO3 from a suspect line; line "
                   "coverage cannot see into it, so it stands in the tie with the score of that call line")
    elif compiled:
        names = ", ".join(sorted(compiled)[:3]) + (", ..." if len(compiled) > 3 else "")
        method += (f"; {len(compiled)} compiled (Rust) callee(s) of suspect lines stood in the tie with the score of "
                   f"their call lines ({names}): line coverage cannot see into them")
    if len(by_segment) > 1:
        # Say how the tie was broken, and what the preference changed, so a reader can weigh
        # the attribution.
        without_preference = min(by_segment.items(), key=closest)[0]
        if without_preference != qualname:
            rule = f"{TIE_TO_FOCUS} over the closest to the API, {without_preference}"
        else:
            rule = "the closest to the API chosen" + (" (also the unit under audit)" if qualname in prefer else "")
        tie = "(no score ranks them)" if twinned else "at the top score"
        method += f"; {len(by_segment)} segments tied {tie}, {rule}"
    return RootCause(segment=qualname, file=file, start_line=start, end_line=end, score=round(score, 4),
                     method=method)


def _compiled_callees(tied: set[tuple[str, int]], scores: dict[tuple[str, int], float], db: IndexDB,
                      locator: SegmentLocator) -> dict[str, tuple[str, int, int, int, float]]:
    """The Rust segments that suspect Python lines call through PyO3, as `localize`'s
    by-segment rows. Line coverage records the call line and nothing of the compiled callee,
    though the callee ran exactly when that line did: it is as suspect as the line, and a
    Python wrapper that hands its input to Rust would otherwise take the blame for the Rust
    computation. (An API that is itself compiled code is `qusema.audit._compiled_entry`'s case.)"""
    rows: dict[str, tuple[str, int, int, int, float]] = {}
    calls: dict[str, dict[int, list[str]]] = {}
    for file, line in tied:
        span = locator.at(file, line)
        if span is None:
            continue
        caller = span[2]
        if caller not in calls:
            by_line: dict[int, list[str]] = {}
            for site in db.calls_from(caller):
                if site.status == "resolved" and site.via == "pyo3" and site.target:
                    by_line.setdefault(site.line, []).append(site.target)
            calls[caller] = by_line
        for target in calls[caller].get(line, []):
            segment = db.segment(target)
            if segment is None or segment.language != "rust":
                continue
            _, _, _, count, best = rows.get(target, (segment.file, 0, 0, 0, 0.0))
            rows[target] = (segment.file, segment.start_line, segment.end_line, count + 1,
                            max(best, scores.get((file, line), 0.0)))
    return rows


def _without_forwarding(scores: dict[tuple[str, int], float], db: IndexDB,
                        locator: SegmentLocator) -> tuple[dict[tuple[str, int], float], int]:
    """`scores` less the lines that only forward stored data (see `_forwarding_lines`), and
    how many of those ranked at or above the best line kept. Unchanged when that would leave
    no line inside a segment to blame."""
    spans = {key: locator.at(*key) for key in scores}
    forwarding: dict[str, set[int]] = {}
    for key, span in spans.items():
        if span is not None and span[2] not in forwarding:
            forwarding[span[2]] = _forwarding_lines(db.segment(span[2]))
    moved = {key for key, span in spans.items() if span is not None and key[1] in forwarding[span[2]]}
    kept = {key: score for key, score in scores.items() if key not in moved}
    if not moved or not kept:
        return scores, 0
    top_kept = max(kept.values())
    if all(spans[key] is None for key, score in kept.items() if score >= top_kept - 1e-12):
        return scores, 0  # the top would be lines outside every segment: nothing to blame
    return kept, sum(scores[key] >= top_kept - 1e-12 for key in moved)


def _forwarding_lines(segment: Segment | None) -> set[int]:
    """The lines of a Python function that only hand on data the input already holds: the
    single `return self.x.y` (or `return self.x["key"]`) of an accessor, and a `return` of a
    tested chain or of a chain extending it as the whole branch of a presence test (`if
    self.obs is not None: return self.obs.wires`), in the function's own branches (not in
    loops, where a return ends a search, nor in nested functions). They compute nothing.
    When only failing inputs run them, they say what those inputs hold (an observable
    instead of wires); the fault is in the code that uses, or fails to use, that part, and
    it ran for passing inputs too, so Ochiai ranks it lower. Not forwarding: `return self` (a
    decision, as in an `adjoint` that returns its operator), a return behind a computed
    condition or a flag (`if angle % 1 == 0: return self`, `if self.inverse: return
    self._matrix`) — the condition may be the fault.

    A lazily filled default is forwarding too: after a test for None or hasattr, an
    assignment of None or an empty container to the tested chain and the return of that
    chain (`if hasattr(self, "_h"): return self._h` / `self._h = {}` / `return self._h`, or
    `if self._h is None: self._h = {}` / `return self._h`). The default depends on no input;
    that it ran says only that the input had no value of its own there. When that is the
    whole function, its presence test is forwarding too."""
    parsed = _parsed_function(segment) if segment is not None and segment.language == "python" else None
    if parsed is None:
        return set()
    function, offset = parsed
    body = [statement for statement in function.body if not _is_docstring(statement)]
    returns = []
    if (len(body) == 1 and isinstance(body[0], ast.Return)
            and isinstance(body[0].value, (ast.Attribute, ast.Subscript))
            and _chain(body[0].value)):
        returns.append(body[0])
    for branch in _branches(function.body):
        tested, present, kind = _presence(branch.test)
        if tested and len(branch.body) == 1 and isinstance(branch.body[0], ast.Return):
            returned = _chain(branch.body[0].value)
            # Behind a test for absence only the tested value itself (None, or a falsy
            # value) is handed on: a part of it, or an attribute hasattr found missing,
            # would raise.
            if returned and (returned[:len(tested)] == tested if present else
                             returned == tested and kind != "hasattr"):
                returns.append(branch.body[0])
    lazy, guard = _lazy_default(body)
    returns += lazy
    if (guard is not None and guard is body[0] and len(body) == (2 if guard is body[-2] else 3)
            and guard.test.end_lineno == guard.lineno):
        # The whole function is the lazy default: its presence test decides nothing but
        # whether the input had a value of its own. (A test wrapped over lines is reported
        # on the `if` line, which the test expression does not start on.)
        returns.append(guard.test)
    return {segment.start_line + node.lineno - 1 - offset for node in returns if node.end_lineno == node.lineno}


def _lazy_default(body: list[ast.stmt]) -> tuple[list[ast.stmt], ast.If | None]:
    """The default assignment and the final return of a lazily filled default at the end of
    a function's own body (see `_forwarding_lines`), and the `if` that guards them; ([],
    None) for any other shape. The guard must test for None or hasattr: a truthiness test
    would also replace a present but falsy value (shots=0 read as unset)."""
    if len(body) < 2 or not isinstance(body[-1], ast.Return):
        return [], None
    returned = _chain(body[-1].value)
    before = body[-2]
    if (isinstance(before, ast.If) and not before.orelse and len(before.body) == 1
            and _presence(before.test) in ((returned, False, "none"), (returned, False, "hasattr"))
            and _default_assignment(before.body[0], returned) and before.body[0].end_lineno == before.body[0].lineno):
        return [before.body[0], body[-1]], before  # if <absent>: x = {}  /  return x
    guard = body[-3] if len(body) >= 3 else None
    # The early branch must itself return the chain: a default assigned after any other
    # branch resets a value the input had, which may be the fault.
    if (isinstance(guard, ast.If) and not guard.orelse and len(guard.body) == 1
            and isinstance(guard.body[0], ast.Return) and _chain(guard.body[0].value) == returned
            and _presence(guard.test) in ((returned, True, "none"), (returned, True, "hasattr"))
            and _default_assignment(before, returned) and before.end_lineno == before.lineno):
        return [before, body[-1]], guard  # if <present>: return x  /  x = {}  /  return x
    return [], None


def _default_assignment(statement: ast.stmt, chain: tuple[str, ...]) -> bool:
    """Whether `statement` is `<chain> = None` or `<chain> = <an empty container>`. Another
    constant (a number, a flag) is a choice the fault may be."""
    if not chain or not isinstance(statement, ast.Assign) or len(statement.targets) != 1:
        return False
    value = statement.value
    default = ((isinstance(value, ast.Constant) and value.value is None)
               or (isinstance(value, (ast.Dict, ast.List, ast.Tuple, ast.Set))
                   and not getattr(value, "keys", None) and not getattr(value, "elts", None))
               or (isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and not value.args
                   and not value.keywords and value.func.id in ("dict", "list", "set", "tuple")))
    return default and _chain(statement.targets[0]) == chain


def _parsed_function(segment: Segment) -> tuple[ast.FunctionDef | ast.AsyncFunctionDef, int] | None:
    """The segment's function parsed from its stored text, and how many lines were put
    before the text to parse it; None when the text is not exactly that function (the
    stored window and the file's numbering disagree, as they did in indexes whose parser
    counted a form feed as a line end)."""
    text = segment.source
    count = text.count("\n") + 1
    if count != segment.end_line - segment.start_line + 1:
        return None
    offset = 1 if text[:1].isspace() else 0  # a method: parse it inside a block of its own indentation
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # invalid escape sequences are the library's own business
        try:
            tree = ast.parse("if True:\n" + text if offset else text)
        except SyntaxError:
            return None
    nodes = tree.body[0].body if offset else tree.body
    function = nodes[0] if nodes and isinstance(nodes[0], (ast.FunctionDef, ast.AsyncFunctionDef)) else None
    if function is None or function.name != segment.name:
        return None
    first = min([decorator.lineno for decorator in function.decorator_list] + [function.lineno]) - offset
    if first != 1 or function.end_lineno - offset != count:
        return None
    return function, offset


def _branches(statements: list[ast.stmt]):
    """The `if` statements of a function's own control flow: through if/elif/else, with and
    try blocks, not into loops or nested definitions."""
    for statement in statements:
        if isinstance(statement, ast.If):
            yield statement
            yield from _branches(statement.body)
            yield from _branches(statement.orelse)
        elif isinstance(statement, (ast.With, ast.AsyncWith)):
            yield from _branches(statement.body)
        elif isinstance(statement, ast.Try):
            for block in (statement.body, *(handler.body for handler in statement.handlers), statement.orelse,
                          statement.finalbody):
                yield from _branches(block)


def _is_docstring(statement: ast.stmt) -> bool:
    return (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)
            and isinstance(statement.value.value, str))


def _chain(node: ast.expr | None) -> tuple[str, ...]:
    """`self.obs.wires` as ("self", "obs", "wires"), `self.hyperparameters["base"]` as
    ("self", "hyperparameters", "['base']"); () for anything that is not a name or a chain
    of attributes and string-key subscripts on one: a slice or a computed index computes,
    and an integer index is a choice (control or target wire) a fault can get wrong."""
    names = []
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        if isinstance(node, ast.Attribute):
            names.append(node.attr)
        elif isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
            names.append(f"[{node.slice.value!r}]")
        else:
            return ()
        node = node.value
    return (node.id, *reversed(names)) if isinstance(node, ast.Name) else ()


def _presence(test: ast.expr) -> tuple[tuple[str, ...], bool, str]:
    """A presence test read as (the tested chain, True when the test holds for a value that
    is there, kind): kind "none" for `x is None` / `x is not None`, "hasattr" for
    `hasattr(x, "name")` (chain x.name), "truth" for `x`; each may be negated with `not`
    (`not x is None` tests presence). The chain is () for any other test."""
    negated = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
    inner = test.operand if negated else test
    if (isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) and inner.func.id == "hasattr"
            and len(inner.args) == 2 and not inner.keywords and isinstance(inner.args[1], ast.Constant)
            and isinstance(inner.args[1].value, str) and _chain(inner.args[0])):
        return (*_chain(inner.args[0]), inner.args[1].value), not negated, "hasattr"
    if (isinstance(inner, ast.Compare) and len(inner.ops) == 1 and isinstance(inner.ops[0], (ast.Is, ast.IsNot))
            and isinstance(inner.comparators[0], ast.Constant) and inner.comparators[0].value is None):
        return _chain(inner.left), isinstance(inner.ops[0], ast.IsNot) != negated, "none"
    return _chain(inner), not negated, "truth"


def _line_set(run: CoverageRun) -> set[tuple[str, int]]:
    return {(file, line) for file, lines in run.lines.items() for line in lines}


def twinned_failures(runs: list[CoverageRun]) -> list[CoverageRun]:
    """The failing runs that some passing run matches line for line. Such a pair ran the
    same code on different data (an option set to another value, a coefficient complex
    instead of real): the fault is in how one of those lines computes, and coverage cannot
    say which. Ochiai would still rank first the lines that the *other* passing inputs
    happened to skip (an object built on the way that smaller passing inputs did not need),
    a confident answer that the twin shows to be coincidence."""
    passing = {frozenset(_line_set(run)) for run in runs if run.passed and run.lines}
    return [run for run in runs if not run.passed and run.lines and frozenset(_line_set(run)) in passing]


def coverage_runs(trace: Callable[[str], dict], failing: str, passing: list[str],
                  failing_variants: list[str] | None = None,
                  lent: list[tuple[str, str]] | None = None) -> list[CoverageRun]:
    """Line spectra of the failing reproducer, the passing ones and other failing inputs of
    the same assertion (`failing_variants`), each traced without its assertion messages
    (see `without_assertion_messages`). Each run counts as what its trace saw, not as what
    the law's search called it. `lent` are (subject, reproducer) pairs of the law's other
    subjects, for a failure with no passing input of its own: kept only when they pass (a
    failure of another subject is not this failure's spectrum)."""
    runs = [run for code in [failing, *passing, *(failing_variants or [])]
            if (run := _traced(trace, code)) is not None]
    for subject, code in lent or []:
        run = _traced(trace, code, lent_from=subject)
        if run is not None and run.passed:
            runs.append(run)
    return runs


def _traced(trace: Callable[[str], dict], code: str, lent_from: str | None = None) -> CoverageRun | None:
    """The spectrum of `code` run without its assertion messages; None when it raised
    (neither a failing nor a passing spectrum)."""
    traced = trace(without_assertion_messages(code))
    if traced["passed"] is None:
        return None
    return CoverageRun(passed=traced["passed"], lines=traced["lines"], calls=traced.get("calls", {}),
                       lent_from=lent_from)


def without_empty_lent_runs(runs: list[CoverageRun]) -> list[CoverageRun]:
    """`runs` less the lent passing runs that ran none of their lines (after narrowing to
    the API's call, a subject entering another API): they would count as passing evidence
    without being any."""
    return [run for run in runs if run.lent_from is None or run.lines]


def lent_note(runs: list[CoverageRun]) -> str:
    """What a root cause's `method` adds when passing runs were lent by other subjects."""
    lenders = list(dict.fromkeys(run.lent_from for run in runs if run.lent_from is not None))
    if not lenders:
        return ""
    count = sum(run.lent_from is not None for run in runs)
    return (f"; every input of this subject failed: {count} passing run(s) lent by the law's other subjects "
            f"({', '.join(lenders)}), so the comparison is between subjects")


VIOLATED = "the law is violated"


def without_assertion_messages(code: str) -> str:
    """`code` with every assertion message replaced by a constant. Python evaluates an
    assert's message only when the assertion fails, so rendering it (`f"... {wires}"` calls
    the library's __repr__ and label code) is library code that only failing runs execute:
    the spectrum would blame the message, not the code under test. Verdicts do not change."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code
    changed = False
    for node in ast.walk(tree):
        if isinstance(node, ast.Assert) and node.msg is not None:
            node.msg, changed = ast.Constant(VIOLATED), True
        elif (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and isinstance(node.exc.func, ast.Name)
              and node.exc.func.id == "AssertionError" and node.exc.args):
            node.exc.args, changed = [ast.Constant(VIOLATED)], True
    return ast.unparse(tree) if changed else code
