"""Runs test snippets under a target release's Python, one forked child per snippet.

Started by the contract tests' `RuntimeRunner` with the target's interpreter. Importing the
library is most of a fresh interpreter's cost (about 3 s for PennyLane, against well under a
second for most law checks), so this process imports it once and forks a child per request:
each child starts from the same freshly imported library, runs one snippet in `__main__` as
`python -c` would, and exits, so a patch planted by one test never reaches another.

Protocol, one JSON object per line. Request on stdin: {"code", "stdout", "stderr", "timeout"}
(the two paths receive the child's output). Reply on stdout: {"returncode"} with the child's
exit status, or {"timeout": true} when it was killed at the deadline. End of stdin ends the
server. The standard library only: this runs inside the target's environment.
"""

import importlib
import json
import os
import signal
import sys
import time
import traceback

POLL_SECONDS = 0.005


def run_child(request: dict, replies_fd: int) -> None:
    """In the forked child: point fds 1 and 2 at the request's files, run the snippet, exit."""
    os.setsid()  # its own process group, so a timeout also kills whatever it started
    os.close(replies_fd)  # the snippet never writes into the protocol
    for fd, path in ((1, request["stdout"]), (2, request["stderr"])):
        target = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(target, fd)
        os.close(target)
    sys.stdin = open(os.devnull)
    status = 0
    try:
        import __main__
        exec(compile(request["code"], "<string>", "exec"), __main__.__dict__)
    except SystemExit as stop:
        status = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    except BaseException:  # report it as `python -c` would: traceback on stderr, status 1
        traceback.print_exc()
        status = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


def serve(preload: list[str]) -> None:
    # Replies go to a copy of fd 1; fd 1 itself becomes stderr, so whatever the library
    # prints while it is imported cannot corrupt the protocol.
    replies = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    for name in preload:
        importlib.import_module(name)
    for line in sys.stdin:
        request = json.loads(line)
        child = os.fork()
        if child == 0:
            run_child(request, replies.fileno())
        deadline = time.monotonic() + float(request["timeout"])
        reply: dict = {}
        while True:
            done, status = os.waitpid(child, os.WNOHANG)
            if done:
                reply.setdefault("returncode", os.waitstatus_to_exitcode(status))
                break
            if time.monotonic() > deadline and "timeout" not in reply:
                try:
                    os.killpg(child, signal.SIGKILL)
                except ProcessLookupError:  # killed before its setsid: no group yet
                    os.kill(child, signal.SIGKILL)
                reply["timeout"] = True
            time.sleep(POLL_SECONDS)
        replies.write(json.dumps(reply) + "\n")
        replies.flush()


if __name__ == "__main__":
    serve(sys.argv[1:])
