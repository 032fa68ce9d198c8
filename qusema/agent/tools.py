"""The agent's tools. Each is a plain function with type hints and a docstring: that is all
`Toolbox` needs to derive the schema a model sees (docs/agent.md lists them).

Tool results go back into the conversation, and a replay checks the conversation byte for
byte, so every result is deterministic: no timings, no addresses, sorted where order is free."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from qusema.llm.tools import Toolbox
from qusema.sandbox import Sandbox
from qusema.units.call_graph import chains_to_public
from qusema.units.contextual_unit import build_unit
from qusema.units.index_db import IndexDB

RELATED_UNIT_TOKENS = 1500
OUTPUT_CHARS = 3000


def resolve_name(db: IndexDB, name: str) -> tuple[str | None, str]:
    """(qualname, "") for a qualified name or unique suffix, else (None, why)."""
    matches = db.find_segments(name.strip())
    if len(matches) == 1:
        return matches[0], ""
    if not matches:
        return None, f"error: no unit named {name!r} in the index; use a qualified name or a unique suffix"
    return None, f"error: {name!r} is ambiguous; candidates: " + ", ".join(sorted(matches)[:15])


def agent_toolbox(db: IndexDB, sandbox: Sandbox, docs: bool = True) -> Toolbox:
    """The tools of one unit's conversation, bound to its index and sandbox. `docs=False`
    (the no-docs ablation) renders related units without their documentation too, or the
    model could read back what the ablation withholds."""

    def read_unit(name: str) -> str:
        """Read a related unit of the library: its source, documentation and call relations.

        Args:
            name: Qualified name (e.g. qiskit.quantum_info.operators.symplectic.pauli.Pauli.evolve) or a unique suffix (Pauli.evolve).
        """
        qualname, error = resolve_name(db, name)
        if qualname is None:
            return error
        return build_unit(db, qualname).render(RELATED_UNIT_TOKENS, docs=docs)

    def list_callers(name: str) -> str:
        """Who calls a unit, and the shortest caller chains from it to documented public APIs.

        Args:
            name: Qualified name or unique suffix of the unit.
        """
        qualname, error = resolve_name(db, name)
        if qualname is None:
            return error
        callers = sorted({c.caller for c in db.calls_to(qualname)})
        chains = chains_to_public(db, qualname, max_depth=6, max_chains=5)
        return json.dumps({"unit": qualname, "callers": callers[:30],
                           "chains_to_public_api": [{"chain": list(c.chain), "public_names": list(c.public_names)}
                                                    for c in chains]}, indent=1)

    def run_code(code: str) -> str:
        """Run exploratory Python in the sandbox, against the audited release (numpy available;
        no network; `report(name, value)` hands a value back). Returns status, exception,
        stdout and reported values.

        Args:
            code: A complete Python program.
        """
        result = sandbox.run(code, filename="explore.py")
        outcome: dict[str, Any] = {"status": result.status.value}
        if result.exception is not None:
            outcome["exception"] = f"{result.exception.type}: {result.exception.message}"[:OUTPUT_CHARS]
        if result.kill_reason:
            outcome["kill_reason"] = result.kill_reason
        if result.stdout:
            outcome["stdout"] = result.stdout[-OUTPUT_CHARS:]
        if result.reports:
            outcome["reports"] = json.dumps(result.reports, sort_keys=True)[:OUTPUT_CHARS]
        return json.dumps(outcome, indent=1)

    functions: list[Callable[..., Any]] = [read_unit, list_callers, run_code]
    return Toolbox(functions)
