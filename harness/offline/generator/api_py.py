"""Builds src/api_<entity>.py: one FastAPI router per entity with strict pydantic v2 models.

Field annotations come from the field-kind registry; the feature routes (search, filters, sort,
totals, counts, CSV export, no double booking) come from api_features.py.
"""

from __future__ import annotations

import ast
import re

from harness.offline.generator.api_access import (
    access_doc, access_import, assigned_fields, handler_checks, may_helper, owner_expr,
)
from harness.offline.generator.api_features import feature_chunks, list_params, slot_of
from harness.offline.generator.appmodel import AppModel, Column, Entity
from harness.offline.generator.booking_clash import clash_states
from harness.offline.generator.capacity_check import capacity_lines
from harness.offline.generator.limit_check import limit_lines
from harness.offline.generator.computed_values import computed_function, computed_out_lines
from harness.offline.generator.links import link_routes
from harness.offline.generator.public_read import reader_chunk, reader_import, reader_param
from harness.offline.generator.row_check_lock import lock_lines
from harness.offline.generator.codegen import doc, fill, lit, module
from harness.offline.generator.skeleton_files import skeleton
from harness.offline.generator.templates_dir import template


def _exported(path: str) -> tuple[str, ...]:
    """The names in a skeleton module's __all__."""
    for node in ast.parse(skeleton(path)).body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "__all__":
            return tuple(ast.literal_eval(node.value))
    return ()


FIELDTYPE_NAMES = _exported("src/fieldtypes.py")

_HEADER = template("api_py/header.tmpl")

_HANDLERS = template("api_py/handlers.tmpl")

_CHECK_STATUS = template("api_py/check_status.tmpl")

_COMPLETE = template("api_py/complete.tmpl")

_CHILDREN = template("api_py/children.tmpl")

_CHECK_PARENT = template("api_py/check_parent.tmpl")

_REFERENCES_CHECK = template("api_py/references_check.tmpl")

_ROW_CHECK = template("api_py/row_check.tmpl")


def collection_url(e: Entity) -> str:
    return f"/api/{e.slug}"


def children_url(app: AppModel, e: Entity) -> str:
    return f"/api/{app.entity(e.parent).slug}/{{parent_id}}/{e.slug}"


def _common(app: AppModel, e: Entity) -> dict[str, str]:
    url = collection_url(e)
    return {
        "url": lit(url), "item_url": lit(url + "/{item_id}"), "camel": e.camel,
        "user": ", user: CurrentUser" if app.auth else "", "reader": reader_param(app, e),
        "owner": owner_expr(app),
        "not_found": lit(f"{e.name} not found"),
    }


def _routes_doc(app: AppModel, e: Entity) -> str:
    url = collection_url(e)
    routes = [f"- POST, GET {url}", f"- GET, PUT, DELETE {url}/{{item_id}}"]
    routes += [f"- POST {url}/{{item_id}}/complete"] if e.has_status and not e.workflow else []
    routes += [f"- GET {children_url(app, e)}"] if e.parent else []
    routes += [f"- GET {url}/export.csv"] if e.has("csv_export") else []
    routes += [f"- GET {url}/totals"] if e.has("aggregate") else []
    routes += [f"- GET {url}/counts"] if e.has("status_counts") else []
    routes += [f"- GET {url}/summary?period=week|month|year"] if e.has("period_summary") else []
    routes += [f"- GET {url}/{{item_id}}/{app.entity(o).slug}; PUT, DELETE {url}/{{item_id}}/"
               f"{app.entity(o).slug}/{{other_id}}; GET {url}?{o}=<id>" for o in e.many]
    return "\n".join(routes)


def _states(e: Entity) -> str:
    if not e.has_status:
        return ""
    return "\n".join([f"Status = Literal[{', '.join(lit(s) for s in e.states)}]",
                      f"NEXT_STATES: dict[str, tuple[str, ...]] = {lit(dict(e.transitions))}"])


