"""The apps of acct48b's fixes, generated, served by real uvicorn and used over HTTP (slow): no
invented record (a purpose's "number of reps"), the managed record's crud requirement says who may,
and "remove a plant from my collection" built.
Every black-box check of each spec passes too."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from harness.acceptance import run_acceptance
from harness.agents.spec_agent import postprocess
from harness.offline.generator import generate_files
from harness.offline.spec import parse_request
from helpers import write_files
from served_app import served

pytestmark = pytest.mark.slow


def _call(method: str, url: str, body: dict | None = None, token: str = "") -> tuple[int, object]:
    headers = {"Content-Type": "application/json"} | ({"Authorization": f"Bearer {token}"} if token else {})
    req = urllib.request.Request(url, data=json.dumps(body).encode() if body is not None else None,
                                 method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=10) as answer:
            text = answer.read()
            return answer.status, json.loads(text) if text else None
    except urllib.error.HTTPError as err:
        return err.code, None


def _serve(request: str, tmp_path):
    spec = postprocess(parse_request(request))
    return spec, served(write_files(generate_files(spec), tmp_path / "app"), tmp_path / "app.db")


def _checks_pass(base: str, spec) -> None:
    checks = run_acceptance(base, spec, [], [])
    assert checks and all(c.ok for c in checks), [(c.name, c.detail) for c in checks if not c.ok]


def test_no_record_from_a_purpose_over_http(tmp_path):
    spec, app = _serve("A workout log. As an athlete, I want to add a set to an exercise so I can log the "
                       "number of reps.", tmp_path)
    with app as base:
        _checks_pass(base, spec)
        assert _call("GET", base + "/api/reps")[0] == 404   # no invented record
        assert _call("GET", base + "/api/workouts")[0] == 200


def test_a_managed_record_is_added_by_its_role_only_over_http(tmp_path):
    spec, app = _serve("A recipe app with login. Recipes have a title. Only admins can add, edit and delete "
                       "recipes.", tmp_path)
    crud = next(r for r in spec.requirements if r.capability == "crud")
    assert crud.text == "The admin role can create, list, view, update and delete recipes"
    with app as base:   # the first account is the admin: these come before the checks' own accounts
        tokens = []
        for user in ("admin1", "member1"):
            assert _call("POST", base + "/api/auth/register", {"username": user, "password": "secret-pass-1"})[0] == 201
            status, body = _call("POST", base + "/api/auth/login", {"username": user, "password": "secret-pass-1"})
            tokens.append(body["token"])
        assert _call("POST", base + "/api/recipes", {"title": "Soup"}, tokens[0])[0] == 201   # the admin
        assert _call("POST", base + "/api/recipes", {"title": "Stew"}, tokens[1])[0] == 403   # a member
    with served(tmp_path / "app", tmp_path / "checks.db") as base:   # the checks make their own first account
        _checks_pass(base, spec)


def test_remove_a_plant_from_my_collection_is_built_over_http(tmp_path):
    spec, app = _serve("A plant tracker. Each plant has a name. As a user, I want to be able to remove a plant "
                       "from my collection.", tmp_path)
    assert [c.status for c in spec.clauses] == ["mapped", "mapped", "mapped"]
    with app as base:
        _checks_pass(base, spec)
        status, plant = _call("POST", base + "/api/plants", {"name": "Fern"})
        assert status == 201
        assert _call("DELETE", base + f"/api/plants/{plant['id']}")[0] == 204
        assert _call("GET", base + f"/api/plants/{plant['id']}")[0] == 404
