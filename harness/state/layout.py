"""RunLayout: the one place that knows where each artifact of runs/<run_id>/ lives.

Like pytest's cacheprovider, a single class owns the directory layout: every other module asks
it for a path (or a run-relative name) and never joins path strings itself.
"""

from __future__ import annotations

import os
from pathlib import Path

from harness.errors import InputError
from harness.models.run import RunState
from harness.state.checkpoints import CHECKPOINT_DIR, CheckpointLog
from harness.utils.events import EventLog
from harness.utils.ids import valid_run_id

WORKSPACE = "workspace"
EVIDENCE_DIR = "evidence"
WORKSPACE_EVIDENCE = f"{EVIDENCE_DIR}/workspace.json"
FAILURES_DIR = "failures"
REQUIREMENTS_DIR = "requirements"
ARTIFACTS = {
    "spec": "spec.json", "tasks": "tasks.json", "verification": "verification.json",
    "review": "review.json", "runtime": "runtime.json", "matrix": "matrix.json", "audit": "audit.json",
    "clauses": "clauses.json",   # written when the spec stage stops (spec.json holds them otherwise)
}
AUDIT_SCRATCH = "audit-workspace"


class RunLayout:
    """Paths of one runs directory; RunStore adds reading and writing on top."""

    def __init__(self, base: Path | str = Path("runs")):
        self.base = Path(os.path.abspath(base))

    def run_dir(self, run_id: str) -> Path:
        if not valid_run_id(run_id):
            raise InputError(f"invalid run id {run_id!r}: use letters, digits, '_' or '-'")
        return self.base / run_id

    def workspace(self, run_id: str) -> Path:
        return self.run_dir(run_id) / WORKSPACE

    def state_path(self, run_id: str) -> Path:
        return self.run_dir(run_id) / "state.json"

    def artifact_path(self, run_id: str, name: str) -> Path:
        return self.run_dir(run_id) / ARTIFACTS[name]

    def events_path(self, run_id: str) -> Path:
        return self.run_dir(run_id) / "events.log"

    def lock_path(self, run_id: str) -> Path:
        return self.run_dir(run_id) / "run.lock"

    def checkpoints_dir(self, run_id: str) -> Path:
        return self.run_dir(run_id) / CHECKPOINT_DIR

    def evidence_dir(self, run_id: str) -> Path:
        """Where the pytest plugin writes one evidence document per verification command."""
        return self.run_dir(run_id) / EVIDENCE_DIR

    def workspace_evidence(self, run_id: str) -> Path:
        """The evidence document of the latest whole-suite verification (what the matrix reads)."""
        return self.run_dir(run_id) / WORKSPACE_EVIDENCE

    def failure_report(self, run_id: str, task_id: str) -> Path:
        return self.run_dir(run_id) / FAILURES_DIR / f"{task_id}.json"

    def failure_reports(self, run_id: str) -> list[Path]:
        """The escalation reports of the run, by task id."""
        return sorted((self.run_dir(run_id) / FAILURES_DIR).glob("TASK-*.json"))

    def requirement_report(self, run_id: str, req_id: str) -> Path:
        return self.run_dir(run_id) / REQUIREMENTS_DIR / f"{req_id}.json"

    def audit_scratch(self, run_id: str) -> Path:
        """The throw-away copy of the workspace the mutation audit mutates (never the workspace)."""
        return self.run_dir(run_id) / AUDIT_SCRATCH

    def html_report(self, run_id: str) -> Path:
        """The self-contained page `builder report` writes."""
        return self.run_dir(run_id) / "report.html"

    def relative(self, run_id: str, path: Path) -> str:
        """`path` relative to the run directory, as POSIX text (what artifacts and events record)."""
        return Path(path).relative_to(self.run_dir(run_id)).as_posix()

    def events(self, state: RunState) -> EventLog:
        return EventLog(self.events_path(state.run_id), state.run_id, state.trace_id)

    def checkpoints(self, run_id: str) -> CheckpointLog:
        return CheckpointLog(self.checkpoints_dir(run_id))
