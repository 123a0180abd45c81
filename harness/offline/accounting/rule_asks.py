"""Words that state a rule over records are realised only by the spec element that enforces it
(stranger trial 2026-12-07h, c20/c21/c17/c23):

- **uniqueness** ("unique", "duplicate", "no two … the same …"): by a field the spec makes
  `unique` (the app answers 409 for a second record with the value); a field word of the clause
  that is not unique is unaccounted, and so are the words saying it;
- **a most number** ("at most one", "no more than 3", "up to two", "only one … per …"): by an
  element that holds the number (a capacity's limit, a bound); else the words are unaccounted;
- **the period of a most number** ("at most 2 bookings per day", trial 2026-12-07i O7): by a
  capacity of the clause's records whose place includes a date field (per room and day); a week,
  month, year or hour by nothing — before, "day" met the date field's kind and "at most 2 ever" was
  reported built;
- **a verb of the closed lists** ("can like posts", "to love a song", "can want books"): a word of
  the function or framing lists used as the clause's verb — after a modal or "to", with a record as
  its object — is realised by nothing of those lists: it stays unaccounted unless a spec element
  realises it;
- **a record's listed field** ("members with a name and a username"): a word of the list after
  "<record> with" that only the login realises is unaccounted — the login's username is not a
  field of the record.

Reads the clause's words and the spec's labels only."""

from __future__ import annotations

from harness.offline.accounting.elements import SpecWords
from harness.offline.accounting.lexicon import closed, closed_phrases, keyed_words, stem

UNIQUE_WORDS = closed("unique words")
_NEGATION = closed("rule negations")
_NUMBERS = closed("small numbers")
# Before the number: "at most", "no more than", "up to", "maximum (of)", "only".
_MOST = closed_phrases("at most phrases")
_MODALS = closed("rule modals")
_OBJECT_SKIP = closed("rule object determiners")
_NOTHING = frozenset({"function word", "request framing", "who uses it (actor)"})


def rule_asks(toks: list[str], labels: list[str | None], sw: SpecWords) -> None:
    """Relabel `labels` in place (see the module's docstring)."""
    low = [t.lower().replace("’", "'") for t in toks]
    _uniqueness(low, labels, sw)
    _most_number(low, labels)
    _most_period(low, labels, sw)
    _list_verbs(low, labels, sw)
    _listed_fields(low, labels, sw)


def _uniqueness(low: list[str], labels: list[str | None], sw: SpecWords) -> None:
    markers = [k for k, w in enumerate(low) if w in UNIQUE_WORDS and not (k and low[k - 1] in ("not", "non"))]
    if "same" in low and any(w in _NEGATION for w in low[:low.index("same")]):
        same = low.index("same")
        markers.append(same)
        markers.extend(k for k in range(same) if low[k] in _NEGATION or low[k] == "two")
    if not markers:
        return
    fields = {labels[k] for k in range(len(low)) if (labels[k] or "").startswith("field ")}
    loose = fields - sw.unique
    for k in range(len(low)):
        if labels[k] in loose:
            labels[k] = None
    said = "unique " + ", ".join(sorted(f[len("field "):] for f in fields)) if fields and not loose else None
    for k in markers:
        labels[k] = said


def _most_number(low: list[str], labels: list[str | None]) -> None:
    for k, w in enumerate(low):
        if not (w in _NUMBERS or w.isdigit()):
            continue
        before = next((m for m in _MOST if tuple(low[max(0, k - len(m)):k]) == m and k >= len(m)), None)
        if before is None:
            continue
        if before in (("only",), ("just",)) and not _per_record(low, k, labels):
            continue   # "only one person uses it": no limit over records
        if labels[k] and labels[k] not in _NOTHING:
            continue   # a capacity's limit or a bound realises it
        for j in range(k - len(before), k + 1):
            labels[j] = None


_PERIOD_OPENERS = closed("period openers")
_DAYS = closed("day periods")
_PERIODS = _DAYS | closed("other periods")
_PERIOD_ADVERBS = closed("period adverbs")


def _most_period(low: list[str], labels: list[str | None], sw: SpecWords) -> None:
    """ "at most 2 bookings per day": the period after a most number is the capacity's date."""
    numbers = [k for k, w in enumerate(low) if (w in _NUMBERS or w.isdigit())
               and any(tuple(low[max(0, k - len(m)):k]) == m and k >= len(m) for m in _MOST)]
    if not numbers:
        return
    records = {labels[j][len("entity "):] for j in range(len(low)) if (labels[j] or "").startswith("entity ")}
    dated = next((lab for ident, lab in sw.dated_capacity.items()
                  if not records or any(ident == r or ident == r.replace(" ", "_") for r in records)), None)
    for k in range(numbers[0] + 1, len(low)):
        if low[k] in _PERIODS and (low[k] in _PERIOD_ADVERBS or low[k - 1] in _PERIOD_OPENERS):
            said = dated if low[k] in _DAYS else None
            labels[k] = said
            if low[k - 1] in _PERIOD_OPENERS:
                labels[k - 1] = said


def _per_record(low: list[str], k: int, labels: list[str | None]) -> bool:
    """ "only one profile", "only one … per user": the number counts records."""
    nxt = [labels[j] or "" for j in range(k + 1, min(len(low), k + 3))]
    return any(lab.startswith("entity") for lab in nxt) or bool({"per", "each"} & set(low[k + 1:]))


def _list_verbs(low: list[str], labels: list[str | None], sw: SpecWords) -> None:
    kinds = keyed_words("list_verbs_en.txt")
    for k in range(1, len(low)):
        s = stem(low[k])
        if low[k - 1] not in _MODALS or labels[k] not in _NOTHING or not {s} & (kinds["asks"] | kinds["crud"]):
            continue
        j = k + 1
        while j < len(low) and low[j] in _OBJECT_SKIP:
            j += 1
        if j < len(low) and (labels[j] or "").startswith("entity"):
            if s in kinds["asks"]:
                labels[k] = None
            elif "crud" in sw.present:
                labels[k] = sw.present["crud"]


_LIST_END = closed("list ends")


# The login's values that are also a record's values ("a name and a password"); not "login", "account".
_LOGIN_VALUES = closed("login values")


def _listed_fields(low: list[str], labels: list[str | None], sw: SpecWords) -> None:
    auth = sw.present.get("auth")
    if not auth:
        return
    for k in range(1, len(low)):
        if low[k] != "with" or not (labels[k - 1] or "").startswith("entity"):
            continue
        j = k + 1
        while j < len(low) and low[j] not in _LIST_END:
            if labels[j] == auth and low[j] in _LOGIN_VALUES:
                labels[j] = None   # "members with a name and a username": the login is no field
            j += 1
