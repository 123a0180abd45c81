"""Bug (stranger trial 2026-12-07i O3; false PASS d4, e10; hollow PASS c15, f3, h3): "Users can view
the list of attendees for each event", "Users can create a list of ingredients", "An order has many
items", "Each playlist has many songs" built a child record with no field at all — BUILD COMPLETE,
while POST /api/attendees {event_id, name} was 422 "name: Extra inputs are not permitted": the list of
attendees could not say who attends.

A child record the request gives no fields now gets the name its noun implies ("name", or "title" for
a song, lesson …; harness/offline/spec/display_name.py), unless it is an instance of its parent ("Each
book has copies") or a record told apart by its links (words/word_classes.toml `instance_nouns`,
`unnamed_nouns`)."""

from __future__ import annotations


import pytest

from harness.offline.spec import parse_request

ATTENDEES = ("Users can create and manage events. An event has a title, date, time, location and description. "
             "Users can view the list of attendees for each event.")


@pytest.mark.parametrize("request_text, child, parent, field", [
    (ATTENDEES, "attendee", "event", "name"),
    ("Users sign up with a password and log in to their account. Users can create a list of ingredients. "
     "Users can create recipes with a name, description and instructions. Users can view and delete their own recipes.",
     "ingredient", "recipe", "name"),
    ("An order has many items.", "item", "order", "name"),
    ("Each event has many attendees.", "attendee", "event", "name"),
    ("Each playlist has many songs.", "song", "playlist", "title"),
])
def test_a_child_record_the_request_lists_holds_its_name_bug(request_text, child, parent, field):
    spec = parse_request(request_text)
    entity = spec.entity(child)
    assert entity.parent == parent
    assert [(f.ident, f.required) for f in entity.fields] == [(field, True)], entity.fields


@pytest.mark.slow
def test_the_list_of_attendees_says_who_attends_over_http(tmp_path):
    from helpers import write_files
    from served_app import json_call as _call, served

    from harness.agents.spec_agent import postprocess
    from harness.offline.generator import generate_files

    spec = postprocess(parse_request(ATTENDEES))
    ws = write_files(generate_files(spec), tmp_path / "ws")
    with served(ws, tmp_path / "app.db") as base:
        status, event = _call(base, "POST", "/api/events", {"title": "Launch"})
        assert status == 201
        assert _call(base, "POST", "/api/attendees", {"event_id": event["id"], "name": "Brant Faulkner"})[0] == 201
        assert _call(base, "POST", "/api/attendees", {"event_id": event["id"]})[0] == 422
        status, listed = _call(base, "GET", f"/api/events/{event['id']}/attendees")
        assert status == 200 and [a["name"] for a in listed] == ["Brant Faulkner"]
