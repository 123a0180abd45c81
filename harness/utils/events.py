"""events.log: append-only JSON lines, every line carrying the twelve keys of SPEC §7."""

from __future__ import annotations

import json
import os
from datetime import datetime, timezone
from pathlib import Path

EVENT_KEYS = ("run_id", "trace_id", "stage", "agent", "task_id", "timestamp", "duration_ms",
              "model", "tokens", "tool", "status", "error")


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


class EventLog:
    """Appends events for one run; never rewrites earlier lines."""

    def __init__(self, path: Path, run_id: str, trace_id: str):
        self.path = path
        self.run_id = run_id
        self.trace_id = trace_id

    def emit(self, stage: str, status: str, *, agent: str = "", task_id: str = "",
             duration_ms: int | None = None, model: str | None = None, tokens: int | None = None,
             tool: str = "", error: str = "", **detail) -> dict:
        """Append one event line and return it."""
        event = {
            "run_id": self.run_id, "trace_id": self.trace_id, "stage": stage, "agent": agent,
            "task_id": task_id, "timestamp": now_iso(), "duration_ms": duration_ms,
            "model": model, "tokens": tokens, "tool": tool, "status": status,
            "error": error[-2000:] if error else "",
        }
        if detail:
            event["detail"] = detail
        line = json.dumps(event, ensure_ascii=False, default=str) + "\n"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, line.encode("utf-8"))
        finally:
            os.close(fd)
        return event


def read_events(path: Path) -> list[dict]:
    """All parseable events of a log (a torn last line from a crash is skipped)."""
    if not path.exists():
        return []
    events = []
    # Bytes decoded with replacement: a damaged line degrades to text, never to a traceback.
    for line in path.read_bytes().decode("utf-8", errors="replace").splitlines():
        try:
            event = json.loads(line)
        except (json.JSONDecodeError, RecursionError):
            continue
        if isinstance(event, dict):   # a line that is JSON but not an event is skipped like a torn one
            events.append(event)
    return events
