"""The worker inside the sandbox: imports the target library once, forks a child per snippet.

Runs under the target's Python; standard library only (plus whatever it preloads).

Channel: JSON lines on the stdin/stdout this process was started with. Both are moved to
private descriptors at start-up and 0/1 are pointed at /dev/null, so a library that prints
while being imported, or a snippet, can never write into the channel.

A snippet must not reach the channel another way either: the worker makes itself
non-dumpable (PR_SET_DUMPABLE 0), so a snippet running as the same user can neither open
/proc/<worker>/fd/N nor ptrace the worker that enforces its limits. Each request's nonce is
taken out of the request before the fork and echoed with its result, so the host can tell
which request a result line answers and treats any other line as a broken channel.

    host -> worker   {"op": "run", "id": ..., "nonce": ..., "code": ..., "limits": {...}}
                     {"op": "shutdown"}
    worker -> host   {"event": "ready", "protocol": 2, "python": ..., "preloaded": [...], ...}
                     {"event": "result", "nonce": ..., "result": {...}}

Cold runs use the same worker with nothing preloaded and one request, so warm and cold
results mean exactly the same thing.
"""

import argparse
import ctypes
import errno
import fcntl
import gc
import json
import os
import select
import shutil
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import snippet_runner  # noqa: E402  (needs the path above; this folder is not a package)

PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36
TRUNCATION_MARKER = "\n[qusema: output truncated; {dropped} of {total} bytes not kept]\n"


def parse_args(argv):
    p = argparse.ArgumentParser()
    p.add_argument("--preload", default="", help="comma-separated modules to import once")
    p.add_argument("--work-root", required=True, help="per-snippet work dirs are made here")
    p.add_argument("--scratch", action="append", default=[],
                   help="sandbox-private writable dir emptied after every snippet")
    p.add_argument("--sweep-own-files", action="append", default=[],
                   help="shared dir (/dev/shm) whose entries owned by this user and made "
                        "after start are removed after every snippet")
    p.add_argument("--pid-namespace", action="store_true",
                   help="this worker is alone in its own pid namespace")
    return p.parse_args(argv)


class Channel:
    def __init__(self):
        # Keep the real stdin/stdout for the protocol and blind fds 0 and 1.
        self.inp = os.fdopen(os.dup(0), "rb", buffering=0)
        self.out = os.fdopen(os.dup(1), "wb", buffering=0)
        devnull = os.open(os.devnull, os.O_RDWR)
        os.dup2(devnull, 0)
        os.dup2(devnull, 1)
        os.close(devnull)
        for f in (self.inp, self.out):
            fcntl.fcntl(f.fileno(), fcntl.F_SETFD, fcntl.FD_CLOEXEC)
        self._buffer = b""

    def fds(self):
        return (self.inp.fileno(), self.out.fileno())

    def send(self, message):
        data = (json.dumps(message) + "\n").encode()
        view = memoryview(data)
        while view:
            view = view[self.out.write(view):]

    def receive(self):
        while b"\n" not in self._buffer:
            chunk = self.inp.read(65536)
            if not chunk:
                return None
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return json.loads(line)


class Capture:
    """Keeps the first `keep` bytes of a stream and counts the rest."""

    def __init__(self, keep):
        self.keep = keep
        self.kept = bytearray()
        self.total = 0

    def add(self, chunk):
        self.total += len(chunk)
        room = self.keep - len(self.kept)
        if room > 0:
            self.kept += chunk[:room]

    def text(self):
        text = bytes(self.kept).decode("utf-8", errors="replace")
        if self.total > len(self.kept):
            text += TRUNCATION_MARKER.format(dropped=self.total - len(self.kept), total=self.total)
        return text


def oom_kill_count():
    """How many times the kernel's OOM killer fired in this sandbox's memory cgroup."""
    for path, key in (("/sys/fs/cgroup/memory.events", "oom_kill"),
                      ("/sys/fs/cgroup/memory/memory.oom_control", "oom_kill")):
        try:
            with open(path) as f:
                for line in f:
                    name, _, value = line.partition(" ")
                    if name == key:
                        return int(value)
        except (OSError, ValueError):
            continue
    return None


def descendants(root_pid):
    """Pids whose parent chain leads to root_pid, read from /proc."""
    parents = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                stat = f.read()
        except OSError:
            continue
        # The command name may contain spaces and parentheses; fields follow the last ')'.
        fields = stat[stat.rfind(")") + 2:].split()
        parents[int(entry)] = int(fields[1])
    found = set()
    frontier = {root_pid}
    while frontier:
        frontier = {pid for pid, ppid in parents.items() if ppid in frontier and pid not in found}
        found |= frontier
    return found


