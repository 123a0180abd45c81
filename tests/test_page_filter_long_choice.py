"""A page filter by a choice longer than 20 characters was ignored: the list page cut the query value
to 20 characters before matching it with the choices, so `/expenses?category=customer refreshments`
(21 characters) showed every expense (found building examples/store_expenses.toml). A choice is
short text: the page now reads up to 200 characters."""

from __future__ import annotations

import pytest

from harness.offline.generator import generate_files
from harness.offline.spec_file import load_spec_file
from helpers import write_files
from warm_suites import suites  # noqa: F401  (module-scoped fixture)

LONG = "customer refreshments and coffee"   # 32 characters
SPEC = ('title = "Shop costs"\n[[entities]]\nname = "cost"\n'
        f'fields = ["description", {{ name = "category", values = ["{LONG}", "maintenance"] }}]\n'
        'features = [{ kind = "filter", fields = ["category"] }]\n')
CUT = 'raw = str(params.get(f.name, ""))[:200]'


@pytest.mark.slow
def test_page_filter_by_a_choice_over_20_characters_was_ignored_bug(tmp_path, suites):  # noqa: F811
    path = tmp_path / "costs.toml"
    path.write_text(SPEC, encoding="utf-8")
    files = generate_files(load_spec_file(path))
    assert f"params={{'category': '{LONG}'}}" in files["tests/test_pages.py"]
    ws = write_files(files, suites.base / "costs")
    test = "tests/test_pages.py::test_list_page_filter_shows_only_matching_records"
    kept = suites.run(ws, "-q", "-p", "no:cacheprovider", test)
    assert kept.exit_code == 0 and "1 passed" in kept.stdout, kept.stdout[-3000:]
    old = files["src/page_parts.py"].replace(CUT, CUT.replace("[:200]", "[:20]"))
    assert old != files["src/page_parts.py"]
    (ws / "src" / "page_parts.py").write_text(old, encoding="utf-8")
    broken = suites.run(ws, "-q", "-p", "no:cacheprovider", test)
    assert broken.exit_code == 1 and "1 failed" in broken.stdout, broken.stdout[-3000:]
