"""newest_first: "see a list of all their expenses, newest first" (theaiinternship.com's Pennywise
prompt) — the spec rule, the registry entry, the generated ordering and the generated test that
proves it (and fails when the list is in id order)."""

from __future__ import annotations

import pytest

from harness.offline.features import can_build
from harness.offline.generator import generate_files
from harness.offline.spec.rules import rule_based_spec
from harness.offline.spec_file import load_spec_file
from helpers import write_files
from warm_suites import suites  # noqa: F401  (module-scoped fixture)

PENNYWISE = ("The user can add an expense with an amount, a category (Food, Transport, Bills), a date, and an "
             "optional note, and see a list of all their expenses, newest first, with the option to edit or "
             "delete each one.")


def test_an_optional_field_in_a_list_makes_the_others_required():
    """Pennywise: "an amount, a category (…), a date, and an optional note" — the amount, category
    and date were optional, so an expense without an amount was stored (201)."""
    fields = {f.ident: f.required for f in rule_based_spec(PENNYWISE).entity("expense").fields}
    assert (fields["amount"], fields["category"], fields["date"], fields["note"]) == (True, True, True, False)
    assert "name" not in fields   # the user's own required fields: no invented display name
    plain = rule_based_spec("An app to manage expenses with an amount, a category and a date.")
    assert not any(f.required for f in plain.entity("expense").fields)
    assert "name" not in {f.ident for f in plain.entity("expense").fields}   # listed fields: none invented


def test_the_latest_version_or_recent_alone_is_no_newest_first():
    for text in ("A notes app that always runs the latest version.", "Track tasks and show recent tasks."):
        assert "newest_first" not in {f.kind for f in rule_based_spec(text).features}


def test_the_app_name_after_called_is_the_title_not_an_unknown_ask():
    """Pennywise: "Build a personal expense tracker called Pennywise." was not built ("no offline
    rule understands Pennywise"); the name is the app's title."""
    spec = rule_based_spec("Build a personal expense tracker called Pennywise. Users add expenses with an amount.")
    assert spec.title == "Pennywise"
    assert [c.status for c in spec.clauses] == ["mapped", "mapped"]
    plain = rule_based_spec("An app to manage movies: a list called favourites of movies.")
    assert plain.title != "favourites"   # no capitalised name after "called": the other rules decide


SPEC = """title = "Pennywise"
auth = true

[[entities]]
name = "expense"
fields = [{ name = "title", required = true }, { name = "amount", kind = "money" }, { name = "spent on", kind = "date" }]
features = ["newest_first"]

[[entities]]
name = "note"
fields = [{ name = "title", required = true }]
features = ["newest_first", "sort"]
"""


@pytest.mark.slow
def test_generated_lists_are_newest_first_and_their_test_fails_on_id_order(tmp_path, suites):  # noqa: F811
    path = tmp_path / "spec.toml"
    path.write_text(SPEC, encoding="utf-8")
    spec = load_spec_file(path)
    assert all(can_build(f, spec)[0] for f in spec.features)
    files = generate_files(spec)
    assert 'ORDER BY "spent_on" DESC, "id" DESC' in files["src/models.py"]
    assert "' ORDER BY \"id\" DESC'" in files["src/models.py"]
    assert "'created_at'] = 'id'," in files["src/api_note.py"]   # sort keeps its key, newest first
    assert 'order: Literal["asc", "desc"] = "desc"' in files["src/api_note.py"]
    ws = write_files(files, suites.base / "newest")
    whole = suites.run(ws, "-q", "-p", "no:cacheprovider")
    assert whole.exit_code == 0, whole.stdout[-3000:]
    # the list in id order (what the app did before the feature): the newest-first tests fail
    models = ws / "src" / "models.py"
    models.write_text(files["src/models.py"].replace('"spent_on" DESC, "id" DESC', '"id"'), encoding="utf-8")
    broken = suites.run(ws, "-q", "-p", "no:cacheprovider", "tests/test_api_expense.py", "-k", "newest")
    assert broken.exit_code == 1 and "1 failed" in broken.stdout, broken.stdout[-2000:]
