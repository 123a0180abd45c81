"""#47, hostile trial 2026-12-07: breaks no black-box check looked at (a logout that ends nothing,
plain-text or prefix-only passwords, pages and page forms that ignore whose record it is, a start
that wipes the database). Each is put into a generated notes app served by real uvicorn; the
harness's spec-derived check named for it FAILs, and the same check PASSes on the generated app."""

from __future__ import annotations

import shutil

import pytest
import trial_breaks as breaks
from helpers import write_files
from served_app import served_app, spec_from_toml

from harness.acceptance import run_acceptance
from harness.offline.generator import generate_files

LOGOUT = "log out ends the session"
NEAR = "a password near the right one is refused"
STORED = "a password is not stored in plain text"
PAGES = "another account's pages do not show a note"
FORMS = "another account's page forms cannot change or delete a note"
RESTART = "a note created before a restart is read back after it"


@pytest.fixture(scope="module")
def notes(tmp_path_factory):
    """(spec, generated workspace) of a notes app with accounts and pages; tests break copies."""
    base = tmp_path_factory.mktemp("notes")
    spec = spec_from_toml(base, breaks.NOTES_SPEC)
    return spec, write_files(generate_files(spec), base / "generated")


def _checks(notes, tmp_path, names: set[str], brk=None) -> dict:
    """The named checks (the stored-password scan and the restart come after them when named) of
    the generated app, or of a copy with `brk` put in."""
    spec, generated = notes
    ws = shutil.copytree(generated, tmp_path / "ws")
    if brk is not None:
        brk(ws)
    db = tmp_path / "app.db"
    with served_app(ws, db) as app:
        got = run_acceptance(app.base, spec, [], [], only=lambda c: c.name in names,
                             db=db if STORED in names else None,
                             restart=app.restart if RESTART in names else None)
    out = {c.name: c for c in got}
    assert set(out) >= names, sorted(out)
    return out


def _failed(checks: dict, name: str, requirement: str = "REQ-001") -> str:
    check = checks[name]
    assert not check.ok and check.requirement == requirement, check
    return check.detail


@pytest.mark.parametrize("brk", [breaks.logout_ends_nothing, breaks.page_logout_ends_nothing])
def test_a_logout_that_ends_nothing_fails_the_logout_check_bug(notes, tmp_path, brk):
    detail = _failed(_checks(notes, tmp_path, {LOGOUT}, brk), LOGOUT)
    assert ("the logged-out token" in detail) if brk is breaks.logout_ends_nothing else ("old session cookie" in detail)


def test_a_password_checked_by_its_casefolded_prefix_fails_the_near_miss_check_bug(notes, tmp_path):
    detail = _failed(_checks(notes, tmp_path, {NEAR}, breaks.password_prefix_casefolded), NEAR)
    assert "logged in" in detail


def test_a_password_stored_in_plain_text_fails_the_stored_password_check_bug(notes, tmp_path):
    checks = _checks(notes, tmp_path, {"register, log in, who am I", STORED}, breaks.plain_text_passwords)
    assert checks["register, log in, who am I"].ok            # logging in still works: only the file tells
    assert "users.password_hash" in _failed(checks, STORED)


def test_pages_listing_every_users_records_fail_the_page_isolation_check_bug(notes, tmp_path):
    detail = _failed(_checks(notes, tmp_path, {PAGES}, breaks.pages_show_every_users_records), PAGES)
    assert "another account's page / shows" in detail


def test_a_page_form_deleting_by_id_only_fails_the_form_isolation_check_bug(notes, tmp_path):
    detail = _failed(_checks(notes, tmp_path, {FORMS}, breaks.form_delete_by_id_only), FORMS)
    assert "is gone" in detail


def test_a_start_that_wipes_the_database_fails_the_restart_check_bug(notes, tmp_path):
    detail = _failed(_checks(notes, tmp_path, {RESTART}, breaks.restart_wipes_the_database), RESTART, "REQ-002")
    assert "after a restart" in detail


def test_the_generated_app_passes_every_one_of_these_checks(notes, tmp_path):
    checks = _checks(notes, tmp_path, {LOGOUT, NEAR, STORED, PAGES, FORMS, RESTART})
    assert [(c.name, c.detail) for c in checks.values() if not c.ok] == []
    assert {c.requirement for c in checks.values() if c.name in (LOGOUT, NEAR, STORED, PAGES, FORMS)} == {"REQ-001"}
