"""``resolve_source`` on ``name==version`` against a real PEP 691 index on 127.0.0.1."""

from __future__ import annotations

import hashlib
import os
import shutil
import tarfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from local_index import (
    LocalIndex,
    make_sdist,
    make_tar,
    make_wheel,
    make_self_signed_cert,
    make_zip,
    tar_symlink,
    zip_symlink,
)
from qusema.targets import (
    HashMismatch,
    NoSourceArchive,
    ProjectNotFound,
    RegistryUnreachable,
    RequirementNotUnderstood,
    UnsafeArchive,
    VersionNotFound,
    resolve_source,
)

SDIST_FILES = {
    "PKG-INFO": "Metadata-Version: 2.1\nName: demo\nVersion: 1.0\n",
    "demo/__init__.py": "FROM = 'sdist'\n",
    "crates/core/Cargo.toml": "[package]\nname = 'core'\n",
}
WHEEL_FILES = {
    "demo/__init__.py": "FROM = 'pure wheel'\n",
    "demo-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: demo\nVersion: 1.0\n",
}


def cache_listing(cache: Path) -> list[str]:
    """Every path in the cache, hidden temporaries included."""
    if not cache.exists():
        return []
    return sorted(str(p.relative_to(cache)) for p in cache.rglob("*"))


def complete_entries(cache: Path) -> list[str]:
    """Cache names a later lookup could mistake for finished work."""
    names = []
    for sub in ("archives", "sources"):
        folder = cache / sub
        if folder.exists():
            names += [f"{sub}/{p.name}" for p in folder.iterdir() if not p.name.startswith(".")]
    return sorted(names)


@pytest.fixture
def archives(tmp_path: Path) -> Path:
    folder = tmp_path / "built"
    folder.mkdir()
    return folder


def test_sdist_is_preferred_over_wheel(local_index: LocalIndex, archives: Path, tmp_path: Path) -> None:
    wheel = make_wheel(archives, "demo-1.0-py3-none-any.whl", WHEEL_FILES)
    sdist = make_sdist(archives, "demo", "1.0", SDIST_FILES)
    local_index.publish("demo", wheel)  # listed first: order must not decide
    local_index.publish("demo", sdist)
    cache = tmp_path / "cache"

    tree = resolve_source("demo==1.0", cache, index_url=local_index.url)

    assert tree.origin == "sdist"
    assert (tree.name, tree.version) == ("demo", "1.0")
    assert tree.root == (cache / "sources" / "demo-1.0-sdist" / "demo-1.0").resolve()
    assert (tree.root / "demo" / "__init__.py").read_text() == "FROM = 'sdist'\n"
    assert (tree.root / "crates" / "core" / "Cargo.toml").is_file()
    assert tree.archive == cache / "archives" / "demo-1.0.tar.gz"
    assert tree.archive.read_bytes() == sdist.read_bytes()
    assert tree.archive_sha256 == hashlib.sha256(sdist.read_bytes()).hexdigest()
    assert local_index.file_requests() == ["/files/demo-1.0.tar.gz"]
    assert tree.notes == ()


def test_pure_wheel_is_used_when_there_is_no_sdist(
    local_index: LocalIndex, archives: Path, tmp_path: Path
) -> None:
    platform = make_wheel(
        archives,
        "demo-1.0-cp311-cp311-manylinux_2_17_x86_64.whl",
        {"demo/__init__.py": "FROM = 'platform'\n"},
    )
    pure = make_wheel(archives, "demo-1.0-py3-none-any.whl", WHEEL_FILES)
    local_index.publish("demo", platform)
    local_index.publish("demo", pure)
    cache = tmp_path / "cache"

    tree = resolve_source("demo==1.0", cache, index_url=local_index.url)

    assert tree.origin == "wheel"
    # A wheel has no top folder of its own: the extraction folder is the root.
    assert tree.root == (cache / "sources" / "demo-1.0-wheel").resolve()
    assert (tree.root / "demo" / "__init__.py").read_text() == "FROM = 'pure wheel'\n"
    assert tree.archive == cache / "archives" / "demo-1.0-py3-none-any.whl"
    assert tree.archive_sha256 == hashlib.sha256(pure.read_bytes()).hexdigest()
    assert tree.notes == ()
    # Readable by other users (sandboxes may run under another uid), not only by us.
    assert tree.root.stat().st_mode & 0o777 == 0o755
    assert tree.archive.stat().st_mode & 0o777 == 0o644


