"""Stranger trial 2026-12-07i O1: "Allow users to mark habits as completed for the day" was
reported built over one open/done flag on the habit — done once, it stays done, so the habit cannot
be completed today and again tomorrow. The day words of a status asked per day are realised only by
a status on a dated child record (a habit's log); otherwise the clause is not built, naming them."""

from __future__ import annotations

import pytest

from harness.offline.accounting.account import account_text
from harness.offline.spec_file import load_spec_file
from tests.spec_golden import spec_document


@pytest.mark.parametrize("clause, day_words", [
    ("Allow users to mark habits as completed for the day.", ["day"]),
    ("Users tick off today's habits as done.", ["today's"]),
    ("Each day users mark their habits as done.", ["day"]),
])
def test_a_status_asked_per_day_over_one_flag_is_not_built_bug(clause, day_words):
    doc = spec_document(f"Habits have a name and a date. {clause}")
    asked = doc["clauses"][1]
    assert asked["status"] == "not_built" and set(day_words) <= set(asked["unaccounted"])


def test_a_plain_done_status_stays_built():
    doc = spec_document("A todo app. Tasks have a title. Users can mark tasks as done.")
    assert [c["status"] for c in doc["clauses"]] == ["mapped", "mapped", "mapped"]


def test_a_status_on_a_dated_child_record_realises_the_day(tmp_path):
    path = tmp_path / "app.toml"
    path.write_text('[[entities]]\nname = "habit"\nfields = ["name"]\n\n[[entities]]\nname = "check-in"\n'
                    'parent = "habit"\nhas_status = true\nfields = [{ name = "day", kind = "date" }]\n')
    spec = load_spec_file(path)
    words = account_text("Users mark a habit's check-in as done for the day.", spec).words
    assert words.get("day") and words.get("done")
