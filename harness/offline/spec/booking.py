"""Booking words: "book <resource>" links the booking record to what is booked, and "available
<resource>" asks that a slot is booked once (no double booking) and that only free resources are
offered — the first the generator builds, the second it does not (said in the clause's reason).
"""

from __future__ import annotations

from harness.offline.spec import lexicon as lx
from harness.offline.spec.pass_helpers import use, word
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_map, word_set

BOOK_VERBS = word_map("booking.book_verbs")
_VERB_BEFORE = lx.MODALS | word_set("booking.verb_words")
_AVAILABLE = word_set("booking.available")
_REACH = 3


def find_booked_resources(toks: list[Tok], mentions: dict[int, str], p) -> list[tuple[str, str, list[int]]]:
    """(record, resource, token indices) for "book tennis courts" when a booking record exists."""
    out = []
    for i, name in mentions.items():
        for j in range(i - 1, max(-1, i - 1 - _REACH), -1):
            w = word(toks, j)
            if j in mentions or not w or not w[0].isalnum():
                break
            record = BOOK_VERBS.get(w)
            if record and record in p.entities and record != name and word(toks, j - 1) in _VERB_BEFORE:
                out.append((record, name, [j]))
                break
    return out


def find_availability(toks: list[Tok], mentions: dict[int, str], p) -> list[tuple[str, str | None, list[str], int]]:
    """no_double_booking features for "a list of available courts" where a booking record belongs
    to the courts; the listing of only the free ones stays not built (p.blocked)."""
    found = []
    for i, t in enumerate(toks):
        if t.w not in _AVAILABLE or t.role.startswith("field:"):
            continue
        resource = next((mentions[j] for j in (i + 1, i + 2, i - 1) if j in mentions
                         and toks[j].clause == t.clause), None)
        record = next((c for c, parent in p.parents.items() if parent == resource and c in BOOK_VERBS.values()),
                      None)
        if resource is None or record is None:
            continue
        use(t, f"feature:no_double_booking:{record}")
        found.append(("no_double_booking", record, [], t.clause))
        plural = p.plurals.get(resource, resource)
        p.blocked.append((t.clause, f"showing only the {plural} available at a chosen date and time is not "
                                    f"built; a {record} of a taken slot is refused with 409"))
    return found
