"""Record tools in a spec file: a calendar of dated records, CSV import and file attachments.
Each key is `true` (the defaults) or a table of its options:

    [[entities]]
    name = "session"
    calendar = true                        # or { date = "<date or date-time field>" } (default: the first)
    csv_import = true                      # or { max_rows = 1000 }
    attachments = true                     # or { types = ["application/pdf", "image/png"], max_kb = 5120 }
    delete = "soft"                        # DELETE only marks a record deleted; list and restore them

Generated: GET /api/<plural>/calendar?from=&to= and the /<plural>/calendar agenda page;
POST /api/<plural>/import (CSV, all rows or none) and the /<plural>/import page;
POST, GET /api/<plural>/{id}/attachments, GET, DELETE .../attachments/{file id} and the
/<plural>/{id}/attachments page; GET /api/<plural>/deleted, POST /api/<plural>/{id}/restore and the
/<plural>/deleted page (docs/spec-language.md).
"""

from __future__ import annotations

import re
from typing import Any

from harness.models.spec import DataEntity, EntityField
from harness.offline.field_kinds import kind_of_type
from harness.offline.generator.naming import field_ident, py_ident
from harness.offline.requirement_words import with_article

TOOL_KEYS = {"calendar", "csv_import", "attachments", "delete"}
DEFAULT_TYPES = ["application/pdf", "image/jpeg", "image/png"]
DEFAULT_MAX_KB = 5120
MAX_KB = 51200                 # 50 MiB: the largest upload a spec may allow
DEFAULT_ROWS = 1000
MAX_ROWS = 10000
_TYPE = re.compile(r"[a-z]+/[a-z0-9][a-z0-9.+-]*")
_DATED = ("date", "datetime")


def _options(reader: Any, raw: dict, key: str, allowed: set[str], i: int, where: str) -> dict | None:
    """None when the key is absent or false, {} for true, the table (its keys checked) otherwise."""
    value = raw.get(key)
    if value is None or value is False:
        return None
    if value is True:
        return {}
    if not isinstance(value, dict):
        reader.fail(f"{where}.{key}", f"must be true or a table {{ {', '.join(sorted(allowed))} }}", key, i)
    for name in value:
        if name not in allowed:
            reader.fail(f"{where}.{key}.{name}", f"unknown key (known: {', '.join(sorted(allowed))})", key, i)
    return value


def _count(reader: Any, table: dict, key: str, low: int, high: int, where: str, i: int, line_key: str) -> int | None:
    value = table.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        reader.fail(f"{where}.{key}", f"must be a whole number from {low} to {high}", line_key, i)
    return value


def _dated(fields: list[EntityField]) -> list[EntityField]:
    return [f for f in fields if (f.kind or kind_of_type(f.type)) in _DATED]


def read_record_tools(reader: Any, raw: dict, i: int, where: str, fields: list[EntityField]) -> dict[str, Any]:
    """{calendar, csv_import, attachment_types, attachment_max_kb} of one [[entities]] table."""
    out: dict[str, Any] = {}
    calendar = _options(reader, raw, "calendar", {"date"}, i, where)
    if calendar is not None:
        dated = _dated(fields)
        if not dated:
            reader.fail(f"{where}.calendar", "needs a date or date-time field to place the records on", "calendar", i)
        wanted = calendar.get("date")
        if wanted is not None and not isinstance(wanted, str):
            reader.fail(f"{where}.calendar.date", "must be the name of a date field", "calendar", i)
        chosen = dated[0] if wanted is None else next(
            (f for f in dated if field_ident(wanted) in (f.ident, field_ident(f.name))), None)
        if chosen is None:
            names = ", ".join(repr(f.name) for f in dated)
            reader.fail(f"{where}.calendar.date", f"{wanted!r} is no date or date-time field (those: {names})",
                        "calendar", i)
        out["calendar"] = chosen.ident
    importing = _options(reader, raw, "csv_import", {"max_rows"}, i, where)
    if importing is not None:
        out["csv_import"] = _count(reader, importing, "max_rows", 1, MAX_ROWS, f"{where}.csv_import", i,
                                   "csv_import") or DEFAULT_ROWS
    files = _options(reader, raw, "attachments", {"types", "max_kb"}, i, where)
    if files is not None:
        types = files.get("types", DEFAULT_TYPES)
        if not isinstance(types, list) or not types:
            reader.fail(f"{where}.attachments.types", "must be a list of content types, e.g. [\"application/pdf\"]",
                        "attachments", i)
        for kind in types:
            if not isinstance(kind, str) or not _TYPE.fullmatch(kind):
                reader.fail(f"{where}.attachments.types", f"{kind!r} is not a content type (like \"image/png\")",
                            "attachments", i)
        out["attachment_types"] = list(dict.fromkeys(types))
        out["attachment_max_kb"] = _count(reader, files, "max_kb", 1, MAX_KB, f"{where}.attachments", i,
                                          "attachments") or DEFAULT_MAX_KB
    deleting = reader.typed(raw, "delete", str, where, i)
    if deleting is not None and deleting not in ("soft", "hard"):
        reader.fail(f"{where}.delete", 'must be "soft" (DELETE only marks the record deleted; it can be '
                    'listed and restored) or "hard" (the default: DELETE removes the row)', "delete", i, deleting)
    if deleting == "soft":
        out["soft_delete"] = True
    return out


def check_soft_delete(reader: Any, entities: list[DataEntity]) -> None:
    """A record whose parent is soft-deleted cannot go with it: `on_parent_delete = "cascade"` under
    a parent with `delete = "soft"` is refused (its children would be gone for good while the
    parent can come back); the default, restrict, keeps the parent while it has records (409)."""
    soft = {e.ident: e for e in entities if e.soft_delete}
    for i, e in enumerate(entities):
        parent = soft.get(py_ident(e.parent)) if e.parent else None
        if parent is not None and e.on_parent_delete == "cascade":
            reader.fail(f"entities[{i + 1}].on_parent_delete", f"a deleted {parent.name} is only marked deleted "
                        f"(delete = \"soft\") and can be restored, so its {e.plural} cannot be removed with it; "
                        "leave out on_parent_delete (a "
                        f"{parent.name} with {e.plural} is then kept until they are deleted)", "on_parent_delete", i, "cascade")


def tool_items(e: DataEntity, html: bool = True) -> list[tuple[str, str | None, str, str]]:
    """The requirements (capability, entity, text, source) of the entity's record tools (`html`
    false: a JSON API only, no agenda page)."""
    out = []
    if e.calendar:
        shown = "as JSON and as an agenda page" if html else "as JSON"
        out.append(("calendar", e.ident, f"Users see their {e.plural} on a calendar: grouped by day between "
                    f"two dates, {shown}", f"{e.name}.calendar"))
    if e.csv_import:
        out.append(("import", e.ident, f"Users import {e.plural} from a CSV file: every row checked, all rows "
                    "or none", f"{e.name}.csv_import"))
    if e.attachment_types:
        out.append(("attachment", e.ident, f"Users attach documents or photos to {with_article(e.name)}, list, download "
                    "and delete them", f"{e.name}.attachments"))
    if e.soft_delete:
        out.append(("soft_delete", e.ident, f"Deleting {with_article(e.name)} only marks it deleted: it leaves "
                    f"every list, and users list their deleted {e.plural} and restore them", f"{e.name}.delete"))
    return out
