"""Black-box checks of how the app keeps passwords, read from its SQLite file by the harness after
every other check: the run's password is in no value as sent (nor base64, hex, reversed or in
another letter case), and what the app keeps for a password is salted.

The salt check needs no knowledge of the app's scheme. Three accounts are registered last, in
this order: one the checks already made (A, the run's password), C (another password), D (the
run's password again). In every table where a row names each of them (a column equal to its login),
no column may hold for A and D the same value, or share 16 characters, that C's value does not:
a value the password decides alone (reversed, rot13, upper-cased, an unsalted digest …) is equal
for the two accounts with one password, whatever the transform. What every account shares (a
scheme's prefix, a role, a timestamp's minute — C was made between them) is in C's too.

Hostile trial: `plain$<password>` (A1) passed the checks that only log in; a reversed password
passed the scan for it as sent (N3, `tests/test_password_stored_unsalted_bug.py`).
"""

from __future__ import annotations

import base64
import sqlite3
from pathlib import Path

from harness.acceptance.client import Api, CheckFailed, run_password
from harness.models.results import AcceptanceCheck
from harness.sandbox.judged_files import sqlite_copy

STORED_PASSWORD = "a password is not stored in plain text"
SALTED = "a password is stored salted"
SHARED_RUN = 16          # characters two values must share to count as one password's trace
MASK = 6                 # a run of this many characters also in C's value is what every account holds


def password_forms(secret: str) -> set[str]:
    """The password as sent and its plain re-writings: reversed and in each letter case, each also
    in base64 and hex."""
    plain = {secret, secret[::-1], secret.upper(), secret.lower(), secret.swapcase()}
    return plain | {base64.b64encode(p.encode()).decode() for p in plain} | {p.encode().hex() for p in plain}


def _rows(db: Path) -> dict[str, tuple[list[str], list[tuple]]]:
    """Every table's columns and rows, the file opened read-only."""
    with sqlite_copy(db) as copy:   # a private copy: never a link the app made (judged_files.py)
        conn = sqlite3.connect(copy)
        try:
            out = {}
            for (table,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall():
                cur = conn.execute(f'SELECT * FROM "{table.replace(chr(34), chr(34) * 2)}"')
                out[table] = ([d[0] for d in cur.description], cur.fetchall())
            return out
        finally:
            conn.close()


def _text(value) -> str | None:
    if isinstance(value, bytes):
        return value.hex()
    return value if isinstance(value, str) else None


def password_not_stored(api: Api, rid: str, db: Path) -> AcceptanceCheck:
    """No text (or blob) value of any table holds the run's password in any of its plain forms."""
    forms = password_forms(api.password)
    try:
        tables = _rows(db)
    except sqlite3.Error as exc:
        return _result(rid, STORED_PASSWORD, False, f"the app's database {db.name} could not be read: "
                                                   f"{type(exc).__name__}: {exc}")
    found = sorted({f"{table}.{col}" for table, (cols, rows) in tables.items() for row in rows
                    for col, value in zip(cols, row)
                    if isinstance(value, (str, bytes)) and any(f in _plain(value) for f in forms)})
    if found:
        return _result(rid, STORED_PASSWORD, False, "the password an account registered with is stored as it was "
                                                   f"sent (or reversed, or in another letter case) in {', '.join(found)}")
    return _result(rid, STORED_PASSWORD, True, f"no text value of the {len(tables)} tables holds the registered "
                                               "password (as sent, base64, hex, reversed or in another letter case)")


def _plain(value) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else value


def password_salted(api: Api, rid: str, db: Path) -> AcceptanceCheck:
    """C (another password) then D (the run's) registered after A (the run's): no column of the rows
    naming them holds for A and D a value, or 16 shared characters, that C's does not."""
    try:
        logins = _register_three(api)
        tables = _rows(db)
    except CheckFailed as exc:
        return _result(rid, SALTED, False, f"registering the accounts to compare: {exc}")
    except sqlite3.Error as exc:
        return _result(rid, SALTED, False, f"the app's database {db.name} could not be read: {type(exc).__name__}: {exc}")
    compared, unsalted = [], []
    for table, (cols, rows) in tables.items():
        named = [_row_naming(cols, rows, login) for login in logins]
        if any(r is None for r in named):
            continue
        compared.append(table)
        for i, col in enumerate(cols):
            a, c, d = (_text(r[i]) for r in named)
            if a is None or d is None or logins[0] in (a, d) or logins[2] in (a, d):
                continue
            shared = _shared_not_in(a, d, c or "")
            if shared:
                unsalted.append(f"{table}.{col} ({shared})")
    if not compared:
        return _result(rid, SALTED, False, "no table of the database has a row naming each of three accounts "
                                           "just registered: what it keeps for their passwords cannot be compared")
    if unsalted:
        return _result(rid, SALTED, False, "two accounts registered with one password have the same stored value "
                                           f"where a third with another password has not (unsalted): {'; '.join(unsalted)}")
    return _result(rid, SALTED, True, f"the rows of two accounts with one password share no value a third account's "
                                      f"lacks in {', '.join(compared)}: salted")


def _register_three(api: Api) -> list[str]:
    """The logins of A (an account the checks made, else a new one), C and D, registered in order."""
    a = next(iter(api.registered_names()), None) or api.sign_up(api.new_name()).name
    c, d = api.new_name(), api.new_name()
    for name, password in ((c, run_password()), (d, api.password)):
        api.expect(api.call("POST", "/api/auth/register", body=api.credentials(name, password)), 200, 201,
                   what="register an account")
    return [api.credentials(n)[api.spec.login] for n in (a, c, d)]


def _row_naming(cols: list[str], rows: list[tuple], login: str) -> tuple | None:
    return next((row for row in rows if any(_text(v) == login for v in row)), None)


def _shared_not_in(a: str, d: str, c: str) -> str:
    """"equal" when a == d != c; else the first run of SHARED_RUN characters a and d hold that shares
    nothing with c — no MASK characters of it are in c, so what every account's value holds (a
    scheme's prefix) and a random salt's first characters beside it do not count; "" when none."""
    if a == d:
        return "" if c == a else "equal"
    covered = [False] * len(d)
    for i in range(len(d) - MASK + 1):
        if d[i:i + MASK] in c:
            covered[i:i + MASK] = [True] * MASK
    start = 0
    while start < len(d):
        if covered[start]:
            start += 1
            continue
        end = start
        while end < len(d) and not covered[end]:
            end += 1
        run = d[start:end]
        for i in range(len(run) - SHARED_RUN + 1):
            if run[i:i + SHARED_RUN] in a:
                return f"both hold {run[i:i + 8]}…"
        start = end
    return ""


def _result(rid: str, name: str, ok: bool, detail: str) -> AcceptanceCheck:
    return AcceptanceCheck(requirement=rid, name=name, ok=ok, detail=detail, source="spec")
