"""How a long audit shows its progress: messages as lines, and the checks as one bar with
counts, findings and the time left (on a terminal, redrawn in place; in a log, a line every
PERIODIC_S seconds or 5% of the checks). `--verbose` prints every check's line instead."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from typing import TextIO

BAR_WIDTH = 28
PERIODIC_S = 30.0


def _clock(seconds: float) -> str:
    seconds = max(0, int(seconds))
    return f"{seconds // 3600}h{seconds // 60 % 60:02d}m" if seconds >= 3600 else f"{seconds // 60}m{seconds % 60:02d}s"


@dataclass
class AuditProgress:
    """A `Progress` (called with a message) that also draws the checks (`step`)."""

    verbose: bool = False
    budget_s: float | None = None  # the audit's time budget: the time left is never more than what it leaves
    stream: TextIO = field(default_factory=lambda: sys.stderr)
    started: float = field(default_factory=time.monotonic)
    findings: int = 0
    _drawn: bool = False  # a bar is on the terminal's last line
    _last_line_at: float = 0.0
    _last_share: float = 0.0

    def __call__(self, message: str) -> None:
        self._clear()
        self.stream.write(f"[qusema] {message}\n")
        self.stream.flush()

    def step(self, done: int, total: int, line: str, found: bool = False) -> None:
        """One check finished (`done` of `total`); `line` says what it was."""
        self.findings += found
        if self.verbose:
            self(line + (" -> FINDING" if found else ""))
            return
        text = self.render(done, total)
        if self.stream.isatty():
            self.stream.write("\r" + text + "\033[K")
            self._drawn = True
        else:
            now, share = time.monotonic(), done / total if total else 1.0
            if done == total or now - self._last_line_at >= PERIODIC_S or share - self._last_share >= 0.05:
                self.stream.write(f"[qusema] {text}\n")
                self._last_line_at, self._last_share = now, share
        self.stream.flush()

    def render(self, done: int, total: int) -> str:
        elapsed = time.monotonic() - self.started
        share = done / total if total else 1.0
        filled = int(BAR_WIDTH * share)
        bar = "#" * filled + "-" * (BAR_WIDTH - filled)
        left = elapsed / done * (total - done) if done else None
        if self.budget_s is not None:
            budget_left = max(0.0, self.budget_s - elapsed)
            left = budget_left if left is None else min(left, budget_left)
        left_text = f", ~{_clock(left)} left" if left is not None and done < total else ""
        return (f"[{bar}] {done}/{total} checks, {self.findings} finding{'s' if self.findings != 1 else ''}, "
                f"{_clock(elapsed)} elapsed{left_text}")

    def _clear(self) -> None:
        if self._drawn:
            self.stream.write("\r\033[K")
            self._drawn = False

    def close(self) -> None:
        """Leave the terminal on a fresh line."""
        if self._drawn:
            self.stream.write("\n")
            self.stream.flush()
            self._drawn = False
