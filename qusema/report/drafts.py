"""Issue drafts in each library's own bug-report template (Qiskit: Environment / What is
happening? / How can we reproduce the issue? / What should happen? / Any suggestions?;
PennyLane: Expected behavior / Actual behavior / Additional information / Source code /
Tracebacks / System information)."""

from __future__ import annotations

from collections.abc import Sequence

from qusema.defects import Finding


def draft_groups(findings: list[Finding]) -> list[list[Finding]]:
    """The findings a maintainer reads as one report: one law broken through one entry API,
    with one classification. `Finding.dedupe_key` keeps them apart (by root-cause segment and
    failing assertion) because a release can fix one and not another and the benchmark scores
    each; but when a failure depends on data, not on which lines run, localization of one
    defect moves between inputs, and a law broken through one API in two ways is still triaged
    together. Each group's first finding is the one the report leads with: the best-localized
    (highest score), then the shortest reproducer; the others follow it as further inputs."""
    groups: dict[tuple[str, str, str], list[Finding]] = {}
    for finding in findings:
        h = finding.hypothesis
        groups.setdefault((finding.classification, h.law_id, h.api), []).append(finding)
    return [sorted(group, key=_lead_order) for group in groups.values()]


def _lead_order(finding: Finding) -> tuple[float, int, str]:
    score = finding.root_cause.score if finding.root_cause else -1.0
    return (-score, len(finding.hypothesis.test_code), finding.id)


def draft_name(group: list[Finding]) -> str:
    lead = group[0]
    return f"{lead.classification.replace(' ', '-')}-{lead.id}.md"


TITLE_LIMIT = 160  # characters: what an issue tracker's list shows of a title


def title(finding: Finding) -> str:
    """The API and what was observed (the failing assertion's message), as a maintainer scans an
    issue list for it. The law and the input follow in the body: a law's statement runs to
    hundreds of characters and an input is often code, so neither makes a readable title."""
    h = finding.hypothesis
    observed = finding.verification.message.strip()
    text = f"{h.api}: {observed}" if observed else f"{h.api}: {h.violated_constraint} fails for {h.triggering_input}"
    text = f"[{finding.finding_class}] {text}"
    text = " ".join(text.split())  # one line: messages and inputs may span several
    if len(text) <= TITLE_LIMIT:
        return text
    cut = text[:TITLE_LIMIT - 1]
    return (cut.rsplit(" ", 1)[0] if " " in cut else cut) + "…"


def draft(finding: Finding, python_version: str, others: Sequence[Finding] = ()) -> str:
    """The report for `finding`, with `others` (the rest of its group) as further failing inputs."""
    if finding.hypothesis.library == "pennylane":
        return _pennylane(finding, python_version, others)
    return _qiskit(finding, python_version, others)


def _further_inputs(finding: Finding, others: Sequence[Finding]) -> str:
    if not others:
        return ""
    h = finding.hypothesis
    items = []
    for number, other in enumerate(others, start=1):
        o = other.hypothesis
        cause = other.root_cause
        located = "Not localized." if cause is None else (
            f"Localized to `{cause.segment}` (`{cause.file}`, lines {cause.start_line}-{cause.end_line}).")
        item = (f"`{o.triggering_input}` (finding {other.id}). {located}\n\n```\n{o.predicted_behaviour}\n```\n\n"
                f"<details><summary>reproducer</summary>\n\n```python\n{o.test_code.rstrip()}\n```\n\n</details>")
        # continuation lines indented under the list item's number, so markdown keeps them in it
        items.append(f"{number}. " + "\n".join(f"   {line}" if line else "" for line in item.split("\n")).lstrip())
    listed = "\n\n".join(items)
    return (f"\n\n**{len(others)} more input(s) break the same law through `{h.api}`.** They may be this "
            "defect again (when a failure depends on data, localization moves between inputs) or another one on "
            f"the same path. Each reproducer stands alone.\n\n{listed}")


def _found_by(finding: Finding, others: Sequence[Finding]) -> str:
    h = finding.hypothesis
    ids = ", ".join(f.id for f in (finding, *others))
    return (f"<!-- found by QuSema ({h.origin}: {h.law_id}); classification: {finding.classification} — "
            f"{finding.classification_reason}; findings: {ids} -->")


def _root_cause(finding: Finding) -> str:
    cause = finding.root_cause
    explanation = finding.hypothesis.details.get("explanation")
    located = "Not localized." if cause is None else (
        f"The defect is located in `{cause.segment}` (`{cause.file}`, lines {cause.start_line}-{cause.end_line}; "
        f"by {cause.method}, score {cause.score}).")
    return f"{explanation}\n\n{located}" if explanation else located


def _other_releases(finding: Finding) -> str:
    if not finding.other_releases:
        return ""
    lines = "\n".join(f"- {release}: {verdict}" for release, verdict in sorted(finding.other_releases.items()))
    return f"\n\nThe same reproducer on other releases:\n\n{lines}"


def _environment(finding: Finding) -> str:
    return "\n".join(f"  - {p}" for p in finding.environment if not p.startswith("-"))


def _qiskit(finding: Finding, python_version: str, others: Sequence[Finding]) -> str:
    h, v = finding.hypothesis, finding.verification
    return f"""# {title(finding)}

### Environment

- **Qiskit version**: {h.version}
- **Python version**: {python_version}
- **Operating system**: Linux
- **Resolved packages** the reproducer ran against:
{_environment(finding)}

### What is happening?

{h.predicted_behaviour}

The law it violates: {h.violated_constraint} (source: {h.constraint_source}). No error or warning is raised.

### How can we reproduce the issue?

```python
{h.test_code.rstrip()}
```

On qiskit {h.version} this fails with:

```
AssertionError: {v.message}
```{_further_inputs(finding, others)}

### What should happen?

The assertions above should hold: {h.violated_constraint}.{_other_releases(finding)}

### Any suggestions?

{_root_cause(finding)}

{_found_by(finding, others)}
"""


def _pennylane(finding: Finding, python_version: str, others: Sequence[Finding]) -> str:
    h, v = finding.hypothesis, finding.verification
    return f"""# [BUG] {title(finding)}

### Expected behavior

{h.violated_constraint} (source: {h.constraint_source}).

### Actual behavior

{h.predicted_behaviour} No error or warning is raised.

### Additional information

Triggering input: `{h.triggering_input}`. {_root_cause(finding)}{_other_releases(finding)}{_further_inputs(finding, others)}

### Source code

```python
{h.test_code.rstrip()}
```

### Tracebacks

```
AssertionError: {v.message}
```

### System information

```
PennyLane {h.version}, Python {python_version}, Linux
{_environment(finding)}
```

{_found_by(finding, others)}
"""
