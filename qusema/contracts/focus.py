"""`--focus`: audit only where given units can be reached from.

A contract check enters the library through one public API (the contract's `api` of the
subject). With a focus, a check runs only if that API reaches one of the focus units in
Stage I's reverse call graph: the contract engine's counterpart of handing the LLM agent a
unit (or a whole file) to audit. Nothing here knows any bug: the focus is a set of segments,
and the rule is reachability.

Reachability over-approximates on purpose. Calls whose receiver type Stage I could not
resolve count as edges to every candidate method; a method's class counts as reaching it
(a method is often entered by dynamic dispatch, e.g. `definition` -> `self._define()`, which
no static resolver sees); public callers do not end the walk (`transpile` reaches what
`generate_preset_pass_manager` reaches). A check whose entry API is a class covers the
class's methods. A private method (`_run_pub`) counts as reached from every method of its
class. A function registered with a dispatcher (`@apply_operation.register`) counts as called by
the dispatcher. A method of a class the distribution declares as an entry-point plugin counts as
called by the segments that load that entry-point group (a stevedore manager, `qml.device`'s
device table).

An API string is matched against the reached segments twice: exactly, through the public
API map; and by its tail — from its first class-like (capitalized) component on, or else its
last component — as a run of components of a reached qualified name (`qml.expval` matches
`pennylane.measurements.expval.expval`, `DAGCircuit.depth` the Rust method behind it). The
tail match covers the public names Stage I's map misses (star re-exports, registries)."""

from __future__ import annotations

import json
import re
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

from qusema.units.entry_points import declared_entry_points
from qusema.units.index_db import IndexDB

# How a contract may spell a library's top-level package in a human-readable API string.
PACKAGE_ALIASES = {"pennylane": {"qml": "pennylane"}}
MAX_CANDIDATES = 3
UNKNOWN_DEPTH = 99
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")


@dataclass(frozen=True)
class Focus:
    units: tuple[str, ...]
    reached: frozenset[str]  # qualnames from which a focus unit is reachable
    public_names: frozenset[str]  # their public names
    aliases: tuple[tuple[str, str], ...] = ()
    # Calls from a reached segment to the nearest focus unit, by qualname and by public name.
    depth: dict[str, int] = field(default_factory=dict, compare=False)
    name_depth: dict[str, int] = field(default_factory=dict, compare=False)

    def covers(self, api: str | None) -> bool:
        """Whether a check entering through `api` can reach a focus unit."""
        return self.distance(api) is not None

    def distance(self, api: str | None) -> int | None:
        """How many calls a check entering through `api` is from a focus unit (None: it
        cannot reach one). Unknown depths count as the walk's limit."""
        found: list[int] = []
        for name in api_names(api or "", dict(self.aliases)):
            if name in self.public_names:
                found.append(self.name_depth.get(name, UNKNOWN_DEPTH))
                continue
            prefix = name + "."
            under = [self.name_depth.get(p, UNKNOWN_DEPTH) for p in self.public_names if p.startswith(prefix)]
            if under:
                found.append(min(under))
                continue
            tail = self._tail_depth(name)
            if tail is not None:
                found.append(tail)
        return min(found) if found else None

    def _tail_depth(self, name: str) -> int | None:
        parts = name.split(".")[1:]  # the package head is every name's
        if not parts:
            return None
        classes = [i for i, part in enumerate(parts) if part[:1].isupper()]
        tail = parts[classes[0]:] if classes else parts[-1:]
        depths = [self.depth.get(q, UNKNOWN_DEPTH) for q, components in self._components()
                  if _contains_run(components, tail)]
        return min(depths) if depths else None

    def _components(self) -> list[tuple[str, list[str]]]:
        cached = self.__dict__.get("_split")
        if cached is None:
            cached = [(q, q.replace("::", ".").split(".")) for q in sorted(self.reached)]
            object.__setattr__(self, "_split", cached)
        return cached

    def to_dict(self) -> dict:
        return {"units": list(self.units), "reached": len(self.reached), "public_names": sorted(self.public_names)}


