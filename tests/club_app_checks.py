"""HTTP checks run inside a generated workspace of examples/club_bookings.toml (cwd = workspace):
the validation cases of issue #14 one by one, then a fuzzing pass over every route (malformed
JSON, wrong types, huge strings, unknown ids) that must never answer 5xx. Prints one line per
failed check and exits 1 when any failed; `python club_app_checks.py` from the workspace. With a
spec.json there (the example's AppSpec), the runtime check's round-trip probe runs first, as
tests/test_typed_apps.py's SMOKE_ALL does it."""

from __future__ import annotations

import csv
import io
import json
import os
import sys
import tempfile

os.environ["APP_DB_PATH"] = os.path.join(tempfile.mkdtemp(), "checks.db")
os.environ["APP_PASSWORD_HASH_ITERATIONS"] = "1000"
sys.path.insert(0, os.getcwd())

from fastapi.testclient import TestClient  # noqa: E402

from src.main import app  # noqa: E402

FAILED: list[str] = []


def check(name: str, ok: bool, detail: object = "") -> None:
    if not ok:
        FAILED.append(f"{name}: {detail}")


def main() -> int:
    with TestClient(app) as client:
        if os.path.exists("spec.json"):
            round_trip(client)
        creds = {"username": "checker", "password": "checker-password"}
        client.post("/api/auth/register", json=creds)
        token = client.post("/api/auth/login", json=creds).json()["token"]
        h = {"Authorization": f"Bearer {token}"}
        validation_cases(client, h)
        fuzz(client, h)
    for line in FAILED:
        print(line)
    print(f"{len(FAILED)} failed checks")
    return 1 if FAILED else 0


def post(client, url, body, h):
    return client.post(url, json=body, headers=h)


def validation_cases(client, h) -> None:
    member = {"name": "Ada", "email": "ada@example.com", "phone": "+1 555 0100",
              "website": "https://ada.example.com", "joined_on": "2024-01-02"}
    r = post(client, "/api/members", member, h)
    check("member created", r.status_code == 201, r.text)
    member_id = r.json()["id"]
    for field, bad in (("email", "not-an-email"), ("website", "javascript:alert(1)"),
                       ("joined_on", "not-a-date"), ("phone", "call me"), ("name", "x" * 201)):
        r = post(client, "/api/members", {**member, field: bad}, h)
        check(f"member {field}={bad[:20]!r} is 422", r.status_code == 422, r.status_code)
    r = post(client, "/api/members", {**member, "amount": -3000, "date": "not-a-date"}, h)
    check("unknown fields are 422", r.status_code == 422, r.status_code)
    court = {"name": "Centre", "surface": "clay", "hourly_rate": 20.0, "indoor": False}
    court_id = post(client, "/api/courts", court, h).json()["id"]
    for field, bad in (("hourly_rate", -5), ("surface", "ice"), ("indoor", "maybe")):
        r = post(client, "/api/courts", {**court, field: bad}, h)
        check(f"court {field}={bad!r} is 422", r.status_code == 422, r.status_code)
    booking = {"court_id": court_id, "member": member_id, "date": "2024-03-01",
               "start_time": "09:00", "end_time": "10:00"}
    r = post(client, "/api/bookings", booking, h)
    check("booking created", r.status_code == 201 and r.json()["status"] == "requested", r.text)
    booking_id = r.json()["id"]
    for field, bad in (("start_time", "25:00"), ("member", 2**40), ("end_time", "08:00")):
        r = post(client, "/api/bookings", {**booking, field: bad, "date": "2024-04-01"}, h)
        check(f"booking {field}={bad!r} is 422", r.status_code == 422, r.status_code)
    r = post(client, "/api/bookings", {**booking, "start_time": "09:30", "end_time": "10:30"}, h)
    check("overlapping booking is 409", r.status_code == 409, r.status_code)
    r = post(client, "/api/bookings", {**booking, "start_time": "10:00", "end_time": "11:00"}, h)
    check("adjacent booking is 201", r.status_code == 201, r.text)
    r = client.put(f"/api/bookings/{booking_id}", json={"status": "completed"}, headers=h)
    check("skipping a workflow state is 409", r.status_code == 409, r.status_code)
    for state in ("confirmed", "completed"):
        r = client.put(f"/api/bookings/{booking_id}", json={"status": state}, headers=h)
        check(f"move to {state} is 200", r.status_code == 200 and r.json()["status"] == state, r.text)
    r = client.delete(f"/api/courts/{court_id}", headers=h)
    check("deleting a court with bookings is 409", r.status_code == 409, r.status_code)
    r = client.delete(f"/api/members/{member_id}", headers=h)
    check("deleting a referenced member is 409", r.status_code == 409, r.status_code)
    r = client.get("/api/bookings", params={"q": "zzz-none"}, headers=h)
    check("search with no match is empty", r.status_code == 200 and r.json() == [], r.text)
    r = client.get("/api/courts", params={"surface": "clay"}, headers=h)
    check("filter by enum", [c["id"] for c in r.json()] == [court_id], r.text)
    payment = {"booking": booking_id, "amount": 30.0, "method": "card", "rating": 5}
    check("payment created", post(client, "/api/payments", payment, h).status_code == 201)
    for field, bad in (("amount", -1), ("rating", 6), ("rating", 0), ("method", "gold")):
        r = post(client, "/api/payments", {**payment, field: bad}, h)
        check(f"payment {field}={bad!r} is 422", r.status_code == 422, r.status_code)
    post(client, "/api/payments", {**payment, "amount": 12.5, "method": "cash"}, h)
    totals = client.get("/api/payments/totals", headers=h).json()
    check("totals sum the amounts", totals["sums"]["amount"] == 42.5, totals)
    check("totals per method", totals["groups"]["cash"]["sums"]["amount"] == 12.5, totals)
    dash = client.get("/api/dashboard", headers=h).json()
    check("dashboard shows totals", dash["totals"]["payments"]["sums"]["amount"] == 42.5, dash)
    check("dashboard counts per status", dash["status_counts"]["bookings"]["completed"] == 1, dash)
    r = client.get("/api/bookings/export.csv", headers=h)
    rows = list(csv.DictReader(io.StringIO(r.text)))
    check("CSV export", r.status_code == 200 and len(rows) == 2 and rows[0]["status"] == "completed", r.text)


