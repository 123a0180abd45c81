"""An entity's collection URL, /api/<slug>: what the generator serves and what the black-box checks
(harness/acceptance/client.py) and a model's workspace contract (harness/acceptance/convention.py)
call. One rule for all three: the spec's plural, folded to ASCII, its words in lower case joined by
"-" ("time entries" -> time-entries, "công việc" -> cong-viec). A slug the app serves itself under
/api ("auth", "dashboard", "health"), the item action's name ("complete") or nothing at all gets
"-items" / "items" instead. Before, the generator derived the URL from the entity's Python name,
which avoids Python's reserved words: "sessions" was served at /api/sessions-item while the checks
called /api/sessions, and every check of such an app failed."""

from __future__ import annotations

import re

from harness.utils.idents import ascii_fold

TAKEN = frozenset({"auth", "dashboard", "health", "complete"})


def collection_slug(plural: str) -> str:
    """The URL segment of the collection named `plural`."""
    slug = "-".join(re.findall(r"[a-z0-9]+", ascii_fold(plural or "").lower()))
    if not slug:
        return "items"
    return f"{slug}-items" if slug in TAKEN else slug
