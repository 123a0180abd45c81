"""The feature-registry parts of src/api_<entity>.py: the list route's search / filter / sort
parameters and the extra routes (CSV export, totals, counts). Each function is pure: entity in,
source text out."""

from __future__ import annotations

from dataclasses import dataclass

from harness.offline.features import LIST_ROUTE_PARAMS
from harness.offline.generator.api_access import owner_expr
from harness.offline.generator.appmodel import AppModel, Column, Entity, Slot
from harness.offline.generator.links import link_params
from harness.offline.generator.period_summary import summary_route
from harness.offline.generator.public_read import reader_param
from harness.offline.generator.codegen import fill, lit
from harness.offline.generator.templates_dir import template

EQUAL_KINDS = ("enum", "reference", "boolean")
TEXT_EQUAL_KINDS = ("short_text", "email", "phone", "url")   # exact value: ?location=Camden
TEXT_FILTER_MAX = 200
RANGE_KINDS = ("date", "datetime", "integer", "money", "decimal", "rating")
NUMBER_KINDS = ("money", "decimal", "integer", "rating")
# Query parameter names the list route uses itself; a column with one of these is not a filter.
_TAKEN = set(LIST_ROUTE_PARAMS)
_QUERY_TYPES = {"date": "Day", "datetime": "Moment", "integer": "Int64", "rating": "Int64",
                "money": "Number", "decimal": "Number", "boolean": "bool", "reference": "RecordId"}


@dataclass(frozen=True)
class Filter:
    column: str          # the query parameter's name (the column's JSON name)
    kind: str            # "equal", "text" (an exact text value) or "range"
    annotation: str      # the query parameter's type
    param: str = ""      # its Python name when that differs ("type" -> type_, via Query(alias=))

    @property
    def var(self) -> str:
        return self.param or self.column


def slot_of(e: Entity) -> Slot | None:
    return e.slot


def filters(e: Entity) -> list[Filter]:
    """The filter parameters of the list route (only with the `filter` feature)."""
    if not e.has("filter"):
        return []
    wanted = set(e.feature("filter").get("fields") or [])
    out = []
    if e.has_status and (not wanted or "status" in wanted):
        out.append(Filter("status", "equal", "Status"))
    if e.fk and (not wanted or e.fk in wanted):
        out.append(Filter(e.fk, "equal", "RecordId"))
    for c in e.columns:
        if c.ident in _TAKEN or (wanted and c.ident not in wanted):
            continue
        param = c.attr if c.needs_alias else ""
        if c.kind == "enum":
            out.append(Filter(c.ident, "equal", c.entry.annotation(c.bounds, True), param))
        elif c.kind in EQUAL_KINDS:
            out.append(Filter(c.ident, "equal", _QUERY_TYPES[c.kind], param))
        elif c.kind in RANGE_KINDS:
            out.append(Filter(c.ident, "range", _QUERY_TYPES[c.kind], param))
        elif c.kind in TEXT_EQUAL_KINDS:
            out.append(Filter(c.ident, "text", "str", param))
    return out


def _names(e: Entity) -> set[str]:
    """Every name the entity's list route could take as a query parameter (its own and its columns')."""
    columns = {c.ident for c in e.columns} | ({e.fk} if e.fk else set()) | set(e.many) | {"status"}
    return _TAKEN | columns | {f"{c}_{end}" for c in columns for end in ("min", "max")}


def unknown_query_name(e: Entity) -> str:
    """A query parameter the entity's list route does not take (a filter by colour, say)."""
    return "colour" if "colour" not in _names(e) else "not_a_parameter"


def misspelt(e: Entity, column: str) -> str:
    """`column` misspelt (its last two letters swapped, "category" -> "categoyr"): no parameter."""
    typo = column[:-2] + column[-1] + column[-2] if len(column) > 1 else column + column
    return typo if typo not in _names(e) else typo + "_x"


def sort_keys(e: Entity) -> list[str]:
    keys = ["id", *([e.fk] if e.fk else []), *(c.ident for c in e.columns)]
    return keys + (["status"] if e.has_status else []) + ["created_at"]


