"""RunStore: the only owner of the run directory layout (runs/<run_id>/...)."""

from __future__ import annotations

import fcntl
import json
import os
import re
from contextlib import contextmanager
from pathlib import Path

from pydantic import BaseModel, ValidationError

from harness.errors import InputError, RunDataError, RunLockedError, UnknownRunError
from harness.models.run import SCHEMA_VERSION, RunOptions, RunState
from harness.models.trace import TraceMatrix
from harness.state.checkpoints import crash_hook
from harness.state.layout import ARTIFACTS, RunLayout
from harness.state.recovery import check_against_checkpoints
from harness.utils.events import now_iso
from harness.utils.fileio import atomic_write_json, atomic_write_text
from harness.utils.ids import new_run_id, new_trace_id, valid_run_id

__all__ = ["ARTIFACTS", "RunStore", "validate_request"]

MAX_REQUEST_CHARS = 20_000
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # \r and C1 too: they rewrite terminal columns

def validate_request(request: str) -> str:
    """The stripped request, or InputError for empty, oversized or control-character input."""
    if request is None or not request.strip():
        raise InputError("the request is empty: describe the app to build, e.g. builder new \"a todo app\"")
    if len(request) > MAX_REQUEST_CHARS:
        raise InputError(f"the request is {len(request)} characters; the limit is {MAX_REQUEST_CHARS}")
    if _CONTROL.search(request):
        raise InputError("the request contains control characters; pass plain text")
    return request.strip()


