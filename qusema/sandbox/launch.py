"""What every backend needs to start the in-sandbox worker the same way."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from qusema.sandbox.records import Limits

WORKER_SCRIPT = "warm_worker.py"


def sandbox_source_dir() -> Path:
    """The repository's top-level sandbox/ folder: the code that runs inside."""
    configured = os.environ.get("QUSEMA_SANDBOX_DIR")
    candidate = Path(configured) if configured else Path(__file__).resolve().parents[2] / "sandbox"
    if not (candidate / WORKER_SCRIPT).is_file():
        raise FileNotFoundError(
            f"the in-sandbox runner is not at {candidate}; set QUSEMA_SANDBOX_DIR to the "
            "repository's sandbox/ folder"
        )
    return candidate


def clean_environment(limits: Limits, home: str, path_dirs: Sequence[str]) -> dict[str, str]:
    """The whole environment a snippet sees: nothing is inherited from the host,
    so no API key or token of the host can reach generated code."""
    threads = str(limits.threads)
    return {
        "PATH": ":".join([*path_dirs, "/usr/local/bin", "/usr/bin", "/bin"]),
        "HOME": home,
        "TMPDIR": home,
        "USER": "sandbox",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONNOUSERSITE": "1",
        "PYTHONUNBUFFERED": "1",
        "OMP_NUM_THREADS": threads,
        "OPENBLAS_NUM_THREADS": threads,
        "MKL_NUM_THREADS": threads,
        "RAYON_NUM_THREADS": threads,
        "MPLBACKEND": "Agg",
    }


def worker_arguments(work_root: str, scratch: Sequence[str], preload: Sequence[str],
                     pid_namespace: bool, sweep_own_files: Sequence[str] = ()) -> list[str]:
    args = ["--work-root", work_root]
    for path in scratch:
        args += ["--scratch", path]
    for path in sweep_own_files:
        args += ["--sweep-own-files", path]
    if preload:
        args += ["--preload", ",".join(preload)]
    if pid_namespace:
        args.append("--pid-namespace")
    return args
