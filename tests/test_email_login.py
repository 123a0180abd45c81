"""Accounts keyed by e-mail: "Email and password login for a single user" (theaiinternship.com's
Pennywise prompt) was not built ("no offline rule understands Email"). The spec rule
(the pass "e-mail login", rows of spec/patterns/features.jsonl), the spec file's `login = "email"`, and the rewritten generated files
(generator/email_login.py), whose own suite passes and refuses what is no address."""

from __future__ import annotations

import pytest


from harness.offline.generator import generate_files, round_trip_steps
from harness.offline.spec.rules import rule_based_spec
from harness.offline.spec_file import SpecFileError, load_spec_file
from helpers import write_files
from warm_suites import suites  # noqa: F401  (module-scoped fixture)


@pytest.mark.parametrize("request_text, login", [
    ("A notes app. Email and password login for a single user.", "email"),
    ("A notes app. Users sign up with their email and a password.", "email"),
    ("A task app where users log in with email.", "email"),
    ("A task app with login.", "username"),
    ("A notes app with login. Users can reset their password by email.", "username"),   # sending mail
    ("A task app with login and email reminders.", "username"),
])
def test_an_email_at_the_sign_in_makes_the_accounts_email_addresses(request_text, login):
    spec = rule_based_spec(request_text)
    assert spec.auth and spec.login == login
    auth = next(r for r in spec.requirements if r.capability == "auth")
    assert ("e-mail address" in auth.text) is (login == "email")
    if login == "email":
        assert all(c.status == "mapped" for c in spec.clauses), [(c.text, c.reason) for c in spec.clauses]
    else:
        assert spec.login == "username"


SPEC = """title = "Pennywise"
auth = true
login = "email"

[[entities]]
name = "expense"
fields = [{ name = "title", required = true }, { name = "amount", kind = "money" }]
"""


def test_a_spec_file_says_login_email_and_nothing_else(tmp_path):
    path = tmp_path / "spec.toml"
    path.write_text(SPEC.replace('"email"', '"phone"'), encoding="utf-8")
    with pytest.raises(SpecFileError, match=r'spec.toml:3: login: must be "username" or "email"'):
        load_spec_file(path)


@pytest.mark.slow
def test_the_email_app_names_no_username_and_its_whole_suite_passes(tmp_path, suites):  # noqa: F811
    path = tmp_path / "spec.toml"
    path.write_text(SPEC, encoding="utf-8")
    spec = load_spec_file(path)
    files = generate_files(spec)
    assert not [p for p, text in files.items() if "username" in text or "Tên đăng nhập" in text]
    assert "email: Annotated[Email, AfterValidator(str.lower)]" in files["src/auth.py"]
    assert 'name="email" type="email"' in files["src/pages.py"]
    assert '"alice@example.com"' in files["tests/conftest.py"] and '"al"' in files["tests/test_auth.py"]
    register = next(s for s in round_trip_steps(spec) if s.name == "register")
    assert register.body["email"].endswith("@example.com") and "username" not in register.body
    ws = write_files(files, suites.base / "email")
    whole = suites.run(ws, "-q", "-p", "no:cacheprovider")
    assert whole.exit_code == 0, whole.stdout[-3000:]
    assert "def test_an_address_is_one_account_whatever_its_letter_case" in files["tests/test_auth.py"]
    # the address check and the lower-casing are the auth tests' own: without either a test fails
    auth_py = ws / "src" / "auth.py"
    auth_py.write_text(files["src/auth.py"].replace("Annotated[Email, AfterValidator(str.lower)]", "Email"),
                       encoding="utf-8")
    cased = suites.run(ws, "-q", "-p", "no:cacheprovider", "tests/test_auth.py", "-k", "letter_case")
    assert cased.exit_code == 1 and "1 failed" in cased.stdout, cased.stdout[-2000:]
    auth_py.write_text(files["src/auth.py"].replace("Annotated[Email,", "Annotated[str,"), encoding="utf-8")
    loose = suites.run(ws, "-q", "-p", "no:cacheprovider", "tests/test_auth.py")
    assert loose.exit_code == 1 and "failed" in loose.stdout, loose.stdout[-2000:]
