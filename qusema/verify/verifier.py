"""Run a hypothesis's test in the sandbox and judge what happened."""

from __future__ import annotations

from qusema.defects import Hypothesis, Verdict, Verification
from qusema.sandbox import Sandbox, Status

_VERDICTS = {Status.ASSERTION_FAILED: Verdict.REPRODUCED, Status.OK: Verdict.REFUTED}


def verify(sandbox: Sandbox, hypothesis: Hypothesis) -> Verification:
    """The test states the law with asserts: an AssertionError reproduces the defect, a clean
    run refutes it, anything else (a crash, a timeout) proves nothing either way."""
    result = sandbox.run(hypothesis.test_code, filename="reproducer.py")
    verdict = _VERDICTS.get(result.status, Verdict.INCONCLUSIVE)
    message = result.exception.message if result.exception else (result.kill_reason or "")
    return Verification(
        hypothesis_id=hypothesis.id, verdict=verdict, status=result.status.value, message=message[:2000],
        duration_s=round(result.duration_s, 3), backend=result.backend,
    )
