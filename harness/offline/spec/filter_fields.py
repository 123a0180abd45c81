"""Columns a filter or sort names: "filter courts by location", "sort expenses based on criteria
such as date ranges, categories", "the workout log can be sorted by time or rating" — the named
columns become fields of the record (a sort by time is by when records were added: created_at)."""

from __future__ import annotations

from harness.offline.spec import lexicon as lx
from harness.offline.spec.build import Parsed
from harness.offline.spec.fields import FieldItem, parse_field_list
from harness.offline.spec.pass_helpers import STOPS, past_determiners, use, word
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_sets

WORDS = word_sets("filter_fields")


def find_filter_fields(toks: list[Tok], mentions: dict[int, str], p: Parsed) -> int:
    """ "filter courts by location", "sort expenses based on criteria such as date ranges,
    categories": the columns a filter or sort names are fields of its record."""
    found = 0
    for i, t in enumerate(toks):
        if t.used or t.w not in WORDS.by_triggers:
            continue
        m = i + 1
        while m < len(toks) and toks[m].w in lx.DETERMINERS | WORDS.by_skip_extra:
            m += 1
        entity = mentions.get(m)
        if entity is None and word(toks, i - 1) in WORDS.passive:
            # "the workout log can be sorted by time or rating": the record named before the verb
            m, entity = i, _mention_before(toks, i, mentions)
        if entity is None or word(toks, m + 1) not in WORDS.by_leads:
            continue
        if t.w in WORDS.new_sorts and past_determiners(toks, m + 2) in mentions:
            continue   # "events organized by (the) clubs": who organizes them, not an order
        # "can be sorted by time", "organized by date": when the records were added (created_at);
        # the active "sort tasks by date" keeps giving the record that field, as before
        by_added = t.w in WORDS.sorts and (m == i or t.w in WORDS.new_sorts)
        k = m + 1
        while k < len(toks) and toks[k].w in WORDS.by_words and not toks[k].used:
            k += 1
        plural_ok = frozenset(toks[x].w for x in range(k, min(k + 24, len(toks))))   # "by categories"
        items, consumed = parse_field_list(toks, k, False, STOPS, plural_ok)
        kept, dropped = [], set()
        for it in items:
            words = it.words[:-1] if len(it.words) > 1 and it.words[-1] in WORDS.range_words else it.words
            words = words[:-1] + [lx.singularize(words[-1])]
            if by_added and len(words) == 1 and words[0] in lx.WHEN_WORDS:
                dropped |= set(words)   # the order records were added in: created_at
                continue
            if words[-1] not in WORDS.search_words and " ".join(words) not in p.plurals:
                kept.append(FieldItem(words=words, enum_values=it.enum_values, by_filter=True))
            else:   # "specific keywords" asks for a search: its words stay for the accounting
                dropped |= set(it.words) | {w + "s" for w in it.words}
        if not kept:
            continue
        have = p.fields.setdefault(entity, [])
        have.extend(it for it in kept if all(h.label != it.label for h in have))
        for x in [*range(m + 1, k), *consumed]:
            if not toks[x].used and lx.singularize(toks[x].w) not in dropped and toks[x].w not in dropped:
                use(toks[x], f"field:{entity}")
        found += 1
    return found


def _mention_before(toks: list[Tok], i: int, mentions: dict[int, str]) -> str | None:
    """The record named last before `i` in its clause ("the workout log can be sorted")."""
    for j in range(i - 1, max(-1, i - 8), -1):
        if toks[j].clause != toks[i].clause:
            return None
        if j in mentions:
            return mentions[j]
    return None
