"""The generated test of the `csv_export` feature (GET /api/<plural>/export.csv): the header row,
every record of the user in id order, a formula-looking cell made inert — and, with accounts,
who the export is for: no token is a 401 (200 for a public entity), another account's export holds only what the access
rules let it see, and an account that may not add records adds nothing to anyone's export.

Without the access part the test ran only its owner's happy path over one record, so a dropped
role check or an inverted sort ran by the test survived the mutation audit (docs/evidence.md)."""

from __future__ import annotations

from harness.offline.generator.api_access_tests import member_creates
from harness.offline.generator.api_features import sort_keys
from harness.offline.generator.appmodel import AppModel, Entity
from harness.offline.generator.codegen import fill, lit
from harness.offline.generator.templates_dir import template

_CSV = template("api_feature_tests/csv.tmpl")


def csv_test(app: AppModel, e: Entity, mark: str) -> list[str]:
    text = next((c for c in e.plain if c.kind in ("short_text", "long_text")), None)
    hostile = f'body[{lit(text.ident)}] = "=SUM(A1:A9)"' if text else ""
    check = f'assert rows[0][{lit(text.ident)}] == "\'=SUM(A1:A9)"' if text else ""
    return [fill(_CSV, marks=mark, ident=e.ident, hostile=hostile, columns=lit(sort_keys(e)),
                 cell_check=check, login_arg=", login" if app.auth else "",
                 access_checks=_access_lines(app, e))]


def _access_lines(app: AppModel, e: Entity) -> str:
    """The account part of the test (empty without accounts): the lines, indented."""
    if not app.auth:
        return ""
    visitor = 200 if e.public else 401   # anyone reads a public entity's records, its export too
    lines = [f'assert client.get(URL + "/export.csv").status_code == {visitor}',
             'bob = login(client, "bobby")']
    ours = ["item_id", "second_id"]
    bobs: list[str] = []
    if e.manage:   # only the managing role adds: a member's record never reaches an export
        lines.append("assert client.post(URL, json=full_body(client, headers), headers=bob).status_code == 403")
    elif member_creates(app, e) and not e.assigned:
        lines.append(f"bob_id = create_{e.ident}(client, bob)")
        bobs = ["bob_id"]
        if e.shared or app.roles:   # everyone sees a shared record; the admin (the first account) sees all
            ours.append("bob_id")
    theirs = ours if e.shared else bobs
    lines += [f"for who, expected in ((headers, [{', '.join(ours)}]), (bob, [{', '.join(theirs)}])):",
              '    listed = client.get(URL + "/export.csv", headers=who)',
              '    assert listed.status_code == 200',
              '    assert [row["id"] for row in csv.DictReader(io.StringIO(listed.text))] == '
              '[str(i) for i in expected]']
    return "\n".join("    " + line for line in lines)
