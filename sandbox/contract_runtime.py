"""Runs quantum-semantic contracts inside the sandbox, under the target's Python.

Standard library, numpy and `hypothesis` only; never imports qusema. A contract module
(sandbox/contracts/<library>_<family>.py) defines `CONTRACTS`, a list of `Contract`s. Each
states one law for a family of library objects ("subjects"), draws inputs with hypothesis,
checks the law, and can write a failing input down as a standalone reproducer that uses
only the library's public API.

The host asks for: the catalog (`catalog`), a contract's subjects (`subjects`), one
(contract, subject) check (`check`), and line coverage of a reproducer (`trace_lines`).
"""

import contextlib
import importlib
import math
import os
import re
import signal
import sys
import threading
import time
import traceback

CONTRACT_PACKAGE = "contracts"
# Where the law modules' files are: an assertion is named by its line there (see
# `_assertion_label`).
LAWS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), CONTRACT_PACKAGE) + os.sep

# Angles where implementations take special paths: zero, Clifford angles, pi multiples.
SPECIAL_ANGLES = [0.0, math.pi / 4, math.pi / 2, 3 * math.pi / 4, math.pi, -math.pi / 2, -math.pi,
                  2 * math.pi, -math.pi / 4, 3 * math.pi / 2, 4 * math.pi]


# Seconds hypothesis may spend shrinking a failure. Shrinking a violation of a law over
# circuits can take minutes (hundreds of library calls), and dominated audit time.
SHRINK_BUDGET_S = 20.0


class Contract:
    """One law over a family of subjects.

    subjects: () -> list of subject names (e.g. gate class names) the law applies to
    strategy: subject -> hypothesis strategy of inputs
    check: (subject, example) -> None, raising AssertionError with a message on violation
    reproducer: (subject, example) -> standalone Python source whose asserts state the law
    api: subject -> the public API the reproducer exercises
    validity: "documented" when every generated input is documented valid input;
              "undocumented" when the docs neither allow nor forbid it (-> potential bug);
              "documented example" when input and expected output are the docs' own example
              (a mismatch may be stale docs: -> potential bug);
              "answer permitted" when the input is documented but the docs also allow the
              answer the law rejects (a check they say may be skipped: -> potential bug)
    validity_of: (subject, example) -> the validity of that one input, where it varies by input
              (a specimen from a documented example is documented input; one from a bare
              default constructor is not); default: `validity` for every input
    describe: (subject, example) -> the input as a person would write it (default: repr)
    kind: the class of a finding the law makes: "silent wrong result" (a value the law
          rejects) or "crash" (an internal error on valid input)
    """

    def __init__(self, id, family, law, source, subjects, strategy, check, reproducer, api,
                 validity="documented", describe=None, kind="silent wrong result", validity_of=None, entered=None):
        self.id = id
        self.family = family
        self.law = law
        self.source = source
        self.subjects = subjects
        self.strategy = strategy
        self.check = check
        self.reproducer = reproducer
        self.api = api
        self.validity = validity
        self.validity_of = validity_of or (lambda subject, example: validity)
        self.kind = kind
        self.describe_input = describe or (lambda subject, example: repr(example))
        # subject -> names of the library's functions the check called on its inputs besides
        # its API (a documented example's own calls), after the check ran
        self.entered = entered or (lambda subject: [])

    def describe(self):
        return {"id": self.id, "family": self.family, "law": self.law, "source": self.source,
                "validity": self.validity, "kind": self.kind}


class TimeLimit(Exception):
    """A guarded call ran past its time limit."""


@contextlib.contextmanager
def time_limit(seconds):
    """Raise TimeLimit in the guarded block after `seconds` (SIGALRM: the main thread only;
    elsewhere the block runs unguarded). For laws that run the documentation's own code,
    where an example can loop for minutes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def alarm(signum, frame):
        raise TimeLimit(f"over {seconds} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def public_names(module):
    """A module's public names: its `__all__` when it has one, else what `dir` shows."""
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n in dir(module) if not n.startswith("_")]
    return sorted({n for n in names if not n.startswith("_")})


def public_objects(module_names):
    """(module name, public name, object) for each public name of each module that imports
    on this release. For laws whose subjects are the library's documented callables: a
    module missing from an older release, or a lazy attribute that fails to import, is
    skipped rather than ending the walk."""
    for module_name in module_names:
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        for name in public_names(module):
            try:
                obj = getattr(module, name)
            except Exception:  # noqa: BLE001, S112 (a lazy attribute that does not import)
                continue
            yield module_name, name, obj


