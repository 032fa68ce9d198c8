"""Turn a target — a checkout path or ``name==version`` — into a source tree on disk.

``resolve_source`` is the one entry point. A release is fetched from the package index
(its sdist, else its wheel), verified against the index's sha256 and unpacked into a cache:

    <cache_dir>/archives/<filename>
    <cache_dir>/sources/<name>-<version>-<origin>/      (+ .qusema-source.json inside)

Every cache entry appears by a single rename of a finished temporary file or folder, so
whatever a crash leaves behind is a hidden ``.tmp-*`` name that lookups never match.
"""

from __future__ import annotations

import configparser
import email.parser
import gzip
import json
import os
import re
import shutil
import stat
import tarfile
import tempfile
import tomllib
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any, Literal

from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from qusema.targets.errors import PathNotALibrary, RequirementNotUnderstood, UnsafeArchive
from qusema.targets.registry import ArchiveChoice, SimpleIndex, choose_archive, sha256_of
from qusema.targets.requirement import PinnedRequirement, parse_requirement

Origin = Literal["sdist", "wheel", "checkout"]

CACHE_DIR_ENV = "QUSEMA_CACHE_DIR"
MARKER = ".qusema-source.json"  # written last inside an entry; its presence = complete
_MARKER_FORMAT = 1
# Qiskit's sdist unpacks to a few tens of MB; anything past this is a decompression bomb, not a library.
MAX_UNPACKED_BYTES = 4 << 30

CHECKOUT_LOOKED_FOR = (
    "looked for a Cargo.toml at its top, or a Python package (a folder with __init__.py) "
    "at most two levels down"
)


@dataclass(frozen=True)
class SourceTree:
    """The source of one library, ready to be read."""

    root: Path
    name: str  # PEP 503 normalized project name
    version: str | None  # None for a checkout whose version is computed at build time
    origin: Origin
    archive: Path | None  # the cached sdist/wheel it came from; None for a checkout
    archive_sha256: str | None
    notes: tuple[str, ...] = ()  # caveats worth showing the user (platform wheel, yanked, ...)


def default_cache_dir() -> Path:
    """``$QUSEMA_CACHE_DIR``, else ``$XDG_CACHE_HOME/qusema``, else ``~/.cache/qusema``."""
    explicit = os.environ.get(CACHE_DIR_ENV)
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    # The XDG spec says a relative value is invalid and must be ignored.
    if xdg and Path(xdg).is_absolute():
        return Path(xdg) / "qusema"
    return Path.home() / ".cache" / "qusema"


def resolve_source(
    spec: str, cache_dir: Path, *, index_url: str | None = None, timeout: float = 60.0
) -> SourceTree:
    """Resolve a checkout path or an exact ``name==version`` pin to its source tree.

    ``index_url`` defaults to ``$QUSEMA_INDEX_URL`` or PyPI. A release already in
    ``cache_dir`` is returned without touching the network.
    """
    if not spec.strip():
        # Path("") is the current directory; an empty target is a mistake, not a request.
        raise RequirementNotUnderstood(spec, "the target is empty")
    path = Path(spec).expanduser()
    if path.exists():
        return inspect_checkout(path)
    try:
        requirement = parse_requirement(spec)
    except RequirementNotUnderstood:
        if _looks_like_path(spec):
            raise PathNotALibrary(path, "no such file or directory") from None
        raise
    return resolve_release(requirement, cache_dir, index_url=index_url, timeout=timeout)


def resolve_release(
    requirement: PinnedRequirement,
    cache_dir: Path,
    *,
    index_url: str | None = None,
    timeout: float = 60.0,
) -> SourceTree:
    """The source of one registry release, from the cache or downloaded into it."""
    sources = cache_dir / "sources"
    cached = _find_cached(sources, requirement)
    if cached is not None:
        return cached

    index = SimpleIndex(index_url, timeout=timeout)
    choice = choose_archive(index.project_files(requirement.name), requirement.version)
    archives = cache_dir / "archives"
    archive = archives / choice.file.filename
    sha256 = sha256_of(archive) if archive.is_file() else None
    # A cached archive is reused only if it is still the file the index publishes.
    if sha256 is None or (choice.file.sha256 is not None and sha256 != choice.file.sha256):
        archive = index.download(choice.file, archives)
        sha256 = sha256_of(archive)
    return _unpack_into_cache(requirement.name, choice, archive, sha256, sources)


