"""Bug: a spec file's `{ kind = "filter", fields = ["date", "amount", "description"] }` was
accepted although `description` is long text, which the generator filters by no rule: the app
left that filter out silently, `GET /api/expenses?description=Lunch` answered 422, and the
requirement "Users can filter expenses" still PASSED — its generated tests only test the filters
the app has, and the black-box check tried only the first two fields a filter names.

Now a filter is built for every field it names or the file is refused in one line naming the field
(`features.can_build`, which the draft path obeys too), and the black-box filter check tries every
field the filter names."""

from __future__ import annotations

from pathlib import Path
from typing import get_args

import httpx
import pytest

from harness.acceptance import run_acceptance
from harness.models.spec import FieldKind
from harness.offline.features import FILTER_KINDS
from harness.offline.generator import generate_files
from harness.offline.generator.analyse import analyse
from harness.offline.generator.api_features import filters
from harness.offline.spec_file import SpecFileError, load_spec_file
from helpers import run_builder, write_files
from served_app import served

EXPENSES = '''title = "Expense tracker"
auth = true

[[entities]]
name = "expense"
fields = [
    {{ name = "date", kind = "date", required = true }},
    {{ name = "description", required = true{kind} }},
    {{ name = "amount", kind = "money", required = true }},
]
features = [{{ kind = "filter", fields = {fields} }}]
'''


def _spec_file(tmp_path: Path, name: str, kind: str = "", fields: str = '["date", "amount", "description"]') -> Path:
    path = tmp_path / name
    path.write_text(EXPENSES.format(kind=f', kind = "{kind}"' if kind else "", fields=fields), encoding="utf-8")
    return path


def test_a_filter_naming_a_long_text_field_refuses_the_file_in_one_line_bug(tmp_path):
    path = _spec_file(tmp_path, "expenses.toml")
    with pytest.raises(SpecFileError) as refused:
        load_spec_file(path)
    message = str(refused.value)
    assert "\n" not in message and f"{path.name}:11: entities[1].features[1]" in message, message
    assert "'description' is a long_text field, which no filter takes" in message, message
    done = run_builder("new", "--no-audit", "--spec", path, "--runs-dir", tmp_path / "runs")
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert "no filter takes" in done.stderr and not (tmp_path / "runs").exists()


@pytest.mark.parametrize("kind", get_args(FieldKind))
def test_a_filter_is_built_for_every_field_it_names_or_refused_bug(kind, tmp_path):
    extra = {"enum": ', values = ["low", "high"]', "reference": ', ref = "place"'}.get(kind, "")
    path = tmp_path / "kinds.toml"
    path.write_text(f'''[[entities]]
name = "place"
fields = ["label"]

[[entities]]
name = "entry"
fields = [{{ name = "label" }}, {{ name = "value", kind = "{kind}"{extra} }}]
features = [{{ kind = "filter", fields = ["label", "value"] }}]
''', encoding="utf-8")
    if kind not in FILTER_KINDS:
        with pytest.raises(SpecFileError, match=f"'value' is a {kind} field, which no filter takes"):
            load_spec_file(path)
        return
    entry = analyse(load_spec_file(path)).entity("entry")
    assert [f.column for f in filters(entry)] == ["label", "value"]


@pytest.mark.slow
def test_the_black_box_filter_check_tries_every_field_the_filter_names_bug(tmp_path):
    """An app that filters by date and amount only, checked against a spec whose filter also names
    the description: the check fails on the third field (it stopped after two)."""
    claimed = load_spec_file(_spec_file(tmp_path, "claimed.toml", "short_text"))
    built = load_spec_file(_spec_file(tmp_path, "built.toml", "short_text", '["date", "amount"]'))
    ws = write_files(generate_files(built), tmp_path / "two_filters")
    with served(ws, tmp_path / "app.db") as base:
        checks = run_acceptance(base, claimed, [], [])
    failed = {c.name: c.detail for c in checks if not c.ok}
    assert list(failed) == ["filter on expenses"], failed
    assert "?description=" in failed["filter on expenses"], failed


@pytest.mark.slow
def test_a_short_text_description_is_filtered_by_its_exact_value_over_http_bug(tmp_path):
    spec = load_spec_file(_spec_file(tmp_path, "short.toml", "short_text"))
    ws = write_files(generate_files(spec), tmp_path / "app")
    with served(ws, tmp_path / "app.db") as base, httpx.Client(base_url=base, trust_env=False) as http:
        credentials = {"username": "alice", "password": "correct-horse-battery"}
        assert http.post("/api/auth/register", json=credentials).status_code == 201
        who = {"Authorization": f"Bearer {http.post('/api/auth/login', json=credentials).json()['token']}"}
        for text in ("Lunch", "Taxi"):
            made = http.post("/api/expenses", json={"date": "2026-12-01", "description": text, "amount": 9.5},
                             headers=who)
            assert made.status_code == 201, made.text
        found = http.get("/api/expenses", params={"description": "Lunch"}, headers=who)
        assert found.status_code == 200 and [e["description"] for e in found.json()] == ["Lunch"], found.text
        checks = run_acceptance(base, spec, [], [])
    check = next(c for c in checks if c.name == "filter on expenses")
    assert check.ok and "description" in check.detail, check.detail
