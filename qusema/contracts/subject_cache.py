"""What each law applies to on one release, kept between audits of that release.

Listing a law's subjects runs the library (the documented-examples laws run every candidate
docstring example twice, about a minute on PennyLane), and an audit spends that time inside
its budget. A released package does not change, so neither do its subjects for the same law
code: the list is kept beside the release's environment, under the digest of the law code
(`catalog_fingerprint`), and later audits read it instead of asking the sandbox again. It
also makes those audits work on the same list when a subject's listing depends on timing.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from qusema.contracts.engine import Subjects, catalog_fingerprint
from qusema.targets.environments import TargetEnvironment


@dataclass(frozen=True)
class SubjectCache:
    root: Path  # one JSON file per law

    @classmethod
    def for_environment(cls, env: TargetEnvironment, library: str) -> SubjectCache | None:
        """None for a checkout or an existing interpreter: their library can change in place."""
        if env.source != "pypi":
            return None
        return cls(env.root / "subjects" / catalog_fingerprint(library))

    def _path(self, contract_id: str) -> Path:
        return self.root / f"{contract_id}.json"

    def get(self, contract_id: str) -> Subjects | None:
        try:
            payload = json.loads(self._path(contract_id).read_text())
        except (OSError, ValueError):  # not kept yet, or a file cut short: ask again
            return None
        return Subjects(payload["subjects"], payload["apis"], None)

    def put(self, contract_id: str, subjects: Subjects) -> None:
        """Keep a list that was found; a law that did not apply is asked again next time (the
        reason may be a sandbox call that timed out under load)."""
        if subjects.reason is not None:
            return
        self.root.mkdir(parents=True, exist_ok=True)
        # Written whole, then renamed: two audits of one release never read half a file.
        handle, temporary = tempfile.mkstemp(dir=self.root, suffix=".tmp")
        with os.fdopen(handle, "w") as file:
            json.dump({"subjects": subjects.names, "apis": subjects.apis}, file)
        os.replace(temporary, self._path(contract_id))
