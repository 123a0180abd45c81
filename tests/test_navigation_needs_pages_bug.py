"""Bug (acct48 D5, seen on a real request: "Provide easy navigation & search for customers &
tickets"): "navigation" was accounted as the app's pages while the spec had `pages = false` — the
app serves one index page and the JSON API, nothing to navigate between — so a clause asking for
navigation was reported built. Navigation words (`pages:navigation` of elements_en.txt) are now
realised only by a page per record type."""

from __future__ import annotations

import pytest

from harness.offline.spec import parse_request


@pytest.mark.parametrize("request_text", [
    "Notes have a title and a body. The app has simple navigation between notes.",
    "Customers have a name and a phone. Users can navigate between customers.",
])
def test_navigation_without_record_pages_is_not_built_bug(request_text):
    spec = parse_request(request_text)
    assert not spec.pages or all(p.entity is None for p in spec.pages)
    last = spec.clauses[-1]
    assert last.status == "not_built" and any("navigat" in w for w in last.unaccounted), last


def test_navigation_with_a_page_per_record_is_built():
    spec = parse_request("Notes have a title and a body. Show a page for each note with navigation between notes.")
    assert any(p.entity for p in spec.pages)
    assert [c.status for c in spec.clauses] == ["mapped", "mapped"]
