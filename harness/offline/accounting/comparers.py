"""The elements of a spec that compare values (comparison_asks.py reads them): a computed value
whose expression compares, a bounded field, a range filter, a limit or a capacity. Reads the finished
spec only."""

from __future__ import annotations

import re
from dataclasses import dataclass

from harness.models.spec import AppSpec, kind_of_type
from harness.offline.accounting.lexicon import closed, stem, tokens

_RANGED = ("integer", "decimal", "money", "rating", "date", "datetime")   # a range filter's kinds
_EXPR_WORDS = closed("expression words")


@dataclass(frozen=True)
class Comparer:
    """A spec element that compares values: its label, its record, the stems of what it compares,
    and whether it compares two fields of the record with each other (a computed value)."""

    label: str
    record: str
    stems: frozenset[str]
    two_fields: bool


def stems_of(name: str) -> frozenset[str]:
    return frozenset(stem(p) for t in tokens(name.replace("_", " ")) for p in [t.lower()] if p)


def comparers(spec: AppSpec) -> list[Comparer]:
    """Every element of the spec that compares values."""
    out: list[Comparer] = []
    by_ident = {e.ident: e for e in spec.data_model}
    for e in spec.data_model:
        for name, expr in e.computed.items():
            if re.search(r"[<>]", expr):
                idents = set(re.findall(r"[a-z_][a-z0-9_]*", expr)) - _EXPR_WORDS
                out.append(Comparer(f"computed {e.name}.{name} = {expr}", e.ident,
                                    frozenset().union(*(stems_of(i) for i in idents)) if idents else frozenset(), True))
        for f in e.fields:
            if f.min_value is not None or f.max_value is not None:
                out.append(Comparer(f"bound {e.name}.{f.name}", e.ident, stems_of(f.name), False))
    for feat in spec.features:
        e = by_ident.get(feat.entity or "")
        if e is None:
            continue
        if feat.kind == "filter":
            kinds = {f.ident: f.kind or kind_of_type(f.type) for f in e.fields}
            names = {f.ident: f.name for f in e.fields}
            for ident in feat.fields or list(kinds):
                if kinds.get(ident) in _RANGED:
                    out.append(Comparer(f"range filter {e.plural} by {names[ident]}", e.ident, stems_of(names[ident]), False))
        elif feat.kind in ("limit", "capacity"):
            said = [*feat.fields, str(feat.options.get("max", ""))]
            out.append(Comparer(f"{feat.kind} on {e.plural}", e.ident,
                                frozenset().union(*(stems_of(s) for s in said if s)), False))
    return out
