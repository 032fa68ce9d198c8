"""A client for a PEP 691 (JSON) simple package index, and the choice of which file of a
release holds its source.

Only the simple index is used: PyPI's older JSON API is not reachable everywhere (it is
not on the machines this was written on), while every index pip can use speaks PEP 691.
"""

from __future__ import annotations

import hashlib
import http.client
import json
import os
import ssl
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from packaging.tags import Tag, sys_tags
from packaging.utils import (
    InvalidSdistFilename,
    InvalidWheelFilename,
    canonicalize_name,
    parse_sdist_filename,
    parse_wheel_filename,
)
from packaging.version import InvalidVersion, Version

from qusema.targets.errors import (
    HashMismatch,
    NoSourceArchive,
    ProjectNotFound,
    RegistryUnreachable,
    UnsafeArchive,
    VersionNotFound,
)

DEFAULT_INDEX_URL = "https://pypi.org/simple"
INDEX_URL_ENV = "QUSEMA_INDEX_URL"
SIMPLE_JSON = "application/vnd.pypi.simple.v1+json"
USER_AGENT = "qusema-source-resolver"
_CHUNK = 1 << 20

ArchiveKind = Literal["sdist", "wheel"]


def default_index_url() -> str:
    """``$QUSEMA_INDEX_URL`` if set, else PyPI's simple index."""
    return os.environ.get(INDEX_URL_ENV) or DEFAULT_INDEX_URL


@dataclass(frozen=True)
class IndexFile:
    """One downloadable file of a project, as the index describes it."""

    filename: str
    url: str  # absolute, without fragment
    sha256: str | None  # lower-case hex; None when the index publishes none
    size: int | None
    yanked: str | None  # None if not yanked, else the reason ("" when none was given)


@dataclass(frozen=True)
class ProjectFiles:
    """Everything the index lists for one project."""

    name: str  # normalized
    index_url: str
    files: tuple[IndexFile, ...]
    versions: tuple[str, ...]  # from the index's "versions" key (API 1.1); may be empty

    def releases(self) -> tuple[Version, ...]:
        """All known versions, sorted; API 1.0 indexes have no "versions" key, so the
        versions found in file names count as well."""
        found: set[Version] = set()
        for text in self.versions:
            try:
                found.add(Version(text))
            except InvalidVersion:
                continue  # legacy non-PEP 440 versions cannot be pinned with '==' anyway
        for file in self.files:
            parsed = _parse_filename(file.filename)
            if parsed is not None:
                found.add(parsed.version)
        return tuple(sorted(found))


@dataclass(frozen=True)
class ArchiveChoice:
    """The file that will be used as the source of a release, and why."""

    file: IndexFile
    kind: ArchiveKind
    version: str  # normalized version of the release the file belongs to
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class _ParsedName:
    kind: ArchiveKind
    name: str
    version: Version
    tags: frozenset[Tag]  # wheels only; empty for sdists

    @property
    def pure(self) -> bool:
        return all(tag.abi == "none" and tag.platform == "any" for tag in self.tags)

    @property
    def py3(self) -> bool:
        return any(tag.interpreter.startswith(("py3", "cp3")) for tag in self.tags)


