"""Stage I end to end: discover -> parse (cached by content hash, in parallel) -> resolve
calls (cached per file under the library's interface digest) -> PyO3 links -> public API."""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import ModuleType

from qusema.units import public_api, pyo3_links, python_calls, python_segments, python_symbols, rust_calls, rust_segments
from qusema.units.files import SourceFile, TreeScope, discover
from qusema.units.index_db import IndexDB
from qusema.units.public_api import public_api_rows
from qusema.units.pyo3_links import find_extension_modules, link_pyo3
from qusema.units.python_calls import NativeTarget, PythonCallResolver
from qusema.units.python_segments import PythonSyntaxProblem, parse_python_file
from qusema.units.python_symbols import SymbolTable
from qusema.units.records import CallSite, FileParse, PyO3Export, Reference, SkippedFile
from qusema.units.rust_calls import resolve_rust_calls
from qusema.units.rust_segments import RustSyntaxProblem, parse_rust_file, rust_module_path

Progress = Callable[[str], None]

# Below this many files to parse, worker start-up costs more than it saves.
PARALLEL_THRESHOLD = 64


@dataclass
class IndexRun:
    files: int = 0
    parsed: int = 0
    reused: int = 0
    skipped: int = 0
    removed: int = 0
    resolved_files: int = 0
    segments: int = 0
    seconds: float = 0.0
    up_to_date: bool = False
    phases: dict[str, float] = field(default_factory=dict)


def build_index(root: Path, db: IndexDB, scope: TreeScope, workers: int = 2,
                progress: Progress | None = None) -> IndexRun:
    say = progress or (lambda _msg: None)
    run = IndexRun()
    started = time.perf_counter()
    clock = started

    def phase(name: str) -> None:
        nonlocal clock
        now = time.perf_counter()
        run.phases[name] = round(now - clock, 3)
        clock = now

    found = discover(root, scope)
    run.files = len(found.files)
    phase("discover")
    previous = db.current_files()
    current = {f.rel_path: f.content_hash for f in found.files}
    previous_skipped = {(s.file, s.reason) for s in db.current_skipped()}
    meta = db.meta()
    if current == previous and previous_skipped == {(s.file, s.reason) for s in found.skipped} \
            and meta.get("complete") and meta.get("code_tag") == f"{db.cache_tag}|{resolver_tag()}":
        run.up_to_date, run.skipped = True, len(found.skipped)
        run.seconds = time.perf_counter() - started
        return run
    db.set_meta(complete=False)
    db.commit()
    if meta.get("cache_tag") != db.cache_tag:
        # parsed by other parser code: every file's rows are rebuilt, not only changed ones
        previous = {}

    say(f"discovered {len(found.files)} source files ({len(found.skipped)} passed over)")
    cached = db.cached_parses([(f.content_hash, f.language) for f in found.files])
    to_parse = [f for f in found.files if (f.content_hash, f.language) not in cached]
    phase("load cache")
    say(f"parsing {len(to_parse)} files ({len(cached)} unchanged, from cache)")
    fresh, parse_skips = _parse_all(root, to_parse, workers)
    db.store_parses(fresh)
    phase("parse")
    run.parsed, run.reused = len(fresh), len(found.files) - len(to_parse)

    by_key = {**cached, **{(p.content_hash, p.language): p for p in fresh}}
    skipped_paths = {s.file for s in parse_skips}
    parses = [_at_path(by_key[(f.content_hash, f.language)], f.rel_path) for f in found.files
              if f.rel_path not in skipped_paths]
    skipped = found.skipped + parse_skips
    changed = [p for p in parses if previous.get(p.file) != p.content_hash]
    removed = sorted(set(previous) - set(current))
    db.conn.execute("DELETE FROM skipped")
    db.replace_files(changed, skipped, removed)
    run.skipped, run.removed = len(skipped), len(removed)
    phase("store files")

    table = SymbolTable.build({p.facts["module"]: p.facts for p in parses if p.language == "python"})
    segments = {s.qualname for p in parses for s in p.segments}
    exports = _resolve(root, db, parses, table, segments, run, say)
    phase("resolve")
    docs_dir = next((root / d for d in ("docs", "doc") if (root / d).is_dir()), None)
    db.replace_public_api(public_api_rows(table, exports, segments, docs_dir))
    db.replace_classes([(q, info.facts["doc"], table.mro(q)) for q, info in table.classes.items()])
    phase("public api")
    run.segments = sum(len(p.segments) for p in parses)
    db.set_meta(complete=True, cache_tag=db.cache_tag, code_tag=f"{db.cache_tag}|{resolver_tag()}", root=str(root), scope={"python": scope.python_roots, "rust": scope.rust_roots,
                                                         "excluded": scope.excluded, "reasons": scope.reasons})
    db.commit()
    phase("commit")
    run.seconds = time.perf_counter() - started
    return run


def code_digest(*modules: ModuleType, data_globs: tuple[str, ...] = ()) -> str:
    """A digest of the code that produced a cached result: new code invalidates it."""
    digest = hashlib.sha256()
    for module in modules:
        source = Path(module.__file__ or "")
        digest.update(source.read_bytes())
        for pattern in data_globs:
            for data in sorted(source.parent.glob(pattern)):
                digest.update(data.read_bytes())
    return digest.hexdigest()[:16]


def parser_tag() -> str:
    """Which parsers made a cached parse (bytes -> segments and facts)."""
    return code_digest(python_segments, rust_segments, data_globs=("queries/*.scm",))


