"""Findings as SARIF 2.1.0, for code-scanning tools: one rule per law, one result per finding,
located at the root-cause segment."""

from __future__ import annotations

from typing import Any

from qusema.defects import Finding

_LEVEL = {"bug": "error", "potential bug": "warning", "not bug": "note"}


def sarif(findings: list[Finding], tool_version: str) -> dict[str, Any]:
    rules = {f.hypothesis.law_id: f.hypothesis.violated_constraint for f in findings}
    results = []
    for finding in findings:
        result: dict[str, Any] = {
            "ruleId": finding.hypothesis.law_id,
            "level": _LEVEL[finding.classification],
            "message": {"text": f"{finding.hypothesis.api}: {finding.hypothesis.predicted_behaviour}"},
            "properties": {"classification": finding.classification, "class": finding.finding_class,
                           "finding": finding.id},
            # Two findings can share law and location (two assertions of a law failing in
            # one segment): the fingerprint keeps code-scanning tools from merging them.
            "partialFingerprints": {"qusemaFinding/v1": finding.id},
        }
        if finding.root_cause:
            result["locations"] = [{"physicalLocation": {
                "artifactLocation": {"uri": finding.root_cause.file},
                "region": {"startLine": finding.root_cause.start_line, "endLine": finding.root_cause.end_line}}}]
        results.append(result)
    return {
        "version": "2.1.0",
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "runs": [{"tool": {"driver": {"name": "QuSema", "version": tool_version,
                                      "rules": [{"id": i, "shortDescription": {"text": t}} for i, t in rules.items()]}},
                  "results": results}],
    }
