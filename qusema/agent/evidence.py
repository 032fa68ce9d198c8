"""Evidence for what the agent claims (DESIGN principles 1 and 3): the test runs in the
sandbox (`verify`), and its check must be able to fail (`mutation_adequacy`).

The agent's test code has a fixed shape (prompts/agent/*.j2): it computes `observed` through
the library, `expected` from an independent oracle (exact matrices, numpy), defines
`check(value)` with the assertions, and ends with `check(observed)`. That shape is what lets
the check itself be judged: it must accept `expected` (or it would fail where the library is
right) and reject mutants of `expected` (or it could never fail at all).

The check is model-written code, so it only ever runs in the sandbox. `mutation_adequacy`
calls its check one value at a time; we run it twice — once to collect the mutants it makes,
which are then judged in one sandbox run, and once more answering from those judgements —
so the adequacy score is exactly the function's own."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from qusema.defects import Hypothesis, Verdict, Verification
from qusema.oracle.mutation.adequacy import AdequacyResult, mutation_adequacy
from qusema.sandbox import Sandbox, Status
from qusema.verify.verifier import verify

MAX_MUTANTS = 64
_PREAMBLE = """
import numpy as _qs_np
_qs_ns = {{"__name__": "__main__"}}
try:
    exec(compile({code!r}, "reproducer.py", "exec"), _qs_ns)
except AssertionError:
    pass
_qs_missing = [n for n in ("expected", "check") if n not in _qs_ns]
"""
_PROBE = _PREAMBLE + """
report("missing", _qs_missing)
if not _qs_missing:
    try:
        _qs_e = _qs_np.asarray(_qs_ns["expected"])
        if _qs_e.dtype.kind not in "biufc":
            raise TypeError("dtype " + str(_qs_e.dtype))
        _qs_e = _qs_e.astype(complex)
        report("expected", {{"shape": list(_qs_e.shape), "real": _qs_e.real.ravel().tolist(),
                             "imag": _qs_e.imag.ravel().tolist()}})
    except Exception as _qs_exc:
        report("expected_unusable", type(_qs_exc).__name__ + ": " + str(_qs_exc)[:300])
"""
_JUDGE = _PREAMBLE + """
import json as _qs_json
_qs_out = []
_qs_real = isinstance(_qs_ns["expected"], (int, float)) or (
    hasattr(_qs_ns["expected"], "dtype") and _qs_ns["expected"].dtype.kind in "biuf")
for _qs_m in _qs_json.loads({values!r}):
    _qs_v = (_qs_np.array(_qs_m["real"]) + 1j * _qs_np.array(_qs_m["imag"])).reshape(_qs_m["shape"])
    if _qs_real and not _qs_np.any(_qs_v.imag):
        _qs_v = _qs_v.real
    if _qs_v.ndim == 0:
        _qs_v = _qs_v.item()
    try:
        _qs_out.append(_qs_ns["check"](_qs_v) is False)
    except AssertionError:
        _qs_out.append(True)
    except Exception as _qs_exc:
        _qs_out.append("error: " + type(_qs_exc).__name__ + ": " + str(_qs_exc)[:200])