def resolver_tag() -> str:
    """Which code derived the stored relations from the facts (calls, PyO3 links, public API)."""
    return code_digest(python_symbols, python_calls, rust_calls, pyo3_links, public_api)


def _at_path(parse: FileParse, rel_path: str) -> FileParse:
    """A cached parse of identical bytes at another path must carry this path."""
    if parse.file == rel_path:
        return parse
    return FileParse(rel_path, parse.language, parse.content_hash, parse.loc,
                     [replace(s, file=rel_path) for s in parse.segments], parse.facts)


# -- parsing ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class _ParseJob:
    source: SourceFile
    rust_module: str | None


def _parse_all(root: Path, files: list[SourceFile], workers: int) -> tuple[list[FileParse], list[SkippedFile]]:
    jobs = [_ParseJob(f, rust_module_path(root, f.rel_path) if f.language == "rust" else None) for f in files]
    if workers > 1 and len(jobs) >= PARALLEL_THRESHOLD:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            outcomes = list(pool.map(_parse_one, jobs, chunksize=16))
    else:
        outcomes = [_parse_one(job) for job in jobs]
    parses = [o for o in outcomes if isinstance(o, FileParse)]
    skips = [o for o in outcomes if isinstance(o, SkippedFile)]
    return parses, skips


def _parse_one(job: _ParseJob) -> FileParse | SkippedFile:
    source = job.source
    if source.language == "python":
        try:
            parse = parse_python_file(source.rel_path, source.data, source.content_hash)
        except PythonSyntaxProblem as exc:
            return SkippedFile(source.rel_path, f"not Python 3 source this parser accepts ({exc})")
        parse.facts["interface"] = python_interface_digest(parse.facts)
        return parse
    try:
        return parse_rust_file(source.rel_path, source.data, job.rust_module or "")
    except RustSyntaxProblem as exc:
        return SkippedFile(source.rel_path, f"not Rust source this parser accepts ({exc})")


def python_interface_digest(facts: dict) -> str:
    """What other files' resolution can depend on: names, imports, class shapes, signatures
    and attribute types; not function bodies or line numbers."""
    functions = {name: {k: v for k, v in f.items() if k not in ("calls", "locals", "names", "line")}
                 for name, f in facts["functions"].items()}
    classes = {name: {k: v for k, v in c.items() if k not in ("line", "end_line", "doc")}
               for name, c in facts["classes"].items()}
    shape = {
        "module": facts["module"], "imports": [{k: v for k, v in i.items() if k != "line"} for i in facts["imports"]],
        "all": facts["all"], "globals": {k: v["value"] for k, v in facts["globals"].items()},
        "classes": classes, "functions": functions,
    }
    return hashlib.sha256(json.dumps(shape, sort_keys=True).encode()).hexdigest()


# -- resolution ------------------------------------------------------------------------------
def _resolve(root: Path, db: IndexDB, parses: list[FileParse], table: SymbolTable, segments: set[str],
             run: IndexRun, say: Progress) -> list[PyO3Export]:
    python = [p for p in parses if p.language == "python"]
    rust = [p for p in parses if p.language == "rust"]
    resolvers = resolver_tag()
    rust_digest = _digest([resolvers, sorted((p.file, p.content_hash) for p in rust)])
    state = db.resolution_state()
    rust_stale = [p for p in rust if state.get(p.file) != (p.content_hash, rust_digest)]

    if rust_stale or not rust or db.meta().get("rust_digest") != rust_digest:
        say(f"linking PyO3 exports and resolving Rust calls ({len(rust)} files)")
        exports = link_pyo3(rust, find_extension_modules(root)) if rust else []
        db.replace_pyo3(exports)
        rust_calls = resolve_rust_calls(rust) if rust else []
        file_of = {s.qualname: p.file for p in rust for s in p.segments}
        grouped: dict[str, list[CallSite]] = {p.file: [] for p in rust}
        for call in rust_calls:
            grouped.setdefault(file_of.get(call.caller, ""), []).append(call)
        db.replace_resolution({p.file: (p.content_hash, rust_digest, grouped.get(p.file, []), []) for p in rust})
        db.set_meta(rust_digest=rust_digest)
        run.resolved_files += len(rust)
    else:
        exports = [PyO3Export(*row) for row in db.conn.execute("SELECT * FROM pyo3")]

    python_digest = _digest([resolvers, sorted(p.facts["interface"] for p in python),
                             sorted((e.python_name, e.rust_qualname, e.kind) for e in exports)])
    stale = [p for p in python if state.get(p.file) != (p.content_hash, python_digest)]
    if stale:
        say(f"resolving Python calls in {len(stale)} files")
        resolver = PythonCallResolver(table, segments, native_targets(exports))
        results: dict[str, tuple[str, str, list[CallSite], list[Reference]]] = {}
        for parse in stale:
            calls: list[CallSite] = []
            refs: list[Reference] = []
            for qualname in dict.fromkeys(s.qualname for s in parse.segments):
                seg_calls, seg_refs = resolver.resolve_function(qualname)
                calls.extend(seg_calls)
                refs.extend(seg_refs)
            results[parse.file] = (parse.content_hash, python_digest, calls, refs)
        db.replace_resolution(results)
        run.resolved_files += len(stale)
    return exports


def native_targets(exports: list[PyO3Export]) -> dict[str, list[NativeTarget]]:
    targets: dict[str, list[NativeTarget]] = {}
    for export in exports:
        targets.setdefault(export.python_name, []).append(NativeTarget(export.rust_qualname, export.kind))
    return targets


def _digest(value: object) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()
