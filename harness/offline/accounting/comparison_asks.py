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

from harness.offline.accounting.clause_records import clause_records
from harness.offline.accounting.comparers import Comparer, stems_of
from harness.offline.accounting.lexicon import closed, keyed_forms

_FILE = "comparison_asks_en.txt"
_VALUES = ("field ", "computed ")
_NUMBER_WORDS = closed("small numbers") - {"one", "single"}   # "more than one X" asks for many, not a value
_LOOSE = ("function word", "request framing")


def _field_stems(label: str) -> frozenset[str]:
    """ "field product.minimum quantity" -> the stems of "minimum quantity"."""
    return stems_of(label.split(".", 1)[1].split(" = ")[0]) if "." in label else frozenset()


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
