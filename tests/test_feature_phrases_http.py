"""The features the parser now reads from other words, checked over HTTP on the app the offline
generator builds from the parsed request (real uvicorn via the runtime verifier): "book courts" +
"available courts" -> a booking belongs to its court and a taken slot is refused (409); "its bookings"
-> listed per court; "a dashboard overview of expenses" -> totals of their amounts; every page has
the viewport tag and the stylesheet's small-screen rule."""

from __future__ import annotations

import pytest

from harness.offline.generator import generate_files
from harness.offline.generator.probes import ProbeStep
from harness.offline.spec.rules import rule_based_spec
from harness.verification.runtime import verify_runtime
from helpers import write_files

COURTS = ("Users can book tennis courts. Each court has a name and an address. "
          "A booking has a date and a time.\n- A list of available courts\n"
          "- On click a court, go to its page, where its bookings are listed\n- Some basic styling")
EXPENSES = "Track expenses with an amount and a date.\n- A dashboard shows an overview of expenses"


@pytest.mark.slow
def test_available_courts_refuse_a_taken_slot_and_list_bookings_per_court_over_http(tmp_path):
    workspace = write_files(generate_files(rule_based_spec(COURTS)), tmp_path / "ws")
    slot = {"date": "2026-12-02", "time": "10:00", "court_id": "{court_id}"}   # a booking: its court, date and time
    steps = [
        ProbeStep("court", "POST", "/api/courts", {"name": "Court 1", "address": "1 High St"}, 201,
                  {"court_id": "id"}, False),
        ProbeStep("other court", "POST", "/api/courts", {"name": "Court 2", "address": "2 High St"}, 201,
                  {"other_id": "id"}, False),
        ProbeStep("book a slot", "POST", "/api/bookings", dict(slot), 201, {}, False),
        ProbeStep("same slot again", "POST", "/api/bookings", dict(slot), 409, {}, False),
        ProbeStep("same slot, other court", "POST", "/api/bookings", {**slot, "court_id": "{other_id}"}, 201,
                  {}, False),
        ProbeStep("other time", "POST", "/api/bookings", {**slot, "time": "11:00"}, 201, {}, False),
        ProbeStep("unknown court", "POST", "/api/bookings", {**slot, "court_id": 999}, 404, {}, False),
        ProbeStep("per court", "GET", "/api/courts/{court_id}/bookings", None, 200, {}, False),
        ProbeStep("stylesheet", "GET", "/style.css", None, 200, {}, False),
        ProbeStep("page", "GET", "/", None, 200, {}, False),
    ]
    result = verify_runtime(workspace, steps, startup_timeout_s=60)
    assert result.status == "PASS", [c for c in result.checks if not c.ok]
    evidence = "\n".join(result.evidence)
    assert "409" in evidence
    assert "@media (max-width" in generate_files(rule_based_spec(COURTS))["src/ui.py"]


@pytest.mark.slow
def test_dashboard_overview_of_expenses_sums_their_amounts_over_http(tmp_path):
    workspace = write_files(generate_files(rule_based_spec(EXPENSES)), tmp_path / "ws")
    steps = [
        ProbeStep("one", "POST", "/api/expenses", {"amount": 700.5, "date": "2026-12-01"}, 201,
                  {}, False),
        ProbeStep("two", "POST", "/api/expenses", {"amount": 99.5, "date": "2026-12-01"}, 201,
                  {}, False),
        ProbeStep("totals", "GET", "/api/expenses/totals", None, 200, {"sums": "sums"}, False),
    ]
    result = verify_runtime(workspace, steps, startup_timeout_s=60)
    assert result.status == "PASS", [c for c in result.checks if not c.ok]
    assert '"sums":{"amount":800.0}' in "\n".join(result.evidence)
