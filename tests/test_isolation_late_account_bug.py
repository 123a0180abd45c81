"""Hostile trial N1: an app that showed every account's notes to any account registered after the
5th passed, because the isolation checks only ever used the 2nd or 3rd account. Now they also look
through an account registered after a number of others drawn per run from the system's random
source (2..12, `harness/acceptance/client.py` CROWD; Api.late_account), and say how many the
checks registered. A generated notes app with that break, served by real uvicorn: caught whenever
the late account is the 6th or later; the generated app passes with the most accounts."""

from __future__ import annotations

import re
import shutil
from collections import Counter
from pathlib import Path

import pytest
import trial_breaks as breaks
from helpers import write_files
from served_app import served_app, spec_from_toml

from harness.acceptance import run_acceptance
from harness.acceptance.client import CROWD, draw_crowd
from harness.offline.generator import generate_files

ISOLATED = "another account cannot see or change a note"
PAGES = "another account's pages do not show a note"


def later_accounts_see_everything(ws: Path) -> None:
    """Accounts after the 5th list every account's notes, over the API and on the pages."""
    breaks.swap(ws / "src" / "api_note.py", '    return TABLE.rows(db, user["id"], limit, offset)\n',
                '    if user["id"] > 5:\n'
                '        return [dict(r) for r in db.execute(TABLE.select_sql + " LIMIT 500")]\n'
                '    return TABLE.rows(db, user["id"], limit, offset)\n')
    breaks.swap(ws / "src" / "pages.py", "else table.rows(db, owner_id, 500, 0))",
                'else [dict(r) for r in db.execute(table.select_sql + " LIMIT 500")] if owner_id > 5 '
                "else table.rows(db, owner_id, 500, 0))")


@pytest.fixture(scope="module")
def notes(tmp_path_factory):
    base = tmp_path_factory.mktemp("notes")
    spec = spec_from_toml(base, breaks.NOTES_SPEC)
    return spec, write_files(generate_files(spec), base / "generated")


def _isolation(notes, tmp_path, brk=None, crowd=None) -> dict:
    spec, generated = notes
    ws = shutil.copytree(generated, tmp_path / "ws")
    if brk is not None:
        brk(ws)
    with served_app(ws, tmp_path / "app.db") as app:
        got = run_acceptance(app.base, spec, [], [], only=lambda c: c.name in (ISOLATED, PAGES), crowd=crowd)
    return {c.name: c for c in got}


@pytest.mark.slow
def test_the_generated_app_keeps_the_latest_account_out(notes, tmp_path):
    checks = _isolation(notes, tmp_path, crowd=CROWD[1])
    assert checks[ISOLATED].ok and f"of the {CROWD[1] + 1} accounts" in checks[ISOLATED].detail, checks[ISOLATED]
    assert checks[PAGES].ok, checks[PAGES]


@pytest.mark.slow
def test_isolation_broken_from_the_sixth_account_fails_bug(notes, tmp_path):
    checks = _isolation(notes, tmp_path / "sixth", later_accounts_see_everything, crowd=5)
    assert not checks[ISOLATED].ok and "the 6th account" in checks[ISOLATED].detail, checks[ISOLATED]
    assert not checks[PAGES].ok and "account 6 of 6 the checks registered" in checks[PAGES].detail, checks[PAGES]


@pytest.mark.slow
def test_the_drawn_number_of_accounts_decides_and_is_named_bug(notes, tmp_path):
    """The run's own draw: the check's line says how many accounts there were, and it fails exactly
    when the late account was past the 5th."""
    checks = _isolation(notes, tmp_path, later_accounts_see_everything)
    check = checks[ISOLATED]
    if check.ok:
        late = int(re.search(r"the 2nd and (\d+)\w\w of the (\d+) accounts", check.detail).group(1))
        assert late <= 5, check
    else:
        assert re.search(r"the (\d+)\w\w account", check.detail) and "registered" in check.detail, check
        assert int(re.search(r"the (\d+)\w\w account", check.detail).group(1)) > 5, check


def test_the_number_of_accounts_is_drawn_uniformly_per_run():
    """Api's `crowd` default is draw_crowd()."""
    draws = Counter(draw_crowd() for _ in range(2200))
    low, high = CROWD
    assert set(draws) == set(range(low, high + 1))
    assert all(120 <= n <= 280 for n in draws.values()), draws     # 200 expected each
