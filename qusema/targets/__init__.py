"""Targets: what is audited. ``resolve_source`` turns a checkout path or an exact
``name==version`` pin into a source tree on disk (sdist preferred, else wheel, cached)."""

from qusema.targets.errors import (
    HashMismatch,
    NoSourceArchive,
    PathNotALibrary,
    ProjectNotFound,
    RegistryUnreachable,
    RequirementNotUnderstood,
    TargetError,
    UnsafeArchive,
    VersionNotFound,
)
from qusema.targets.requirement import PinnedRequirement, parse_requirement
from qusema.targets.source import SourceTree, default_cache_dir, resolve_source

__all__ = [
    "HashMismatch",
    "NoSourceArchive",
    "PathNotALibrary",
    "PinnedRequirement",
    "ProjectNotFound",
    "RegistryUnreachable",
    "RequirementNotUnderstood",
    "SourceTree",
    "TargetError",
    "UnsafeArchive",
    "VersionNotFound",
    "default_cache_dir",
    "parse_requirement",
    "resolve_source",
]