class RustPanic(RuntimeError):
    """The library's compiled code panicked on a generated input."""


def angles():
    """Special angles first (hypothesis shrinks toward them), then any finite angle."""
    from hypothesis import strategies as st

    return st.one_of(st.sampled_from(SPECIAL_ANGLES),
                     st.floats(min_value=-4 * math.pi, max_value=4 * math.pi, allow_nan=False))


def _modules(library):
    """Contract modules of a library that import on this release, and why the others
    do not (an older release may lack an API a family is written against)."""
    names = sorted(n[:-3] for n in os.listdir(LAWS_DIR)
                   if n.startswith(library + "_") and n.endswith(".py"))
    modules, unavailable = [], {}
    for name in names:
        try:
            modules.append(importlib.import_module(f"{CONTRACT_PACKAGE}.{name}"))
        except (ImportError, AttributeError) as exc:
            unavailable[name] = f"{type(exc).__name__}: {exc}"
    return modules, unavailable


def _contracts(library):
    found = {}
    for module in _modules(library)[0]:
        for contract in module.CONTRACTS:
            found[contract.id] = contract
    return found


def catalog(library):
    return [c.describe() for c in _contracts(library).values()]


def unavailable_families(library):
    return _modules(library)[1]


def subjects(library, contract_id):
    """The subjects a law applies to on this release; none, with the reason, when the
    family's API is not there (old releases)."""
    return _subjects_of(_contracts(library)[contract_id])


def _subjects_of(contract):
    try:
        names = list(contract.subjects())
    except (ImportError, AttributeError, TypeError) as exc:
        return {"subjects": [], "apis": {}, "reason": f"{type(exc).__name__}: {exc}"}
    if not names:
        # say so: a law that silently checks nothing reads, in an audit, like a law that held
        return {"subjects": [], "apis": {}, "reason": "no subject: none of the law's probes runs on this release"}
    return {"subjects": names, "apis": {name: _api_of(contract, name) for name in names}, "reason": None}


def _api_of(contract, subject):
    """The entry API of a subject's checks (what `--focus` selects on); None if the
    contract cannot name it without running."""
    try:
        return contract.api(subject)
    except Exception:  # noqa: BLE001 - an unnamed API only makes the subject unfocusable
        return None


# Searches, after a violation, for other distinct failures of the same law on the same
# subject: a law can be broken in more than one way (a copy that drops the work wires of one
# shape and resets an option of another), and hypothesis reports the first failure only.
MORE_FAILURE_SEARCHES = 2


