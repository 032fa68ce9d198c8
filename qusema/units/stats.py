"""Figures about an index: size, segment sizes, call resolution, PyO3 links, skipped files."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from qusema.units.index_db import IndexDB


@dataclass
class LanguageFigures:
    files: int
    loc: int
    segments: int
    min_lines: int | None
    max_lines: int | None


@dataclass
class ResolutionFigures:
    """Of the call sites whose target lies inside the library — resolved to a segment, or
    unresolved with evidence that they aim inside the library — the share resolved."""

    call_sites: int
    external: int
    resolved: int
    unresolved_in_library: int
    unresolved_other: int
    share: float | None
    share_without_name_heuristic: float | None
    by_via: dict[str, int]


@dataclass
class IndexStats:
    target: str
    languages: dict[str, LanguageFigures]
    resolution: dict[str, ResolutionFigures]
    pyo3_exports: int
    pyo3_call_sites: int
    pyo3_call_sites_linked: int
    public_api_entries: int
    skipped: list[dict] = field(default_factory=list)
    excluded: list[dict] = field(default_factory=list)

    def to_dict(self) -> dict:
        return asdict(self)


def index_stats(db: IndexDB, target: str | None = None) -> IndexStats:
    """The index's figures; `target` names it where its metadata does not (an index an audit
    built records no target)."""
    meta = db.meta()
    languages: dict[str, LanguageFigures] = {}
    for language, files, loc in db.conn.execute("SELECT language, count(*), sum(loc) FROM files GROUP BY language"):
        count, low, high = db.conn.execute(
            "SELECT count(*), min(end_line-start_line+1), max(end_line-start_line+1) FROM segments WHERE language=?",
            (language,)).fetchone()
        languages[language] = LanguageFigures(files, loc or 0, count, low, high)
    resolution = {language: _resolution(db, language) for language in languages}
    pyo3_sites, pyo3_linked = db.conn.execute(
        "SELECT count(*), sum(status='resolved') FROM calls WHERE via='pyo3'").fetchone()
    scope = meta.get("scope", {})
    return IndexStats(
        target=meta.get("target") or target or "?",
        languages=languages,
        resolution=resolution,
        pyo3_exports=db.conn.execute("SELECT count(*) FROM pyo3").fetchone()[0],
        pyo3_call_sites=pyo3_sites or 0,
        pyo3_call_sites_linked=pyo3_linked or 0,
        public_api_entries=db.conn.execute("SELECT count(*) FROM public_api").fetchone()[0],
        skipped=[{"file": s.file, "reason": s.reason} for s in db.current_skipped()],
        excluded=[{"subtree": e, "reason": r} for e, r in zip(scope.get("excluded", []), scope.get("reasons", []))],
    )


def _resolution(db: IndexDB, language: str) -> ResolutionFigures:
    rows = db.conn.execute(
        "SELECT c.status, c.evidence, c.via, count(*) FROM calls c JOIN files f ON c.file=f.path "
        "WHERE f.language=? GROUP BY c.status, c.evidence, c.via", (language,)).fetchall()
    total = sum(r[3] for r in rows)
    external = sum(r[3] for r in rows if r[0] == "external")
    resolved = sum(r[3] for r in rows if r[0] == "resolved")
    unresolved_in = sum(r[3] for r in rows if r[0] == "unresolved" and r[1])
    by_heuristic = sum(r[3] for r in rows if r[0] == "resolved" and r[2] in ("unique method name", "unique-name"))
    denominator = resolved + unresolved_in
    by_via: dict[str, int] = {}
    for status, _evidence, via, count in rows:
        if status == "resolved":
            by_via[via] = by_via.get(via, 0) + count
    return ResolutionFigures(
        call_sites=total, external=external, resolved=resolved, unresolved_in_library=unresolved_in,
        unresolved_other=total - external - resolved - unresolved_in,
        share=round(resolved / denominator, 4) if denominator else None,
        share_without_name_heuristic=round((resolved - by_heuristic) / denominator, 4) if denominator else None,
        by_via=dict(sorted(by_via.items(), key=lambda kv: -kv[1])),
    )
