"""Ctrl+C and SIGTERM: unwind like an exception so children stop and the run stays resumable.

SIGTERM is turned into `Terminated` (raised once; later SIGTERMs are ignored while we clean up),
so every `with` block and `finally` runs exactly as for Ctrl+C's KeyboardInterrupt: the sandbox
stops the processes it started, the pipeline saves state.json, the run lock is released.
"""

from __future__ import annotations

import signal

EXIT_SIGINT = 130   # 128 + SIGINT
EXIT_SIGTERM = 143  # 128 + SIGTERM


class Terminated(BaseException):
    """SIGTERM arrived (a BaseException, like KeyboardInterrupt, so `except Exception` ignores it)."""


INTERRUPTS = (KeyboardInterrupt, Terminated)


def _raise_terminated(signum, frame) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # one unwinding at a time
    raise Terminated()


def install_sigterm() -> None:
    """Make SIGTERM raise Terminated in the main thread."""
    signal.signal(signal.SIGTERM, _raise_terminated)


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
