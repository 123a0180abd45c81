"""The `period_summary` feature: GET /api/<plural>/summary?period=week|month|year — per period of
a date field, the number of records and the sums of the number fields (oldest period first), and
its generated test. The counting is RuleTable.summary (templates/models_py/rule_table.tmpl)."""

from __future__ import annotations

from harness.offline.generator.appmodel import Column, Entity
from harness.offline.generator.codegen import fill, lit
from harness.offline.generator.naming import field_ident
from harness.offline.generator.samples import sample
from harness.offline.generator.templates_dir import template

NUMBER_KINDS = ("money", "decimal", "integer", "rating")
_ROUTE = template("api_features/summary.tmpl")
_TEST = template("api_feature_tests/summary.tmpl")


def summary_of(e: Entity) -> tuple[Column, tuple[Column, ...]] | None:
    """(the date column, the summed columns) of the feature; None without it."""
    if not e.has("period_summary"):
        return None
    opts = e.feature("period_summary")
    dates = [c for c in e.plain if c.kind in ("date", "datetime")]
    wanted = field_ident(str(opts["date"])) if opts.get("date") else None
    date = next((c for c in dates if c.ident == wanted), dates[0] if dates else None)
    if date is None:
        return None
    numbers = [c for c in e.plain if c.kind in NUMBER_KINDS]
    chosen = [c for c in numbers if c.ident in (opts.get("fields") or [])]
    return date, tuple(chosen or numbers)


def summary_route(e: Entity, url: str, user: str, owner: str) -> str:
    found = summary_of(e)
    if found is None:
        return ""
    date, summed = found
    status = ", status: Status | None = None" if e.has_status else ""
    equals = '{"status": status} if status is not None else {}' if e.has_status else "{}"
    return fill(_ROUTE, summary_url=lit(url + "/summary"), user=user, owner=owner, status=status,
                date=lit(date.ident), columns=lit(tuple(c.ident for c in summed)), equals=equals,
                date_doc=date.label.replace('"', "'"))


def summary_test(e: Entity, mark: str) -> list[str]:
    found = summary_of(e)
    if found is None:
        return []
    date, summed = found
    day = (lambda d: d) if date.kind == "date" else (lambda d: d + "T10:00:00")
    values = [sample(c, 0) for c in summed]
    records = [{date.ident: day(d), **{c.ident: v for c, v in zip(summed, values)}}
               for d in ("2024-01-02", "2024-01-20", "2024-02-10")]
    sums = {c.ident: v for c, v in zip(summed, values)}
    month = [{"period": "2024-01", "count": 2, "sums": {k: v * 2 for k, v in sums.items()}},
             {"period": "2024-02", "count": 1, "sums": sums}]
    week = ["2024-W01", "2024-W03", "2024-W06"]
    return [fill(_TEST, marks=mark, ident=e.ident, records=lit(records), month=lit(month),
                 week=lit(week), year=lit([{"period": "2024", "count": 3}]))]