def test_platform_wheel_is_the_last_resort_and_says_so(
    local_index: LocalIndex, archives: Path, tmp_path: Path
) -> None:
    wheel = make_wheel(
        archives,
        "demo-1.0-cp311-cp311-manylinux_2_17_x86_64.whl",
        {"demo/__init__.py": "FROM = 'platform'\n"},
    )
    local_index.publish("demo", wheel)

    tree = resolve_source("demo==1.0", tmp_path / "cache", index_url=local_index.url)

    assert tree.origin == "wheel"
    assert (tree.root / "demo" / "__init__.py").read_text() == "FROM = 'platform'\n"
    assert len(tree.notes) == 1
    assert "platform wheel" in tree.notes[0] and wheel.name in tree.notes[0]


def test_hash_mismatch_is_refused_and_nothing_is_cached(
    local_index: LocalIndex, archives: Path, tmp_path: Path
) -> None:
    sdist = make_sdist(archives, "demo", "1.0", SDIST_FILES)
    wrong = "0" * 64
    local_index.publish("demo", sdist, sha256=wrong)
    cache = tmp_path / "cache"

    with pytest.raises(HashMismatch) as caught:
        resolve_source("demo==1.0", cache, index_url=local_index.url)

    assert caught.value.expected == wrong
    assert caught.value.actual == hashlib.sha256(sdist.read_bytes()).hexdigest()
    assert "demo-1.0.tar.gz" in str(caught.value)
    assert local_index.file_requests() == ["/files/demo-1.0.tar.gz"]  # it was really fetched
    assert complete_entries(cache) == []
    assert [p for p in cache_listing(cache) if p not in ("archives", "sources")] == []


def test_unknown_project_is_named_with_the_index(local_index: LocalIndex, tmp_path: Path) -> None:
    with pytest.raises(ProjectNotFound) as caught:
        resolve_source("No_Such_Project==1.0", tmp_path / "cache", index_url=local_index.url)
    assert caught.value.name == "no-such-project"
    assert "no-such-project" in str(caught.value) and local_index.url in str(caught.value)
    assert local_index.requests == ["/simple/no-such-project/"]


def test_unknown_version_lists_the_closest_ones(
    local_index: LocalIndex, archives: Path, tmp_path: Path
) -> None:
    local_index.publish("demo", make_sdist(archives, "demo", "1.0", SDIST_FILES))
    local_index.list_versions("demo", "0.8", "0.9", "1.1", "1.2", "1.9", "1.10", "2.0", "1.6rc1", "9.0")

    with pytest.raises(VersionNotFound) as caught:
        resolve_source("demo==1.5", tmp_path / "cache", index_url=local_index.url)

    # Version order, not the index's string order (where 1.10 sorts before 1.9);
    # pre-releases are left out for a final pin.
    assert caught.value.closest == ("1.0", "1.1", "1.2", "1.9", "1.10", "2.0")
    message = str(caught.value)
    assert "demo has no release 1.5" in message
    assert "closest available: 1.0, 1.1, 1.2, 1.9, 1.10, 2.0" in message
    assert complete_entries(tmp_path / "cache") == []


def test_listed_version_without_archives_is_explained(local_index: LocalIndex, tmp_path: Path) -> None:
    local_index.list_versions("demo", "1.0")
    with pytest.raises(NoSourceArchive) as caught:
        resolve_source("demo==1.0", tmp_path / "cache", index_url=local_index.url)
    assert "no sdist" in str(caught.value) and "no wheel" in str(caught.value)


def test_pin_spelling_does_not_matter(local_index: LocalIndex, archives: Path, tmp_path: Path) -> None:
    local_index.publish("demo", make_sdist(archives, "demo", "1.0", SDIST_FILES))
    cache = tmp_path / "cache"

    first = resolve_source("Demo==1.0.0", cache, index_url=local_index.url)
    local_index.stop()
    second = resolve_source("demo==1.0", cache, index_url=local_index.url)

    assert first.version == "1.0"
    assert second == first


def _hostile_tar(folder: Path, case: str) -> Path:
    path = folder / "demo-1.0.tar.gz"
    ok = ("demo-1.0/demo/__init__.py", b"")
    if case == "tar-dotdot":
        return make_tar(path, [ok, ("demo-1.0/../../evil", b"owned")])
    if case == "tar-absolute":
        return make_tar(path, [ok, (str(folder.parent / "evil"), b"owned")])
    if case == "tar-link-out":
        return make_tar(path, [ok, tar_symlink("demo-1.0/escape", "../../..")])
    if case == "tar-absolute-link":
        return make_tar(path, [ok, tar_symlink("demo-1.0/escape", str(folder.parent))])
    if case == "tar-link-chain":
        # Each link looks harmless by its text; together they lead out of the tree.
        return make_tar(path, [ok, tar_symlink("demo-1.0/y", "."), tar_symlink("demo-1.0/x", "y/../..")])
    if case == "tar-write-via-link":
        return make_tar(path, [ok, tar_symlink("demo-1.0/up", "demo"), ("demo-1.0/up/x.py", b"owned")])
    if case == "tar-fifo":
        fifo = tarfile.TarInfo("demo-1.0/pipe")
        fifo.type = tarfile.FIFOTYPE
        return make_tar(path, [ok, fifo])
    raise AssertionError(case)


