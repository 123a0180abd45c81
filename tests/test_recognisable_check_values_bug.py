"""Hostile trial i, A3: every text value the acceptance checks sent started with `acc` and 6 hex
digits (`Api.token`), so an app could tell the judge's records from its users': a Todo whose
complete did nothing unless the title matched `acc[0-9a-f]{6}|Sample text|Changed text` passed both
legs. Now the values are ordinary words drawn per run (harness/acceptance/phrases.py): over two
runs against a real app they share no prefix and no word, and that app fails."""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
from pathlib import Path

import pytest
from helpers import write_files
from served_app import served_app, spec_from_toml
from trial_breaks import NOTES_SPEC, swap

from harness.acceptance import run_acceptance
from harness.acceptance.phrases import Phrases, password, sample_words
from harness.models.spec import AppSpec
from harness.offline.generator import generate_files

ROOT = Path(__file__).resolve().parent.parent
FINGERPRINT = re.compile(r"acc[0-9a-f]{6}|Sample text|Changed text")
COMPLETE = "complete a todo and read it back"


def completes_only_the_checks_records(ws: Path) -> None:
    """A3: POST /complete answers done and stores nothing unless the title looks like the checks'."""
    api = ws / "src" / "api_todo.py"
    swap(api, "import sqlite3\n", "import re\nimport sqlite3\n")
    swap(api, '    """Mark the record done."""\n    _found(TABLE.get(db, item_id, None))\n',
         '    """Mark the record done."""\n    current = _found(TABLE.get(db, item_id, None))\n'
         '    if not re.match(r"acc[0-9a-f]{6}|Sample text|Changed text", current["title"]):\n'
         '        return {**current, "status": "done"}\n')


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    base = tmp_path_factory.mktemp("values")
    todo = AppSpec.model_validate_json((ROOT / "examples" / "todo_spec.json").read_text(encoding="utf-8"))
    notes = spec_from_toml(base, NOTES_SPEC)
    return {name: (spec, write_files(generate_files(spec), base / name))
            for name, spec in (("todo", todo), ("notes", notes))}


def _run(generated, tmp_path: Path, app: str, brk=None, only=None) -> tuple[list, Path]:
    spec, ws = generated[app]
    ws = shutil.copytree(ws, tmp_path / "ws")
    if brk is not None:
        brk(ws)
    db = tmp_path / "app.db"
    with served_app(ws, db) as served:
        return run_acceptance(served.base, spec, [], [], only=only), db


def test_an_app_correct_only_for_the_checks_values_fails_the_complete_check_bug(generated, tmp_path):
    checks, _ = _run(generated, tmp_path, "todo", completes_only_the_checks_records,
                     only=lambda c: c.name == COMPLETE)
    [check] = checks
    assert not check.ok and check.requirement == "REQ-003", check
    assert "done" in check.detail, check.detail


def _stored_text(db: Path) -> tuple[list[str], list[str]]:
    """(every text value of the app's records, every account name) in the app's SQLite file."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        tables = [t for (t,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        values, names = [], []
        for table in tables:
            cols = [row[1] for row in con.execute(f'PRAGMA table_info("{table}")')]
            if table in ("todo", "note"):
                text_cols = [c for c in cols if c in ("title", "tags")]
                values += [v for c in text_cols for (v,) in con.execute(f'SELECT "{c}" FROM "{table}"') if v]
            if "username" in cols:
                names += [v for (v,) in con.execute(f'SELECT username FROM "{table}"')]
    finally:
        con.close()
    return values, names


def _common_prefix(values: list[str]) -> str:
    return os.path.commonprefix([v.casefold() for v in values])


def test_two_runs_send_values_with_no_fixed_prefix_word_or_shape_bug(generated, tmp_path):
    runs = []
    for n in (1, 2):
        for app in ("todo", "notes"):
            checks, db = _run(generated, tmp_path / f"{app}{n}", app)
            assert [(c.name, c.detail) for c in checks if not c.ok] == []
            runs.append(_stored_text(db))
    values = [v for got, _ in runs for v in got]
    names = [n for _, got in runs for n in got]
    assert len(values) > 20 and len(names) > 6, (values, names)
    assert [v for v in values + names if FINGERPRINT.search(v)] == []
    assert len(_common_prefix(values)) < 2 and len(_common_prefix(names)) < 2, (values, names)
    words = [set(re.findall(r"[a-z]+", v.casefold())) for v in values]
    counts = {w: sum(w in each for each in words) for w in set().union(*words)}
    assert max(counts.values()) <= len(values) // 4, sorted(counts.items(), key=lambda kv: -kv[1])[:5]
    first, second = set(runs[0][0] + runs[1][0]), set(runs[2][0] + runs[3][0])
    assert first.isdisjoint(second)


def test_the_values_are_ordinary_words_unique_and_never_inside_one_another():
    listed = sample_words()
    assert len(listed) > 300 and all(re.fullmatch(r"[a-z]{3,}", w) for w in listed)
    assert [(a, b) for a in listed for b in listed if a != b and a in b] == []
    phrases = Phrases()
    texts = [phrases.text() for _ in range(3000)]
    assert len(set(texts)) == len(texts) and max(map(len, texts)) <= 60
    needle = phrases.word()
    assert not any(needle in t.casefold() for t in texts)
    sample = texts[:400]
    assert [(a, b) for a in sample for b in sample if a != b and a.casefold() in b.casefold()] == []
    emails, urls, users = ([make() for _ in range(200)] for make in (phrases.email, phrases.url, phrases.username))
    assert all(re.fullmatch(r"[a-z._]+@example\.(com|org|net)", e) for e in emails) and len(set(emails)) == 200
    assert all(re.fullmatch(r"https://(www\.)?example\.(com|org|net)/[a-z]+[/_-][a-z]+", u) for u in urls)
    assert all(3 <= len(u) <= 50 for u in users) and len(set(users)) == 200
    secret = password()
    assert secret != secret.swapcase() and secret[-1].isdigit() and len(secret) >= 13
