"""Docker Engine through the docker SDK: one image per target environment, with the
target's resolved package set installed at build time; containers run with no network,
a read-only root, a tmpfs /tmp, memory / CPU / pids limits, a non-root user, no
capabilities, and are killed and removed when their time is up."""

from __future__ import annotations

import hashlib
import os
import shutil
import socket
import ssl
import struct
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from qusema.sandbox.cgroups import SandboxCgroup
from qusema.sandbox.launch import WORKER_SCRIPT, clean_environment, sandbox_source_dir, worker_arguments
from qusema.sandbox.leftovers import pid_is_dead, sweep_work_folders
from qusema.sandbox.protocol import BackendUnavailable, Transport, WorkerDied
from qusema.sandbox.records import Containment, Limits
from qusema.targets.environments import TargetEnvironment

RUNNER_MOUNT = "/qusema-sandbox"
TARGET_PYTHON = "/opt/target/bin/python"
LOCAL_BASE_IMAGE = "qusema-base:bookworm"  # made by sandbox/build-base-image.sh
REGISTRY_BASE_IMAGE = "python:3.11-slim"
SANDBOX_USER = "10001:10001"
STDERR_TAIL_BYTES = 64 * 1024


class DockerBackend:
    name = "docker"

    def __init__(self, base_image: str | None = None) -> None:
        self._base_image = base_image or os.environ.get("QUSEMA_DOCKER_BASE_IMAGE")
        self._client = None

    def client(self):
        if self._client is None:
            import docker  # imported here so the other backends work without the SDK

            self._client = docker.from_env(timeout=600)
        return self._client

    def unavailable_reason(self) -> str | None:
        try:
            import docker
        except ImportError:
            return "the docker Python SDK is not installed (pip install docker)"
        try:
            self.client().ping()
        except docker.errors.DockerException as exc:
            return f"no docker daemon answers: {exc}"
        return None

    def claims(self) -> frozenset[Containment]:
        return frozenset(Containment)

    def worker_nproc(self, limits: Limits) -> int | None:
        return None  # the container's pids limit caps forks

    def base_image(self) -> str:
        if self._base_image:
            return self._base_image
        import docker

        try:
            self.client().images.get(LOCAL_BASE_IMAGE)
            return LOCAL_BASE_IMAGE
        except docker.errors.ImageNotFound:
            return REGISTRY_BASE_IMAGE

    def image_tag(self, env: TargetEnvironment) -> str:
        # The tag names the resolved set, so a rebuilt environment gets a new image.
        lock = hashlib.sha256(env.requirements_lock().encode()).hexdigest()[:10]
        return f"qusema-target:{env.key}-{lock}"

    def prepare(self, env: TargetEnvironment) -> None:
        import docker

        if env.source != "pypi":
            raise BackendUnavailable(
                f"docker images are built from released packages; {env.requirement} is "
                f"a {env.source} environment, use --sandbox bwrap for it"
            )
        tag = self.image_tag(env)
        try:
            self.client().images.get(tag)
            return
        except docker.errors.ImageNotFound:
            pass
        with tempfile.TemporaryDirectory(prefix="qusema-image-") as context:
            context_dir = Path(context)
            shutil.copy(sandbox_source_dir() / "Dockerfile", context_dir / "Dockerfile")
            (context_dir / "requirements.txt").write_text(env.requirements_lock())
            shutil.copy(_ca_bundle(), context_dir / "ca-certificates.crt")
            try:
                self.client().images.build(
                    path=context, tag=tag, buildargs={"BASE_IMAGE": self.base_image()},
                    # Only the build reaches the registry; host networking avoids needing
                    # a working bridge/NAT on minimal hosts.
                    network_mode="host", rm=True, forcerm=True, labels={"qusema.env": env.key},
                )
            except docker.errors.BuildError as exc:
                log = "".join(str(chunk.get("stream", chunk.get("error", ""))) for chunk in exc.build_log)
                raise BackendUnavailable(f"building {tag} failed:\n{log[-4000:]}") from exc

    def start_worker(self, env: TargetEnvironment, preload: Sequence[str],
                     limits: Limits) -> Transport:
        self.prepare(env)
        client = self.client()
        self._sweep_dead_runs(client)
        container = client.containers.create(
            self.image_tag(env),
            command=[TARGET_PYTHON, "-B", "-s", f"{RUNNER_MOUNT}/{WORKER_SCRIPT}",
                     *worker_arguments("/tmp/work", ["/tmp", "/dev/shm"], preload, pid_namespace=True)],
            stdin_open=True, tty=False,
            network_mode="none", read_only=True, user=SANDBOX_USER,
            cap_drop=["ALL"], security_opt=["no-new-privileges"], ipc_mode="private",
            mem_limit=limits.sandbox_memory_bytes(), memswap_limit=limits.sandbox_memory_bytes(),
            nano_cpus=int(limits.cpus * 1e9), pids_limit=limits.pids,
            tmpfs={"/tmp": f"rw,nosuid,nodev,size={limits.tmpfs_bytes},mode=1777"},
            volumes={str(sandbox_source_dir()): {"bind": RUNNER_MOUNT, "mode": "ro"}},
            environment=clean_environment(limits, "/tmp", ["/opt/target/bin"]),
            working_dir="/tmp", labels={"qusema.sandbox": "worker", "qusema.owner-pid": str(os.getpid())},
        )
        return DockerTransport(client, container)

    @staticmethod
    def _sweep_dead_runs(client) -> None:
        """Removes containers (and host leftovers) of runs that died without cleaning up."""
        import docker

        sweep_work_folders(Path(tempfile.gettempdir()))
        SandboxCgroup.sweep_dead_runs()
        for container in client.containers.list(all=True, filters={"label": "qusema.sandbox=worker"}):
            owner = container.labels.get("qusema.owner-pid", "")
            if owner.isdigit() and pid_is_dead(int(owner)):
                try:
                    container.remove(force=True)
                except docker.errors.APIError:
                    pass  # already going: another run swept it first


