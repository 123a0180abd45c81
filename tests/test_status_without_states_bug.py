"""Bug (acct48 D2; stranger trial 2026-12-07e F2/M1): "A plant tracker. As a user, I want to be able
to update the status of my plant." ended BUILD COMPLETE with "Users can mark a plant as done" PASS —
the open/done states were invented, and when another clause named the plant's states (growing,
dying …) the app refused them while the clause was reported built. A status the request names no
states for is a guess: its words are unaccounted (`not built: "status"`), and the user writes the
states in the draft. A status whose states are said ("mark them complete", "(open, closed)") is
built as before."""

from __future__ import annotations

import pytest

from harness.offline.spec import parse_request


@pytest.mark.parametrize("request_text", [
    "A plant tracker. As a user, I want to be able to update the status of my plant.",
    "Users can create tickets with a title and a status.",
    "Each order has a customer name and a status.",
])
def test_a_status_without_states_is_not_built_bug(request_text):
    spec = parse_request(request_text)
    asked = [c for c in spec.clauses if "status" in c.text]
    assert asked and all(c.status == "not_built" and "status" in c.unaccounted for c in asked), spec.clauses


@pytest.mark.parametrize("request_text", [
    "Users add tasks and mark them complete. Tasks have a status.",
    "Tasks have a title and a status (open, closed).",
])
def test_a_status_with_states_said_is_built(request_text):
    spec = parse_request(request_text)
    assert all(c.status == "mapped" for c in spec.clauses), [(c.text, c.reason) for c in spec.clauses]
