"""A filter on a reference field (`?item=` on borrows, examples/hackspace_lending.toml) gets a generated
test. Before, `_filters` skipped every reference column, so "Users can filter borrows" was verified by
tests that never filtered: the mutation audit judged it on lines those tests ran by chance."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.offline.generator import generate_files
from harness.offline.spec_file import load_spec_file
from helpers import write_files
from warm_suites import suites  # noqa: F401  (module-scoped fixture)

ROOT = Path(__file__).resolve().parents[1]
TEST = "def test_filter_by_item(client, headers):"


def _files() -> tuple[str, dict[str, str]]:
    spec = load_spec_file(ROOT / "examples" / "hackspace_lending.toml")
    req = next(r for r in spec.requirements if r.text.startswith("Users can filter borrows"))
    return req.id, generate_files(spec)


def test_a_filter_on_a_reference_field_had_no_generated_test_bug():
    req, files = _files()
    assert f"@pytest.mark.req('{req}')\n{TEST}" in files["tests/test_api_borrow.py"]


def test_no_reference_filter_test_where_a_rule_would_refuse_the_second_record(tmp_path):
    path = tmp_path / "app.toml"
    path.write_text('[[entities]]\nname = "item"\nfields = ["name"]\n[[entities]]\nname = "borrow"\n'
                    'fields = [{ name = "item", ref = "item" }, { name = "day", kind = "date" }]\n'
                    'features = [{ kind = "filter", fields = ["item"] }, '
                    '{ kind = "capacity", fields = ["day"], options = { limit = 1 } }]\n', encoding="utf-8")
    assert "def test_filter_by_item(" not in generate_files(load_spec_file(path))["tests/test_api_borrow.py"]


@pytest.mark.slow
def test_the_reference_filter_test_fails_an_app_that_ignores_the_filter(suites):  # noqa: F811
    _req, files = _files()
    ws = write_files(files, suites.base / "hackspace-filter")
    test = "tests/test_api_borrow.py::test_filter_by_item"
    kept = suites.run(ws, "-q", "-p", "no:cacheprovider", test)
    assert kept.exit_code == 0 and "1 passed" in kept.stdout, kept.stdout[-3000:]
    ignored = files["src/api_borrow.py"].replace("equals=equals, limit=limit", "equals={}, limit=limit")
    assert ignored != files["src/api_borrow.py"]
    (ws / "src" / "api_borrow.py").write_text(ignored, encoding="utf-8")
    broken = suites.run(ws, "-q", "-p", "no:cacheprovider", test)
    assert broken.exit_code == 1 and "1 failed" in broken.stdout, broken.stdout[-3000:]
