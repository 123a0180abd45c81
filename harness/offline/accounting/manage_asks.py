"""What a clause lets its actor do to a record only one role manages (stranger trial 2026-12-07e F3).

"A recipe app. Users can add recipes. Only admins can delete recipes." gave recipes `manage =
"admin"` — only an admin adds, changes, deletes (and, unless shared, sees) them — and ended BUILD
COMPLETE: "add" was credited to the recipes' crud although a member's POST is a 403. A record verb
(a `crud` word of elements_en.txt) said of a record one role manages is realised only when the
clause's actor — its words before the first modal ("Users can …", "Only admins can …") — is that
role; a seeing verb also when the record is shared. A clause without an actor ("Add recipes") is
read as before.
"""

from __future__ import annotations

from harness.offline.accounting.lexicon import stem

_MODALS = frozenset({"can", "could", "should", "must", "may", "will", "shall"})
_SEEING = frozenset(stem(w) for w in ("view", "views", "list", "lists", "see", "browse", "read", "show", "find"))


def manage_asks(toks: list[str], labels: list[str | None], sw) -> None:
    """Unaccount the record verbs a non-managing actor is said to do (in place)."""
    if not sw.managed:
        return
    low = [t.lower() for t in toks]
    modal = next((i for i, w in enumerate(low) if w in _MODALS), None)
    if not modal:
        return
    actor = {stem(w) for w in low[:modal]}
    named = [lab.split(" ", 1)[1] for lab in labels if lab and lab.startswith("entity ")]
    for name in named:
        role, shared = sw.managed.get(name, (None, False))
        if role is None or stem(role) in actor:
            continue
        for i in range(modal + 1, len(low)):
            if (labels[i] or "").startswith("crud") and not (shared and stem(low[i]) in _SEEING):
                labels[i] = None