report("rejected", _qs_out)
"""


@dataclass(frozen=True)
class Adequacy:
    """How strong the check is. `reason` is set when it is not strong enough to count."""

    method: str
    detected: int = 0
    relevant: int = 0
    baseline_passes: bool = False
    survivors: list[str] = field(default_factory=list)
    reason: str | None = None

    @property
    def adequate(self) -> bool:
        return self.reason is None

    @property
    def score(self) -> float | None:
        return round(self.detected / self.relevant, 4) if self.relevant else None

    def to_dict(self) -> dict[str, Any]:
        return {"method": self.method, "detected": self.detected, "relevant": self.relevant, "score": self.score,
                "baseline_passes": self.baseline_passes, "survivors": self.survivors[:10], "reason": self.reason}


@dataclass(frozen=True)
class Evidence:
    verification: Verification
    adequacy: Adequacy | None  # None when the test did not run to a verdict

    def to_dict(self) -> dict[str, Any]:
        return {"verification": self.verification.to_dict(),
                "adequacy": self.adequacy.to_dict() if self.adequacy else None}


def judge(sandbox: Sandbox, hypothesis: Hypothesis) -> Evidence:
    """Run the test; then, unless it proved nothing either way, hold its check to principle 3.
    An inadequate check overrides the verdict: neither its failure nor its success means anything."""
    verification = verify(sandbox, hypothesis)
    if verification.verdict == Verdict.INCONCLUSIVE:
        return Evidence(verification, None)
    adequacy = measure_adequacy(sandbox, hypothesis.test_code)
    if not adequacy.adequate:
        told = f"{verification.status}: {verification.message}".strip(": ")
        return Evidence(replace(verification, verdict=Verdict.INADEQUATE, adequacy=adequacy.score,
                                message=f"{adequacy.reason} (the test itself: {told})"[:2000]), adequacy)
    return Evidence(replace(verification, adequacy=adequacy.score), adequacy)


UNVERIFIED_STATUS = "not_run"


def accept_unverified(hypothesis: Hypothesis) -> Evidence:
    """The no-verification ablation: the claim is taken at its word, nothing runs. The
    verdict says `reproduced` because that is what acceptance means downstream; the status
    and message say that nothing was run, and the benchmark's scorer re-runs every
    reproducer itself, so what verification buys shows in the relocated count."""
    return Evidence(Verification(hypothesis.id, Verdict.REPRODUCED, UNVERIFIED_STATUS,
                                 "accepted without running it (ablation: no-verification)", 0.0, "none"), None)


def measure_adequacy(sandbox: Sandbox, test_code: str) -> Adequacy:
    probe = sandbox.run(_PROBE.format(code=test_code), filename="adequacy_probe.py")
    if probe.status != Status.OK:
        what = probe.exception.message if probe.exception else probe.status.value
        return Adequacy("none", reason=f"the test could not be re-run to judge its check: {what}"[:500])
    if probe.reports.get("missing"):
        return Adequacy("none", reason="the test does not define " + " and ".join(probe.reports["missing"])
                        + ", so its check cannot be judged")
    if "expected_unusable" in probe.reports:
        return Adequacy("none", reason="`expected` is not a number or numeric array: "
                        + probe.reports["expected_unusable"])
    raw = probe.reports["expected"]
    expected = (np.array(raw["real"]) + 1j * np.array(raw["imag"])).reshape(raw["shape"])

    def judge_values(values: list[np.ndarray]) -> list[bool | str]:
        payload = json.dumps([_encode(v) for v in values])
        run = sandbox.run(_JUDGE.format(code=test_code, values=payload), filename="adequacy_judge.py")
        if run.status != Status.OK:
            what = run.exception.message if run.exception else run.status.value
            raise _CheckBroken(f"judging mutants failed: {what}"[:500])
        return run.reports["rejected"]

    try:
        if _is_operator(expected):
            result, method = _operator_route(expected, judge_values), "mutation_adequacy (operator mutants)"
        else:
            result, method = _numeric_route(expected, judge_values), "numeric perturbations (not an operator)"
    except _CheckBroken as exc:
        return Adequacy("none", reason=str(exc))
    adequacy = Adequacy(method, result.detected, result.relevant, result.baseline_passes, list(result.survivors))
    if not result.baseline_passes:
        return replace(adequacy, reason="the check rejects `expected`, the independent oracle's own value: it "
                                        "would fail where the library is right")
    if not result.can_fail:
        return replace(adequacy, reason=f"the check cannot fail: it accepts all {result.relevant} mutants of "
                                        "`expected`")
    return adequacy


class _CheckBroken(Exception):
    pass


def _is_operator(value: np.ndarray) -> bool:
    if value.ndim != 2 or value.shape[0] != value.shape[1] or value.shape[0] < 2:
        return False
    return 2 ** round(math.log2(value.shape[0])) == value.shape[0]


def _encode(value: Any) -> dict[str, Any]:
    array = np.asarray(value, dtype=complex)
    return {"shape": list(array.shape), "real": array.real.ravel().tolist(), "imag": array.imag.ravel().tolist()}


def _two_pass(run: Callable[[Callable[[Any], Any]], AdequacyResult],
              judge_values: Callable[[list[Any]], list[bool | str]]) -> AdequacyResult:
    seen: list[Any] = []
    run(lambda value: seen.append(np.array(value)))  # returns None: rejects nothing, so every value is asked
    verdicts = judge_values(seen)
    errors = [v for v in verdicts if isinstance(v, str)]
    if errors:
        raise _CheckBroken(f"the check raised on a mutant instead of asserting: {errors[0]}")
    answers: Iterator[bool | str] = iter(verdicts)
    return run(lambda value: not next(answers))


def _operator_route(expected: np.ndarray, judge_values: Callable[[list[Any]], list[bool | str]]) -> AdequacyResult:
    return _two_pass(lambda check: mutation_adequacy(check, expected, max_mutants=MAX_MUTANTS), judge_values)


def _numeric_route(expected: np.ndarray, judge_values: Callable[[list[Any]], list[bool | str]]) -> AdequacyResult:
    """States, probabilities, expectation values: `mutation_adequacy` mutates operators and
    circuits only, so these get the same treatment by hand — the value itself, then a few
    perturbations no correct check of it should accept."""
    flat = expected.ravel()
    scale = max(1.0, float(np.max(np.abs(flat))) if flat.size else 1.0)
    mutants: list[tuple[str, np.ndarray]] = [("scaled by 1.25", expected * 1.25),
                                             ("shifted by 0.25", expected + 0.25 * scale)]
    if flat.size > 1:
        mutants.append(("entries rotated", np.roll(flat, 1).reshape(expected.shape)))
        bumped = flat.copy()
        bumped[0] += 0.25 * scale
        mutants.append(("first entry bumped", bumped.reshape(expected.shape)))
    mutants = [(d, m) for d, m in mutants if not np.allclose(m, expected)]
    verdicts = judge_values([expected] + [m for _, m in mutants])
    errors = [v for v in verdicts if isinstance(v, str)]
    if errors:
        raise _CheckBroken(f"the check raised on a mutant instead of asserting: {errors[0]}")
    detected = sum(1 for v in verdicts[1:] if v)
    survivors = [d for (d, _), v in zip(mutants, verdicts[1:]) if not v]
    return AdequacyResult(detected, len(mutants), not verdicts[0], survivors)
