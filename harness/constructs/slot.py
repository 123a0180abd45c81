"""A record's date/time slot: the [start, end) range a booking occupies (`no_double_booking`).

Which fields make the slot, stated once: the generator (the 409 on an overlapping booking) and the
black-box acceptance checks (what an overlapping and an adjacent booking are) both read it here,
so a date range (start date / end date), a datetime range (starts at / ends at), a time range on
a day (date, start time, end time) and a single slot (a day and a time) mean the same to both.

- Time-of-day and datetime fields come first; without them the date fields are the slot.
- The start is the field whose name has a start word (start, from, check in ...), else the first;
  the end has an end word, else (time fields only) the next one; without an end, or with an end of
  another kind, the slot is the single value `start` (start == end).
- Two records clash when they share `same` (the parent, every reference field and, for a
  time-of-day slot, the day) and their ranges overlap; a single slot clashes on the same start.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

SLOT_KINDS = ("time", "datetime", "date")
_STARTS = {"start", "starts", "from", "begin", "begins", "in", "open", "opens", "arrival", "pickup"}
_ENDS = {"end", "ends", "to", "until", "finish", "out", "close", "closes", "departure", "return"}


@dataclass(frozen=True)
class Slot:
    """The date/time range of a record: [start, end) (start == end: a single slot); `same` are
    the columns two records must share to clash (the booked resource, the day); `kind` is the
    start's field kind; `day` the date column of a time-of-day slot."""

    start: str
    end: str
    same: tuple[str, ...]
    label: str
    kind: str = "time"
    day: str | None = None

    @property
    def single(self) -> bool:
        return self.start == self.end


def find_slot(fields: Sequence[tuple[str, str]], fk: str | None) -> Slot | None:
    """The slot of a record with `fields` ((ident, kind), in spec order; a reference field has the
    kind "reference") under the parent column `fk`; None without a date or time field."""
    times = [(i, k) for i, k in fields if k in ("time", "datetime")]
    dates = [(i, k) for i, k in fields if k == "date"]
    pool = times or dates
    if not pool:
        return None

    def named(cands: list[tuple[str, str]], words: set[str]) -> tuple[str, str] | None:
        return next((c for c in cands if words & set(c[0].split("_"))), None)

    start = named(pool, _STARTS) or pool[0]
    rest = [c for c in pool if c != start]
    end = named(rest, _ENDS) or (rest[0] if rest and times else None) or start
    if end != start and (named([end], _STARTS) or end[1] != start[1]):
        end = start
    day = dates[0][0] if times and dates and start[1] == "time" else None
    same = tuple(x for x in [fk, *(i for i, k in fields if k == "reference"), day] if x)
    return Slot(start=start[0], end=end[0], same=same, label="time slot" if times else "date",
                kind=start[1], day=day)
