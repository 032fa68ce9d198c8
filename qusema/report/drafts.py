"""Issue drafts in each library's own bug-report template (Qiskit: Environment / What is
happening? / How can we reproduce the issue? / What should happen? / Any suggestions?;
PennyLane: Expected behavior / Actual behavior / Additional information / Source code /
Tracebacks / System information)."""

from __future__ import annotations

from qusema.defects import Finding


def title(finding: Finding) -> str:
    h = finding.hypothesis
    return f"{h.api}: {h.violated_constraint} fails for {h.triggering_input}"[:200]


def draft(finding: Finding, python_version: str) -> str:
    if finding.hypothesis.library == "pennylane":
        return _pennylane(finding, python_version)
    return _qiskit(finding, python_version)


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


def _qiskit(finding: Finding, python_version: str) -> str:
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
```

### What should happen?

The assertions above should hold: {h.violated_constraint}.{_other_releases(finding)}

### Any suggestions?

{_root_cause(finding)}

<!-- found by QuSema ({h.origin}: {h.law_id}); classification: {finding.classification} — {finding.classification_reason} -->
"""


def _pennylane(finding: Finding, python_version: str) -> str:
    h, v = finding.hypothesis, finding.verification
    return f"""# [BUG] {title(finding)}

### Expected behavior

{h.violated_constraint} (source: {h.constraint_source}).

### Actual behavior

{h.predicted_behaviour} No error or warning is raised.

### Additional information

Triggering input: `{h.triggering_input}`. {_root_cause(finding)}{_other_releases(finding)}

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

<!-- found by QuSema ({h.origin}: {h.law_id}); classification: {finding.classification} — {finding.classification_reason} -->
"""