@pytest.mark.parametrize(
    "case",
    [
        "tar-dotdot",
        "tar-absolute",
        "tar-link-out",
        "tar-absolute-link",
        "tar-link-chain",
        "tar-write-via-link",
        "tar-fifo",
        "zip-dotdot",
        "zip-backslash-dotdot",
        "zip-link-out",
        "zip-link-chain",
    ],
)
def test_unsafe_archive_is_refused_and_nothing_escapes(
    local_index: LocalIndex, tmp_path: Path, case: str
) -> None:
    built = tmp_path / "deep" / "built"
    built.mkdir(parents=True)
    if case.startswith("tar"):
        archive = _hostile_tar(built, case)
    else:
        archive = built / "demo-1.0-py3-none-any.whl"
        if case == "zip-dotdot":
            make_zip(archive, [("demo/__init__.py", b""), ("../../evil", b"owned")])
        elif case == "zip-backslash-dotdot":
            make_zip(archive, [("demo/__init__.py", b""), ("..\\..\\evil", b"owned")])
        elif case == "zip-link-out":
            make_zip(archive, [("demo/__init__.py", b"")])
            zip_symlink(archive, "demo/escape", "../../../..")
        else:
            make_zip(archive, [("demo/__init__.py", b"")])
            zip_symlink(archive, "demo/y", ".")
            zip_symlink(archive, "demo/x", "y/../..")
    local_index.publish("demo", archive)
    cache = tmp_path / "deep" / "cache"

    with pytest.raises(UnsafeArchive) as caught:
        resolve_source("demo==1.0", cache, index_url=local_index.url)

    assert archive.name in str(caught.value)
    # Nothing written anywhere near the cache, and no source entry, complete or not.
    assert not any(p.name == "evil" for p in tmp_path.rglob("*"))
    assert list((cache / "sources").iterdir()) == []


@pytest.mark.parametrize("origin", ["sdist", "wheel"])
def test_cache_is_used_without_network(
    local_index: LocalIndex, archives: Path, tmp_path: Path, origin: str
) -> None:
    if origin == "sdist":
        local_index.publish("demo", make_sdist(archives, "demo", "1.0", SDIST_FILES))
    else:
        local_index.publish("demo", make_wheel(archives, "demo-1.0-py3-none-any.whl", WHEEL_FILES))
    cache = tmp_path / "cache"
    first = resolve_source("demo==1.0", cache, index_url=local_index.url)
    assert first.origin == origin
    requests_before = list(local_index.requests)
    local_index.stop()

    second = resolve_source("demo==1.0", cache, index_url=local_index.url)

    assert second == first
    assert local_index.requests == requests_before
    # And the dead index really is dead: an uncached release fails.
    with pytest.raises(RegistryUnreachable):
        resolve_source("demo==2.0", cache, index_url=local_index.url)


def test_cache_keeps_releases_and_projects_apart(
    local_index: LocalIndex, archives: Path, tmp_path: Path
) -> None:
    # "demo-*-sdist" also matches demo 1.0.1 and the project "demo-extra": lookups must
    # compare the recorded name and version, not trust the folder pattern.
    local_index.publish("demo", make_sdist(archives, "demo", "1.0", SDIST_FILES))
    local_index.publish("demo", make_sdist(archives, "demo", "1.0.1", SDIST_FILES))
    local_index.publish("demo-extra", make_sdist(archives, "demo_extra", "1.0", SDIST_FILES))
    cache = tmp_path / "cache"
    specs = ["demo-extra==1.0", "demo==1.0", "demo==1.0.1"]
    trees = {spec: resolve_source(spec, cache, index_url=local_index.url) for spec in specs}
    local_index.stop()

    for spec in specs:
        assert resolve_source(spec, cache, index_url=local_index.url) == trees[spec]
    assert [(t.name, t.version) for t in trees.values()] == [
        ("demo-extra", "1.0"),
        ("demo", "1.0"),
        ("demo", "1.0.1"),
    ]
    assert trees["demo-extra==1.0"].root.name == "demo_extra-1.0"  # the sdist's own top folder


