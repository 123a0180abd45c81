"""The elements of a spec that count or total records per value of something (grouping_asks.py
reads them): an `aggregate` with `group_by` (a choice field or the status), a `status_counts` (per
status or choice value). Reads the finished spec only."""

from __future__ import annotations

from harness.models.spec import AppSpec


def groupings(spec: AppSpec) -> dict[str, str]:
    """label of what records are grouped by ("field expense.category", "entity category") -> the
    label of the element that groups by it."""
    out: dict[str, str] = {}
    names = {e.ident: e.name for e in spec.data_model}
    for feat in spec.features:
        e = next((x for x in spec.data_model if x.ident == feat.entity), None)
        if e is None:
            continue
        if feat.kind == "aggregate" and feat.options.get("group_by"):
            group = str(feat.options["group_by"])
            label = f"feature aggregate on {e.plural} grouped by {group}"
            for f in e.fields:
                if group in (f.ident, f.name):
                    out.setdefault(f"field {e.name}.{f.name}", label)
                    if f.ref:
                        out.setdefault(f"entity {names.get(f.ref, f.ref)}", label)
            if group == "status" and (e.workflow or e.has_status):
                out.setdefault(f"status {e.name}", label)
        if feat.kind == "status_counts":
            label = f"feature status_counts on {e.plural}"
            for f in e.fields:
                if f.enum_values and (not feat.fields or f.ident in feat.fields or f.name in feat.fields):
                    out.setdefault(f"field {e.name}.{f.name}", label)
            if e.workflow or e.has_status:
                out.setdefault(f"status {e.name}", label)
    return out
