"""The record-tool files of a generated app (calendar, CSV import, attachments, soft delete): which exist, their
build units' files, their routers (included before the entity routers: /api/<slug>/calendar must
not be taken for a record id) and their end-to-end acceptance tests. Dispatch only."""

from __future__ import annotations

from collections.abc import Callable

from harness.models.spec import Requirement
from harness.offline.generator import attachments, calendar_view, csv_import, soft_delete
from harness.offline.generator.appmodel import AppModel

# capability -> (module name, source path, test path, source(app), tests(app, req ids),
#                acceptance test(app, req id, entity, test name), has it(app))
TOOLS: dict[str, tuple[str, str, str, Callable, Callable, Callable, Callable]] = {
    "calendar": ("calendar_view", calendar_view.SOURCE, calendar_view.TESTS, calendar_view.calendar_py,
                 calendar_view.test_calendar_py, calendar_view.calendar_acceptance,
                 lambda app: bool(calendar_view.calendar_entities(app))),
    "import": ("csv_import", csv_import.SOURCE, csv_import.TESTS, csv_import.csv_import_py,
               csv_import.test_csv_import_py, csv_import.import_acceptance,
               lambda app: bool(csv_import.import_entities(app))),
    "attachment": ("attachments", attachments.SOURCE, attachments.TESTS, attachments.attachments_py,
                   attachments.test_attachments_py, attachments.attachment_acceptance,
                   lambda app: bool(attachments.attachment_entities(app))),
    "soft_delete": ("trash", soft_delete.SOURCE, soft_delete.TESTS, soft_delete.trash_py, soft_delete.test_trash_py,
                    soft_delete.trash_acceptance, lambda app: bool(soft_delete.soft_entities(app))),
}
DESCRIPTIONS = {"calendar": "Calendar of dated records: JSON per day and the agenda pages",
                "import": "CSV import of records: all rows or none, and the import pages",
                "attachment": "Attachments: upload, list, download and delete a record's files",
                "soft_delete": "Soft delete: deleted records listed and restored, and the deleted-records pages"}
# the same in a JSON-API-only app (html = false): the tools have no pages there
API_DESCRIPTIONS = {"calendar": "Calendar of dated records: JSON per day",
                    "import": "CSV import of records: all rows or none",
                    "attachment": DESCRIPTIONS["attachment"],
                    "soft_delete": "Soft delete: deleted records listed and restored"}


def tool_modules(app: AppModel) -> list[str]:
    return [t[0] for t in TOOLS.values() if t[6](app)]


def tool_units(app: AppModel) -> list[tuple[str, str, list[str], tuple[str, ...]]]:
    """(key, description, files, requirement ids) of each record-tool unit the app has."""
    return [(cap, (DESCRIPTIONS if app.html else API_DESCRIPTIONS)[cap], [t[1], t[2]], app.ids(cap)) for cap, t in TOOLS.items()
            if t[6](app) and app.ids(cap)]


def render_tool_file(app: AppModel, path: str, req_ids: tuple[str, ...]) -> str | None:
    for t in TOOLS.values():
        if path == t[1]:
            return t[3](app)
        if path == t[2]:
            return t[4](app, req_ids)
    return None


def tool_acceptance(app: AppModel, req: Requirement, name: str) -> str | None:
    tool = TOOLS.get(req.capability)
    if tool is None or not req.entity or not tool[6](app):
        return None
    return tool[5](app, req.id, req.entity, name)


def tool_paths(app: AppModel) -> list[str]:
    return calendar_view.calendar_paths(app) + csv_import.import_paths(app) + attachments.attachment_paths(app) + soft_delete.trash_paths(app)


def tool_nav(app: AppModel) -> list[tuple[str, str]]:
    """Navigation links to the calendar and import pages (a record's files page is per record)."""
    return ([(calendar_view.page_url(e), f"{e.plural.capitalize()} calendar") for e in calendar_view.calendar_entities(app)]
            + [(csv_import.page_url(e), f"Import {e.plural}") for e in csv_import.import_entities(app)]
            + [(soft_delete.page_url(e), f"Deleted {e.plural}") for e in soft_delete.soft_entities(app)])
