"""Target environments: where exactly one release of the audited library is importable.

An environment is a uv-made virtualenv under `<cache>/envs/<key>/venv`, with `env.json`
beside it recording what was asked for, how it was resolved and the full resolved package
set (`uv pip freeze`), which reports quote. Environments are built once and reused, and
checked before each reuse: their files against the manifest recorded at their build
(env_files.py), so nothing a run wrote into one reaches the next.

Old releases need the companions of their time (numpy<2 for old PennyLane, an older
autoray...). Rather than keeping a hand-written table that would rot, a release that does
not work with today's companions is resolved again as of its own upload date
(`uv pip install --exclude-newer`), and the companions that resolution chose are recorded.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import urllib.request
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

from qusema.notices import Notice
from qusema.targets.env_files import MANIFEST, FileManifest, scan
from qusema.targets.release_lookup import missing_release

DEFAULT_PYTHON = "3.11"
# Before Python 3.12 every `python -m venv` came with setuptools, and releases of that time
# import pkg_resources without declaring it. uv venvs have no seed packages, so a
# resolution "as of" a release day adds them, at that day's versions too.
PERIOD_SEED_PACKAGES = ("setuptools",)
ENV_RECORD = "env.json"
# Raised whenever the smoke check learns to catch more: 2 added loading the plugins.
SMOKE_REVISION = 2

# A check that the library works, not only imports: old releases often import fine under
# new numpy and fail on first use. Generic per library, never tied to a known bug.
SMOKE_CHECKS: dict[str, str] = {
    "qiskit": (
        "import qiskit\n"
        "from qiskit.quantum_info import Operator\n"
        "qc = qiskit.QuantumCircuit(2); qc.h(0); qc.cx(0, 1)\n"
        "assert Operator(qc).dim == (4, 4)\n"
    ),
    "pennylane": (
        "import pennylane as qml\n"
        "dev = qml.device('default.qubit', wires=2)\n"
        "@qml.qnode(dev)\n"
        "def f(x):\n"
        "    qml.RX(x, wires=0); qml.CNOT(wires=[0, 1])\n"
        "    return qml.expval(qml.PauliZ(1))\n"
        "assert abs(float(f(0.0)) - 1.0) < 1e-9\n"
    ),
}


# Plugins are companions too: a package of today registering itself under the library's entry
# points (pennylane-lightning's `lightning.qubit` under `pennylane.plugins`) may no longer load
# beside an old release, and every check through it would then vanish from the audit. So every
# entry point another installed distribution registers in the library's groups must load. The
# library's own entry points are left out: they name optional backends (jax, torch) on purpose.
# Python 3.8 spelling (no entry_points(group=...), no EntryPoint.dist): old targets run it.
PLUGINS_LOAD = (
    "import importlib.metadata as _m, re as _re\n"
    "for _dist in _m.distributions():\n"
    "    if _re.sub(r'[-_.]+', '-', _dist.metadata['Name'] or '').lower() == {library!r}:\n"
    "        continue\n"
    "    for _ep in _dist.entry_points:\n"
    "        if _ep.group == {group!r} or _ep.group.startswith({group!r} + '.'):\n"
    "            try:\n"
    "                _ep.load()\n"
    "            except Exception as _e:\n"
    "                raise SystemExit(f'plugin {{_ep.name}} ({{_ep.group}}) of {{_dist.metadata[\"Name\"]}} '\n"
    "                                 f'{{_dist.version}} does not load: {{type(_e).__name__}}: {{_e}}')\n"
)


class TargetEnvironmentError(Exception):
    """Base for failures to build a target environment."""


class ResolutionError(TargetEnvironmentError):
    """The resolver could not satisfy the request; the message is the resolver's own."""

    def __init__(self, requirement: str, resolver_message: str, attempt: str) -> None:
        resolver_message = _without_venv_banner(resolver_message)
        super().__init__(
            f"cannot resolve {requirement} ({attempt}):\n{resolver_message.strip()}"
        )
        self.requirement = requirement
        self.resolver_message = resolver_message
        self.attempt = attempt


def _without_venv_banner(message: str) -> str:
    # uv starts with "Using Python ... environment at: <venv>"; that venv is removed with the
    # failed build, so the line would only send people looking for it.
    return "\n".join(line for line in message.splitlines()
                     if not line.startswith("Using Python ") or " environment at: " not in line)


class ReleaseNotFound(TargetEnvironmentError):
    """The package index has no such project, or no such release of it (the message names
    the closest releases); the resolver's words are kept as the cause."""


