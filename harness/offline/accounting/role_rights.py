"""Who may do what to a record, as a clause says it, against the rights the spec gives (#48,
stranger trial 2026-12-07e, F3).

`manage = "<role>"` is the spec language's only per-role write rule, and it is all or nothing: that
role alone adds, changes and deletes the records, and the others see none of them. So

- **a restriction** "only <role> can <verbs> <records>" is realised by `manage` only when what it
  restricts includes adding (or managing): with adding restricted, nobody else has a record of their
  own to change. "Only admins can delete recipes" restricts deleting alone; `manage` would also stop
  members adding, and nothing else in the spec says it, so "Only", the role and the verbs are
  unaccounted (before, the draft set `manage = "admin"`, the clause was reported built and a
  member's POST was 403);
- **a right given to ordinary accounts** — "Users can add recipes", "Members can edit recipes",
  "allow customers to view the menu" — is realised only when an ordinary account holds it: a change
  verb over a record another role manages, or a reading verb over one that is managed and not
  shared, is unaccounted (before, "Users can add recipes" was credited to a CRUD requirement whose
  checks ran as the admin).

Reads the clause's words and the spec's words only (SpecWords).
"""

from __future__ import annotations

from harness.offline.accounting.clause_records import clause_records
from harness.offline.accounting.elements import SpecWords
from harness.offline.accounting.lexicon import closed, closed_stems, stem, word_list

_GROUPS = {group: closed(f"rights {group}") for group in ("add", "change", "delete", "manage", "see")}
_VERB = {stem(w): group for group, words in _GROUPS.items() for w in words}
_DETS = closed("rights determiners")
_MODAL = closed("rights modals")
_LETS = closed("lets")
# Who an ordinary account is: the people words of a request (a role ranked above them is named)
_PEOPLE = closed_stems("rights people")
# Where what the subject may do ends ("Users can add recipes, but only admins delete them").
_BOUNDARY = closed("rights boundary")


def role_rights(toks: list[str], labels: list[str | None], sw: SpecWords) -> None:
    """Relabel in place: a restriction to a role, or a right of ordinary accounts, that the spec's
    access rules do not give is unaccounted."""
    records = clause_records(toks, sw)
    if not records:
        return
    low = [t.lower() for t in toks]
    for k, word in enumerate(low):
        if word == "only":   # without login nothing restricts anyone: never realised
            _restriction(low, k, labels, sw, records)
    if "auth" in sw.present:   # without login every record is everyone's
        _ordinary_subject(low, labels, sw, records)


def _is_role(word: str, sw: SpecWords) -> bool:
    s = stem(word)
    return s in {stem(r) for r in sw.roles} or s in word_list("asks_en.txt") and s not in {stem("role"), stem("roles")}


def _verbs(low: list[str], start: int) -> list[tuple[int, str]]:
    """The verbs from `start` to the next boundary, with their groups."""
    out = []
    for j in range(start, len(low)):
        if low[j] in _BOUNDARY or low[j] in (";", "."):
            break
        group = _VERB.get(stem(low[j]))
        if group:
            out.append((j, group))
    return out


def _restriction(low: list[str], k: int, labels: list[str | None], sw: SpecWords, records: frozenset[str]) -> None:
    """ "only (the) <role> can <verbs>": realised by `manage` by that role (or the admin role) of every
    record named, when adding or managing is among the verbs."""
    j = k + 1
    while j < len(low) and low[j] in _DETS:
        j += 1
    who = []
    while j < len(low) and _is_role(low[j], sw):
        who.append(j)
        j += 1
    if not who:
        return
    verbs = [(v, g) for v, g in _verbs(low, j) if g != "see"]
    if not verbs:
        return
    said = {stem(low[w]) for w in who}
    groups = {g for _v, g in verbs}
    managed = all(sw.manage_of.get(r) and ({stem(sw.manage_of[r])} | {stem(sw.roles[0])}) & said for r in records)
    if managed and groups & {"add", "manage"}:
        return
    for i in [k, *who, *(v for v, _g in verbs)]:
        labels[i] = None


def _subject(low: list[str]) -> tuple[range, int] | None:
    """The subject before a modal at the clause start, or after "allow … to": its span and where
    what it may do starts."""
    spans = subject_spans(low, _DETS)
    return spans[0] if spans else None


def subject_spans(low: list[str], dets: frozenset[str]) -> list[tuple[range, int]]:
    """Who may do something, in order: the subject before a modal at the clause start ("The gym
    can …"), then the object of each "allow/let/enable … to"; each span with the index where what
    it may do starts. `dets`: the determiners skipped before a subject."""
    spans = []
    k = 0
    while k < len(low) and low[k] in dets:
        k += 1
    end = k
    while end < len(low) and end - k < 3 and low[end] not in _MODAL:
        end += 1
    if end < len(low) and low[end] in _MODAL and end > k:
        spans.append((range(k, end), end + 1))
    for j, w in enumerate(low):
        if w in _LETS:
            s = j + 1
            while s < len(low) and low[s] in dets:
                s += 1
            e = s
            while e < len(low) and e - s < 3 and low[e] != "to":
                e += 1
            if e < len(low) and low[e] == "to" and e > s:
                spans.append((range(s, e), e + 1))
    return spans


def _ordinary_subject(low: list[str], labels: list[str | None], sw: SpecWords, records: frozenset[str]) -> None:
    """ "Users can add recipes" over recipes another role manages: the verbs the ordinary accounts
    cannot do are unaccounted."""
    found = _subject(low)
    if found is None:
        return
    span, start = found
    ordinary = stem(sw.roles[-1]) if sw.roles else ""
    names = {stem(low[i]) for i in span}
    if not names & (_PEOPLE | {ordinary}) or any(_is_role(low[i], sw) and stem(low[i]) != ordinary for i in span):
        return   # no ordinary account, or a ranked role ("Teachers can add …", "Admins can …")
    shared = sw.on_records.get("access:shared", frozenset())
    managed = {r for r in records if r in sw.manage_of and stem(sw.manage_of[r]) != ordinary}
    if not managed:
        return
    for v, group in _verbs(low, start):
        if group != "see" or managed - shared:
            labels[v] = None
