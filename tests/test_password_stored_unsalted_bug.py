"""Hostile trial N3: a password stored reversed passed the stored-password check, which looked for
it as sent, in base64 and in hex only — as would any other fixed re-writing (rot13, upper case, an
unsalted SHA-256). Now what the app keeps for a password must be salted: two accounts registered
with one password may share no stored value a third account's (another password) lacks
(harness/acceptance/checks_password_store.py), and the plain forms include reversed and re-cased.
A generated notes app with each transform put in, served by real uvicorn; the generated app
(PBKDF2 with a random salt) passes both checks."""

from __future__ import annotations

import shutil

import pytest
import trial_breaks as breaks
from helpers import write_files
from served_app import served_app, spec_from_toml

from harness.acceptance import run_acceptance
from harness.acceptance.checks_password_store import SALTED, STORED_PASSWORD
from harness.offline.generator import generate_files

TRANSFORMS = {
    "reversed": ("password[::-1]", ""),
    "rot13": ('codecs.encode(password, "rot13")', "import codecs"),
    "upper case": ("password.upper()", ""),
    "unsalted sha256": ('hashlib.sha256(password.encode()).hexdigest()', ""),
    "a salt beside an unsalted digest": ('secrets.token_hex(8) + "$" + hashlib.sha256(password.encode()).hexdigest()', "",
                                         'stored.split("$")[1] == hashlib.sha256(password.encode()).hexdigest()'),
}


@pytest.fixture(scope="module")
def notes(tmp_path_factory):
    base = tmp_path_factory.mktemp("notes")
    spec = spec_from_toml(base, breaks.NOTES_SPEC)
    return spec, write_files(generate_files(spec), base / "generated")


def _stored_checks(notes, tmp_path, kept=None) -> dict:
    spec, generated = notes
    ws = shutil.copytree(generated, tmp_path / "ws")
    if kept is not None:
        breaks.passwords_kept_as(ws, *kept)
    db = tmp_path / "app.db"
    with served_app(ws, db) as app:
        got = run_acceptance(app.base, spec, [], [], only=lambda c: c.name == "register, log in, who am I", db=db)
    return {c.name: c for c in got}


@pytest.mark.slow
def test_the_generated_app_keeps_passwords_salted(notes, tmp_path):
    checks = _stored_checks(notes, tmp_path)
    assert checks["register, log in, who am I"].ok
    assert checks[SALTED].ok and "users" in checks[SALTED].detail, checks[SALTED]
    assert checks[STORED_PASSWORD].ok, checks[STORED_PASSWORD]


@pytest.mark.slow
@pytest.mark.parametrize("transform", sorted(TRANSFORMS))
def test_a_password_kept_by_a_fixed_transform_fails_bug(notes, tmp_path, transform):
    checks = _stored_checks(notes, tmp_path, TRANSFORMS[transform])
    assert checks["register, log in, who am I"].ok      # logging in works: only the file tells
    assert not checks[SALTED].ok and "users.password_hash" in checks[SALTED].detail, checks[SALTED]
    if transform in ("reversed", "upper case"):      # a plain re-writing: the scan names it too
        assert not checks[STORED_PASSWORD].ok and "users.password_hash" in checks[STORED_PASSWORD].detail
