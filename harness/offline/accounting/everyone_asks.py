"""A clause that grants every user something over records ("All users can create, edit and view
customers", "Everyone can see the films") asks, in an app with accounts, that the records are not
private to their creator (#48, trial 2026-12-07 S2). Before, "all" was a function word and "users"
framing, so the clause was reported built while a second user listed [] and got 404 on the first
user's customer.

With login on, the words saying "every user" ("all users", "every member") are realised only when
every record the clause names is `shared`, and "everyone", "anybody" (visitors without an account
too) only when every record it names has public read (`read = "public"`; before, "All posts are
visible to everyone" was credited to shared posts and a visitor got 401, stranger trial h c3) —
and only for reading and adding:
a shared record is still changed and deleted by its creator alone, so with a change verb ("edit",
"update", "delete" …) nothing in the spec realises them. Without login every record is everyone's,
and the words stay what they were. Reads the clause's words and the spec's words only.
"""

from __future__ import annotations

from harness.offline.accounting.clause_records import clause_records
from harness.offline.accounting.elements import SpecWords
from harness.offline.accounting.lexicon import closed, closed_stems, stem

_EVERYONE = closed("everyone")
_ALL = closed("all words")
# Who "all …" may be: the people words of a request (a role is one ranked account, not everyone).
_PEOPLE = closed_stems("everyone people")
_BETWEEN = closed("everyone between")
# Where what every user may do ends ("Everyone can see the films, but only admins edit them").
_BOUNDARY = closed("everyone boundary")
_NOT = closed("not words")
_CHANGE = closed_stems("change verbs")
# "other users can see it", "everyone else": every account but the one that added it (trial j F6)
_OTHER = closed("other words")
_ELSE = closed("else words")
_POINTERS = closed("everyone pointers")
_DENIED = closed("everyone denied")


def _everyone_at(low: list[str], k: int) -> list[int]:
    """The indices of the words at k that say every user ("all users", "all of the members",
    "everyone"), or []."""
    if k and low[k - 1] in _NOT:
        return []
    if low[k] in _EVERYONE:
        return [k, k + 1] if k + 1 < len(low) and low[k + 1] in _ELSE else [k]
    if low[k] not in _ALL and low[k] not in _OTHER:
        return []
    j = k + 1
    while j < len(low) and j - k <= 3 and low[j] in _BETWEEN:
        j += 1
    if j >= len(low) or low[j].endswith(("'", "'s")):
        return []   # "other users' tasks": someone else's records (identity_asks.py)
    return list(range(k, j + 1)) if stem(low[j]) in _PEOPLE else []


def everyone_asks(toks: list[str], labels: list[str | None], sw: SpecWords) -> None:
    """Relabel in place: with login on, "every user" over records that are not all shared (or with
    a change verb) is unaccounted; over shared records it is realised by their sharing."""
    if "auth" not in sw.present:
        return
    low = [t.lower().replace("’", "'") for t in toks]
    records = clause_records(toks, sw)
    if not records and any(w in _POINTERS for w in low):
        records = frozenset(sw.entity_of.values())   # "other users can see it": the record said before
    if not records:
        return   # "All users must log in": no record is granted to anyone
    shared = sw.on_records.get("access:shared", frozenset())
    public = sw.on_records.get("access:public", frozenset())
    for k in range(len(low)):
        said = _everyone_at(low, k)
        if not said:
            continue
        end = next((j for j in range(said[-1] + 1, len(low)) if low[j] in _BOUNDARY), len(low))
        changes = any(stem(w) in _CHANGE for w in low[said[-1] + 1:end])
        if low[said[0]] in _EVERYONE and said[-1] == said[0]:   # "visible to everyone": visitors too, so public read (trial h c3)
            label = None if changes or not records <= public else "public read of " + ", ".join(sorted(records))
        elif low[said[0]] in _OTHER or said[-1] != said[0]:   # other accounts: shared or public read
            if any(w in _DENIED for w in low[said[-1] + 1:end]):
                continue   # "other users cannot see it": a restriction (identity_asks.py), no grant
            label = None if changes or not records <= shared | public else "shared " + ", ".join(sorted(records))
        else:
            label = None if changes or not records <= shared else "shared " + ", ".join(sorted(records))
        for j in said:
            labels[j] = label
