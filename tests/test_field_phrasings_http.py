"""The field phrasings of test_field_list_phrasings.py end as typed, validated columns (#14): a request
is parsed by the offline rules, the offline generator writes the app, and real uvicorn serves it
(the runtime verifier); every step checks an HTTP status, a bad value of each new kind is a 422."""

from __future__ import annotations

import pytest

from harness.offline.generator import generate_files
from harness.offline.generator.probes import ProbeStep
from harness.offline.spec import parse_request
from harness.validation.spec_validator import validate_spec
from harness.verification.runtime import verify_runtime
from helpers import write_files
from test_field_list_phrasings import VI_ROOMS

RECIPES = ("An app to manage recipes. Display a recipe card containing the title, number of people it serves, "
           "the cooking time, its difficulty level (easy, medium, hard), the list of ingredients (including "
           "their amounts), and the preparation steps. Users can see a photo showing what the dish looks like.")
RECIPE = {"title": "Pho", "number_of_people_it_serves": 4, "cooking_time": 90, "difficulty_level": "hard",
          "preparation_steps": "Simmer the broth.\nAdd the noodles.", "photo": "https://example.com/pho.jpg"}


def _serve(request: str, steps: list[ProbeStep], tmp_path):
    spec = parse_request(request)
    assert validate_spec(spec, request) == []
    workspace = write_files(generate_files(spec), tmp_path / "ws")
    result = verify_runtime(workspace, steps, startup_timeout_s=60)
    assert result.status == "PASS", [c for c in result.checks if not c.ok]
    return "\n".join(result.evidence)


def _bad(name: str, path: str, body: dict) -> ProbeStep:
    return ProbeStep(name, "POST", path, body, 422, {}, False)


@pytest.mark.slow
def test_recipe_card_phrasings_are_typed_columns_that_refuse_bad_values(tmp_path):
    evidence = _serve(RECIPES, [
        ProbeStep("create", "POST", "/api/recipes", dict(RECIPE), 201, {"recipe_id": "id"}, False),
        ProbeStep("read back", "GET", "/api/recipes/{recipe_id}", None, 200,
                  {"serves": "number_of_people_it_serves", "photo": "photo"}, False),
        _bad("photo is no url", "/api/recipes", {**RECIPE, "photo": "not a url"}),
        _bad("negative count of people", "/api/recipes", {**RECIPE, "number_of_people_it_serves": -1}),
        _bad("cooking time is minutes, not a clock", "/api/recipes", {**RECIPE, "cooking_time": "09:30"}),
        _bad("difficulty outside its levels", "/api/recipes", {**RECIPE, "difficulty_level": "expert"}),
        ProbeStep("ingredient with its amount", "POST", "/api/ingredients",
                  {"amount": 2.5, "recipe_id": "{recipe_id}"}, 201, {}, False),
    ], tmp_path)
    assert '"number_of_people_it_serves":4,"cooking_time":90,"difficulty_level":"hard"' in evidence


@pytest.mark.slow
def test_vietnamese_rooms_keep_their_status_words_and_a_room_number_refers_to_a_room(tmp_path):
    room = {"room_number": "101", "room_type": "đôi", "capacity": 2}   # a new room starts in the first state
    evidence = _serve(VI_ROOMS, [
        ProbeStep("create room", "POST", "/api/rooms", dict(room), 201, {"room_id": "id"}, False),
        ProbeStep("rented", "PUT", "/api/rooms/{room_id}", {"status": "đã thuê"}, 200, {}, False),
        ProbeStep("vacant again", "PUT", "/api/rooms/{room_id}", {"status": "còn trống"}, 200,
                  {"status": "status"}, False),
        ProbeStep("status outside its words", "PUT", "/api/rooms/{room_id}", {"status": "vacant"}, 422, {}, False),
        _bad("negative capacity", "/api/rooms", {**room, "capacity": -2}),
        ProbeStep("student in the room", "POST", "/api/students",
                  {"name": "Lan", "birth_date": "2004-05-06", "room_number": "{room_id}"}, 201, {}, False),
        _bad("room that does not exist", "/api/students", {"name": "Minh", "room_number": 999999}),
        _bad("malformed birth date", "/api/students", {"name": "Minh", "birth_date": "06/05/2004"}),
    ], tmp_path)
    assert "does not exist" in evidence