def inspect_checkout(path: Path) -> SourceTree:
    """A library checkout as a source tree; ``PathNotALibrary`` if it does not look like one."""
    root = path.resolve()
    if not root.is_dir():
        raise PathNotALibrary(root, f"it is not a directory; {CHECKOUT_LOOKED_FOR}")
    if not _holds_library(root):
        raise PathNotALibrary(root, f"nothing found; {CHECKOUT_LOOKED_FOR}")
    name, version, notes = _checkout_metadata(root)
    return SourceTree(
        root=root,
        name=canonicalize_name(name or root.name),
        version=version,
        origin="checkout",
        archive=None,
        archive_sha256=None,
        notes=tuple(notes),
    )


# --- checkouts -------------------------------------------------------------------------


def _looks_like_path(spec: str) -> bool:
    if "://" in spec or "@" in spec:
        return False  # a URL requirement: its refusal message is the useful one
    return spec.startswith(("/", ".", "~")) or os.sep in spec


def _holds_library(root: Path) -> bool:
    if (root / "Cargo.toml").is_file() or (root / "__init__.py").is_file():
        return True
    # Two levels cover the flat layout (pkg/__init__.py) and the src layout
    # (src/pkg/__init__.py) without walking a whole home directory by mistake.
    for child in _visible_dirs(root):
        if (child / "__init__.py").is_file():
            return True
        if any((grandchild / "__init__.py").is_file() for grandchild in _visible_dirs(child)):
            return True
    return False


def _visible_dirs(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith("."))


def _checkout_metadata(root: Path) -> tuple[str | None, str | None, list[str]]:
    """Name and version from the packaging files, in the order a builder would trust them."""
    notes: list[str] = []
    found: list[tuple[str | None, str | None]] = []

    pyproject = root / "pyproject.toml"
    if pyproject.is_file():
        try:
            project = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("project", {})
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            notes.append(f"pyproject.toml is not readable TOML ({exc}); ignored")
        else:
            if isinstance(project, dict):
                found.append((_str_or_none(project.get("name")), _str_or_none(project.get("version"))))

    setup_cfg = root / "setup.cfg"
    if setup_cfg.is_file():
        parser = configparser.ConfigParser(interpolation=None)
        try:
            parser.read(setup_cfg, encoding="utf-8")
        except (configparser.Error, UnicodeDecodeError) as exc:
            notes.append(f"setup.cfg is not readable ({exc}); ignored")
        else:
            version = parser.get("metadata", "version", fallback=None)
            # "attr:" and "file:" are computed at build time; we do not run the build.
            if version and version.startswith(("attr:", "file:")):
                version = None
            found.append((parser.get("metadata", "name", fallback=None), version))

    pkg_info = root / "PKG-INFO"
    if pkg_info.is_file():
        message = email.parser.Parser().parsestr(pkg_info.read_text(encoding="utf-8", errors="replace"))
        found.append((message.get("Name"), message.get("Version")))

    cargo = root / "Cargo.toml"
    if cargo.is_file():
        try:
            package = tomllib.loads(cargo.read_text(encoding="utf-8")).get("package", {})
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            notes.append(f"Cargo.toml is not readable TOML ({exc}); ignored")
        else:
            if isinstance(package, dict):
                # Workspace-inherited fields are tables ({workspace = true}), not strings.
                found.append((_str_or_none(package.get("name")), _str_or_none(package.get("version"))))

    name = next((n.strip() for n, _ in found if n and n.strip()), None)
    version = next((v.strip() for _, v in found if v and v.strip()), None)
    if name is None:
        notes.append(f"no project name in the packaging files; using the folder name {root.name!r}")
    return name, version, notes


def _str_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None


# --- the cache -------------------------------------------------------------------------


def _find_cached(sources: Path, requirement: PinnedRequirement) -> SourceTree | None:
    if not sources.is_dir():
        return None
    wanted = requirement.parsed_version
    for origin in ("sdist", "wheel"):  # the same preference as a fresh resolution
        # Entries are keyed by the normalized version, which may be spelled differently
        # from the pin (0.45 vs 0.45.0): compare versions, not names.
        for entry in sorted(sources.glob(f"{requirement.name}-*-{origin}")):
            tree = _read_entry(entry)
            if tree is not None and tree.name == requirement.name and Version(tree.version or "0") == wanted:
                return tree
    return None


