"""Bug: "A visit log. Each visit has a date, time and notes." built no app. The generated page
tests wrote made-up words ("<b>Tom & Jerry</b>", "Before the edit", "alice-secret",
"kept-by-filter") into the record's display column whatever its kind; for a visit that column was
`time`, the app answered 422, repair changed nothing and main.py was never written. A required
e-mail, phone, URL or choice column was picked the same way.

Now those tests write only into a column that takes any words (short or long text,
`Entity.text_column`), and are left out for an entity that has none. The invariant is checked for
every field kind the generator knows: an app whose first column is of that kind (required, before
a notes column) passes its own whole generated suite, and, served by uvicorn, the harness's
black-box acceptance checks — so a kind added to the registry is checked the day it is added.

Each generated suite runs as the harness verifies a workspace (tests/warm_suites.py: forked by one
warm worker per module, inside the sandbox, cold when the worker cannot serve it), not as a cold
`python -m pytest` of its own: 17 suites paid pytest's, fastapi's and every installed plugin's
imports once each (#46); test_warm_worker holds warm and cold runs to the same outcomes."""

from __future__ import annotations

from pathlib import Path
from typing import get_args

import pytest

from harness.acceptance import run_acceptance
from harness.models.spec import FieldKind
from harness.offline.generator import generate_files
from harness.offline.spec import parse_request
from harness.offline.spec_file import load_spec_file
from helpers import write_files
from served_app import served
from warm_suites import suites  # noqa: F401  (module-scoped fixture)

pytestmark = pytest.mark.slow

# What a field of a kind needs besides its kind to be valid in a spec file.
_EXTRA = {"enum": ', values = ["low", "high"]', "reference": ', ref = "place"',
          "rating": ", min = 1, max = 5"}


def _spec_text(kind: str) -> str:
    return f'''title = "Every kind: {kind}"
auth = true

[[entities]]
name = "place"
shared = true
fields = [{{ name = "label", required = true }}]

[[entities]]
name = "entry"
fields = [{{ name = "value", kind = "{kind}", required = true{_EXTRA.get(kind, "")} }},
          {{ name = "notes" }}, {{ name = "archived", kind = "boolean" }}]
features = ["filter", "search", "sort"]
'''


def _generated_suite(suites, files: dict[str, str], name: str):  # noqa: F811
    """The whole generated suite of `files`, written to a fresh directory under the pool's base:
    its ExecResult (exit_code, stdout tail)."""
    ws = write_files(files, suites.base / name)
    return suites.run(ws, "-q", "-p", "no:cacheprovider", timeout_s=600)


def test_a_visit_with_a_date_time_and_notes_passes_its_own_tests_bug(suites):  # noqa: F811
    spec = parse_request("A visit log. Each visit has a date, time and notes.")
    visit = spec.entity("visit")
    assert [f.kind for f in visit.fields][:3] == ["date", "time", "long_text"], visit.fields
    files = generate_files(spec)
    assert "'time': \"<b>Tom & Jerry</b>\"" not in files["tests/test_pages.py"]
    done = _generated_suite(suites, files, "visit")
    assert done.exit_code == 0, done.stdout[-3000:]


def test_the_tools_own_expense_draft_passes_its_own_tests_bug(tmp_path, suites):  # noqa: F811
    draft = tmp_path / "expense_draft.toml"
    draft.write_text('''title = "Expense App"
auth = true
pages = false

[[entities]]
name = "expense"
fields = [{ name = "date" }, { name = "time" }, { name = "description" }, { name = "amount" },
          { name = "comment" }]
features = ["filter", { kind = "aggregate", fields = ["amount"] }, "period_summary"]
''', encoding="utf-8")
    done = _generated_suite(suites, generate_files(load_spec_file(draft)), "expense")
    assert done.exit_code == 0, done.stdout[-3000:]


@pytest.mark.parametrize("kind", get_args(FieldKind))
def test_every_field_kind_gets_valid_values_in_every_generated_test_and_check_bug(kind, tmp_path, suites):  # noqa: F811
    path = tmp_path / "kinds.toml"
    path.write_text(_spec_text(kind), encoding="utf-8")
    spec = load_spec_file(path)
    entry = spec.entity("entry")
    assert entry.fields[0].kind == kind, entry.fields
    files = generate_files(spec)
    done = _generated_suite(suites, files, f"kind-{kind}")
    assert done.exit_code == 0 and " passed" in done.stdout, done.stdout[-3000:]
    with served(suites.base / f"kind-{kind}", tmp_path / "app.db") as base:
        checks = run_acceptance(base, spec, [], [])
    failed = [(c.name, c.detail) for c in checks if not c.ok]
    assert checks and not failed, failed
