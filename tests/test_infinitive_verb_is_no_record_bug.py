"""Stranger trial 2026-12-08k B25 (false PASS): "An app to track service records. Service records are
listed newest first." built a record `track` (the verb of "to track") with a name, newest first, and
BUILD COMPLETE — no service record anywhere. A record verb right after "to" is the verb, never a
record type."""

from __future__ import annotations

import pytest

from harness.errors import SpecError
from harness.offline.spec.rules import rule_based_parse


def test_the_verb_after_to_is_no_record_bug():
    with pytest.raises(SpecError):   # nothing else names a record: an honest stop, no "track" record
        rule_based_parse("An app to track service records. Service records are listed newest first.")
    assert rule_based_parse("An app to track books and loans.").entities == ["book", "loan"]


def test_tracks_as_records_stay_records():
    assert "track" in rule_based_parse("Users add tracks to playlists. Each track has a title.").entities
