"""A count or a total asked for per something, and a count of records (#48, stranger trial
2026-12-08j F2, F4).

- **"per <field or record>" of a total or a count** ("Show the total amount per category", "the
  number of expenses per category") is realised only by an element that groups by it: an
  `aggregate` with `group_by` that field (or the reference field to that record), a `status_counts`
  of that choice field or status (`groupings.py`). Before, "per" was a function word and "category"
  the field, so one grand total over every expense was reported built (m02). Otherwise "per" and
  what it names are unaccounted: `not built: "per category"`. A period ("per month") is the period
  summary's (status_states.per_day_asks, period fields), not this rule's.
- **"number of / count of <records>"** is realised only by an element that counts those records
  (a totals, counts-per-status or per-period summary feature of them, or the dashboard). Before,
  "number" met the kind of a money field (`kind of expense.amount`) and no count existed (n02).

Reads the clause's words and the spec's words only (words in `accounting_closed_en.txt`)."""

from __future__ import annotations

from harness.offline.accounting.lexicon import closed, stem

_HEADS = closed("grouping heads")
_PER = closed("grouping per")
_EACH_OPENERS = closed("grouping each openers")
_EACH = closed("grouping each")
_SKIP = closed("record determiners")
_COUNT_OF = closed("count of heads")
_COUNTING_KEYS = ("feature:status_counts", "feature:aggregate", "feature:period_summary")


def grouping_asks(toks: list[str], labels: list[str | None], sw) -> None:
    """Relabel in place: "number of X" by a count of X, "per Y" of a count or total by a grouping by Y."""
    low = [t.lower() for t in toks]
    _count_of(low, labels, sw)
    for i in range(1, len(low)):
        said = _per_at(low, i)
        if not said or not any(_is_head(low[j], labels[j]) for j in range(said[0])):
            continue
        k = said[-1] + 1
        while k < len(low) and low[k] in _SKIP:
            k += 1
        target = labels[k] if k < len(low) else None
        if not target or not target.startswith(("field ", "entity ", "status")):
            continue
        by = sw.groupings.get(target) or (target.startswith("status") and next(
            (v for key, v in sw.groupings.items() if key.startswith("status ")), None))
        for j in [*said, *range(said[-1] + 1, k + 1)]:
            labels[j] = by or None


def _per_at(low: list[str], i: int) -> list[int]:
    """The indices of "per" or "for each" / "in every" at i, or []."""
    if low[i] in _PER:
        return [i]
    if low[i] in _EACH and low[i - 1] in _EACH_OPENERS:
        return [i - 1, i]
    return []


def _is_head(word: str, label: str | None) -> bool:
    return word in _HEADS or (label or "").startswith(("feature aggregate", "feature status_counts"))


def _count_of(low: list[str], labels: list[str | None], sw) -> None:
    """ "the number of expenses": realised by a counting element of the expense records only."""
    for i in range(len(low) - 2):
        if low[i] not in _COUNT_OF or low[i + 1] != "of":
            continue
        k = i + 2
        while k < len(low) and low[k] in _SKIP:
            k += 1
        if k >= len(low) or not (labels[k] or "").startswith("entity ") or stem(low[k]) in sw.invented:
            continue   # a record no word introduces ("log the number of reps") is named by reject_invented
        ent = next((e for s, e in sw.entity_of.items() if sw.by_stem.get(s) == labels[k]), None)
        counted = next((sw.present[key] for key in _COUNTING_KEYS
                        if ent in sw.on_records.get(key, frozenset())), None) or sw.present.get("dashboard")
        labels[i] = labels[i + 1] = counted
