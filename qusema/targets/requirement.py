"""Parse the ``name==version`` form of a target.

Only an exact pin names one release, and an audit must be about one release: a range
would make the result depend on the day it ran, extras and markers change what is
installed rather than which source is audited, and a URL bypasses the registry whose
hashes we check. All of those are refused rather than guessed at.
"""

from __future__ import annotations

from dataclasses import dataclass

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from qusema.targets.errors import RequirementNotUnderstood


@dataclass(frozen=True)
class PinnedRequirement:
    """One release of one project, as the user pinned it."""

    name: str  # PEP 503 normalized: what the simple index and the cache are keyed by
    version: str  # as written after '=='; compare through ``parsed_version``

    @property
    def parsed_version(self) -> Version:
        return Version(self.version)

    def __str__(self) -> str:
        return f"{self.name}=={self.version}"


def parse_requirement(spec: str) -> PinnedRequirement:
    """Read ``name==version``; raise ``RequirementNotUnderstood`` for anything else."""
    text = spec.strip()
    if not text:
        raise RequirementNotUnderstood(spec, "the target is empty")
    try:
        requirement = Requirement(text)
    except InvalidRequirement as exc:
        raise RequirementNotUnderstood(spec, f"not a requirement ({exc})") from exc

    if requirement.url:
        raise RequirementNotUnderstood(spec, "a URL requirement does not name a registry release")
    if requirement.extras:
        extras = ",".join(sorted(requirement.extras))
        raise RequirementNotUnderstood(spec, f"extras [{extras}] do not change the source; drop them")
    if requirement.marker is not None:
        raise RequirementNotUnderstood(spec, "environment markers are not allowed")

    specifiers = list(requirement.specifier)
    if not specifiers:
        raise RequirementNotUnderstood(spec, "no version is given")
    if len(specifiers) > 1:
        raise RequirementNotUnderstood(spec, "several version clauses are given")
    (specifier,) = specifiers
    if specifier.operator != "==" or specifier.version.endswith(".*"):
        raise RequirementNotUnderstood(spec, f"'{specifier}' is a range, not one release")
    try:
        Version(specifier.version)
    except InvalidVersion as exc:
        raise RequirementNotUnderstood(spec, f"{specifier.version!r} is not a version") from exc
    return PinnedRequirement(name=canonicalize_name(requirement.name), version=specifier.version)