class SimpleIndex:
    """Reads a PEP 691 index and downloads files from it, verifying their sha256."""

    def __init__(self, url: str | None = None, *, timeout: float = 60.0) -> None:
        self.url = (url or default_index_url()).rstrip("/")
        self.timeout = timeout

    def project_files(self, name: str) -> ProjectFiles:
        """List the files of a project; ``ProjectNotFound`` if the index has none."""
        normalized = canonicalize_name(name)
        page = f"{self.url}/{normalized}/"
        try:
            with self._open(page, SIMPLE_JSON) as response:
                content_type = response.headers.get("Content-Type", "")
                body = response.read()
        except urllib.error.HTTPError as exc:
            if exc.code in (404, 410):
                raise ProjectNotFound(normalized, self.url) from exc
            raise RegistryUnreachable(page, f"HTTP {exc.code} {exc.reason}") from exc
        except (OSError, http.client.HTTPException) as exc:
            raise RegistryUnreachable(page, _reason(exc)) from exc

        if "json" not in content_type:
            raise RegistryUnreachable(
                page, f"answered {content_type or 'without a content type'}, not PEP 691 JSON"
            )
        try:
            document = json.loads(body)
        except ValueError as exc:
            raise RegistryUnreachable(page, f"answer is not valid JSON ({exc})") from exc
        return _project_from_json(normalized, self.url, page, document)

    def download(self, file: IndexFile, directory: Path) -> Path:
        """Fetch ``file`` into ``directory/<filename>``.

        The bytes go to a hidden temporary file in the same directory and are renamed into
        place only once complete and matching the index's sha256, so a crash or a bad
        download never leaves a file under the final name.
        """
        _check_plain_filename(file.filename)
        directory.mkdir(parents=True, exist_ok=True)
        final = directory / file.filename
        handle, temp_name = tempfile.mkstemp(dir=directory, prefix=f".tmp-{file.filename}-", suffix=".part")
        temp = Path(temp_name)
        placed = False
        try:
            digest = hashlib.sha256()
            received = 0
            declared: str | None = None
            with os.fdopen(handle, "wb") as out:
                try:
                    with self._open(file.url, "*/*") as response:
                        declared = response.headers.get("Content-Length")
                        while chunk := response.read(_CHUNK):
                            out.write(chunk)
                            digest.update(chunk)
                            received += len(chunk)
                except urllib.error.HTTPError as exc:
                    raise RegistryUnreachable(file.url, f"HTTP {exc.code} {exc.reason}") from exc
                except (OSError, http.client.HTTPException) as exc:
                    raise RegistryUnreachable(file.url, _reason(exc)) from exc
            # http.client does not raise when a connection closes before Content-Length
            # is reached; without this check a cut download would surface as a hash
            # mismatch and send people looking for tampering.
            expected_size = file.size if file.size is not None else _int_or_none(declared)
            if expected_size is not None and received != expected_size:
                raise RegistryUnreachable(
                    file.url, f"download interrupted after {received} of {expected_size} bytes"
                )
            actual = digest.hexdigest()
            if file.sha256 is not None and actual != file.sha256:
                raise HashMismatch(file.filename, file.sha256, actual)
            # mkstemp files are private (0600); a cached archive is not a secret.
            temp.chmod(0o644)
            os.replace(temp, final)
            placed = True
        finally:
            if not placed:
                temp.unlink(missing_ok=True)
        return final

    def _open(self, url: str, accept: str) -> http.client.HTTPResponse:
        request = urllib.request.Request(url, headers={"Accept": accept, "User-Agent": USER_AGENT})
        context = _ssl_context(url) if url.startswith("https:") else None
        response: http.client.HTTPResponse = urllib.request.urlopen(
            request, timeout=self.timeout, context=context
        )
        return response


def choose_archive(project: ProjectFiles, version: str) -> ArchiveChoice:
    """Pick the source of ``project`` at ``version``.

    An sdist is the source as its authors ship it (Qiskit's includes the Rust crates), so
    it wins. Without one, a pure-Python wheel holds the Python source; a platform wheel
    is the last resort, and its compiled parts are binaries, which a note says.
    """
    wanted = Version(version)
    supported = frozenset(sys_tags())
    sdists: list[tuple[tuple[Any, ...], IndexFile, _ParsedName]] = []
    pure_wheels: list[tuple[tuple[Any, ...], IndexFile, _ParsedName]] = []
    other_wheels: list[tuple[tuple[Any, ...], IndexFile, _ParsedName]] = []
    for file in project.files:
        parsed = _parse_filename(file.filename)
        if parsed is None or parsed.version != wanted or parsed.name != project.name:
            continue
        yanked = file.yanked is not None
        if parsed.kind == "sdist":
            # .tar.gz is the standard sdist format; .zip only appears on old releases.
            sdists.append(((yanked, not file.filename.endswith(".tar.gz"), file.filename), file, parsed))
        elif parsed.pure:
            pure_wheels.append(((yanked, not parsed.py3, file.filename), file, parsed))
        else:
            # Prefer the wheel this machine would install: its Python files are the ones
            # that would run here.
            compatible = bool(parsed.tags & supported)
            other_wheels.append(((yanked, not compatible, file.filename), file, parsed))

    notes: list[str] = []
    if sdists:
        _, file, parsed = min(sdists, key=lambda item: item[0])
    elif pure_wheels:
        _, file, parsed = min(pure_wheels, key=lambda item: item[0])
    elif other_wheels:
        _, file, parsed = min(other_wheels, key=lambda item: item[0])
        notes.append(
            f"{project.name} {parsed.version} has no sdist and no pure-Python wheel; using the "
            f"platform wheel {file.filename}: its Python files are source, its compiled "
            "extensions are binaries and cannot be audited"
        )
    else:
        releases = project.releases()
        if wanted in releases:
            same_release = tuple(f.filename for f in project.files if _filename_mentions(f.filename, wanted))
            raise NoSourceArchive(project.name, str(wanted), same_release)
        raise VersionNotFound(project.name, version, project.index_url, closest_versions(releases, wanted))

    if file.yanked is not None:
        why = f": {file.yanked}" if file.yanked else ""
        notes.append(f"{file.filename} is yanked on the index{why}")
    if file.sha256 is None:
        notes.append(f"the index publishes no sha256 for {file.filename}; its integrity is unverified")
    return ArchiveChoice(file=file, kind=parsed.kind, version=str(parsed.version), notes=tuple(notes))