def list_params(app: AppModel, e: Entity) -> tuple[str, str]:
    """(parameters, body) of list_items."""
    params = ["db: Db"] + ([reader_param(app, e)[2:]] if app.auth else []) + [
        "limit: Limit = 100", "offset: Offset = 0"]
    owner = owner_expr(app)
    if not (e.has("search") or e.has("filter") or e.has("sort") or e.many):
        return ", ".join(params), f"return TABLE.rows(db, {owner}, limit, offset)"
    args = []
    if e.has("search"):
        params.append("q: Annotated[str | None, Query(max_length=200)] = None")
        args.append("q=q")
    newest = e.newest_key
    if e.has("sort"):   # newest_first: the default order is the newest first
        keys = ", ".join(lit(k) for k in sort_keys(e))
        params += [f"sort: Literal[{keys}] = {lit(newest or 'id')}",
                   'order: Literal["asc", "desc"] = ' + ('"desc"' if newest else '"asc"')]
        args += ["sort=sort", "order=order"]
    elif newest:
        args += [f"sort={lit(newest)}", 'order="desc"']
    more, equal = link_params(e)   # ?<linked entity>=<id>: the table reads it as a link
    params += more
    ranges: list[str] = []
    for f in filters(e):
        if f.kind == "text":
            alias = f", alias={lit(f.column)}" if f.param else ""
            params.append(f"{f.var}: Annotated[str | None, Query(max_length={TEXT_FILTER_MAX}{alias})] = None")
            equal.append(f"{lit(f.column)}: {f.var}")
        elif f.kind == "equal" and f.param:
            params.append(f"{f.var}: Annotated[{f.annotation} | None, Query(alias={lit(f.column)})] = None")
            equal.append(f"{lit(f.column)}: {f.var}")
        elif f.kind == "equal":
            params.append(f"{f.column}: {f.annotation} | None = None")
            equal.append(f"{lit(f.column)}: {f.column}")
        else:   # "<column>_min" is a safe Python name even when the column's name is not
            params += [f"{f.column}_min: {f.annotation} | None = None",
                       f"{f.column}_max: {f.annotation} | None = None"]
            ranges.append(f"{lit(f.column)}: (iso({f.column}_min), iso({f.column}_max))")
    body = []
    if equal:
        body.append("equals = {key: iso(value) for key, value in {" + ", ".join(equal)
                    + "}.items() if value is not None}")
        args.append("equals=equals")
    if ranges:
        body.append("ranges = {" + ", ".join(ranges) + "}")
        args.append("ranges=ranges")
    args += ["limit=limit", "offset=offset"]
    body.append(f"return TABLE.query(db, {owner}, " + ", ".join(args) + ")")
    return ",\n              ".join(params), "\n".join(body)


_EXPORT = template("api_features/export.tmpl")

_TOTALS = template("api_features/totals.tmpl")

_COUNTS = template("api_features/counts.tmpl")


def totals_of(e: Entity) -> tuple[tuple[str, ...], str | None]:
    """(summed columns, group-by column) of the `aggregate` feature."""
    opts = e.feature("aggregate")
    numbers = [c for c in e.columns if c.kind in NUMBER_KINDS]
    wanted = [f for f in opts.get("fields") or [] if any(c.ident == f for c in numbers)]
    money = [c.ident for c in numbers if c.kind == "money"]
    summed = tuple(wanted or money or [c.ident for c in numbers])
    group = opts.get("group_by")
    enums = [c.ident for c in e.columns if c.kind == "enum"]
    group = group if group in enums or (group == "status" and e.has_status) else (
        enums[0] if enums else None)
    return summed, group


def counted_column(e: Entity) -> Column | None:
    """The enum column `status_counts` counts when the entity has no status."""
    return next((c for c in e.columns if c.kind == "enum"), None)


def feature_chunks(app: AppModel, e: Entity) -> str:
    """Routes of the entity's features; they go before /{item_id} so their paths win."""
    url = f"/api/{e.slug}"
    common = {"reader": reader_param(app, e), "owner": owner_expr(app)}
    chunks = []
    if e.has("csv_export"):
        chunks.append(f"CSV_COLUMNS = {lit(tuple(sort_keys(e)))}")
        chunks.append(fill(_EXPORT, export_url=lit(url + "/export.csv"),
                           disposition=lit(f'attachment; filename="{e.slug}.csv"'), **common))
    if e.has("aggregate"):
        summed, group = totals_of(e)
        chunks.append(f"TOTAL_COLUMNS = {lit(summed)}")
        chunks.append(fill(_TOTALS, totals_url=lit(url + "/totals"), group_by=lit(group),
                           group_doc=f', "groups": {{{group} value: the same}}' if group else "",
                           **common))
    if e.has("period_summary"):
        chunks.append(summary_route(e, url, common["reader"], common["owner"]))
    if e.has("status_counts"):
        column = "status" if e.has_status else counted_column(e).ident
        values = e.states if e.has_status else counted_column(e).values
        body = (f"return TABLE.status_counts(db, {common['owner']})" if e.has_status else
                f"groups = TABLE.totals(db, {common['owner']}, (), {lit(column)}).get(\"groups\", {{}})\n"
                f"return {{value: groups.get(value, {{}}).get(\"count\", 0) for value in {lit(values)}}}")
        chunks.append(fill(_COUNTS, counts_url=lit(url + "/counts"), counted=column,
                           counts_body=body, **common))
    return "\n\n\n".join(c.strip("\n") for c in chunks) + ("\n\n" if chunks else "")
