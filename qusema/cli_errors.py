"""How the CLI turns a failure to get a target into an error line and an exit status.

A release or project the package index does not have, or a pin that is not one, is bad
input: exit status 2, as click gives its own usage errors, so a script can tell it from a
build or a sandbox that failed (1).
"""

from __future__ import annotations

import click

from qusema.targets.environments import ReleaseNotFound
from qusema.targets.errors import ProjectNotFound, RequirementNotUnderstood, VersionNotFound


class BadTarget(click.ClickException):
    """The target names nothing that exists; the message says what does."""

    exit_code = 2


def target_failure(exc: Exception) -> click.ClickException:
    """The click error to raise for `exc` (raise it `from exc`)."""
    if isinstance(exc, (ReleaseNotFound, ProjectNotFound, VersionNotFound, RequirementNotUnderstood)):
        return BadTarget(str(exc))
    return click.ClickException(str(exc))