class BrokenEnvironmentError(TargetEnvironmentError):
    """Resolution succeeded but the library does not work in the result."""


class EnvironmentNotice(Notice):
    """Something the person running qusema should know about an environment it reuses."""


class EnvironmentChanged(TargetEnvironmentError):
    """The files of a built environment are not the ones recorded when it was built."""

    def __init__(self, env: TargetEnvironment, what: str) -> None:
        self.key = env.key
        self.what = what
        super().__init__(
            f"environment {env.key} ({env.requirement}) changed since it was built: {what}; "
            f"it is not used. Rebuild it: qusema env rm {env.key} (the next command that needs it builds it again)"
        )


def cache_dir() -> Path:
    configured = os.environ.get("QUSEMA_CACHE_DIR")
    return Path(configured) if configured else Path.home() / ".cache" / "qusema"


@dataclass(frozen=True)
class Requirement:
    """`name==version` of a release, or a bare name for 'latest'."""

    name: str
    version: str | None

    @classmethod
    def parse(cls, text: str) -> Requirement:
        match = re.fullmatch(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:==\s*([^\s;,]+))?\s*", text)
        if not match:
            raise ValueError(f"expected NAME==VERSION or NAME, got {text!r}")
        return cls(match.group(1), match.group(2))

    @property
    def normalized_name(self) -> str:
        return re.sub(r"[-_.]+", "-", self.name).lower()

    @property
    def import_name(self) -> str:
        return self.normalized_name.replace("-", "_")

    def __str__(self) -> str:
        return f"{self.name}=={self.version}" if self.version else self.name


@dataclass
class TargetEnvironment:
    key: str
    root: Path
    python: Path  # the interpreter snippets run under
    prefix: Path  # sys.prefix of that interpreter
    base_prefix: Path  # sys.base_prefix: a sandbox must make it visible too
    python_version: str
    requirement: str
    import_name: str
    source: str  # "pypi" | "existing-interpreter" | "checkout"
    resolution: str  # "current" | "explicit" | "as-of <date>" | "none"
    companions: list[str] = field(default_factory=list)
    packages: list[str] = field(default_factory=list)  # uv pip freeze
    checkout_commit: str | None = None
    # Why today's companions were not kept, in the library's own words.
    current_companions_failure: str | None = None
    created_at: str = ""
    # Which revision of the smoke check the environment passed (records older than
    # SMOKE_REVISION are checked again before reuse).
    smoke_revision: int = 0
    # sha256 of the venv's file manifest (files.json beside this record), compared before
    # every reuse; None for an adopted interpreter (not ours to vouch for) and for records
    # written before digests existed, until their first reuse records one.
    files_digest: str | None = None
    # "at creation", or "at first reuse <date>" for an environment built before digests: its
    # digest vouches for nothing that happened to it before that date.
    files_recorded: str = ""

    def to_json(self) -> dict:
        record = asdict(self)
        for name in ("root", "python", "prefix", "base_prefix"):
            record[name] = str(record[name])
        return record

    @classmethod
    def from_json(cls, record: dict) -> TargetEnvironment:
        # One cache serves every qusema on the machine: a record written by a newer one may
        # carry fields this one does not know, and reading it must not fail.
        known = {f.name for f in fields(cls)}
        record = {name: value for name, value in record.items() if name in known}
        for name in ("root", "python", "prefix", "base_prefix"):
            record[name] = Path(record[name])
        return cls(**record)

    def requirements_lock(self) -> str:
        """The resolved set as a pip requirements file (what the docker image installs)."""
        return "".join(line + "\n" for line in self.packages if not line.startswith("-e "))


@dataclass(frozen=True)
class CommandResult:
    returncode: int
    stdout: str
    stderr: str


def _run(args: Sequence[str | Path], timeout: float = 1800) -> CommandResult:
    completed = subprocess.run(
        [str(a) for a in args], capture_output=True, text=True, timeout=timeout,
        env=_uv_environment(),
    )
    return CommandResult(completed.returncode, completed.stdout, completed.stderr)


def _uv_environment() -> dict[str, str]:
    env = dict(os.environ)
    # A VIRTUAL_ENV of the caller must not redirect uv away from the target venv.
    env.pop("VIRTUAL_ENV", None)
    env.setdefault("UV_NO_PROGRESS", "1")
    # uv hard-links files from its cache into each venv by default: a write into one
    # environment (a snippet under the process backend) would then change uv's cache and
    # every environment made from it, rebuilt ones included. Copies keep each one its own.
    env["UV_LINK_MODE"] = "copy"
    return env


