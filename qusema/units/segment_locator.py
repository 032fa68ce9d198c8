"""file:line -> the segment containing it. Segments of a file never overlap (nested
functions belong to their enclosing segment), so a sorted span list and a bisection do."""

from __future__ import annotations

import bisect

from qusema.units.index_db import IndexDB

Span = tuple[int, int, str]  # (start line, end line, qualname)


class SegmentLocator:
    """Reads each file's spans from the index once."""

    def __init__(self, db: IndexDB) -> None:
        self.db = db
        self._spans: dict[str, list[Span]] = {}

    def at(self, file: str, line: int) -> Span | None:
        spans = self._spans.get(file)
        if spans is None:
            spans = self._spans[file] = self.db.segment_spans(file)
        index = bisect.bisect_right(spans, (line, float("inf"), "")) - 1
        while index >= 0:
            start, end, qualname = spans[index]
            if start <= line <= end:
                return spans[index]
            index -= 1
        return None
