"""Bug (fresh trial 2026-12-07, D1): an enum field named `status` of the user's own (no workflow) with
a filter feature failed the build. The list page's filter offered the status states (open, done)
instead of the field's values, so `/events?status=public` still listed the hidden record, the
generated page test failed, the pages task escalated and src/main.py was never written. Renamed
`visibility`, the same spec built. A `status` enum next to a workflow or `has_status = true` is the
record's status: the app does not take it on create, and the black-box checks no longer send it."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.acceptance.run import workflow_owns_status
from harness.offline.generator import generate_files
from harness.offline.spec_file import load_spec_file
from helpers import run_builder

OWN_STATUS = """title = "Status filter"

[[entities]]
name = "event"
fields = [{ name = "title", required = true }, { name = "status", values = ["public", "hidden"] }]
features = [{ kind = "filter", fields = ["status"] }]
"""

STATUS_STATES = """title = "Status states"

[[entities]]
name = "event"
fields = [{ name = "title", required = true }, { name = "status", values = ["draft", "public", "hidden"] }]
workflow = ["draft", "public", "hidden"]
features = [{ kind = "filter", fields = ["status"] }]

[[entities]]
name = "notice"
fields = [{ name = "title", required = true }, { name = "status", values = ["public", "hidden"] }]
has_status = true
features = [{ kind = "filter", fields = ["status"] }]
"""


def _spec_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "app.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_own_status_enum_page_filter_offers_its_own_values_not_the_status_states_bug(tmp_path):
    pages = generate_files(load_spec_file(_spec_file(tmp_path, OWN_STATUS)))["src/pages.py"]
    assert "PageFilter('status', 'status', 'enum', options=('public', 'hidden'))" in pages
    assert "options=('open', 'done')" not in pages


def test_black_box_checks_do_not_send_a_status_field_the_workflow_owns_bug(tmp_path):
    spec = workflow_owns_status(load_spec_file(_spec_file(tmp_path, STATUS_STATES)))
    event, notice = spec.entity("event"), spec.entity("notice")
    assert [f.ident for f in event.fields] == ["title"] and event.workflow == ["draft", "public", "hidden"]
    assert [f.ident for f in notice.fields] == ["title"] and notice.workflow == ["public", "hidden"]
    assert notice.transitions == {"public": ["hidden"], "hidden": ["public"]} and not notice.has_status
    own = load_spec_file(_spec_file(tmp_path, OWN_STATUS))
    assert workflow_owns_status(own) == own   # without a workflow the field is the user's own


@pytest.mark.slow
def test_status_enum_filter_without_workflow_builds_complete_bug(tmp_path):
    done = run_builder("new", "--spec", _spec_file(tmp_path, OWN_STATUS), "--runs-dir", tmp_path / "runs",
                       "--run-id", "own-status", "--no-audit", timeout=600)
    assert done.returncode == 0 and "BUILD COMPLETE" in done.stdout, done.stdout[-3000:] + done.stderr[-2000:]
    assert (tmp_path / "runs" / "own-status" / "workspace" / "src" / "main.py").is_file()


@pytest.mark.slow
def test_status_enum_with_workflow_or_has_status_and_a_filter_builds_complete_bug(tmp_path):
    done = run_builder("new", "--spec", _spec_file(tmp_path, STATUS_STATES), "--runs-dir", tmp_path / "runs",
                       "--run-id", "status-states", "--no-audit", timeout=600)
    assert done.returncode == 0 and "BUILD COMPLETE" in done.stdout, done.stdout[-3000:] + done.stderr[-2000:]
    assert "acceptance check failed" not in done.stdout
