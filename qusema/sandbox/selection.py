"""Backends by name, and the automatic choice: docker, else bwrap, else process."""

from __future__ import annotations

import importlib
import warnings

from typing import TYPE_CHECKING

from qusema.notices import Notice
from qusema.sandbox.protocol import Backend, BackendUnavailable

if TYPE_CHECKING:
    from qusema.targets.environments import TargetEnvironment

# Names to import paths, as in mini-swe-agent: a backend's dependencies (the docker SDK)
# are imported only when that backend is asked for.
BACKENDS: dict[str, str] = {
    "docker": "qusema.sandbox.docker_backend:DockerBackend",
    "bwrap": "qusema.sandbox.bwrap_backend:BwrapBackend",
    "process": "qusema.sandbox.process_backend:ProcessBackend",
}
AUTO_ORDER = ("docker", "bwrap", "process")


class SandboxChoiceNotice(Notice):
    """The automatic choice passed over a stronger backend; says which and why."""


def _fell_back(chosen: str, reasons: list[str]) -> None:
    warnings.warn(f"using sandbox {chosen!r} ({'; '.join(reasons)})", SandboxChoiceNotice, stacklevel=3)


def backend_class(name: str) -> type:
    try:
        module_name, _, class_name = BACKENDS[name].partition(":")
    except KeyError:
        raise ValueError(f"unknown sandbox {name!r}; choose one of {', '.join(BACKENDS)}") from None
    return getattr(importlib.import_module(module_name), class_name)


def unavailable_reason(name: str) -> str | None:
    """Why backend `name` cannot run here, or None if it can."""
    cls = backend_class(name)
    if name == "process":
        return None
    return cls().unavailable_reason()


def backend_for(env: "TargetEnvironment", name: str | None = None) -> Backend:
    """The named backend prepared for `env`, or the first of AUTO_ORDER that is usable here
    AND can host this environment (docker builds images only from released packages, so a
    checkout environment falls through to bwrap)."""
    if name is not None and name != "auto":
        chosen = get_backend(name)
        chosen.prepare(env)
        return chosen
    reasons = []
    for candidate in AUTO_ORDER:
        reason = unavailable_reason(candidate)
        if reason is None:
            chosen = backend_class(candidate)()
            try:
                chosen.prepare(env)
            except BackendUnavailable as refused:
                reasons.append(f"{candidate}: {refused}")
                continue
            if reasons:
                _fell_back(candidate, reasons)
            return chosen
        reasons.append(f"{candidate}: {reason}")
    raise BackendUnavailable("; ".join(reasons))


def get_backend(name: str | None = None) -> Backend:
    """The named backend, or the first usable one of AUTO_ORDER."""
    if name is not None and name != "auto":
        reason = unavailable_reason(name)
        if reason is not None:
            raise BackendUnavailable(f"sandbox {name!r} is unavailable: {reason}")
        return backend_class(name)()
    reasons = []
    for candidate in AUTO_ORDER:
        reason = unavailable_reason(candidate)
        if reason is None:
            if reasons:
                _fell_back(candidate, reasons)
            return backend_class(candidate)()
        reasons.append(f"{candidate}: {reason}")
    raise BackendUnavailable("; ".join(reasons))
