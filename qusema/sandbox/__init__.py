"""Where generated code runs: under the target's Python, in a sandbox, with limits.

    from qusema.sandbox import open_sandbox
    with open_sandbox(env) as box:          # docker, else bwrap, else process
        result = box.run("report('x', 1)")  # RunResult(status=Status.OK, reports={'x': 1})

Backends implement `Backend` (protocol.py) and are picked by name (selection.py).
"""

from qusema.sandbox.protocol import Backend, BackendUnavailable, Transport, WorkerDied
from qusema.sandbox.records import Containment, ExceptionInfo, Limits, RunResult, Status
from qusema.sandbox.selection import BACKENDS, get_backend, unavailable_reason
from qusema.sandbox.session import ColdSandbox, Sandbox, WarmSandbox, open_sandbox

__all__ = [
    "BACKENDS", "Backend", "BackendUnavailable", "ColdSandbox", "Containment", "ExceptionInfo",
    "Limits", "RunResult", "Sandbox", "Status", "Transport", "WarmSandbox", "WorkerDied",
    "get_backend", "open_sandbox", "unavailable_reason",
]
