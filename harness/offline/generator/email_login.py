"""Accounts keyed by e-mail ("Email and password login", "sign up with your email"): the
username variant of the generated files, rewritten.

The generated auth module, its pages, its tables and its tests speak of a `username`; an app whose
request asks for e-mail logins gets the same files with the account field named `email`, checked
as an address (at most 254 characters, one "@", a dot in the domain), and the tests' users are
addresses (alice -> alice@example.com). Names too short to be addresses ("al", "x") stay: they
are the tests' invalid inputs, and stay invalid.
"""

from __future__ import annotations

import re

EMAIL_PATTERN = r"^[^@\s]+@[^@\s]+\.[^@\s.]+$"
# files that name the account field (tests/test_pages*.py too)
ACCOUNT_FILES = frozenset({"src/auth.py", "src/ui.py", "src/pages.py", "src/models.py", "tests/conftest.py",
                           "tests/test_auth.py", "tests/test_acceptance.py", "tests/test_models.py"})
TEST_USERS = ("alice", "bobby", "bob", "carol", "nobody", "probe_user")
_EXACT = (
    ("username: str = Field(min_length=3, max_length=50)",
     f'email: str = Field(min_length=3, max_length=254, pattern=r"{EMAIL_PATTERN}")'),
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
    return text