def closest_versions(available: tuple[Version, ...], wanted: Version, per_side: int = 3) -> tuple[str, ...]:
    """The releases just below and just above ``wanted``, in ascending order.

    Pre-releases are left out unless a pre-release was asked for (or nothing else exists):
    someone who typed 2.4.9 wants to hear about 2.4.1 and 2.5.0, not 2.5.0rc1.
    """
    pool = list(available)
    if not wanted.is_prerelease and not wanted.is_devrelease:
        finals = [v for v in pool if not v.is_prerelease and not v.is_devrelease]
        pool = finals or pool
    below = [v for v in pool if v < wanted][-per_side:]
    above = [v for v in pool if v > wanted][:per_side]
    return tuple(str(v) for v in below + above)


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        while chunk := stream.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def _project_from_json(name: str, index_url: str, page: str, document: Any) -> ProjectFiles:
    """Validate a PEP 691 project page; anything malformed is the index's fault."""
    if not isinstance(document, dict) or not isinstance(document.get("files"), list):
        raise RegistryUnreachable(page, "the answer has no 'files' list (not a PEP 691 project page)")
    meta = document.get("meta")
    api_version = str(meta.get("api-version", "1.0")) if isinstance(meta, dict) else "1.0"
    if not api_version.startswith("1."):
        raise RegistryUnreachable(page, f"unsupported simple API version {api_version}")

    files: list[IndexFile] = []
    for entry in document["files"]:
        if (
            not isinstance(entry, dict)
            or not isinstance(entry.get("filename"), str)
            or not isinstance(entry.get("url"), str)
        ):
            raise RegistryUnreachable(page, f"malformed file entry {entry!r}")
        # PEP 691 allows URLs relative to the page; a "#sha256=" fragment is the PEP 503
        # way of giving a hash and is honoured when the hashes dict has none.
        absolute, fragment = urllib.parse.urldefrag(urllib.parse.urljoin(page, entry["url"]))
        hashes = entry.get("hashes")
        sha256 = hashes.get("sha256") if isinstance(hashes, dict) else None
        if sha256 is None and fragment.startswith("sha256="):
            sha256 = fragment.removeprefix("sha256=")
        yanked_field = entry.get("yanked", False)
        if yanked_field is False or yanked_field is None:
            yanked = None
        else:
            yanked = yanked_field if isinstance(yanked_field, str) else ""
        size = entry.get("size")
        files.append(
            IndexFile(
                filename=entry["filename"],
                url=absolute,
                sha256=sha256.lower() if isinstance(sha256, str) else None,
                size=size if isinstance(size, int) else None,
                yanked=yanked,
            )
        )
    versions = document.get("versions", [])
    return ProjectFiles(
        name=name,
        index_url=index_url,
        files=tuple(files),
        versions=tuple(str(v) for v in versions) if isinstance(versions, list) else (),
    )


def _parse_filename(filename: str) -> _ParsedName | None:
    """What a file name says about the file; None for formats we do not read (eggs,
    .exe installers, .tar.bz2 sdists of very old releases)."""
    if filename.endswith(".whl"):
        try:
            name, version, _build, tags = parse_wheel_filename(filename)
        except InvalidWheelFilename:
            return None
        return _ParsedName(kind="wheel", name=name, version=version, tags=frozenset(tags))
    if filename.endswith((".tar.gz", ".zip")):
        try:
            name, version = parse_sdist_filename(filename)
        except InvalidSdistFilename:
            return None
        return _ParsedName(kind="sdist", name=name, version=version, tags=frozenset())
    return None


def _filename_mentions(filename: str, version: Version) -> bool:
    parsed = _parse_filename(filename)
    if parsed is not None:
        return parsed.version == version
    return f"-{version}" in filename


def _check_plain_filename(filename: str) -> None:
    # The file name comes from the index and becomes a path in the cache: an index must
    # not be able to write outside the archives folder.
    if not filename or filename.startswith(".") or "/" in filename or "\\" in filename or "\x00" in filename:
        raise UnsafeArchive(
            Path(filename or "<empty>"), "", "the index gave a file name that is not a plain name"
        )


def _ssl_context(url: str) -> ssl.SSLContext:
    cafile = os.environ.get("SSL_CERT_FILE")
    try:
        return ssl.create_default_context(cafile=cafile or None)
    except OSError as exc:  # a missing or unreadable bundle named by SSL_CERT_FILE
        raise RegistryUnreachable(url, f"SSL_CERT_FILE={cafile} cannot be loaded ({exc})") from exc


def _reason(exc: BaseException) -> str:
    if isinstance(exc, urllib.error.URLError):
        return str(exc.reason)
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def _int_or_none(text: str | None) -> int | None:
    try:
        return int(text) if text is not None else None
    except ValueError:
        return None