def api_py(app: AppModel, e: Entity) -> str:
    """The text of src/api_<ident>.py."""
    common = _common(app, e)
    refs = {c.ident: (c.ref, app.entity(c.ref).name) for c in e.refs}
    header = fill(
        _HEADER, plural_doc=doc(e.plural), routes_doc=_routes_doc(app, e), ident=lit(e.ident),
        scope_doc=((access_doc(app, e) or "Every route needs a bearer token; other users' records answer 404.")
                   if app.auth else "The API is open (the app has no accounts)."),
        conflict_doc="".join([", an overlapping booking" if e.has("no_double_booking") else "",
                              ", a place already full" if e.has("capacity") else ""]),
        auth_import="\n".join(filter(None, ["from src.auth import CurrentUser" if app.auth else "",
                                             reader_import(e), access_import(app, e)])),
        parent_table=f"PARENT = TABLES[{lit(e.parent)}]" if e.parent else "", tag=lit(e.plural),
        references=lit(refs), states=_states(e), auth=lit(app.auth),
        std_imports="@@std_imports@@", csv_import="@@csv_import@@", fieldtypes="@@fieldtypes@@")
    check_parent = "\n\n" + fill(
        _CHECK_PARENT, parent_not_found=lit(f"{app.entity(e.parent).name} not found")
    ).rstrip("\n") if e.parent else ""
    params, list_body = list_params(app, e)
    owner, row_checks = common["owner"], _row_checks(app, e)
    # Only the checks this entity has: a call to a check with nothing to check is dead code, and the
    # mutation audit's "call dropped" mutant of it is one no test could kill (it reported such
    # equivalent mutants as survivors: 14 of 88 on the 20-entity scale request).
    checks = ([fill(_REFERENCES_CHECK)] if refs else []) + ([fill(_ROW_CHECK, row_checks=row_checks)]
                                                           if row_checks else [])
    checks += [may_helper(app, e)] if app.access else []
    references_call = f"_check_references(db, values, {owner})" if refs else ""
    handlers = fill(
        _HANDLERS, check_parent=check_parent,
        checks="".join("\n\n" + c.strip("\n") for c in checks),
        create_checks="\n".join(filter(None, [references_call, row_checks and f"_check_row(db, values, {owner})"])),
        update_references=references_call,
        # the stored record: read by the status and row checks; otherwise only an existence check,
        # so that a missing record is a 404 before a parent or reference check answers
        update_current=(f"current = _found(TABLE.get(db, item_id, {owner}))" if e.has_status or row_checks
                        else f"_found(TABLE.get(db, item_id, {owner}))" if e.fk or refs else ""),
        update_row=row_checks and f"_check_row(db, {{**current, **values}}, {owner}, item_id)",
        # a rule that reads other records merges them with the stored record: read that under the
        # same write lock, or a concurrent update between the read and the lock is lost or misjudged
        update_lock="\n".join(lock_lines(app, e)),
        routes=feature_chunks(app, e), list_params=params, list_body=list_body,
        in_use=lit(f"{e.name} is still referred to by other records; delete those first"),
        check_create=f"_check_parent(db, values[{lit(e.fk)}], {common['owner']})" if e.fk else "",
        check_update=(f"if {lit(e.fk)} in values:\n    _check_parent(db, values[{lit(e.fk)}], "
                      f"{common['owner']})") if e.fk else "",
        check_status=fill(_CHECK_STATUS) + _stamp_lines(e) if e.has_status else "", **handler_checks(app, e),
        **common)
    chunks = [*filter(None, [reader_chunk(e)]), _models(e), *filter(None, [computed_function(e)]), handlers]
    if e.has_status and not e.workflow:
        chunks.append(fill(_COMPLETE, complete_url=lit(collection_url(e) + "/{item_id}/complete"),
                           complete_check=handler_checks(app, e)["complete_check"], **common))
    if e.many:
        chunks.append(link_routes(app, e, owner, common["user"]))
    if e.parent:
        chunks.append(fill(_CHILDREN, children_url=lit(children_url(app, e)),
                           parent_doc=doc(app.entity(e.parent).name), **common))
    text = module(header, *chunks)
    used = [n for n in FIELDTYPE_NAMES if re.search(rf"(?<![\w.]){n}\b", text.split('"""', 2)[2])]
    csv_used = e.has("csv_export")
    return text.replace("@@fieldtypes@@", ", ".join(used)).replace(
        "@@std_imports@@\n", "import csv\nimport io\n" if csv_used else "").replace(
        "@@csv_import@@\n", "from fastapi.responses import StreamingResponse\n" if csv_used else "")


