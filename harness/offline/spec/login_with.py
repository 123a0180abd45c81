"""What an account signs in with: "Email and password login", "sign up with your email and a
password", "users log in via email" make the accounts e-mail addresses (`AppSpec.login`).

An e-mail word in a clause that asks for accounts is the login when the clause also names the
password or puts the word right at the sign-in ("log in with email"). Sending e-mail is something
else and stays unexplained: "reset the password by email", "email reminders", "verify the email".
"""

from __future__ import annotations

from harness.offline.spec.pass_helpers import use, word
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_set

_EMAIL = word_set("login_with.email")
_PASSWORD = word_set("login_with.password")
_AT = word_set("login_with.at")
_SENDING = word_set("login_with.sending")


def mark_email_login(toks: list[Tok], p) -> None:
    """Mark the e-mail (and password) words of a sign-in clause as auth; p.login_email."""
    by_clause: dict[int, list[int]] = {}
    for i, t in enumerate(toks):
        by_clause.setdefault(t.clause, []).append(i)
    for idx in by_clause.values():
        words = {toks[i].w for i in idx}
        if not any(toks[i].role == "auth" for i in idx) or words & _SENDING:
            continue
        emails = [i for i in idx if toks[i].w in _EMAIL and not toks[i].used]
        near = [i for i in emails if word(toks, i - 1) in _AT or words & _PASSWORD]
        if not near:
            continue
        p.login_email = True
        for i in idx:
            if not toks[i].used and (toks[i].w in _EMAIL or toks[i].w in _PASSWORD):
                use(toks[i], "auth")
                if word(toks, i + 1) in ("address", "addresses") and not toks[i + 1].used:
                    use(toks[i + 1], "auth")   # "an account with my name, email address and password"
