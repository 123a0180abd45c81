"""Account rules the generated login already enforces, asked for in the request's own words.

"I want my password to not be returned from the API", "Password length validation on sign up",
"I want to receive an error if the password I sign up with is less than 8 characters long", "Email
validation on sign up", "Each user has a private library": the generated auth never returns a
password (or its hash), refuses a password shorter than 8 characters with 422, and, when accounts
are e-mail addresses, refuses what is no address with 422, gives every record an owner and answers
404 for another user's — and its generated tests check each. Such a clause asks for the login's
requirement, not for something unbuilt. A length other than 8 is not what the app enforces and
stays as the other rules read it.
"""

from __future__ import annotations

import re

from harness.offline.spec.tokens import Tok

MIN_PASSWORD = 8          # skeleton/src/auth.py: Field(min_length=8)
_MAX_WORDS = 24
_ISOLATION_WORDS = 12
_PASSWORD = re.compile(r"\bpass(?:word|code)s?\b")
_NOT = re.compile(r"\b(?:not|never|no)\b|n't\b")
_HIDDEN = re.compile(r"\b(?:return|returned|returns|show|shown|shows|display|displayed|expose|exposed|visible|"
                     r"send|sent|include|included|reveal|revealed|leak|leaked)\b|\bplain[ -]?text\b")
_LENGTH = re.compile(r"\b(?:length|long|characters?|chars?|short|shorter)\b")
_NUMBER = re.compile(r"\b(\d+|eight|six|ten|twelve)\b")
_NUMBERS = {"six": 6, "eight": 8, "ten": 10, "twelve": 12}
_EMAIL = re.compile(r"\be-?mail(?:s)?\b")
# "Each user has a private library", "books scoped to your account", "users only see their own
# books": the generated login gives every record an owner and answers 404 for another user's.
_ISOLATION = re.compile(r"\beach user has (?:a |an |their own |his or her own )?(?:private |personal |own )"
                        r"(?:library|collection|list|space|workspace|data|records?)\b"
                        r"|\bscoped to (?:your|their|the user's|each user's|the) accounts?\b"
                        r"|\bonly (?:see|view|access|edit) (?:their|his|her|your) own\b"
                        r"|\b(?:private|visible only) to (?:each|the|its) (?:user|owner)\b")
_VALIDITY = re.compile(r"\b(?:valid|invalid|validation|validate|validated|validates|format|malformed|wrong)\b")


def _number(text: str) -> int | None:
    found = _NUMBER.search(text)
    if not found:
        return None
    word = found.group(1)
    return int(word) if word.isdigit() else _NUMBERS[word]


def enforced_by_login(clause: str, email_login: bool) -> bool:
    """Whether the clause asks for an account rule the generated login enforces and tests."""
    text = " ".join(clause.lower().split())
    if len(text.split()) > _MAX_WORDS:
        return False
    if _ISOLATION.search(text):
        return len(text.split()) <= _ISOLATION_WORDS   # a longer clause asks for more than that
    if _PASSWORD.search(text):
        if _NOT.search(text) and _HIDDEN.search(text):
            return True
        if _LENGTH.search(text):
            n = _number(text)
            return n is None or n == MIN_PASSWORD
        return False
    return email_login and bool(_EMAIL.search(text) and _VALIDITY.search(text))


def mark_account_rules(toks: list[Tok], clauses: list[str], auth: bool, email_login: bool) -> None:
    """Mark the words of every such clause as the login's (role "auth") when the app has one."""
    if not auth:
        return
    rules = {k for k, c in enumerate(clauses) if enforced_by_login(c, email_login)}
    for t in toks:
        if t.clause in rules and (not t.used or t.role in ("", "context")) and t.w:
            t.used, t.role = True, "auth"
