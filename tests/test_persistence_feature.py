"""persistence: "Save all expenses so they persist after refresh and login" (theaiinternship.com's
Pennywise prompt) — the spec rule and the generated test that restarts the app on the same database
(and fails when a restart loses the records)."""

from __future__ import annotations

import pytest

from harness.offline.generator import generate_files
from harness.offline.spec.rules import rule_based_spec
from harness.offline.spec_file import load_spec_file
from helpers import write_files
from warm_suites import suites  # noqa: F401  (module-scoped fixture)


def test_stay_without_an_after_phrase_and_without_a_reload_are_no_persistence():
    for text in ("An app to manage tasks; tasks stay on the board.",
                 "An app to manage recipes. Show recipe details on the same page without reloading the page."):
        assert "persistence" not in {f.kind for f in rule_based_spec(text).features}


SPEC = """title = "Pennywise"
auth = true

[[entities]]
name = "expense"
fields = [{ name = "title", required = true }, { name = "amount", kind = "money" }]
features = ["persistence"]
"""

# What an app that loses its records on a restart does: its module wipes the table when a new
# process imports it (the test process imported it before the record was made).
WIPE_ON_START = ('\nimport os as _os, sqlite3 as _sqlite3\nif "APP_DB_PATH" in _os.environ:\n    _wipe = _sqlite3.connect(_os.environ["APP_DB_PATH"])\n'
                 '    _wipe.execute(\'DELETE FROM "expense"\')\n    _wipe.commit()\n')


@pytest.mark.slow
def test_the_generated_restart_test_passes_and_fails_when_a_restart_loses_the_records(tmp_path, suites):  # noqa: F811
    path = tmp_path / "spec.toml"
    path.write_text(SPEC, encoding="utf-8")
    files = generate_files(load_spec_file(path))
    assert "def test_saved_records_are_kept_after_a_restart" in files["tests/test_api_expense.py"]
    ws = write_files(files, suites.base / "persist")
    args = ("-q", "-p", "no:cacheprovider", "tests/test_api_expense.py", "-k", "restart")
    kept = suites.run(ws, *args)
    assert kept.exit_code == 0 and "1 passed" in kept.stdout, kept.stdout[-3000:]
    (ws / "src" / "api_expense.py").write_text(files["src/api_expense.py"] + WIPE_ON_START, encoding="utf-8")
    lost = suites.run(ws, *args)
    assert lost.exit_code == 1 and "1 failed" in lost.stdout and "[200, []]" in lost.stdout, lost.stdout[-3000:]
