"""Words a spec element realises by their place in the clause (acct48b; the under-claims D7 of the
stranger trial 2026-12-07e: "remove a plant from my collection" was not built naming "collection"
while DELETE /api/plants/1 removed it). Each rule credits a word only where the element truly
realises it (words/record_sets_en.txt):

- a user's set of records ("from my collection", "to my library") after a create/delete verb and one
  of the spec's records: the records themselves, realised by the crud;
- "read" in a list of crud verbs ("Create, Read, Update and Delete"): the crud's reading;
- "current"/"currently" right before a word a field, choice value or state realises ("currently
  available"): that element, whose stored value is the present one.

Elsewhere the words stay unaccounted: "the same book is not already in the library" asks for a
uniqueness the spec may not have, "want to read" a reading status.
"""

from __future__ import annotations

from harness.offline.accounting.lexicon import closed, keyed_words, stem

_FILE = "record_sets_en.txt"
_SKIP = closed("record set determiners")
_ELEMENTS = ("field ", "enum ", "workflow ", "status of ")


def _is(word: str, key: str) -> bool:
    return stem(word.lower()) in keyed_words(_FILE).get(key, frozenset())


def record_sets(toks: list[str], gaps: list[str], labels: list[str | None], sw) -> None:
    """Credit the words of `toks` these places make realised (see the module doc)."""
    low = [t.lower() for t in toks]
    crud = sw.present.get("crud")
    for i, word in enumerate(low):
        if labels[i] is not None:
            continue
        if crud and _is(word, "collections") and _set_place(low, i, sw):
            labels[i] = crud
        elif crud and _is(word, "read_words") and _in_verb_list(low, gaps, i):
            labels[i] = crud
        elif _is(word, "now_words") and i + 1 < len(low) and (labels[i + 1] or "").startswith(_ELEMENTS):
            labels[i] = labels[i + 1]


def _set_place(low: list[str], i: int, sw) -> bool:
    """ "<verb> <det>* <record> to/from <my> <collection>"."""
    if i < 4 or not _is(low[i - 1], "set_owners") or not _is(low[i - 2], "set_preps"):
        return False
    k = i - 3
    if not (sw.by_stem.get(stem(low[k]), "")).startswith("entity "):
        return False
    k -= 1
    while k >= 0 and low[k] in _SKIP:
        k -= 1
    return k >= 0 and _is(low[k], "set_verbs")


def _in_verb_list(low: list[str], gaps: list[str], i: int) -> bool:
    """ "Create, Read, Update and Delete": a crud verb next to it, across a comma, "and", "or" or "/"."""
    def joined(a: int, b: int) -> bool:   # words a and b (a < b) are items of one list
        between = low[a + 1:b]
        return all(w in ("and", "or") for w in between) and (bool(between) or any(c in gaps[b] for c in ",/&"))

    before = i - 1 if i and low[i - 1] not in ("and", "or") else i - 2
    after = i + 1 if i + 1 < len(low) and low[i + 1] not in ("and", "or") else i + 2
    return (before >= 0 and _is(low[before], "crud_verbs") and joined(before, i)) or (
        after < len(low) and _is(low[after], "crud_verbs") and joined(i, after))
