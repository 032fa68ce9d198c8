"""Stage III for a reproduced defect: walk the reverse call chain (PyO3 links included) to
the documented public APIs that reach its unit, let the model write a trigger through one of
them, verify it the same way as in Stage II, and qualify it by what that API's
documentation permits: `bug`, `potential bug` or `not bug`.

The model's reading of the documentation is checked where it can be: a claim that the
documentation establishes the input must quote it, and a quote not found in the
documentation we showed counts as no documentation at all."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Literal

import pydantic

from qusema.agent.evidence import Evidence
from qusema.agent.loop import Trajectory, ask
from qusema.agent.stage2 import (
    Attempt,
    DefectClaim,
    UnitContext,
    feedback,
    hypothesis_from,
)
from qusema.defects import Classification, Finding, Hypothesis, RootCause, Verdict
from qusema.llm.protocol import Message, user
from qusema.trigger.classify import DEPRECATION_PROBE, qualify
from qusema.units.call_graph import chains_to_public
from qusema.units.contextual_unit import build_unit

DOC_CHARS = 3000


class TriggerClaim(DefectClaim):
    input_validity: Literal["documented", "undocumented", "invalid"] = pydantic.Field(
        description="what the API's documentation says about the triggering input")
    validity_evidence: str = pydantic.Field(description="the documentation sentence, quoted exactly "
                                                        "('' when there is none)")
    explanation: str = pydantic.Field(description="two or three sentences for the issue: what goes wrong and why")


@dataclass(frozen=True)
class Candidate:
    name: str  # the documented public name
    chain: tuple[str, ...]  # unit ... public segment
    docs: str

    def to_prompt(self) -> dict[str, Any]:
        return {"name": self.name, "chain": list(self.chain), "docs": self.docs[:DOC_CHARS]}


@dataclass
class Stage3Result:
    classification: Classification
    reason: str
    hypothesis: Hypothesis  # the trigger when one was verified, else the Stage II defect
    evidence: Evidence
    candidates: list[Candidate] = field(default_factory=list)
    attempts: list[Attempt] = field(default_factory=list)


def candidates_for(ctx: UnitContext, unit: str, stage2_api: str, max_depth: int = 6,
                   max_chains: int = 4) -> list[Candidate]:
    found: dict[str, Candidate] = {}
    for chain in chains_to_public(ctx.db, unit, max_depth=max_depth, max_chains=max_chains):
        for name in chain.public_names:
            found.setdefault(name, Candidate(name, chain.chain, _docs(ctx, chain.chain[-1])))
    for (qualname,) in ctx.db.conn.execute("SELECT qualname FROM public_api WHERE public_name=?", (stage2_api,)):
        found.setdefault(stage2_api, Candidate(stage2_api, (unit, qualname) if qualname != unit else (unit,),
                                               _docs(ctx, qualname)))
    return list(found.values())


def _docs(ctx: UnitContext, qualname: str) -> str:
    unit = build_unit(ctx.db, qualname)
    pieces = [f"documentation ({p.source}, {p.origin}):\n{p.text}" for p in unit.docs]
    return "\n\n".join(pieces) if pieces else "no documentation found"


def run_stage3(ctx: UnitContext, defect: Attempt, max_depth: int = 6, max_chains: int = 4) -> Stage3Result:
    unit = defect.hypothesis.unit
    candidates = candidates_for(ctx, unit, defect.hypothesis.api, max_depth, max_chains)
    result = Stage3Result("potential bug", "", defect.hypothesis, defect.evidence, candidates)
    if not candidates:
        result.reason = f"no documented public API reaches {unit} within {max_depth} calls"
        return result
    by_name = {c.name: c for c in candidates}
    trajectory = Trajectory(ctx.record, f"{unit}/stage3")
    conversation: list[Message] = ctx.prompts.messages(
        "agent/stage3.j2", library=ctx.library, version=ctx.version, defect=defect.hypothesis.to_dict(),
        message=defect.evidence.verification.message, candidates=[c.to_prompt() for c in candidates],
        max_revisions=ctx.revisions, answer_schema=TriggerClaim)
    tools = ctx.toolbox()
    for attempt in range(ctx.revisions + 1):
        answer = ask(ctx.model, conversation, TriggerClaim, trajectory, tools, ctx.max_format_errors)
        conversation = answer.messages
        claim = answer.value
        revise: dict[str, Any] = {"problem": None, "verdict": None, "status": None, "message": None,
                                  "adequacy": None}
        if claim.api not in by_name:
            revise["problem"] = f"{claim.api!r} is not one of the candidate APIs: {', '.join(by_name)}"
        else:
            candidate = by_name[claim.api]
            trigger = hypothesis_from(ctx, unit, claim, stage=3, details={
                "chain": list(candidate.chain), "input_validity": claim.input_validity,
                "validity_evidence": claim.validity_evidence, "explanation": claim.explanation,
                "stage2_hypothesis": defect.hypothesis.id})
            evidence = ctx.judge(trigger)
            ctx.record("verification", trigger.id, {"stage": 3, "unit": unit, "hypothesis": trigger.to_dict(),
                                                    **evidence.to_dict()})
            result.attempts.append(Attempt(trigger, evidence))
            if evidence.verification.verdict == Verdict.REPRODUCED:
                result.hypothesis, result.evidence = trigger, evidence
                result.classification, result.reason = _qualify(ctx, claim, candidate, trigger)
                return result
            revise.update(feedback(evidence))
        if attempt < ctx.revisions:
            conversation.append(user(ctx.prompts.render("agent/stage3_revise.j2",
                                                        revisions_left=ctx.revisions - attempt, **revise)))
    result.reason = (f"the defect reproduces at {unit}, but no trigger through a documented API was verified "
                     f"(candidates: {', '.join(by_name)})")
    return result


def _normalized(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def _qualify(ctx: UnitContext, claim: TriggerClaim, candidate: Candidate,
             trigger: Hypothesis) -> tuple[Classification, str]:
    if claim.input_validity == "invalid":
        return "not bug", f"the documentation of {candidate.name} excludes the triggering input"
    validity = claim.input_validity
    note = ""
    if validity == "documented" and (not claim.validity_evidence.strip() or _normalized(claim.validity_evidence)
                                     not in _normalized(candidate.docs)):
        validity, note = "undocumented", " (the quoted documentation was not found in the API's documentation)"
    public = bool(ctx.db.conn.execute("SELECT 1 FROM public_api WHERE public_name=? LIMIT 1",
                                      (candidate.name,)).fetchone())
    deprecations: list[str] = []
    if ctx.verify:  # the no-verification ablation runs none of the model's code, this probe included
        probe = ctx.sandbox.run(DEPRECATION_PROBE.format(code=trigger.test_code, package=ctx.library),
                                filename="deprecation_probe.py")
        deprecations = list(probe.reports.get("deprecations", []))
    qualification = qualify(public, validity, deprecations)
    return qualification.classification, qualification.reason + note


def finding_of(ctx: UnitContext, result: Stage3Result, environment: list[str]) -> Finding:
    segment = ctx.db.segment(result.hypothesis.unit)
    root = None if segment is None else RootCause(
        segment=segment.qualname, file=segment.file, start_line=segment.start_line, end_line=segment.end_line,
        score=1.0, method="the unit of the agent's reproduced Stage II hypothesis (not coverage-localized)")
    return Finding(result.hypothesis, result.evidence.verification, result.classification, result.reason, root,
                   environment)