def check(library, contract_id, subject, max_examples, seed, time_limit_s=None):
    """Run one contract on one subject. The result says whether the law held over the
    examples drawn, or gives the shrunk failing example as a reproducer; a violated law is
    searched again with the failures already found set aside, and each other distinct
    failure (another assertion of the law) is reported too, under `other_violations`.

    With `time_limit_s`, no new input is checked after that many seconds unless a failure
    is being shrunk (`time_cut` says the search stopped short of `max_examples`): a re-check
    with many examples then ends inside the audit's budget instead of its sandbox timeout."""
    _draw_from_strategies_alone()  # every hypothesis search of this process starts here
    contract = _contracts(library)[contract_id]
    started = time.perf_counter()
    deadline = None if time_limit_s is None else started + time_limit_s
    state, outcome, panicked = _search(contract, subject, max_examples, seed, frozenset(), deadline)
    result = {"contract": contract_id, "subject": subject, "outcome": outcome,
              "examples": state["examples"], "seconds": 0.0,
              "api": contract.api(subject), "validity": contract.validity}
    if outcome == "violated":
        passing = [contract.reproducer(subject, e) for e in _passing_inputs(state)]
        result["shrink_cut"] = state["shrink_cut"]  # True: smaller failing inputs may exist
        result["message"] = state["message"]
        result["assertion"] = state["assertion"]
        result["validity"] = contract.validity_of(subject, state["failing"])
        result["example"] = contract.describe_input(subject, state["failing"])
        result["reproducer"] = contract.reproducer(subject, state["failing"])
        result["passing_reproducers"] = passing
        result["failing_variants"] = [contract.reproducer(subject, e) for e in _failing_variants(state)]
        result["other_violations"] = []
        known = {state["origin"]}
        for _ in range(MORE_FAILURE_SEARCHES):
            more, more_outcome, more_panicked = _search(contract, subject, max_examples, seed, frozenset(known),
                                                        deadline)
            result["examples"] += more["examples"]
            if more_panicked:
                # With the assertion failures set aside, an input made the library panic: a
                # robustness defect of its own (the host files it under the no-panic law).
                result["other_violations"].append(_panic_violation(contract, subject, more))
                break
            if more_outcome != "violated" or more["origin"] in known:
                break
            known.add(more["origin"])
            result["other_violations"].append({
                "message": more["message"], "assertion": more["assertion"],
                "example": contract.describe_input(subject, more["failing"]),
                "reproducer": contract.reproducer(subject, more["failing"]),
                "passing_reproducers": [contract.reproducer(subject, e) for e in _passing_inputs(more)] or passing,
                "failing_variants": [contract.reproducer(subject, e) for e in _failing_variants(more)]})
        if not passing:
            # Every input of this subject failed: lend the violations without passing runs
            # of their own passing inputs of the law's other subjects. Last, so the searches
            # for other failures above keep the time they had.
            _lend_passing(contract, subject, seed, deadline,
                          [v for v in [result, *result["other_violations"]]
                           if not v.get("panic") and not v["passing_reproducers"]])
    if time_limit_s is not None:
        result["time_limit_s"] = time_limit_s  # what the host allowed, for the record
    if state["time_cut"]:
        result["time_cut"] = True
    if outcome != "raised" and state["examples"]:
        result["entered"] = contract.entered(subject)
    if outcome == "raised":
        result["error"] = state["error"]
    elif state["refused"]:
        result["refused"] = {"examples": state["refused"], "first_error": state["error"]}
    if panicked:
        # A panic is never a documented error: the host reports it as a robustness finding,
        # with the law's reproducer turned into one that fails exactly when the library panics.
        result.update(_panic_violation(contract, subject, state))
    result["seconds"] = round(time.perf_counter() - started, 3)
    return result


def _panic_violation(contract, subject, state):
    """A search that ended in a panic, as a violation: the law's reproducer (and its passing
    variants) turned into ones that fail exactly when the library panics."""
    return {"panic": True, "message": state["error"]["message"],
            "example": contract.describe_input(subject, state["panicked"]),
            "reproducer": panic_reproducer(contract.reproducer(subject, state["panicked"])),
            "passing_reproducers": [panic_reproducer(contract.reproducer(subject, e)) for e in _passing_inputs(state)]}


def _origin(exc):
    """Where an assertion failed: its type and the innermost frame's file and line (as
    hypothesis tells failures apart)."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return (type(exc).__name__, tb.tb_frame.f_code.co_filename, tb.tb_lineno) if tb is not None else (type(exc).__name__,)


def _assertion_label(exc):
    """Which assertion of the law failed, as the host records it ("AssertionError at
    pennylane_wires.py:745"), so two failures of one law on one API (one argument dropped,
    another reset) stay two findings even when they localize to the same segment. Only a
    line of a law module's own file names an assertion: a law that runs a program written
    for each input (exec of "<law>") asserts at lines that move with the input, and an
    assertion raised in numpy or the library is not the law's; those failures are labelled
    by the law file's line that ran the program, or by the type alone."""
    frames = []
    tb = exc.__traceback__
    while tb is not None:
        frames.append((tb.tb_frame.f_code.co_filename, tb.tb_lineno))
        tb = tb.tb_next
    for filename, line in reversed(frames):
        if filename.startswith(LAWS_DIR):
            return f"{type(exc).__name__} at {os.path.basename(filename)}:{line}"
    return type(exc).__name__


class _TimeUp(BaseException):
    """A time-limited search ran out of time before finding a failure."""


class _ShrinkCut(BaseException):
    """The shrink budget is spent: hypothesis stops (a BaseException is not a test failure)
    and the search reports the last failure it checked."""


def _draw_from_strategies_alone():
    """Hypothesis 6.131 and later mix literals of every module outside site-packages into its
    draws: here, the law files. A law's inputs would then change whenever any other law is
    edited, and in a warm worker with whichever modules happen to be imported, so a seed would
    not reproduce. Draws come from the law's strategy and seed alone."""
    try:
        from hypothesis.internal.conjecture import providers
        from hypothesis.internal.constants_ast import Constants
    except ImportError:  # a release without local constants: nothing to turn off
        return
    if hasattr(providers, "_get_local_constants"):
        none = Constants()
        providers._get_local_constants = lambda: none


