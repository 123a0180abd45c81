"""Fields named before their record: "record the date and amount of each expense", "show the due
date and priority of a task", "the name, price and stock of every product" (`find_genitive_fields`,
the pass "fields of each"), "Input fields for title, amount, and date for each entry"
(`fields_for_each`, in the pass "field lists").

The list before `of` must be column words (the strict list rule: known column words or words the
kind registry types) and `of` must be followed by one record: "each / every / a / an / the" and a
singular noun. "The number of tasks", "the total of all expenses" ask for a count or a sum, not a
column, and are left to the feature rules; "a picture of the dish" is left to the picture rule.
"""

from __future__ import annotations

from harness.offline.spec import lexicon as lx
from harness.offline.spec.build import Parsed
from harness.offline.spec.fields import parse_field_list
from harness.offline.spec.nouns import is_noun, singular_name
from harness.offline.spec.pass_helpers import STOPS, use, word
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_set, word_sets

WORDS = word_sets("fields_before_record")

_MEDIA = word_set("media_fields.media")


def find_genitive_fields(toks: list[Tok], p: Parsed) -> None:
    """Add "<fields> of each <record>" to that record; the record noun becomes an entity position."""
    for i, t in enumerate(toks):
        if t.w != "of" or t.used or word(toks, i + 1) not in WORDS.one or word(toks, i - 1) in WORDS.amounts:
            continue
        k = i + 1
        while word(toks, k) in WORDS.one:
            k += 1
        if k >= len(toks) or toks[k].clause != t.clause or not is_noun(toks, k) \
                or lx.singularize(toks[k].w) != toks[k].w or toks[k].w in lx.FIELD_VOCAB:
            continue
        found = _list_before(toks, i)
        if found is None or _who(toks, i):
            continue
        items, consumed = found
        if all(it.words[-1] in _MEDIA for it in items):
            continue   # "a picture of the dish" shows the dish; the picture rule finds its record
        name = singular_name(toks[k].w)
        have = p.fields.setdefault(name, [])
        have.extend(it for it in items if all(h.label != it.label for h in have))
        p.field_subjects.append(k)
        for m in [*consumed, i, *range(i + 1, k)]:
            use(toks[m], f"field:{name}")


def _who(toks: list[Tok], i: int) -> bool:
    """ "only the author of a recipe": who may act on the record, not a column of it."""
    k = i - 1
    if word(toks, k) not in WORDS.who_words:
        return False
    k -= 1
    while word(toks, k) in WORDS.one:
        k -= 1
    return word(toks, k) in WORDS.who_before


def _list_before(toks: list[Tok], i: int) -> tuple[list, list[int]] | None:
    """The field list that ends right before `of` at i, read from the earliest determiner that gives
    one ("show the date and the amount"; "type the name of a recipe": the name), else from the
    earliest word that does."""
    valid: list[tuple[int, tuple[list, list[int]]]] = []
    for s in range(i - 1, max(-1, i - 16), -1):
        if toks[s].clause != toks[i].clause or toks[s].used:
            break
        items, consumed = parse_field_list(toks, s, True, STOPS)
        if items and consumed and max(consumed) == i - 1:
            valid.append((s, (items, consumed)))
    starts = [v for v in valid if toks[v[0]].w in lx.DETERMINERS] or valid
    return starts[-1][1] if starts else None


def fields_for_each(toks: list[Tok], i: int, parse) -> tuple[int, list, list[int]] | None:
    """ "Input fields for title, amount, and date for each entry": (the record's index, the field
    items, consumed indices) when the fields come before the record they belong to."""
    if toks[i].used or toks[i].w not in WORDS.field_inputs or word(toks, i + 1) != "for":
        return None
    items, consumed = parse(i + 2)
    if len(items) < 2:
        return None
    k = max(consumed) + 1
    if word(toks, k) not in WORDS.for_each_preps or word(toks, k + 1) not in WORDS.for_each | {"per"} and word(toks, k) != "per":
        return None
    r = k + 1 if word(toks, k) == "per" else k + 2
    if r >= len(toks) or toks[r].clause != toks[i].clause or not is_noun(toks, r):
        return None
    return r, items, [i, i + 1, *consumed, k, k + 1]