class DockerTransport:
    """The worker's stdin/stdout through the container's attach socket."""

    def __init__(self, client, container) -> None:
        self._container = container
        # Attach before start so the worker's first line cannot be missed.
        self._socket_io = client.api.attach_socket(
            container.id, params={"stdin": 1, "stdout": 1, "stderr": 1, "stream": 1})
        self._socket: socket.socket = self._socket_io._sock
        self._raw = bytearray()  # multiplexed frames not parsed yet
        self._stdout = bytearray()
        self._stderr = bytearray()
        self._closed = False
        self._lock = threading.Lock()
        container.start()

    def send(self, data: bytes) -> None:
        try:
            self._socket.sendall(data)
        except OSError as exc:
            raise WorkerDied(self.diagnostics()) from exc

    def receive_line(self, timeout: float) -> bytes | None:
        deadline = time.monotonic() + timeout
        polled = False  # a timeout of 0 still looks once: "is anything there now?"
        while b"\n" not in self._stdout:
            remaining = max(0.0, deadline - time.monotonic())
            if remaining == 0 and polled:
                return None
            polled = True
            self._socket.settimeout(remaining)
            try:
                chunk = self._socket.recv(1 << 20)
            except (socket.timeout, TimeoutError, BlockingIOError):
                if remaining == 0:
                    return None
                continue
            if not chunk:
                raise WorkerDied(self.diagnostics() + self._exit_state())
            self._raw += chunk
            self._demultiplex()
        line, _, rest = bytes(self._stdout).partition(b"\n")
        self._stdout = bytearray(rest)
        return line

    def _demultiplex(self) -> None:
        # Docker's stream format without a tty: 8-byte header (stream, 0,0,0, size) + payload.
        while len(self._raw) >= 8:
            stream, size = self._raw[0], struct.unpack(">I", self._raw[4:8])[0]
            if len(self._raw) < 8 + size:
                return
            payload = bytes(self._raw[8:8 + size])
            del self._raw[:8 + size]
            if stream == 1:
                self._stdout += payload
            elif stream == 2:
                self._stderr += payload
                del self._stderr[:-STDERR_TAIL_BYTES]

    def diagnostics(self) -> str:
        return bytes(self._stderr).decode("utf-8", errors="replace")

    def _exit_state(self) -> str:
        import docker

        try:
            self._container.reload()
        except docker.errors.NotFound:
            return ""
        state = self._container.attrs.get("State", {})
        if state.get("OOMKilled"):
            return "\n[container killed by the out-of-memory killer]"
        return f"\n[container state: {state.get('Status')}, exit code {state.get('ExitCode')}]"

    def processes(self) -> set[int]:
        import docker

        try:
            top = self._container.top(ps_args="-eo pid")
        except docker.errors.APIError:
            return set()  # not running: nothing is left in it
        return {int(row[0]) for row in top.get("Processes") or []}

    def kill(self) -> None:
        import docker

        with self._lock:
            if self._closed:
                return
            self._closed = True
        try:
            self._socket.close()
        except OSError:
            pass
        try:
            self._container.remove(force=True)  # SIGKILL, then delete with its tmpfs
        except docker.errors.NotFound:
            pass


def _ca_bundle() -> Path:
    """The CA bundle pip inside the build should trust: the host's own."""
    candidates = [os.environ.get("PIP_CERT"), os.environ.get("SSL_CERT_FILE"),
                  ssl.get_default_verify_paths().cafile, "/etc/ssl/certs/ca-certificates.crt"]
    for candidate in candidates:
        if candidate and Path(candidate).is_file():
            return Path(candidate)
    raise BackendUnavailable("no CA bundle found for pip at image build time; set PIP_CERT")
