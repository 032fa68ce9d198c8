"""The Stage I index in SQLite. Parses are cached by file content hash, so a re-index
re-parses only files whose bytes changed; resolution results are cached per file under the
library's interface digest, so editing a function body re-resolves one file only."""

from __future__ import annotations

import json
import marshal
import sqlite3
import sys
from contextlib import closing
from dataclasses import asdict
from pathlib import Path

from qusema.units.records import CallSite, DocPiece, FileParse, PyO3Export, Reference, Segment, SkippedFile

SCHEMA_VERSION = "3"

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS parse_cache (
    content_hash TEXT NOT NULL, language TEXT NOT NULL, tag TEXT NOT NULL, blob BLOB NOT NULL,
    PRIMARY KEY (content_hash, language, tag));
CREATE TABLE IF NOT EXISTS files (
    path TEXT PRIMARY KEY, language TEXT NOT NULL, content_hash TEXT NOT NULL, loc INTEGER NOT NULL,
    segments INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS skipped (path TEXT PRIMARY KEY, reason TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS segments (
    qualname TEXT PRIMARY KEY, language TEXT NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL,
    file TEXT NOT NULL, start_line INTEGER NOT NULL, end_line INTEGER NOT NULL, signature TEXT NOT NULL,
    source TEXT NOT NULL, decorators TEXT NOT NULL, owner TEXT, trait TEXT, docs TEXT NOT NULL,
    context TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS segments_name ON segments(name);
CREATE INDEX IF NOT EXISTS segments_file ON segments(file);
CREATE TABLE IF NOT EXISTS calls (
    caller TEXT NOT NULL, line INTEGER NOT NULL, callee_text TEXT NOT NULL, status TEXT NOT NULL,
    target TEXT, external TEXT, reason TEXT, via TEXT NOT NULL, evidence INTEGER NOT NULL,
    candidates TEXT NOT NULL, file TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS calls_caller ON calls(caller);
CREATE INDEX IF NOT EXISTS calls_target ON calls(target);
CREATE INDEX IF NOT EXISTS calls_file ON calls(file);
CREATE TABLE IF NOT EXISTS refs (source TEXT NOT NULL, kind TEXT NOT NULL, target TEXT NOT NULL,
    line INTEGER NOT NULL, file TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS refs_source ON refs(source);
CREATE TABLE IF NOT EXISTS pyo3 (python_name TEXT NOT NULL, rust_qualname TEXT NOT NULL, kind TEXT NOT NULL,
    file TEXT NOT NULL, line INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS pyo3_rust ON pyo3(rust_qualname);
CREATE INDEX IF NOT EXISTS pyo3_python ON pyo3(python_name);
CREATE TABLE IF NOT EXISTS public_api (public_name TEXT NOT NULL, qualname TEXT NOT NULL, source TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS public_api_qualname ON public_api(qualname);
CREATE INDEX IF NOT EXISTS public_api_name ON public_api(public_name);
CREATE TABLE IF NOT EXISTS classes (qualname TEXT PRIMARY KEY, doc TEXT NOT NULL, mro TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS resolution_cache (file TEXT PRIMARY KEY, content_hash TEXT NOT NULL,
    interface TEXT NOT NULL);
"""


class IndexDB:
    """`parser_tag` names the parser that produced cached parses: a parse made by another
    version of the parsers is never reused."""

    def __init__(self, path: Path, parser_tag: str = "") -> None:
        self.path = path
        # marshal is fast and exact for the facts' plain types, but its format is private to
        # a Python version: the cache key carries it too.
        self.cache_tag = f"{SCHEMA_VERSION}:{sys.version_info.major}.{sys.version_info.minor}:{parser_tag}"
        path.parent.mkdir(parents=True, exist_ok=True)
        self.conn = sqlite3.connect(path)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=NORMAL")
        self.conn.executescript(SCHEMA)

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> "IndexDB":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- meta -------------------------------------------------------------------------------
    def set_meta(self, **values: object) -> None:
        self.conn.executemany(
            "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)",
            [(k, json.dumps(v)) for k, v in values.items()],
        )

    def meta(self) -> dict:
        return {k: json.loads(v) for k, v in self.conn.execute("SELECT key, value FROM meta")}

    # -- parse cache -----------------------------------------------------------------------
    def cached_parses(self, keys: list[tuple[str, str]]) -> dict[tuple[str, str], FileParse]:
        found: dict[tuple[str, str], FileParse] = {}
        with closing(self.conn.cursor()) as cursor:
            for content_hash, language in keys:
                row = cursor.execute(
                    "SELECT blob FROM parse_cache WHERE content_hash=? AND language=? AND tag=?",
                    (content_hash, language, self.cache_tag),
                ).fetchone()
                if row is not None:
                    found[(content_hash, language)] = _parse_from_blob(row[0])
        return found

    def store_parses(self, parses: list[FileParse]) -> None:
        self.conn.executemany(
            "INSERT OR REPLACE INTO parse_cache(content_hash, language, tag, blob) VALUES (?, ?, ?, ?)",
            [(p.content_hash, p.language, self.cache_tag, _parse_to_blob(p)) for p in parses],
        )

    # -- the current tree ---------------------------------------------------------------------
    def current_files(self) -> dict[str, str]:
        return dict(self.conn.execute("SELECT path, content_hash FROM files"))

    def current_skipped(self) -> list[SkippedFile]:
        return [SkippedFile(p, r) for p, r in self.conn.execute("SELECT path, reason FROM skipped ORDER BY path")]

    def resolution_state(self) -> dict[str, tuple[str, str]]:
        return {f: (h, i) for f, h, i in self.conn.execute("SELECT file, content_hash, interface FROM resolution_cache")}

    def replace_files(self, parses: list[FileParse], skipped: list[SkippedFile], removed: list[str]) -> None:
        """Replace what the index holds for these files (and drop removed files)."""
        paths = [p.file for p in parses] + [s.file for s in skipped] + removed
        self._delete_for_files(paths)
        self.conn.executemany(
            "INSERT INTO files(path, language, content_hash, loc, segments) VALUES (?, ?, ?, ?, ?)",
            [(p.file, p.language, p.content_hash, p.loc, len(p.segments)) for p in parses],
        )
        self.conn.executemany("INSERT INTO skipped(path, reason) VALUES (?, ?)", [(s.file, s.reason) for s in skipped])
        self.conn.executemany(
            "INSERT OR REPLACE INTO segments VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            [_segment_row(s) for p in parses for s in p.segments],
        )

    def _delete_for_files(self, paths: list[str]) -> None:
        rows = [(p,) for p in paths]
        for table, column in (("files", "path"), ("skipped", "path"), ("segments", "file"), ("calls", "file"),
                              ("refs", "file"), ("resolution_cache", "file")):
            self.conn.executemany(f"DELETE FROM {table} WHERE {column}=?", rows)

    def replace_resolution(self, by_file: dict[str, tuple[str, str, list[CallSite], list[Reference]]]) -> None:
        """Per file: (content hash, interface digest, call sites, references)."""
        rows = [(f,) for f in by_file]
        for table in ("calls", "refs", "resolution_cache"):
            self.conn.executemany(f"DELETE FROM {table} WHERE file=?", rows)
        self.conn.executemany(
            "INSERT INTO calls VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            [_call_row(c, f) for f, (_, _, calls, _) in by_file.items() for c in calls],
        )
        self.conn.executemany(
            "INSERT INTO refs VALUES (?,?,?,?,?)",
            [(r.source, r.kind, r.target, r.line, f) for f, (_, _, _, refs) in by_file.items() for r in refs],
        )
        self.conn.executemany(
            "INSERT INTO resolution_cache(file, content_hash, interface) VALUES (?, ?, ?)",
            [(f, h, i) for f, (h, i, _, _) in by_file.items()],
        )

    def replace_pyo3(self, exports: list[PyO3Export]) -> None:
        self.conn.execute("DELETE FROM pyo3")
        self.conn.executemany(
            "INSERT INTO pyo3 VALUES (?,?,?,?,?)",
            [(e.python_name, e.rust_qualname, e.kind, e.file, e.line) for e in exports],
        )

    def replace_public_api(self, rows: list[tuple[str, str, str]]) -> None:
        self.conn.execute("DELETE FROM public_api")
        self.conn.executemany("INSERT INTO public_api VALUES (?,?,?)", rows)

    def replace_classes(self, rows: list[tuple[str, str, list[str]]]) -> None:
        """(class qualname, docstring, library MRO) rows."""
        self.conn.execute("DELETE FROM classes")
        self.conn.executemany("INSERT INTO classes VALUES (?,?,?)", [(q, d, json.dumps(m)) for q, d, m in rows])

    def class_info(self, qualname: str) -> tuple[str, list[str]] | None:
        row = self.conn.execute("SELECT doc, mro FROM classes WHERE qualname=?", (qualname,)).fetchone()
        return (row[0], json.loads(row[1])) if row else None

    def commit(self) -> None:
        self.conn.commit()

    # -- queries ---------------------------------------------------------------------------------
    def segment(self, qualname: str) -> Segment | None:
        row = self.conn.execute("SELECT * FROM segments WHERE qualname=?", (qualname,)).fetchone()
        return _segment_from_row(row) if row else None

    def find_segments(self, name: str, limit: int = 50) -> list[str]:
        """Qualnames equal to `name` or ending with `.name` / `::name`."""
        exact = self.conn.execute("SELECT qualname FROM segments WHERE qualname=?", (name,)).fetchall()
        if exact:
            return [exact[0][0]]
        last = name.replace("::", ".").rsplit(".", 1)[-1]
        rows = self.conn.execute("SELECT qualname FROM segments WHERE name=?", (last,)).fetchall()
        return sorted(q for (q,) in rows if q.endswith("." + name) or q.endswith("::" + name)
                      or q.replace("::", ".").endswith("." + name.replace("::", ".")))[:limit]

    def segment_spans(self, file: str) -> list[tuple[int, int, str]]:
        """(start, end, qualname) of the segments of a file, in order. Segments never
        overlap: nested functions belong to their enclosing segment."""
        return sorted(self.conn.execute("SELECT start_line, end_line, qualname FROM segments WHERE file=?", (file,)))

    def all_segment_qualnames(self) -> list[str]:
        return [q for (q,) in self.conn.execute("SELECT qualname FROM segments")]

    def calls_from(self, qualname: str) -> list[CallSite]:
        return [_call_from_row(r) for r in self.conn.execute(
            "SELECT * FROM calls WHERE caller=? ORDER BY line", (qualname,))]

    def calls_to(self, qualname: str) -> list[CallSite]:
        return [_call_from_row(r) for r in self.conn.execute(
            "SELECT * FROM calls WHERE target=? ORDER BY caller, line", (qualname,))]

    def references_from(self, qualname: str) -> list[Reference]:
        return [Reference(s, k, t, line) for s, k, t, line, _ in self.conn.execute(
            "SELECT * FROM refs WHERE source=? ORDER BY line", (qualname,))]

    def pyo3_for_rust(self, rust_qualname: str) -> list[PyO3Export]:
        return [PyO3Export(*r) for r in self.conn.execute(
            "SELECT * FROM pyo3 WHERE rust_qualname=?", (rust_qualname,))]

    def public_names(self, qualname: str) -> list[str]:
        return [n for (n,) in self.conn.execute(
            "SELECT DISTINCT public_name FROM public_api WHERE qualname=? ORDER BY length(public_name), public_name",
            (qualname,))]

    def public_qualnames(self) -> set[str]:
        return {q for (q,) in self.conn.execute("SELECT DISTINCT qualname FROM public_api")}


def _parse_to_blob(parse: FileParse) -> bytes:
    payload = {
        "file": parse.file, "language": parse.language, "content_hash": parse.content_hash, "loc": parse.loc,
        "segments": [_segment_row(s) for s in parse.segments], "facts": parse.facts,
    }
    return marshal.dumps(payload)


def _parse_from_blob(blob: bytes) -> FileParse:
    payload = marshal.loads(blob)
    return FileParse(
        file=payload["file"], language=payload["language"], content_hash=payload["content_hash"],
        loc=payload["loc"], segments=[_segment_from_row(r) for r in payload["segments"]], facts=payload["facts"],
    )


def _segment_row(s: Segment) -> tuple:
    return (
        s.qualname, s.language, s.kind, s.name, s.file, s.start_line, s.end_line, s.signature, s.source,
        json.dumps(list(s.decorators)), s.owner, s.trait, json.dumps([asdict(d) for d in s.docs]), s.context,
    )


def _segment_from_row(row: tuple) -> Segment:
    (qualname, language, kind, name, file, start, end, signature, source, decorators, owner, trait, docs,
     context) = row
    return Segment(
        qualname=qualname, language=language, kind=kind, name=name, file=file, start_line=start, end_line=end,
        signature=signature, source=source, decorators=tuple(json.loads(decorators)), owner=owner, trait=trait,
        docs=tuple(DocPiece(**d) for d in json.loads(docs)), context=context,
    )


def _call_row(c: CallSite, file: str) -> tuple:
    return (c.caller, c.line, c.callee_text, c.status, c.target, c.external, c.reason, c.via,
            int(c.in_library_evidence), json.dumps(list(c.candidates)), file)


def _call_from_row(row: tuple) -> CallSite:
    caller, line, text, status, target, external, reason, via, evidence, candidates, _ = row
    return CallSite(caller, line, text, status, target, external, reason, via, bool(evidence),
                    tuple(json.loads(candidates)))
