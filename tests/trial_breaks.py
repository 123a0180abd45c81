"""The hostile trial's breaks of a generated app with accounts and pages (issue #47,
/work/trials hostile-2026-12-07 A1, A2, A7, A9, A19, A20), put into a generated workspace's
files so the black-box checks can be shown to see each one. Each helper asserts the code it
replaces is there, so a change to the generator cannot turn a break into a no-op silently."""

from __future__ import annotations

import re
from pathlib import Path

NOTES_SPEC = """
title = "Notes"
auth = true

[[entities]]
name = "note"
fields = [{ name = "title", required = true }, { name = "tags" }]
"""


def swap(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{path.name} no longer holds {old!r}: update this break"
    path.write_text(text.replace(old, new), encoding="utf-8")


def logout_ends_nothing(ws: Path) -> None:
    """A1/A9: POST /api/auth/logout answers 204 and ends no session."""
    swap(ws / "src" / "auth.py", "    end_session(db, credentials.credentials)", "    return None")


def page_logout_ends_nothing(ws: Path) -> None:
    """The page form's POST /logout drops the cookie in the browser but keeps the session."""
    swap(ws / "src" / "pages.py", "    if token:\n        end_session(db, token)\n", "")


def passwords_kept_as(ws: Path, kept: str, imports: str = "", same: str = "stored == hash_password(password)") -> None:
    """The password stored as the expression `kept` of `password`, checked by the expression `same`
    (of `password` and `stored`; by default kept again and compared); `imports`: what they need."""
    auth = ws / "src" / "auth.py"
    text = auth.read_text(encoding="utf-8")
    assert "def hash_password(password: str) -> str:" in text and "def verify_password(" in text
    auth.write_text(text + f'''
{imports}

def hash_password(password: str) -> str:
    return {kept}


def verify_password(password: str, stored: str) -> bool:
    return {same}
''', encoding="utf-8")


def plain_text_passwords(ws: Path) -> None:
    """A1: the password stored as `plain$<password>`, compared as text."""
    passwords_kept_as(ws, '"plain$" + password')


def password_prefix_casefolded(ws: Path) -> None:
    """A19: only the first 8 characters count, in any letter case."""
    auth = ws / "src" / "auth.py"
    text = auth.read_text(encoding="utf-8")
    assert text.count('password.encode("utf-8")') == 2, "hash/verify no longer encode the password this way"
    auth.write_text(text.replace('password.encode("utf-8")', 'password[:8].lower().encode("utf-8")'), encoding="utf-8")


def pages_show_every_users_records(ws: Path) -> None:
    """A2: the signed-in pages list every account's rows."""
    swap(ws / "src" / "pages.py", "else table.rows(db, owner_id, 500, 0))",
          'else [dict(r) for r in db.execute(table.select_sql + " LIMIT 500")])')


def form_delete_by_id_only(ws: Path) -> None:
    """A20: the page form deletes by id, whoever's record it is."""
    swap(ws / "src" / "pages.py", "        call(SECTIONS[key].api.delete_item, item_id, db, user=user)\n",
          "        with db:\n"
          "            gone = db.execute(f'DELETE FROM {TABLES[key].table_sql} WHERE \"id\" = ?', (item_id,)).rowcount\n"
          "        if not gone:\n"
          "            raise HTTPException(404, 'not found')\n")


def restart_wipes_the_database(ws: Path) -> None:
    """A7: every start drops every table before creating them again."""
    swap(ws / "src" / "models.py", '        conn.execute("BEGIN")\n',
          '        conn.execute("BEGIN")\n'
          "        for (name,) in conn.execute(\"SELECT name FROM sqlite_master WHERE type = 'table' "
          "AND name NOT LIKE 'sqlite_%'\").fetchall():\n"
          "            conn.execute(f'DROP TABLE IF EXISTS \"{name}\"')\n")


def hollow_logout_asserts(ws: Path) -> list[str]:
    """A1: the tests' checks that a logged-out token is refused accept 200 too; files changed."""
    changed = []
    for path in sorted((ws / "tests").glob("test_*.py")):
        text = path.read_text(encoding="utf-8")
        new = re.sub(r'(assert client\.get\("/api/auth/me", headers=headers\)\.status_code) == 401',
                     r"\1 in (200, 401)", text)
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed.append(path.name)
    return changed
