"""Notices: warnings meant for the person running qusema, not for a developer.

The library raises them with `warnings.warn` (a caller such as a test can silence or assert
them by category); the CLI shows each as one line, `notice: <message>` on stderr, instead of
Python's `file:line: Category: message` followed by the source line that raised it, which
only says where in qusema the notice came from.
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Iterator
from typing import TextIO

import click


class Notice(UserWarning):
    """A warning the CLI shows as a one-line notice."""


@contextlib.contextmanager
def notices_as_lines() -> Iterator[None]:
    """Within the block, notices print as `notice: ...` lines on stderr, each once; every
    other warning is shown as Python would."""
    categories = (Notice,)
    shown: set[str] = set()
    with warnings.catch_warnings():
        python_shows = warnings.showwarning
        # "always": a notice that Python's once-per-location rule would hide (a second
        # command in the same process, as in tests) is still shown; `shown` keeps it to one line.
        for category in categories:
            warnings.simplefilter("always", category)

        def show(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                 file: TextIO | None = None, line: str | None = None) -> None:
            if not issubclass(category, categories):
                python_shows(message, category, filename, lineno, file, line)
                return
            text = " ".join(str(message).split())  # one line, whatever the message's wrapping
            if text not in shown:
                shown.add(text)
                click.echo(f"notice: {text}", err=True)

        warnings.showwarning = show
        yield


class NoticeGroup(click.Group):
    """A click group whose commands (and subgroups) show notices as one line."""

    def invoke(self, ctx: click.Context) -> object:
        with notices_as_lines():
            return super().invoke(ctx)
