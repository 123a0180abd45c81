"""Accounts keyed by e-mail ("Email and password login", "sign up with your email"): the
username variant of the generated files, rewritten.

The generated auth module, its pages, its tables and its tests speak of a `username`; an app whose
request asks for e-mail logins gets the same files with the account field named `email`, checked
as an address (the app's own `Email` type of src/fieldtypes.py, lower-cased), and the tests' users are
addresses (alice -> alice@example.com). Names too short to be addresses ("al", "x") stay: they
are the tests' invalid inputs, and stay invalid.
"""

from __future__ import annotations

import re

# files that name the account field (tests/test_pages*.py too)
ACCOUNT_FILES = frozenset({"src/auth.py", "src/ui.py", "src/pages.py", "src/models.py", "tests/conftest.py",
                           "tests/test_auth.py", "tests/test_acceptance.py", "tests/test_models.py",
                           "src/page_parts.py", "src/people.py", "src/account.py", "tests/test_people.py",
                           "tests/test_account.py"})
TEST_USERS = ("alice", "bobby", "bob", "carol", "nobody", "probe_user")
_EXACT = (
    ("username: str = Field(min_length=3, max_length=50)",   # one account per address, whatever its case
     "email: Annotated[Email, AfterValidator(str.lower)]"),
    ("from pydantic import BaseModel, Field, field_validator\n",
     "from pydantic import AfterValidator, BaseModel, Field, field_validator\n"),
    ("from src.models import get_db, now\n", "from src.fieldtypes import Email\nfrom src.models import get_db, now\n"),
    ('username, password = form.get("username", ""), form.get("password", "")',
     'username, password = form.get("username", "").strip().lower(), form.get("password", "")'),
    ('<input name="username" required minlength="3" maxlength="50">',
     '<input name="email" type="email" required maxlength="254">'),
    ("3 <= len(username) <= 50", "3 <= len(username) <= 254"),
    ("Tên đăng nhập", "Email"),
    # the auth tests' invalid shapes gain what is no address (no "@", two "@", no dot in the domain)
    ('        {"username": "al", "password": PASSWORD},\n',
     '        {"username": "al", "password": PASSWORD},\n'
     '        {"username": "alice.example.com", "password": PASSWORD},\n'
     '        {"username": "alice@@example.com", "password": PASSWORD},\n'
     '        {"username": "alice@example", "password": PASSWORD},\n'),
)
_USER_LITERAL = re.compile(r"""(["'])(%s)\1""" % "|".join(TEST_USERS))


def email_address(name: str) -> str:
    return f"{name}@example.com"


_CASE_TEST = """
@@marks@@def test_an_address_is_one_account_whatever_its_letter_case(client):
    body = {"email": "Carol@Example.com", "password": PASSWORD}
    assert client.post("/api/auth/register", json=body).status_code == 201
    again = client.post("/api/auth/register", json={**body, "email": "carol@example.com"})
    assert again.status_code == 409
    login = client.post("/api/auth/login", json={**body, "email": "CAROL@example.COM"})
    assert login.status_code == 200 and login.json()["token"]
    me = client.get("/api/auth/me", headers={"Authorization": f"Bearer {login.json()['token']}"})
    assert me.json()["email"] == "carol@example.com"
"""
_DUPLICATE = re.compile(r"((?:@pytest\.mark\.req\([^)]*\)\n)*)def test_duplicate_email_is_409\(")


def rewrite(path: str, text: str) -> str:
    """`text` of generated file `path` for an app whose accounts are e-mail addresses."""
    if path.startswith("tests/"):
        text = _USER_LITERAL.sub(lambda m: f"{m.group(1)}{email_address(m.group(2))}{m.group(1)}", text)
    if path in ACCOUNT_FILES or path.startswith("tests/test_pages"):
        for old, new in _EXACT:
            text = text.replace(old, new)
        text = re.sub(r"(?<![A-Za-z])username(?![A-Za-z])", "email", text)   # test_duplicate_username_is_409 too
        text = re.sub(r"(?<![A-Za-z])Username(?![A-Za-z])", "Email", text)
        text = re.sub(r"(?<![A-Za-z])usernames(?![A-Za-z])", "emails", text)
    if path == "tests/test_auth.py" and (found := _DUPLICATE.search(text)):
        text = text.rstrip("\n") + "\n\n" + _CASE_TEST.replace("@@marks@@", found.group(1))
    return text
