"""The historical benchmark: maintainer-confirmed silent bugs, each on the release where it
lives, with the root-cause segment as the Stage I index names it.

`benchmarks/historical/dataset.json` is derived from the shared benchmark file: every
shared field is kept unchanged, and each bug gains what the harness needs (release pins,
the indexed root-cause qualname, its self-check reproducer). `validate` holds the two
files to that, so a drifted copy fails loudly instead of scoring against stale truth."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[2]
DATASET_PATH = REPO_ROOT / "benchmarks" / "historical" / "dataset.json"

SHARED_FIELDS = (
    "id", "library", "issue", "title", "buggy_version", "first_fixed_release", "root_cause_file",
    "root_cause_segment", "language", "api", "functionality_type", "comparable_functionality_in_other_library",
    "note",
)
ADDED_FIELDS = ("buggy_target", "fixed_target", "root_cause_qualname", "root_cause_lines",
                "root_cause_index_note", "selfcheck")
LIBRARIES = ("qiskit", "pennylane")


class DatasetError(ValueError):
    """The dataset is malformed or disagrees with the file it was derived from."""


class UnknownBug(KeyError):
    """A bug id the dataset does not hold."""

    def __str__(self) -> str:  # KeyError's own str() quotes the message
        return str(self.args[0])


@dataclass(frozen=True)
class Bug:
    id: str
    library: str
    issue: int
    title: str
    buggy_version: str
    first_fixed_release: str | None
    root_cause_file: str
    root_cause_segment: str
    language: str
    api: str
    functionality_type: str
    comparable_functionality_in_other_library: bool
    note: str
    buggy_target: str
    fixed_target: str | None
    root_cause_qualname: str
    root_cause_lines: tuple[int, int]
    root_cause_index_note: str
    selfcheck: str  # relative to the dataset file

    @classmethod
    def from_dict(cls, record: dict[str, Any]) -> Bug:
        missing = [name for name in (*SHARED_FIELDS, *ADDED_FIELDS) if name not in record]
        if missing:
            raise DatasetError(f"bug {record.get('id', '?')}: missing fields {missing}")
        extra = sorted(set(record) - set(SHARED_FIELDS) - set(ADDED_FIELDS))
        if extra:
            raise DatasetError(f"bug {record['id']}: unknown fields {extra}")
        values = dict(record)
        values["root_cause_lines"] = tuple(values["root_cause_lines"])
        return cls(**values)

    def to_dict(self) -> dict[str, Any]:
        record = {name: getattr(self, name) for name in (*SHARED_FIELDS, *ADDED_FIELDS)}
        record["root_cause_lines"] = list(self.root_cause_lines)
        return record

    def shared_view(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in SHARED_FIELDS}


@dataclass(frozen=True)
class Dataset:
    path: Path
    description: str
    derived_from: dict[str, str]
    bugs: tuple[Bug, ...]
    added_fields: dict[str, str] = field(default_factory=dict)

    def bug(self, bug_id: str) -> Bug:
        for bug in self.bugs:
            if bug.id == bug_id:
                return bug
        raise UnknownBug(f"no bug {bug_id!r} in {self.path}; known: {', '.join(b.id for b in self.bugs)}")

    def select(self, ids: Iterable[str] | None) -> list[Bug]:
        """The named bugs in dataset order (all of them for None); unknown ids raise."""
        if ids is None:
            return list(self.bugs)
        wanted = [i.strip() for i in ids if i.strip()]
        for bug_id in wanted:
            self.bug(bug_id)
        return [b for b in self.bugs if b.id in wanted]

    def selfcheck_path(self, bug: Bug) -> Path:
        return self.path.parent / bug.selfcheck

    def releases(self, bugs: Iterable[Bug] | None = None) -> dict[str, list[Bug]]:
        """Buggy release pin -> the bugs that live on it (an audit per release serves them all)."""
        grouped: dict[str, list[Bug]] = {}
        for bug in bugs if bugs is not None else self.bugs:
            grouped.setdefault(bug.buggy_target, []).append(bug)
        return grouped


def load_dataset(path: Path | None = None) -> Dataset:
    path = Path(path) if path is not None else DATASET_PATH
    record = json.loads(path.read_text())
    bugs = tuple(Bug.from_dict(b) for b in record["bugs"])
    dataset = Dataset(path=path, description=record["description"], derived_from=record["derived_from"],
                      bugs=bugs, added_fields=record.get("added_fields", {}))
    _check_internal(dataset)
    return dataset


def shared_benchmark_path() -> Path | None:
    """Where the shared benchmark file is: $QUSEMA_SHARED_DIR, else ../shared beside the repo."""
    configured = os.environ.get("QUSEMA_SHARED_DIR")
    candidates = [Path(configured)] if configured else []
    candidates.append(REPO_ROOT.parent / "shared")
    for base in candidates:
        path = base / "benchmarks" / "historical.json"
        if path.is_file():
            return path
    return None


def _check_internal(dataset: Dataset) -> None:
    ids = [b.id for b in dataset.bugs]
    if len(set(ids)) != len(ids):
        raise DatasetError(f"duplicate bug ids in {dataset.path}")
    for bug in dataset.bugs:
        problems = []
        if bug.library not in LIBRARIES:
            problems.append(f"library {bug.library!r} is not one of {LIBRARIES}")
        if bug.id != f"{bug.library}-{bug.issue}":
            problems.append(f"id should be {bug.library}-{bug.issue}")
        if bug.buggy_target != f"{bug.library}=={bug.buggy_version}":
            problems.append(f"buggy_target should be {bug.library}=={bug.buggy_version}")
        expected_fixed = f"{bug.library}=={bug.first_fixed_release}" if bug.first_fixed_release else None
        if bug.fixed_target != expected_fixed:
            problems.append(f"fixed_target should be {expected_fixed}")
        separator = "::" if bug.language == "rust" else "."
        if separator not in bug.root_cause_qualname:
            problems.append(f"root_cause_qualname {bug.root_cause_qualname!r} is not a qualified {bug.language} name")
        start, end = bug.root_cause_lines
        if not 0 < start <= end:
            problems.append(f"root_cause_lines {bug.root_cause_lines} are not a line span")
        if not dataset.selfcheck_path(bug).is_file():
            problems.append(f"self-check {bug.selfcheck} does not exist")
        if problems:
            raise DatasetError(f"bug {bug.id}: " + "; ".join(problems))


def validate(dataset: Dataset, shared_path: Path) -> None:
    """The dataset keeps every bug of the shared file, field for field, and nothing else."""
    raw = shared_path.read_bytes()
    shared = json.loads(raw)
    digest = hashlib.sha256(raw).hexdigest()
    if dataset.derived_from.get("sha256") != digest:
        raise DatasetError(f"{shared_path} changed since the dataset was derived "
                           f"(sha256 {digest} != recorded {dataset.derived_from.get('sha256')})")
    if shared["description"] != dataset.description:
        raise DatasetError("the description differs from the shared file's")
    theirs = {b["id"]: b for b in shared["bugs"]}
    ours = {b.id: b for b in dataset.bugs}
    if set(theirs) != set(ours):
        raise DatasetError(f"bug ids differ: only shared {sorted(set(theirs) - set(ours))}, "
                           f"only ours {sorted(set(ours) - set(theirs))}")
    for bug_id, record in theirs.items():
        if set(record) != set(SHARED_FIELDS):
            raise DatasetError(f"shared bug {bug_id} has fields {sorted(record)}; expected {sorted(SHARED_FIELDS)}")
        mine = ours[bug_id].shared_view()
        differing = [name for name in SHARED_FIELDS if mine[name] != record[name]]
        if differing:
            raise DatasetError(f"bug {bug_id}: fields {differing} differ from the shared file")


def validate_against_index(dataset: Dataset, cache_dir: Path, bugs: Iterable[Bug] | None = None) -> list[str]:
    """Problems with root-cause qualnames in the Stage I indexes of the buggy releases
    (an index not built yet is reported, not built)."""
    from qusema.units.index_db import IndexDB
    from qusema.units.index_location import index_path

    problems = []
    for bug in bugs if bugs is not None else dataset.bugs:
        path = index_path(cache_dir, bug.buggy_target)
        if not path.is_file():
            problems.append(f"{bug.id}: {bug.buggy_target} is not indexed (qusema index {bug.buggy_target})")
            continue
        with IndexDB(path) as db:
            segment = db.segment(bug.root_cause_qualname)
        if segment is None:
            problems.append(f"{bug.id}: no segment {bug.root_cause_qualname} in the index of {bug.buggy_target}")
        elif segment.file != bug.root_cause_file:
            problems.append(f"{bug.id}: {bug.root_cause_qualname} is in {segment.file}, not {bug.root_cause_file}")
    return problems