def reap_all():
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def kill_leftovers(pid_namespace):
    """Kills every process the snippet left behind; returns how many there were."""
    me = os.getpid()
    left = descendants(me)
    count = len(left)
    for _ in range(100):
        if not left:
            break
        if pid_namespace:
            # Alone in the namespace: kill(-1) reaches every process but us and the
            # namespace's init, atomically, so a fork bomb cannot outrun it.
            try:
                os.kill(-1, signal.SIGKILL)
            except ProcessLookupError:
                pass
        else:
            for pid in left:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        time.sleep(0.001)
        reap_all()
        left = descendants(me)
    reap_all()
    return count


def prctl(option, value):
    """prctl(2) with one argument: 0 on success (errno in ctypes.get_errno())."""
    return ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0)


def die_with_parent(parent_pid):
    """SIGKILL when the parent ends; exits at once if it already has (the race before)."""
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent_pid:
        os._exit(71)


def own_entries(path):
    """Names in `path` owned by this process's user."""
    found = set()
    try:
        entries = os.listdir(path)
    except OSError:
        return found
    uid = os.getuid()
    for name in entries:
        try:
            if os.lstat(os.path.join(path, name)).st_uid == uid:
                found.add(name)
        except OSError:
            continue
    return found


def remove_entry(full):
    """Removes a file, link or folder tree; what is already gone or cannot go is left."""
    try:
        if os.path.isdir(full) and not os.path.islink(full):
            shutil.rmtree(full, ignore_errors=True)
        else:
            os.unlink(full)
    except OSError:
        pass


def remove_own_new_entries(path, before):
    for name in own_entries(path) - before:
        remove_entry(os.path.join(path, name))


def empty_dir(path):
    try:
        entries = os.listdir(path)
    except OSError:
        return
    for name in entries:
        remove_entry(os.path.join(path, name))


def _read_available(fd, sink):
    """Reads what is in the pipe now; returns False once the pipe reached end of file."""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except BlockingIOError:
            return True
        if not chunk:
            return False
        sink(chunk)


