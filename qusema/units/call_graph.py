"""Walks over the call graph in the index: the reverse chain from a segment to the
documented public APIs that reach it (Stage III starts here)."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from qusema.units.index_db import IndexDB


@dataclass(frozen=True)
class ChainToPublic:
    """A shortest caller chain: chain[0] is the segment, chain[-1] a public API segment."""

    chain: tuple[str, ...]
    public_names: tuple[str, ...]


def chains_to_public(db: IndexDB, qualname: str, max_depth: int = 10, max_chains: int = 5,
                     max_visited: int = 20000, use_candidates: bool = False) -> list[ChainToPublic]:
    """Breadth-first over callers (PyO3 links are ordinary edges in the index). With
    `use_candidates`, calls whose receiver type is unknown count as edges to every candidate
    method, which over-approximates reachability."""
    public = db.public_qualnames()
    parents: dict[str, str | None] = {qualname: None}
    queue: deque[tuple[str, int]] = deque([(qualname, 0)])
    found: list[ChainToPublic] = []
    while queue and len(found) < max_chains and len(parents) < max_visited:
        node, depth = queue.popleft()
        if node in public:
            found.append(ChainToPublic(_chain(parents, node), tuple(db.public_names(node)[:3])))
            continue  # a public entry point ends this branch: callers above it add nothing
        if depth >= max_depth:
            continue
        for caller in _callers(db, node, use_candidates):
            if caller not in parents:
                parents[caller] = node
                queue.append((caller, depth + 1))
    return found


def _callers(db: IndexDB, qualname: str, use_candidates: bool) -> list[str]:
    callers = [c for (c,) in db.conn.execute(
        "SELECT DISTINCT caller FROM calls WHERE target=? AND caller<>?", (qualname, qualname))]
    if use_candidates:
        like = f'%"{qualname}"%'
        callers += [c for (c,) in db.conn.execute(
            "SELECT DISTINCT caller FROM calls WHERE status='unresolved' AND candidates LIKE ?", (like,))]
    return sorted(set(callers))


def _chain(parents: dict[str, str | None], end: str) -> tuple[str, ...]:
    chain = [end]
    while (parent := parents[chain[-1]]) is not None:
        chain.append(parent)
    return tuple(reversed(chain))


def call_distances(db: IndexDB, starts: list[str], max_depth: int = 8, max_visited: int = 20000) -> dict[str, int]:
    """How many resolved calls away from `starts` each segment is (forward, breadth-first)."""
    distance = {start: 0 for start in starts}
    queue: deque[str] = deque(starts)
    while queue and len(distance) < max_visited:
        node = queue.popleft()
        if distance[node] >= max_depth:
            continue
        for (callee,) in db.conn.execute("SELECT DISTINCT target FROM calls WHERE caller=? AND target IS NOT NULL",
                                         (node,)):
            if callee not in distance:
                distance[callee] = distance[node] + 1
                queue.append(callee)
    return distance


def reachable(db: IndexDB, starts: list[str]) -> set[str]:
    """Every segment reachable from `starts` over resolved calls (one read of the call table:
    a whole-library closure is thousands of nodes)."""
    callees: dict[str, set[str]] = {}
    for caller, target in db.conn.execute("SELECT caller, target FROM calls WHERE target IS NOT NULL"):
        callees.setdefault(caller, set()).add(target)
    seen = set(starts)
    stack = list(starts)
    while stack:
        for callee in callees.get(stack.pop(), ()):
            if callee not in seen:
                seen.add(callee)
                stack.append(callee)
    return seen
