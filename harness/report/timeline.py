"""The task timeline of a run from its events.log: pure functions over event dicts."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime


def _when(event: Mapping) -> datetime | None:
    try:
        return datetime.fromisoformat(event.get("timestamp") or "")
    except ValueError:
        return None


def _ms(start: datetime | None, end: datetime | None) -> int | None:
    return None if start is None or end is None else int((end - start).total_seconds() * 1000)


def _stage_ms(events: Iterable[Mapping], stage: str) -> int:
    return sum(ms for e in events if e.get("stage") == stage
               if isinstance(ms := e.get("duration_ms"), (int, float)) and not isinstance(ms, bool))


def task_timeline(events: list[Mapping], statuses: Mapping[str, str]) -> list[dict]:
    """One row per task, in order of first appearance: start, end, wall/build/verify ms, events."""
    by_task: dict[str, list[Mapping]] = {}
    for event in events:
        if event.get("task_id"):
            by_task.setdefault(event["task_id"], []).append(event)
    rows = []
    for task_id, task_events in by_task.items():
        start, end = _when(task_events[0]), _when(task_events[-1])
        rows.append({"task": task_id, "status": statuses.get(task_id, task_events[-1].get("status", "")),
                     "start": (task_events[0].get("timestamp") or "")[11:23],
                     "wall_ms": _ms(start, end), "build_ms": _stage_ms(task_events, "build"),
                     "verify_ms": _stage_ms(task_events, "verify"), "repair_ms": _stage_ms(task_events, "repair"),
                     "events": len(task_events)})
    return rows


def run_stages(events: list[Mapping]) -> list[dict]:
    """Run-level events (no task): time, stage, status, duration, error."""
    return [{"time": (e.get("timestamp") or "")[11:23], "stage": e.get("stage", ""), "status": e.get("status", ""),
             "duration_ms": e.get("duration_ms"), "error": e.get("error") or ""}
            for e in events if not e.get("task_id")]


def total_ms(events: list[Mapping]) -> int | None:
    """Wall time from the first to the last event."""
    return _ms(_when(events[0]), _when(events[-1])) if events else None
