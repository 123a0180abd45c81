"""Lists of records in a clause (#48, trial 2026-12-07 S1/S3): what a clause says of a list of
records holds for every record of the list, or the clause is not built.

- A feature, record tool, access key or status said of a list ("search for customers & tickets",
  "export tasks and notes", "customers and tickets can be searched") is realised only when every
  record of the list has it; else the word and the records without it are unaccounted
  (`not built: "search", "tickets"`). Before, the search of customers alone realised "search" and the
  clause was reported built over tickets without a search.
- An item of a list whose other items are the spec's records is a record too ("keep track of
  services, registered animals, and their owners"): a framing word there ("services", "tools",
  "systems") names a record the spec lacks, so it is unaccounted. Before, "services" was request
  framing and the clause was reported built with no service record.

Reads the clause's words, the separators between them and the spec's words (SpecWords) only.
"""

from __future__ import annotations

from harness.offline.accounting.clause_records import entity_at
from harness.offline.accounting.elements import SpecWords
from harness.offline.accounting.lexicon import closed, stem

FRAMING = "request framing"
_SKIP = closed("list determiners")
# Between a feature word and the records it is said of: "search for customers", "sorting of tasks".
_TO_RECORDS = closed("to records")
_AND = closed("list conjunctions")
_PREPOSITIONS = _TO_RECORDS | closed("more prepositions")
_BE = closed("be forms")


def _separated(toks: list[str], gaps: list[str], k: int) -> int:
    """How many words at k separate list items (",", "&", "/" before k count as one, "and"/"or" as
    one word): the index of the next item's first word, or -1 when k starts no new item."""
    sep = any(ch in gaps[k] for ch in ",&/+") if k < len(gaps) else False
    j = k
    while j < len(toks) and toks[j].lower() in _AND:
        sep, j = True, j + 1
    return j if sep else -1


def records_after(toks: list[str], gaps: list[str], i: int, sw: SpecWords) -> list[int]:
    """The indices of the record words of the list said right after word i ("search for customers
    & tickets": customers, tickets), over other feature words coordinated with it ("sort and filter
    tasks")."""
    k = i + 1
    while k < len(toks) and (toks[k].lower() in _TO_RECORDS or toks[k].lower() in _SKIP or toks[k].lower() in _AND
                             or sw.keyed_key.get(stem(toks[k].lower()), "").startswith("feature:")):
        k += 1   # "sort and filter tasks and notes": both features are said of the list
    out: list[int] = []
    while k < len(toks) and entity_at(toks, k, sw):
        out.append(k)
        nxt = _separated(toks, gaps, k + 1)
        if nxt < 0:
            break
        k = nxt
        while k < len(toks) and toks[k].lower() in _SKIP:
            k += 1
    return out


def _records_before(toks: list[str], i: int, sw: SpecWords) -> list[int]:
    """ "Customers and tickets can be searched", "tickets are sortable": the records named before a
    passive or -able feature word."""
    low = toks[i].lower()
    if not (low.endswith("able") or i and toks[i - 1].lower() in _BE):
        return []
    return [k for k in range(i) if entity_at(toks, k, sw)]


def per_record_scope(toks: list[str], gaps: list[str], labels: list[str | None], sw: SpecWords) -> None:
    """Relabel in place: a per-record element's word said of records that lack the element is
    unaccounted, and so are those records' words."""
    for i, label in enumerate(list(labels)):
        s = stem(toks[i].lower())
        key = sw.keyed_key.get(s)
        if not label or key is None or label != sw.keyed.get(s) or not sw.on_records.get(key):
            continue
        targets = records_after(toks, gaps, i, sw) or _records_before(toks, i, sw)
        lacking = [k for k in targets if entity_at(toks, k, sw) not in sw.on_records[key]]
        if lacking:
            labels[i] = None
            for k in lacking:
                labels[k] = None


def _items(toks: list[str], gaps: list[str]) -> list[tuple[int, int]]:
    """The clause cut at list separators: (start, end) of each part."""
    out, start, k = [], 0, 1
    while k < len(toks):
        nxt = _separated(toks, gaps, k)
        if nxt >= 0:
            out.append((start, k))
            start, k = nxt, nxt + 1
            continue
        k += 1
    out.append((start, len(toks)))
    return [(a, b) for a, b in out if b > a]


def _bare_head(toks: list[str], labels: list[str | None], a: int, b: int, first: bool) -> int:
    """The head word (the last) of a part that is a noun phrase — determiners, adjectives and
    participles before one word ("their owners", "registered animals"; never a verb such as "view
    customers") — or -1. The first part may open with anything up to a preposition or a verb
    ("keep track of services", "the app tracks services")."""
    cut = next((k for k in range(a + 1, b) if toks[k].lower() in _PREPOSITIONS), b) if not first else b
    if cut < b and all(w.lower() in _SKIP or w.lower().endswith("ed") and len(w) > 4 for w in toks[a:cut - 1]):
        b = cut   # "registered animals for appointments": the head is before the preposition
    j = b - 2
    while j >= a and _modifier(toks[j], labels[j]):
        j -= 1
    if j < a or first and (toks[j].lower() in _PREPOSITIONS or labels[j] == FRAMING
                           or (labels[j] or "").startswith("crud ")):
        return b - 1
    return -1


def _modifier(tok: str, label: str | None) -> bool:
    """A word that may stand before a noun inside a noun phrase: a determiner, a participle
    ("registered"), or a word no verb list holds."""
    low = tok.lower()
    if low in _SKIP or low.endswith("ed") and len(low) > 4:
        return True
    return label is None or label.startswith(("entity ", "field "))


def list_items(toks: list[str], gaps: list[str], labels: list[str | None], sw: SpecWords) -> None:
    """Relabel in place: a framing word heading an item of a list of the spec's records names a
    record the spec lacks."""
    parts = _items(toks, gaps)
    heads = [_bare_head(toks, labels, a, b, n == 0) for n, (a, b) in enumerate(parts)]
    run: list[int] = []
    for head in heads + [-1]:
        if head >= 0:
            run.append(head)
            continue
        if len(run) > 1 and any(entity_at(toks, k, sw) and (labels[k] or "").startswith("entity") for k in run):
            for k in run:
                if labels[k] == FRAMING:
                    labels[k] = None
        run = []