def test_cached_archive_is_reused_when_its_tree_is_gone(
    local_index: LocalIndex, archives: Path, tmp_path: Path
) -> None:
    local_index.publish("demo", make_sdist(archives, "demo", "1.0", SDIST_FILES))
    cache = tmp_path / "cache"
    first = resolve_source("demo==1.0", cache, index_url=local_index.url)
    for entry in (cache / "sources").iterdir():
        shutil.rmtree(entry)

    second = resolve_source("demo==1.0", cache, index_url=local_index.url)

    assert second == first
    assert local_index.file_requests() == ["/files/demo-1.0.tar.gz"]  # downloaded once


def test_cached_archive_that_no_longer_matches_is_fetched_again(
    local_index: LocalIndex, archives: Path, tmp_path: Path
) -> None:
    sdist = make_sdist(archives, "demo", "1.0", SDIST_FILES)
    local_index.publish("demo", sdist)
    cache = tmp_path / "cache"
    (cache / "archives").mkdir(parents=True)
    (cache / "archives" / sdist.name).write_bytes(b"damaged")

    tree = resolve_source("demo==1.0", cache, index_url=local_index.url)

    assert tree.archive is not None and tree.archive.read_bytes() == sdist.read_bytes()
    assert local_index.file_requests() == ["/files/demo-1.0.tar.gz"]


@pytest.mark.parametrize("size_listed", [True, False], ids=["size-in-index", "content-length-only"])
def test_interrupted_download_leaves_no_cache_entry(
    local_index: LocalIndex, archives: Path, tmp_path: Path, size_listed: bool
) -> None:
    sdist = make_sdist(archives, "demo", "1.0", {**SDIST_FILES, "big.bin": os.urandom(64_000).hex()})
    broken = local_index.publish("demo", sdist, cut=True, list_size=size_listed)
    cache = tmp_path / "cache"

    with pytest.raises(RegistryUnreachable) as caught:
        resolve_source("demo==1.0", cache, index_url=local_index.url)

    assert "interrupted" in caught.value.reason
    assert complete_entries(cache) == []
    assert list((cache / "archives").iterdir()) == []  # the partial file is gone too

    broken.cut = False  # the network recovers: the next call starts clean and succeeds
    tree = resolve_source("demo==1.0", cache, index_url=local_index.url)
    assert tree.archive_sha256 == hashlib.sha256(sdist.read_bytes()).hexdigest()


def test_stalled_download_times_out_and_leaves_nothing(
    local_index: LocalIndex, archives: Path, tmp_path: Path
) -> None:
    sdist = make_sdist(archives, "demo", "1.0", SDIST_FILES)
    local_index.publish("demo", sdist, stall=3.0)
    cache = tmp_path / "cache"

    with pytest.raises(RegistryUnreachable) as caught:
        resolve_source("demo==1.0", cache, index_url=local_index.url, timeout=0.5)

    assert "timed out" in caught.value.reason
    assert list((cache / "archives").iterdir()) == []
    assert complete_entries(cache) == []


def test_concurrent_resolutions_share_one_entry(
    local_index: LocalIndex, archives: Path, tmp_path: Path
) -> None:
    # The stall keeps every download in flight together, so the renames into place race.
    local_index.publish("demo", make_sdist(archives, "demo", "1.0", SDIST_FILES), stall=0.3)
    cache = tmp_path / "cache"
    with ThreadPoolExecutor(max_workers=4) as pool:
        trees = list(
            pool.map(lambda _: resolve_source("demo==1.0", cache, index_url=local_index.url), range(4))
        )

    assert len(local_index.file_requests()) == 4  # all four really downloaded
    assert all(tree == trees[0] for tree in trees)
    assert complete_entries(cache) == ["archives/demo-1.0.tar.gz", "sources/demo-1.0-sdist"]
    assert [p for p in cache_listing(cache) if "/.tmp-" in p] == []


