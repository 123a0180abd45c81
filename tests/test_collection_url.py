"""One rule for an entity's collection URL (harness/constructs/collection_url.py), used by the
generator and by the black-box checks alike.

Bug: the generator derived the URL from the entity's Python name, which avoids reserved words, so
"sessions" was served at /api/sessions-item while the black-box checks (and a model's workspace
contract) called /api/sessions: every check of a reading-sessions app failed and the build ended
BUILD FAILED although the app worked."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.acceptance.derive import derive
from harness.acceptance.run import run_acceptance
from harness.constructs.collection_url import collection_slug
from harness.offline.generator import generate_files
from harness.offline.generator.analyse import analyse
from harness.offline.spec_file import load_spec_file
from harness.verification.runtime import verify_runtime
from helpers import write_files

SESSIONS = '''title = "Reading log"
[[entities]]
name = "session"
plural = "sessions"
fields = [{ name = "day", kind = "date", required = true }, { name = "pages read", kind = "integer" }]
[[entities]]
name = "type"
plural = "types"
fields = ["name"]
'''


@pytest.mark.parametrize("plural, slug", [
    ("sessions", "sessions"), ("time entries", "time-entries"), ("Công việc", "cong-viec"),
    ("types", "types"), ("auth", "auth-items"), ("complete", "complete-items"), ("???", "items"),
])
def test_collection_slug(plural, slug):
    assert collection_slug(plural) == slug


def test_the_generator_serves_the_url_the_checks_call(tmp_path):
    path = tmp_path / "app.toml"
    path.write_text(SESSIONS, encoding="utf-8")
    app = analyse(load_spec_file(path))
    assert {e.ident: e.slug for e in app.entities} == {"session_item": "sessions", "type_item": "types"}


def test_two_plurals_that_fold_to_one_segment_get_distinct_urls():
    """The spec language refuses two entities with one plural (their requirements would read the
    same); the generator still never serves two collections at one URL."""
    from types import SimpleNamespace

    from harness.offline.generator.analyse import _collection_slugs

    raw = {"order": SimpleNamespace(plural="orders", name="order"),
           "purchase": SimpleNamespace(plural="Orders", name="purchase")}
    assert _collection_slugs(raw) == {"order": "orders", "purchase": "orders-2"}


@pytest.mark.slow
def test_an_entity_named_sessions_was_served_where_the_checks_did_not_look_bug(tmp_path):
    path = tmp_path / "app.toml"
    path.write_text(SESSIONS, encoding="utf-8")
    spec = load_spec_file(path)
    workspace = write_files(generate_files(spec), tmp_path / "ws")
    result = verify_runtime(workspace, [], startup_timeout_s=60,
                            acceptance=lambda base, trips, **_server: run_acceptance(base, spec, [], trips))
    failed = [(c.requirement, c.name, c.detail) for c in result.acceptance if not c.ok]
    assert result.acceptance and failed == []
    assert len(result.acceptance) == len(derive(spec))