def build_focus(db: IndexDB, units: list[str], library: str, max_depth: int = 8,
                max_visited: int = 50_000) -> Focus:
    depth = reaching_segments(db, units, max_depth, max_visited)
    # A method's class and constructor count as reaching it (one call away), without walking
    # their own callers: everything that builds the object would make the focus the whole library.
    for owner in (owner for unit in units for owner in _owners(db, unit)):
        depth.setdefault(owner, 1)
    # A private method is entered through its class's public surface, often by a reference
    # no static resolver follows (`PrimitiveJob(self._run, pubs)`): its class's methods count.
    for method in (m for unit in units if _is_private(unit) for m in _sibling_methods(db, unit)):
        depth.setdefault(method, 1)
    name_depth: dict[str, int] = {}
    for qualname, calls in depth.items():
        for name in db.public_names(qualname):
            name_depth[name] = min(calls, name_depth.get(name, calls))
    return Focus(tuple(units), frozenset(depth), frozenset(name_depth),
                 tuple(sorted(PACKAGE_ALIASES.get(library, {}).items())), depth, name_depth)


def reaching_segments(db: IndexDB, units: list[str], max_depth: int = 8, max_visited: int = 50_000) -> dict[str, int]:
    """Every segment from which a focus unit is reachable (the units included), with the
    fewest calls it takes, walking callers breadth-first up to `max_depth` calls."""
    plugins = PluginLoaders(db)
    seen: dict[str, int] = {}
    queue: deque[tuple[str, int]] = deque()
    for unit in units:
        if unit not in seen:
            seen[unit] = 0
            queue.append((unit, 0))
    while queue and len(seen) < max_visited:
        node, depth = queue.popleft()
        if depth >= max_depth:
            continue
        for caller in _callers(db, node) + plugins.loaders_of(node):
            if caller not in seen:
                seen[caller] = depth + 1
                queue.append((caller, depth + 1))
    return seen


def api_names(api: str, aliases: dict[str, str]) -> list[str]:
    """The dotted names an API string mentions, aliases expanded and string arguments
    dropped: "qml.probs on qml.device('default.qubit')" -> pennylane.probs, pennylane.device."""
    names = []
    for match in _DOTTED.findall(_QUOTED.sub("", api)):
        head, _, rest = match.partition(".")
        names.append(f"{aliases.get(head, head)}.{rest}")
    return names


def is_public_api(db: IndexDB, api: str, library: str) -> bool:
    """Whether every name an API string mentions is in the public API map: what a finding
    needs to count as reachable by a user through documented API."""
    names = api_names(api, PACKAGE_ALIASES.get(library, {}))
    return bool(names) and all(db.conn.execute("SELECT 1 FROM public_api WHERE public_name=? LIMIT 1",
                                               (name,)).fetchone() for name in names)


def entry_segments(db: IndexDB, api: str, library: str) -> list[str]:
    """The segments an API string enters the library through (a class: its constructor). A
    name the public map does not list as a public name may be the defining module's own path
    of a public segment (the surface names `pennylane.wires.Wires.difference`, the map lists
    it as `pennylane.Wires.difference`): then that segment."""
    found: list[str] = []
    for name in api_names(api, PACKAGE_ALIASES.get(library, {})):
        named = [q for (q,) in db.conn.execute("SELECT DISTINCT qualname FROM public_api WHERE public_name=?",
                                               (name,))]
        if not named:
            named = [q for (q,) in db.conn.execute("SELECT DISTINCT qualname FROM public_api WHERE qualname IN (?, ?)",
                                                   (name, f"{name}.__init__"))]
        found += [q for q in named if q not in found]
    return found


def _owner(db: IndexDB, qualname: str) -> str | None:
    row = db.conn.execute("SELECT owner FROM segments WHERE qualname=?", (qualname,)).fetchone()
    return row[0] if row else None


def _owners(db: IndexDB, qualname: str) -> list[str]:
    owner = _owner(db, qualname)
    # A class's public name maps to its constructor's segment.
    return [owner, f"{owner}.__init__"] if owner else []