def _search(contract, subject, max_examples, seed, known, deadline=None):
    """One hypothesis run of the law: (state, outcome, panicked). An example that fails at
    an origin in `known` is set aside (rejected, neither failing nor passing). After
    `deadline` (perf_counter), inputs drawn before any failure are not checked."""
    from hypothesis import HealthCheck, given, reject, settings
    from hypothesis import seed as fixed_seed
    from hypothesis.errors import Unsatisfiable

    state = {"examples": 0, "failing": None, "message": None, "error": None, "passing": [], "origin": None,
             "assertion": None, "failing_since": None, "shrink_cut": False, "refused": 0,
             "shrinking": None, "panic_error": None,
             "time_cut": False, "near_passing": [], "failing_seen": []}

    @settings(max_examples=max_examples, deadline=None, database=None, derandomize=False,
              suppress_health_check=list(HealthCheck), print_blob=False, report_multiple_bugs=False)
    @fixed_seed(seed)
    @given(contract.strategy(subject))
    def law_holds(example):
        if deadline is not None and state["failing_since"] is None and time.perf_counter() > deadline:
            # Out of time before any failure: end the search with what was checked. A
            # BaseException goes through hypothesis unshrunk (as KeyboardInterrupt does).
            state["time_cut"] = True
            raise _TimeUp
        if state["failing_since"] is not None and time.perf_counter() - state["failing_since"] > SHRINK_BUDGET_S:
            # Shrink budget spent: end the search with the last failure checked, the smallest
            # so far (the shrinker only tries candidates smaller than its best). Letting the
            # candidates pass instead kept hypothesis shrinking for minutes on large inputs.
            state["shrink_cut"] = True
            raise _ShrinkCut
        state["examples"] += 1
        try:
            contract.check(subject, example)
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as exc:
            if isinstance(exc, Exception) and not isinstance(exc, AssertionError):
                # An input the release refuses (or that the law's own code cannot build on
                # this release) says nothing about the law: skip it, record the first such
                # error, and go on checking the other inputs. Only a check that could run
                # no input at all ends as "raised".
                state["refused"] += 1
                if state["error"] is None:
                    state["error"] = _error_record(_refusal_cause(exc))
                reject()
            if isinstance(exc, AssertionError) and _origin(exc) in known:
                reject()  # a failure already reported: look for another
            if state["failing_since"] is None:
                state["failing_since"] = time.perf_counter()
            state["shrinking"] = "assertion" if isinstance(exc, AssertionError) else "panic"
            if isinstance(exc, AssertionError):
                # hypothesis runs the shrunk example last: what stays here is the minimal one
                state["failing"], state["message"], state["origin"] = example, str(exc), _origin(exc)
                state["assertion"] = _assertion_label(exc)
                _keep_last(state["failing_seen"], (example, state["origin"]), FAILING_SEEN_KEPT)
                raise
            # A Rust panic surfaces as pyo3's PanicException, a BaseException: turn it into
            # an ordinary error so hypothesis shrinks it and the check reports "raised".
            state["panicked"] = example  # the last one is the shrunk one
            panic = RustPanic(f"{type(exc).__name__}: {exc}")
            panic.__cause__ = exc  # kept in the record a shrink cut reports
            state["panic_error"] = _error_record(panic)
            raise panic
        if state["failing_since"] is not None:
            # A shrink candidate that passed: a simplification of a failing input that no
            # longer fails, the nearest passing neighbour a localization can get.
            _keep_last(state["near_passing"], example, NEAR_PASSING_KEPT)
        elif len(state["passing"]) < 3:
            state["passing"].append(example)

    outcome = "holds"
    panicked = False
    try:
        try:
            law_holds()
        except _TimeUp:
            pass  # the law held on every input checked in time
        except _ShrinkCut:  # what hypothesis would have raised after its own shrinking
            if state["shrinking"] == "assertion":
                outcome = "violated"
            else:
                outcome, state["error"], panicked = "raised", state["panic_error"], True
        if state["examples"] == state["refused"] and state["refused"]:
            outcome = "raised"  # every input drawn was refused: the law checked nothing
    except AssertionError:
        outcome = "violated"
    except Unsatisfiable:
        outcome = "raised" if not known else "holds"  # set-aside failures alone: nothing else found
    except Exception as exc:  # the library panicked on a generated input (or hypothesis itself failed)
        outcome = "raised"
        state["error"] = _error_record(exc)
        panicked = isinstance(exc, RustPanic) and "panicked" in state
    return state, outcome, panicked