def test_leftovers_of_a_crash_are_not_taken_for_cache_entries(
    local_index: LocalIndex, archives: Path, tmp_path: Path
) -> None:
    sdist = make_sdist(archives, "demo", "1.0", SDIST_FILES)
    local_index.publish("demo", sdist)
    cache = tmp_path / "cache"
    # What a killed process leaves: a partial download, a half extraction, and an entry
    # folder under the final name but without its completion marker.
    (cache / "archives").mkdir(parents=True)
    (cache / "archives" / ".tmp-demo-1.0.tar.gz-abc.part").write_bytes(b"half")
    half = cache / "sources" / ".tmp-demo-1.0-sdist-xyz" / "demo-1.0" / "demo"
    half.mkdir(parents=True)
    (half / "__init__.py").write_text("FROM = 'half'\n")
    stale = cache / "sources" / "demo-1.0-sdist" / "demo-1.0"
    stale.mkdir(parents=True)
    (stale / "stale.txt").write_text("")

    tree = resolve_source("demo==1.0", cache, index_url=local_index.url)

    assert (tree.root / "demo" / "__init__.py").read_text() == "FROM = 'sdist'\n"
    assert not (tree.root / "stale.txt").exists()
    assert local_index.file_requests() == ["/files/demo-1.0.tar.gz"]


def test_unreachable_index_gives_the_reason(dead_index_url: str, tmp_path: Path) -> None:
    with pytest.raises(RegistryUnreachable) as caught:
        resolve_source("demo==1.0", tmp_path / "cache", index_url=dead_index_url)
    assert "refused" in caught.value.reason.lower()
    assert dead_index_url in str(caught.value)


def test_index_url_comes_from_the_environment(
    local_index: LocalIndex, archives: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    local_index.publish("demo", make_sdist(archives, "demo", "1.0", SDIST_FILES))
    monkeypatch.setenv("QUSEMA_INDEX_URL", local_index.url + "/")

    tree = resolve_source("demo==1.0", tmp_path / "cache")

    assert tree.origin == "sdist"
    assert local_index.requests[0] == "/simple/demo/"


def test_an_index_without_json_is_refused(local_index: LocalIndex, archives: Path, tmp_path: Path) -> None:
    local_index.publish("demo", make_sdist(archives, "demo", "1.0", SDIST_FILES))
    with pytest.raises(RegistryUnreachable) as caught:
        resolve_source("demo==1.0", tmp_path / "cache", index_url=f"{local_index.base}/html-only")
    assert "text/html" in caught.value.reason and "PEP 691" in caught.value.reason


def test_relative_urls_and_yanked_files(local_index: LocalIndex, archives: Path, tmp_path: Path) -> None:
    sdist = make_sdist(archives, "demo", "1.0", SDIST_FILES)
    local_index.publish("demo", sdist, relative_url=True, yanked="broken build")

    tree = resolve_source("demo==1.0", tmp_path / "cache", index_url=local_index.url)

    assert local_index.file_requests() == ["/files/demo-1.0.tar.gz"]
    assert tree.notes == ("demo-1.0.tar.gz is yanked on the index: broken build",)


def test_missing_hash_is_accepted_with_a_note(
    local_index: LocalIndex, archives: Path, tmp_path: Path
) -> None:
    sdist = make_sdist(archives, "demo", "1.0", SDIST_FILES)
    local_index.publish("demo", sdist, sha256=None)

    tree = resolve_source("demo==1.0", tmp_path / "cache", index_url=local_index.url)

    assert tree.archive_sha256 == hashlib.sha256(sdist.read_bytes()).hexdigest()
    assert any("unverified" in note for note in tree.notes)


def test_a_range_is_refused_before_any_request(local_index: LocalIndex, tmp_path: Path) -> None:
    with pytest.raises(RequirementNotUnderstood) as caught:
        resolve_source("demo>=1.0", tmp_path / "cache", index_url=local_index.url)
    assert "exact pin" in str(caught.value)
    assert local_index.requests == []


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command to make a certificate")
def test_https_trusts_the_bundle_named_by_ssl_cert_file(
    archives: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cert, key = make_self_signed_cert(tmp_path)
    index = LocalIndex(tls=(cert, key))
    try:
        index.publish("demo", make_sdist(archives, "demo", "1.0", SDIST_FILES))
        cache = tmp_path / "cache"

        monkeypatch.delenv("SSL_CERT_FILE", raising=False)
        with pytest.raises(RegistryUnreachable) as caught:
            resolve_source("demo==1.0", cache, index_url=index.url)
        assert "CERTIFICATE_VERIFY_FAILED" in caught.value.reason

        monkeypatch.setenv("SSL_CERT_FILE", str(tmp_path / "missing.pem"))
        with pytest.raises(RegistryUnreachable) as caught:
            resolve_source("demo==1.0", cache, index_url=index.url)
        assert "SSL_CERT_FILE" in caught.value.reason

        monkeypatch.setenv("SSL_CERT_FILE", str(cert))
        tree = resolve_source("demo==1.0", cache, index_url=index.url)
        assert tree.origin == "sdist"
    finally:
        index.stop()
