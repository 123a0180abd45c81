"""Terminal habits: colour only on a TTY and never with NO_COLOR (https://no-color.org) or TERM=dumb."""

from __future__ import annotations

import os
from typing import TextIO

_CODES = {"green": "32", "red": "31", "yellow": "33", "blue": "34", "dim": "2", "bold": "1"}
_STATUS_COLOUR = {
    "PASS": "green", "COMPLETED": "green", "verified": "green", "ok": "green", "BUILD COMPLETE": "green",
    "FAIL": "red", "FAILED": "red", "TIMED_OUT": "red", "ESCALATE": "red", "BUILD FAILED": "red", "error": "red",
    "BLOCKED": "yellow", "PENDING": "dim", "RUNNING": "blue", "weak": "yellow", "uncovered": "yellow",
}


def colour_enabled(stream: TextIO, environ: dict | None = None) -> bool:
    """True when `stream` is a terminal and neither NO_COLOR (non-empty) nor TERM=dumb is set."""
    env = os.environ if environ is None else environ
    if env.get("NO_COLOR") or env.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def paint(text: str, colour: str | None, enabled: bool) -> str:
    """`text` wrapped in an ANSI colour when enabled and the colour is known."""
    code = _CODES.get(colour or "")
    return f"\x1b[{code}m{text}\x1b[0m" if enabled and code else text


def status_colour(status: str) -> str | None:
    """The colour for a status word (PASS green, FAIL red, BLOCKED yellow …), None when plain."""
    return _STATUS_COLOUR.get(status.strip())


def paint_status(text: str, status: str, enabled: bool) -> str:
    """`text` (usually the padded status itself) coloured by `status`."""
    return paint(text, status_colour(status), enabled)
