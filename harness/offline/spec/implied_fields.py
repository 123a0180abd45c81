"""Fields a competent developer adds without being told: a record of an occurrence needs its time,
a record of money its amount.

"track baby naps" asks for naps; a nap record that cannot say when it started and ended is not
what was asked. The two word lists name record nouns that are occurrences: spans get a start and
an end (datetime), moments get the time they happened. A record that already has a date or time
field of its own (named in the request) gets nothing, and neither does one whose fields the request lists: "Each
visit has a doctor and a note" says what a visit has, and a required start time nobody asked for
refused a POST with only the asked fields (trial 2026-12-07, I1). Likewise "keep track of their transactions"
in a budget app: a transaction, expense or payment without an amount records no money, so it gets
a required amount unless the request named a money field for it — or described what it holds:
"Payments have a date, a payer and a note" is what a payment has, and an invented required amount
refused the user's own POST (acct48, defect 6). A date ("daily expenses"), a choice ("transactions
(income/expense)") or a filter column ("filter expenses by category") describes no content: those
records still get their amount. An attendance record gets its date
and a yes/no `present` unless the request named them. No other noun gets anything.
"""

from __future__ import annotations

from harness.models.spec import EntityField
from harness.offline.spec.wordsets import word_sets

WORDS = word_sets("implied_fields")



def implied_fields(entity: str, fields: list[EntityField], stated: bool = False,
                   listed: bool = False, described: bool = False) -> list[EntityField]:
    """The fields `entity` (a singular name) implies: an amount for a money record without a money
    field unless the request describes what the record holds (`described`: a field of its own that
    is no date, choice, reference or filter column), datetimes for an occurrence unless `fields` already say when or the request lists its
    fields (`listed`); for an attendance its date
    and whether the person was present, unless `fields` or its states (`stated`) say so."""
    head = entity.rpartition(" ")[2]
    if head in WORDS.money_records and not described and not any(f.kind == "money" for f in fields):
        return [EntityField(name="amount", ident="amount", type="float", required=True, kind="money")]
    if head in WORDS.presence_records:   # "take attendance": who was there on which day
        dated = any(f.kind in WORDS.timed_kinds or f.type in ("date", "datetime") for f in fields)
        marked = stated or any(f.type == "bool" or f.kind == "enum" for f in fields)
        return ([] if dated else [EntityField(name="date", ident="date", type="date", required=True, kind="date")]) \
            + ([] if marked else [EntityField(name="present", ident="present", type="bool", kind="boolean")])
    if listed or any(f.kind in WORDS.timed_kinds or f.type in ("date", "datetime") for f in fields):
        return []
    if head in WORDS.spans:
        return [EntityField(name="start time", ident="start_time", type="datetime", required=True,
                            kind="datetime"),
                EntityField(name="end time", ident="end_time", type="datetime", kind="datetime")]
    if head in WORDS.moments:
        return [EntityField(name="time", ident="time", type="datetime", required=True, kind="datetime")]
    return []
