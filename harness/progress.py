"""Live progress of `builder new/resume`: which task is in which stage, and for how long.

A watcher thread follows the run's events.log (the pipeline needs no change). On a terminal it
keeps one status line updated (`TASK-002 verify 3.4s`) and clears it around every printed line;
otherwise it prints one plain line each time a task enters a stage.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TextIO

from harness.interrupts import join
from harness.providers import activity as llm_activity

POLL_S = 0.2
_NEXT_STAGE = {("build", "started"): "build", ("build", "completed"): "verify", ("verify", "FAIL"): "repair",
               ("repair", "started"): "repair"}
_DONE = {"COMPLETED", "FAILED", "BLOCKED", "TIMED_OUT", "ESCALATE", "PASS"}


def activity(event: Mapping) -> tuple[str, str] | None:
    """(task, stage) a task event says is under way now; None when the task just finished."""
    task, stage, status = event.get("task_id") or "", event.get("stage", ""), event.get("status", "")
    if not task:
        return None
    if (stage, status) in _NEXT_STAGE:
        return task, _NEXT_STAGE[(stage, status)]
    if status in _DONE:
        return None
    return task, "repair" if stage == "repair" else stage


def format_elapsed(seconds: float) -> str:
    """3.4s, 1m05s."""
    return f"{seconds:.1f}s" if seconds < 60 else f"{int(seconds // 60)}m{int(seconds % 60):02d}s"


class Progress:
    """Context manager around a run's printing: wrap `say` with `progress.say`."""

    def __init__(self, events_path: Path, stream: TextIO, *, live: bool, say: Callable[[str], None],
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.events_path = events_path
        self.stream = stream
        self.live = live
        self._say = say
        self._clock = clock
        self._offset = 0
        self._current: tuple[str, str] | None = None
        self._since = clock()
        self._drawn = False
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="harness-progress", daemon=True)

    def __enter__(self) -> Progress:
        self._offset = self.events_path.stat().st_size if self.events_path.exists() else 0
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        join(self._thread, timeout=2)
        with self._lock:
            self._clear()

    def say(self, line: str) -> None:
        """Print a line of the run's own output without tearing the live line; activity the events
        already record is printed first, so "TASK-002 build …" never follows TASK-002's result."""
        with self._lock:
            self._clear()
            self._take_events()
            self._say(line)
            self._draw()

    def _run(self) -> None:
        while not self._stop.wait(POLL_S):
            self.poll()

    def poll(self) -> None:
        """Read new events, update the current activity, redraw or print."""
        with self._lock:
            self._take_events()
            self._draw()

    def _take_events(self) -> None:
        """Under the lock: follow the events appended since the last read (plain lines when not live)."""
        for event in self._new_events():
            now = activity(event)
            if now == self._current:
                continue
            self._current, self._since = now, self._clock()
            if now is not None and not self.live:
                self._say(f"  {now[0]} {now[1]} …")

    def _new_events(self) -> list[dict]:
        try:
            with self.events_path.open("rb") as fh:
                fh.seek(self._offset)
                data = fh.read()
        except OSError:
            return []
        complete = data[: data.rfind(b"\n") + 1]  # a line still being written waits for the next poll
        self._offset += len(complete)
        events = []
        for line in complete.decode("utf-8", errors="replace").splitlines():
            try:
                events.append(json.loads(line))
            except json.JSONDecodeError:
                continue
        return events

    def _draw(self) -> None:
        model = llm_activity.line(self._clock)   # a streamed answer under way: its progress
        if not self.live or (self._current is None and not model):
            return
        parts = []
        if self._current is not None:
            task, stage = self._current
            parts.append(f"{task} {stage} {format_elapsed(self._clock() - self._since)}")
        if model:
            parts.append(model)
        self.stream.write(f"\r\x1b[K  {' · '.join(parts)}")
        self.stream.flush()
        self._drawn = True

    def _clear(self) -> None:
        if self._drawn:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._drawn = False
