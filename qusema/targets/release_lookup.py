"""Why the package index cannot offer a release, in one line and with the closest releases.

The resolver (uv) says the same in four lines that name the venv it was installing into,
which is gone by the time anyone reads them. `qusema index` already words it well from the
index itself (registry.py); environments ask the same question here once the resolver has
failed, so a working request costs no extra look-up.
"""

from __future__ import annotations

import os

from packaging.version import InvalidVersion, Version

from qusema.targets.errors import ProjectNotFound, RegistryUnreachable, TargetError, VersionNotFound
from qusema.targets.registry import DEFAULT_INDEX_URL, SimpleIndex, closest_versions


def resolver_index_url() -> str:
    """The index uv resolves against when qusema builds an environment (uv's own settings,
    else PyPI): asking another index would explain a failure that did not happen there."""
    return (os.environ.get("UV_DEFAULT_INDEX") or os.environ.get("UV_INDEX_URL") or DEFAULT_INDEX_URL).rstrip("/")


def missing_release(name: str, version: str | None, index_url: str | None = None) -> TargetError | None:
    """`ProjectNotFound` or `VersionNotFound` (with the closest releases) when the index has no
    such project or release; None when it has it, or cannot be asked (the resolver's own
    message then stands)."""
    index = SimpleIndex(index_url or resolver_index_url())
    try:
        project = index.project_files(name)
    except ProjectNotFound as exc:
        return exc
    except RegistryUnreachable:
        return None
    if version is None:
        return None
    try:
        wanted = Version(version)
    except InvalidVersion:
        return None  # no release can be closest to it; the resolver says why it is refused
    releases = project.releases()
    if wanted in releases:
        return None
    return VersionNotFound(project.name, version, project.index_url, closest_versions(releases, wanted))