def round_trip(client) -> None:
    """The runtime check's probe steps (harness.offline.generator.round_trip_steps) with their own
    login, as the harness runs them against the app."""
    from harness.models.spec import AppSpec
    from harness.offline.generator import round_trip_steps
    from harness.offline.generator.probes import resolve

    spec = AppSpec.model_validate_json(open("spec.json", encoding="utf-8").read())
    captured: dict = {}
    for step in round_trip_steps(spec):
        path, body, headers = resolve(step, captured)
        r = client.request(step.method, path, json=body, headers=headers)
        check(f"round trip: {step.name}", r.status_code == step.expect_status, (r.status_code, r.text[:300]))
        if r.status_code != step.expect_status:
            return
        for name, key in step.capture.items():
            captured[name] = r.json()[key]
    check("round trip captured values", bool(captured), captured)


def fuzz(client, h) -> None:
    """Every route of the OpenAPI document with hostile input: never a 5xx."""
    paths = client.get("/openapi.json").json()["paths"]
    hostile_bodies = [b"{not json", b"", b"[]", b"null", json.dumps({"name": "x" * 200_000}).encode(),
                      json.dumps({"amount": "NaN", "date": 12, "member": [1], "court_id": {"a": 1}}).encode(),
                      json.dumps({"status": None, "rating": 10**30}).encode(), b'{"name": "\\ud800"}']
    ids = ["1", "0", "-1", str(2**40), str(10**30), "abc", "%00", "1.5"]
    for template, methods in sorted(paths.items()):
        for method in methods:
            # each distinct URL once: a route without an id would get the same request 8 times
            for url in dict.fromkeys(template.replace("{item_id}", v).replace("{parent_id}", v) for v in ids):
                for body in (hostile_bodies if method in ("post", "put") else [None]):
                    r = client.request(method.upper(), url, content=body,
                                       headers={**h, "Content-Type": "application/json"})
                    check(f"{method.upper()} {url} no 5xx", r.status_code < 500, (r.status_code, body and body[:40]))
            if method == "get":
                for params in ({"q": "x" * 10_000}, {"sort": "nope"}, {"limit": "-1"},
                               {"date_min": "bad"}, {"order": "up"}):
                    r = client.get(template.replace("{item_id}", "1").replace("{parent_id}", "1"),
                                   params=params, headers=h)
                    check(f"GET {template} {params} no 5xx", r.status_code < 500, r.status_code)


if __name__ == "__main__":
    raise SystemExit(main())
