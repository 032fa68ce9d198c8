"""Stage II for one contextual unit: the model searches for a valid input that breaks a
constraint, states a defect hypothesis with a test, the sandbox and the oracle judge it, and
on a mismatch the model may revise, up to `revisions` times. Only a reproduced defect with an
adequate check survives."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pydantic

from qusema.agent.evidence import Evidence, accept_unverified, judge
from qusema.agent.loop import Trajectory, ask
from qusema.agent.tools import agent_toolbox
from qusema.defects import Hypothesis, Verdict
from qusema.llm.protocol import Message, Model, user
from qusema.llm.templates import Prompts
from qusema.llm.tools import Toolbox
from qusema.sandbox import Sandbox
from qusema.units.contextual_unit import build_unit
from qusema.units.index_db import IndexDB

Record = Callable[[str, str, dict[str, Any]], None]  # (kind, key, payload) into the run store, now


class DefectClaim(pydantic.BaseModel):
    law_id: str = pydantic.Field(description="short slug of the violated law, e.g. 'pauli.evolve-conjugates'")
    violated_constraint: str = pydantic.Field(description="the law, in words")
    constraint_source: str = pydantic.Field(description="'quantum semantics' or 'documentation: <where>'")
    triggering_input: str = pydantic.Field(description="the input, as a person would write it")
    predicted_behaviour: str = pydantic.Field(description="what goes wrong, concretely")
    api: str = pydantic.Field(description="the callable the test goes through")
    test_code: str = pydantic.Field(description="the test program (observed, expected, check, check(observed))")


class Stage2Answer(pydantic.BaseModel):
    defect: DefectClaim | None = None
    no_defect_reason: str | None = None

    @pydantic.model_validator(mode="after")
    def _one_of(self) -> Stage2Answer:
        if (self.defect is None) == (self.no_defect_reason is None):
            raise ValueError("give either `defect` or `no_defect_reason`, not both and not neither")
        return self


@dataclass
class UnitContext:
    """What one unit's work needs; built per unit, owned by one thread."""

    library: str
    version: str
    db: IndexDB
    sandbox: Sandbox
    model: Model
    prompts: Prompts
    record: Record
    revisions: int = 2
    token_budget: int = 4000
    max_format_errors: int = 3
    docs: bool = True  # False: the no-docs ablation (units rendered without documentation)
    verify: bool = True  # False: the no-verification ablation (claims accepted without running)

    def judge(self, hypothesis: Hypothesis) -> Evidence:
        return judge(self.sandbox, hypothesis) if self.verify else accept_unverified(hypothesis)

    def toolbox(self) -> Toolbox:
        return agent_toolbox(self.db, self.sandbox, docs=self.docs)


@dataclass
class Attempt:
    hypothesis: Hypothesis
    evidence: Evidence


@dataclass
class Stage2Result:
    unit: str
    defect: Attempt | None  # the reproduced one, if any
    attempts: list[Attempt] = field(default_factory=list)
    no_defect_reason: str | None = None


def run_stage2(ctx: UnitContext, unit: str) -> Stage2Result:
    trajectory = Trajectory(ctx.record, f"{unit}/stage2")
    text = build_unit(ctx.db, unit).render(ctx.token_budget, docs=ctx.docs)
    conversation: list[Message] = ctx.prompts.messages(
        "agent/stage2.j2", library=ctx.library, version=ctx.version, unit_name=unit, unit_text=text,
        max_revisions=ctx.revisions, answer_schema=Stage2Answer)
    tools = ctx.toolbox()
    result = Stage2Result(unit, None)
    for attempt in range(ctx.revisions + 1):
        answer = ask(ctx.model, conversation, Stage2Answer, trajectory, tools, ctx.max_format_errors)
        conversation = answer.messages
        claim = answer.value.defect
        if claim is None:
            result.no_defect_reason = answer.value.no_defect_reason
            return result
        hypothesis = hypothesis_from(ctx, unit, claim, stage=2)
        evidence = ctx.judge(hypothesis)
        ctx.record("verification", hypothesis.id, {"stage": 2, "unit": unit, "hypothesis": hypothesis.to_dict(),
                                                   **evidence.to_dict()})
        result.attempts.append(Attempt(hypothesis, evidence))
        if evidence.verification.verdict == Verdict.REPRODUCED:
            result.defect = result.attempts[-1]
            return result
        if attempt < ctx.revisions:
            conversation.append(user(ctx.prompts.render("agent/stage2_revise.j2",
                                                        revisions_left=ctx.revisions - attempt,
                                                        **feedback(evidence))))
    return result


def hypothesis_from(ctx: UnitContext, unit: str, claim: DefectClaim, stage: int,
                    details: dict[str, Any] | None = None) -> Hypothesis:
    return Hypothesis(library=ctx.library, version=ctx.version, unit=unit, api=claim.api, law_id=claim.law_id,
                      violated_constraint=claim.violated_constraint, constraint_source=claim.constraint_source,
                      triggering_input=claim.triggering_input, predicted_behaviour=claim.predicted_behaviour,
                      test_code=claim.test_code, origin="llm", details={"stage": stage, **(details or {})})


def feedback(evidence: Evidence) -> dict[str, Any]:
    v = evidence.verification
    return {"verdict": v.verdict.value, "status": v.status, "message": v.message[:1500],
            "adequacy": evidence.adequacy.to_dict() if evidence.adequacy else None}
