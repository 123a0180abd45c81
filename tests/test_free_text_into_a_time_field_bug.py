"""Bug: "A visit log. Each visit has a date, time and notes." built no app. The generated page
tests wrote made-up words ("<b>Tom & Jerry</b>", "Before the edit", "alice-secret",
"kept-by-filter") into the record's display column whatever its kind; for a visit that column was
`time`, the app answered 422, repair changed nothing and main.py was never written. A required
e-mail, phone, URL or choice column was picked the same way.

Now those tests write only into a column that takes any words (short or long text,
`Entity.text_column`), and are left out for an entity that has none. The invariant is checked for
every field kind the generator knows: an app whose first column is of that kind (required, before
a notes column) passes its own whole generated suite, and, served by uvicorn, the harness's
black-box acceptance checks — so a kind added to the registry is checked the day it is added."""

from __future__ import annotations

import subprocess
import sys
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


def _generated_suite(files: dict[str, str], root: Path) -> subprocess.CompletedProcess:
    ws = write_files(files, root)
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
                          cwd=ws, capture_output=True, text=True, timeout=600)


def test_a_visit_with_a_date_time_and_notes_passes_its_own_tests_bug(tmp_path):
    spec = parse_request("A visit log. Each visit has a date, time and notes.")
    visit = spec.entity("visit")
    assert [f.kind for f in visit.fields][:3] == ["date", "time", "long_text"], visit.fields
    files = generate_files(spec)
    assert "'time': \"<b>Tom & Jerry</b>\"" not in files["tests/test_pages.py"]
    done = _generated_suite(files, tmp_path / "visit")
    assert done.returncode == 0, done.stdout[-3000:]


def test_the_tools_own_expense_draft_passes_its_own_tests_bug(tmp_path):
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
    done = _generated_suite(generate_files(load_spec_file(draft)), tmp_path / "expense")
    assert done.returncode == 0, done.stdout[-3000:]


@pytest.mark.parametrize("kind", get_args(FieldKind))
def test_every_field_kind_gets_valid_values_in_every_generated_test_and_check_bug(kind, tmp_path):
    path = tmp_path / "kinds.toml"
    path.write_text(_spec_text(kind), encoding="utf-8")
    spec = load_spec_file(path)
    entry = spec.entity("entry")
    assert entry.fields[0].kind == kind, entry.fields
    files = generate_files(spec)
    done = _generated_suite(files, tmp_path / "app")
    assert done.returncode == 0 and " passed" in done.stdout, done.stdout[-3000:]
    with served(tmp_path / "app", tmp_path / "app.db") as base:
        checks = run_acceptance(base, spec, [], [])
    failed = [(c.name, c.detail) for c in checks if not c.ok]
    assert checks and not failed, failed
