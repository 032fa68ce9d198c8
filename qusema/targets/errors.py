"""Why a target could not be turned into a source tree.

Each failure is its own type so the CLI can print the message as is and callers can react
to the kind (e.g. retry on ``RegistryUnreachable``, never on ``HashMismatch``). The data
behind each message is kept as attributes: the message is for people, the fields for code.
"""

from __future__ import annotations

from pathlib import Path

EXACT_PIN_HINT = "an exact pin is needed, e.g. 'qiskit==2.4.1', or a path to a checkout"


class TargetError(Exception):
    """The target (a checkout path or ``name==version``) cannot be resolved to source."""


class RequirementNotUnderstood(TargetError):
    """The text is neither an existing path nor an exact ``name==version`` pin."""

    def __init__(self, spec: str, reason: str) -> None:
        self.spec = spec
        self.reason = reason
        super().__init__(f"cannot use {spec!r} as a target: {reason}; {EXACT_PIN_HINT}")


class ProjectNotFound(TargetError):
    """The package index has no project of that name."""

    def __init__(self, name: str, index_url: str) -> None:
        self.name = name
        self.index_url = index_url
        super().__init__(f"no project named {name!r} on the package index {index_url}")


class VersionNotFound(TargetError):
    """The project exists but has no release with that version."""

    def __init__(self, name: str, version: str, index_url: str, closest: tuple[str, ...]) -> None:
        self.name = name
        self.version = version
        self.index_url = index_url
        self.closest = closest
        hint = f"closest available: {', '.join(closest)}" if closest else "it lists no releases at all"
        super().__init__(f"{name} has no release {version} on {index_url}; {hint}")


class NoSourceArchive(TargetError):
    """The release exists but offers neither an sdist nor a wheel we can read."""

    def __init__(self, name: str, version: str, filenames: tuple[str, ...]) -> None:
        self.name = name
        self.version = version
        self.filenames = filenames
        listed = ", ".join(filenames) if filenames else "no files at all"
        super().__init__(f"{name} {version} has no sdist (.tar.gz/.zip) and no wheel on the index ({listed})")


class RegistryUnreachable(TargetError):
    """The index or a file on it could not be fetched, or answered something unusable."""

    def __init__(self, url: str, reason: str) -> None:
        self.url = url
        self.reason = reason
        super().__init__(f"cannot fetch {url}: {reason}")


class HashMismatch(TargetError):
    """A downloaded file is not the one the index published; it was discarded."""

    def __init__(self, filename: str, expected: str, actual: str) -> None:
        self.filename = filename
        self.expected = expected
        self.actual = actual
        super().__init__(
            f"{filename}: sha256 of the download is {actual} but the index says {expected}; "
            "the download was discarded"
        )


class UnsafeArchive(TargetError):
    """An archive would write outside its folder, or cannot be read; nothing of it was
    unpacked into the cache (the verified download itself stays under archives/)."""

    def __init__(self, archive: Path, member: str, reason: str) -> None:
        self.archive = archive
        self.member = member
        self.reason = reason
        where = f" (member {member!r})" if member else ""
        super().__init__(f"refusing to extract {archive.name}{where}: {reason}")


class PathNotALibrary(TargetError):
    """A path was given but it is not a library checkout."""

    def __init__(self, path: Path, looked_for: str) -> None:
        self.path = path
        self.looked_for = looked_for
        super().__init__(f"{path} is not a library checkout: {looked_for}")
