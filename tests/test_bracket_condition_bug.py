"""Stranger trial req2 r5 (workout journal): "The graph will show them the frequency of their exercise
(based on when their account was made)" gave an `exercise` record with fields `based` and `frequency`,
which the run then reported PASS. A bracket after a record was read as its field list whatever it
opened with; a bracket opening with a word that starts a condition or a clause ("based on",
"depending on", "when", "if", "because", ...) is a sentence about the records, not a field list."""

from __future__ import annotations

import pytest

from harness.offline.spec import parse_request


@pytest.mark.parametrize("request_text", [
    "Users log workouts. The graph will show them the frequency of their exercise "
    "(based on when their account was made).",
    "Users log exercises (based on when their account was made).",
    "Staff track orders (depending on whether the customer paid).",
    "Members borrow books (if they have no fines).",
    "Keep a list of plants (when they were last watered).",
])
def test_a_condition_in_brackets_is_no_field_list_bug(request_text):
    spec = parse_request(request_text)
    names = {f.name for e in spec.data_model for f in e.fields}
    bracket = request_text[request_text.index("(") + 1:request_text.index(")")].split()
    assert not names & {w.strip(".,").lower() for w in bracket} - {"name", "title"}, names
    assert not names & {"based", "frequency", "depending", "whether"}, names


def test_a_field_list_in_brackets_still_gives_fields():
    entity = next(e for e in parse_request("Users log exercises (name, reps).").data_model
                  if e.name == "exercise")
    assert [f.name for f in entity.fields] == ["name", "reps"]
