"""A negation ("cannot", like "can't" and "won't") never names a record type.

Stranger trial h (c12): "Users book rooms with a room name, a date, a start time and an end time. A
booking cannot be made for a date in the past." drafted an entity called `cannot` — the app titled
"Rooms and Cannots App" and a requirement "Users can create, list, view, update and delete cannots".
The negative contractions were never nouns; "cannot", written as one word, was not in that list.
"""

from __future__ import annotations

import pytest

from harness.errors import SpecError
from harness.offline.spec import parse_request


def _records(request: str) -> list[str]:
    try:
        spec = parse_request(request)
    except SpecError:
        return []
    return [e.name for e in spec.data_model if getattr(e, "fields", None) is not None]


@pytest.mark.parametrize("request_text", [
    "Users book rooms with a room name, a date, a start time and an end time. A booking cannot be made for a date in the past.",
    "Users add payments with an amount. A refund cannot be larger than its payment.",
    "Members add events with a title and a date. An event cannot start before today.",
])
def test_cannot_names_no_record_bug(request_text):
    records = _records(request_text)
    assert "cannot" not in records
    assert not any("cannot" in name for name in records)


def test_the_records_around_it_are_still_read():
    assert _records("Users book rooms with a room name, a date, a start time and an end time. "
                    "A booking cannot be made for a date in the past.") == ["room"]
