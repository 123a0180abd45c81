"""The write lock of the generated `_check_row` (src/api_<entity>.py): a whole-record rule that
reads other records — no double booking, a place's capacity — takes SQLite's write lock (BEGIN
IMMEDIATE) before it reads, so the check and the INSERT/UPDATE after it are one transaction. Without
it two requests could both find the last place free and both take it (a tool lent to two members
at once). The write's `with conn:` (Table.insert/update in src/models.py) commits that transaction;
a refused request's is rolled back when get_db closes its connection. Also the generated test that
proves it with two connections and no timing, so the mutation audit's "lock dropped" mutant dies."""

from __future__ import annotations

from harness.offline.generator.api_access import owner_expr
from harness.offline.generator.appmodel import AppModel, Entity
from harness.offline.generator.capacity_check import capacity_of, resource_line
from harness.offline.generator.codegen import fill
from harness.offline.generator.templates_dir import template

_TEST = template("api_feature_tests/row_check_lock.tmpl")

LOCK_LINES = ["if not db.in_transaction:   # the write lock first: the check and the write are one transaction",
              '    db.execute("BEGIN IMMEDIATE")']


def lock_feature(app: AppModel, e: Entity) -> str | None:
    """The feature whose check reads other records (capacity first, then no double booking);
    None when no rule of the entity does."""
    if capacity_of(app, e) is not None:
        return "capacity"
    if e.slot and e.has("no_double_booking"):
        return "no_double_booking"
    return None


def lock_lines(app: AppModel, e: Entity) -> list[str]:
    """The lines of _check_row that take the write lock, before the reads of other records."""
    return list(LOCK_LINES) if lock_feature(app, e) else []


def lock_test(app: AppModel, e: Entity, kind: str, mark: str) -> list[str]:
    """test_the_row_check_holds_the_write_lock_until_the_write and
    test_an_update_reads_the_stored_record_under_the_write_lock, once per entity: with the feature
    `kind` when that is the one lock_feature names."""
    if lock_feature(app, e) != kind:
        return []
    cap = capacity_of(app, e)
    owner = owner_expr(app).replace("as_viewer(", "people.as_viewer(")
    user = 'user = client.get("/api/auth/me", headers=headers).json()' if app.auth else ""
    return [fill(_TEST, marks=mark, ident=e.ident, camel=e.camel, setup=resource_line(cap) if cap else "",
                 user=user, user_arg=", user" if app.auth else "", owner=owner)]
