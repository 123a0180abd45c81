"""Bug (acct48 D4): a spec with `dashboard = false` and `status_counts` / `aggregate` on a record
had the requirements "The dashboard counts tickets per status" (proven by "GET /api/dashboard
returns tickets counts per status") and "The dashboard shows totals of …": there was no dashboard;
what is built is GET /api/<plural>/counts and /totals. A requirement's text now says what is built:
the feature's own route, dashboard or not (a dashboard, when there is one, has its own requirement)."""

from __future__ import annotations

from harness.offline.spec import parse_request
from served_app import spec_from_toml

SPEC = '''title = "Helpdesk"
pages = false

[[entities]]
name = "ticket"
workflow = ["open", "closed"]
fields = [{ name = "subject", required = true }, { name = "hours", kind = "decimal" }]
features = ["status_counts", "aggregate"]
'''


def _feature_reqs(spec):
    return [r for r in spec.requirements if r.capability == "feature"]


def test_counts_and_totals_without_a_dashboard_name_no_dashboard_bug(tmp_path):
    spec = spec_from_toml(tmp_path, SPEC)
    reqs = _feature_reqs(spec)
    assert len(reqs) == 2
    assert not any("dashboard" in f"{r.text} {r.acceptance}".lower() for r in reqs), reqs
    assert any("GET /api/tickets/counts" in r.acceptance and "per status" in r.text for r in reqs)
    assert any("GET /api/tickets/totals" in r.acceptance and "totals" in r.text for r in reqs)


def test_offline_totals_name_the_route_built_bug():
    spec = parse_request("Users can add expenses with an amount. Show the total of expenses.")
    totals = [r for r in _feature_reqs(spec) if "total" in r.text.lower()]
    assert totals and all("/api/expenses/totals" in r.acceptance and "dashboard" not in r.text.lower()
                          for r in totals)
