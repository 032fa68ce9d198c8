"""Runs one snippet inside the sandbox, in the process that will die with it.

This file runs under the *target's* Python (any 3.8+), next to the target library, and
must never import qusema: standard library only, numpy when the target has it.

The warm worker (warm_worker.py) forks a fresh child per snippet and calls
`run_in_this_process` there. The child applies its limits, executes the code, classifies
the outcome and writes one JSON result to a pipe of its own. Its stdout and stderr are
pipes read by the worker, so nothing a snippet prints can be mistaken for a result.
"""

import json
import linecache
import math
import os
import resource
import signal
import sys
import time
import traceback

PROTOCOL_VERSION = 2

# Bound now, before any snippet runs: a snippet that replaces json.dumps or os.write in
# its own process must still get its result reported.
_dumps = json.dumps
_write = os.write
_close = os.close
_exit = os._exit
_getpid = os.getpid
_perf_counter = time.perf_counter

STATUS_OK = "ok"
STATUS_ASSERTION_FAILED = "assertion_failed"
STATUS_EXCEPTION = "exception"
STATUS_TIMEOUT = "timeout"
STATUS_MEMORY_EXCEEDED = "memory_exceeded"
STATUS_KILLED = "killed"

# A reported value may be large (a state vector); past this many bytes of JSON the
# value is replaced by its repr so one report cannot drown the result channel.
MAX_REPORT_BYTES = 4 * 1024 * 1024


def jsonable(value, depth=0):
    """Turns a reported value into plain JSON, keeping complex numbers and arrays exact."""
    if depth > 20:
        return {"repr": repr(value)[:1000]}
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        # JSON has no NaN/inf; keep them distinguishable from numbers.
        if math.isfinite(value):
            return value
        return {"float": repr(value)}
    if isinstance(value, complex):
        return {"complex": [jsonable(value.real, depth + 1), jsonable(value.imag, depth + 1)]}
    if isinstance(value, (list, tuple)):
        return [jsonable(v, depth + 1) for v in value]
    if isinstance(value, dict):
        return {str(k): jsonable(v, depth + 1) for k, v in value.items()}
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        if isinstance(value, numpy.ndarray):
            return {
                "ndarray": jsonable(value.tolist(), depth + 1),
                "dtype": str(value.dtype),
                "shape": list(value.shape),
            }
        if isinstance(value, numpy.generic):
            return jsonable(value.item(), depth + 1)
    return {"repr": repr(value)[:10000]}


class Reports:
    """The values a snippet hands back with `report(name, value)`."""

    def __init__(self):
        self.values = {}

    def report(self, name, value):
        encoded = jsonable(value)
        if len(_dumps(encoded)) > MAX_REPORT_BYTES:
            encoded = {"repr": repr(value)[:10000], "dropped": "value too large to report"}
        self.values[str(name)] = encoded


def _apply_limits(limits):
    # The address-space limit is counted on top of what the warm worker already mapped
    # (an imported qiskit maps hundreds of MB), so the snippet gets the same budget
    # whether it runs warm or cold.
    memory = limits.get("memory_bytes")
    if memory:
        mapped = _mapped_bytes()
        resource.setrlimit(resource.RLIMIT_AS, (mapped + memory, mapped + memory))
    timeout = limits.get("timeout_s")
    if timeout:
        # CPU time is only a backstop: the worker enforces the wall-clock timeout.
        cpu = int(math.ceil(timeout)) + 2
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    file_bytes = limits.get("file_bytes")
    if file_bytes:
        # Without this, SIGXFSZ would kill the snippet instead of raising OSError(EFBIG).
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (file_bytes, file_bytes))
    nproc = limits.get("nproc")
    if nproc:
        # RLIMIT_NPROC counts all processes of the user, so the budget is added to what
        # the user already runs. Used only where no pids cgroup caps the sandbox.
        nproc += _processes_of_my_user()
        resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def _processes_of_my_user():
    uid = os.getuid()
    count = 0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.stat("/proc/" + entry).st_uid == uid:
                    count += 1
            except OSError:
                continue
    return count


def _mapped_bytes():
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[0])
        return pages * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return 0


def _exception_info(exc, filename):
    frames = traceback.extract_tb(exc.__traceback__)
    # Drop the runner's own frames so the traceback starts in the snippet.
    while frames and frames[0].filename != filename:
        frames.pop(0)
    lines = ["Traceback (most recent call last):\n"]
    lines.extend(traceback.format_list(frames))
    lines.extend(traceback.format_exception_only(type(exc), exc))
    return {
        "type": type(exc).__module__ + "." + type(exc).__qualname__
        if type(exc).__module__ not in ("builtins", "__main__")
        else type(exc).__qualname__,
        "message": str(exc),
        "traceback": "".join(lines),
    }


def classify(exc):
    if exc is None:
        return STATUS_OK
    if isinstance(exc, AssertionError):
        return STATUS_ASSERTION_FAILED
    if isinstance(exc, MemoryError):
        return STATUS_MEMORY_EXCEEDED
    return STATUS_EXCEPTION


def run_in_this_process(request, result_fd):
    """Executes request["code"] here and writes the result to result_fd. Never returns."""
    my_pid = _getpid()
    status = STATUS_KILLED
    try:
        sys.stdout.reconfigure(line_buffering=True)
        sys.stderr.reconfigure(line_buffering=True)
        _apply_limits(request.get("limits", {}))
        filename = request.get("filename") or "<snippet>"
        code = request["code"]
        # Registering the source lets tracebacks show the snippet's own lines.
        linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
        reports = Reports()
        namespace = {"__name__": "__main__", "__file__": filename, "report": reports.report}
        sys.argv = [filename]
        error = None
        started = _perf_counter()
        try:
            exec(compile(code, filename, "exec"), namespace)
        except SystemExit as exc:
            if exc.code not in (None, 0):
                error = exc
        except BaseException as exc:  # the snippet's failure is the result, whatever it is
            error = exc
        elapsed = _perf_counter() - started
        if _getpid() != my_pid:
            # A fork made by the snippet fell through to here; only the child itself reports.
            _exit(0)
        status = classify(error)
        result = {
            "status": status,
            "exception": None if error is None else _exception_info(error, filename),
            "reports": reports.values,
            "snippet_seconds": elapsed,
        }
        sys.stdout.flush()
        sys.stderr.flush()
        payload = _dumps(result).encode()
    except BaseException as exc:  # a failure of the runner itself must still reach the host
        if _getpid() != my_pid:
            _exit(0)
        payload = _dumps({
            "status": STATUS_MEMORY_EXCEEDED if isinstance(exc, MemoryError) else STATUS_EXCEPTION,
            "exception": {"type": type(exc).__name__, "message": str(exc),
                          "traceback": traceback.format_exc()},
            "reports": {},
            "runner_error": True,
        }).encode()
    view = memoryview(payload)
    while view:
        written = _write(result_fd, view)
        view = view[written:]
    _close(result_fd)
    _exit(0)
