"""Checkpoint files: checkpoints/<seq>-<event>[-<task>].json, contiguous, never rewritten.

A checkpoint is committed in three steps (see RunStore.checkpoint): the document is written aside
as `.<name>.pending`, state.json listing <name> is saved (the commit point), then the pending file
is hard-linked to <name> (os.link fails rather than overwrite). A crash between the last two steps
leaves a state that lists one checkpoint more than the directory holds, with its pending document
next to it; `complete_pending` finishes that link on resume.
"""

from __future__ import annotations

import json
import os
import re
import signal
from pathlib import Path

from harness.errors import RunDataError
from harness.utils.events import now_iso

CHECKPOINT_DIR = "checkpoints"
EVENTS = ("spec_created", "plan_created", "task_started", "task_completed", "task_failed",
          "verification_completed", "repair_started", "runtime_completed", "audit_completed",
          "review_completed")
_NAME = re.compile(r"^(\d{3,})-([a-z_]+)(?:-(TASK-\d{3}))?\.json$")

# Test hook: HARNESS_CRASH_AT="task_completed:TASK-002" makes the process SIGKILL itself right after
# that checkpoint is committed; "task_completed:TASK-002:pending" kills it after state.json lists
# the checkpoint but before the checkpoint file is linked into place. Crash recovery is thereby
# tested against a really dead process, not an exception.
CRASH_ENV = "HARNESS_CRASH_AT"


def crash_hook(marker: str) -> None:
    """SIGKILL this process when HARNESS_CRASH_AT equals `marker` (test hook; no-op otherwise)."""
    if os.environ.get(CRASH_ENV) == marker:
        os.kill(os.getpid(), signal.SIGKILL)


def checkpoint_name(seq: int, event: str, task_id: str | None = None) -> str:
    return f"{seq:03d}-{event}" + (f"-{task_id}" if task_id else "") + ".json"


class CheckpointLog:
    """Append-only sequence of checkpoint documents in one directory."""

    def __init__(self, directory: Path):
        self.directory = directory

    def names(self) -> list[str]:
        """Checkpoint file names in sequence order; RunDataError on a gap or a stray name."""
        if not self.directory.is_dir():
            return []
        entries = []
        for path in self.directory.iterdir():
            if path.name.startswith("."):
                continue
            match = _NAME.match(path.name)
            if not match:
                raise RunDataError(f"{path}: not a checkpoint file name (<seq>-<event>[-<task>].json)")
            entries.append((int(match.group(1)), path.name))
        entries.sort()
        for expected, (seq, name) in enumerate(entries, start=1):
            if seq != expected:
                raise RunDataError(f"{self.directory}: checkpoint sequence gap, expected "
                                   f"{expected:03d} but found {name}")
        return [name for _, name in entries]

    def read(self, name: str, path: Path | None = None) -> dict:
        """The checkpoint document `name`; RunDataError unless it parses and agrees with its name."""
        path = path or self.directory / name
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise RunDataError(f"{path}: corrupt checkpoint ({exc.__class__.__name__}: {_line(exc)})") from None
        if not isinstance(data, dict):
            raise RunDataError(f"{path}: corrupt checkpoint (not a JSON object)")
        match = _NAME.match(name)
        if match is None:
            raise RunDataError(f"{path}: not a checkpoint file name (<seq>-<event>[-<task>].json)")
        expected = {"seq": int(match.group(1)), "event": match.group(2), "task_id": match.group(3)}
        for key, want in expected.items():
            if data.get(key) != want:
                raise RunDataError(f"{path}: corrupt checkpoint ({key} is {data.get(key)!r}, the file "
                                   f"name says {want!r})")
        if data["event"] not in EVENTS:
            raise RunDataError(f"{path}: corrupt checkpoint (unknown event {data['event']!r})")
        return data

    def pending_path(self, name: str) -> Path:
        return self.directory / f".{name}.pending"

    def prepare(self, event: str, payload: dict, task_id: str | None = None) -> Path:
        """Write the next checkpoint's document aside (fsynced); return its final path."""
        if event not in EVENTS:
            raise ValueError(f"unknown checkpoint event {event!r}")
        self.directory.mkdir(parents=True, exist_ok=True)
        seq = len(self.names()) + 1
        name = checkpoint_name(seq, event, task_id)
        doc = {"schema_version": 1, "seq": seq, "event": event, "task_id": task_id,
               "timestamp": now_iso(), **payload}
        pending = self.pending_path(name)
        # A leftover pending file of this name is garbage from a crash before its commit point.
        with open(pending, "w", encoding="utf-8") as fh:
            fh.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        return self.directory / name

    def commit(self, path: Path) -> None:
        """Link the pending document into place; an existing checkpoint is never overwritten."""
        pending = self.pending_path(path.name)
        os.link(pending, path)
        pending.unlink()
        _fsync_dir(self.directory)

    def write(self, event: str, payload: dict, task_id: str | None = None) -> Path:
        """prepare + commit in one go (no state.json involved)."""
        path = self.prepare(event, payload, task_id)
        self.commit(path)
        return path

    def complete_pending(self, name: str) -> bool:
        """Finish the link of checkpoint `name` when its validated pending document exists."""
        pending = self.pending_path(name)
        if (self.directory / name).exists() or not pending.is_file():
            return False
        self.read(name, pending)
        self.commit(self.directory / name)
        return True


def _line(exc: Exception) -> str:
    return " ".join(str(exc).split())


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