def _is_private(qualname: str) -> bool:
    name = qualname.replace("::", ".").rsplit(".", 1)[-1]
    return name.startswith("_") and not name.endswith("__")


def _sibling_methods(db: IndexDB, qualname: str) -> list[str]:
    owner = _owner(db, qualname)
    if not owner:
        return []
    return [q for (q,) in db.conn.execute("SELECT qualname FROM segments WHERE owner=?", (owner,))]


def _contains_run(components: list[str], run: list[str]) -> bool:
    n = len(run)
    return any(components[i:i + n] == run for i in range(len(components) - n + 1))


def _callers(db: IndexDB, qualname: str) -> list[str]:
    rows = db.conn.execute("SELECT DISTINCT caller FROM calls WHERE target=? AND caller<>?", (qualname, qualname))
    callers = {c for (c,) in rows}
    like = f'%"{qualname}"%'
    for caller, candidates in db.conn.execute(
            "SELECT DISTINCT caller, candidates FROM calls WHERE status='unresolved' AND candidates LIKE ?", (like,)):
        # A call with many candidates (`op.is_unitary()` on an unknown `op`) says little
        # about any one of them; a handful is a real ambiguity worth following.
        if len(json.loads(candidates)) <= MAX_CANDIDATES:
            callers.add(caller)
    callers.update(_dispatchers(db, qualname))
    return sorted(callers)


class PluginLoaders:
    """Which segments load the plugin a method belongs to. The entry points come from the
    metadata of the indexed source tree (`qusema.units.entry_points`); a segment loads group
    G when its code names G as a string (`ExtensionManager("qiskit.unitary_synthesis")`,
    `entry_points(group="pennylane.plugins")`)."""

    def __init__(self, db: IndexDB) -> None:
        self._db = db
        root = db.meta().get("root")
        points = declared_entry_points(Path(root)) if root else []
        self._groups: dict[str, set[str]] = {}  # class qualname -> groups it is a plugin of
        for point in points:
            for qualname in self._classes(point.target):
                self._groups.setdefault(qualname, set()).add(point.group)
        self._loaders: dict[str, list[str]] = {}

    def _classes(self, dotted: str) -> list[str]:
        rows = self._db.conn.execute("SELECT qualname FROM public_api WHERE public_name=?", (dotted,)).fetchall()
        return sorted({q for (q,) in rows} | {dotted})

    def loaders_of(self, qualname: str) -> list[str]:
        if not self._groups:  # most trees declare no plugins: no lookup per visited segment
            return []
        owner = _owner(self._db, qualname)
        found: list[str] = []
        for group in sorted(self._groups.get(owner or "", ())):
            if group not in self._loaders:
                self._loaders[group] = [q for (q,) in self._db.conn.execute(
                    "SELECT qualname FROM segments WHERE language='python' AND (source LIKE ? OR source LIKE ?)",
                    (f'%"{group}"%', f"%'{group}'%"))]
            found += self._loaders[group]
        return found


_REGISTER = re.compile(r"^([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\.register\b")


def _dispatchers(db: IndexDB, qualname: str) -> list[str]:
    """The generic functions an implementation is registered with (`@apply_operation.register`,
    functools.singledispatch and its kin): calling the dispatcher runs the registered
    implementation, through a table no static resolver follows. The dispatcher is looked up
    in the implementation's own file first, then by name where that is unambiguous."""
    row = db.conn.execute("SELECT decorators, file FROM segments WHERE qualname=?", (qualname,)).fetchone()
    if not row:
        return []
    found: list[str] = []
    for decorator in json.loads(row[0]):
        match = _REGISTER.match(decorator)
        if not match:
            continue
        name = match.group(1).rsplit(".", 1)[-1]
        same_file = [q for (q,) in db.conn.execute("SELECT qualname FROM segments WHERE name=? AND file=?",
                                                    (name, row[1]))]
        anywhere = same_file or [q for (q,) in db.conn.execute("SELECT qualname FROM segments WHERE name=?", (name,))]
        if len(anywhere) <= MAX_CANDIDATES:
            found += anywhere
    return found
