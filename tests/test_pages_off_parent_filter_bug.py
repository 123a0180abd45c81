"""Bug (fresh trial 2026-12-07): with `pages = false`, a child record and a filter on its parent, the
build failed. The index `/` carries every entity's section, so the child's form offers every parent
in its dropdown; the generated page test looked for the filtered-out parent anywhere on the page,
found it as an `<option>` of that dropdown, the pages task escalated and src/main.py was never
written. The generated test now reads only the filtered entity's listed rows (its section's table
body), so it still fails when the filter shows the record it should drop."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.offline.generator import generate_files
from harness.offline.spec_file import load_spec_file
from helpers import run_builder, write_files
from warm_suites import suites  # noqa: F401  (module-scoped fixture)

SPEC = """title = "Parent filter"
pages = false

[[entities]]
name = "donor"
fields = [{ name = "name", required = true }, { name = "sex", values = ["male", "female"] }]
features = [{ kind = "filter", fields = ["sex"] }]

[[entities]]
name = "unit"
parent = "donor"
fields = [{ name = "code", required = true }]
"""
FILTER_TEST = "tests/test_pages.py::test_list_page_filter_shows_only_matching_records"
ENUM_CHOICE = 'elif f.kind == "enum" and raw in f.options:'


def _spec_file(tmp_path: Path) -> Path:
    path = tmp_path / "parent_filter.toml"
    path.write_text(SPEC, encoding="utf-8")
    return path


def test_page_filter_test_reads_the_filtered_entitys_rows_not_the_whole_index_bug(tmp_path):
    pages_test = generate_files(load_spec_file(_spec_file(tmp_path)))["tests/test_pages.py"]
    assert "shown = listed_rows(page, 'donors')" in pages_test
    assert '"dropped-by-filter" not in shown' in pages_test
    assert '"dropped-by-filter" not in page' not in pages_test


@pytest.mark.slow
def test_page_filter_test_passes_beside_a_child_form_and_fails_when_the_filter_is_ignored_bug(
        tmp_path, suites):  # noqa: F811
    files = generate_files(load_spec_file(_spec_file(tmp_path)))
    ws = write_files(files, suites.base / "parent_filter")
    passed = suites.run(ws, "-q", "-p", "no:cacheprovider", FILTER_TEST)
    assert passed.exit_code == 0 and "1 passed" in passed.stdout, passed.stdout[-3000:]
    source = files["src/page_parts.py"]
    ignored = source.replace(ENUM_CHOICE, ENUM_CHOICE.replace("and raw", "and False and raw"))
    assert ignored != source
    (ws / "src" / "page_parts.py").write_text(ignored, encoding="utf-8")
    broken = suites.run(ws, "-q", "-p", "no:cacheprovider", FILTER_TEST)
    assert broken.exit_code == 1 and "1 failed" in broken.stdout, broken.stdout[-3000:]
    assert "dropped-by-filter" in broken.stdout


@pytest.mark.slow
def test_pages_off_child_of_a_filtered_parent_builds_complete_bug(tmp_path):
    done = run_builder("new", "--spec", _spec_file(tmp_path), "--runs-dir", tmp_path / "runs",
                       "--run-id", "parent-filter", "--no-audit", timeout=600)
    assert done.returncode == 0 and "BUILD COMPLETE" in done.stdout, done.stdout[-3000:] + done.stderr[-2000:]
    assert (tmp_path / "runs" / "parent-filter" / "workspace" / "src" / "main.py").is_file()
