"""The model answer under way, for the live progress line: "model answering 12.3s, 1,840 chars".

The HTTP client reports each streamed chunk here (one process, one answer at a time); the
progress watcher (harness/progress.py) reads it when it redraws. A slow local model is visibly
working instead of looking hung.
"""

from __future__ import annotations

import threading
import time

_lock = threading.Lock()
_state: dict = {}


def begin(clock=time.monotonic) -> None:
    with _lock:
        _state.clear()
        _state.update(since=clock(), chars=0)


def progress(chars: int) -> None:
    with _lock:
        if _state:
            _state["chars"] = chars


def end() -> None:
    with _lock:
        _state.clear()


def line(clock=time.monotonic) -> str:
    """The live line's model part, or "" when no answer is under way."""
    with _lock:
        if not _state:
            return ""
        since, chars = _state["since"], _state["chars"]
    seconds = clock() - since
    took = f"{seconds:.1f}s" if seconds < 60 else f"{int(seconds // 60)}m{int(seconds % 60):02d}s"
    return f"model answering {took}, {chars:,} chars" if chars else f"model answering {took} (waiting for the first token)"