def _stamp_lines(e: Entity) -> str:
    """A date the workflow stamps: today's, when the status moves into its state and the request
    gives no date of its own."""
    lines = []
    for column, state in e.stamps:
        lines += [f'if values.get("status") == {lit(state)} != current["status"] and {lit(column)} not in values:',
                  f"    values[{lit(column)}] = calc_today().isoformat()"]
    return "\n".join(lines)


def _row_checks(app: AppModel, e: Entity) -> str:
    """Whole-record rules: an end after its start, then (under the write lock) no overlapping
    booking, a place's capacity."""
    slot = slot_of(e)
    lines = []
    if slot and slot.end != slot.start:
        lines += [f"start, end = row.get({lit(slot.start)}), row.get({lit(slot.end)})",
                  "if start is not None and end is not None and end <= start:",
                  f"    raise HTTPException(422, {lit(f'{slot.end} must be after {slot.start}')})"]
    lines += limit_lines(app, e)   # a value within the referenced record's bound (422)
    lines += lock_lines(app, e)   # before the reads of other records below
    if slot and e.has("no_double_booking"):
        same = "{" + ", ".join(f"{lit(k)}: row.get({lit(k)})" for k in slot.same) + "}"
        held = clash_states(e)
        holds = f" and (row.get(\"status\") or {lit(e.states[0])}) in {lit(held)}" if held else ""
        lines += [f"if row.get({lit(slot.start)}) is not None{holds} and TABLE.overlapping(",
                  f"        db, {same}, {lit(slot.start)}, {lit(slot.end)},",
                  f"        (row[{lit(slot.start)}], row.get({lit(slot.end)}) or row[{lit(slot.start)}]),"
                  f" row_id{', ' + lit(held) if held else ''}):",
                  f"    raise HTTPException(409, {lit(f'that {slot.label} is already booked')})"]
    return "\n".join(lines + capacity_lines(app, e))


def _field(c: Column, type_text: str, default: str | None) -> str:
    if c.needs_alias:
        extra = f"default={default}, " if default is not None else ""
        return f"    {c.attr}: {type_text} = Field({extra}alias={lit(c.ident)})"
    return f"    {c.attr}: {type_text}" + (f" = {default}" if default is not None else "")


def _models(e: Entity) -> str:
    create, update, out = [], [], ["    id: int"]
    if e.fk:
        create.append(f"    {e.fk}: RecordId")
        update.append(f"    {e.fk}: RecordId = None")
        out.append(f"    {e.fk}: int")
    for c in e.columns:
        required = c.entry.annotation(c.bounds, True)
        optional = c.entry.annotation(c.bounds, False)
        if c.required:
            create.append(_field(c, required, None))
            update.append(_field(c, required, "None"))  # may be omitted, never null
            out.append(_field(c, c.entry.out, None))
        else:
            create.append(_field(c, optional, "None"))
            update.append(_field(c, optional, "None"))
            out.append(_field(c, f"{c.entry.out} | None", "None"))
    more = assigned_fields(e)
    create, update, out = create + more[0], update + more[1], out + more[2]
    if e.has_status:
        update.append("    status: Status = None")
        out.append("    status: str")
    out.append("    created_at: str")
    out += computed_out_lines(e)
    name = doc(e.name)
    return module(
        _model(f"{e.camel}Create(Strict)", f"Body that creates a {name}", create),
        _model(f"{e.camel}Update(Strict)", f"Partial update of a {name}: omitted fields keep their value",
               update),
        _model(f"{e.camel}Out(BaseModel)", f"A stored {name}", out))


def _model(head: str, docstring: str, lines: list[str]) -> str:
    if not lines:
        return "\n".join([f"class {head}:", f'    """{docstring} (no fields)."""'])
    return "\n".join([f"class {head}:", f'    """{docstring}."""', "", *lines])
