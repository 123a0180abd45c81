"""Black-box check of computed values: records made with known inputs (every date 30 days before,
then after, today) read back over HTTP — created, by id and in the list — with each computed value
equal to what the spec's expression gives for those inputs (computed_expr.evaluate, today's date)."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from harness.acceptance.client import Api, CheckFailed
from harness.acceptance.samples import kind_of
from harness.models.spec import DataEntity
from harness.constructs.computed_expr import evaluate, parse, shown
from harness.constructs.spec_computed import names_of

OFFSETS = (-30, 30)


def _inputs(api: Api, entity: DataEntity, offset: int, today: date) -> dict[str, Any]:
    """Every date field `offset` days from today (a later one 3 days later each), every number valid."""
    out: dict[str, Any] = {}
    dated = [f for f in entity.fields if kind_of(f) in ("date", "datetime")]
    for k, f in enumerate(dated):
        day = (today + timedelta(days=offset + 3 * k)).isoformat()
        out[f.ident] = day + "T10:00:00" if kind_of(f) == "datetime" else day
    return out


def _same(got: Any, want: Any) -> bool:
    if isinstance(want, float) or isinstance(got, float):
        return isinstance(got, (int, float)) and abs(got - want) <= 1e-9 * max(1.0, abs(want))
    return got == want


def computed_values_hold(api: Api, entity: DataEntity) -> str:
    who = api.account()
    names = names_of(entity.fields, bool(entity.workflow or entity.has_status))
    trees = []
    for name, text in entity.computed.items():
        trees.append((name, parse(text, names)))
        names[name] = trees[-1][1].type
    today = date.today()
    collection = api.collection(entity)
    for offset in OFFSETS:
        rec = api.create(entity, who, **_inputs(api, entity, offset, today))
        env = {**rec, "status": rec.get("status")}
        by_id = api.expect(api.call("GET", f"{collection}/{rec['id']}", who), 200, what=f"read a {entity.name}")
        listed = next((r for r in api.listed(collection, who, {"limit": 500}) if r.get("id") == rec["id"]), None)
        if listed is None:
            raise CheckFailed(f"the list does not show {entity.name} {rec['id']}")
        for name, tree in trees:
            env[name] = evaluate(tree, env, today)
            want = shown(env[name])
            for where, got in (("create", rec.get(name)), ("read", by_id.body.get(name)), ("list", listed.get(name))):
                if not _same(got, want):
                    raise CheckFailed(f"{name} of a {entity.name} with dates {offset:+d} days from today: "
                                      f"{where} answered {got!r}, the expression gives {want!r}")
    return f"{', '.join(n for n, _ in trees)} equal the expressions for records dated 30 days before and after today"
