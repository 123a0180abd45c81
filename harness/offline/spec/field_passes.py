"""Field passes of the rule-based spec: which words of the request are an entity's fields.

Each pass marks the tokens it recognises with a `field:<entity>` role and adds FieldItems to
`Parsed.fields`: field lists after a trigger ("with", "including", "(", ":", "to choose"), column
lists ("the columns must be ..."), bullet lists under "fields for:" / "Store:", and ratings with
their range ("1 to 5 stars").
"""

from __future__ import annotations

from harness.offline.spec import lexicon as lx
from harness.offline.spec.build import Parsed
from harness.offline.spec.entities import is_noun, singular_name
from harness.offline.spec.fields import FieldItem, parse_field_list, read_enum, read_range
from harness.offline.spec.pass_helpers import STOPS as _STOPS
from harness.offline.spec.pass_helpers import nearest as _nearest
from harness.offline.spec.pass_helpers import use as _use
from harness.offline.spec.pass_helpers import word as _word
from harness.offline.spec.tokens import Tok

_VERB_TRIGGERS = frozenset({"choose", "enter", "select", "specify", "specifying", "input", "record", "pick",
                            "display", "displays", "show", "shows", "showing"})
_COLUMN_WORDS = frozenset({"columns", "fields", "attributes", "properties", "column", "field"})


def find_field_lists(toks: list[Tok], p: Parsed) -> None:
    for i, t in enumerate(toks):
        if t.used or (t.w not in lx.FIELD_TRIGGERS and t.w not in _VERB_TRIGGERS):
            continue
        j = i - 1
        if t.w in _VERB_TRIGGERS:   # "a booking form to choose date and time"
            while j >= 0 and (toks[j].w in lx.FILLER or toks[j].w in ("to", "for", ",") or toks[j].w in _FORM_WORDS):
                j -= 1
            if j < 0 or not is_noun(toks, j) or j == i - 1:
                continue
            items, consumed = parse_field_list(toks, i + 1, True, _STOPS)
            if items:
                _add_fields(toks, p, j, t, items, consumed)
            continue
        while j >= 0 and toks[j].w in lx.FILLER:
            j -= 1
        action = None
        if j > 0 and toks[j].w in lx.ACTION_NOUNS and is_noun(toks, j - 1):
            action, j = j, j - 1   # "habit creation with a name": the habit has the name
        strict = False
        if j < 0 or (t.w in ("(", ":") and lx.singularize(toks[j].w) in lx.FIELD_VOCAB):
            continue   # "category (food, rent)": a field's values, not a record type with fields
        if not is_noun(toks, j):
            if t.w not in lx.LOOSE_TRIGGERS or toks[j].w not in lx.APP_HEADS:
                continue
            while j >= 0 and toks[j].w in lx.APP_HEADS:
                j -= 1
            if j < 0 or not is_noun(toks, j):
                continue
            strict = True
        kinds = _kind_values(toks, i) if t.w == "(" and not strict else None
        if kinds:
            items, consumed = [FieldItem(words=["type"], enum_values=kinds[0])], list(range(i + 1, kinds[1]))
        else:
            items, consumed = parse_field_list(toks, i + 1, strict, _STOPS)
        k = i + 1
        while k < len(toks) and toks[k].w in lx.DETERMINERS:
            k += 1
        if not items and k < len(toks) and toks[k].role == "workflow:":
            p.field_subjects.append(j)   # "applications with a status: draft / submitted"
        if items:
            k = max(consumed) + 1 if consumed else i + 1
            while k < len(toks) and toks[k].w in lx.SEPARATORS | lx.DETERMINERS:
                k += 1
            if is_noun(toks, k) and lx.singularize(toks[k].w) != toks[k].w:
                p.field_subjects.append(k)   # "products with a name and category, and categories"
            _add_fields(toks, p, j, t, items, consumed + ([action] if action is not None else []))


def _kind_values(toks: list[Tok], i: int) -> tuple[list[str], int] | None:
    """ "inventory movement (inflow, outflow, adjustments)": one-word items none of which is a
    column name are the kinds of the record (a `type` enum), not its fields; (values, end)."""
    values, end = read_enum(toks, i)
    if not values or any(" " in v or v in lx.FIELD_VOCAB or lx.singularize(v) in lx.FIELD_VOCAB
                         or v in lx.FUNCTION or v in lx.META for v in values):
        return None
    return [lx.singularize(v) for v in values], end