def run_one(request, channel, args, wakeup_r):
    limits = request.get("limits", {})
    timeout = float(limits.get("timeout_s") or 60.0)
    keep = int(limits.get("capture_bytes") or 65536)
    max_output = int(limits.get("max_output_bytes") or 16 * 1024 * 1024)
    work_dir = os.path.join(args.work_root, "snippet-%s" % request.get("id", "x"))
    os.makedirs(work_dir, exist_ok=True)

    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    res_r, res_w = os.pipe()
    oom_before = oom_kill_count()
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:
        try:
            os.setsid()
            for fd in channel.fds() + (out_r, err_r, res_r, wakeup_r):
                os.close(fd)
            os.dup2(out_w, 1)
            os.dup2(err_w, 2)
            os.close(out_w)
            os.close(err_w)
            os.chdir(work_dir)
            signal.set_wakeup_fd(-1)
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            # Nothing else enforces the snippet's limits: if the worker dies, so does it.
            die_with_parent(args.worker_pid)
            # Only the worker must be out of reach; the snippet sees its own /proc/self
            # as any program does (the flag was inherited through the fork).
            prctl(PR_SET_DUMPABLE, 1)
        except BaseException:
            os._exit(70)
        snippet_runner.run_in_this_process(request, res_w)  # never returns

    for fd in (out_w, err_w, res_w):
        os.close(fd)
    for fd in (out_r, err_r, res_r):
        os.set_blocking(fd, False)
    stdout, stderr = Capture(keep), Capture(keep)
    result_bytes = bytearray()
    open_fds = {out_r: stdout.add, err_r: stderr.add, res_r: result_bytes.extend}
    deadline = started + timeout
    kill_reason = None
    wait_status = None
    while wait_status is None:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            kill_reason = "timeout"
            break
        readable, _, _ = select.select(list(open_fds) + [wakeup_r], [], [], remaining)
        for fd in readable:
            if fd == wakeup_r:
                _read_available(wakeup_r, lambda chunk: None)
            elif not _read_available(fd, open_fds[fd]):
                del open_fds[fd]
        if stdout.total + stderr.total > max_output:
            kill_reason = "output_limit"
            break
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            wait_status = status
    if wait_status is None:
        try:
            os.killpg(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        _, wait_status = os.waitpid(pid, 0)
    duration = time.monotonic() - started
    for fd, sink in list(open_fds.items()):
        _read_available(fd, sink)
    for fd in (out_r, err_r, res_r):
        os.close(fd)
    leftovers = kill_leftovers(args.pid_namespace)
    shutil.rmtree(work_dir, ignore_errors=True)
    for scratch in args.scratch:
        empty_dir(scratch)
    for shared in args.sweep_own_files:
        remove_own_new_entries(shared, args.shared_before.get(shared, set()))

    result = None
    if kill_reason is None and result_bytes:
        try:
            result = json.loads(bytes(result_bytes))
        except ValueError:
            result = None
    if result is None:
        result = {"status": snippet_runner.STATUS_KILLED, "exception": None, "reports": {}}
        if kill_reason == "timeout":
            result["status"] = snippet_runner.STATUS_TIMEOUT
        elif os.WIFSIGNALED(wait_status):
            oom_after = oom_kill_count()
            if oom_before is not None and oom_after is not None and oom_after > oom_before:
                result["status"] = snippet_runner.STATUS_MEMORY_EXCEEDED
                kill_reason = "out-of-memory killer"
            elif kill_reason is None:
                kill_reason = "signal %s" % signal.Signals(os.WTERMSIG(wait_status)).name
        elif kill_reason is None:
            kill_reason = "exited with code %d before reporting" % os.WEXITSTATUS(wait_status)
    result.update({
        "id": request.get("id"),
        "stdout": stdout.text(),
        "stderr": stderr.text(),
        "stdout_bytes": stdout.total,
        "stderr_bytes": stderr.total,
        "duration_s": duration,
        "kill_reason": kill_reason,
        "leftover_processes": leftovers,
    })
    return result


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.pid_namespace and os.getpid() > 2:
        # kill(-1) outside a private namespace would hit every process of this user.
        args.pid_namespace = False
    args.worker_pid = os.getpid()
    args.shared_before = {path: own_entries(path) for path in args.sweep_own_files}
    # The host's end of the channel is our parent: when it dies (kill -9 of an audit) we
    # and the snippet we run go too, instead of running on until the snippet's timeout.
    die_with_parent(os.getppid())
    channel = Channel()
    # Not dumpable: /proc/<this pid>/fd, /mem and ptrace need CAP_SYS_PTRACE, which no
    # snippet has, so a snippet cannot write into the channel or stop its own guard. Without
    # it there is no sandbox worth the name, so failing here ends the worker.
    if prctl(PR_SET_DUMPABLE, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_DUMPABLE, 0) failed")
    # Orphans of a snippet are re-parented to us, so we can find and kill them.
    try:
        prctl(PR_SET_CHILD_SUBREAPER, 1)
    except AttributeError:
        pass
    wakeup_r, wakeup_w = os.pipe()
    os.set_blocking(wakeup_r, False)
    os.set_blocking(wakeup_w, False)
    signal.set_wakeup_fd(wakeup_w)
    # A handler (not SIG_DFL) is needed for SIGCHLD to reach the wake-up fd.
    signal.signal(signal.SIGCHLD, lambda signum, frame: None)
    os.makedirs(args.work_root, exist_ok=True)

    preloaded, preload_errors = [], {}
    started = time.monotonic()
    for name in filter(None, args.preload.split(",")):
        try:
            __import__(name)
            preloaded.append(name)
        except Exception as exc:  # reported to the host, which decides what it means
            preload_errors[name] = "%s: %s" % (type(exc).__name__, exc)
    # The preloaded library is hundreds of thousands of objects. Frozen, a snippet's garbage
    # collections skip them: otherwise whether a full collection falls inside a snippet
    # depends on the worker's allocation count at the fork (measured: 10 ms vs 35 ms for the
    # same qiskit snippet), and each one writes to every page, undoing copy-on-write.
    gc.collect()
    gc.freeze()
    channel.send({
        "event": "ready",
        "protocol": snippet_runner.PROTOCOL_VERSION,
        "python": sys.version.split()[0],
        "executable": sys.executable,
        "pid": os.getpid(),
        "preloaded": preloaded,
        "preload_errors": preload_errors,
        "preload_seconds": time.monotonic() - started,
    })
    while True:
        request = channel.receive()
        if request is None or request.get("op") == "shutdown":
            break
        if request.get("op") != "run":
            channel.send({"event": "error", "message": "unknown op %r" % request.get("op")})
            continue
        # The nonce never reaches the snippet's copy of the request.
        nonce = request.pop("nonce", None)
        result = run_one(request, channel, args, wakeup_r)
        channel.send({"event": "result", "nonce": nonce, "result": result})
    kill_leftovers(args.pid_namespace)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:
        # The host went away; nothing is left to tell it.
        sys.exit(0)
    except OSError as exc:
        if exc.errno != errno.EPIPE:
            raise
