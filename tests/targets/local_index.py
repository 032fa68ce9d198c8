"""A real PEP 691 package index on 127.0.0.1, and builders for small real archives.

The resolver is exercised over real HTTP against this server: nothing in qusema is
replaced. Faults (wrong hash, cut download, stalled download) are served by the server
the way a broken registry or network would produce them.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import ssl
import subprocess
import tarfile
import threading
import time
import zipfile
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

SIMPLE_JSON = "application/vnd.pypi.simple.v1+json"


@dataclass
class Published:
    filename: str
    data: bytes
    listed_sha256: str | None  # what the index claims; None = no hash published
    list_size: bool = True
    yanked: bool | str = False
    cut: bool = False  # send the full Content-Length, then close after half the bytes
    stall: float = 0.0  # send half the bytes, then wait this long before the rest
    relative_url: bool = False


@dataclass
class LocalIndex:
    """Serves ``/simple/<project>/`` (PEP 691 JSON, or HTML when JSON is not asked for),
    ``/html-only/<project>/`` (an index that never speaks JSON) and ``/files/<name>``."""

    projects: dict[str, list[Published]] = field(default_factory=dict)
    extra_versions: dict[str, list[str]] = field(default_factory=dict)
    requests: list[str] = field(default_factory=list)
    tls: tuple[Path, Path] | None = None  # (certificate, key): serve https instead of http

    def __post_init__(self) -> None:
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        if self.tls is not None:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(*self.tls)
            self._server.socket = context.wrap_socket(self._server.socket, server_side=True)
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        self.running = True

    @property
    def base(self) -> str:
        scheme = "https" if self.tls is not None else "http"
        return f"{scheme}://127.0.0.1:{self._server.server_address[1]}"

    @property
    def url(self) -> str:
        return f"{self.base}/simple"

    def publish(
        self, project: str, archive: Path, *, sha256: str | None = "real", **options: object
    ) -> Published:
        data = archive.read_bytes()
        listed = hashlib.sha256(data).hexdigest() if sha256 == "real" else sha256
        entry = Published(filename=archive.name, data=data, listed_sha256=listed, **options)  # type: ignore[arg-type]
        self.projects.setdefault(project, []).append(entry)
        return entry

    def list_versions(self, project: str, *versions: str) -> None:
        """Versions the index lists without files (or for which no file is published)."""
        self.projects.setdefault(project, [])
        self.extra_versions.setdefault(project, []).extend(versions)

    def file_requests(self) -> list[str]:
        return [r for r in self.requests if r.startswith("/files/")]

    def stop(self) -> None:
        if self.running:
            self._server.shutdown()
            self._server.server_close()
            self.running = False

    def page(self, project: str) -> dict:
        files = []
        versions = set(self.extra_versions.get(project, []))
        for p in self.projects[project]:
            url = f"../../files/{p.filename}" if p.relative_url else f"{self.base}/files/{p.filename}"
            entry: dict[str, object] = {
                "filename": p.filename,
                "url": url,
                "hashes": {"sha256": p.listed_sha256} if p.listed_sha256 else {},
                "yanked": p.yanked,
            }
            if p.list_size:
                entry["size"] = len(p.data)
            files.append(entry)
            versions.add(_version_from_filename(p.filename))
        # PyPI lists versions in string order, not version order; do the same.
        return {"meta": {"api-version": "1.1"}, "name": project, "files": files, "versions": sorted(versions)}


def _version_from_filename(filename: str) -> str:
    if filename.endswith(".whl"):
        return filename.split("-")[1]
    stem = filename.removesuffix(".tar.gz").removesuffix(".zip")
    return stem.rsplit("-", 1)[1]


def _handler_for(index: LocalIndex) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:  # keep pytest output clean
            pass

        def do_GET(self) -> None:
            index.requests.append(self.path)
            parts = [p for p in self.path.split("/") if p]
            if len(parts) == 2 and parts[0] in ("simple", "html-only") and parts[1] in index.projects:
                wants_json = SIMPLE_JSON in self.headers.get("Accept", "") and parts[0] == "simple"
                if wants_json:
                    self._send(200, SIMPLE_JSON, json.dumps(index.page(parts[1])).encode())
                else:
                    self._send(200, "text/html", b"<html><body>simple index</body></html>")
            elif len(parts) == 2 and parts[0] == "files":
                match = [p for ps in index.projects.values() for p in ps if p.filename == parts[1]]
                if not match:
                    self._send(404, "text/plain", b"not found")
                else:
                    self._send_file(match[0])
            else:
                self._send(404, "text/plain", b"not found")

        def _send(self, code: int, content_type: str, body: bytes) -> None:
            self.send_response(code)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def _send_file(self, published: Published) -> None:
            data = published.data
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            half = len(data) // 2
            if published.cut:
                self.wfile.write(data[:half])
                self.wfile.flush()
                self.close_connection = True
                return
            if published.stall:
                self.wfile.write(data[:half])
                self.wfile.flush()
                time.sleep(published.stall)
                with contextlib.suppress(OSError):  # the client gave up, as the test wants
                    self.wfile.write(data[half:])
                return
            self.wfile.write(data)

    return Handler


# --- archive builders ------------------------------------------------------------------


def make_sdist(directory: Path, name: str, version: str, files: dict[str, str]) -> Path:
    """A .tar.gz with one top folder ``<name>-<version>/`` holding ``files``."""
    top = f"{name}-{version}"
    path = directory / f"{top}.tar.gz"
    with tarfile.open(path, "w:gz") as tar:
        for relative, text in files.items():
            _add_tar_file(tar, f"{top}/{relative}", text.encode())
    return path


def make_wheel(directory: Path, filename: str, files: dict[str, str]) -> Path:
    path = directory / filename
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for relative, text in files.items():
            zf.writestr(relative, text)
    return path


def make_tar(path: Path, members: list[tarfile.TarInfo | tuple[str, bytes]]) -> Path:
    """A .tar.gz with exactly these members (used to build hostile archives)."""
    with tarfile.open(path, "w:gz") as tar:
        for member in members:
            if isinstance(member, tarfile.TarInfo):
                tar.addfile(member)
            else:
                _add_tar_file(tar, member[0], member[1])
    return path


def make_zip(path: Path, members: list[tuple[str, bytes]]) -> Path:
    """A zip with exactly these members, names written as given (hostile ones included)."""
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in members:
            zf.writestr(name, data)
    return path


def tar_symlink(name: str, target: str) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type = tarfile.SYMTYPE
    info.linkname = target
    return info


def zip_symlink(zf_path: Path, name: str, target: str) -> None:
    info = zipfile.ZipInfo(name)
    info.create_system = 3  # Unix: external_attr carries st_mode
    info.external_attr = (0o120777) << 16
    with zipfile.ZipFile(zf_path, "a") as zf:
        zf.writestr(info, target)


def _add_tar_file(tar: tarfile.TarFile, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mode = 0o644
    tar.addfile(info, io.BytesIO(data))


def make_self_signed_cert(directory: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 that no system CA bundle trusts."""
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "2",
            "-keyout",
            str(key),
            "-out",
            str(cert),
            "-subj",
            "/CN=127.0.0.1",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
        ],
        check=True,
        capture_output=True,
    )
    return cert, key