def _uv() -> list[str]:
    found = shutil.which("uv")
    return [found] if found else [sys.executable, "-m", "uv"]


def release_upload_time(req: Requirement, index_url: str | None = None) -> dt.datetime:
    """When the release's first file was uploaded, from the index's JSON simple API."""
    index = (index_url or os.environ.get("UV_INDEX_URL") or "https://pypi.org/simple").rstrip("/")
    request = urllib.request.Request(
        f"{index}/{req.normalized_name}/",
        headers={"Accept": "application/vnd.pypi.simple.v1+json"},
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        index_page = json.load(response)
    times = []
    pattern = re.compile(rf"^{re.escape(req.normalized_name).replace('-', '[-_.]')}-{re.escape(req.version or '')}[-.]", re.I)
    for file in index_page.get("files", []):
        if pattern.match(file["filename"]) and file.get("upload-time"):
            times.append(dt.datetime.fromisoformat(file["upload-time"].replace("Z", "+00:00")))
    if not times:
        raise ResolutionError(str(req), f"the index lists no files with upload times for {req}", "as of its release date")
    return min(times)


@dataclass(frozen=True)
class EnvironmentStore:
    """The cache of target environments under `<cache>/envs`."""

    root: Path = field(default_factory=lambda: cache_dir() / "envs")

    def list(self) -> list[TargetEnvironment]:
        found = []
        if self.root.is_dir():
            for record in sorted(self.root.glob(f"*/{ENV_RECORD}")):
                found.append(TargetEnvironment.from_json(json.loads(record.read_text())))
        return found

    def get(self, key_or_requirement: str) -> TargetEnvironment | None:
        """The cached environment with this key or requirement, verified as `create` does
        before it returns a cached one (EnvironmentChanged if its files changed)."""
        for env in self.list():
            if key_or_requirement in (env.key, env.requirement):
                with self._locked(env.key):
                    current = _load(env.root)
                    if current is None:  # removed meanwhile
                        return None
                    self._verify_files(current, current.root)
                    return current
        return None

    def verify(self, env: TargetEnvironment) -> TargetEnvironment:
        """Compares the environment's files with its record (EnvironmentChanged if they
        differ; records a digest if it has none); returns the record as it now is."""
        with self._locked(env.key):
            current = _load(env.root)
            if current is None:
                raise TargetEnvironmentError(f"environment {env.key} is gone (removed meanwhile?)")
            self._verify_files(current, current.root)
            return current

    def remove(self, key_or_requirement: str) -> list[str]:
        removed = []
        for env in self.list():
            if key_or_requirement in (env.key, env.requirement):
                with self._locked(env.key):  # not from under a build or a verification
                    shutil.rmtree(env.root)
                removed.append(env.key)
        return removed

    @contextlib.contextmanager
    def _locked(self, key: str) -> Iterator[None]:
        """Two audits asking for the same release must not build it twice at once. The lock
        file goes when no environment stays behind it (a release that does not exist must
        leave nothing in envs/); a waiter that then holds a lock on the unlinked file sees
        that the path no longer leads to its file and takes the lock again."""
        self.root.mkdir(parents=True, exist_ok=True)
        path = self.root / f".{key}.lock"
        while True:
            lock = open(path, "a")
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                if os.path.samestat(os.fstat(lock.fileno()), os.stat(path)):
                    break
            except FileNotFoundError:
                pass
            lock.close()
        try:
            yield
        finally:
            if not (self.root / key).exists():
                path.unlink(missing_ok=True)
            lock.close()

    def create(
        self,
        requirement: str,
        companions: Sequence[str] = (),
        python: str | Path | None = None,
        import_name: str | None = None,
        tools: Sequence[str] = (),
    ) -> TargetEnvironment:
        """Builds (or returns the cached) environment for `requirement`, e.g. qiskit==1.0.2.

        `tools` (e.g. `hypothesis` for the contract engine) are installed after the
        library and its companions are resolved, so they never change that resolution."""
        req = Requirement.parse(requirement)
        python_spec = str(python or DEFAULT_PYTHON)
        digest = _digest([str(req), *sorted(companions), python_spec, *(["tools", *sorted(tools)] if tools else [])])
        key = f"{req.normalized_name}-{req.version or 'latest'}-{digest}"
        env_dir = self.root / key
        with self._locked(key):
            cached = _load(env_dir)
            if cached is not None and self._still_sound(cached, env_dir):
                return cached
            if env_dir.exists():
                shutil.rmtree(env_dir)  # an earlier build stopped half-way
            env_dir.mkdir(parents=True)
            try:
                return self._build(req, key, env_dir, list(companions), python_spec,
                                   import_name or req.import_name, list(tools))
            except ResolutionError as exc:
                shutil.rmtree(env_dir, ignore_errors=True)
                # No such release or project: say so in one line, with the closest releases.
                missing = missing_release(req.name, req.version)
                if missing is None:
                    raise
                raise ReleaseNotFound(str(missing)) from exc
            except BaseException:
                shutil.rmtree(env_dir, ignore_errors=True)
                raise

    @classmethod
    def _still_sound(cls, env: TargetEnvironment, env_dir: Path) -> bool:
        """Whether a cached environment may be reused: its files are the ones recorded at its
        build (EnvironmentChanged if not: a rebuild would hide that something wrote into it),
        and a release environment built before the smoke check's latest revision passes it
        now, or is rebuilt: one built before plugins were loaded may hold a plugin that does
        not load, and every check through that plugin would silently drop out of an audit."""
        if env.files_digest is not None:
            cls._verify_files(env, env_dir)
        if env.smoke_revision < SMOKE_REVISION and env.source == "pypi":
            if _smoke(env.python, Requirement.parse(env.requirement)) is not None:
                return False
            env.smoke_revision = SMOKE_REVISION
            _record(env_dir, env, keep_created_at=True)
        if env.files_digest is None:
            cls._verify_files(env, env_dir)  # built before digests: records one now
        return True

    @staticmethod
    def _verify_files(env: TargetEnvironment, env_dir: Path) -> None:
        """Raises EnvironmentChanged if the venv's files differ from its manifest; records a
        manifest for an environment built before manifests existed."""
        venv = env_dir / "venv"
        if env.source == "existing-interpreter" or not venv.is_dir():
            return  # an adopted interpreter is the user's, and changes with their machine
        now = scan(venv)
        if env.files_digest is None:
            _record_files(env_dir, env, now, f"at first reuse {_today()}")
            warnings.warn(f"environment {env.key} was built before qusema recorded the files of an "
                          "environment: they are recorded now and checked before every later reuse; "
                          f"nothing vouches for them before today (`qusema env rm {env.key}` rebuilds it)",
                          EnvironmentNotice, stacklevel=4)
            return
        if now.digest == env.files_digest:
            return
        recorded = FileManifest.read(env_dir / MANIFEST)
        if recorded is None or recorded.digest != env.files_digest:
            raise EnvironmentChanged(env, f"its file list {env_dir / MANIFEST} is missing or was changed too")
        changes = now.changes_since(recorded)
        raise EnvironmentChanged(env, changes.describe() if changes else "its files differ from their record")

    def _build(self, req: Requirement, key: str, env_dir: Path, companions: list[str],
               python_spec: str, import_name: str, tools: list[str]) -> TargetEnvironment:
        venv = env_dir / "venv"
        resolution = "explicit" if companions else "current"
        current_failure = None
        failure = self._install(req, venv, python_spec, companions, exclude_newer=None)
        if failure is not None and not companions and req.version:
            # Today's companions broke this release: resolve it as of its own release day.
            as_of = release_upload_time(req) + dt.timedelta(days=1)
            current_failure = failure
            shutil.rmtree(venv)
            resolution = f"as-of {as_of.date().isoformat()}"
            failure = self._install(req, venv, python_spec, companions, exclude_newer=as_of)
            if failure is not None:
                raise BrokenEnvironmentError(
                    f"{req} does not work even with the companions of its release date "
                    f"({as_of.date()}):\n{failure}"
                )
        elif failure is not None:
            raise BrokenEnvironmentError(f"{req} does not work in the resolved environment:\n{failure}")
        python = venv / "bin" / "python"
        _install_tools(python, tools, str(req))
        packages = _freeze(python)
        chosen = companions if resolution in ("explicit", "current") else _direct_dependency_pins(
            python, req, packages, extra=PERIOD_SEED_PACKAGES)
        return _record_files(env_dir, TargetEnvironment(
            key=key, root=env_dir, python=python, **_probe(python),
            requirement=str(req), import_name=import_name, source="pypi",
            resolution=resolution, companions=chosen if resolution != "current" else [],
            packages=packages, current_companions_failure=current_failure, smoke_revision=SMOKE_REVISION,
        ), scan(venv), "at creation", keep_created_at=False)

    def _install(self, req: Requirement, venv: Path, python_spec: str, companions: list[str],
                 exclude_newer: dt.datetime | None) -> str | None:
        """Makes the venv and installs; returns why the library fails to work, or None."""
        made = _run([*_uv(), "venv", "--quiet", "-p", python_spec, venv])
        if made.returncode != 0:
            raise ResolutionError(str(req), made.stderr, f"uv venv -p {python_spec}")
        # Bytecode is compiled now because the sandbox mounts the environment read-only:
        # without .pyc files every cold import of qiskit recompiles it (~1 s).
        args = [*_uv(), "pip", "install", "--compile-bytecode", "-p", venv / "bin" / "python",
                str(req), *companions]
        attempt = "with current companions"
        if exclude_newer is not None:
            args += [*PERIOD_SEED_PACKAGES,
                     "--exclude-newer", exclude_newer.strftime("%Y-%m-%dT%H:%M:%SZ")]
            attempt = f"as of {exclude_newer.date()}"
        installed = _run(args)
        if installed.returncode != 0:
            raise ResolutionError(str(req), installed.stderr, attempt)
        return _smoke(venv / "bin" / "python", req)

    def adopt_interpreter(self, python: Path, requirement: str | None = None) -> TargetEnvironment:
        """Records an existing interpreter (`--python PATH`) as a target environment."""
        python = Path(python).absolute()
        probe = _probe(python)
        key = f"python-{_digest([str(python)])}"
        env_dir = self.root / key
        with self._locked(key):
            env_dir.mkdir(parents=True, exist_ok=True)
            packages = _freeze(python)
            req = Requirement.parse(requirement) if requirement else None
            return _record(env_dir, TargetEnvironment(
                key=key, root=env_dir, python=python, **probe,
                requirement=str(req) if req else str(python),
                import_name=req.import_name if req else "",
                source="existing-interpreter", resolution="none", packages=packages,
            ))

    def from_checkout(self, checkout: Path, python_spec: str = DEFAULT_PYTHON,
                      import_name: str | None = None, tools: Sequence[str] = ()) -> TargetEnvironment:
        """Builds the library from a source checkout, cached by its commit (and the tools
        installed beside it, as for `create`)."""
        checkout = Path(checkout).resolve()
        commit = checkout_commit(checkout)
        dirty = subprocess.run(["git", "-C", str(checkout), "status", "--porcelain",
                                "--untracked-files=no"], capture_output=True, text=True).stdout.strip()
        if dirty:
            # The commit would not identify what gets built; caching by it would lie.
            raise TargetEnvironmentError(f"{checkout} has uncommitted changes; commit or stash them")
        name = import_name or checkout.name
        key = f"checkout-{re.sub(r'[^A-Za-z0-9_.-]', '-', name)}-{commit[:12]}"
        if tools:
            key += f"-{_digest(['tools', *sorted(tools)])}"
        env_dir = self.root / key
        with self._locked(key):
            cached = _load(env_dir)
            if cached is not None:
                self._verify_files(cached, env_dir)
                return cached
            if env_dir.exists():
                shutil.rmtree(env_dir)
            env_dir.mkdir(parents=True)
            try:
                venv = env_dir / "venv"
                made = _run([*_uv(), "venv", "--quiet", "-p", python_spec, venv])
                if made.returncode != 0:
                    raise ResolutionError(str(checkout), made.stderr, f"uv venv -p {python_spec}")
                built = _run([*_uv(), "pip", "install", "--compile-bytecode", "-p",
                              venv / "bin" / "python", checkout],
                             timeout=7200)
                if built.returncode != 0:
                    raise ResolutionError(str(checkout), built.stderr, f"build of commit {commit}")
                python = venv / "bin" / "python"
                _install_tools(python, tools, str(checkout))
                return _record_files(env_dir, TargetEnvironment(
                    key=key, root=env_dir, python=python, **_probe(python),
                    requirement=f"{checkout}@{commit}", import_name=name, source="checkout",
                    resolution="current", packages=_freeze(python), checkout_commit=commit,
                ), scan(venv), "at creation", keep_created_at=False)
            except BaseException:
                shutil.rmtree(env_dir, ignore_errors=True)
                raise


def _install_tools(python: Path, tools: Sequence[str], beside: str) -> None:
    """Installs the auditor's tools (e.g. hypothesis) next to the library."""
    if not tools:
        return
    added = _run([*_uv(), "pip", "install", "--compile-bytecode", "-p", python, *tools])
    if added.returncode != 0:
        raise ResolutionError(" ".join(tools), added.stderr, f"tools beside {beside}")


def checkout_commit(checkout: Path) -> str:
    """The commit a checkout's HEAD is at; what identifies what gets built from it."""
    head = subprocess.run(["git", "-C", str(checkout), "rev-parse", "HEAD"], capture_output=True, text=True)
    if head.returncode != 0:
        raise TargetEnvironmentError(f"{checkout} is not a git checkout: {head.stderr.strip()}")
    return head.stdout.strip()


def _digest(parts: Sequence[str]) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:10]


