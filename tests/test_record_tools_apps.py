"""The record tools' generated tests pass on the generated app and fail on an app that breaks what
they promise (a calendar that ignores its end day, an import that keeps the rows before a bad one,
attachments without the type check or the owner check); and each example of a record tool builds
BUILD COMPLETE through `builder new --spec` (a real subprocess)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from harness.offline.generator import generate_files
from harness.offline.spec_file import load_spec_file
from helpers import write_files
from warm_suites import suites  # noqa: F401  (module-scoped fixture)

ROOT = Path(__file__).parents[1]
SPEC = """title = "Site diary"
auth = true

[[entities]]
name = "site"
fields = [{ name = "name", required = true }]

[[entities]]
name = "entry"
plural = "entries"
parent = "site"
calendar = true
csv_import = { max_rows = 20 }
attachments = { types = ["application/pdf", "image/png"], max_kb = 64 }
fields = [{ name = "title", required = true }, { name = "visit at", kind = "datetime", required = true },
          { name = "hours", kind = "decimal" }]
"""
# (file, what the app does right, what a broken app does instead, the generated test that must fail)
BREAKS = [
    ("src/calendar_view.py", "ranges={column: (first.isoformat(), high)}", "ranges={column: (first.isoformat(), None)}",
     "tests/test_calendar_view.py::test_entry_calendar_lists_each_day_s_records"),
    ("src/csv_import.py", "            TABLES[key].delete(db, row_id, user[\"id\"])", "            pass",
     "tests/test_csv_import.py::test_entry_csv_import_takes_every_row_or_none"),
    ("src/attachments.py", "    if kind not in types:", "    if False:",
     "tests/test_attachments.py::test_entry_files_upload_list_download_and_refusals"),
    ("src/attachments.py", 'if TABLES[key].get(db, item_id, user["id"]) is None:', "if False:",
     "tests/test_attachments.py::test_entry_files_upload_list_download_and_refusals"),
]


@pytest.mark.slow
def test_the_record_tool_tests_pass_and_fail_on_a_broken_app(tmp_path, suites):  # noqa: F811
    spec_file = tmp_path / "diary.toml"
    spec_file.write_text(SPEC, encoding="utf-8")
    files = generate_files(load_spec_file(spec_file))
    ws = write_files(files, suites.base / "diary")
    args = ("-q", "-p", "no:cacheprovider")
    kept = suites.run(ws, *args)
    assert kept.exit_code == 0 and " passed" in kept.stdout and "failed" not in kept.stdout, kept.stdout[-3000:]
    for path, right, wrong, test in BREAKS:
        assert right in files[path], (path, right)
        (ws / path).write_text(files[path].replace(right, wrong), encoding="utf-8")
        broken = suites.run(ws, *args, test)
        (ws / path).write_text(files[path], encoding="utf-8")
        assert broken.exit_code == 1 and "1 failed" in broken.stdout, (path, wrong, broken.stdout[-3000:])


@pytest.mark.slow
@pytest.mark.timeout(900)
@pytest.mark.parametrize("example", ["job_calendar.toml", "contacts_import.toml", "expense_receipts.toml"])
def test_each_record_tool_example_builds_complete(tmp_path, example):
    result = subprocess.run(
        [sys.executable, "-m", "harness.cli", "new", "--spec", str(ROOT / "examples" / example), "--no-audit",
         "--runs-dir", str(tmp_path / "runs"), "--run-id", "example"],
        cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0 and "BUILD COMPLETE" in result.stdout, result.stdout[-4000:] + result.stderr[-2000:]
    spec = load_spec_file(ROOT / "examples" / example)
    assert any(e.calendar or e.csv_import or e.attachment_types for e in spec.data_model)


@pytest.mark.slow
def test_one_column_csv_import_test_refuses_a_bad_row_bug_blank_row_skipped(tmp_path, suites):  # noqa: F811
    """Bug: with a name as the only column, the generated test's bad row (an empty name) was a blank
    line, which an import skips, so the test failed on a correct app ('a contacts app where I can
    import my contacts from a CSV file' never built)."""
    spec_file = tmp_path / "contacts.toml"
    spec_file.write_text('[[entities]]\nname = "contact"\ncsv_import = true\n'
                         'fields = [{ name = "name", required = true }]\n', encoding="utf-8")
    files = generate_files(load_spec_file(spec_file))
    ws = write_files(files, suites.base / "contacts")
    result = suites.run(ws, "-q", "-p", "no:cacheprovider", "tests/test_csv_import.py")
    assert result.exit_code == 0 and " passed" in result.stdout, result.stdout[-3000:]
