"""A count asked for: "Show how many tasks are in each status", "how much I spent" (acct48, a
held-out phrasing of D4). "how", "many" and "much" are function words and "show" framing, so the
clause was reported built over a spec that counts nothing. "how many" / "how much" is realised only
by an element that counts or sums — a counts-per-status, totals or per-period summary feature, or
the dashboard — or, when a field of the spec follows it ("record how many reps I did"), by that
field: the count is a value the user enters. Otherwise both words are unaccounted.

An average of other records ("Each book shows the average rating of its reviews", stranger trial
2026-12-08k B14) is computed from them: "average" / "mean" followed by "of its/their/the <records>"
is realised only by a counting element (totals, a summary, the dashboard), never by a stored field
named "average rating" that anyone may set (that was a false BUILD COMPLETE)."""

from __future__ import annotations

from harness.offline.accounting.lexicon import closed, stem

COUNTING = ("feature:status_counts", "feature:aggregate", "feature:period_summary", "dashboard")
_ASKS = closed("count asks")


def count_asks(toks: list[str], labels: list[str | None], sw) -> None:
    """Label "how many/much" by the spec's counting element, or leave it unaccounted (in place)."""
    low = [t.lower() for t in toks]
    counter = next((sw.present[k] for k in COUNTING if k in sw.present), None)
    for i in range(len(low) - 1):
        if low[i] != "how" or low[i + 1] not in _ASKS:
            continue
        entered = next((lab for lab in labels[i + 2:i + 4] if lab and lab.startswith("field")), None)
        label = entered or counter
        labels[i] = labels[i + 1] = label


def average_asks(toks: list[str], labels: list[str | None], sw) -> None:
    """Leave "average of its <records>" unaccounted unless a counting element realises it (in place)."""
    low = [t.lower() for t in toks]
    counter = next((sw.present[k] for k in COUNTING if k in sw.present), None)
    for i, w in enumerate(low):
        if w not in closed("average words") or not (labels[i] or "").startswith("field"):
            continue
        rest = low[i + 1:i + 6]
        if "of" in rest and any(sw.entity_of.get(stem(r)) for r in rest[rest.index("of") + 1:]):
            labels[i] = counter
