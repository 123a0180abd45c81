"""What wraps a long `builder new/resume`: live progress, and the bookkeeping of an interrupt."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator

from harness.errors import InputError
from harness.interrupts import INTERRUPTS, Terminated
from harness.progress import Progress
from harness.state.store import RunStore


@contextlib.contextmanager
def run_session(store: RunStore, run_id: str, say: Callable[[str], None], *, quiet: bool,
                stream=None) -> Iterator[Callable[[str], None]]:
    """Yield the `say` to give the pipeline; on Ctrl+C/SIGTERM record it and name the run."""
    stream = stream or sys.stdout
    try:
        if quiet:
            yield say
        else:
            isatty = getattr(stream, "isatty", None)
            with Progress(store.events_path(run_id), stream, live=bool(isatty and isatty()), say=say) as progress:
                yield progress.say
    except INTERRUPTS as exc:
        if _record(store, run_id, exc):
            exc.run_id = run_id
        raise


def _record(store: RunStore, run_id: str, exc: BaseException) -> bool:
    """Append an `interrupted` event to a run that exists; False when there is no such run yet."""
    try:
        state = store.load(run_id)
    except (InputError, Exception):  # no run yet, or unreadable: nothing to record, nothing to name
        return False
    what = "SIGTERM" if isinstance(exc, Terminated) else "SIGINT"
    store.events(state).emit("run", "interrupted", agent="cli", error=f"{what}: resumable with builder resume")
    return True
