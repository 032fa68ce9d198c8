"""Verification: a hypothesis counts only when its test, run in the sandbox, fails on the
audited release — and root-cause localization of what it reproduces."""