# How many of the last shrink candidates to keep: passing ones (nearest passing neighbours)
# and failing ones (other failing inputs of the same assertion).
NEAR_PASSING_KEPT = 3
FAILING_SEEN_KEPT = 6
FAILING_VARIANTS = 2


# When a subject fails on every input drawn, its search keeps no passing input, and a
# spectrum with no passing run ties every line the failure ran (hundreds of segments). The
# law's other subjects run the same law through mostly the same machinery (another method
# on the same device, another way of writing equal operators), so their passing inputs are
# the nearest passing runs left: subjects entering the same API first, then those listed
# next to it. Bounded, as this runs after the search itself.
SIBLING_SUBJECTS_TRIED = 4
SIBLING_EXAMPLES = 8
SIBLING_BUDGET_S = 20.0
SIBLING_CHECK_S = 10.0  # one lent input may not take the whole budget

_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")


class _Enough(BaseException):
    """A passing-input collection has what it needs (ends the hypothesis run early)."""


def _lend_passing(contract, subject, seed, deadline, violations):
    """Give each of `violations` (result dicts) `lent_passing`: the law's other subjects'
    passing inputs, as {"subject", "reproducer"}, nearest first. `deadline` (the check's,
    perf_counter) also bounds the lending."""
    if not violations:
        return
    stop = time.perf_counter() + SIBLING_BUDGET_S
    stop = stop if deadline is None else min(stop, deadline)
    lent = [{"subject": sibling, "reproducer": contract.reproducer(sibling, example)}
            for sibling, example in _sibling_passing(contract, subject, seed, stop)]
    if lent:
        for violation in violations:
            violation["lent_passing"] = lent


def _api_words(api):
    """The dotted names an API string mentions (quoted arguments dropped): what two
    subjects' entry APIs are compared by."""
    return set(_DOTTED.findall(_QUOTED.sub("", api or "")))


def _sibling_order(subject, names, apis):
    """`names` other than `subject`, those sharing more entry-API names with it first, then
    the ones listed closest to it."""
    own = _api_words(apis.get(subject))
    at = names.index(subject) if subject in names else 0
    others = [(i, n) for i, n in enumerate(names) if n != subject]
    return [n for i, n in sorted(others, key=lambda iv: (-len(own & _api_words(apis.get(iv[1]))),
                                                           abs(iv[0] - at), iv[0]))]


def _sibling_passing(contract, subject, seed, stop, want=NEAR_PASSING_KEPT):
    """Up to `want` (sibling subject, input) pairs on which the law holds, drawn from the
    law's other subjects (see SIBLING_SUBJECTS_TRIED) before `stop` (perf_counter)."""
    listed = _subjects_of(contract)
    ordered = _sibling_order(subject, listed["subjects"], listed["apis"])
    found = []
    for sibling in ordered[:SIBLING_SUBJECTS_TRIED]:
        if len(found) >= want or time.perf_counter() > stop:
            break
        found += [(sibling, e) for e in _passing_draws(contract, sibling, seed, want - len(found), stop)]
    return found