def _read_entry(entry: Path) -> SourceTree | None:
    """The tree a cache entry holds, or None if it is not a complete entry of ours."""
    marker = entry / MARKER
    if not marker.is_file():
        return None
    try:
        record = json.loads(marker.read_text(encoding="utf-8"))
        if record.get("format") != _MARKER_FORMAT:
            return None
        Version(record["version"])
        root = (entry / record["root"]).resolve()
        archive = entry.parent.parent / "archives" / record["archive"]
        tree = SourceTree(
            root=root,
            name=record["name"],
            version=record["version"],
            origin=record["origin"],
            archive=archive,
            archive_sha256=record["archive_sha256"],
            notes=tuple(record.get("notes", ())),
        )
    except (ValueError, KeyError, TypeError, AttributeError, InvalidVersion):
        return None  # written by another qusema version or damaged: rebuild it
    if not root.is_dir() or not root.is_relative_to(entry.resolve()):
        return None
    return tree


def _unpack_into_cache(
    name: str, choice: ArchiveChoice, archive: Path, sha256: str, sources: Path
) -> SourceTree:
    entry = sources / f"{name}-{choice.version}-{choice.kind}"
    sources.mkdir(parents=True, exist_ok=True)
    temp = Path(tempfile.mkdtemp(dir=sources, prefix=f".tmp-{entry.name}-"))
    placed = False
    try:
        extract_archive(archive, temp)
        notes = list(choice.notes)
        root = "."
        if choice.kind == "sdist":
            tops = list(temp.iterdir())
            if len(tops) == 1 and tops[0].is_dir() and not tops[0].is_symlink():
                root = tops[0].name
            else:
                notes.append(f"{archive.name} has no single top folder; the root is the extraction folder")
        record = {
            "format": _MARKER_FORMAT,
            "name": name,
            "version": choice.version,
            "origin": choice.kind,
            "archive": archive.name,
            "archive_sha256": sha256,
            "root": root,
            "notes": notes,
        }
        (temp / MARKER).write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
        # mkdtemp makes the folder private (0700); the tree is read by sandboxes that may
        # run as another user, so it gets the mode an ordinary folder would have.
        temp.chmod(0o755)
        if entry.exists() and _read_entry(entry) is None:
            # Same name as our entry but not a complete one of ours (older format,
            # damaged): it is ours to replace.
            shutil.rmtree(entry)
        try:
            temp.rename(entry)
            placed = True
        except OSError:
            # Another process finished the same entry first; theirs is as good as ours.
            if _read_entry(entry) is None:
                raise
    finally:
        if not placed:
            # Best effort: a leftover .tmp-* folder is never mistaken for an entry.
            shutil.rmtree(temp, ignore_errors=True)
    tree = _read_entry(entry)
    assert tree is not None, f"cache entry {entry} unreadable right after it was written"
    return tree


# --- safe extraction -------------------------------------------------------------------


def extract_archive(archive: Path, dest: Path, *, max_bytes: int = MAX_UNPACKED_BYTES) -> None:
    """Unpack a .tar.* or .zip/.whl into ``dest`` (an empty folder), refusing anything that
    would land outside it. Raises ``UnsafeArchive``; ``dest`` may then hold a partial tree."""
    name = archive.name
    if name.endswith((".zip", ".whl")):
        _extract_zip(archive, dest, max_bytes)
    elif name.endswith((".tar.gz", ".tgz", ".tar.bz2", ".tar.xz", ".tar")):
        _extract_tar(archive, dest, max_bytes)
    else:
        raise UnsafeArchive(archive, "", "unknown archive format")
    _check_links_stay_inside(archive, dest)


def _extract_tar(archive: Path, dest: Path, max_bytes: int) -> None:
    try:
        with tarfile.open(archive, "r:*") as tar:
            members = tar.getmembers()
            links: set[PurePosixPath] = set()
            total = 0
            for member in members:
                path = _member_path(archive, member.name)
                _refuse_writing_through_link(archive, member.name, path, links)
                if member.issym():
                    _refuse_escaping_link(archive, member.name, path.parent, member.linkname)
                    links.add(path)
                elif member.islnk():
                    # Hard link targets are archive paths, relative to the root.
                    _refuse_escaping_link(archive, member.name, PurePosixPath(), member.linkname)
                elif not (member.isfile() or member.isdir()):
                    raise UnsafeArchive(archive, member.name, "device, fifo or other special file")
                total += max(member.size, 0)
                if total > max_bytes:
                    raise UnsafeArchive(archive, member.name, f"unpacks to more than {max_bytes} bytes")
            # Our checks above decide; the stdlib 'data' filter (3.11.4+) is a second,
            # independent line that also re-checks each link against the disk as it goes.
            if hasattr(tarfile, "data_filter"):
                tar.extractall(dest, members=members, filter="data")
            else:
                tar.extractall(dest, members=members)
    except tarfile.FilterError as exc:
        raise UnsafeArchive(archive, getattr(exc.tarinfo, "name", ""), str(exc)) from exc
    except (tarfile.ReadError, tarfile.CompressionError, EOFError, gzip.BadGzipFile, zlib.error) as exc:
        raise UnsafeArchive(archive, "", f"not a readable tar archive ({exc})") from exc


