"""Several ordinary roles (#51): `view = "<role>"` gives a non-admin role read access to every record
of an entity while it changes only its own — the store-expenses request's accounts team, who "can
also view all expense details, but should not be able to update / delete them", beside stores that
see their own. The reader refuses a `view` that could not mean that in one line; the generated test
and the black-box check both catch an app whose accounts team sees only its own records."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.acceptance import run_acceptance
from harness.offline.generator import generate_files
from harness.offline.spec_file import SpecFileError, load_spec_file
from helpers import run_builder, write_files
from served_app import served
from warm_suites import suites  # noqa: F401  (module-scoped fixture)

EXPENSES = Path(__file__).parents[1] / "examples" / "store_expenses.toml"
RULE = 'action == "read" and (self.shared or (role is not None and role == self.view)))'
# An app whose `view` role reads only what any other role reads: its own records.
BLIND = (RULE, 'action == "read" and self.shared)')

ROLES = '[auth]\nroles = ["owner", "accounts", "store"]\n'
ENTITY = '[[entities]]\nname = "expense"\nfields = ["description"]\n'


def test_the_accounts_team_of_the_store_expenses_example_reads_every_expense():
    spec = load_spec_file(EXPENSES)
    assert spec.roles == ["owner", "accounts", "store"]
    req = next(r for r in spec.requirements if r.acceptance == "expense.view")
    assert (req.capability, req.text) == ("access", "The accounts role sees every expense but changes only its own")
    files = generate_files(spec)
    assert "        view='accounts',\n" in files["src/models.py"]
    assert RULE in files["src/models.py"]
    assert "The accounts role sees every record and changes only its own." in files["src/api_expense.py"]
    tests = files["tests/test_api_expense.py"]
    assert f"@pytest.mark.req('{req.id}')\ndef test_the_accounts_role_sees_every_expense_record" in tests
    acceptance = files["tests/test_acceptance.py"].split(f"def test_{req.id.lower().replace('-', '_')}_access(", 1)[1]
    assert """json={"role": 'accounts'}""" in acceptance.split("\n\n\n", 1)[0]


@pytest.mark.parametrize("head, key, message", [
    ("auth = true\n", 'view = "accounts"', "entities[1].view: no role 'accounts' (roles: none: add [auth] roles = [...])"),
    ("", 'view = "accounts"', "entities[1].view: needs accounts: add auth = true or an [auth] table"),
    (ROLES, 'view = "auditor"', "entities[1].view: no role 'auditor' (roles: owner, accounts, store)"),
    (ROLES, 'view = "owner"', "'owner' sees every expense already as the admin role"),
    (ROLES, 'view = "accounts"\nmanage = "accounts"', "'accounts' sees every expense already as the managing role"),
    (ROLES, 'view = "accounts"\nshared = true', "'accounts' sees every expense already as every signed-in user"),
    (ROLES, 'view = "store"', "'store' is every new account's role, so everyone would see every expense"),
    (ROLES, 'view = ["accounts"]', "entities[1].view"),
])
def test_a_view_that_cannot_be_built_is_one_line(tmp_path, head, key, message):
    path = tmp_path / "app.toml"
    path.write_text(head + ENTITY + key + "\n", encoding="utf-8")
    with pytest.raises(SpecFileError) as raised:
        load_spec_file(path)
    text = str(raised.value)
    assert message in text and "\n" not in text and text.startswith(f"{path}:"), text


@pytest.mark.slow
def test_the_generated_view_test_passes_and_fails_when_the_role_sees_only_its_own(suites):  # noqa: F811
    files = generate_files(load_spec_file(EXPENSES))
    ws = write_files(files, suites.base / "expenses")
    kept = suites.run(ws, "-q", "-p", "no:cacheprovider", "tests/test_api_expense.py")
    assert kept.exit_code == 0 and "failed" not in kept.stdout, kept.stdout[-3000:]
    (ws / "src" / "models.py").write_text(files["src/models.py"].replace(*BLIND), encoding="utf-8")
    broken = suites.run(ws, "-q", "-p", "no:cacheprovider", "tests/test_api_expense.py")
    assert broken.exit_code == 1 and "1 failed" in broken.stdout, broken.stdout[-3000:]
    assert "test_the_accounts_role_sees_every_expense_record" in broken.stdout


@pytest.mark.slow
def test_the_black_box_view_check_fails_an_app_whose_accounts_team_sees_only_its_own(tmp_path):
    spec = load_spec_file(EXPENSES)
    files = generate_files(spec)
    for label, models in (("kept", files["src/models.py"]), ("blind", files["src/models.py"].replace(*BLIND))):
        ws = write_files({**files, "src/models.py": models}, tmp_path / label)
        with served(ws, tmp_path / f"{label}.db") as base:
            checks = run_acceptance(base, spec, [], [])
        failed = [(c.name, c.detail) for c in checks if not c.ok]
        if label == "kept":
            assert failed == [], failed
            assert any(c.name == "the accounts role sees every expense" and c.ok for c in checks)
        else:
            assert [name for name, _ in failed] == ["the accounts role sees every expense"], failed
            assert "the accounts reads another's expense: expected 200, got GET" in failed[0][1]


@pytest.mark.slow
def test_the_store_expenses_example_builds_complete_with_its_view_checked_from_outside(tmp_path):
    done = run_builder("new", "--spec", EXPENSES, "--runs-dir", tmp_path, "--run-id", "expenses", "--no-audit",
                       timeout=600)
    assert done.returncode == 0 and "BUILD COMPLETE" in done.stdout, done.stdout[-3000:] + done.stderr[-2000:]
    report = done.stdout.split("The accounts role sees every expense but changes only its own", 1)[1]
    assert "Black-box: YES (1/1 checks" in report.split("Status:", 1)[0]
