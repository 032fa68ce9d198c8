"""`qusema replay RUN_DIR`: re-execute a recorded agent run with no network and check that it
reproduces its findings byte for byte.

The model is a `ReplayModel` over the run's exchanges (a request the run never made is an
error, so the conversation must unfold exactly as recorded); sandbox runs are served from
the run's records and, when the target environment is at hand, executed again and compared
(`ReplaySandbox`). Everything else — the index, unit selection, Stage III chains, adequacy
scoring, qualification, findings, reports — is computed afresh. The replay is written to
RUN_DIR/replay/ and its findings.json and findings.sarif are compared with the original's."""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path

from qusema.agent.audit_llm import AgentConfig, AgentPass, Progress
from qusema.agent.sandbox_log import SANDBOX, ReplaySandbox
from qusema.llm.recording import ReplayModel
from qusema.store import RunStore

COMPARED = ("findings.json", "findings.sarif")


@dataclass
class ReplayReport:
    run_dir: Path
    replay_dir: Path
    stop_reason: str
    identical: dict[str, bool] = field(default_factory=dict)
    sandbox_runs_rechecked: int = 0

    @property
    def ok(self) -> bool:
        return bool(self.identical) and all(self.identical.values())


def replay_run(run_dir: Path, cache_dir: Path, progress: Progress, *, rerun_sandbox: bool = True,
               backend: str | None = None, out_dir: Path | None = None) -> ReplayReport:
    from qusema.audit import AUDIT_TOOLS, _ensure_index, collect_findings, write_reports

    replay_dir = out_dir or run_dir / "replay"
    if replay_dir.exists():
        shutil.rmtree(replay_dir)
    with RunStore(run_dir / "run.sqlite") as original:
        (run,) = original.runs()
        if "agent" not in run.config:
            raise ValueError(f"{run_dir} is not a run of the agent (its configuration has no 'agent' part)")
        config = AgentConfig.from_identity(run.config["agent"], concurrency=1, cooldown_s=0.0)
        environment = original.records(run.run_id, "environment")
        carried = [(kind, original.records(run.run_id, kind)) for kind in ("environment", "diff")]
        contract_findings = [(k, p) for k, p in original.records(run.run_id, "finding")
                             if p["hypothesis"]["origin"] != "llm"]
        model = ReplayModel(original, run.run_id)
        sandbox_records = original.records(run.run_id, SANDBOX)
    packages = environment[-1][1]["packages"] if environment else []
    python_version = environment[-1][1]["python"] if environment else "?"
    with RunStore(replay_dir / "run.sqlite") as store:
        store.start_run(run.run_id, "replay", run.target, run.config)
        for kind, records in carried:
            for key, payload in records:
                store.record(run.run_id, kind, key, payload)
        for key, payload in contract_findings:  # the contract engine's part is not the agent's to replay
            store.record(run.run_id, "finding", key, payload)
        db = _ensure_index(run.target, cache_dir, progress)
        real = None
        if rerun_sandbox:
            from qusema.sandbox import open_sandbox
            from qusema.targets.environments import EnvironmentStore

            real = open_sandbox(EnvironmentStore().create(run.target, tools=AUDIT_TOOLS), backend)
        box = ReplaySandbox(sandbox_records, rerun=real)
        try:
            stop = AgentPass(config, model).run(store, run.run_id, packages, db, [box], progress)
        finally:
            box.close()
            db.close()
        write_reports(replay_dir, collect_findings(store, run.run_id), python_version)
        store.finish_run(run.run_id, "finished" if stop == "complete" else "stopped", stop)
    report = ReplayReport(run_dir, replay_dir, stop, sandbox_runs_rechecked=box.checked)
    for name in COMPARED:
        original_file, replayed = run_dir / name, replay_dir / name
        report.identical[name] = original_file.is_file() and original_file.read_bytes() == replayed.read_bytes()
    return report