def _extract_zip(archive: Path, dest: Path, max_bytes: int) -> None:
    # zipfile.extract would silently rewrite "../x" to "x" and write symlinks as plain
    # files; we check every name ourselves and write each member by hand instead.
    try:
        with zipfile.ZipFile(archive) as zf:
            infos = zf.infolist()
            total = sum(info.file_size for info in infos)
            if total > max_bytes:
                raise UnsafeArchive(archive, "", f"unpacks to more than {max_bytes} bytes")
            links: set[PurePosixPath] = set()
            for info in infos:
                path = _member_path(archive, info.filename)
                _refuse_writing_through_link(archive, info.filename, path, links)
                target = dest.joinpath(*path.parts)
                mode = info.external_attr >> 16
                if info.is_dir():
                    target.mkdir(parents=True, exist_ok=True)
                elif stat.S_ISLNK(mode):
                    link_to = zf.read(info).decode("utf-8")
                    _refuse_escaping_link(archive, info.filename, path.parent, link_to)
                    target.parent.mkdir(parents=True, exist_ok=True)
                    os.symlink(link_to, target)
                    links.add(path)
                else:
                    target.parent.mkdir(parents=True, exist_ok=True)
                    with zf.open(info) as source, target.open("wb") as out:
                        shutil.copyfileobj(source, out)
                    if mode & 0o111:
                        target.chmod(0o755)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, UnicodeDecodeError) as exc:
        raise UnsafeArchive(archive, "", f"not a readable zip archive ({exc})") from exc


def _member_path(archive: Path, name: str) -> PurePosixPath:
    """The member's path relative to the root, or ``UnsafeArchive`` if it leaves it."""
    if "\x00" in name:
        raise UnsafeArchive(archive, name, "NUL in member name")
    if _is_absolute(name):
        raise UnsafeArchive(archive, name, "absolute path")
    # Backslashes are separators on Windows; treat them so here too, so an archive that
    # is harmless on Linux is not waved through as if it were harmless everywhere.
    parts = name.replace("\\", "/").split("/")
    if ".." in parts:
        raise UnsafeArchive(archive, name, "'..' in member path")
    return PurePosixPath(*[p for p in parts if p not in ("", ".")])


def _refuse_writing_through_link(
    archive: Path, name: str, path: PurePosixPath, links: set[PurePosixPath]
) -> None:
    # A member at or under an earlier symlink would be written wherever the link points;
    # text checks on names cannot see that, so such archives are refused outright.
    for prefix in (path, *path.parents):
        if prefix in links:
            raise UnsafeArchive(archive, name, f"written through the link {prefix}")


def _refuse_escaping_link(archive: Path, name: str, base: PurePosixPath, link_to: str) -> None:
    if not link_to:
        raise UnsafeArchive(archive, name, "link with an empty target")
    if _is_absolute(link_to):
        raise UnsafeArchive(archive, name, f"link to an absolute path {link_to!r}")
    depth = list(base.parts)
    for part in link_to.replace("\\", "/").split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if not depth:
                raise UnsafeArchive(archive, name, f"link {link_to!r} points outside the archive")
            depth.pop()
        else:
            depth.append(part)


def _is_absolute(name: str) -> bool:
    # Windows drive forms too: harmless here, but the tree may be read on Windows.
    return name.startswith(("/", "\\")) or re.match(r"[A-Za-z]:([\\/]|$)", name) is not None


def _check_links_stay_inside(archive: Path, dest: Path) -> None:
    # The checks above work on names; this one asks the file system, which also sees
    # chains of links that only escape together.
    real_dest = dest.resolve()
    for folder, dirnames, filenames in os.walk(dest):
        for entry in (*dirnames, *filenames):
            path = Path(folder, entry)
            if path.is_symlink() and not Path(os.path.realpath(path)).is_relative_to(real_dest):
                raise UnsafeArchive(archive, str(path.relative_to(dest)), "link resolves outside the archive")
