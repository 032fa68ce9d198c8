"""The audit's progress display: a bar with counts, findings and time left (redrawn in place on
a terminal, a line now and then in a log), every check's line with --verbose."""

import io

from qusema.progress_display import AuditProgress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_terminal_gets_one_bar_redrawn_in_place_and_messages_above_it():
    screen = Terminal()
    progress = AuditProgress(stream=screen)
    progress.step(1, 4, "[1/4] law a: holds")
    progress.step(2, 4, "[2/4] law b: violated", found=True)
    progress("a message")
    progress.close()
    text = screen.getvalue()
    assert text.count("\r[") == 2 and "2/4 checks, 1 finding" in text
    assert "law a" not in text  # the per-check lines are --verbose's
    assert "\r\033[K[qusema] a message\n" in text and text.endswith("\n")


def test_a_log_gets_a_line_per_twentieth_of_the_checks_not_per_check():
    log = io.StringIO()
    progress = AuditProgress(stream=log)
    for done in range(1, 201):
        progress.step(done, 200, f"[{done}/200] a check")
    lines = log.getvalue().splitlines()
    assert 19 <= len(lines) <= 21 and lines[-1].startswith("[qusema] [") and "200/200 checks" in lines[-1]


def test_verbose_prints_every_check_and_marks_findings():
    log = io.StringIO()
    progress = AuditProgress(verbose=True, stream=log)
    progress.step(1, 2, "[1/2] law a: holds")
    progress.step(2, 2, "[2/2] law b: violated", found=True)
    assert log.getvalue().splitlines() == ["[qusema] [1/2] law a: holds", "[qusema] [2/2] law b: violated -> FINDING"]


def test_time_left_is_never_more_than_the_budget_leaves():
    progress = AuditProgress(budget_s=60.0, stream=io.StringIO())
    progress.started -= 30  # half the budget spent on 1 check of 100: the rate says ~50 min more
    text = progress.render(1, 100)
    left = text.split("~")[1].split(" left")[0]
    assert left in ("0m30s", "0m29s"), text
