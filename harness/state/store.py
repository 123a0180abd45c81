"""RunStore: the only owner of the run directory layout (runs/<run_id>/...)."""

from __future__ import annotations

import json
import os
import re
from contextlib import contextmanager
from pathlib import Path

from pydantic import BaseModel, ValidationError

from harness.errors import InputError, RunDataError, RunLockedError, UnknownRunError
from harness.models.run import RunState
from harness.state.checkpoints import CHECKPOINT_DIR, CheckpointLog
from harness.utils.events import EventLog, now_iso
from harness.utils.fileio import atomic_write_json
from harness.utils.ids import new_run_id, new_trace_id, valid_run_id

MAX_REQUEST_CHARS = 20_000
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")

ARTIFACTS = {
    "spec": "spec.json", "tasks": "tasks.json", "verification": "verification.json",
    "review": "review.json", "runtime": "runtime.json", "matrix": "matrix.json",
}


def validate_request(request: str) -> str:
    """The stripped request, or InputError for empty, oversized or control-character input."""
    if request is None or not request.strip():
        raise InputError("the request is empty: describe the app to build, e.g. builder new \"a todo app\"")
    if len(request) > MAX_REQUEST_CHARS:
        raise InputError(f"the request is {len(request)} characters; the limit is {MAX_REQUEST_CHARS}")
    if _CONTROL.search(request):
        raise InputError("the request contains control characters; pass plain text")
    return request.strip()


class RunStore:
    """runs/<id>/: state.json (atomic), artifacts, events.log (append-only), checkpoints/."""

    def __init__(self, base: Path | str = Path("runs")):
        self.base = Path(os.path.abspath(base))

    # --- layout -------------------------------------------------------------------------
    def run_dir(self, run_id: str) -> Path:
        if not valid_run_id(run_id):
            raise InputError(f"invalid run id {run_id!r}: use letters, digits, '_' or '-'")
        return self.base / run_id

    def workspace(self, run_id: str) -> Path:
        return self.run_dir(run_id) / "workspace"

    def artifact_path(self, run_id: str, name: str) -> Path:
        return self.run_dir(run_id) / ARTIFACTS[name]

    def events(self, state: RunState) -> EventLog:
        return EventLog(self.run_dir(state.run_id) / "events.log", state.run_id, state.trace_id)

    def checkpoints(self, run_id: str) -> CheckpointLog:
        return CheckpointLog(self.run_dir(run_id) / CHECKPOINT_DIR)

    # --- lifecycle ----------------------------------------------------------------------
    def create_run(self, user_request: str, run_id: str | None = None) -> RunState:
        """Validate the request and create runs/<id>/ with workspace/, checkpoints/, state.json."""
        request = validate_request(user_request)
        run_id = run_id or new_run_id()
        run_dir = self.run_dir(run_id)
        try:
            self.base.mkdir(parents=True, exist_ok=True)
            run_dir.mkdir()
        except FileExistsError:
            raise InputError(f"run {run_id} already exists in {self.base}; pick another --run-id or resume it") from None
        except OSError as exc:
            raise InputError(f"cannot create the runs directory {self.base}: {exc.strerror}") from None
        (run_dir / "workspace").mkdir()
        (run_dir / CHECKPOINT_DIR).mkdir()
        stamp = now_iso()
        state = RunState(run_id=run_id, trace_id=new_trace_id(), user_request=request,
                         created_at=stamp, updated_at=stamp)
        self.save(state)
        return state

    def save(self, state: RunState) -> None:
        """Rewrite state.json atomically."""
        state.updated_at = now_iso()
        atomic_write_json(self.run_dir(state.run_id) / "state.json", state.model_dump(mode="json"))

    def load(self, run_id: str) -> RunState:
        """Load and validate state.json; RunDataError naming the file when it is corrupt."""
        path = self.run_dir(run_id) / "state.json"
        if not self.run_dir(run_id).is_dir():
            raise UnknownRunError(f"no run {run_id!r} in {self.base}; `builder runs` lists the runs")
        if not path.exists():
            raise RunDataError(f"{path}: state.json is missing; the run cannot be loaded")
        try:
            return RunState.model_validate_json(path.read_bytes())
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first.get("loc", ())) or "document"
            raise RunDataError(f"{path}: state.json is corrupt ({where}: {first.get('msg')}); nothing was changed") from None

    def write_artifact(self, run_id: str, name: str, data: BaseModel | dict | list) -> Path:
        path = self.artifact_path(run_id, name)
        payload = data.model_dump(mode="json") if isinstance(data, BaseModel) else data
        atomic_write_json(path, payload)
        return path

    def read_artifact(self, run_id: str, name: str):
        """The parsed JSON artifact, None when absent, RunDataError when corrupt."""
        path = self.artifact_path(run_id, name)
        if not path.exists():
            return None
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise RunDataError(f"{path}: not valid JSON ({exc}); nothing was changed") from None

    def checkpoint(self, state: RunState, event_name: str, payload: dict | None = None,
                   task_id: str | None = None) -> Path:
        """Write the next checkpoint file and record it in state.json."""
        path = self.checkpoints(state.run_id).write(event_name, {
            "run_id": state.run_id, "status": state.status.value,
            "task_results": {k: v.value for k, v in state.task_results.items()},
            **(payload or {}),
        }, task_id)
        state.checkpoints.append(path.name)
        self.save(state)
        return path

    def list_runs(self) -> list[dict]:
        """One summary per run directory: id, status, request (corrupt runs are reported, not skipped)."""
        if not self.base.is_dir():
            return []
        out = []
        for run_dir in sorted(p for p in self.base.iterdir() if p.is_dir() and valid_run_id(p.name)):
            try:
                st = self.load(run_dir.name)
                out.append({"run_id": st.run_id, "status": st.status.value,
                            "request": st.user_request, "updated_at": st.updated_at})
            except RunDataError as exc:
                out.append({"run_id": run_dir.name, "status": "CORRUPT", "request": str(exc), "updated_at": ""})
        return out

    def resume(self, run_id: str) -> tuple[RunState, dict | None]:
        """Load state.json and the checkpoint log, check they agree; (state, latest checkpoint)."""
        state = self.load(run_id)
        log = self.checkpoints(run_id)
        names = log.names()
        latest = log.read(names[-1]) if names else None
        for name in names[:-1]:
            log.read(name)
        if names != state.checkpoints:
            raise RunDataError(
                f"{self.run_dir(run_id) / 'state.json'}: lists {len(state.checkpoints)} checkpoints but "
                f"{log.directory} holds {len(names)}; the state contradicts the checkpoints")
        return state, latest

    @contextmanager
    def lock(self, run_id: str):
        """Exclusive writer lock on a run (lock file with our pid; a dead holder's lock is taken over)."""
        if not self.run_dir(run_id).is_dir():
            raise UnknownRunError(f"no run {run_id!r} in {self.base}; `builder runs` lists the runs")
        path = self.run_dir(run_id) / "run.lock"
        for _ in range(2):
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
                break
            except FileExistsError:
                holder = _read_pid(path)
                if holder and _pid_alive(holder):
                    raise RunLockedError(f"run {run_id} is in use by process {holder}; wait for it to finish") from None
                path.unlink(missing_ok=True)
        else:
            raise RunLockedError(f"run {run_id} is locked ({path}); remove the file if no builder is running")
        os.write(fd, str(os.getpid()).encode())
        os.close(fd)
        try:
            yield
        finally:
            path.unlink(missing_ok=True)


def _read_pid(path: Path) -> int | None:
    try:
        return int(path.read_text().strip())
    except (OSError, ValueError):
        return None


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