def _load(env_dir: Path) -> TargetEnvironment | None:
    record = env_dir / ENV_RECORD
    if not record.is_file():
        return None
    env = TargetEnvironment.from_json(json.loads(record.read_text()))
    return env if env.python.exists() else None


def _record(env_dir: Path, env: TargetEnvironment, keep_created_at: bool = False) -> TargetEnvironment:
    if not keep_created_at:
        env.created_at = dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")
    # Written last and atomically: its presence is what marks the environment complete.
    tmp = env_dir / (ENV_RECORD + ".tmp")
    tmp.write_text(json.dumps(env.to_json(), indent=1) + "\n")
    tmp.replace(env_dir / ENV_RECORD)
    return env


def _record_files(env_dir: Path, env: TargetEnvironment, manifest: FileManifest, when: str,
                  keep_created_at: bool = True) -> TargetEnvironment:
    """Writes the manifest, then the record that carries its digest (the record last: it is
    what marks the environment complete)."""
    manifest.write(env_dir / MANIFEST)
    env.files_digest, env.files_recorded = manifest.digest, when
    return _record(env_dir, env, keep_created_at=keep_created_at)


def _today() -> str:
    return dt.datetime.now(dt.timezone.utc).date().isoformat()


def _probe(python: Path) -> dict:
    probed = _run([python, "-B", "-c", (
        "import json, sys; print(json.dumps({'prefix': sys.prefix, 'base_prefix': sys.base_prefix,"
        " 'python_version': sys.version.split()[0]}))"
    )], timeout=120)
    if probed.returncode != 0:
        raise TargetEnvironmentError(f"{python} does not run: {probed.stderr.strip()}")
    info = json.loads(probed.stdout)
    return {"prefix": Path(info["prefix"]), "base_prefix": Path(info["base_prefix"]),
            "python_version": info["python_version"]}