def _passing_draws(contract, subject, seed, want, stop):
    """Up to `want` inputs of `subject` on which the law holds, from at most
    SIBLING_EXAMPLES draws before `stop`; inputs that fail, are refused or run past
    SIBLING_CHECK_S are skipped, and so is a subject whose inputs cannot be drawn here."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import seed as fixed_seed
    from hypothesis.errors import HypothesisException

    kept = []

    def collect(example):
        if time.perf_counter() > stop:
            raise _Enough
        try:
            with time_limit(min(SIBLING_CHECK_S, max(stop - time.perf_counter(), 0.1))):
                contract.check(subject, example)
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException:  # noqa: BLE001 - a failing, refused or panicking input is just not lent
            return
        if repr(example) not in {repr(k) for k in kept}:
            kept.append(example)
        if len(kept) >= want:
            raise _Enough

    try:
        search = fixed_seed(seed)(given(contract.strategy(subject))(collect))
        settings(max_examples=SIBLING_EXAMPLES, deadline=None, database=None, print_blob=False,
                 suppress_health_check=list(HealthCheck))(search)()
    except _Enough:
        pass
    except (HypothesisException, ImportError, AttributeError, TypeError, ValueError):
        pass  # a subject that cannot be drawn on this release (or nothing passed) lends nothing
    return kept


def _keep_last(kept, item, limit):
    kept.append(item)
    del kept[:max(len(kept) - limit, 0)]


def _passing_inputs(state):
    """The inputs a localization compares the failing one with: the passing shrink
    candidates nearest the minimal failing input first (they differ from it the least, so
    the code only failing runs execute is narrowed to what the difference touches), then
    passing inputs drawn before the failure; each once."""
    chosen, seen = [], set()
    for example in [*reversed(state["near_passing"]), *state["passing"]]:
        if repr(example) not in seen:
            seen.add(repr(example))
            chosen.append(example)
    return chosen


def _failing_variants(state):
    """Other failing inputs of the same assertion met while shrinking (the latest, closest
    to the minimal one, first): more failing spectra, so code that only one particular
    failing input runs no longer ties with the code every failure runs."""
    final = repr(state["failing"])
    chosen, seen = [], {final}
    for example, origin in reversed(state["failing_seen"]):
        if origin == state["origin"] and repr(example) not in seen:
            seen.add(repr(example))
            chosen.append(example)
        if len(chosen) == FAILING_VARIANTS:
            break
    return chosen


def _error_record(exc):
    return {"type": type(exc).__name__, "message": str(exc)[:2000],
            "traceback": "".join(traceback.format_exception(exc))[-4000:]}


def _refusal_cause(exc):
    """What made an input out of domain: a law that catches the library's error and calls
    hypothesis's reject() raises UnsatisfiedAssumption while handling it, and the library's
    error (the one a reader needs) is that exception's context."""
    if type(exc).__name__ == "UnsatisfiedAssumption" and exc.__context__ is not None:
        return exc.__context__
    return exc


PANIC_LAW = "documented input never makes the library panic (a Rust panic is an internal error, never a documented one)"


def panic_reproducer(code):
    """`code` (a law's reproducer) run so that only a panic fails it: the law's own
    assertions are not what this reproducer is about."""
    body = "\n".join("    " + line if line.strip() else line for line in code.splitlines())
    return ("try:\n" + body + "\n"
            "except AssertionError:\n"
            "    pass  # the law's own check; this reproducer is about the panic\n"
            "except BaseException as exc:\n"
            "    if type(exc).__name__ != 'PanicException':\n"
            "        raise\n"
            "    raise AssertionError(f'the library panicked on documented input: {exc}') from None\n")


def trace_lines(code, package):
    """Run `code` and return the lines of `package` it executed, as {relative file: [lines]},
    and whether its assertions held. Used for spectrum-based fault localization.

    `calls` groups the same lines by the library call they ran under: the outermost call
    from code outside the library into it, named "<relative file>:<first line of its code>".
    The host uses it to keep only what the API under test executed, not what building its
    input or computing the expected value did."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(importlib.import_module(package).__file__))) + os.sep
    prefix = root + package + os.sep
    hits = {}
    calls = {}
    active = []  # [frame, key] of the library call entered from outside, while it runs

    def tracer(frame, event, arg):
        filename = frame.f_code.co_filename
        if not filename.startswith(prefix):
            return None  # do not trace inside non-library frames
        if event == "call" and not active:
            active[:] = [frame, f"{filename[len(root):]}:{frame.f_code.co_firstlineno}"]
        if event == "line":
            relative = filename[len(root):]
            hits.setdefault(relative, set()).add(frame.f_lineno)
            if active:
                calls.setdefault(active[1], {}).setdefault(relative, set()).add(frame.f_lineno)
        elif event == "return" and active and active[0] is frame:
            active.clear()
        return tracer

    passed = True
    message = ""
    sys.settrace(tracer)
    try:
        exec(compile(code, "<reproducer>", "exec"), {"__name__": "__main__"})
    except AssertionError as exc:
        passed, message = False, str(exc)
    except Exception as exc:  # neither passes nor fails the law: its coverage says nothing
        passed, message = None, f"{type(exc).__name__}: {exc}"
    finally:
        sys.settrace(None)
    return {"passed": passed, "message": message, "lines": {f: sorted(v) for f, v in hits.items()},
            "calls": {key: {f: sorted(v) for f, v in files.items()} for key, files in calls.items()}}