def find_column_lists(toks: list[Tok], mentions: dict[int, str], p: Parsed) -> int:
    """ "the columns must be Title, Author, ISBN and Price": fields of the entity in the clause."""
    found = 0
    for i, t in enumerate(toks):
        if t.used or t.w not in _COLUMN_WORDS:
            continue
        j = i + 1
        while _word(toks, j) in ("must", "should", "will", "are", "is", "be", "include", "including", ":"):
            j += 1
        entity = _nearest(toks, i, mentions, reach=20)
        if j == i + 1 or entity is None:
            continue
        items, consumed = parse_field_list(toks, j, False, _STOPS)
        if items:
            p.fields.setdefault(entity, []).extend(items)
            for k in [i, *range(i + 1, j), *consumed]:
                _use(toks[k], f"field:{entity}")
            found += 1
    return found


def find_field_bullets(toks: list[Tok], mentions: dict[int, str], p: Parsed) -> int:
    """ "a form to add a transaction with fields for:" followed by "- Date (date picker)" lines:
    each following short clause that is one field belongs to that entity."""
    found = 0
    for i, t in enumerate(toks):
        before = range(max(0, i - 3), i)
        store = any(toks[k].w in _STORE_VERBS for k in before)
        if t.w != ":" or _word(toks, i + 1) != "." or not store and not any(
                toks[k].role.startswith("field:") or toks[k].w in _COLUMN_WORDS | {"with", "for"}
                for k in before):
            continue
        entity = _nearest(toks, i, mentions, reach=20) or (_main_entity(mentions) if store else None)
        k = i + 2
        upper = _word_case(toks, k)
        while entity and k < len(toks):
            end = next((m for m in range(k, len(toks)) if toks[m].w == "."), len(toks))
            if _word_case(toks, k) != upper:
                break   # "- date / - amount" then "Quality": the list's style changed, a heading
            items, consumed = parse_field_list(toks, k, False, _STOPS)
            if not items and any(m in mentions for m in range(k, end)) and all(
                    m in mentions or toks[m].w in ("optional", "required") or toks[m].w in lx.DETERMINERS
                    for m in range(k, end)):
                k = end + 1   # "- category" when categories are records of their own
                continue
            if not 1 <= len(items) <= 3 or end - k > 14 or any(
                    toks[m].role == "" and not toks[m].used and toks[m].w[:1].isalpha() and m not in consumed
                    and toks[m].w not in _BULLET_TAIL for m in range(k, end)):
                break
            p.fields.setdefault(entity, []).extend(items)
            for m in range(k, end):
                _use(toks[m], f"field:{entity}")
            found += 1
            k = end + 1
    return found


# "Store:" / "Track:" above a bullet list of fields of the app's main record.
_STORE_VERBS = frozenset({"store", "stores", "track", "tracks", "record", "records", "capture", "captures",
                          "save", "saves", "keep", "keeps", "fields", "columns"})
_BULLET_TAIL = frozenset({"where", "when", "if", "applicable", "needed", "possible", "available", "any"})


def _word_case(toks: list[Tok], k: int) -> bool:
    """Whether the first word of the clause at k starts with a capital (as the user wrote it)."""
    return k < len(toks) and toks[k].orig[:1].isupper()


def _main_entity(mentions: dict[int, str]) -> str | None:
    """The record mentioned most often (the earliest of a tie)."""
    counts: dict[str, int] = {}
    for k in sorted(mentions):
        counts[mentions[k]] = counts.get(mentions[k], 0) + 1
    return max(counts, key=counts.get) if counts else None


_FORM_WORDS = frozenset({"form", "forms", "page", "screen", "dialog", "modal"})


def _add_fields(toks: list[Tok], p: Parsed, j: int, trigger: Tok, items: list, consumed: list[int]) -> None:
    name = singular_name(toks[j].w)
    p.fields.setdefault(name, []).extend(items)
    p.field_subjects.append(j)
    _use(trigger, f"field:{name}")
    for k in consumed:
        _use(toks[k], f"field:{name}")


def find_ratings(toks: list[Tok], mentions: dict[int, str], p: Parsed) -> None:
    """ "rate recipes from 1 to 5 stars", "a 1-5 star rating": a rating field with its range."""
    for i, t in enumerate(toks):
        if t.used or t.w not in ("rate", "rating", "ratings", "stars", "star", "score"):
            continue
        rng, end = None, i
        for j in range(i + 1, min(i + 6, len(toks))):
            rng = read_range(toks, j)
            if rng:
                break
        if rng is None and i >= 2:
            rng = read_range(toks, i - 3) or read_range(toks, i - 2) or read_range(toks, i - 1)
        if rng is None:
            continue
        entity = _nearest(toks, i, mentions)
        if entity is None:
            continue
        low, high, end = rng
        start = min(i, next((k for k in range(max(0, i - 4), i) if read_range(toks, k)), i))
        for k in range(start, max(end, i + 1)):
            if not toks[k].used:
                _use(toks[k], f"field:{entity}")
        items = p.fields.setdefault(entity, [])
        if not any(it.label == "rating" for it in items):
            items.append(FieldItem(words=["rating"], min_value=low, max_value=high))
        p.field_clauses.setdefault(entity, []).append(t.clause)
