"""Checkpoint files: checkpoints/<seq>-<event>[-<task>].json, contiguous, never rewritten."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from harness.errors import RunDataError
from harness.utils.events import now_iso

CHECKPOINT_DIR = "checkpoints"
EVENTS = ("spec_created", "plan_created", "task_started", "task_completed", "task_failed",
          "verification_completed", "repair_started", "runtime_completed", "review_completed")
_NAME = re.compile(r"^(\d{3,})-([a-z_]+)(?:-(TASK-\d{3}))?\.json$")


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
                raise RunDataError(f"{self.directory}: checkpoint sequence gap, expected {expected:03d} but found {name}")
        return [name for _, name in entries]

    def read(self, name: str) -> dict:
        path = self.directory / name
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise RunDataError(f"{path}: corrupt checkpoint ({exc.__class__.__name__}: {exc})") from None
        if not isinstance(data, dict) or "event" not in data:
            raise RunDataError(f"{path}: corrupt checkpoint (no event field)")
        return data

    def write(self, event: str, payload: dict, task_id: str | None = None) -> Path:
        """Write checkpoint number len+1 with O_EXCL, so an existing file is never overwritten."""
        if event not in EVENTS:
            raise ValueError(f"unknown checkpoint event {event!r}")
        self.directory.mkdir(parents=True, exist_ok=True)
        seq = len(self.names()) + 1
        name = f"{seq:03d}-{event}" + (f"-{task_id}" if task_id else "") + ".json"
        path = self.directory / name
        doc = {"schema_version": 1, "seq": seq, "event": event, "task_id": task_id,
               "timestamp": now_iso(), **payload}
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        return path