class RunStore(RunLayout):
    """runs/<id>/: state.json (atomic), artifacts, events.log (append-only), checkpoints/."""

    # --- lifecycle ----------------------------------------------------------------------
    def create_run(self, user_request: str, run_id: str | None = None,
                   options: RunOptions | None = None) -> RunState:
        """Validate the request and create runs/<id>/ with workspace/, checkpoints/, state.json
        (which records `options`, so a resume continues with the same choices)."""
        request = validate_request(user_request)
        run_id = new_run_id() if run_id is None else run_id
        run_dir = self.run_dir(run_id)
        if self.base.exists() and not self.base.is_dir():
            raise InputError(f"the runs directory {self.base} is not a directory; pass another --runs-dir")
        try:
            self.base.mkdir(parents=True, exist_ok=True)
            run_dir.mkdir()
        except FileExistsError:
            raise InputError(f"run {run_id} already exists in {self.base}; pick another --run-id or resume it") from None
        except OSError as exc:
            raise InputError(f"cannot create the runs directory {self.base}: {exc.strerror}") from None
        self.workspace(run_id).mkdir()
        self.checkpoints_dir(run_id).mkdir()
        stamp = now_iso()
        state = RunState(run_id=run_id, trace_id=new_trace_id(), user_request=request,
                         created_at=stamp, updated_at=stamp, options=options or RunOptions())
        self.save(state)
        return state

    def save(self, state: RunState) -> None:
        """Rewrite state.json atomically (temp file, fsync, rename). A save that would change
        nothing but `updated_at` writes nothing: the state's text is the one this store last wrote
        there and the file is still that write (same inode, size and modification time). A run
        saved 7 of its 36 states unchanged (after each task and at its end), an fsync each."""
        path = self.state_path(state.run_id)
        written = self.__dict__.setdefault("_state_written", {})
        last = written.get(path)
        if last is not None and last == (state.model_dump_json(indent=2) + "\n", _file_identity(path)):
            return
        state.updated_at = now_iso()
        text = state.model_dump_json(indent=2) + "\n"
        atomic_write_text(path, text)
        written[path] = (text, _file_identity(path))

    def load(self, run_id: str) -> RunState:
        """Load and validate state.json; RunDataError (one line, naming the file) when it is unusable."""
        path = self.state_path(run_id)
        if not self.run_dir(run_id).is_dir():
            raise UnknownRunError(f"no run {run_id!r} in {self.base}; `builder runs` lists the runs")
        if not path.exists():
            raise RunDataError(f"{path}: state.json is missing; the run cannot be loaded")
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise RunDataError(f"{path}: state.json cannot be read ({exc.strerror})") from None
        try:
            data = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            why = "it is empty" if not raw.strip() else _one_line(exc)
            raise RunDataError(f"{path}: state.json is not valid JSON, truncated or corrupt ({why}); "
                               "nothing was changed") from None
        if not isinstance(data, dict):
            raise RunDataError(f"{path}: state.json is corrupt (a JSON {type(data).__name__}, not an object); "
                               "nothing was changed")
        if data.get("schema_version", SCHEMA_VERSION) != SCHEMA_VERSION:
            raise RunDataError(f"{path}: state.json has schema_version {data.get('schema_version')!r}; this "
                               f"builder reads {SCHEMA_VERSION}; nothing was changed")
        try:
            state = RunState.model_validate(data)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first.get("loc", ())) or "document"
            raise RunDataError(f"{path}: state.json does not match the run schema ({where}: "
                               f"{_one_line(first.get('msg'))}); nothing was changed") from None
        if state.run_id != run_id:
            raise RunDataError(f"{path}: state.json belongs to run {state.run_id!r}, not {run_id!r}; nothing was changed")
        return state

    def write_artifact(self, run_id: str, name: str, data: BaseModel | dict | list) -> Path:
        path = self.artifact_path(run_id, name)
        atomic_write_json(path, data)
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

    def write_json(self, path: Path, data: BaseModel | dict | list) -> Path:
        """Atomically write a document at a path this layout handed out (failure/requirement reports)."""
        atomic_write_json(path, data)
        return path

    def read_json(self, path: Path) -> dict | None:
        """A run document that may be absent or damaged: None then (reads degrade, writes fail loudly)."""
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def read_matrix(self, run_id: str) -> TraceMatrix | None:
        """matrix.json as the typed matrix; None when absent, RunDataError when corrupt."""
        data = self.read_artifact(run_id, "matrix")
        if data is None:
            return None
        try:
            return TraceMatrix.model_validate(data)
        except ValidationError as exc:
            raise RunDataError(f"{self.artifact_path(run_id, 'matrix')}: not a traceability matrix "
                               f"({_one_line(exc.errors()[0].get('msg'))}); nothing was changed") from None

    def read_workspace_evidence(self, run_id: str) -> dict | None:
        """The latest whole-suite evidence document, or None when absent or unreadable."""
        return self.read_json(self.workspace_evidence(run_id))

    def read_audit(self, run_id: str) -> dict | None:
        """audit.json (the mutation audit's killed/survived per requirement), None when absent or unreadable."""
        return self.read_json(self.artifact_path(run_id, "audit"))

    def checkpoint(self, state: RunState, event_name: str, payload: dict | None = None,
                   task_id: str | None = None) -> Path:
        """Commit the next checkpoint: document aside, state.json listing it (the commit point), link.

        state.json is saved with everything the caller changed, so a crash at any point leaves either
        the previous consistent pair or a pending document that `resume(finish_pending=True)` links.
        """
        log = self.checkpoints(state.run_id)
        if state.checkpoints and not (log.directory / state.checkpoints[-1]).exists():
            log.complete_pending(state.checkpoints[-1])  # a commit a crash interrupted comes first
        path = log.prepare(event_name, {
            "run_id": state.run_id, "status": state.status.value,
            "task_results": {k: v.value for k, v in state.task_results.items()},
            **(payload or {}),
        }, task_id)
        state.checkpoints.append(path.name)
        self.save(state)
        marker = f"{event_name}:{task_id}" if task_id else event_name
        crash_hook(marker + ":pending")
        log.commit(path)
        crash_hook(marker)
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

    def resume(self, run_id: str, *, finish_pending: bool = False) -> tuple[RunState, dict | None]:
        """Load and validate state.json against its checkpoint log; (state, latest checkpoint).

        Read-only unless `finish_pending` (call it only under `lock`): then the checkpoint a crash
        left pending right after its commit point is linked into place. RunDataError on a corrupt
        state or checkpoint, a sequence gap or a contradiction — naming the file, changing nothing.
        """
        state = self.load(run_id)
        log = self.checkpoints(run_id)
        docs, pending = check_against_checkpoints(state, log, self.state_path(run_id))
        if pending and finish_pending:
            log.complete_pending(pending)
        return state, (docs[-1] if docs else None)

    def checked(self, run_id: str) -> RunState:
        """The state after the same read-only validation `resume` does: judges never read a damaged run."""
        return self.resume(run_id)[0]

    def lock_holder(self, run_id: str) -> int | None:
        """The pid holding the run's writer lock (0 when unknown), None when free; changes nothing."""
        path = self.lock_path(run_id)
        try:
            fd = os.open(path, os.O_RDONLY)
        except FileNotFoundError:
            return None
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return _read_pid(path) or 0
        finally:
            os.close(fd)
        return None

    def ensure_unlocked(self, run_id: str) -> None:
        """RunLockedError when another process is writing the run (a probe: nothing is created)."""
        holder = self.lock_holder(run_id)
        if holder is not None:
            raise RunLockedError(_locked_message(run_id, holder, self.lock_path(run_id)))

    @contextmanager
    def lock(self, run_id: str):
        """Exclusive writer lock on a run: flock(2) on run.lock, which also holds our pid.

        The kernel drops a flock when its holder dies, so the lock of a crashed (even SIGKILLed)
        builder is taken over without guessing from pids; a live holder -> RunLockedError.
        """
        if not self.run_dir(run_id).is_dir():
            raise UnknownRunError(f"no run {run_id!r} in {self.base}; `builder runs` lists the runs")
        path = self.lock_path(run_id)
        for _ in range(5):
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise RunLockedError(_locked_message(run_id, _read_pid(path) or 0, path)) from None
            if _same_file(fd, path):
                break
            os.close(fd)  # a releasing holder unlinked the file we opened: lock the new one
        else:
            raise RunLockedError(f"run {run_id}: could not take {path}; retry")
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        try:
            yield
        finally:
            path.unlink(missing_ok=True)  # while still holding the flock, so no one locks a ghost
            os.close(fd)


def _locked_message(run_id: str, pid: int, path: Path) -> str:
    who = f"process {pid}" if pid else "another builder process"
    return (f"run {run_id} is in use by {who} ({path} is locked); wait for it to finish — "
            "a second writer is refused")


def _same_file(fd: int, path: Path) -> bool:
    try:
        return os.path.samestat(os.fstat(fd), os.stat(path))
    except FileNotFoundError:
        return False


def _read_pid(path: Path) -> int | None:
    try:
        return int(path.read_text().strip())
    except (OSError, ValueError):
        return None


def _one_line(value) -> str:
    return " ".join(str(value).split())[:300]


def _file_identity(path: Path) -> tuple[int, int, int] | None:
    """(inode, size, modification time in ns) of `path`, None when it cannot be read."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns
