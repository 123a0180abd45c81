"""The constant parts of every generated app: real files under skeleton/, copied verbatim.

`skeleton(path)` is the file's text. A skeleton module may end with a marker line after which
the per-app definitions go (`with_generated`); the part above the marker is never changed.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

ROOT = Path(__file__).parent / "skeleton"
MARKER = "# ---- per-app "


@cache
def skeleton(path: str) -> str:
    """The verbatim text of skeleton file `path` (workspace-relative, e.g. "src/fieldtypes.py")."""
    return (ROOT / path).read_text(encoding="utf-8")


def with_generated(path: str, generated: str) -> str:
    """The skeleton's text up to and including its marker line, then `generated`."""
    text = skeleton(path)
    cut = text.index(MARKER)
    marker_end = text.index("\n", cut) + 1
    return text[:marker_end] + generated.rstrip("\n") + "\n"