def _freeze(python: Path) -> list[str]:
    frozen = _run([*_uv(), "pip", "freeze", "-p", python], timeout=300)
    if frozen.returncode != 0:
        raise TargetEnvironmentError(f"uv pip freeze failed: {frozen.stderr.strip()}")
    return [line for line in frozen.stdout.splitlines() if line.strip()]


def _smoke(python: Path, req: Requirement) -> str | None:
    check = SMOKE_CHECKS.get(req.normalized_name, f"import {req.import_name}\n")
    check += PLUGINS_LOAD.format(library=req.normalized_name, group=req.import_name)
    ran = _run([python, "-B", "-c", check], timeout=600)
    if ran.returncode == 0:
        return None
    return ran.stderr.strip().splitlines()[-1] if ran.stderr.strip() else f"exit code {ran.returncode}"


def _direct_dependency_pins(python: Path, req: Requirement, packages: list[str],
                            extra: Sequence[str] = ()) -> list[str]:
    """The target's own (non-extra) dependencies, and `extra`, at the versions chosen."""
    listed = _run([python, "-B", "-c", (
        "import importlib.metadata as m, json, sys\n"
        f"print(json.dumps(m.requires({req.name!r}) or []))"
    )], timeout=120)
    if listed.returncode != 0:
        return []
    pinned = {}
    for line in packages:
        name, sep, version = line.partition("==")
        if sep:
            pinned[re.sub(r"[-_.]+", "-", name).lower()] = version
    chosen = [f"{name}=={pinned[name]}" for name in extra if name in pinned]
    for spec in json.loads(listed.stdout):
        if "extra ==" in spec.replace("extra==", "extra =="):
            continue
        name = re.sub(r"[-_.]+", "-", re.match(r"[A-Za-z0-9._-]+", spec).group(0)).lower()
        if name in pinned:
            chosen.append(f"{name}=={pinned[name]}")
    return sorted(set(chosen))
