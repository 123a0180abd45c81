"""The record tools a request asks for (a calendar, CSV import, attachments, soft delete; the pattern rows with
an `entity_tool` action put them in `Parsed.tools`) applied to the built entities with the spec
language's defaults (harness/offline/spec_record_tools.py, docs/spec-language.md)."""

from __future__ import annotations

from harness.models.spec import DataEntity, EntityField
from harness.offline.field_kinds import kind_of_type
from harness.offline.spec_record_tools import DEFAULT_MAX_KB, DEFAULT_ROWS, DEFAULT_TYPES

# role "tool:<tool>:<record>" -> the capability of the requirement that builds it
TOOL_CAPABILITY = {"calendar": "calendar", "csv_import": "import", "attachments": "attachment",
                   "soft_delete": "soft_delete"}


def with_tools(e: DataEntity, tools: list[str]) -> DataEntity:
    """`e` with its asked tools on; a calendar of records with no date field places them on a new
    `date` field (the record's day is what a calendar asks for)."""
    update: dict = {}
    if "calendar" in tools:
        dated = [f for f in e.fields if (f.kind or kind_of_type(f.type)) in ("date", "datetime")]
        if not dated:
            name = "date" if all(f.ident != "date" for f in e.fields) else "calendar date"
            dated = [EntityField(name=name, ident=name.replace(" ", "_"), type="date", kind="date")]
            update["fields"] = e.fields + dated
        update["calendar"] = dated[0].ident
    if "csv_import" in tools:
        update["csv_import"] = DEFAULT_ROWS
    if "attachments" in tools:
        update["attachment_types"], update["attachment_max_kb"] = list(DEFAULT_TYPES), DEFAULT_MAX_KB
    if "soft_delete" in tools:   # DELETE only marks the record deleted; listed and restored
        update["soft_delete"] = True
    return e.model_copy(update=update) if update else e
