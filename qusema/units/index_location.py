"""Where the index of a target lives in the cache, and which target was indexed last (so
`qusema unit X` works right after `qusema index T` without repeating T)."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

_UNSAFE = re.compile(r"[^A-Za-z0-9_.=-]+")


def index_path(cache_dir: Path, spec: str) -> Path:
    return cache_dir / "index" / f"{target_slug(spec)}.sqlite"


def target_slug(spec: str) -> str:
    """`qiskit==2.4.1` -> `qiskit==2.4.1`; a path -> `checkout-<folder>-<hash of the absolute path>`."""
    candidate = Path(spec).expanduser()
    if "==" not in spec or candidate.exists():
        resolved = candidate.resolve()
        digest = hashlib.sha256(str(resolved).encode()).hexdigest()[:12]
        return f"checkout-{_UNSAFE.sub('_', resolved.name) or 'root'}-{digest}"
    name, _, version = spec.partition("==")
    return _UNSAFE.sub("_", f"{name.strip().lower().replace('_', '-')}=={version.strip()}")


def remember_last(cache_dir: Path, spec: str) -> None:
    last = cache_dir / "index" / "LAST"
    last.parent.mkdir(parents=True, exist_ok=True)
    tmp = last.with_suffix(".tmp")
    tmp.write_text(spec)
    tmp.replace(last)


def last_target(cache_dir: Path) -> str | None:
    last = cache_dir / "index" / "LAST"
    return last.read_text().strip() if last.is_file() else None
