"""Findings into what people read: issue drafts in the library's own bug-report template,
findings.json (versioned schema), SARIF."""
