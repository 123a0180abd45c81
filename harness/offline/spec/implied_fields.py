"""Fields a competent developer adds without being told: a record of an occurrence needs its time.

"track baby naps" asks for naps; a nap record that cannot say when it started and ended is not
what was asked. The two word lists name record nouns that are occurrences: spans get a start and
an end (datetime), moments get the time they happened. A record that already has a date or time
field of its own (named in the request) gets nothing, and no other noun gets anything.
"""

from __future__ import annotations

from harness.models.spec import EntityField

# Occurrences that last: a start and an end.
SPANS = frozenset("""
nap sleep shift workout meeting visit trip ride flight walk commute stay outage downtime
""".split())
# Occurrences at a moment: when it happened.
MOMENTS = frozenset("""
poop pee diaper feeding meal dose injection symptom incident sighting seizure headache migraine
""".split())
_TIMED_KINDS = frozenset({"date", "time", "datetime"})


def implied_fields(entity: str, fields: list[EntityField]) -> list[EntityField]:
    """The datetime fields `entity` (a singular name) implies, unless `fields` already say when."""
    if any(f.kind in _TIMED_KINDS or f.type in ("date", "datetime") for f in fields):
        return []
    head = entity.rpartition(" ")[2]
    if head in SPANS:
        return [EntityField(name="start time", ident="start_time", type="datetime", required=True,
                            kind="datetime"),
                EntityField(name="end time", ident="end_time", type="datetime", kind="datetime")]
    if head in MOMENTS:
        return [EntityField(name="time", ident="time", type="datetime", required=True, kind="datetime")]
    return []
