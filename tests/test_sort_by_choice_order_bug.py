"""Bug (stranger trial j, F5, a false PASS): "The app manages tickets with a priority (low, medium,
high). Users can sort tickets by priority." built COMPLETE, but `?sort=priority&order=asc` listed
high, low, medium, medium: alphabetical, not the order the request gave. The generated test made
two records (low, medium: alphabetical and declared orders agree) and the black-box check sorted
what it expected by the value's text, so both legs passed the alphabetical app.

Now a sort by a choice (enum) field or by a workflow's status follows the declared order of its
values (ORDER BY CASE … in the generated SQL); the generated test and the black-box check make
records in an order that is neither the declared nor the alphabetical one, and an app that sorts
alphabetically fails both."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from harness.offline.generator import generate_files
from helpers import write_files
from served_app import acceptance_of, served, spec_from_toml

pytestmark = pytest.mark.slow

TICKETS = '''title = "Ticket App"
auth = false
pages = false

[[entities]]
name = "ticket"
fields = [{ name = "priority", kind = "enum", values = ["low", "medium", "high"] }]
features = [{ kind = "sort", fields = ["priority"] }]
'''

ISSUES = '''title = "Issues"
auth = false
pages = false

[[entities]]
name = "issue"
fields = [{ name = "title", required = true }]
workflow = ["open", "in progress", "closed"]
features = [{ kind = "sort", fields = ["status"] }]
'''


def _alphabetical(files: dict[str, str]) -> dict[str, str]:
    """The app as it was: no declared order for its choice columns, so a sort is by the text."""
    lines = files["src/models.py"].splitlines()
    kept = [line for line in lines if not line.strip().startswith("ranks={")]
    assert len(kept) == len(lines) - 1, "the generated table declares its choices' order"
    return {**files, "src/models.py": "\n".join(kept) + "\n"}


def test_tickets_sort_by_priority_in_the_declared_order_bug(tmp_path):
    spec = spec_from_toml(tmp_path, TICKETS)
    ws = write_files(generate_files(spec), tmp_path / "app")
    with served(ws, tmp_path / "app.db") as base:
        for priority in ("medium", "high", "low", "medium"):
            assert httpx.post(f"{base}/api/tickets", json={"priority": priority}).status_code == 201
        for order, want in (("asc", ["low", "medium", "medium", "high"]),
                            ("desc", ["high", "medium", "medium", "low"])):
            got = httpx.get(f"{base}/api/tickets", params={"sort": "priority", "order": order}).json()
            assert [t["priority"] for t in got] == want, order


def test_the_sort_check_fails_an_app_that_sorts_a_choice_alphabetically_bug(tmp_path):
    spec = spec_from_toml(tmp_path, TICKETS)
    files = generate_files(spec)
    good = acceptance_of(tmp_path, spec, files, "good")["sort on tickets"]
    assert good.ok and "declared order low, medium, high" in good.detail, good.detail
    bad = acceptance_of(tmp_path, spec, _alphabetical(files), "alphabetical")["sort on tickets"]
    assert not bad.ok and "?sort=priority&order=asc" in bad.detail, bad.detail


def test_the_status_sort_check_follows_the_workflow_bug(tmp_path):
    spec = spec_from_toml(tmp_path, ISSUES)
    files = generate_files(spec)
    good = acceptance_of(tmp_path, spec, files, "good")["sort on issues"]
    assert good.ok and "declared order open, in progress, closed" in good.detail, good.detail
    bad = acceptance_of(tmp_path, spec, _alphabetical(files), "alphabetical")["sort on issues"]
    assert not bad.ok and "?sort=status" in bad.detail, bad.detail


def test_the_generated_sort_test_fails_an_app_that_sorts_a_choice_alphabetically_bug(tmp_path):
    files = generate_files(spec_from_toml(tmp_path, TICKETS))
    for name, app, code in (("fixed", files, 0), ("alphabetical", _alphabetical(files), 1)):
        ws = write_files(app, tmp_path / name)
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                               "tests/test_api_ticket.py", "-k", "test_sort_orders"],
                              cwd=ws, capture_output=True, text=True, timeout=300)
        assert done.returncode == code, (name, done.stdout[-3000:])
        assert ("1 passed" in done.stdout) if code == 0 else ("== expected" in done.stdout), done.stdout[-3000:]
