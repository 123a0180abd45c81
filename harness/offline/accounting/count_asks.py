"""A count asked for: "Show how many tasks are in each status", "how much I spent" (acct48, a
held-out phrasing of D4). "how", "many" and "much" are function words and "show" framing, so the
clause was reported built over a spec that counts nothing. "how many" / "how much" is realised only
by an element that counts or sums — a counts-per-status, totals or per-period summary feature, or
the dashboard — or, when a field of the spec follows it ("record how many reps I did"), by that
field: the count is a value the user enters. Otherwise both words are unaccounted."""

from __future__ import annotations

from harness.offline.accounting.lexicon import closed

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
