"""Values compared: "Show products whose quantity is below the minimum quantity", "books with fewer
than 2 copies", "expenses over 100" (stranger trial 2026-12-07i O6). "below" was a function word and
"Show" framing, so the clause was reported built over a spec with nothing that compares (f12, k4:
BUILD COMPLETE, both products listed alike).

A word of `words/comparison_asks_en.txt` compares values when a field of the spec or a number stands
within a few words of it (a position word: "is below the minimum quantity"; a comparative before
"than": "fewer than 2 copies"). It is realised only by an element that compares (`comparers`):

- two fields compared ("quantity is below the minimum quantity"): a computed true/false value of the
  record whose expression compares them (`quantity < minimum_quantity`);
- a field compared with a number ("price over 100"): that, or a range filter, a bound, a limit or a
  capacity over the field;
- a number alone ("no more than 3 loans"): any such element of the records the clause names.

Otherwise the comparison word (and its "than") is unaccounted: `not built: "below"`. Reads the
clause's words, their labels and the finished spec only."""

from __future__ import annotations

import re
from dataclasses import dataclass

from harness.models.spec import AppSpec, kind_of_type
from harness.offline.accounting.clause_records import clause_records
from harness.offline.accounting.lexicon import closed, keyed_forms, stem, tokens

_FILE = "comparison_asks_en.txt"
_RANGED = ("integer", "decimal", "money", "rating", "date", "datetime")   # a range filter's kinds
_VALUES = ("field ", "computed ")
_NUMBER_WORDS = closed("small numbers") - {"one", "single"}   # "more than one X" asks for many, not a value
_LOOSE = ("function word", "request framing")
_EXPR_WORDS = frozenset({"and", "or", "not", "today", "days", "day", "weeks", "week"})


@dataclass(frozen=True)
class Comparer:
    """A spec element that compares values: its label, its record, the stems of what it compares,
    and whether it compares two fields of the record with each other (a computed value)."""

    label: str
    record: str
    stems: frozenset[str]
    two_fields: bool


def _stems(name: str) -> frozenset[str]:
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
                                    frozenset().union(*(_stems(i) for i in idents)) if idents else frozenset(), True))
        for f in e.fields:
            if f.min_value is not None or f.max_value is not None:
                out.append(Comparer(f"bound {e.name}.{f.name}", e.ident, _stems(f.name), False))
    for feat in spec.features:
        e = by_ident.get(feat.entity or "")
        if e is None:
            continue
        if feat.kind == "filter":
            kinds = {f.ident: f.kind or kind_of_type(f.type) for f in e.fields}
            names = {f.ident: f.name for f in e.fields}
            for ident in feat.fields or list(kinds):
                if kinds.get(ident) in _RANGED:
                    out.append(Comparer(f"range filter {e.plural} by {names[ident]}", e.ident, _stems(names[ident]), False))
        elif feat.kind in ("limit", "capacity"):
            said = [*feat.fields, str(feat.options.get("max", ""))]
            out.append(Comparer(f"{feat.kind} on {e.plural}", e.ident,
                                frozenset().union(*(_stems(s) for s in said if s)), False))
    return out


def _field_stems(label: str) -> frozenset[str]:
    """ "field product.minimum quantity" -> the stems of "minimum quantity"."""
    return _stems(label.split(".", 1)[1].split(" = ")[0]) if "." in label else frozenset()


def _values(low: list[str], labels: list[str | None], span: range) -> list[str]:
    """The values (field labels, or "number") said at the positions of `span`."""
    out = []
    for j in span:
        if (labels[j] or "").startswith(_VALUES):
            out.append(labels[j] or "")
        elif any(ch.isdigit() for ch in low[j]) or low[j] in _NUMBER_WORDS:
            out.append("number")
    return out


def comparison_asks(toks: list[str], labels: list[str | None], sw) -> None:
    """Label each comparison of values by the element that compares, or leave it unaccounted (in place)."""
    low = [t.lower() for t in toks]
    forms = keyed_forms(_FILE)
    loose = (*_LOOSE, sw.present.get("relation"))
    for k, w in enumerate(low):
        if w in forms["positions"]:
            span = [k]
        elif w in forms["comparatives"] and k + 1 < len(low) and low[k + 1] in forms["than"]:
            span = [k, k + 1]
        else:
            continue
        if any(labels[j] is not None and labels[j] not in loose for j in span):
            continue   # already realised by an element (a capacity's "more", a field named so)
        before = _values(low, labels, range(max(0, k - 3), k))
        after = _values(low, labels, range(span[-1] + 1, min(len(low), span[-1] + 5)))
        if not before and not after:
            continue   # "tasks under a project", "over time": no value compared
        label = _comparer(before, after, clause_records(toks, sw), sw.comparers)
        for j in span:
            labels[j] = label


def _comparer(before: list[str], after: list[str], about: frozenset[str], found: list[Comparer]) -> str | None:
    fields_before = [v for v in before if v != "number"]
    fields_after = [v for v in after if v != "number"]
    if fields_before and fields_after and fields_before[-1] != fields_after[0]:
        one, two = _field_stems(fields_before[-1]), _field_stems(fields_after[0])
        return next((c.label for c in found if c.two_fields and c.stems & one and c.stems & two
                     and (c.stems & one) != (c.stems & two)), None)
    fields = fields_before[-1:] + fields_after[:1]
    if fields:
        said = _field_stems(fields[0])
        return next((c.label for c in found if c.stems & said), None)
    return next((c.label for c in found if not about or c.record in about), None)
