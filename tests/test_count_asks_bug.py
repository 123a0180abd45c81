"""Bug (acct48, a held-out phrasing written for D4 before the fix): "Show how many tasks are in each
status" was reported built over a spec that counts nothing — "how", "many" are function words,
"show" framing, "status" the task's workflow. "how many" / "how much" now needs an element that
counts (counts per status, totals, a per-period summary, the dashboard) or a field right after it
("record how many reps they did" with a reps field): accounting/count_asks.py."""

from __future__ import annotations

import pytest

from harness.offline.spec import parse_request
from served_app import spec_from_toml


@pytest.mark.parametrize("request_text", [
    "Tasks have a title and a status (todo, doing, done). Show how many tasks are in each status.",
    "Users can add expenses with an amount. Users see how much they spent.",
])
def test_how_many_without_a_count_is_not_built_bug(request_text):
    spec = parse_request(request_text)
    last = spec.clauses[-1]
    assert last.status == "not_built" and any(w.startswith("how m") for w in last.unaccounted), last


def test_how_many_of_an_entered_field_is_that_field():
    spec = parse_request("Users log workouts with a date and reps. Users can record how many reps they did.")
    assert spec.clauses[-1].words.get("many", "").startswith("field"), spec.clauses[-1]


def test_how_many_with_counts_per_status_is_built(tmp_path):
    from harness.offline.accounting.account import account_text

    spec = spec_from_toml(tmp_path, '''title = "Tasks"
[[entities]]
name = "task"
workflow = ["todo", "done"]
fields = [{ name = "title", required = true }]
features = ["status_counts"]
''')
    words = account_text("Show how many tasks are in each status.", spec)
    assert not words.unaccounted and words.words["many"].startswith("feature status_counts")
