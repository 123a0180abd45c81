"""Ctrl+C and SIGTERM: unwind like an exception so children stop and the run stays resumable.

The first SIGINT raises KeyboardInterrupt and the first SIGTERM raises `Terminated` in the main
thread, so every `with` block and `finally` runs: the sandbox stops the processes it started, the
pipeline saves state.json, the run lock is released. A second signal while that unwinding runs
stops at once (`stop_now`): every process this one started is killed and it exits 130/143 without
a traceback. Before `builder` has set this up (while its modules load) `quit_while_starting`
exits at once: nothing has started yet, so there is nothing to save. After the unwinding the
command line ends with `stop_now` too: background threads (an audit's lane sessions, their queue
servers) never keep the process alive, and no child outlives it.
"""

from __future__ import annotations

import os
import signal
import sys
import threading

EXIT_SIGINT = 130   # 128 + SIGINT
EXIT_SIGTERM = 143  # 128 + SIGTERM


class Terminated(BaseException):
    """SIGTERM arrived (a BaseException, like KeyboardInterrupt, so `except Exception` ignores it)."""


INTERRUPTS = (KeyboardInterrupt, Terminated)
_unwinding = False
_last_signal = 0
REDELIVER_S = 0.05
JOIN_SLICE_S = 0.05   # how often a waiting main thread looks for a signal another thread took


def _raise_once(signum, frame) -> None:
    global _unwinding, _last_signal
    if _unwinding:   # the second signal: stop now, do not interrupt the cleanup with a traceback
        stop_now(EXIT_SIGTERM if signum == signal.SIGTERM else EXIT_SIGINT, again=True)
    _unwinding, _last_signal = True, signum
    raise Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()


def _redeliver_swallowed(unraisable) -> None:
    """sys.unraisablehook: a signal that arrived while a finalizer (`__del__`, a generator's close,
    a weakref callback) ran raised there, and Python swallows exceptions from finalizers — the
    interrupt was lost and the run went on (seen: SIGTERM during BUILD printed a traceback and the
    builder kept building until killed). Send the same signal again a moment later, outside the
    finalizer, so it unwinds the main thread as usual; anything else goes to the default hook."""
    global _unwinding
    if isinstance(unraisable.exc_value, INTERRUPTS) and _last_signal:
        import threading

        _unwinding = False
        timer = threading.Timer(REDELIVER_S, os.kill, (os.getpid(), _last_signal))
        timer.daemon = True
        timer.start()
        return
    sys.__unraisablehook__(unraisable)


def install() -> dict:
    """Make SIGINT/SIGTERM raise in the main thread (call from it); the handlers to restore."""
    global _unwinding
    _unwinding = False
    previous = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    for sig in previous:
        signal.signal(sig, _raise_once)
    sys.unraisablehook = _redeliver_swallowed
    return previous


def restore(previous: dict) -> None:
    for sig, handler in previous.items():
        signal.signal(sig, handler if handler is not None else signal.SIG_DFL)
    sys.unraisablehook = sys.__unraisablehook__


def install_sigterm() -> None:
    """Make SIGTERM raise Terminated in the main thread (kept for callers of the old name)."""
    signal.signal(signal.SIGTERM, _raise_once)


def quit_while_starting(signum, frame) -> None:
    """The handler while `builder` loads its modules: one line, the exit code, nothing else."""
    what = "SIGTERM" if signum == signal.SIGTERM else "Ctrl+C"
    os.write(2, f"builder: interrupted ({what})\n".encode())
    os._exit(128 + signum)


def guard_startup() -> None:
    """Install `quit_while_starting` for SIGINT and SIGTERM (the program's first lines)."""
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, quit_while_starting)


def kill_children() -> list[int]:
    """SIGKILL every process this one started and theirs (a run's servers, test sessions, warm
    workers, audit lanes): after an interrupt nothing waits for them to end on their own."""
    try:
        from harness.sandbox import procs

        return procs.kill_all(lambda: procs.find_leftovers(orphans_since=0))
    except Exception:  # noqa: BLE001 - best effort; the next harness process sweeps what is left
        return []


def stop_now(code: int, *, again: bool = False) -> None:
    """Kill every process this one started (and theirs), flush, and exit `code` at once."""
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, signal.SIG_IGN)
    kill_children()
    if again:
        os.write(2, b"builder: interrupted again: stopped now\n")
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001 - a closed pipe
            pass
    os._exit(code)


def exit_code(exc: BaseException) -> int:
    """143 for SIGTERM, 130 for Ctrl+C."""
    return EXIT_SIGTERM if isinstance(exc, Terminated) else EXIT_SIGINT


def message(exc: BaseException) -> str:
    """One line naming the signal and, when known, the run and how to continue it."""
    what = "SIGTERM" if isinstance(exc, Terminated) else "Ctrl+C"
    run_id = getattr(exc, "run_id", None)
    if not run_id:
        return f"builder: interrupted ({what})"
    return f"builder: interrupted ({what}); run {run_id} is saved: `builder resume {run_id}` continues it"


def join(thread: threading.Thread, timeout: float | None = None) -> None:
    """Wait for `thread` (at most `timeout` seconds when given) and stay interruptible. The kernel
    may hand SIGINT/SIGTERM to any thread; then Python only sets a flag, and a main thread blocked
    in a plain `join()` runs the handler only when the thread ends (Ctrl+C at VERIFY waited for the
    suite started ahead: 2.6-3.7 s under load). Joined in slices, the handler runs within JOIN_SLICE_S."""
    import time

    deadline = None if timeout is None else time.monotonic() + timeout
    while thread.is_alive():
        left = JOIN_SLICE_S if deadline is None else min(JOIN_SLICE_S, deadline - time.monotonic())
        if left <= 0:
            return
        thread.join(left)
